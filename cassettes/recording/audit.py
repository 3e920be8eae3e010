"""Record the `signoff audit` cassettes from ghemu, running the real audit.

    python cassettes/record_audit.py [--only NAME] [--list]

For each variant: build the history (recording/history/), start ghemu in-process on it,
and run `signoff.audit.run.run_audit` (selection, sign-offs, gather, judge, published verdicts)
with one worker and an empty HTTP cache under vcrpy. `history_rerun` then runs the same audit
again on the cache the first run left, recording the conditional requests (304) a second run
makes. The recordings are rewritten to look like GitHub (recording/rewriting.py), `If-None-Match`
request headers dropped (the ETags the emulator computed over its own URLs). Writes
`audit/<NAME>.yaml` and `audit/<NAME>.json` (the command, the outcome per PR, request counts).
Re-recording yields identical files.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import vcr
import yaml

from .emulator import require_ghemu

require_ghemu()

import ghemu.util  # noqa: E402
from ghemu import Emulator  # noqa: E402

import signoff.github.pool  # noqa: E402
from signoff.audit.budget import Meter  # noqa: E402
from signoff.audit.cache import HttpCache, installed, live_origin  # noqa: E402
from signoff.audit.run import build_request, make_adapter, run_audit  # noqa: E402
from signoff.github.client import connect  # noqa: E402
from signoff.policy import load_policy  # noqa: E402

from . import CASSETTES, history  # noqa: E402
from .rewriting import GITHUB_API, MATCH_ON, rewrite  # noqa: E402
from .scenario import FROZEN_NOW  # noqa: E402

# As for the verify recordings: one read at a time, in a sequential client's order.
signoff.github.pool.WORKERS = 1

OUT = CASSETTES / "audit"
REPO = history.REPO


@dataclass(frozen=True)
class Variant:
    name: str
    note: str
    args: dict[str, Any]
    scenario: Callable[[], dict[str, Any]] = history.history
    rerun_of: str | None = None  # record a second run on the cache this variant's first run left


def _unreachable() -> dict[str, Any]:
    """The first eight PRs; from #2106 on, every connection to GitHub is reset."""
    data = history.history()
    data["faults"] = [
        {"path": rf"^/repos/{REPO}/pulls/2106/files$", "effect": "reset", "count": -1}
    ]
    return data


VARIANTS = [
    Variant(
        "history",
        "48 merged PRs, 2026-07-05 to 2026-08-20, cold cache",
        {"since": "2026-07-01", "until": "2026-08-31"},
    ),
    Variant(
        "history_rerun",
        "the same audit again on the cache of the first run",
        {"since": "2026-07-01", "until": "2026-08-31"},
        rerun_of="history",
    ),
    Variant(
        "unreachable",
        "GitHub resets every connection from #2106 on: a partial report",
        {"since": "2026-07-01", "until": "2026-07-12"},
        _unreachable,
    ),
]


def run_once(
    url: str, args: dict[str, Any], cache_dir: Path, raw: Path | None
) -> tuple[Any, Meter]:
    policy = load_policy()
    request = build_request(REPO, policy=policy, jobs=1, **args)
    meter = Meter()
    cache = HttpCache(cache_dir, live_origin(url))
    recorder = vcr.VCR(record_mode="all", match_on=MATCH_ON, decode_compressed_response=False)
    with installed(make_adapter(cache, meter, 1, "test")):
        gh = connect("ghemu-test-token", url, mode="test")
        if raw is None:
            return run_audit(gh, request, policy, meter, cache=cache), meter
        with recorder.use_cassette(str(raw)):
            return run_audit(gh, request, policy, meter, cache=cache), meter


def record_variant(variant: Variant) -> None:
    original_now = ghemu.util.now
    ghemu.util.now = lambda: FROZEN_NOW
    with tempfile.TemporaryDirectory() as tmp:
        raw, cache_dir = Path(tmp) / "raw.yaml", Path(tmp) / "cache"
        emulator = Emulator(variant.scenario())
        url = emulator.start()
        try:
            if variant.rerun_of is not None:
                run_once(url, variant.args, cache_dir, None)  # fill the cache, unrecorded
            result, meter = run_once(url, variant.args, cache_dir, raw)
        finally:
            ghemu.util.now = original_now
            emulator.stop()
        text = strip_conditional(rewrite(raw.read_text(encoding="utf-8"), url))
    OUT.mkdir(exist_ok=True)
    (OUT / f"{variant.name}.yaml").write_text(text, encoding="utf-8")
    interactions = yaml.load(text, Loader=yaml.CSafeLoader)["interactions"]
    report = result.report
    total = meter.total()
    info = {
        "name": variant.name,
        "note": variant.note,
        "repository": REPO,
        "api_url": GITHUB_API,
        "args": variant.args,
        "rerun_of": variant.rerun_of,
        "outcomes": {str(p.pr): p.outcome for p in report.prs},
        "summary": report.summary.model_dump(),
        "not_audited": list(report.stopped.not_audited) if report.stopped else [],
        "requests": len(interactions),
        "counted_requests": total.counted,
        "not_modified": total.not_modified,
        "cache_hits": total.cache_hits,
        "recorded_by": "cassettes/record_audit.py: signoff.audit.run.run_audit against ghemu (audit_history.py)",
    }
    (OUT / f"{variant.name}.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    print(
        f"{variant.name}: {len(interactions)} requests ({total.counted} counted, {total.not_modified} 304, {total.cache_hits} cache hits); {report.summary.model_dump()}"
    )


def strip_conditional(text: str) -> str:
    cassette = yaml.safe_load(text)
    for interaction in cassette["interactions"]:
        headers = interaction["request"]["headers"]
        interaction["request"]["headers"] = {
            k: v for k, v in headers.items() if k.lower() != "if-none-match"
        }
    return yaml.safe_dump(cassette, sort_keys=True, allow_unicode=True, width=100)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="record only this variant (repeatable)")
    parser.add_argument("--list", action="store_true", help="list variants and exit")
    args = parser.parse_args(argv)
    if args.list:
        for variant in VARIANTS:
            print(f"{variant.name:16} {variant.note}")
        return 0
    for variant in VARIANTS:
        if not args.only or variant.name in args.only:
            record_variant(variant)
    return 0
