"""The judge's reading plan, which `verify` and `audit` hand to gathering (signoff/gather/plan.py).

Gathering reads; what to read next is the judge's to say. The view is the same `JudgeContext`
the checks judge with, so a check's `wants(ctx)` and its `evaluate(ctx)` read the evidence alike;
the sweep rule is the one Check 5 applies (signoff/judge/checks/sweep/rules.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from signoff.collector import paused
from signoff.evidence import CommitChecks, Evidence, Want, WorkflowRun
from signoff.judge import check_modules
from signoff.judge.checks.sweep.rules import CommitAssessment, assess_commit
from signoff.judge.context import JudgeContext
from signoff.policy import Policy
from signoff.standards import Standard


class ReadingView(JudgeContext):
    """A `JudgeContext` that also answers what every check of its standard wants read."""

    def wants(self) -> list[Want]:
        seen: dict[Want, None] = {}
        for asked in self.wants_by_check():
            seen.update(dict.fromkeys(asked))
        return list(seen)

    def wants_by_check(self) -> list[list[Want]]:
        """What each check of the standard wants read, in check order (one list per check).
        The collector rests meanwhile, as while judging (signoff/collector): a mass edit's
        rounds otherwise walked every live object after each of their readings."""
        found: list[list[Want]] = []
        with paused():
            for _, module in check_modules(self.standard):
                wants = getattr(module, "wants", None)
                if wants is not None:
                    found.append(list(dict.fromkeys(wants(self))))
        return found


class JudgePlan:
    """What gathering asks the judge (a `signoff.gather.plan.Plan`)."""

    def view(self, evidence: Evidence, policy: Policy, standard: Standard) -> ReadingView:
        return ReadingView(evidence, policy, standard)

    def assess_commit(
        self,
        checks: CommitChecks,
        scopes: Sequence[str],
        policy: Policy,
        workflow_runs: Sequence[WorkflowRun],
    ) -> CommitAssessment:
        return assess_commit(checks, scopes, policy, workflow_runs)


PLAN = JudgePlan()
