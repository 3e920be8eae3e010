"""What an `eval` of a caller's argument runs, read from the argument as the call writes it.

A helper such as `run_barrier_or_die DESC CMD` evals its second argument, and every call hands
it one program with its options: `"python3 $WS/sync.py barrier --node-ips ${IPADDRS}"`. The
values are known only at run time, so the eval stays unread; but its text, with each value
taken as one word of data, is one external command: it defines no function, sets no variable
and changes no shell option the later commands could read. Anything else (a builtin, an
assignment, a second command, a redirect, a substitution, a quote or escape inside, a glob, an
expansion in the command name) leaves what it does unknown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from signoff.parse.benchmark.eval_assignments import DATA_FILE

# bash's builtins and reserved words: each may change the shell's state or run its arguments
_SHELL_WORDS = frozenset(
    {".", ":", "[", "[[", "]]", "{", "}", "!", "alias", "bg", "bind", "break", "builtin",
     "caller", "case", "cd", "command", "compgen", "complete", "compopt", "continue", "coproc",
     "declare", "dirs", "disown", "do", "done", "echo", "elif", "else", "enable", "esac", "eval",
     "exec", "exit", "export", "false", "fc", "fg", "fi", "for", "function", "getopts", "hash",
     "help", "history", "if", "in", "jobs", "kill", "let", "local", "logout", "mapfile", "popd",
     "printf", "pushd", "pwd", "read", "readarray", "readonly", "return", "select", "set",
     "shift", "shopt", "source", "suspend", "test", "then", "time", "times", "trap", "true",
     "type", "typeset", "ulimit", "umask", "unalias", "unset", "until", "wait", "while"}
)  # fmt: skip
_VALUE = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Za-z_][A-Za-z0-9_]*")
_PROGRAM = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*|/[A-Za-z0-9_./+-]+")
_NOT_PLAIN = re.compile(r"[\\`\"'$;&|<>(){}*?\[\]!#~\n]")


@dataclass(frozen=True)
class PlainCommand:
    """One external command an eval runs: its program name as written, and the data files its
    text names (by base name), which feed it."""

    program: str
    files: frozenset[str]


def plain_command(word: str, functions: frozenset[str]) -> PlainCommand | None:
    """The one external command with arguments an eval of `word` (a call's argument, as
    written) runs (see the module doc), or None when that is not known. `functions`: the
    script's own functions, which may set anything."""
    if len(word) >= 2 and word[0] == word[-1] == '"':
        inner = word[1:-1]
    elif '"' in word or "'" in word:
        return None
    else:
        inner = word
    inner = inner.replace("\\\n", " ")  # a line continuation inside double quotes
    plain = _VALUE.sub("X", inner)
    if _NOT_PLAIN.search(plain):
        return None
    words = plain.split()
    if not words or _PROGRAM.fullmatch(words[0]) is None:
        return None
    if words[0] in _SHELL_WORDS or words[0] in functions or "$" in inner.split()[0]:
        return None  # a builtin, the script's own function, or a name known only at run time
    return PlainCommand(words[0], frozenset(DATA_FILE.findall(inner)))
