"""The names readers knew the check sections by before they moved under `rules.<id>.config`.

`policy.recipe` is `policy.config(RecipePolicy)`: parse and gather, and most checks, still read
them so. A new check reads its own section as `ctx.policy.config(CONFIG)` and adds nothing here.
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel

from signoff.rules.agentic_golden_al import GoldenAlPolicy
from signoff.rules.codeowner import CodeownersScope
from signoff.rules.draft_precision import DraftPrecisionPolicy
from signoff.rules.engine_patches import PatchPolicy
from signoff.rules.evals import EvalPolicy
from signoff.rules.no_arch_hacks import ArchPolicy
from signoff.rules.recipe import RecipePolicy
from signoff.rules.reuse_command import ReusePolicy

C = TypeVar("C", bound=BaseModel)


class ConfigShortcuts:
    def config(self, model: type[C]) -> C:
        raise NotImplementedError  # the profile (signoff/policy.py) holds the sections

    @property
    def recipe(self) -> RecipePolicy:
        return self.config(RecipePolicy)

    @property
    def golden_al(self) -> GoldenAlPolicy:
        return self.config(GoldenAlPolicy)

    @property
    def patches(self) -> PatchPolicy:
        return self.config(PatchPolicy)

    @property
    def arch(self) -> ArchPolicy:
        return self.config(ArchPolicy)

    @property
    def evals(self) -> EvalPolicy:
        return self.config(EvalPolicy)

    @property
    def reuse(self) -> ReusePolicy:
        return self.config(ReusePolicy)

    @property
    def draft_precision(self) -> DraftPrecisionPolicy:
        return self.config(DraftPrecisionPolicy)

    @property
    def codeowners_scope(self) -> CodeownersScope:
        return self.config(CodeownersScope)
