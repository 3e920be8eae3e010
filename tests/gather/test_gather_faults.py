"""Unreadable evidence is recorded as such (fail closed); transient GitHub faults are retried."""

from __future__ import annotations

from cassette_helpers import replay_gather


def test_team_membership_403_is_unknown_never_not_member() -> None:
    replayed = replay_gather("team_403")
    (membership,) = replayed.evidence.memberships
    assert membership.team == "InferenceX/core" and membership.login == "core-reviewer"
    assert membership.state == "unknown"
    assert membership.reason.startswith("403")


def test_5xx_answers_are_retried_and_the_evidence_is_complete() -> None:
    flaky = replay_gather("flaky_5xx")
    clean = replay_gather("pass_conversation")
    assert flaky.all_played
    assert len(flaky.requests) == len(clean.requests) + 2  # one retry each for 502 and 503
    assert flaky.evidence == clean.evidence


def test_a_secondary_rate_limit_with_retry_after_is_retried() -> None:
    limited = replay_gather("secondary_rate_limit")
    clean = replay_gather("pass_conversation")
    assert limited.all_played
    assert sum("/pulls/2700/files" in uri for uri in limited.requests) == 2
    assert limited.evidence == clean.evidence


def test_an_expired_artifact_makes_evals_unavailable_without_downloading() -> None:
    replayed = replay_gather("expired_artifact")
    (results,) = replayed.evidence.evals
    assert not results.available and results.reason == "artifact eval_results_all expired"
    assert not any(uri.endswith("/zip") for uri in replayed.requests)


def test_a_410_on_download_makes_evals_unavailable() -> None:
    replayed = replay_gather("artifact_gone_410")
    (results,) = replayed.evidence.evals
    assert not results.available and "expired" in results.reason
    assert results.rows == ()
