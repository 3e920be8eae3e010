"""The InferenceX-like history of merged PRs the audit recordings and bench_audit run on."""

from .branch import REPO
from .build import SPECIAL, history

__all__ = ["REPO", "SPECIAL", "history"]
