"""Shell variable values as the script reader tracks them: known, unknown, or one of several.

A value is a string (`Text`) or an array; either may be unknown (computed at run time or taken
from an environment the reader cannot see), in which case it keeps the text it was written as.
A variable holds one or more `Option`s: more than one when the script assigned it in arms of a
condition the reader could not decide, each option naming that condition (`why`) and the arm it
came from (`marks`). A `Scope` is the state of one evaluation path. Forking a path is O(1): the
fork is an overlay that records only what it writes; `merge_into` folds the forks of one decision
back into their common base in time proportional to what they wrote, so a script of thousands of
sequential undecided conditions stays linear.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from signoff.parse.shell.syntax import Case, Command, Func, Group, If, Loop, Parsed, Seq, Simple

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGNS = re.compile(
    r"(?<![\w$])([A-Za-z_]\w*)(?:\[[^\]\n]*\])?\+?=|\$\{([A-Za-z_]\w*):?=|\{([A-Za-z_]\w*)\}[<>]"
)
_DECLARING = re.compile(
    r"\b(?:read|for|local|declare|typeset|export|readonly|unset|mapfile|readarray|getopts|"
    r"printf|select|wait|let)\b([^\n;|&]*)"
)


@lru_cache(maxsize=64)
def assigned_names(text: str) -> frozenset[str]:
    """Every name the text may assign: `NAME=`, `NAME+=`, `${NAME:=}`, `{NAME}>`, and any word
    after a builtin that assigns (`read`, `for`, `local`, `export`, `let`, ...). One pass over
    the text."""
    names = {a or b or c for a, b, c in _ASSIGNS.findall(text)}
    for match in _DECLARING.finditer(text):
        names.update(_IDENT.findall(match.group(1)))
    return frozenset(names)


MAX_OPTIONS = 32  # distinct values one variable may hold across undecided arms
# IMMUTABLE: values, options, fields and outcomes are made some hundred thousand times a verdict
# and never changed once made. They are slotted dataclasses hashed by their fields, not frozen
# ones: a frozen dataclass sets each field through object.__setattr__, four times the cost.


@dataclass(slots=True, unsafe_hash=True)  # immutable: values.IMMUTABLE
class Text:
    text: str  # the value; unknown parts rendered as written ("$PORT", "$(nproc)")
    known: bool = True
    prefix: str = ""  # for an unknown value: the literal text before its first unknown part
    # for an unknown value: its pieces, (text, known), so a later unquoted use can still split
    # the known pieces into words ("--tp 8 ${X:-1}" -> "--tp", "8", then one unknown word)
    parts: tuple[tuple[str, bool], ...] = ()


@dataclass(slots=True, unsafe_hash=True)  # immutable: values.IMMUTABLE
class Array:
    items: tuple[tuple[str, Text], ...] = ()  # (index or key, value), in order
    assoc: bool = False
    exact: bool = True  # False: an element was written at a key known only at run time

    def values(self) -> tuple[Text, ...]:
        return tuple(value for _, value in self.items)


Value = Text | Array
# A variable the script never assigned and the configuration does not bind: whatever the
# runner's environment holds (possibly nothing). Compared by identity.
FROM_ENVIRONMENT: Final = Text("", known=False)
Mark = tuple[int, int]  # (fork, arm): the arm of one undecided fork a value came from


@dataclass(slots=True, unsafe_hash=True)  # immutable: values.IMMUTABLE
class Option:
    value: Value | None  # None: unset
    why: str = ""  # "": on every path; else the undecided condition this value depends on
    marks: tuple[Mark, ...] = ()  # the arms it came from: values from other arms of the same
    # fork never combine in one command (they exclude each other)


@dataclass(frozen=True, slots=True)
class FunctionDef:
    body: Command
    why: str = ""
    source: Parsed | None = None  # the text it was defined in (its substitutions, heredocs)
    line_base: int = 0  # for code read from a string: the script line it stands for


_ENVIRONMENT_OPTIONS: Final = (Option(FROM_ENVIRONMENT),)


def unknown(display: str, prefix: str = "") -> Text:
    parts = ((prefix, True), (display[len(prefix) :], False)) if prefix else ((display, False),)
    return Text(display, known=False, prefix=prefix, parts=parts)


def consistent(options: Iterable[Option]) -> bool:
    """Whether these values can hold together: no two come from different arms of one fork."""
    arms: dict[int, int] = {}
    for option in options:
        for fork, arm in option.marks:
            if arms.setdefault(fork, arm) != arm:
                return False
    return True


# Where `cd`/`pushd` went along a path, kept as a variable no script can name (its name holds a
# space), so forks and joins carry it as they carry variables; read with `directories`.
CWD = " cwd"


def directories(scope: Scope) -> tuple[str, ...]:
    """The directories the path's last `cd` may have gone to (() when none ran)."""
    return tuple(
        dict.fromkeys(
            option.value.text
            for option in scope.options(CWD)
            if isinstance(option.value, Text) and option.value is not FROM_ENVIRONMENT
        )
    )


class Scope:
    """Variables, functions and positional parameters along one evaluation path.

    A scope made by `copy` is an overlay on its parent: reads fall through, writes stay local.
    """

    __slots__ = ("exported", "functions", "locals", "overflow", "parent", "positional", "reach",
                 "soft", "variables")  # fmt: skip

    def __init__(self, parent: Scope | None = None) -> None:
        self.parent = parent
        self.variables: dict[str, tuple[Option, ...]] = {}  # written here
        self.functions: dict[str, tuple[FunctionDef, ...]] = {}  # defined here
        self.exported: set[str] = set()  # exported here
        self.positional: tuple[Text, ...] | None = parent.positional if parent else None
        self.reach: str = parent.reach if parent else ""  # "": every command here runs
        # why what follows may not run because of a `return`/`break`/`continue` that may have
        # run: it holds until the function or loop ends, unlike `reach`
        self.soft: str = parent.soft if parent else ""
        self.locals: list[dict[str, tuple[Option, ...] | None]] = (
            [dict(frame) for frame in parent.locals] if parent else []
        )
        self.overflow: list[str] = parent.overflow if parent else []  # names cut to MAX_OPTIONS

    def copy(self) -> Scope:
        return Scope(self)

    def why(self) -> str:
        """Why commands here may not run ("" when they surely do)."""
        return self.reach or self.soft

    def _chain(self) -> Iterator[Scope]:
        scope: Scope | None = self
        while scope is not None:
            yield scope
            scope = scope.parent

    def options(self, name: str) -> tuple[Option, ...]:
        scope: Scope | None = self  # the hottest lookup: walked without a generator
        while scope is not None:
            found = scope.variables.get(name)
            if found is not None:
                return found
            scope = scope.parent
        return _ENVIRONMENT_OPTIONS

    def assigned_names(self) -> set[str]:
        """Every variable written along this path (in this scope or the ones it overlays)."""
        return {name for scope in self._chain() for name in scope.variables}

    def is_assigned(self, name: str) -> bool:
        return any(name in scope.variables for scope in self._chain())

    def function(self, name: str) -> tuple[FunctionDef, ...]:
        for scope in self._chain():
            found = scope.functions.get(name)
            if found is not None:
                return found
        return ()

    def function_names(self) -> set[str]:
        """Every function defined along this path (those `unset -f` left empty included)."""
        return {name for scope in self._chain() for name in scope.functions}

    def exported_names(self) -> set[str]:
        names: set[str] = set()
        for scope in self._chain():
            names |= scope.exported
        return names

    def assign(self, name: str, options: tuple[Option, ...]) -> None:
        self.variables[name] = options

    def put(self, name: str, value: Value | None) -> None:
        self.variables[name] = (Option(value),)

    def define(self, name: str, definitions: tuple[FunctionDef, ...]) -> None:
        self.functions[name] = definitions

    def declare_local(self, name: str) -> None:
        """`local NAME`: the caller's value comes back when the function returns."""
        if self.locals and name not in self.locals[-1]:
            self.locals[-1][name] = self.options(name) if self.is_assigned(name) else None

    def end_function(self) -> None:
        for name, previous in (self.locals.pop() if self.locals else {}).items():
            self.variables[name] = previous if previous is not None else _ENVIRONMENT_OPTIONS

    def written_since(self, base: Scope) -> tuple[set[str], set[str], set[str]]:
        """(variables, functions, exports) written by the overlays between self and base."""
        variables: set[str] = set()
        functions: set[str] = set()
        exported: set[str] = set()
        for scope in self._chain():
            if scope is base:
                break
            variables |= scope.variables.keys()
            functions |= scope.functions.keys()
            exported |= scope.exported
        return variables, functions, exported


Arm = tuple[Scope, str, tuple[Mark, ...]]  # a path's end state, why it was taken, its marks


@dataclass(frozen=True, slots=True)
class Held:
    """A path that left by `return` or `break` while others went on: what it holds, kept
    aside so the commands it skips do not read it, until its function or loop ends."""

    variables: dict[str, tuple[Option, ...]]  # as the path left them (untagged)
    functions: dict[str, tuple[FunctionDef, ...]]
    why: str
    marks: tuple[Mark, ...]


@dataclass(slots=True)
class Frame:
    """What ends a `return` or `break` ("function", "loop", "subshell"), the names its code
    may assign, and the paths that left it early while others went on."""

    kind: str
    held: list[Held]
    names: frozenset[str]


def names_assigned_in(code: Command) -> frozenset[str]:
    """Every name `code` may assign (`NAME=`, `NAME+=`, `read NAME`, `local NAME`, `for NAME`,
    generously: its words' text is scanned), for what a held path keeps."""
    texts: list[str] = []
    todo: list[object] = [code]
    while todo:
        node = todo.pop()
        if isinstance(node, Seq):
            for item in node.items:
                for pipeline in (item.first, *(p for _, p in item.rest)):
                    todo.extend(pipeline.commands)
        elif isinstance(node, Simple):
            texts.append(" ".join(w.raw for w in (*node.assigns, *node.words)))
        elif isinstance(node, If):
            todo.extend(part for arm in node.arms for part in arm)
            todo.extend([node.orelse] if node.orelse is not None else [])
        elif isinstance(node, Case):
            todo.extend(arm.body for arm in node.arms)
        elif isinstance(node, Loop):
            texts.append(f"for {node.name}" if node.name else "")
            todo.extend([node.body, *([node.cond] if node.cond is not None else [])])
        elif isinstance(node, (Group, Func)):
            todo.append(node.body)
    return assigned_names("\n".join(texts))


def hold(base: Scope, arm: Arm, names: set[str], functions: set[str]) -> Held:
    """`arm` (an overlay on `base`) as it stands for `names` (those any arm of its fork wrote
    and any the text read may assign later) and `functions`; the names it made local are left
    out (they end with the function)."""
    scope, why, marks = arm
    local = scope.locals[-1].keys() if scope.locals else set()
    variables = {n: scope.options(n) for n in names if n not in local}
    defined = {n: scope.function(n) for n in sorted(functions)}
    return Held(variables, defined, why, marks)


def rejoin(scope: Scope, held: list[Held], *, replace: bool = False) -> Scope:
    """At the end of their function or loop, the paths that left it early join `scope` again:
    a variable they left otherwise than `scope` holds it keeps every value. `replace`:
    `scope` is no path that goes on (it failed), so the held paths alone go on."""
    for index, one in enumerate(held):
        alone = replace and index == 0
        for name in sorted(one.variables):
            options, current = one.variables[name], scope.options(name)
            if options is current or (not alone and options == current):
                continue
            tagged = _tag(options, one.why, one.marks)
            scope.assign(name, tagged if alone else _union(scope, name, [current, tagged]))
        for name, definitions in one.functions.items():
            if alone:
                scope.define(name, definitions)
            else:
                scope.define(name, _functions([(scope.function(name), ""), (definitions, "")]))
    return scope


def unmarked(options: tuple[Option, ...], first: int) -> tuple[Option, ...]:
    """`options` without their marks from forks `first` and later (the same value once)."""
    seen: dict[object, Option] = {}
    for option in options:
        marks = tuple(mark for mark in option.marks if mark[0] < first)
        key = ("env",) if option.value is FROM_ENVIRONMENT else option.value
        seen.setdefault(key, Option(option.value, option.why, marks))
    return tuple(seen.values())


def merge_into(base: Scope, arms: list[Arm]) -> Scope:
    """Fold the end states of alternative paths (overlays on `base`) back into `base`: a
    variable they leave different keeps every value, each tagged with its arm."""
    written = [arm[0].written_since(base) for arm in arms]
    names: set[str] = set().union(*(w[0] for w in written))
    for name in sorted(names):
        per_arm = [scope.options(name) for scope, _, _ in arms]
        if all(options == per_arm[0] for options in per_arm[1:]):
            base.variables[name] = per_arm[0]
        else:
            tagged = [
                _tag(opts, why, marks) for opts, (_, why, marks) in zip(per_arm, arms, strict=True)
            ]
            base.variables[name] = _union(base, name, tagged)
    functions: set[str] = set().union(*(w[1] for w in written))
    for name in sorted(functions):
        per_arm_f = [(scope.function(name), why) for scope, why, _ in arms]
        base.functions[name] = _functions(per_arm_f)
    for _, _, exported in written:
        base.exported |= exported
    positional = {id(scope.positional): scope.positional for scope, _, _ in arms}
    base.positional = next(iter(positional.values())) if len(positional) == 1 else None
    base.locals = arms[0][0].locals
    return base


def apply_into(base: Scope, scope: Scope) -> Scope:
    """The one path that continues: what it wrote holds from here on, untagged."""
    if scope is base:
        return base
    variables, functions, exported = scope.written_since(base)
    for name in variables:
        base.variables[name] = scope.options(name)
    for name in functions:
        base.functions[name] = scope.function(name)
    base.exported |= exported
    base.positional, base.locals = scope.positional, scope.locals
    return base


def _tag(options: tuple[Option, ...], why: str, marks: tuple[Mark, ...]) -> tuple[Option, ...]:
    alone = tuple(dict.fromkeys(marks))  # an option with no marks of its own (most)
    return tuple(
        Option(o.value, o.why or why, _with_marks(o.marks, marks) if o.marks else alone)
        for o in options
    )


def _with_marks(own: tuple[Mark, ...], marks: tuple[Mark, ...]) -> tuple[Mark, ...]:
    return tuple(dict.fromkeys((*own, *marks)))


def _union(scope: Scope, name: str, per_arm: list[tuple[Option, ...]]) -> tuple[Option, ...]:
    seen: dict[object, Option] = {}
    for options in per_arm:
        for option in options:
            key = ("env",) if option.value is FROM_ENVIRONMENT else option.value
            seen.setdefault(key, option)
    options = tuple(seen.values())
    if len(options) > MAX_OPTIONS:  # too many to keep apart
        scope.overflow.append(name)
        return (_together(name, options),)
    return options


def _together(name: str, options: tuple[Option, ...]) -> Option:
    """Many values of one variable as one: an array's values as all their distinct items in a
    row (every flag any of them passes stays visible), its length unknown (no test on it is
    decided, so no path is dropped by it); strings as the start they share (the program a
    command string runs stays readable) and the rest unknown; anything else as unknown."""
    why = f"{name} takes more than {MAX_OPTIONS} values here, read together"
    arrays = [option.value for option in options if option.value is not None]
    if arrays and all(isinstance(value, Array) for value in arrays):
        seen: dict[tuple[str, bool], Text] = {}
        for value in arrays:
            for _, item in value.items if isinstance(value, Array) else ():
                seen.setdefault((item.text, item.known), item)
        items = tuple((str(n), item) for n, item in enumerate(seen.values()))
        return Option(Array(items, exact=False), why)
    texts = [value for value in arrays if isinstance(value, Text)]
    if len(texts) == len(options) and all(value is not FROM_ENVIRONMENT for value in texts):
        return Option(_common_start(texts, f"${{{name}}}"), why)
    return Option(unknown(f"${{{name}}}"), why)


def _common_start(texts: list[Text], display: str) -> Text:
    """Many strings as one: the pieces they all start with stay as they are (a command's
    program and first flags), the rest is unknown (shown as `display`)."""
    pieces = [value.parts or ((value.text, True),) for value in texts]
    kept: list[tuple[str, bool]] = []
    for column in zip(*pieces, strict=False):
        if all(piece == column[0] for piece in column):
            kept.append(column[0])
            continue
        if all(known for _, known in column):
            start = _word_start([text for text, _ in column])
            if start:
                kept.append((start, True))
        break
    if not kept:
        return unknown(display)
    parts = (*kept, (display, False))
    text = "".join(piece for piece, _ in parts)
    prefix = kept[0][0] if kept[0][1] else ""
    return Text(text, known=False, prefix=prefix, parts=_joined_parts(parts))


def _word_start(strings: list[str]) -> str:
    """The words all `strings` start with, and the blank after them (the unknown rest must
    not glue onto a word one of them continues: `--a` of `--a` and `--ab` is not a word)."""
    first, last = min(strings), max(strings)
    n = 0
    while n < len(first) and first[n] == last[n]:
        n += 1
    if all(len(text) == n or text[n].isspace() for text in strings):
        return first[:n] + " " if n else ""
    cut = max(first.rfind(" ", 0, n), first.rfind("\t", 0, n))
    return first[: cut + 1]


def _joined_parts(parts: tuple[tuple[str, bool], ...]) -> tuple[tuple[str, bool], ...]:
    out: list[tuple[str, bool]] = []
    for text, known in parts:
        if out and out[-1][1] == known:
            out[-1] = (out[-1][0] + text, known)
        else:
            out.append((text, known))
    return tuple(out)


def _functions(per_arm: list[tuple[tuple[FunctionDef, ...], str]]) -> tuple[FunctionDef, ...]:
    if all(defs == per_arm[0][0] for defs, _ in per_arm[1:]):
        return per_arm[0][0]
    out: list[FunctionDef] = []
    for definitions, why in per_arm:
        for definition in definitions:
            if all(definition.body is not kept.body for kept in out):
                why = definition.why or why
                out.append(
                    FunctionDef(definition.body, why, definition.source, definition.line_base)
                )
    return tuple(out)
