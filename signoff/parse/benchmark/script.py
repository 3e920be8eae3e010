"""Read a benchmark shell script (never run it): parse it once, evaluate it per configuration.

`read_script` parses the text into a tree (shell.syntax). `evaluate` walks the tree with one
configuration's environment bound (shell.evaluator) and returns a `ScriptRun`: the server launches,
client calls, other commands and heredocs that run, each `reached` or `undecided` (with the
condition that could not be decided), plus reading notes and problems. With no environment bound
every variable the sweep would set is unknown, so every condition on one stays undecided.
Variables the script never assigns are unknown too (whatever the runner's environment holds),
unless the caller names some as `unset`: then their fallbacks apply (`${X:-word}`), for as long
as the script reads them only through such forms (see `evaluate_counted`).
(bashlex was dropped earlier: it rejects `[[ ]]`, `$(( ))`, arrays and `case`, and ran without
bound on some hostile inputs.)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field

from signoff.collector import paused
from signoff.parse.benchmark.commands import (
    CLIENTS,
    COMMANDS,
    DEFAULT_LIBRARIES,
    LAUNCHES,
    BenchmarkCommands,
)
from signoff.parse.benchmark.launch import (
    ClientCall,
    HeredocUse,
    ScriptFileRun,
    ScriptRun,
    ServerLaunch,
    ShellCommand,
)
from signoff.parse.shell.evaluator import Evaluator
from signoff.parse.shell.records import (
    CONTAINERS,
    HEREDOCS,
    LOCAL_INSTALLS,
    SCRIPT_FILES,
    Records,
)
from signoff.parse.shell.sources import Sources
from signoff.parse.shell.syntax import Parsed, parse
from signoff.parse.shell.values import Option, Scope, Text

_PARSES_KEPT = 256  # scripts kept parsed (a mass edit reads a few dozen, at head and base)
DEFAULT_BUDGET = 5_000  # evaluation steps per configuration; real scripts take at most ~700
DEFAULT_CLIENTS = ("run_benchmark_serving",)
# Readings with some variables assumed unset before giving up on the assumption: each one
# after the first drops the names the previous one found read plainly.
MAX_UNSET_ATTEMPTS = 3
# The forms that give a value of their own when the variable is unset: `${X:-word}`,
# `${X-word}`, `${X:=word}`, `${X=word}`, `${X:+word}`, `${X+word}`.
_FALLBACK_READ = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*):?[-=+]")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
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
    def lines(self) -> tuple[str, ...]:
        """The text's lines (split once: checks ask for a line's text per command)."""
        return tuple(self.text.splitlines())

    @cached_property
    def indirect(self) -> bool:
        return bool(_INDIRECT.search(self.text))

    @cached_property
    def fallback_names(self) -> frozenset[str]:
        """Names the text reads somewhere through a form with a fallback (`${X:-word}`...)."""
        return frozenset(_FALLBACK_READ.findall(self.text))

    @cached_property
    def heredoc_names(self) -> frozenset[str]:
        """Names an expanding heredoc may read other than through a fallback form: the reader
        keeps heredoc bodies as text, so these reads are never seen being made."""
        names: set[str] = set()
        for doc in self.tree.heredocs if self.tree is not None else ():
            if doc.quoted or "$" not in doc.body:
                continue
            words = Counter(_IDENT.findall(doc.body))
            words.subtract(_FALLBACK_READ.findall(doc.body))
            names.update(name for name, count in words.items() if count > 0)
        return frozenset(names)

    @cached_property
    def words(self) -> frozenset[str]:
        return frozenset(_IDENT.findall(self.text))

    def reads(self, names: Iterable[str]) -> frozenset[str]:
        """Which of `names` the script may read (all of them when it reads indirectly)."""
        names = frozenset(names)
        if self.indirect:
            return names
        return names & self.words


@lru_cache(maxsize=_PARSES_KEPT)
def read_script(text: str, path: str) -> ParsedScript:
    """Parse a script; never raises (oddities become problems, "path:line: what"). Kept for
    the process: each of gathering's rounds and the judge ask for the same scripts again."""
    try:
        with paused():
            tree = parse(text)
    except Exception as exc:  # a reader bug must not crash a check: report it, fail closed
        return ParsedScript(
            path, text, None, (f"{path}:1: script could not be read ({type(exc).__name__})",)
        )
    problems = tuple(f"{path}:{line}: {what}" for line, what in sorted(set(tree.problems)))
    return ParsedScript(path, text, tree, problems)


def evaluate(
    script: ParsedScript,
    env: Mapping[str, str] | None,
    clients: Sequence[str] = DEFAULT_CLIENTS,
    *,
    budget: int = DEFAULT_BUDGET,
    job: str = "",
    unset: frozenset[str] = frozenset(),
    files: Sources | None = None,
    library: bool = False,
    libraries: Sequence[str] = DEFAULT_LIBRARIES,
) -> ScriptRun:
    """What the script runs with `env` bound (None: nothing bound); never raises."""
    return evaluate_counted(
        script,
        env,
        clients,
        budget=budget,
        job=job,
        unset=unset,
        files=files,
        library=library,
        libraries=libraries,
    )[0]


def evaluate_counted(
    script: ParsedScript,
    env: Mapping[str, str] | None,
    clients: Sequence[str] = DEFAULT_CLIENTS,
    *,
    budget: int = DEFAULT_BUDGET,
    job: str = "",
    unset: frozenset[str] = frozenset(),
    files: Sources | None = None,
    library: bool = False,
    libraries: Sequence[str] = DEFAULT_LIBRARIES,
    partial: bool = False,
) -> tuple[ScriptRun, int]:
    """`evaluate`, and how many of the budget's steps it used (every attempt together).

    `files`: the files the PR changed that `source` may read (shell.sources); `library`: the
    script is a library other scripts source, so every function it defines may be called;
    `partial`: `bash -c` of text known only in part is read for what its known pieces run
    (the reading stays incomplete: only a caller that holds that gap as baseline may use
    what it records there).

    `unset`: variables to read as unset, their fallbacks applying, as the job runs the script
    when nothing exports them. The assumption holds only for a name the reading never reads
    plainly while it may still be unset (`$X`, `${#X}`, `$((X))`, `${X:?}`, `X+=...`): such a
    read says the script expects a value from somewhere, so the script is read again without
    that name; after `MAX_UNSET_ATTEMPTS` readings it is read with nothing assumed. Reads on
    paths the assumption rules out (`[ -n "${X:-}" ] && use "$X"`) are not made, so not held
    against it. A name an expanding heredoc reads is never assumed (`heredoc_names`). The run
    names the assumed variables its reading relied on (`unset`).
    """
    hooks = frozenset(unset).difference(env or {}, script.heredoc_names)
    commands = BenchmarkCommands(frozenset(clients), frozenset(libraries))
    steps = 0
    for _ in range(MAX_UNSET_ATTEMPTS if hooks else 0):
        run, used, plain = _attempt(
            script, env, commands, budget - steps, job, hooks, files, library, partial
        )
        steps += used
        if not plain:
            return run, steps
        hooks -= plain
        if not hooks:
            break
    run, used, _ = _attempt(
        script, env, commands, budget - steps, job, frozenset(), files, library, partial
    )
    return run, steps + used


def _attempt(
    script: ParsedScript,
    env: Mapping[str, str] | None,
    commands: BenchmarkCommands,
    budget: int,
    job: str,
    unset: frozenset[str],
    files: Sources | None = None,
    library: bool = False,
    partial: bool = False,
) -> tuple[ScriptRun, int, frozenset[str]]:
    """One reading: the run, the steps it took, the `unset` names it read plainly."""
    environment = tuple(sorted((env or {}).items()))
    if script.tree is None:
        return ScriptRun(path=script.path, problems=script.problems, complete=False, job=job,
                         environment=environment), 0, frozenset()  # fmt: skip
    evaluator = Evaluator(
        script.tree, commands, budget, unset, files, library=library, partial=partial
    )
    try:
        with paused():
            evaluator.run(_initial_scope(env, unset))
    except Exception as exc:  # a reader bug must not crash a check: report it, fail closed
        problem = f"{script.path}:1: script could not be evaluated ({type(exc).__name__})"
        failed = ScriptRun(path=script.path, problems=(*script.problems, problem), complete=False,
                           job=job, environment=environment)  # fmt: skip
        return failed, evaluator.steps, frozenset()
    run = _run_of(script, evaluator, job, environment)
    return run, evaluator.steps, frozenset(evaluator.read_plainly)


def _run_of(
    script: ParsedScript, evaluator: Evaluator, job: str, environment: tuple[tuple[str, str], ...]
) -> ScriptRun:
    problems = script.problems + tuple(
        f"{script.path}:{line}: {what}" for line, what in sorted(evaluator.problems)
    )
    records = _unique(evaluator.records)
    return ScriptRun(
        path=script.path,
        launches=tuple(records.of(LAUNCHES)),
        clients=tuple(records.of(CLIENTS)),
        commands=tuple(records.of(COMMANDS)),
        heredocs=tuple(records.of(HEREDOCS)),
        script_files=tuple(records.of(SCRIPT_FILES)),
        installs=tuple(records.of(LOCAL_INSTALLS)),
        containers=tuple(records.of(CONTAINERS)),
        ran=tuple(records.ran()),
        notes=tuple(evaluator.notes),
        problems=problems,
        complete=not problems,
        job=job,
        environment=environment,
        unset=tuple(sorted(evaluator.read_unset)),
        sourced=tuple(sorted(evaluator.sourced)),
    )


def _initial_scope(env: Mapping[str, str] | None, unset: frozenset[str] = frozenset()) -> Scope:
    scope = Scope()
    for name in sorted(unset):
        scope.variables[name] = (Option(None),)  # read as unset (see evaluate_counted)
    if env is None:
        return scope  # positional parameters and every other variable unknown
    scope.positional = ()  # the launcher runs `bash script.sh` without arguments
    for name, value in env.items():
        scope.variables[name] = (Option(Text(value)),)
    return scope


def _unique(records: Records) -> Records:
    """Each record once, in line order (forks and repeated expansions record the same thing)."""
    unique = Records()
    unique.of(LAUNCHES).extend(_in_order(records.of(LAUNCHES)))
    unique.of(CLIENTS).extend(_in_order(records.of(CLIENTS)))
    unique.of(COMMANDS).extend(_in_order(records.of(COMMANDS)))
    unique.of(HEREDOCS).extend(_in_order(records.of(HEREDOCS)))
    unique.extend(records, ran_only=True)  # each command that ran once already
    unique.of(SCRIPT_FILES).extend(_in_order(records.of(SCRIPT_FILES)))
    unique.of(LOCAL_INSTALLS).extend(_in_order(records.of(LOCAL_INSTALLS)))
    unique.of(CONTAINERS).extend(_in_order(records.of(CONTAINERS)))
    return unique


_Record = TypeVar("_Record", ServerLaunch, ClientCall, ShellCommand, HeredocUse, ScriptFileRun)


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
    return read_unbound(script, client_commands)[0]


def read_unbound(
    script: ParsedScript,
    client_commands: Sequence[str] = DEFAULT_CLIENTS,
    files: Sources | None = None,
    library: bool = False,
    libraries: Sequence[str] = DEFAULT_LIBRARIES,
    budget: int = DEFAULT_BUDGET,
) -> tuple[ScriptFacts, ScriptRun, int]:
    """The unbound reading as facts and as the run `evaluate(script, None)` gives (so one
    evaluation serves both), and the steps it took."""
    commands = BenchmarkCommands(frozenset(client_commands), frozenset(libraries))
    run, values, steps = _evaluate_with_values(script, commands, files, library, budget)
    facts = ScriptFacts(
        path=script.path,
        launches=run.launches,
        clients=run.clients,
        heredocs=run.heredocs,
        problems=run.problems,
        complete=run.complete,
        variables={name: texts[0] for name, texts in values.items()},
        alternatives={name: texts for name, texts in values.items() if len(texts) > 1},
    )
    return facts, run, steps


def _evaluate_with_values(
    script: ParsedScript,
    commands: BenchmarkCommands,
    files: Sources | None,
    library: bool,
    budget: int,
) -> tuple[ScriptRun, dict[str, tuple[str, ...]], int]:
    """The unbound reading, the known texts each variable holds at the script's end, steps."""

    def plain() -> tuple[ScriptRun, dict[str, tuple[str, ...]], int]:
        run, steps = evaluate_counted(
            script, None, sorted(commands.clients), budget=budget, files=files,
            library=library, libraries=sorted(commands.libraries),
        )  # fmt: skip
        return run, {}, steps

    if script.tree is None:
        return plain()
    evaluator = Evaluator(script.tree, commands, budget, files=files, library=library)
    try:
        with paused():
            evaluator.run(_initial_scope(None))
    except Exception:  # the plain reading reports what went wrong
        return plain()
    values = _final_values(evaluator.final)
    return _run_of(script, evaluator, "", ()), values, evaluator.steps


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
