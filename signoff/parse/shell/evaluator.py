"""Evaluate a parsed script's control flow under one bound environment (nothing is executed).

Lists, `&&`/`||` (a decided left side settles the right: `true || cmd` never runs it),
pipelines and `&` (subshells: their assignments do not persist), `if/elif/else`, `case`, loops,
groups and subshells, function calls. A condition the bound values cannot decide keeps both
arms: the commands inside are recorded as undecided with the condition as `why`, and the states
of the arms are joined (a variable assigned differently keeps both values, each naming its
condition). `exit 0` ends the path; `exit 1` marks a path no successful run takes, so it is
dropped without making what follows undecided. Work, nesting and calls are bounded; hitting a
bound is a problem that makes the reading incomplete.
"""

from __future__ import annotations

import re

from signoff.parse.shell.flow import MAX_EVAL_DEPTH, BudgetExceeded, Outcome, Path, Runner
from signoff.parse.shell.hooks import CommandHook
from signoff.parse.shell.reader import HOOK_FUNCTIONS
from signoff.parse.shell.records import Records
from signoff.parse.shell.simple import SimpleCommands
from signoff.parse.shell.sources import Sources
from signoff.parse.shell.syntax import (
    AndOr,
    Case,
    Command,
    Func,
    Group,
    If,
    Loop,
    Parsed,
    Pipeline,
    Seq,
    Simple,
)
from signoff.parse.shell.value_arms import collapsible, left_unknown
from signoff.parse.shell.values import (
    FunctionDef,
    Mark,
    Scope,
    Text,
    apply_into,
    assigned_names,
    hold,
    merge_into,
    unmarked,
)

MAX_ITERATIONS = 256  # for-loop items evaluated one by one
_SOFT = frozenset({"return", "break", "continue"})
_TESTS = frozenset({"[", "[[", "test"})  # stops that end with a function or loop
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Evaluator(SimpleCommands):
    """One evaluation of one parsed script; call `run` once."""

    def __init__(
        self,
        parsed: Parsed,
        hook: CommandHook,
        budget: int,
        unset: frozenset[str] = frozenset(),
        files: Sources | None = None,
        *,
        library: bool = False,
        partial: bool = False,
    ) -> None:
        """`unset`: variables bound as unset in the initial scope whose reads are watched.
        `files`: what `source` may read of the files the PR changed. `library`: the text is a
        library other scripts source, so any of its functions may be called (see `run`).
        `partial`: `bash -c` of text known only in part is read for its known pieces too
        (calls.Calls.run_partial_text); the reading is incomplete all the same."""
        super().__init__(parsed, hook, files)
        self.library = library
        self.partial_strings = partial
        self.unset_hooks = unset
        self.records = Records()
        self.final: Scope | None = None  # the scope after the last command (None: not reached)
        self.budget = budget
        self.steps = 0
        self.depth = 0
        self.forks = 0
        self.decisions: dict[str, int] = {}  # one fork id per condition that decides alike
        self.assigned: dict[int, frozenset[str]] = {}  # per text read: names it may assign

    def run(self, scope: Scope) -> None:
        try:
            self.final, _ = self.seq(self.parsed.script, scope)
            if self.library and self.final is not None:
                self._call_every_function(self.final)
        except BudgetExceeded:
            self.problem(self.line, f"evaluation stopped after {self.budget} steps (work bound)")
        for name in sorted(set(scope.overflow)):
            self.note(f"{name} took more values than the reader keeps apart; read together")

    def _call_every_function(self, scope: Scope) -> None:
        """A library read alone: any script sourcing it may call any function it defines,
        with any arguments, so each runs once (undecided) with its arguments unknown."""
        names = sorted(scope.function_names())
        for name in names:
            for definition in scope.function(name):
                why = f"a script sourcing this file may call {name}"
                branch = scope.copy()
                branch.reach = branch.why() or why
                branch.positional = None
                self.calls += 1
                self.sources.append(definition.source or self.sources[-1])
                self.line_base.append(definition.line_base)
                self.frames.append(self.frame("function", definition.body))  # ends returns
                try:
                    self.command(definition.body, branch)
                finally:
                    self.calls -= 1
                    self.sources.pop()
                    self.line_base.pop()
                    self.frames.pop()

    def tick(self, line: int, steps: int = 1) -> None:
        self.line = line
        self.steps += steps
        if self.steps > self.budget:
            raise BudgetExceeded

    # --- lists --------------------------------------------------------------------------------

    def seq(self, seq: Seq, scope: Scope) -> tuple[Scope, Outcome]:
        outcome = Outcome()
        for item in seq.items:
            scope, outcome = self.and_or(item, scope)
            if outcome.ctl:
                return scope, outcome
        return scope, outcome

    def and_or(self, node: AndOr, scope: Scope) -> tuple[Scope, Outcome]:
        if node.background:  # `cmd &` runs in a subshell: its assignments do not persist
            self.pipeline_chain(node, scope.copy())
            return scope, Outcome()
        return self.pipeline_chain(node, scope)

    def pipeline_chain(self, node: AndOr, scope: Scope) -> tuple[Scope, Outcome]:
        if node.rest:
            test = _leading_test(Seq([AndOr(node.first)]))
            split = self.per_combination(scope, test, lambda s: self._chain(node, s))
            if split is not None:
                return split
        return self._chain(node, scope)

    def _chain(self, node: AndOr, scope: Scope) -> tuple[Scope, Outcome]:
        scope, outcome = self.pipeline(node.first, scope)
        previous = node.first
        for op, pipe in node.rest:
            if outcome.ctl:
                return scope, outcome
            if outcome.status is not None and outcome.status is not (op == "&&"):
                continue  # `true || cmd`, `false && cmd`: cmd never runs; the status stays
            if outcome.status is not None:
                scope, outcome = self.pipeline(pipe, scope)
            else:
                text = f"`{_describe_pipe(previous)}` (line {self.at(previous.line)})"
                why = f"the status of {text} is not known"
                names = collapsible(pipe, scope)
                if names is not None:
                    scope = self.run_value_arm(scope, _pipeline_runner(self, pipe), why, names)
                    outcome = Outcome(None)
                else:
                    self.note(why)
                    scope, outcome = self.fork_one(scope, _pipeline_runner(self, pipe), why)
            previous = pipe
        return scope, outcome

    def pipeline(self, pipe: Pipeline, scope: Scope) -> tuple[Scope, Outcome]:
        if len(pipe.commands) == 1:
            scope, outcome = self.command(pipe.commands[0], scope)
        else:  # every part of a pipeline runs in a subshell (the last one too, unless lastpipe)
            outcome = Outcome()
            feed: str | None = None  # `cat f | bash`: a written file as the next one's input
            printed: str | None = None  # `echo '...' | bash`: the text it prints
            for command in pipe.commands:
                self.feeding, self.stdin_from = None, feed
                self.printing, self.stdin_text = None, printed
                if command is pipe.commands[-1] and self.lastpipe:  # (`echo x | read -r V`)
                    scope, outcome = self.command(command, scope)
                else:
                    _, outcome = self.command(command, scope.copy())
                feed = self.feeding
                owner, text = self.printing or (None, "")
                printed = text if owner is command else ""
            self.feeding = self.stdin_from = self.printing = self.stdin_text = None
            outcome = Outcome(outcome.status)
        if pipe.negated and not outcome.ctl:
            outcome = Outcome(None if outcome.status is None else not outcome.status)
        return scope, outcome

    # --- compound commands ---------------------------------------------------------------------

    def command(self, node: Command, scope: Scope) -> tuple[Scope, Outcome]:
        if isinstance(node, Simple):
            return self.simple(node, scope)
        if self.depth >= MAX_EVAL_DEPTH:
            self.problem(node.line, f"commands nested deeper than {MAX_EVAL_DEPTH} levels")
            return scope, Outcome(None)
        self.depth += 1
        try:
            return self._compound(node, scope)
        finally:
            self.depth -= 1

    def _compound(self, node: Command, scope: Scope) -> tuple[Scope, Outcome]:
        self.tick(node.line)
        if isinstance(node, If):
            return self.if_(node, scope)
        if isinstance(node, Case):
            return self.case(node, scope)
        if isinstance(node, Loop):
            return self.loop(node, scope)
        if isinstance(node, Func):
            here = FunctionDef(node.body, "", self.sources[-1], self.line_base[-1])
            scope.define(node.name, (here,))
            if node.name in HOOK_FUNCTIONS:  # bash calls it itself
                scope = self.call_hook(node.name, scope, node.line)
            return scope, Outcome()
        assert isinstance(node, Group)
        if not node.subshell:
            return self.seq(node.body, scope)
        self.frames.append(self.frame("subshell", None))  # a `return` or `break` ends it
        try:
            _, outcome = self.seq(node.body, scope.copy())
        finally:
            self.frames.pop()
        return scope, _subshell_outcome(outcome)

    def if_(self, node: If, scope: Scope) -> tuple[Scope, Outcome]:
        test = _leading_test(node.arms[0][0]) if node.arms else None
        split = self.per_combination(scope, test, lambda s: self._if(node, s))
        return split if split is not None else self._if(node, scope)

    def _if(self, node: If, scope: Scope) -> tuple[Scope, Outcome]:
        paths: list[Path] = []
        current = scope
        for cond, body in node.arms:
            current, decided = self.seq(cond, current)
            if decided.ctl:
                return current, decided
            text = f"`{_describe(cond)}` (line {self.at(_first_line(cond, node.line))})"
            if decided.status is True:
                paths.append((*self.seq(body, current), f"{text} is true"))
                return self.merge(scope, paths)
            if decided.status is False:
                continue
            why = f"{text} could not be decided"
            if len(node.arms) == 1 and node.orelse is None:
                names = collapsible(body, current)
                if names is not None:
                    run = _seq_runner(self, body)
                    return self.run_value_arm(current, run, why, names), Outcome()
            self.note(why)
            branch = current.copy()
            branch.reach = branch.why() or why
            paths.append((*self.seq(body, branch), why))
            current = current.copy()
            current.reach = current.why() or f"{text} may be false"
        fallback = f"no condition of the if at line {self.at(node.line)} held"
        if node.orelse is not None:
            paths.append((*self.seq(node.orelse, current), fallback))
        else:
            paths.append((current, Outcome(), fallback))
        decision = self._decision(node.arms[0][0]) if len(node.arms) == 1 else ""
        return self.merge(scope, paths, decision)

    def case(self, node: Case, scope: Scope) -> tuple[Scope, Outcome]:
        if node.subject is None:
            return scope, Outcome()
        paths: list[Path] = []
        current = scope
        subject = self.expander(current).value(node.subject.raw, node.subject.offset)
        falling = False
        for arm in node.arms:
            matched = True if falling else self.case_match(arm.patterns, subject, current)
            if matched is False:
                continue
            patterns = "|".join(word.raw for word in arm.patterns)[:60]
            text = f"`case {node.subject.raw[:40]} in {patterns})` (line {self.at(node.line)})"
            if matched is None:
                self.note(f"{text} could not be decided")
                branch = current.copy()
                branch.reach = branch.why() or f"{text} could not be decided"
                after, outcome = self.seq(arm.body, branch)
                paths.append((after, outcome, f"{text} could not be decided"))
                current = current.copy()
                current.reach = current.why() or f"{text} may not match"
                falling = arm.terminator == ";&"
                continue
            after, outcome = self.seq(arm.body, current)
            paths.append((after, outcome, f"{text} matches"))
            if arm.terminator == ";;":
                return self.merge(scope, paths)
            falling, current = arm.terminator == ";&", after
        no_match = f"no pattern of the case at line {self.at(node.line)} matched"
        paths.append((current, Outcome(), no_match))
        return self.merge(scope, paths)

    def loop(self, node: Loop, scope: Scope) -> tuple[Scope, Outcome]:
        soft = scope.soft
        self.frames.append(self.frame("loop", node))
        try:
            scope, outcome = self._loop(node, scope)
        finally:
            held = self.frames.pop().held
        scope.soft = soft  # a `break` that may have run ends with the loop
        return self.release(scope, outcome, held)

    def _loop(self, node: Loop, scope: Scope) -> tuple[Scope, Outcome]:
        if node.kind in ("while", "until"):
            return self.while_loop(node, scope)
        if node.kind == "arith-for":
            return self._arith_for(node, scope)
        items = self.loop_items(node, scope) if node.kind == "for" else None
        if items is None:
            why = f"the items of the {node.kind} loop at line {self.at(node.line)} are not known"
            self.note(why)
            once = self._any_times(lambda s: self.loop_body(node, s, None))
            return self.fork_one(scope, once, why)
        if len(items) > MAX_ITERATIONS:
            self.problem(node.line, f"a loop over more than {MAX_ITERATIONS} items")
        items = items[:MAX_ITERATIONS]
        entry = scope.soft
        for index, item in enumerate(items):
            scope, outcome = self.loop_body(node, scope, item)
            if outcome.ctl == "break":
                break
            if outcome.ctl and outcome.ctl != "continue":
                return scope, outcome
            if scope.soft != entry and index + 1 < len(items):
                why, scope.soft = scope.soft, entry  # a `break` may have run: the rest may not
                rest = items[index + 1 :]
                return self.fork_one(scope, _iterations(self, node, rest), why)
            scope.soft = entry
        return scope, Outcome()

    def _arith_for(self, node: Loop, scope: Scope) -> tuple[Scope, Outcome]:
        """`for ((i = 0; i < n; i++))`: followed while its values are known, else read once."""
        parts = node.name[2:-2].split(";")
        exp = self.expander(scope)
        if len(parts) != 3 or (exp.arithmetic(parts[0], 0) is None and parts[0].strip()):
            return self._unknown_loop(node, scope)
        for _ in range(MAX_ITERATIONS):
            condition = self.expander(scope).arithmetic(parts[1], 0) if parts[1].strip() else 1
            if condition is None:
                return self._unknown_loop(node, scope)
            if not condition:
                return scope, Outcome()
            scope, outcome = self.seq(node.body, scope)
            if outcome.ctl == "break":
                return scope, Outcome()
            if outcome.ctl and outcome.ctl != "continue":
                return scope, outcome
            if self.expander(scope).arithmetic(parts[2], 0) is None and parts[2].strip():
                return self._unknown_loop(node, scope)
        self.problem(node.line, f"a loop of more than {MAX_ITERATIONS} iterations")
        return scope, Outcome()

    def _unknown_loop(self, node: Loop, scope: Scope) -> tuple[Scope, Outcome]:
        why = f"the iterations of the {node.kind} loop at line {self.at(node.line)} are not known"
        self.note(why)
        return self.fork_one(scope, self._any_times(lambda s: self._loop_once(node, s)), why)

    def _iterate(self, node: Loop, scope: Scope, items: list[Text]) -> tuple[Scope, Outcome]:
        """Iterations that only may run, one after another (no further forks)."""
        entry = scope.soft
        for item in items:
            scope, outcome = self.loop_body(node, scope, item)
            scope.soft = entry
            if outcome.ctl == "break":
                break
            if outcome.ctl and outcome.ctl != "continue":
                return scope, outcome
        return scope, Outcome()

    def while_loop(self, node: Loop, scope: Scope) -> tuple[Scope, Outcome]:
        """Iterate while the condition is decided true (an argument parser's `while [[ $# -gt
        0 ]]` with known arguments), up to MAX_ITERATIONS; a condition that cannot be decided
        runs the body once more, undecided, and so does a condition still true at the bound."""
        assert node.cond is not None
        entry = scope.soft
        for _ in range(MAX_ITERATIONS):
            scope, decided = self.seq(node.cond, scope)
            if decided.ctl:
                return scope, decided
            status = decided.status if node.kind == "while" else _not(decided.status)
            if status is False:
                return scope, Outcome()
            if status is None:
                break
            scope, outcome = self.seq(node.body, scope)
            if outcome.ctl == "break":
                return scope, Outcome()
            if outcome.ctl and outcome.ctl != "continue":
                return scope, outcome
            if scope.soft != entry:  # a `break` may have run: what follows may not
                why, scope.soft = scope.soft, entry
                rest = self._any_times(lambda s: self._loop_once(node, s))
                return self.fork_one(scope, rest, why)
        where = f"{node.kind} at line {self.at(node.line)}"
        why = f"`{_describe(node.cond)}` ({where}) could not be decided"
        self.note(why)
        return self.fork_one(scope, self._any_times(lambda s: self._loop_once(node, s)), why)

    def _decision(self, cond: Seq) -> str:
        """A test that decides alike wherever it is written: the same text over variables the
        script never assigns (so two `if [ "$DP_ATTENTION" = true ]` take the same arm)."""
        if len(cond.items) != 1 or cond.items[0].rest or len(cond.items[0].first.commands) != 1:
            return ""
        command = cond.items[0].first.commands[0]
        if not isinstance(command, Simple) or command.assigns or not command.words:
            return ""
        if command.words[0].raw not in ("[", "[[", "test"):
            return ""
        text = " ".join(word.raw for word in command.words)
        if "$(" in text or "`" in text or "${!" in text:
            return ""
        names = set(_IDENT.findall(text))
        if any(self._assigned(name) for name in names):
            return ""
        negated = "!" if cond.items[0].first.negated else ""
        return f"{id(self.sources[-1])}:{negated}{text}"

    def _assigned(self, name: str) -> bool:
        """Whether the script's text could assign `name` anywhere (a cheap, generous test)."""
        source = self.sources[-1]
        if id(source) not in self.assigned:
            if source.assigns is None:  # kept on the tree: every reading shares it
                source.assigns = assigned_names(source.text)
            self.assigned[id(source)] = source.assigns
        return any(name in self.assigned[key] for key in self.assigned)

    def _any_times(self, run: Runner) -> Runner:
        """A loop body read once for iterations that are not known: the undecided forks inside
        it may go one way in one iteration and the other in the next (an argument parser's
        `case $1` takes `--model` once, `--dsv4` later), so the values its arms leave no
        longer exclude each other (their marks from those forks are dropped)."""

        def once(scope: Scope) -> tuple[Scope, Outcome]:
            first = self.forks + 1
            after, outcome = run(scope)
            if self.forks >= first:
                since = scope.parent if scope.parent is not None else scope
                for name in sorted(after.written_since(since)[0]):
                    after.assign(name, unmarked(after.options(name), first))
            return after, outcome

        return once

    def _loop_once(self, node: Loop, scope: Scope) -> tuple[Scope, Outcome]:
        scope, outcome = self.seq(node.body, scope)
        return scope, Outcome() if outcome.ctl in ("break", "continue") else outcome

    # --- paths ---------------------------------------------------------------------------------

    def run_value_arm(self, scope: Scope, run: Runner, why: str, names: tuple[str, ...]) -> Scope:
        """An undecided arm that only moves run-time values (shell.value_arms): run it for its
        records, then each variable it assigns holds one unknown value, unforked."""
        branch = scope.copy()
        branch.reach = branch.why() or why
        run(branch)
        for name in names:
            scope.put(name, left_unknown(name))
        return scope

    def fork_one(self, scope: Scope, run: Runner, why: str) -> tuple[Scope, Outcome]:
        """Run `run` on an overlay marked undecided by `why`; join it with not running it."""
        branch = scope.copy()
        branch.reach = branch.why() or why
        after, outcome = run(branch)
        return self.merge(scope, [(after, outcome, why), (scope, Outcome(None), f"not: {why}")])

    def merge(
        self,
        base: Scope,
        paths: list[Path],
        decision: str = "",
        inherited: list[tuple[Mark, ...]] | None = None,
    ) -> tuple[Scope, Outcome]:
        """Fold alternative paths (overlays on `base`) back into `base`. A path that fails is one
        no successful run takes; a path that stopped (exit, return) makes what follows
        undecided. Forks with the same `decision` go the same way (their arms correlate);
        `inherited` adds, per path, the marks of the values that path was evaluated with."""
        self.forks += 1
        fork = self.decisions.setdefault(decision, self.forks) if decision else self.forks
        reach, entry_soft = base.reach, base.soft
        live = [(k, path) for k, path in enumerate(paths) if path[1].ctl != "fail"]
        if not live:
            return base, Outcome(None, "fail", paths[0][1].where)
        going = [(k, path) for k, path in live if not path[1].ctl]
        soft = [(k, path) for k, path in live if path[1].ctl in _SOFT]
        hard = [path for _, path in live if path[1].ctl and path[1].ctl not in _SOFT]
        extra = inherited or [() for _ in paths]
        # a path that leaves by break/return carries its state to the loop's or function's
        # end: kept aside there while others go on (the commands it skips never read it)
        kept = self._hold_left(base, going, soft, fork, extra) if going else soft
        chosen = (going + kept) or live
        if len(chosen) == 1:
            apply_into(base, chosen[0][1][0])
        else:
            merge_into(base, [(path[0], path[2], (*extra[k], (fork, k))) for k, path in chosen])
        base.reach, base.soft = reach, entry_soft
        if not going:
            return base, (soft[0][1] if soft else hard[0])[1]
        _mark_stopped(base, hard[:1], [path for _, path in soft[:1]])
        statuses = {path[1].status for _, path in going}
        return base, Outcome(statuses.pop() if len(statuses) == 1 else None)

    def _hold_left(
        self,
        base: Scope,
        going: list[tuple[int, Path]],
        soft: list[tuple[int, Path]],
        fork: int,
        extra: list[tuple[Mark, ...]],
    ) -> list[tuple[int, Path]]:
        """Hold aside the paths that left by `return`/`break` for a frame that ends them (see
        `release`); the rest (a `continue`, or no such frame) stay for the merge."""
        kept: list[tuple[int, Path]] = []
        names: set[str] = set()
        functions: set[str] = set()
        for _, path in going + soft:
            variables, defined, _ = path[0].written_since(base)
            names |= variables
            functions |= defined
        for k, path in soft:
            frame = self.frame_for(path[1].ctl)
            if frame is None:
                kept.append((k, path))
                continue
            if frame.kind == "subshell":
                continue  # it ends the subshell, whose state ends with it
            arm = (path[0], path[2], (*extra[k], (fork, k)))
            # what the paths that go on may still write before the frame ends is kept too
            frame.held.append(hold(base, arm, names | frame.names, functions))
            base.exported |= path[0].written_since(base)[2]
        return kept


def _mark_stopped(base: Scope, exits: list[Path], leaves: list[Path]) -> None:
    """What follows a path that may have stopped may not run: after an `exit`, to the end of
    the script (`reach`); after a `break`/`return`, to the end of its loop or function (`soft`)."""
    for stopped, attribute in ((exits, "reach"), (leaves, "soft")):
        if stopped:
            where = stopped[0][1].where or stopped[0][1].ctl
            why = f"the path may have ended earlier ({where}; {stopped[0][2]})"
            setattr(base, attribute, getattr(base, attribute) or why)


def _iterations(evaluator: Evaluator, node: Loop, items: list[Text]) -> Runner:
    return lambda scope: evaluator._iterate(node, scope, items)


def _pipeline_runner(evaluator: Evaluator, pipe: Pipeline) -> Runner:
    return lambda scope: evaluator.pipeline(pipe, scope)


def _seq_runner(evaluator: Evaluator, seq: Seq) -> Runner:
    return lambda scope: evaluator.seq(seq, scope)


def _subshell_outcome(outcome: Outcome) -> Outcome:
    if outcome.ctl == "fail":
        return Outcome(False)
    if outcome.ctl == "exit":
        return Outcome(outcome.status)
    return Outcome(outcome.status)


def _not(status: bool | None) -> bool | None:
    return None if status is None else not status


def _first_line(seq: Seq, default: int) -> int:
    return seq.items[0].first.line if seq.items else default


def _leading_test(cond: Seq) -> Simple | None:
    """The condition when it is one test command (`[`, `[[`, `test`)."""
    if len(cond.items) != 1 or cond.items[0].rest or len(cond.items[0].first.commands) != 1:
        return None
    command = cond.items[0].first.commands[0]
    if isinstance(command, Simple) and command.words and command.words[0].raw in _TESTS:
        return command
    return None


def _describe(seq: Seq) -> str:
    """A condition as written (its first command's words), shortened."""
    return _describe_pipe(seq.items[0].first) if seq.items else ""


def _describe_pipe(pipe: Pipeline) -> str:
    command = pipe.commands[0]
    if isinstance(command, Simple):
        text = " ".join(word.raw for word in [*command.assigns, *command.words])
        return ("! " if pipe.negated else "") + " ".join(text.split())[:80]
    return type(command).__name__.lower()
