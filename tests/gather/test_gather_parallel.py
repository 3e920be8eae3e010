"""Reading ahead never changes the evidence or what is written: one worker and many agree.

Every cassette is gathered once with one worker (each read made when it is started, the order
the cassettes were recorded in) and then concurrently, with a random pause before every answer
(REST, GraphQL and writes alike) so that answers arrive in a different order each time: by a pool
of `pool.WORKERS`, and by `signoff verify`'s head start (the pin and the first reads sent from
the pool, `signoff.gather.start`, while the caller goes on). The evidence bundles, and the
verdicts rendered from them, must be byte-identical; a run that cannot verify must fail with the
same message.
The cassettes recorded with publishing are also verified and published both ways: the same
comment, status and outcome.
"""

from __future__ import annotations

import random
import threading
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from cassette_helpers import CASSETTES, cassette, info

import signoff.github.api as api_module
import signoff.github.client as client_module
from signoff.errors import GatherError
from signoff.evidence import dump_evidence
from signoff.gather import gather_evidence, pin_pull, start
from signoff.github import pool
from signoff.github.client import connect
from signoff.judge import judge
from signoff.judge.reading import PLAN
from signoff.policy import Policy
from signoff.publish.render import render_markdown
from signoff.refs import parse_signoff_url
from signoff.replay import replay
from signoff.standards import resolve_standard
from signoff.verify import VerifyOutcome, verify

NAMES = sorted(path.stem for path in CASSETTES.glob("*.yaml"))
PUBLISHED = [name for name in NAMES if info(name).get("publish")]
# A comment that is no sign-off stops a publishing run beside the pin: nothing is gathered.
GATHERED = [name for name in NAMES if "is not a sign-off" not in info(name).get("refused", "")]
REVIEWED_AT = datetime(
    2026, 8, 18, 14, 10, tzinfo=UTC
)  # the judge reads no clock; fix the one gather records


def gathered(
    name: str, policy: Policy, workers: int, *, head_start: bool = False
) -> tuple[str, str]:
    """(evidence bundle, verdict) of the cassette's sign-off, or ("", error) when it fails."""
    described = info(name)
    standard = resolve_standard(described.get("standard"), policy)
    with replay(cassette(name)):
        gh = connect("replay-token", described["api_url"], mode="test")
        ref = parse_signoff_url(described["signoff_url"])
        head = start(gh, ref, policy, standard) if head_start else None
        try:
            pinned = head.pinned() if head is not None else pin_pull(gh, ref)
            evidence = gather_evidence(
                gh, ref, policy, pinned_head=pinned.head_sha, pull_json=pinned.raw,
                workers=workers, standard=standard, plan=PLAN, reviewed_at=REVIEWED_AT,
                started=head.api if head is not None else None,
            )  # fmt: skip
        except GatherError as exc:
            return "", str(exc)
        finally:
            if head is not None:
                head.api.close()
    return dump_evidence(evidence), render_markdown(judge(evidence, policy), policy)


@pytest.fixture
def jitter(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """Every answer waits 0-3 ms first, so that concurrent reads finish in shuffled order.

    The value is the set of threads that made requests.
    """
    draw = random.Random(7)
    lock = threading.Lock()
    threads: set[str] = set()

    def late(real: Any) -> Any:
        def answer(*args: Any, **kwargs: Any) -> Any:
            with lock:
                pause = draw.uniform(0, 0.003)
                threads.add(threading.current_thread().name)
            time.sleep(pause)
            return real(*args, **kwargs)

        return answer

    # REST reads (gather's checked reader), and GraphQL and writes (PyGithub's requester).
    monkeypatch.setattr(api_module, "read_json", late(api_module.read_json))
    monkeypatch.setattr(client_module, "read_json", late(client_module.read_json))
    return threads


@pytest.mark.parametrize("name", GATHERED)
def test_many_workers_gather_byte_identical_evidence_to_one(
    name: str, policy: Policy, jitter: set[str]
) -> None:
    sequential = gathered(name, policy, workers=1)
    assert jitter == {"MainThread"}
    parallel = gathered(name, policy, workers=pool.WORKERS)
    assert jitter - {"MainThread"}  # the reads went out from the pool's workers
    if info(name)["verdict"] != "ERROR":
        # spread over several workers (an error case may stop after one or two reads, which
        # a busy machine can leave to one worker)
        assert len(jitter) > 2
    assert parallel[0] == sequential[0]
    assert parallel[1] == sequential[1]
    assert sequential[0] or info(name)["verdict"] == "ERROR"


@pytest.mark.parametrize("name", GATHERED)
def test_the_head_start_gathers_byte_identical_evidence_to_one_worker(
    name: str, policy: Policy, jitter: set[str]
) -> None:
    sequential = gathered(name, policy, workers=1)
    jitter.clear()
    started = gathered(name, policy, workers=1, head_start=True)
    # The pin and the first REST reads went out from workers (the first GraphQL query too).
    assert jitter - {"MainThread"}
    if info(name)["verdict"] != "ERROR":
        # on several of them (an error case may stop after a read or two, which a busy
        # machine can leave to one worker, as above)
        assert len(jitter - {"MainThread"}) >= 2
    assert started == sequential


def published(name: str, policy: Policy) -> tuple[VerifyOutcome, bool]:
    """The outcome of verifying and publishing the cassette's sign-off; every answer played?"""
    described = info(name)
    with replay(cassette(name)) as recorded:
        gh = connect("replay-token", described["api_url"], mode="test")
        outcome = verify(
            gh, parse_signoff_url(described["signoff_url"]), policy, publish=True,
            identity=None, standard=resolve_standard(described.get("standard"), policy),
            reviewed_at=REVIEWED_AT,
        )  # fmt: skip
        return outcome, bool(recorded.all_played)


@pytest.mark.parametrize("name", PUBLISHED)
def test_publishing_concurrently_writes_what_one_worker_writes(
    name: str, policy: Policy, jitter: set[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as one:
        one.setattr(pool, "WORKERS", 1)
        sequential, all_played = published(name, policy)
    assert jitter == {"MainThread"} and all_played
    parallel, all_played = published(name, policy)
    # (a comment that is no sign-off costs two reads, which one worker may well make both)
    assert len(jitter) > min(2, info(name)["requests"] - 1) and all_played
    assert parallel == sequential
