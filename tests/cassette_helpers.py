"""Shared helpers for cassette tests: replay a recorded GitHub conversation through verify."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from signoff.audit.budget import Meter
from signoff.audit.cache import HttpCache, installed
from signoff.audit.run import RunResult, build_request, make_adapter, run_audit
from signoff.evidence import Evidence
from signoff.github.client import connect
from signoff.policy import load_policy
from signoff.refs import parse_signoff_url
from signoff.replay import MATCH_URI, cassette_info, replay
from signoff.standards import resolve_standard
from signoff.verify import VerifyOutcome, verify

CASSETTES = Path(__file__).resolve().parent.parent / "cassettes"
# The emulator's clock when the cassettes were recorded (cassettes/record.py FROZEN_NOW): replays
# judge as of it, so two replays give the same evidence whatever the wall clock says.
RECORDED_AT = datetime(2026, 8, 18, 14, 10, tzinfo=UTC)


@dataclass(frozen=True)
class Replayed:
    evidence: Evidence
    requests: tuple[str, ...]  # "GET uri" per recorded interaction, in order
    all_played: bool
    outcome: VerifyOutcome
    writes: tuple[tuple[str, str, dict[str, Any]], ...] = ()  # method, path, JSON body played


def is_write(method: str, path: str) -> bool:
    """A request that changes GitHub: any non-GET except a GraphQL query (reads only)."""
    return method != "GET" and not path.endswith("/graphql")


def cassette(name: str) -> Path:
    return CASSETTES / f"{name}.yaml"


def info(name: str) -> dict[str, Any]:
    return cassette_info(cassette(name))


def replay_verify(name: str) -> Replayed:
    """Run `verify()` exactly as recorded (cassette only, never the emulator): pin, gather,
    judge and, for cassettes recorded with publish, write. Reports what was played."""
    path = cassette(name)
    described = cassette_info(path)
    with replay(path) as recorded:
        gh = connect("replay-token", described["api_url"], mode="test")
        ref = parse_signoff_url(described["signoff_url"])
        policy = load_policy()
        standard = resolve_standard(described.get("standard"), policy)
        outcome = verify(
            gh, ref, policy, publish=bool(described.get("publish")), identity=None,
            standard=standard, reviewed_at=RECORDED_AT,
        )  # fmt: skip
        uris = tuple(f"{r.method} {r.uri}" for r in recorded.requests)
        writes = tuple(
            (r.method, r.path, json.loads(r.body))
            for index, r in enumerate(recorded.requests)
            if is_write(r.method, r.path) and recorded.play_counts[index]
        )
        all_played = bool(recorded.all_played)
    assert outcome.evidence is not None, outcome.error
    assert outcome.head_sha == described["pinned_head"]
    return Replayed(
        evidence=outcome.evidence,
        requests=uris,
        all_played=all_played,
        outcome=outcome,
        writes=writes,
    )


# The gather tests read the evidence of a recorded verify run.
replay_gather = replay_verify


# --- signoff audit ---------------------------------------------------------------------------

AUDIT_CASSETTES = CASSETTES / "audit"


def audit_info(name: str) -> dict[str, Any]:
    described: dict[str, Any] = json.loads((AUDIT_CASSETTES / f"{name}.json").read_text())
    return described


def replay_audit(
    name: str, cache_dir: Path, *, jobs: int = 1, shard: str | None = None, **overrides: Any
) -> tuple[RunResult, Meter, Any]:
    """Run the audit recorded as `audit/<name>.yaml` (record_audit.py's arguments, or
    `overrides`) against the recording only; `cache_dir` is the HTTP cache it starts from.
    Returns the result, the request meter and vcrpy's cassette (what was played)."""
    described = audit_info(name)
    policy = load_policy()
    args = {**described["args"], **overrides}
    request = build_request(described["repository"], policy=policy, jobs=jobs, shard=shard, **args)
    meter = Meter()
    # A re-run recording continues the server its first run recorded: the same origin.
    cache = HttpCache(cache_dir, f"recording {described.get('rerun_of') or name}")
    with (
        replay(AUDIT_CASSETTES / f"{name}.yaml", MATCH_URI) as recorded,
        installed(make_adapter(cache, meter, jobs, "test")),
    ):
        gh = connect("replay-token", described["api_url"], mode="test")
        result = run_audit(gh, request, policy, meter, cache=cache)
    return result, meter, recorded


@dataclass(frozen=True)
class CliRun:
    """One `signoff.cli.main` run: its exit code, what it printed and where."""

    code: int
    stdout: str
    stderr: str
    out: Path  # the report written (--out)
    home: Path  # the user's home during the run
    default_cache: Path  # where the user's cache would be (never written by a replay)
