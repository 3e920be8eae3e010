"""Shared helpers for cassette tests: replay a recorded GitHub conversation through gather."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from signoff.client import connect
from signoff.evidence import Evidence
from signoff.gather import gather_evidence
from signoff.policy import load_policy
from signoff.refs import parse_signoff_url
from signoff.replay import cassette_info, replay

CASSETTES = Path(__file__).resolve().parent.parent / "cassettes"


@dataclass(frozen=True)
class Replayed:
    evidence: Evidence
    requests: tuple[str, ...]  # "GET uri" per recorded interaction, in order
    all_played: bool


def cassette(name: str) -> Path:
    return CASSETTES / f"{name}.yaml"


def replay_gather(name: str) -> Replayed:
    """Run gather_evidence against a cassette (never the emulator) and report what was played."""
    path = cassette(name)
    info = cassette_info(path)
    with replay(path) as recorded:
        gh = connect("replay-token", info["api_url"], mode="test")
        ref = parse_signoff_url(info["signoff_url"])
        evidence = gather_evidence(gh, ref, load_policy(), pinned_head=info["pinned_head"])
        uris = tuple(f"{r.method} {r.uri}" for r in recorded.requests)
        return Replayed(evidence=evidence, requests=uris, all_played=recorded.all_played)
