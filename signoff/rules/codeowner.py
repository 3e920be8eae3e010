"""The codeowner check: who may own a file without a sign-off being needed.

Read from the profile's `rules.codeowner.config`
(or its older top-level key `codeowners_scope:`).
"""

from __future__ import annotations

from pydantic import model_validator

from signoff.rules.base import Strict

ID = "codeowner"  # the check whose section this is
LEGACY = "codeowners_scope"  # the top-level key profiles wrote it under before `rules.<id>.config`


class CodeownersScope(Strict):
    """Who may own a file without a sign-off being needed (#3155, switch signoff_scope_owners)."""

    core_teams: tuple[str, ...] = ()  # "@SemiAnalysisAI/core"
    admins: tuple[str, ...] = ()  # "@login" of verified repository admins (needs `decision`)
    decision: str = ""

    @model_validator(mode="after")
    def _decided(self) -> CodeownersScope:
        if self.admins and not self.decision.strip():
            raise ValueError("admins need the maintainer decision that verified them")
        return self


Config = CodeownersScope
