"""Whether a script's text passes one variable on as data only, read without evaluating it.

A sweep curve's points differ only in their concurrency. Read once with it unknown, a script
that only hands the value on (`--max-concurrency "$CONC"`, `MAX=$((2 * CONC))` into a launch)
reads as each point's own reading does, so that reading stands for every point without a
second reading of one point to show it (judge/context). "Data only" is judged from the text,
never from values: the variable and every name assigned from it (to a fixpoint) may appear in
assignments and in the arguments of commands the reader does not compute with; a mention in a
test, `(( ))`, `let`, a case subject or pattern, a loop's list, a substitution, an assignment
inside an expansion (`${X:=...}`), an argument of a function the text defines, a string run as
code, or a builtin whose status or effect the reader derives from its arguments means it may
decide something. A mention is any whole-word occurrence of the name, so a literal `CONC`
counts too. This only ever saves a reading: when the answer is no, the point is read as before.
"""

from __future__ import annotations

import re

from signoff.parse.shell.syntax import (
    Case,
    Command,
    Func,
    Loop,
    Parsed,
    Simple,
    Word,
    every_command,
)

# Builtins and keywords whose status, output or effect the reader works out from their words,
# and commands that run their words as code: a value named in them may decide something.
_COMPUTES = frozenset({
    "[", "[[", "test", "let", "eval", "source", ".", "bash", "sh", "dash", "zsh", "ksh",
    "exec", "command", "builtin", "return", "exit", "shift", "set", "read", "readarray",
    "mapfile", "getopts", "trap", "unset", "type", "hash", "alias", "cd", "pushd",
    "popd", "setsid", "env", "xargs", "timeout", "nohup", "awk", "sed", "seq", "expr",
})  # fmt: skip
_DECLARES = frozenset({"export", "local", "declare", "typeset", "readonly"})
_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\+?=")
# `${X:=v}`, `${X=v}`, `${X:?v}`: an expansion that assigns, or stops the script
_EXPANSION_EFFECT = re.compile(r"\$\{[#!]?[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?:?[=?]")
_CODE = ("`", "<(", ">(")
_SUBSTITUTION = re.compile(r"\$\((?!\()")  # `$(cmd)`, not `$((arithmetic))`
# an arithmetic assignment or increment (`$((X = 1))`, `$((i++))`), not a comparison
_ARITHMETIC_EFFECT = re.compile(r"\+\+|--|(?<![=!<>])=(?!=)")
_BARE = re.compile(r"-[A-Za-z]+|[A-Za-z_][A-Za-z0-9_]*")  # an option or a name alone


def passes_on_only(tree: Parsed, name: str) -> bool:
    """Whether the script's text uses `name`, and what it assigns from it, as data only."""
    commands = every_command([tree.script, *tree.substitutions.values()])
    pattern = _mentions(_tainted(commands, name))
    functions = {node.name for node in commands if isinstance(node, Func)}
    return all(_passes_on(node, pattern, functions, tree) for node in commands)


def _tainted(commands: list[Command], name: str) -> set[str]:
    """`name` and every name an assignment gives a value mentioning one of them (fixpoint)."""
    assignments = [
        (target, word.raw) for node in commands if isinstance(node, Simple)
        for word in _assigning_words(node)
        for target in [_target(word.raw)] if target
    ]  # fmt: skip
    tainted = {name}
    while True:
        pattern = _mentions(tainted)
        more = {target for target, raw in assignments if pattern.search(raw)} - tainted
        if not more:
            return tainted
        tainted |= more


def _mentions(names: set[str]) -> re.Pattern[str]:
    """Any of `names` as a whole word (`$X`, `${X}`, `X` in arithmetic, or a literal `X`)."""
    return re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(names))) + r")\b")


def _assigning_words(node: Simple) -> list[Word]:
    words = list(node.assigns)
    if node.words and node.words[0].raw in _DECLARES:
        words += [word for word in node.words[1:] if _target(word.raw)]
    return words


def _target(raw: str) -> str:
    match = _ASSIGNMENT.match(raw)
    return match.group(1) if match else ""


def _passes_on(node: Command, pattern: re.Pattern[str], functions: set[str], tree: Parsed) -> bool:
    """One command (not its nested commands, which `every_command` yields on their own)."""
    if isinstance(node, Case):
        words = [node.subject] if node.subject is not None else []
        words += [pattern_word for arm in node.arms for pattern_word in arm.patterns]
        return not any(pattern.search(word.raw) for word in words)
    if isinstance(node, Loop):
        listed = [word.raw for word in node.items or []] + [node.name]
        return not any(pattern.search(raw) for raw in listed)
    if not isinstance(node, Simple):
        return True
    every = [*node.assigns, *node.words, *node.redirects]
    items = [item for word in every for item in word.items or []]
    for word in [*every, *items]:
        if pattern.search(word.raw) and _may_act(word.raw):
            return False
    if any(pattern.search(word.raw) for word in node.redirects):
        return False
    heredocs = [tree.heredocs[i].body for i in node.heredocs if i < len(tree.heredocs)]
    mentioned = any(pattern.search(w.raw) for w in node.words[1:]) or any(
        pattern.search(body) for body in heredocs
    )
    if not node.words or not (mentioned or pattern.search(node.words[0].raw)):
        return True
    command = node.words[0].raw
    if command in _DECLARES:  # `export X=$CONC`, `local X`: assignments and names, as above
        return not any(
            pattern.search(w.raw) for w in node.words[1:] if not _target(w.raw) and not
            _BARE.fullmatch(w.raw)
        )  # fmt: skip
    # a command word known only at run time (`"${CMD[@]}"`) names the program it holds
    assigns = command == "printf" and any(w.raw.startswith("-v") for w in node.words[1:])
    return not (command in _COMPUTES or command.startswith("((") or command in functions or assigns)


def _may_act(raw: str) -> bool:
    """The word runs code or assigns when expanded (a substitution, `${X:=v}`, `$((i++))`)."""
    if any(code in raw for code in _CODE) or _SUBSTITUTION.search(raw):
        return True
    if _EXPANSION_EFFECT.search(raw):
        return True
    arithmetic = raw.split("$((", 1)[1] if "$((" in raw else ""
    return bool(_ARITHMETIC_EFFECT.search(arithmetic))
