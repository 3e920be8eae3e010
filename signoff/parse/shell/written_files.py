"""Files a script writes as it runs, and the programs it then runs from them.

A script can write a program and run it: `printf '...' > /tmp/r.sh; bash /tmp/r.sh`,
`cat > job.py <<'EOF' ... EOF; python3 job.py`, `bash -s < /tmp/r.sh`. What it writes is the
PR's code as much as the script's own lines are. A heredoc written as it stands (a quoted
delimiter, or nothing in it to expand) is read as the program it becomes; a file written any
other way holds what is known only when the script runs (the reader, shell.simple, makes that
reading incomplete).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from typing import Literal

from signoff.parse.shell.fields import Field
from signoff.parse.shell.script_files import (
    COMMAND_FILE_READERS,
    INTERPRETERS,
    PYTHON,
    basename,
    command_index,
)
from signoff.parse.shell.sed import read_sed, sed_programs

# Commands that write the files their operands name: every operand (`tee`, `sponge`), the last one
# (`cp`, `mv`, `install`, `ln`, `rsync`: into it when it is a directory), `dd of=F`, and a
# stream editor changing files in place (`sed -i`, `perl -i`).
_EVERY_OPERAND = frozenset({"tee", "sponge"})
# What a copy of is the command's own input, written as the script feeds it.
STDIN_FILES = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
_LAST_OPERAND = frozenset({"cp", "mv", "install", "ln", "rsync"})
_IN_PLACE = frozenset({"sed", "perl"})
# Commands whose output is what a URL serves (`curl URL > f`): judge/fetched_code's to follow.
FETCHERS = frozenset({"curl", "wget"})
# Names that are no file a program could be read from.
_NOT_FILES = ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/", "&")

Program = Literal["shell", "python"]

# Files programs read commands from when they start (a shell's startup files, git's hooks and
# settings, ssh's settings, the libraries every program loads): a script that writes one runs
# what it holds later, in any such program. By file name, and by the end of the path.
_STARTUP_NAMES = frozenset(
    {".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv",
     ".zprofile", ".zlogin", ".kshrc", ".mkshrc", ".gitconfig"}
)  # fmt: skip
_STARTUP_PATHS = re.compile(
    r"(?:^|/)(?:etc/profile(?:\.d/.*)?|etc/bash\.bashrc|etc/bashrc|etc/zsh/.+|\.git/hooks/.+"
    r"|\.git/config|\.config/git/config|etc/gitconfig|\.ssh/config|etc/ssh/ssh_config(?:\.d/.+)?"
    r"|etc/ld\.so\.preload)$"
)


def read_at_start(path: str) -> bool:
    """Whether `path` names a file programs read commands from when they start."""
    text = path.rstrip("/")
    return text.rsplit("/", 1)[-1] in _STARTUP_NAMES or _STARTUP_PATHS.search(text) is not None


def argument_writes(argv: Sequence[Field]) -> list[tuple[Field, Field | None]]:
    """The files a command writes by naming them in its arguments (none for most commands),
    each with the file it copies there (None: what it writes is its own output)."""
    name = basename(argv[0].text) if argv and argv[0].known else ""
    if name not in _EVERY_OPERAND | _LAST_OPERAND | _IN_PLACE and name != "dd":
        return []
    operands = [w for w in argv[1:] if not (w.known and w.text.startswith("-"))]
    if name == "dd":
        return [(_after(w, 3), None) for w in argv[1:] if w.text.startswith("of=")]
    if name in _EVERY_OPERAND:
        return [(w, None) for w in operands]
    if name in _IN_PLACE:
        in_place = any(w.known and w.text.startswith("-i") for w in argv[1:])
        written: list[tuple[Field, Field | None]] = [(w, None) for w in operands[1:] if in_place]
        if name == "sed":  # `w FILE` in the program
            programs = [p for p in sed_programs(argv) or () if p.known]
            for program in programs:
                written += [
                    (Field(f, True, "", program.line), None) for f in read_sed(program.text).writes
                ]
        return written
    if len(operands) < 2:
        return []
    target, sources = operands[-1], operands[:-1]
    if any(source.text in STDIN_FILES for source in sources):  # `install /dev/stdin f <<EOF`
        return [(target, None)]
    copied: list[tuple[Field, Field | None]] = [(target, source) for source in sources]
    copied += [(_joined(target, source), source) for source in sources if source.known]
    return copied


def redirected_copies(argv: Sequence[Field], heredoc: bool) -> list[Field] | None:
    """What a command redirected into a file writes there: the file `cat` prints (a copy of
    it; [] for a heredoc or several files, which the command writes itself), None for a
    fetcher's output (what the URL serves), [] for any other command's own output."""
    name = basename(argv[0].text) if argv and argv[0].known else ""
    if name in FETCHERS:
        return None
    if name != "cat" or heredoc:
        return []
    operands = [w for w in argv[1:] if not (w.known and w.text.startswith("-"))]
    return operands if len(operands) == 1 else []


def writable(field: Field) -> bool:
    """A word that may name a file a program is later read from."""
    return bool(field.text) and not field.text.startswith(_NOT_FILES)


def file_key(word: str) -> str:
    """A word naming a file, as the reader keys the files it writes: two words name the same
    file when their keys are equal (`./r.sh` is `r.sh`; a run-time word is kept as written)."""
    return posixpath.normpath(word) if "$" not in word and "`" not in word else word


def program_kind(argv: Sequence[Field], body: str) -> Program | None:
    """What reads the file the command runs: a shell (named, or the file run as a command with
    a shell's `#!` line or none, which bash runs itself) or Python; None for anything else."""
    start = command_index(argv)
    head = basename(argv[start].text) if start < len(argv) and argv[start].known else ""
    if head in INTERPRETERS:
        return "shell"
    if head in COMMAND_FILE_READERS:
        return None  # a makefile, a compose file
    if PYTHON.fullmatch(head):
        return "python"
    first = body.split("\n", 1)[0]
    if not first.startswith("#!"):
        return "shell"
    words = first[2:].split() or [""]
    program = basename(words[-1] if basename(words[0]) == "env" else words[0])
    if program in INTERPRETERS:
        return "shell"
    return "python" if PYTHON.fullmatch(program) else None


def _after(word: Field, cut: int) -> Field:
    return Field(word.text[cut:], word.known, "", word.line)


def _joined(directory: Field, source: Field) -> Field:
    text = f"{directory.text.rstrip('/')}/{basename(source.text)}"
    return Field(text, directory.known, "", directory.line)
