"""The head's recipe was swept green.

Why: a sign-off vouches for measured numbers; they must come from this PR's recipe. How it is
judged: a commit currently in the PR must have executed check runs, all `success`, for every
check-run family its scope needs (single-node fixed-seq: `single-node */` + `eval /`; agentic,
multi-node and multi-node agentic have their own families in the profile). `skipped` runs never
count, `collect-evals` is ignored, and a green run on a commit no longer in the PR never counts.
That commit must be the pinned head, or the PR's own changes to benchmark-affecting paths must be
identical there and at the head (merging the default branch or fixing a changelog pr-link after
the sweep is fine; changing the recipe is not). To satisfy it: run the sweep on the final recipe.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from signoff.evidence import ChangedFile
from signoff.judge.context import JudgeContext, path_matches
from signoff.judge.model import Finding, failed, passed
from signoff.judge.sweep_rules import CommitAssessment, assess_commit

ID = "sweep"
NAME = "sweep on in-PR commit"

MEMO_KEY = "sweep.selected"


def evaluate(ctx: JudgeContext) -> Finding:
    evidence = ctx.evidence
    if not evidence.commit_checks:
        return failed("no check runs could be read for any commit in this PR")
    selected, notes = select_sweep(ctx)
    if selected is None:
        return failed(_no_sweep_reason(ctx, notes))
    head = evidence.pull_request.head_sha
    if selected.sha != head:
        drift = recipe_drift(ctx, selected.sha)
        if drift:
            return failed(drift)
    return passed(_pass_reason(ctx, selected))


def select_sweep(ctx: JudgeContext) -> tuple[CommitAssessment | None, list[str]]:
    """The newest in-PR commit with a qualifying sweep (memoised for Check 2), and notes."""
    if MEMO_KEY in ctx.memo:
        return ctx.memo[MEMO_KEY]  # type: ignore[return-value]
    in_pr = set(ctx.evidence.commits) | {ctx.evidence.pull_request.head_sha}
    notes: list[str] = []
    chosen: CommitAssessment | None = None
    for checks in ctx.evidence.commit_checks:
        assessment = assess_commit(checks, ctx.sweep_scopes, ctx.policy)
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
    run = f" in run {selected.run_id}" if selected.run_id is not None else ""
    later = "" if where == "head" else "; later commits leave the recipe unchanged"
    return f"{where} {selected.sha[:7]} has {counts} executed check runs{run}{later}"


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
    ignored = [re.compile(p) for p in sweep.ignored_diff_lines]
    result: dict[str, tuple[str, ...]] = {}
    for changed in files:
        if not any(path_matches(changed.path, p) for p in sweep.affecting_paths):
            continue
        if changed.patch is None:
            result[changed.path] = ("unavailable",)
            continue
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
