"""Racing publishers on one head SHA converge: one verdict comment, the newest sign-off's status.

Each publisher is a thread running `publish_outcome` (what `verify --publish` and the Action do
after judging) against the in-process fake GitHub; a seeded turnstile decides which thread's next
request goes first, so every seed is one reproducible interleaving of all their requests.
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from builders import HEAD_SHA, build, passing_parts, set_signoff_body, signoff_body
from fake_github import BOT, FakeGitHub, FakeState, Turnstile, client, fake_github

from signoff.judge import judge
from signoff.policy import load_policy
from signoff.publish.comment import marker_line
from signoff.publish.render import render_markdown
from signoff.refs import SignoffRef
from signoff.verify import VerifyOutcome, publish_outcome

REPO, PR = "SemiAnalysisAI/InferenceX", 2650
POLICY = load_policy(Path(__file__).resolve().parents[2] / "checklists" / "inferencex.yaml")
CONTEXT = "codeowner-signoff-verify"


@dataclass(frozen=True)
class Signer:
    """One sign-off on the PR: who, when, and whether its evidence passes."""

    id: int
    login: str
    association: str
    created_at: str
    passes: bool


SIGNERS = (
    Signer(3_100_000_101, "kedarpotdar-nv", "MEMBER", "2026-11-20T10:00:00Z", True),
    Signer(3_100_000_102, "ankur-singh", "COLLABORATOR", "2026-11-20T10:05:00Z", False),
    Signer(3_100_000_103, "kedarpotdar-nv", "MEMBER", "2026-11-20T10:05:00Z", True),
)


def _body(signer: Signer) -> str:
    return signoff_body().replace("Signed: ankur-singh", f"Signed: {signer.login}")


@functools.cache
def _outcome(signer: Signer) -> VerifyOutcome:
    """The judged outcome of verifying `signer`'s sign-off (judged once per test session)."""
    parts = passing_parts()
    set_signoff_body(parts, _body(signer))
    parts["signoff"].update(
        id=signer.id,
        author=signer.login,
        author_association=signer.association,
        created_at=signer.created_at,
        url=f"https://github.com/{REPO}/pull/{PR}#issuecomment-{signer.id}",
    )
    if not signer.passes:  # nobody posted /reuse-sweep-run: Check 4 fails
        parts["comments"] = [c for c in parts["comments"] if "/reuse" not in c["body"]]
    evidence = build(parts)
    ref = SignoffRef(
        owner="SemiAnalysisAI", repo="InferenceX", pr=PR, kind="conversation comment", id=signer.id
    )
    return VerifyOutcome(
        ref=ref, head_sha=HEAD_SHA, verdict=judge(evidence, POLICY), evidence=evidence
    )


@pytest.fixture(autouse=True)
def _fast_handovers() -> Iterator[None]:
    """Turns hand over at every request; a short GIL switch interval keeps that quick."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(interval)


def _state(signers: tuple[Signer, ...], stale_verdicts: int) -> FakeState:
    state = FakeState(repo=REPO, pr=PR)
    for signer in signers:
        state.add_comment(
            signer.id, signer.login, _body(signer), signer.created_at, signer.association
        )
    for index in range(stale_verdicts):  # our verdicts left for this head by earlier runs
        state.add_comment(
            4_000_000_000 + index,
            BOT,
            marker_line(CONTEXT, HEAD_SHA) + "\nold",
            f"2026-11-20T09:0{index}:00Z",
            "NONE",
        )
    return state


def race(
    publishers: list[Signer], state: FakeState, seed: int
) -> tuple[list[VerifyOutcome], list[BaseException]]:
    names = [f"publisher-{i}" for i in range(len(publishers))]
    turnstile = Turnstile(names, seed)
    server = FakeGitHub(state, turnstile)
    outcomes: list[VerifyOutcome] = []
    errors: list[BaseException] = []
    prepared = [_outcome(signer) for signer in publishers]

    def run(outcome: VerifyOutcome) -> None:
        try:
            outcomes.append(publish_outcome(client(), outcome, POLICY, identity=None))
        except BaseException as exc:  # reported by the test, never swallowed
            errors.append(exc)
        finally:
            turnstile.finished()

    with fake_github(server):
        threads = [
            threading.Thread(target=run, args=(o,), name=n)
            for n, o in zip(names, prepared, strict=True)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads), "a publisher hung"
    return outcomes, errors


def newest(signers: tuple[Signer, ...]) -> Signer:
    return max(signers, key=lambda s: (s.created_at, s.id))


CASES = [
    # (sign-offs on the PR, the sign-off each publisher verifies, our stale verdicts at start)
    (SIGNERS[:2], [SIGNERS[0], SIGNERS[1]], 0),
    (SIGNERS[:2], [SIGNERS[1], SIGNERS[1]], 0),  # a comment event and a dispatch
    (SIGNERS[:2], [SIGNERS[0], SIGNERS[1], SIGNERS[1], SIGNERS[0]], 0),
    (SIGNERS, [SIGNERS[2], SIGNERS[1], SIGNERS[2], SIGNERS[0], SIGNERS[2]], 0),
    (SIGNERS, [SIGNERS[0], SIGNERS[2], SIGNERS[2]], 2),  # two duplicates left by an old race
]


@pytest.mark.parametrize(("signers", "publishers", "stale"), CASES)
@pytest.mark.parametrize("seed", range(40))
def test_racing_publishers_leave_one_verdict_comment_and_the_newest_sign_offs_status(
    signers: tuple[Signer, ...], publishers: list[Signer], stale: int, seed: int
) -> None:
    state = _state(signers, stale)
    outcomes, errors = race(publishers, state, seed)
    assert not errors, errors
    winner = newest(signers)
    expected = _outcome(winner).verdict
    assert expected is not None
    (comment,) = state.ours(marker_line(CONTEXT, HEAD_SHA))
    assert comment["body"] == render_markdown(expected, POLICY)
    statuses = [s for s in state.statuses if s["sha"] == HEAD_SHA and s["context"] == CONTEXT]
    assert statuses and statuses[-1]["state"] == ("success" if winner.passes else "failure")
    # Only the newest sign-off's publishers wrote anything; the others said why they did not.
    writers = {int(name.rsplit("-", 1)[1]) for name, _ in state.writes}
    assert {publishers[i].id for i in writers} == {winner.id}
    skipped = [o for o in outcomes if o.skipped]
    assert len(skipped) == sum(p.id != winner.id for p in publishers)
    assert all("a newer sign-off" in o.skipped for o in skipped)
