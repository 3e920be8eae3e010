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

One test is data after all: a clamp, `[ "$BS" -gt 64 ] && BS=64` (or its `if` form), of a
variable whose every assignment builds its value of literals, the concurrency and variables
built the same way only (`BS=$MAX`, `MAX=$((2 * CONC))`), compared with a number. A point's
own reading decides it; the reading with the concurrency unknown moves the variable to one
unknown value without a fork or a note (shell/value_arms), so the two decide alike. Where the
value is not wholly unknown (two values from an earlier fork), the reader forks on the clamp
and notes it, naming the variable: `data_only` names the clamped variables, and the caller
reads the point after all when a note names one.
"""

from __future__ import annotations

import itertools
import re

from signoff.parse.shell.scan import ASSIGNMENT, NAME, mentions
from signoff.parse.shell.syntax import (
    AndOr,
    Case,
    Command,
    Func,
    If,
    Loop,
    Parsed,
    Pipeline,
    Simple,
    Word,
    commands_and_lists,
)
from signoff.parse.shell.value_arms import LONE_REFERENCE, plain_assignments

# Builtins and keywords whose status, output or effect the reader works out from their words,
# and commands that run their words as code: a value named in them may decide something.
_COMPUTES = frozenset({
    "[", "[[", "test", "let", "eval", "source", ".", "bash", "sh", "dash", "zsh", "ksh",
    "exec", "command", "builtin", "return", "exit", "shift", "set", "read", "readarray",
    "mapfile", "getopts", "trap", "unset", "type", "hash", "alias", "cd", "pushd",
    "popd", "setsid", "env", "xargs", "timeout", "nohup", "awk", "sed", "seq", "expr",
})  # fmt: skip
_DECLARES = frozenset({"export", "local", "declare", "typeset", "readonly"})
# `${X:=v}`, `${X=v}`, `${X:?v}`: an expansion that assigns, or stops the script
_EXPANSION_EFFECT = re.compile(r"\$\{[#!]?[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?:?[=?]")
_CODE = ("`", "<(", ">(")
_SUBSTITUTION = re.compile(r"\$\((?!\()")  # `$(cmd)`, not `$((arithmetic))`
# an arithmetic assignment or increment (`$((X = 1))`, `$((i++))`), not a comparison
_ARITHMETIC_EFFECT = re.compile(r"\+\+|--|(?<![=!<>])=(?!=)")
_BARE = re.compile(r"-[A-Za-z]+|[A-Za-z_][A-Za-z0-9_]*")  # an option or a name alone
# a clamp's test: `[ "$V" -gt 64 ]`, `test 64 -lt $V`, `[[ ${V} -ge 8 ]]` (V as one word)
_CLAMP_TESTS = {"[": "]", "test": None, "[[": "]]"}
_COMPARISON = frozenset({"-gt", "-ge", "-lt", "-le", "-eq", "-ne"})
_NUMBER = re.compile(r"[0-9]+")


def data_only(tree: Parsed, name: str) -> tuple[bool, frozenset[str]]:
    """(whether the script's text uses `name`, and what it assigns from it, as data only; the
    variables its clamps test): a reading with `name` unknown that notes a test naming one of
    them forked on a clamp, and decided something after all."""
    commands, lists = commands_and_lists([tree.script, *tree.substitutions.values()])
    assignments = _assignments(commands)
    tainted = _tainted(assignments, name)
    pattern = mentions(tainted)
    functions = {node.name for node in commands if isinstance(node, Func)}
    clamps = _clamps(commands, lists, assignments, tainted, name)
    passes = all(_passes_on(node, pattern, functions, tree, set(clamps)) for node in commands)
    return passes, frozenset(clamps.values()) if passes else frozenset()


def _assignments(commands: list[Command]) -> list[tuple[str, Word]]:
    """(target, word) of every assignment in the text, `export X=...` and the like included."""
    return [
        (target, word) for node in commands if isinstance(node, Simple)
        for word in _assigning_words(node)
        for target in [_target(word.raw)] if target
    ]  # fmt: skip


def _tainted(assignments: list[tuple[str, Word]], name: str) -> set[str]:
    """`name` and every name an assignment gives a value mentioning one of them (fixpoint)."""
    tainted = {name}
    while True:
        pattern = mentions(tainted)
        more = {target for target, word in assignments if pattern.search(word.raw)} - tainted
        if not more:
            return tainted
        tainted |= more


def _assigning_words(node: Simple) -> list[Word]:
    words = list(node.assigns)
    if node.words and node.words[0].raw in _DECLARES:
        words += [word for word in node.words[1:] if _target(word.raw)]
    return words


def _target(raw: str) -> str:
    match = ASSIGNMENT.match(raw)
    return match.group(1) if match else ""


def _clamps(
    commands: list[Command],
    lists: list[AndOr],
    assignments: list[tuple[str, Word]],
    tainted: set[str],
    name: str,
) -> dict[int, str]:
    """The tests (by id) of the clamps in the text, with the variable each clamps."""
    found: dict[int, str] = {}
    known = _known_with(assignments, tainted, name)
    for test, assigned in _clamp_shapes(commands, lists):
        clamped = _clamped_name(test)
        if clamped is None or clamped not in known or clamped == name or assigned != {clamped}:
            continue
        found[id(test)] = clamped
    return found


def _clamp_shapes(commands: list[Command], lists: list[AndOr]) -> list[tuple[Simple, set[str]]]:
    """(test, names its arm assigns) for `TEST && ASSIGNMENTS`, `TEST || ASSIGNMENTS` and
    `if TEST; then ASSIGNMENTS; fi`, as the reader collapses them (evaluator.and_or, _if)."""
    shapes: list[tuple[Simple, set[str]]] = []
    for node in commands:
        if isinstance(node, If) and len(node.arms) == 1 and node.orelse is None:
            cond, body = node.arms[0]
            test = _lone_test(cond.items[0].first) if len(cond.items) == 1 else None
            arm = plain_assignments(body)
            if test is not None and not cond.items[0].rest and arm is not None:
                shapes.append((test, {target for target, _ in arm}))
    for item in lists:
        pipes = [item.first, *(pipe for _, pipe in item.rest)]
        for test_pipe, arm_pipe in itertools.pairwise(pipes):
            test = _lone_test(test_pipe)
            arm = plain_assignments(arm_pipe)
            if test is not None and arm is not None:
                shapes.append((test, {target for target, _ in arm}))
    return shapes


def _lone_test(pipe: Pipeline) -> Simple | None:
    if pipe.negated or len(pipe.commands) != 1:
        return None
    command = pipe.commands[0]
    if not isinstance(command, Simple) or command.assigns or command.redirects:
        return None
    if command.heredocs or not command.words or command.words[0].raw not in _CLAMP_TESTS:
        return None
    return command


def _clamped_name(test: Simple) -> str | None:
    """V of a clamp's test comparing one variable with a number; None for any other test."""
    words = [word.raw for word in test.words]
    closing = _CLAMP_TESTS[words[0]]
    if closing is not None:
        if words[-1] != closing:
            return None
        words = words[:-1]
    if len(words) != 4 or words[2] not in _COMPARISON:
        return None
    left, right = LONE_REFERENCE.fullmatch(words[1]), LONE_REFERENCE.fullmatch(words[3])
    if left is not None and _NUMBER.fullmatch(words[3]):
        return left["plain"] or left["braced"]
    if right is not None and _NUMBER.fullmatch(words[1]):
        return right["plain"] or right["braced"]
    return None


def _known_with(assignments: list[tuple[str, Word]], tainted: set[str], name: str) -> set[str]:
    """The tainted variables a point's own reading knows: every assignment of each builds its
    value of literals, `name` and such variables only (the largest such set). An array, an
    effect or a value named at run time (`${!X}`) never qualifies."""
    values: dict[str, list[str]] = {}
    unknowable: set[str] = set()
    for target, word in assignments:
        if target not in tainted:
            continue
        if word.items is not None or _may_act(word.raw) or "${!" in word.raw:
            unknowable.add(target)
        match = ASSIGNMENT.match(word.raw)
        values.setdefault(target, []).append(word.raw[match.end() :] if match else word.raw)
    known = set(values) - unknowable
    while True:
        dropped = {
            variable for variable in known
            if any(not set(NAME.findall(value)) <= known | {name} for value in values[variable])
        }  # fmt: skip
        if not dropped:
            return known
        known -= dropped


def _passes_on(
    node: Command, pattern: re.Pattern[str], functions: set[str], tree: Parsed, clamps: set[int]
) -> bool:
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
    # an array's items are expanded one by one: each is judged alone, not the whole `A=(...)`
    # (a value from the concurrency in one item, a `$( )` in another, decide nothing together)
    for word in [*(word for word in every if word.items is None), *items]:
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
    if id(node) in clamps:  # a clamp's test: both readings decide it alike (see the module)
        return True
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
