"""Which check runs belong to the sweep's families, and which workflow runs they point at.

Names prove nothing (judge/checks/sweep/rules.py binds runs by provenance), but they say where to
look: gathering reads the workflow runs these name and reads ahead when a commit looks green, and
the judge's sweep rule counts families with the same patterns. Pure: check runs and policy in.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Sequence
from functools import lru_cache

from signoff.evidence import CheckRun, CommitChecks, WorkflowJob
from signoff.policy import CheckRunFamily, Policy

# A commit whose green check runs claim more workflow runs than this is judged on the newest few;
# one sweep run per commit is the norm (a re-labelled PR may add a second).
MAX_CANDIDATE_RUNS = 3


@lru_cache(maxsize=256)
def glob_regex(globs: tuple[str, ...]) -> re.Pattern[str]:
    """One compiled regex for a tuple of fnmatch globs (hundreds of runs x many commits)."""
    return re.compile("|".join(f"(?:{fnmatch.translate(g)})" for g in globs) or "(?!)")


def is_ignored(run: CheckRun | WorkflowJob, policy: Policy) -> bool:
    return glob_regex(policy.sweep.ignored_check_runs).match(run.name) is not None


def is_green(run: CheckRun | WorkflowJob) -> bool:
    return run.status == "completed" and run.conclusion == "success"


def families(scopes: Sequence[str], policy: Policy) -> list[tuple[str, CheckRunFamily]]:
    return [(scope, family) for scope in scopes for family in policy.sweep.scopes[scope].families]


def in_family(run: CheckRun, scopes: Sequence[str], policy: Policy) -> bool:
    return any(glob_regex(f.patterns).match(run.name) for _, f in families(scopes, policy))


def candidate_run_ids(checks: CommitChecks, scopes: Sequence[str], policy: Policy) -> list[int]:
    """Workflow runs (newest first) that green sweep-family check runs of the commit name.

    details_url is only a hint of where to look; the judge binds check runs by job id.
    """
    ids = {
        run.run_id
        for run in checks.check_runs
        if run.run_id is not None
        and is_green(run)
        and not is_ignored(run, policy)
        and in_family(run, scopes, policy)
    }
    return sorted((i for i in ids if i is not None), reverse=True)[:MAX_CANDIDATE_RUNS]
