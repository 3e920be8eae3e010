"""Read a benchmark shell script (never run it): parse it once, evaluate it per configuration.

`read_script` parses the text into a tree (shell_ast). `evaluate` walks the tree with one
configuration's environment bound (shell_eval) and returns a `ScriptRun`: the server launches,
client calls, other commands and heredocs that run, each `reached` or `undecided` (with the
condition that could not be decided), plus reading notes and problems. With no environment bound
every variable the sweep would set is unknown, so every condition on one stays undecided.
(bashlex was dropped earlier: it rejects `[[ ]]`, `$(( ))`, arrays and `case`, and ran without
bound on some hostile inputs.)
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field

from signoff.parse.launch import ClientCall, HeredocUse, Ran, ScriptRun, ServerLaunch, ShellCommand
from signoff.parse.shell_ast import Parsed, parse
from signoff.parse.shell_eval import Evaluator
from signoff.parse.shell_flow import Records
from signoff.parse.shell_values import Option, Scope, Text

DEFAULT_BUDGET = 5_000  # evaluation steps per configuration; real scripts take at most ~700
DEFAULT_CLIENTS = ("run_benchmark_serving",)
# Constructs through which a script can read a variable without writing its name.
_INDIRECT = re.compile(
    r"\$\{!|\b(?:declare|local|typeset)\s+-\w*n|\beval\b|\bprintenv\b|\bcompgen\b"
)


@dataclass(frozen=True)
class ParsedScript:
    """One script's text read into a tree, ready to be evaluated under any environment."""

    path: str
    text: str
    tree: Parsed | None  # None: the reader itself failed (reported in `problems`)
    problems: tuple[str, ...]

    @cached_property
    def indirect(self) -> bool:
        return bool(_INDIRECT.search(self.text))

    @cached_property
    def words(self) -> frozenset[str]:
        return frozenset(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", self.text))

    def reads(self, names: Iterable[str]) -> frozenset[str]:
        """Which of `names` the script may read (all of them when it reads indirectly)."""
        names = frozenset(names)
        if self.indirect:
            return names
        return names & self.words


def read_script(text: str, path: str) -> ParsedScript:
    """Parse a script; never raises (oddities become problems, "path:line: what")."""
    try:
        with _no_cycle_collection():
            tree = parse(text)
    except Exception as exc:  # a reader bug must not crash a check: report it, fail closed
        return ParsedScript(
            path, text, None, (f"{path}:1: script could not be read ({type(exc).__name__})",)
        )
    problems = tuple(f"{path}:{line}: {what}" for line, what in sorted(set(tree.problems)))
    return ParsedScript(path, text, tree, problems)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Trees and evaluation states are acyclic and freed by reference counting; pausing the
    cycle collector while building them saves repeated scans of the (long-lived) tree, which
    otherwise cost ~40% of a parse and more of an evaluation."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def evaluate(
    script: ParsedScript,
    env: Mapping[str, str] | None,
    clients: Sequence[str] = DEFAULT_CLIENTS,
    *,
    budget: int = DEFAULT_BUDGET,
    job: str = "",
) -> ScriptRun:
    """What the script runs with `env` bound (None: nothing bound); never raises."""
    return evaluate_counted(script, env, clients, budget=budget, job=job)[0]


def evaluate_counted(
    script: ParsedScript,
    env: Mapping[str, str] | None,
    clients: Sequence[str] = DEFAULT_CLIENTS,
    *,
    budget: int = DEFAULT_BUDGET,
    job: str = "",
) -> tuple[ScriptRun, int]:
    """`evaluate`, and how many of the budget's steps it used."""
    environment = tuple(sorted((env or {}).items()))
    if script.tree is None:
        return ScriptRun(path=script.path, problems=script.problems, complete=False, job=job,
                         environment=environment), 0  # fmt: skip
    evaluator = Evaluator(script.tree, frozenset(clients), budget)
    try:
        with _no_cycle_collection():
            evaluator.run(_initial_scope(env))
    except Exception as exc:  # a reader bug must not crash a check: report it, fail closed
        problem = f"{script.path}:1: script could not be evaluated ({type(exc).__name__})"
        return ScriptRun(path=script.path, problems=(*script.problems, problem), complete=False,
                         job=job, environment=environment), evaluator.steps  # fmt: skip
    return _run_of(script, evaluator, job, environment), evaluator.steps


def _run_of(
    script: ParsedScript, evaluator: Evaluator, job: str, environment: tuple[tuple[str, str], ...]
) -> ScriptRun:
    problems = script.problems + tuple(
        f"{script.path}:{line}: {what}" for line, what in sorted(evaluator.problems)
    )
    records = _unique(evaluator.records)
    return ScriptRun(
        path=script.path,
        launches=tuple(records.launches),
        clients=tuple(records.clients),
        commands=tuple(records.commands),
        heredocs=tuple(records.heredocs),
        ran=tuple(records.ran),
        notes=tuple(evaluator.notes),
        problems=problems,
        complete=not problems,
        job=job,
        environment=environment,
    )


def _initial_scope(env: Mapping[str, str] | None) -> Scope:
    scope = Scope()
    if env is None:
        return scope  # positional parameters and every variable unknown
    scope.positional = ()  # the launcher runs `bash script.sh` without arguments
    for name, value in env.items():
        scope.variables[name] = (Option(Text(value)),)
    return scope


def _unique(records: Records) -> Records:
    """Each record once, in line order (forks and repeated expansions record the same thing)."""
    return Records(
        _in_order(records.launches),
        _in_order(records.clients),
        _in_order(records.commands),
        _in_order(records.heredocs),
        _surest(records.ran),
    )


def _surest(ran: list[Ran]) -> list[Ran]:
    """Each command once, in text order: reached when any path surely runs it, else the first
    condition it was seen under."""
    kept: dict[int, Ran] = {}
    for record in ran:
        known = kept.get(record.offset)
        if known is None or (known.reach == "undecided" and record.reach == "reached"):
            kept[record.offset] = record
    return [kept[offset] for offset in sorted(kept)]


_Record = TypeVar("_Record", ServerLaunch, ClientCall, ShellCommand, HeredocUse)


def _in_order(records: list[_Record]) -> list[_Record]:
    seen: dict[str, _Record] = {}
    for record in records:
        seen.setdefault(record.model_dump_json(), record)
    return [seen[key] for key in sorted(seen, key=lambda key: (seen[key].line, key))]


# --- the reading Check 3 uses until it moves to per-configuration runs ---------------------


class ScriptFacts(BaseModel):
    """A script read with nothing bound: every launch and client call that may run."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: str
    launches: tuple[ServerLaunch, ...]
    clients: tuple[ClientCall, ...]
    heredocs: tuple[HeredocUse, ...]
    problems: tuple[str, ...]
    complete: bool = True  # False: the script could not be read reliably (checks fail closed)
    # Known values of the script's variables at its end: the first one, and every one when
    # undecided arms set it differently (for rules that read plain text, e.g. `sed -i "$FILE"`).
    variables: dict[str, str] = Field(default_factory=dict)
    alternatives: dict[str, tuple[str, ...]] = Field(default_factory=dict)


def parse_script(
    text: str, path: str, client_commands: Sequence[str] = DEFAULT_CLIENTS
) -> ScriptFacts:
    """Everything a script may run, read with no configuration bound; never raises."""
    return facts_of(read_script(text, path), client_commands)


def facts_of(script: ParsedScript, client_commands: Sequence[str] = DEFAULT_CLIENTS) -> ScriptFacts:
    """The unbound reading of an already parsed script."""
    path = script.path
    run, values = _evaluate_with_values(script, client_commands)
    return ScriptFacts(
        path=path,
        launches=run.launches,
        clients=run.clients,
        heredocs=run.heredocs,
        problems=run.problems,
        complete=run.complete,
        variables={name: texts[0] for name, texts in values.items()},
        alternatives={name: texts for name, texts in values.items() if len(texts) > 1},
    )


def _evaluate_with_values(
    script: ParsedScript, clients: Sequence[str]
) -> tuple[ScriptRun, dict[str, tuple[str, ...]]]:
    """The unbound reading, and the known texts each variable holds at the script's end."""
    if script.tree is None:
        return evaluate(script, None, clients), {}
    evaluator = Evaluator(script.tree, frozenset(clients), DEFAULT_BUDGET)
    try:
        with _no_cycle_collection():
            evaluator.run(_initial_scope(None))
    except Exception:
        return evaluate(script, None, clients), {}
    return _run_of(script, evaluator, "", ()), _final_values(evaluator.final)


def _final_values(final: Scope | None) -> dict[str, tuple[str, ...]]:
    values: dict[str, tuple[str, ...]] = {}
    if final is None:
        return values
    for name in sorted(final.assigned_names()):
        texts = tuple(
            dict.fromkeys(
                option.value.text
                for option in final.options(name)
                if isinstance(option.value, Text) and option.value.known
            )
        )
        if texts:
            values[name] = texts
    return values
