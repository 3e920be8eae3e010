"""The evals check: how eval scores are named and which threshold applies.

Read from the profile's `rules.evals.config`
(or its older top-level key `evals:`).
"""

from __future__ import annotations

from pydantic import Field

from signoff.rules.base import Strict

ID = "evals"  # the check whose section this is
LEGACY = "evals"  # the top-level key profiles wrote it under before `rules.<id>.config`


class EvalPolicy(Strict):
    metric_prefix: str = "exact_match,"
    fallback_threshold: float = 0.85
    strict_metric: str = "exact_match,strict-match"  # name given to agg rows' em_strict
    flexible_metric: str = "exact_match,flexible-extract"  # name given to agg rows' em_flexible
    # task -> samples in its full test set; a score on fewer (n_eff) was a limited eval
    full_samples: dict[str, int] = Field(default_factory=dict)


Config = EvalPolicy
