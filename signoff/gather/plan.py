"""What gathering asks of its caller: what the evidence read so far leads to, and the sweep rule.

Gather knows how to read GitHub, not what a verdict needs. `verify` and `audit` hand it a
`Plan` (the judge's, signoff/judge/reading.py): after each stage its `view` of the evidence so
far names what to read next (the changed master configs and scripts, the teams CODEOWNERS asks
about, the sign-off's upstream links, the scopes the sweep needs, and every check's declared
`wants`), and its sweep rule says at which commit the scan of check runs may stop.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from signoff.evidence import ChangedFile, CommitChecks, Evidence, Want, WorkflowRun
from signoff.parse.comment.links import RecipeLinkRef
from signoff.parse.inferencex.codeowners import CodeOwners
from signoff.parse.inferencex.master_config import MasterEntry
from signoff.policy import Policy
from signoff.standards import Standard


class View(Protocol):
    """The evidence read so far, as the checks will read it."""

    @property
    def changed_master_files(self) -> tuple[str, ...]: ...
    @property
    def changed_scripts(self) -> tuple[ChangedFile, ...]: ...
    @property
    def changed_entries(self) -> tuple[MasterEntry, ...]: ...
    @property
    def codeowners(self) -> CodeOwners | None: ...
    @property
    def changed_paths(self) -> tuple[str, ...]: ...
    @property
    def recipe_links(self) -> tuple[RecipeLinkRef, ...]: ...
    @property
    def sweep_scopes(self) -> tuple[str, ...]: ...

    def wants(self) -> Iterable[Want]:
        """The reads every check of the standard declares, deduplicated, in check order."""
        ...

    def wants_by_check(self) -> Iterable[Sequence[Want]]:
        """The same reads, one sequence per check, in check order."""
        ...


class SweepFound(Protocol):
    """The sweep rule's answer for one commit: whether it qualifies, and through which run."""

    @property
    def qualifies(self) -> bool: ...
    @property
    def run_id(self) -> int | None: ...


class Plan(Protocol):
    def view(self, evidence: Evidence, policy: Policy, standard: Standard) -> View: ...

    def assess_commit(
        self,
        checks: CommitChecks,
        scopes: Sequence[str],
        policy: Policy,
        workflow_runs: Sequence[WorkflowRun],
    ) -> SweepFound:
        """Whether the commit shows the sweep the scopes need (the judge's own rule)."""
        ...
