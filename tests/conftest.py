"""Shared fixtures: a hermetic environment, the shipped policy profile, a judge-one-check
helper, and the cassettes a command replayed."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

from builders import build

import signoff.replay as replay_module
from signoff.judge import judge
from signoff.judge.model import CheckResult
from signoff.judge.shared_readings import clear_all
from signoff.policy import Policy, load_policy
from signoff.standards import resolve_standard

ROOT = Path(__file__).resolve().parent.parent

# Property tests draw the same examples on every run, so CI results are reproducible; each
# test still sets its own example count.
settings.register_profile("signoff", derandomize=True, deadline=None)
settings.load_profile("signoff")


@pytest.fixture(autouse=True)
def scrubbed(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ambient token, API URL, runner or action input leaks into a test (CI sets them)."""
    for name in list(os.environ):
        if name.startswith(("GITHUB_", "GH_", "INPUT_", "RUNNER_", "SIGNOFF_", "ACTIONS_")):
            monkeypatch.delenv(name)


@pytest.fixture(autouse=True)
def cold_readings() -> Iterator[None]:
    """Each test starts as a new process does: no reading, parse or config shared from another
    test (one that breaks the reader must see its own reading fail)."""
    clear_all()
    yield
    clear_all()


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The cassettes a command under test replays, kept for inspection after the run."""
    cassettes: list[Any] = []
    real_replay = replay_module.replay

    @contextmanager
    def spy(path: str, *args: Any) -> Iterator[Any]:
        with real_replay(path, *args) as recorded:
            cassettes.append(recorded)
            yield recorded

    monkeypatch.setattr(replay_module, "replay", spy)
    return cassettes


@pytest.fixture(scope="session")
def policy() -> Policy:
    return load_policy(ROOT / "checklists" / "inferencex.yaml")


@pytest.fixture
def check(policy: Policy) -> Callable[..., CheckResult]:
    """Judge the parts and return the result of one check by id, under `standard` (default:
    the profile's default standard when it has the check, else the newest era)."""

    def run(parts: dict[str, Any], check_id: str, standard: str | None = None) -> CheckResult:
        chosen = resolve_standard(standard, policy)
        if standard is None and chosen.slot(check_id) is None:
            chosen = resolve_standard("current", policy)
        verdict = judge(build(parts), policy, chosen)
        return next(c for c in verdict.checks if c.id == check_id)

    return run
