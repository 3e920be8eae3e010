"""The head's recipe was swept green, by the sweep workflow.

Why: a sign-off vouches for measured numbers; they must come from this PR's recipe, measured by
the repository's own sweep. How it is judged: a commit currently in the PR must have a run of the
sweep workflow named in the profile (`.github/workflows/run-sweep.yml`), by GitHub Actions, for a
`pull_request` event on that very commit, whose own jobs (bound by job id, never by name or
details_url) are executed and all `success` for every check-run family its scope needs
(single-node fixed-seq: `single-node */` + `eval /`; agentic, multi-node and multi-node agentic
have their own families in the profile). `skipped` runs never count, `collect-evals` is ignored,
green runs of any other workflow never count, and neither does a commit no longer in the PR. If
the PR changes the sweep workflow or what it runs (the profile's definition paths), the run
executed the PR's own definition and proves nothing. The run benchmarks only what the PR's new
perf-changelog.yaml entries select, so every master-config entry the PR adds or changes must be
selected by one that runs throughput, for every scenario the change reaches (judge/
sweep_coverage.py). The swept commit must be the pinned head, or
the PR's own changes to benchmark-affecting paths must be identical there and at the head
(merging the default branch or fixing a changelog pr-link after the sweep is fine; changing the
recipe is not). To satisfy it: list every changed config in the changelog entry and run the
unchanged sweep workflow on the final recipe.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from signoff.evidence import ChangedFile
from signoff.judge import sweep_definition
from signoff.judge.checks.sweep import coverage
from signoff.judge.checks.sweep.coverage import unswept
from signoff.judge.checks.sweep.rules import CommitAssessment, assess_commit
from signoff.judge.context import JudgeContext, path_matches
from signoff.judge.model import Finding, Want, failed, passed

ID = "sweep"
NAME = "sweep on in-PR commit"
CONFIG = None  # it has no profile section beyond its switches (rules.<ID>.disable)

MEMO_KEY = "sweep.selected"
OUTCOME_KEY = "sweep.outcome"


def wants(ctx: JudgeContext) -> Iterator[Want]:
    """The changelog's texts when it has no patch, and what the sweep executes when the PR
    changes a file that may be one of its programs."""
    yield from coverage.wants(ctx)
    yield from sweep_definition.wants(ctx)


@dataclass(frozen=True)
class SweepOutcome:
    """Check 1's finding and the commit and run that satisfy it (None unless Check 1 passes)."""

    finding: Finding
    swept: CommitAssessment | None


def evaluate(ctx: JudgeContext) -> Finding:
    return sweep_outcome(ctx).finding


def sweep_outcome(ctx: JudgeContext) -> SweepOutcome:
    """Check 1 in full, memoised: Check 2 judges eval results of `swept.run_id` only."""
    return ctx.memoized(OUTCOME_KEY, lambda: _judge_sweep(ctx))


def _judge_sweep(ctx: JudgeContext) -> SweepOutcome:
    evidence = ctx.evidence
    if not evidence.commit_checks:
        return SweepOutcome(failed("no check runs could be read for any commit in this PR"), None)
    selected, notes = select_sweep(ctx)
    if selected is None:
        return SweepOutcome(failed(_no_sweep_reason(ctx, notes)), None)
    head = evidence.pull_request.head_sha
    problem = recipe_drift(ctx, selected.sha) if selected.sha != head else ""
    problem = problem or definition_changed(ctx, selected) or unswept(ctx, _diff_of(ctx, selected))
    if problem:
        return SweepOutcome(failed(problem), None)
    return SweepOutcome(passed(_pass_reason(ctx, selected)), selected)


def select_sweep(ctx: JudgeContext) -> tuple[CommitAssessment | None, list[str]]:
    """The newest in-PR commit with a qualifying sweep run, and notes on the commits before it."""
    if MEMO_KEY in ctx.memo:
        return ctx.memo[MEMO_KEY]  # type: ignore[return-value]
    in_pr = set(ctx.evidence.commits) | {ctx.evidence.pull_request.head_sha}
    runs = ctx.evidence.workflow_runs
    notes: list[str] = []
    chosen: CommitAssessment | None = None
    for checks in ctx.evidence.commit_checks:
        assessment = assess_commit(checks, ctx.sweep_scopes, ctx.policy, runs)
        if checks.sha not in in_pr:
            if assessment.qualifies:
                notes.append(
                    f"green sweep on {checks.sha[:7]} ignored: that commit is no longer in the PR"
                )
            continue
        if assessment.qualifies:
            chosen = assessment
            break
        notes.append(f"{checks.sha[:7]}: {assessment.problem}")
    ctx.memo[MEMO_KEY] = (chosen, notes)
    return chosen, notes


def _no_sweep_reason(ctx: JudgeContext, notes: list[str]) -> str:
    scopes = ", ".join(ctx.sweep_scopes)
    detail = notes[0] if notes else "no in-PR commit had check runs"
    truncated = "; GitHub listed only 250 PR commits" if ctx.evidence.commits_truncated else ""
    if ctx.evidence.commit_checks_truncated:
        examined = len(ctx.evidence.commit_checks)
        truncated += f"; only the newest {examined} commits' check runs were examined"
    return f"no passing sweep/eval on any commit in this PR (scope {scopes}): {detail}{truncated}"


def _pass_reason(ctx: JudgeContext, selected: CommitAssessment) -> str:
    counts = ", ".join(f"{t.green} green `{t.family}`" for t in selected.tallies if t.green)
    where = "head" if selected.sha == ctx.evidence.pull_request.head_sha else "in-PR commit"
    workflow = ctx.policy.sweep.provenance.workflow
    run = f" in run {selected.run_id} of `{workflow}`" if selected.run_id is not None else ""
    later = "" if where == "head" else "; later commits leave the recipe unchanged"
    return f"{where} {selected.sha[:7]} has {counts} executed jobs{run}{later}"


def definition_changed(ctx: JudgeContext, selected: CommitAssessment) -> str:
    """Why the swept run executed the PR's own sweep definition ("" when it did not).

    A `pull_request` run uses the workflow files (and the scripts they run) of the PR's merge
    ref, so a PR that edits them at the swept commit measured itself with its own rules.
    """
    evidence = ctx.evidence
    at_head = selected.sha == evidence.pull_request.head_sha
    diff = evidence.sweep_diff
    if at_head and evidence.files_truncated:
        return (
            "the PR has more than 3,000 files; changes to the sweep's own definition "
            "cannot be ruled out"
        )
    files = evidence.changed_files if at_head or diff is None else diff.files
    patterns = ctx.policy.sweep.provenance.definition_paths
    paths = sorted({p for f in files for p in (f.path, f.previous_path) if p})
    executed = [
        *sweep_definition.candidates(ctx, tuple(paths)),
        *sweep_definition.workflow_candidates(ctx, tuple(paths)),
    ]
    reach = sweep_definition.executed_files(ctx) if executed and at_head else None
    for path in paths:
        if any(path_matches(path, pattern) for pattern in patterns):
            return _own_definition(path, selected, "")
        if path not in executed:
            continue
        if reach is None:  # an older swept commit: its programs were not followed
            return _own_definition(path, selected, "")
        if not reach.complete:
            why = reach.problem or "the files the sweep executes were not all read"
            return _own_definition(path, selected, f" ({why}, so it may be executed)")
        if path in reach.files:
            return _own_definition(path, selected, " (the sweep executes it)")
    return ""


def _own_definition(path: str, selected: CommitAssessment, why: str) -> str:
    return (
        f"the PR changes `{path}`, part of the sweep's own definition{why}: run "
        f"{selected.run_id} executed the PR's version (pull_request runs use the "
        "PR's merge ref), so its green jobs prove nothing"
    )


def _diff_of(ctx: JudgeContext, selected: CommitAssessment) -> tuple[ChangedFile, ...]:
    """The PR's changes as of the swept commit (the head's list when it is the head)."""
    diff = ctx.evidence.sweep_diff
    if selected.sha == ctx.evidence.pull_request.head_sha or diff is None:
        return ctx.evidence.changed_files
    return diff.files


def recipe_drift(ctx: JudgeContext, sweep_sha: str) -> str:
    """Why the PR's recipe at the head differs from the swept commit ("" when it does not)."""
    diff = ctx.evidence.sweep_diff
    if diff is None or diff.sha != sweep_sha or not diff.complete:
        return (
            f"sweep ran on {sweep_sha[:7]}, not the head, "
            "and the PR's diff at that commit was not read"
        )
    if ctx.evidence.files_truncated:
        return (
            "the PR has more than 3,000 files; recipe changes after the sweep cannot be ruled out"
        )
    then = _affecting(ctx, diff.files)
    now = _affecting(ctx, ctx.evidence.changed_files)
    for path in sorted(set(then) | set(now)):
        before, after = then.get(path), now.get(path)
        if before is None or after is None:
            return _changed_after(path, sweep_sha)
        if before == ("unavailable",) or after == ("unavailable",):
            return f"{path}: GitHub sent no patch, so changes after the sweep cannot be ruled out"
        if before != after:
            return _changed_after(path, sweep_sha)
    return ""


def _changed_after(path: str, sweep_sha: str) -> str:
    return f"{path} changed after the swept commit {sweep_sha[:7]}; the head's recipe was not swept"


def _affecting(ctx: JudgeContext, files: Iterable[ChangedFile]) -> dict[str, tuple[str, ...]]:
    sweep = ctx.policy.sweep
    result: dict[str, tuple[str, ...]] = {}
    for changed in files:
        if not any(path_matches(changed.path, p) for p in sweep.affecting_paths):
            continue
        if changed.patch is None:
            result[changed.path] = ("unavailable",)
            continue
        ignored = [
            re.compile(pattern)
            for glob, patterns in sorted(sweep.ignored_diff_lines.items())
            if path_matches(changed.path, glob)
            for pattern in patterns
        ]
        lines = _changed_lines(changed.patch, ignored)
        if lines:
            result[changed.path] = lines
    return result


def _changed_lines(patch: str, ignored: list[re.Pattern[str]]) -> tuple[str, ...]:
    """The PR's own added/removed lines, without hunk positions or context (merge-stable)."""
    kept = []
    for line in patch.splitlines():
        if line.startswith(("+++", "---", "@@")) or line[:1] not in ("+", "-"):
            continue
        if any(p.search(line[1:]) for p in ignored):
            continue
        kept.append(line)
    return tuple(kept)
