"""Whether one commit's check runs show a green executed sweep for the scopes a PR needs."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Sequence
from functools import lru_cache

from pydantic import BaseModel, ConfigDict

from signoff.evidence import CheckRun, CommitChecks
from signoff.policy import CheckRunFamily, Policy


class FamilyTally(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    scope: str
    family: str
    required: bool
    green: int  # executed and success
    not_green: tuple[str, ...]  # executed (or still running) runs that are not success
    skipped: int


class CommitAssessment(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    sha: str
    qualifies: bool
    run_id: int | None  # the workflow run whose green families qualified the commit
    tallies: tuple[FamilyTally, ...]
    problem: str  # why it does not qualify ("" when it does)


@lru_cache(maxsize=256)
def glob_regex(globs: tuple[str, ...]) -> re.Pattern[str]:
    """One compiled regex for a tuple of fnmatch globs (hundreds of runs x many commits)."""
    return re.compile("|".join(f"(?:{fnmatch.translate(g)})" for g in globs) or "(?!)")


def is_ignored(run: CheckRun, policy: Policy) -> bool:
    return glob_regex(policy.sweep.ignored_check_runs).match(run.name) is not None


def _is_green(run: CheckRun) -> bool:
    return run.status == "completed" and run.conclusion == "success"


def _tally(runs: Sequence[CheckRun], scope: str, family: CheckRunFamily) -> FamilyTally:
    pattern = glob_regex(family.patterns)
    members = [r for r in runs if pattern.match(r.name)]
    # `skipped` (reuse no-op runs, canary-trimmed jobs) never counts as executed.
    skipped = [r for r in members if r.conclusion == "skipped"]
    executed = [r for r in members if r.conclusion != "skipped"]
    green = [r for r in executed if _is_green(r)]
    not_green = sorted(
        f"{r.name} ({r.conclusion or r.status})" for r in executed if not _is_green(r)
    )
    return FamilyTally(
        scope=scope,
        family=family.name,
        required=family.required,
        green=len(green),
        not_green=tuple(not_green),
        skipped=len(skipped),
    )


def assess_commit(checks: CommitChecks, scopes: Sequence[str], policy: Policy) -> CommitAssessment:
    """A commit qualifies when, for every needed scope, each required family has executed runs
    and every executed run of every family is `success` (real verdicts judged whole families)."""
    runs = [r for r in checks.check_runs if not is_ignored(r, policy)]
    tallies = [
        _tally(runs, scope, family)
        for scope in scopes
        for family in policy.sweep.scopes[scope].families
    ]
    problem = _first_problem(tallies, checks)
    return CommitAssessment(
        sha=checks.sha,
        qualifies=not problem,
        run_id=_run_id(runs, policy, scopes) if not problem else None,
        tallies=tuple(tallies),
        problem=problem,
    )


def _first_problem(tallies: Sequence[FamilyTally], checks: CommitChecks) -> str:
    if not checks.complete:
        return "its check runs could not be read in full"
    for tally in tallies:
        if tally.not_green:
            extra = f" and {len(tally.not_green) - 1} more" if len(tally.not_green) > 1 else ""
            return f"`{tally.family}` has a non-green run: {tally.not_green[0]}{extra}"
        if tally.required and tally.green == 0:
            why = f"all {tally.skipped} skipped" if tally.skipped else "none ran"
            return f"no executed `{tally.family}` check runs ({why})"
    return ""


def _run_id(runs: Sequence[CheckRun], policy: Policy, scopes: Sequence[str]) -> int | None:
    """The workflow run of the green eval family (else of any green family run)."""
    green_ids: list[int] = []
    for scope in scopes:
        families = policy.sweep.scopes[scope].families
        for family in sorted(families, key=lambda f: "eval" not in f.name):
            for run in runs:
                if run.conclusion != "success" or run.run_id is None:
                    continue
                if glob_regex(family.patterns).match(run.name):
                    green_ids.append(run.run_id)
    return green_ids[0] if green_ids else None
