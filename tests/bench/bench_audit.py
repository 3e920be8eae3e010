"""Benchmark `signoff audit` on 300 merged PRs against ghemu (not a test).

Generates a 300-PR history (cassettes/recording/history/, `mix=True`: 60 docs-only, 30 merged
without a sign-off, the rest signed off as conversation comments, reviews and inline comments),
starts ghemu in-process, and runs the real audit twice through the real HTTP transport:

1. a first run on an empty cache (`--jobs` workers);
2. a second run of the same window on the cache the first left (conditional requests: ghemu
   answers If-None-Match with 304, which, as on GitHub, does not count against the rate limit).

How requests are counted: "REST" are the REST requests against the primary rate limit (not
answered 304: a 304 is free); "GraphQL" the queries gather sends (a judged sign-off's edit
history), which draw on GitHub's separate GraphQL budget (points), so they are printed apart;
"downloads" the artifact zips fetched from blob storage (no rate limit, printed for the record).
The targets count REST + GraphQL: every request that is not answered 304 and is not a download.

For each run it prints those counts (REST by signoff's meter, and by ghemu's own request log as
a cross-check), 304s, cache hits, wall time and the summary; then checks that both runs give the
same report apart from its cost section. Exits 1 when a target is missed. Targets (issue 17):
first run <= 5,000 REST + GraphQL, cached re-run <= 50.

    python tests/bench/bench_audit.py [--prs 300] [--jobs 4]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "cassettes"))

from recording.emulator import require_ghemu  # noqa: E402  (cassettes/recording/emulator.py)

require_ghemu()

from ghemu import Emulator  # noqa: E402
from recording import history as audit_history  # noqa: E402

from signoff.audit.budget import Meter  # noqa: E402
from signoff.audit.cache import HttpCache, installed, live_origin  # noqa: E402
from signoff.audit.model import findings  # noqa: E402
from signoff.audit.run import RunResult, build_request, make_adapter, run_audit  # noqa: E402
from signoff.github.client import connect  # noqa: E402
from signoff.policy import load_policy  # noqa: E402

FIRST_RUN_LIMIT = 5000
RERUN_LIMIT = 50


def audit_once(url: str, cache_dir: Path, jobs: int) -> tuple[RunResult, Meter, float]:
    policy = load_policy()
    request = build_request(
        audit_history.REPO, since="2026-07-01", until="2026-08-31", jobs=jobs, policy=policy
    )
    meter = Meter()
    cache = HttpCache(cache_dir, live_origin(url))
    start = time.perf_counter()
    # "production" mode: real retry policy and no request serialisation; ghemu never fails here.
    with installed(make_adapter(cache, meter, jobs, "production")):
        gh = connect("bench-token", url, mode="production")
        result = run_audit(gh, request, policy, meter, cache=cache)
    return result, meter, time.perf_counter() - start


def rate_limited(log: list[dict[str, Any]]) -> int:
    """REST requests ghemu counted against the core limit: not 304, not its blob host, not
    GraphQL (which has its own budget)."""
    return sum(
        1
        for r in log
        if not r["path"].startswith(("/_ghemu/", "/graphql", "/api/graphql"))
        and r["status"] not in (304, 0)
    )


def downloads(log: list[dict[str, Any]]) -> int:
    """Blob-storage downloads (ghemu's stand-in for GitHub's signed artifact URLs)."""
    return sum(1 for r in log if r["path"].startswith("/_ghemu/blobs/artifacts/"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prs", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=4)
    args = parser.parse_args(argv)
    scenario = audit_history.history(args.prs, mix=True)
    scenario["rate_limit"] = {"core": 50_000, "search": 30}  # measure; do not wait for resets
    failures = []
    emulator = Emulator(scenario)
    url = emulator.start()
    reports = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for label, limit in (("first run", FIRST_RUN_LIMIT), ("cached re-run", RERUN_LIMIT)):
                before = len(emulator.log)
                result, meter, seconds = audit_once(url, Path(tmp) / "cache", args.jobs)
                spend = meter.total()
                emulator_counted = rate_limited(emulator.log[before:])
                fetched = downloads(emulator.log[before:])
                summary = result.report.summary
                sent = spend.counted + spend.graphql
                print(
                    f"{label}: {sent} requests not answered 304 = {spend.counted} REST counted "
                    f"against the rate limit (ghemu counted {emulator_counted}) + {spend.graphql} "
                    f"GraphQL queries (their own budget); {spend.not_modified} answered 304, "
                    f"{fetched} zip downloads from blob storage, "
                    f"{spend.cache_hits} cache hits, {seconds:.1f} s wall, --jobs {args.jobs}; "
                    f"{summary.merged} PRs: {summary.PASS} PASS, {summary.REJECTED} REJECTED, "
                    f"{summary.UNVERIFIABLE} UNVERIFIABLE, {summary.NO_SIGNOFF} NO_SIGNOFF, "
                    f"{summary.NOT_GATED} NOT_GATED"
                )
                cost = result.report.cost
                own = sum(p.requests for p in cost.prs)
                print(
                    f"  report cost: {cost.requests} REST = run {cost.run} + fixed reads "
                    f"{cost.fixed} (shared by the PRs) + the PRs' own {own}; {cost.graphql} GraphQL"
                )
                if sent > limit:
                    failures.append(f"{label}: {sent} requests > {limit}")
                reports.append(result.report)
    finally:
        emulator.stop()
    if findings(reports[0]) != findings(reports[1]):
        failures.append("the cached re-run reported something else than the first run")
    for failure in failures:
        print(f"MISSED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
