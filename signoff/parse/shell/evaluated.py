"""Text that bash runs as code where it is used, not where it is written.

Arithmetic evaluates a variable's value as an expression, and an indexed array's subscript
in it is expanded first, command substitutions included: `a='x[$(cmd)]'; echo $((a))` runs
`cmd`, and so do `[[ $a -eq 1 ]]`, `((a))`, `let`, an integer variable's assignment, and a
builtin given such a subscript as a variable's name (`read`, `printf -v`, `unset`,
`declare`, `test -v`, `${!name}`). A prompt expansion (`${x@P}`, and `PS4` under `set -x`)
runs the command substitutions in its value, and `mapfile -C` runs its callback. The reader
reads none of these as commands, so a known value that would run one makes the reading
incomplete (a value known only at run time is no new finding: the PR did not write it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from signoff.parse.shell.fields import Field

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DEPTH = 8  # values naming variables whose values name variables ... (bash recurses too)
# Builtins whose operands are variable names (or `NAME=value` words: the name part), read by
# name as the builtin runs; `printf` and `wait` name one by `-v`/`-p`, `test` by `-v`.
_NAMING = frozenset({"read", "mapfile", "readarray", "unset", "declare", "typeset", "local",
                     "export", "readonly", "getopts"})  # fmt: skip
_NAME_OPTION = {"printf": "-v", "wait": "-p", "test": "-v", "[": "-v"}
# The commands the reader asks `named_variables` about, and those that run code otherwise.
EVALUATES_NAMES = (
    _NAMING | frozenset(_NAME_OPTION) | {"let", "fc", "mapfile", "readarray", "compgen"}
)
# Prompt strings bash expands (`$(...)` in them runs): PS4 for each line `set -x` traces, the
# others in every interactive shell the script starts (`bash -i`).
PROMPTS = frozenset({"PS0", "PS1", "PS2", "PS4"})


@lru_cache(maxsize=1024)  # a value is asked again at every use (a string's hash is kept)
def subscript_runs(text: str) -> bool:
    """Whether arithmetic evaluating `text` may run a command: a command substitution after a
    subscript opens (`x[$(cmd)]`, ``x[`cmd`]``). Read in one pass: a hostile value of many
    `[` costs no more than its length."""
    start = text.find("[")
    return start >= 0 and (text.find("$(", start) >= 0 or text.find("`", start) >= 0)


def runs_in_arithmetic(text: str, value_of: Callable[[str], str | None]) -> str:
    """The text (it or a variable's value it names, followed as bash follows them) whose
    subscript runs a command when arithmetic evaluates `text`; "" when none does."""
    seen: set[str] = set()
    pending = [(text, 0)]
    while pending:
        current, depth = pending.pop()
        if subscript_runs(current):
            return current
        if depth >= _DEPTH:
            continue
        for name in _names_in(current):
            if name in seen:
                continue
            seen.add(name)
            value = value_of(name)
            if value:
                pending.append((value, depth + 1))
    return ""


@lru_cache(maxsize=1024)
def _names_in(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(_NAME.findall(text)))


def named_variables(argv: Sequence[Field]) -> list[Field]:
    """The operands a builtin reads as variable names (see `_NAMING`): a subscript there is
    expanded, and a substitution in it runs."""
    name = argv[0].text if argv and argv[0].known else ""
    if name == "let":
        return list(argv[1:])  # each an arithmetic expression
    option = _NAME_OPTION.get(name)
    if option is not None:
        texts = [field.text for field in argv]
        found = [argv[i + 1] for i, t in enumerate(texts[:-1]) if t == option and i > 0]
        glued = [f for f in argv[1:] if f.text.startswith(option) and len(f.text) > 2]
        return found + [Field(f.text[2:], f.known, "", f.line) for f in glued]
    if name not in _NAMING:
        return []
    operands = [f for f in argv[1:] if not (f.known and f.text[:1] in ("-", "+"))]
    return [Field(f.text.split("=", 1)[0], f.known, "", f.line) for f in operands]


def prompt_runs(text: str) -> bool:
    """Whether a prompt expansion of `text` runs a command (bash's `promptvars` is on)."""
    return "$(" in text or "`" in text
