"""What a sed program may do besides editing text: run a command or write a file.

GNU sed runs the pattern space as a command with `e`, and a substitution's result with the
`e` flag (`s/.*/docker run .../e`); `w FILE` (and the `w` flag) writes a file the script may
then run. InferenceX's sed programs are substitutions, deletions and appends. The program is
read command by command (addresses, `{...}`, `s` and `y` with any delimiter, text arguments to
the end of the line); text that does not read as a sed program counts as one that may run a
command, since what GNU sed would do with it is not known.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from signoff.parse.shell.fields import Field
from signoff.parse.shell.script_files import basename, command_index

_SED = frozenset({"sed", "gsed"})
# Options whose value is the next word (`-l N`), and those giving the program or its file.
_VALUED = frozenset({"-l", "--line-length"})
_PROGRAM = frozenset({"-e", "--expression"})
_PROGRAM_FILE = frozenset({"-f", "--file"})
# Commands taking nothing, a label or number to the command's end, or text or a file name
# to the end of the line.
_PLAIN = frozenset("=dDgGhHnNpPxzF")
_TO_END = frozenset("btT:qQlLv")
_TO_LINE_END = frozenset("aic")
_FILE_ARGUMENT = frozenset("rRwW")
_SEPARATORS = " \t\n;"


class SedProgram(NamedTuple):
    """What a sed program may do besides editing: run commands, write files."""

    runs: bool  # `e`, the `e` flag, or text that is no sed program
    writes: tuple[str, ...]  # files `w`/`W` and the `w` flag name


def sed_programs(argv: Sequence[Field]) -> list[Field] | None:
    """The programs a `sed` command is given inline (`-e P`, `--expression=P`, or its first
    operand); None when the command is no sed or takes its program from a file."""
    start = command_index(argv)
    if start >= len(argv) or not argv[start].known or basename(argv[start].text) not in _SED:
        return None
    words = argv[start + 1 :]
    programs: list[Field] = []
    i = 0
    while i < len(words):
        word = words[i]
        text = word.text if word.known else ""
        if text == "--":
            i += 1
            break
        if not text.startswith("-") or text == "-":
            break
        if text in _PROGRAM_FILE or text.startswith(("--file=", "-f")):
            return None  # a program file: a file run by name (other_languages.program_file)
        if text.startswith("--expression="):
            programs.append(Field(text.split("=", 1)[1], True, "", word.line))
        elif text in _PROGRAM or (not text.startswith(("--", "-i", "-l")) and text.endswith("e")):
            if i + 1 < len(words):
                programs.append(words[i + 1])
            i += 1
        elif text in _VALUED:
            i += 1
        i += 1
    if not programs and i < len(words):
        programs.append(words[i])
    return programs


def read_sed(program: str) -> SedProgram:
    """What `program` may do besides editing text."""
    writes: list[str] = []
    at, size = 0, len(program)
    while at < size:
        char = program[at]
        if char in _SEPARATORS or char in "{}":
            at += 1
            continue
        if char == "#":
            at = _line_end(program, at)
            continue
        addressed = _address_range(program, at)
        if addressed is None:
            return SedProgram(True, tuple(writes))
        at = _skip_blanks(program, addressed)
        if at < size and program[at] == "!":
            at = _skip_blanks(program, at + 1)
        if at >= size:
            return SedProgram(True, tuple(writes))  # an address and no command
        command = program[at]
        at += 1
        if command == "e":
            return SedProgram(True, tuple(writes))
        if command in ("s", "y"):
            end = _delimited(program, at, 2)
            if end is None:
                return SedProgram(True, tuple(writes))
            at = end
            if command == "s":
                flags_end = at
                while flags_end < size and program[flags_end] not in ";\n}":
                    if program[flags_end] == "w":  # the rest of the line names a file
                        break
                    flags_end += 1
                flags = program[at:flags_end]
                if "e" in flags:
                    return SedProgram(True, tuple(writes))
                at = flags_end
                if at < size and program[at] == "w":
                    end = _line_end(program, at)
                    writes.append(program[at + 1 : end].strip())
                    at = end
        elif command in _FILE_ARGUMENT:
            end = _line_end(program, at)
            if command in "wW":
                writes.append(program[at:end].strip())
            at = end
        elif command in _TO_LINE_END:
            at = _text_end(program, at)
        elif command in _TO_END:
            while at < size and program[at] not in ";\n}":
                at += 1
        elif command not in _PLAIN and command != "{":
            return SedProgram(True, tuple(writes))  # no sed command signoff knows
    return SedProgram(False, tuple(w for w in writes if w))


def _skip_blanks(program: str, at: int) -> int:
    while at < len(program) and program[at] in " \t":
        at += 1
    return at


def _line_end(program: str, at: int) -> int:
    end = program.find("\n", at)
    return len(program) if end < 0 else end


def _text_end(program: str, at: int) -> int:
    """The end of an `a`/`i`/`c` text: its line, and the next while a line ends with `\\`."""
    while True:
        end = _line_end(program, at)
        if end >= len(program) or not program[at:end].endswith("\\"):
            return end
        at = end + 1


def _address_range(program: str, at: int) -> int | None:
    """Past an optional address or range (`3`, `$`, `/re/I`, `\\%re%`, `1~2`, `0,/re/`,
    `/a/,+3`); None when the text there is no address."""
    at_ = _address(program, at)
    if at_ is None:
        return None
    at = _skip_blanks(program, at_)
    if at < len(program) and program[at] == ",":
        at = _skip_blanks(program, at + 1)
        if at < len(program) and program[at] in "+~":
            at += 1
            start = at
            while at < len(program) and program[at].isdigit():
                at += 1
            return at if at > start else None
        end = _address(program, at)
        if end is None or end == at:
            return None
        at = end
    return at


def _address(program: str, at: int) -> int | None:
    size = len(program)
    if at >= size:
        return at
    char = program[at]
    if char.isdigit():
        while at < size and (program[at].isdigit() or program[at] == "~"):
            at += 1
        return at
    if char == "$":
        return at + 1
    if char == "/" or (char == "\\" and at + 1 < size):
        if char == "\\":
            at += 1
        end = _delimited(program, at, 1)
        if end is None:
            return None
        while end < size and program[end] in "IM":
            end += 1
        return end
    return at  # no address: the command applies to every line


def _delimited(program: str, at: int, parts: int) -> int | None:
    """Past `parts` parts delimited by the character at `at` (`/re/`, `|a|b|`); a backslash
    escapes the next character. None when the program ends first."""
    if at >= len(program) or program[at] in "\n\\":
        return None
    delimiter = program[at]
    at += 1
    for _ in range(parts):
        while True:
            if at >= len(program):
                return None
            char = program[at]
            if char == "\\":
                at += 2
                continue
            at += 1
            if char == delimiter:
                break
    return at
