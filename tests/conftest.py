"""Shared fixtures: the shipped policy profile and a judge-one-check helper."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

from builders import build

from signoff.judge import judge
from signoff.judge.model import CheckResult
from signoff.policy import Policy, load_policy

ROOT = Path(__file__).resolve().parent.parent

# Property tests draw the same examples on every run, so CI results are reproducible; each
# test still sets its own example count.
settings.register_profile("signoff", derandomize=True, deadline=None)
settings.load_profile("signoff")


@pytest.fixture(scope="session")
def policy() -> Policy:
    return load_policy(ROOT / "checklists" / "inferencex.yaml")


@pytest.fixture
def check(policy: Policy) -> Callable[[dict[str, Any], str], CheckResult]:
    """Judge the parts and return the result of one check by id."""

    def run(parts: dict[str, Any], check_id: str) -> CheckResult:
        verdict = judge(build(parts), policy)
        return next(c for c in verdict.checks if c.id == check_id)

    return run
