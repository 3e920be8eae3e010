"""Programs in languages signoff does not read: Perl, Ruby, Node.js, PHP, Lua, R, awk, the
shells outside bash's family (fish, csh, tcsh, PowerShell, xonsh, nushell, elvish), Tcl's `expect`
and the command languages of gdb, vim and emacs.

Any of them can run a command (`perl -e 'system("docker run ...")'`, `awk 'BEGIN {
system("...") }'`, `node -e 'require("child_process").execSync("...")'`), so a program given
inline makes the reading incomplete (Perl's not when it is one plain substitution, `perl -pi
-e 's/a/b/' f`, an edit the checks judge as such; awk only when its program, as far as it is
known, can run a command or read one's output: `system`, `getline`, a pipe; it is mostly
`{print $2}`),
and a program file such an interpreter runs is a file run by name, as a shell script is (the
checks hold it against a PASS when the PR may have written it). InferenceX's scripts use none
of them but awk, and no awk program of theirs runs a command.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from signoff.parse.shell.fields import Field
from signoff.parse.shell.script_files import WRAPPERS, basename, command_index
from signoff.parse.shell.sed import read_sed, sed_programs

# The interpreters, their version suffixes allowed (`perl5.36`, `node20`).
_INTERPRETER = re.compile(
    r"(perl|ruby|node|nodejs|php|lua|luajit|Rscript|bun|deno|fish|csh|tcsh|pwsh|powershell|xonsh|nu"
    r"|elvish|expect|tclsh|wish|gdb|vim|vi|nvim|ex|view|gvim|emacs)[\d.]*"
)
# Options giving the program inline: Perl's and Ruby's `-e` at the end of a cluster (`-lne`).
_COMMANDS_ANYWHERE = frozenset(
    {"-ex", "--eval-command", "-iex", "--init-eval-command", "-x", "--command", "-ix",
     "--init-command", "-c", "--cmd", "-S", "-s"}
)  # fmt: skip
_INLINE = {
    "node": frozenset({"-e", "--eval", "-p", "--print"}),
    "nodejs": frozenset({"-e", "--eval", "-p", "--print"}),
    "bun": frozenset({"-e", "--eval", "-p", "--print"}),
    "deno": frozenset(),  # `deno eval CODE`: a subcommand (`_SUBCOMMAND_INLINE`)
    "php": frozenset({"-r"}),
    "lua": frozenset({"-e"}),
    "luajit": frozenset({"-e"}),
    "Rscript": frozenset({"-e"}),
    "fish": frozenset({"-c", "--command", "-C", "--init-command"}),
    "csh": frozenset({"-c", "-fc", "-bc", "-ec"}),
    "tcsh": frozenset({"-c", "-fc", "-bc", "-ec"}),
    "pwsh": frozenset({"-c", "-Command", "-command", "-EncodedCommand", "-e", "-ec"}),
    "powershell": frozenset({"-c", "-Command", "-command", "-EncodedCommand", "-e", "-ec"}),
    "xonsh": frozenset({"-c"}),
    "nu": frozenset({"-c", "--commands", "-e", "--execute"}),
    "elvish": frozenset({"-c"}),
    "expect": frozenset({"-c"}),
    "tclsh": frozenset(),
    "wish": frozenset(),
    **{name: _COMMANDS_ANYWHERE for name in ("gdb", "vim", "vi", "nvim", "ex", "view", "gvim")},
    "emacs": frozenset({"--eval", "-l", "--load", "-f", "--funcall", "--script", "-x"}),
}
# Programs that take their commands among their other words, and whose operands are no program
# of theirs (the program gdb debugs, the files vim edits): `gdb -batch -ex 'shell CMD'`,
# `vim -es -c '!CMD'`, `vim +'!CMD'`.
_OPERANDS_NOT_PROGRAMS = frozenset({"gdb", "vim", "vi", "nvim", "ex", "view", "gvim", "emacs"})
_CLUSTER_E = re.compile(r"-[A-Za-z]*[eE]")
# A Perl program that is one substitution or transliteration and runs nothing: no `e` flag
# (which evaluates the replacement), no code in the pattern (`(?{ })`) or in an interpolation
# (`@{[ ]}`, `${\ }`), no backtick.
_PERL_SUBSTITUTION = re.compile(
    r"\s*(?:s|y|tr)([/|#!,:])(?:(?!\(\?\??\{|@\{|\$\{|`)[^\\]|\\.)*?\1"
    r"(?:(?!\(\?\??\{|@\{|\$\{|`)[^\\]|\\.)*?\1[a-df-z]*\s*;?\s*"
)
# Interpreters whose program file follows a subcommand (`bun run x.ts`, `deno run x.ts`), and
# the subcommands that run code given inline (`deno eval CODE`).
_SUBCOMMAND_RUNS = {
    "bun": frozenset({"run"}),
    "deno": frozenset({"run", "test", "bench", "serve", "compile"}),
}
_SUBCOMMAND_INLINE = {"deno": frozenset({"eval", "repl"})}
# Options whose value is the next word, for finding the program file.
_VALUED = frozenset({"-I", "-M", "-m", "-r", "--require", "-f", "-F", "-v", "-x"})
_AWK = frozenset({"awk", "gawk", "mawk", "nawk"})
_SED = frozenset({"sed", "gsed"})  # its `e` command runs one (shell.sed)
_AWK_VALUED = frozenset({"-F", "-v", "-f", "--field-separator", "--assign", "--file"})
# What runs a command in awk: `system(...)`, `getline` from one, a two-way `|&`, or a `print`
# piped into one (`print x | "sh"`); `||` and a regex's `a|b` do not.
_AWK_RUNS = re.compile(r"\bsystem\s*\(|\bgetline\b|\|&|\b(?:print|printf)\b[^;\n}]*(?<!\|)\|(?!\|)")


def other_program(argv: Sequence[Field]) -> tuple[str, Field | None]:
    """What `inline_program` says of the command, and else the program file it runs."""
    if not _may_be_one(argv):
        return "", None  # nearly every command
    inline = inline_program(argv)
    return inline, None if inline else program_file(argv)


def inline_program(argv: Sequence[Field]) -> str:
    """`perl -e` (the interpreter and option) when the command runs a program given inline in
    a language signoff does not read, `awk` when its program can run a command ("": neither)."""
    if not _may_be_one(argv):
        return ""  # nearly every command
    start = command_index(argv)
    if start >= len(argv) or not argv[start].known:
        return ""
    head = basename(argv[start].text)
    if head in _AWK:
        program = _awk_program(argv[start + 1 :])
        runs = program is not None and _AWK_RUNS.search(program.text) is not None
        return f"{head} (a program that runs commands)" if runs else ""
    if head in _SED:
        known = [p.text for p in sed_programs(argv) or () if p.known]
        runs = any(read_sed(program).runs for program in known)
        return f"{head} (a program that runs commands)" if runs else ""
    match = _INTERPRETER.fullmatch(head)
    if match is None:
        return ""
    inline = _INLINE.get(match[1])
    words = argv[start + 1 :]
    subcommand = _first_operand(words)
    if subcommand is not None and subcommand in _SUBCOMMAND_INLINE.get(match[1], ()):
        return f"{head} {subcommand}"
    if match[1] in _OPERANDS_NOT_PROGRAMS:
        return _commands_anywhere(head, words, inline or frozenset())
    for i, word in enumerate(words):
        if not word.known or not word.text.startswith("-"):
            return ""  # the program file: options come before it
        text = word.text
        if (text in inline) if inline is not None else _CLUSTER_E.fullmatch(text) is not None:
            program = words[i + 1] if i + 1 < len(words) else None
            perl = match[1] == "perl" and program is not None and program.known
            if perl and program is not None and _PERL_SUBSTITUTION.fullmatch(program.text):
                return ""  # `perl -pi -e 's/a/b/' f`: an edit, which runs nothing
            return f"{head} {text}"
    return ""


def _commands_anywhere(head: str, words: Sequence[Field], options: frozenset[str]) -> str:
    """gdb's, vim's or emacs's commands among its words (`-ex CMD`, `-c CMD`, vim's `+CMD`); a
    word known only at run time may be one."""
    for word in words:
        if not word.known:
            return f"{head} (a word known only at run time)"
        text = word.text.split("=", 1)[0]
        if text in options:
            return f"{head} {text}"
        if head not in ("gdb", "emacs") and text.startswith("+"):
            return f"{head} +CMD"
    return ""


def program_file(argv: Sequence[Field]) -> Field | None:
    """The program file one of these interpreters runs (`perl x.pl`, `awk -f x.awk`)."""
    if not _may_be_one(argv):
        return None
    start = command_index(argv)
    if start >= len(argv) or not argv[start].known or inline_program(argv):
        return None
    head = basename(argv[start].text)
    words = list(argv[start + 1 :])
    if head in _AWK or head in _SED:
        for i, word in enumerate(words[:-1]):
            if word.known and word.text in ("-f", "--file"):
                return words[i + 1]
        return None
    match = _INTERPRETER.fullmatch(head)
    if match is None or match[1] in _OPERANDS_NOT_PROGRAMS:
        return None
    i = 0
    while i < len(words) and words[i].known and words[i].text.startswith("-"):
        if match[1] not in _INLINE and _CLUSTER_E.fullmatch(words[i].text):
            return None  # `perl -pi -e 's/a/b/' f`: the next word is the program, an edit
        i += 2 if words[i].text in _VALUED else 1
    if i < len(words) and words[i].known and words[i].text in _SUBCOMMAND_RUNS.get(match[1], ()):
        i += 1  # `deno run --allow-all x.ts`: its options, then the file
        while i < len(words) and words[i].known and words[i].text.startswith("-"):
            i += 2 if words[i].text in _VALUED else 1
    return words[i] if i < len(words) else None


def _first_operand(words: Sequence[Field]) -> str | None:
    """The first word that is no option (None: none, or known only at run time)."""
    for word in words:
        if not word.known:
            return None
        if not word.text.startswith("-"):
            return word.text
    return None


def _may_be_one(argv: Sequence[Field]) -> bool:
    """The command is one of these interpreters, or a wrapper that may run one."""
    first = basename(argv[0].text) if argv and argv[0].known else ""
    return (
        first in _AWK
        or first in _SED
        or first in WRAPPERS
        or _INTERPRETER.fullmatch(first) is not None
    )


def _awk_program(words: Sequence[Field]) -> Field | None:
    i = 0
    while i < len(words) and words[i].known and words[i].text.startswith("-"):
        if words[i].text in ("-f", "--file"):
            return None  # the program is a file
        i += 2 if words[i].text in _AWK_VALUED else 1
    return words[i] if i < len(words) else None
