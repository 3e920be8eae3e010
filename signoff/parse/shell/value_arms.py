"""Undecided arms that only move a run-time value to another value (`[ "$BS" -gt 64 ] && BS=64`).

A clamp or default on a value the reader does not know (`BS=$CONC`, then capped) leaves that
value unknown whichever way the test goes. Forking on it would only add an undecided note and a
second, conditional value: nothing runs differently, yet the commands that use the value split
into "may run" copies. So when an undecided arm does nothing but assign plain values, and each
variable it assigns is wholly unknown on one of the two paths (it holds one value with no known
piece already, or the arm gives it a lone reference to a variable holding one), the reader runs
the arm (its lines are recorded as reached, its reads are seen) and leaves each of those
variables one unknown value, with no fork and no note. That is never laxer than the fork: the
fork's values include a wholly unknown one already, an unknown value stands for every value the
arms could give, and every check counts an unknown value against what it needs to know.

Only assignments qualify, never a command word, heredoc or a redirection whose target runs code,
and only values of literal text and `$NAME` references, so running the arm has no other effect
the reader models (no command or arithmetic substitution, no `${X:=v}`). A variable known on
both paths, unset, or holding values that depend on other conditions still forks.
"""

from __future__ import annotations

import re

from signoff.parse.shell.syntax import Pipeline, Seq, Simple
from signoff.parse.shell.values import FROM_ENVIRONMENT, Scope, Text, unknown

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_PIECE = rf"[A-Za-z0-9_./:,@%+-]|\${_NAME}|\$\{{{_NAME}\}}"
_PLAIN_ASSIGNMENT = re.compile(
    rf"(?P<name>{_NAME})=(?P<value>(?:{_PIECE}|'[^'\\]*'|\"(?:{_PIECE}| )*\")*)"
)
# a value that is one variable's value and nothing else: `$X`, `${X}`, `"$X"`, `"${X}"`
LONE_REFERENCE = re.compile(rf"(?P<q>\"?)\$(?:(?P<plain>{_NAME})|\{{(?P<braced>{_NAME})\}})(?P=q)")


def collapsible(body: Seq | Pipeline, scope: Scope) -> tuple[str, ...] | None:
    """The names `body` assigns when the arm qualifies here (see the module); None otherwise."""
    assignments = plain_assignments(body)
    if assignments is None:
        return None
    names = [name for name, _ in assignments]
    if len(set(names)) != len(names):
        return None
    for name, value in assignments:
        if _one_unknown(scope, name):
            continue
        reference = LONE_REFERENCE.fullmatch(value)
        source = reference["plain"] or reference["braced"] if reference is not None else None
        if source is None or source in names or not _one_unknown(scope, source, environment=True):
            return None
    return tuple(names)


def left_unknown(name: str) -> Text:
    """The value a variable holds after such an arm: unknown, shown as the variable."""
    return unknown(f"${{{name}}}")


def plain_assignments(body: Seq | Pipeline) -> list[tuple[str, str]] | None:
    """(name, value as written) of each assignment when `body` is nothing but plain ones."""
    if isinstance(body, Pipeline):
        pipelines = [body]
    else:
        if any(item.rest or item.background for item in body.items):
            return None
        pipelines = [item.first for item in body.items]
    found: list[tuple[str, str]] = []
    for pipe in pipelines:
        if pipe.negated or len(pipe.commands) != 1:
            return None
        command = pipe.commands[0]
        if not isinstance(command, Simple) or not command.assigns:
            return None
        if command.words or command.redirects or command.heredocs:
            return None
        for word in command.assigns:
            match = _PLAIN_ASSIGNMENT.fullmatch(word.raw)
            if match is None or word.items is not None:
                return None
            found.append((match["name"], match["value"]))
    return found or None


def _one_unknown(scope: Scope, name: str, *, environment: bool = False) -> bool:
    """The variable holds exactly one value here, wholly unknown and on every path;
    `environment`: one the script never assigned counts too."""
    options = scope.options(name)
    if len(options) != 1:
        return False
    option = options[0]
    value = option.value
    if option.why or option.marks or not isinstance(value, Text) or value.known:
        return False
    if value.prefix or any(known for _, known in value.parts):
        return False  # known pieces (`--tp 8 $X`) would be lost: a later use splits them out
    return environment or value is not FROM_ENVIRONMENT
