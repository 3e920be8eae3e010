"""The names an `eval "$(python3 -c "…")"` can set, read from the inline program's prints.

A common shape loads a data file in an inline Python program and prints shell assignments for
the caller to `eval` (`print(f'NAME="{value}"')`). When every line the program can write to
standard output is such an assignment or an `echo` (with an optional `exit N`), the eval sets
exactly those names and defines no function or alias; anything else (a print whose text is not
a literal, another way to write to stdout, a process it starts) leaves the names unknown.
The program is not run: this reads its text only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The whole eval: one argument, the standard output of an inline `python3 -c` program.
_EVAL = re.compile(r'^eval\s+"\$\(\s*python3?\s+-c\s+"(?P<program>.*)"\s*\)"$', re.S)
_PRINT = re.compile(r"\bprint\s*\(")
# One print of a string literal (f-string or plain), optionally to standard error.
_LITERAL_PRINT = re.compile(
    r"\bprint\s*\(\s*f?(?P<q>['\"])(?P<body>(?:(?!(?P=q)).)*)(?P=q)\s*"
    r"(?P<stderr>,\s*file\s*=\s*sys\.stderr\s*)?\)",
    re.S,
)
_FIELD = re.compile(r"\{[^{}]*\}")  # an f-string replacement field (not nested)
_ASSIGNMENT = re.compile(r'^([A-Za-z_][A-Za-z0-9_]*)="[^"`\\$]*"$')
_ECHO = re.compile(r'^echo\s+"[^"`\\$]*"(?:\s*;\s*exit\s+\d+)?$')
# Any other way the program may write to standard output, or start a process that does.
_OTHER_OUTPUT = re.compile(
    r"stdout|\bsystem\s*\(|subprocess|\bexec\w*\s*\(|__import__|popen|spawn|\bfork\b"
    r"|\.write\s*\(|\bpty\b|\bos\.dup|\bimportlib\b|\bctypes\b"
)
# Ways to read files other than `open(name)` of a name bound to a literal path.
_OTHER_INPUT = re.compile(
    r"listdir|scandir|glob|\bwalk\s*\(|pathlib|\bPath\s*\(|__file__|\bcompile\s*\(|\bsys\.argv"
    r"|\bstdin\b|\binput\s*\("
)
_OPEN = re.compile(r"\bopen\s*\(\s*([^,)]*)")
_IMPORT = re.compile(
    r"(?:^|[\s;])(?:import\s+([\w.]+(?:\s*,\s*[\w.]+)*)|from\s+([\w.]+)\s+import\b)"
)
DATA_FILE = re.compile(r"[\w.-]+\.(?:ya?ml|json|toml|txt|env|cfg|ini|py|csv)\b")


@dataclass(frozen=True)
class EvalAssignments:
    """What an inline-program eval can set: `names`; the modules it imports, the data files
    its text names (by base name) and the literal paths it opens (shell text, expansions
    included), which feed it."""

    names: frozenset[str]
    modules: frozenset[str]
    files: frozenset[str]
    opens: tuple[str, ...]


def eval_assignments(text: str) -> EvalAssignments | None:
    """The names `text` (an eval command, words as written) can set, or None when they cannot
    be known from its text."""
    match = _EVAL.match(text.strip())
    if match is None:
        return None
    program = match["program"].replace('\\"', '"')
    if _OTHER_OUTPUT.search(program) or _OTHER_INPUT.search(program):
        return None
    opens: list[str] = []
    for argument in _OPEN.findall(program):
        bound = re.findall(rf"(?<![\w.]){re.escape(argument.strip())}\s*=\s*'([^']*)'", program)
        if not re.fullmatch(r"[A-Za-z_]\w*", argument.strip()) or len(bound) != 1:
            return None  # a path not bound once to a literal
        opens.append(bound[0])
    prints = _LITERAL_PRINT.findall(program)
    if len(prints) != len(_PRINT.findall(program)):
        return None  # a print this does not read as a literal
    names: set[str] = set()
    for found in _LITERAL_PRINT.finditer(program):
        if found["stderr"]:
            continue
        line = _FIELD.sub("X", found["body"]).strip()
        if (assigned := _ASSIGNMENT.match(line)) is not None:
            names.add(assigned[1])
        elif _ECHO.match(line) is None:
            return None
    modules = {
        module.strip().split(".")[0]
        for plain, source in _IMPORT.findall(program)
        for module in (plain.split(",") if plain else [source])
    }
    files = frozenset(DATA_FILE.findall(program))
    return EvalAssignments(frozenset(names), frozenset(modules), files, tuple(opens))
