"""Each frontier curve the PR affects has at least 5 measured points (warning only).

Why: a curve of two or three points says little about a system's throughput-latency trade-off;
InferenceX recommends at least five measured points per affected Pareto frontier (#3300,
2026-09-20, Check 14). It is advisory: it WARNs, never FAILs, and an admin may grant an exception
(the warning stays; signoff does not read repository permissions, so it never counts one as
verified). How it is judged: on the measured results of the sweep run that satisfies Check 1
(artifact `results_bmk`, `agg_bmk.json`): for every master-config entry the PR adds or changes,
its curves are the measured points of the same model prefix, SKU, framework and precision, per
sequence lengths (and, for fixed-sequence runs, per spec-decode arm), with throughput per GPU
(`tput_per_gpu`) against median end-to-end latency (`median_e2el`). The frontier is the app's
upper-right one: by latency ascending, a point stays when its throughput is at least the best so
far (equal-throughput plateaus at distinct latencies stay; identical points count once; points
without finite positive values are not measurements). Fewer than 5 points on
any curve, or results that were not read, WARN with the counts. N/A when no master-config entry
is added or changed. To satisfy it: sweep enough concurrencies that every affected curve has 5
frontier points, or ask an admin for a recorded exception.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from signoff.evidence import ThroughputRow
from signoff.judge.context import JudgeContext
from signoff.judge.model import Finding, failed, not_applicable, passed
from signoff.judge.quote import code
from signoff.parse.inferencex.master_config import MasterEntry

ID = "pareto-coverage"
NAME = "Pareto coverage"
CONFIG = None  # it has no profile section beyond its switches (rules.<ID>.disable)
MIN_POINTS = 5
_ADMIN = "admin exception: not verified (signoff does not read repository permissions)"


def evaluate(ctx: JudgeContext) -> Finding:
    if ctx.master_problems:
        return failed(f"the affected curves cannot be determined: {ctx.master_problems[0]}")
    entries = ctx.changed_entries
    if not entries:
        return not_applicable("no master-config entry is added or changed")
    results = ctx.evidence.throughput
    if results is None or not results.available:
        why = "the sweep's measured results were not read" if results is None else results.reason
        return failed(f"Pareto coverage unverifiable: {why}; {_ADMIN}")
    counts = sorted(
        {label: n for entry in entries for label, n in _curves(entry, results.rows)}.items()
    )
    short = [f"{code(label)} {n}/{MIN_POINTS}" for label, n in counts if n < MIN_POINTS]
    if not counts:
        keys = ", ".join(code(e.key) for e in entries)
        return failed(
            f"Pareto coverage unverifiable: run {results.run_id} measured no point of {keys}; "
            f"{_ADMIN}"
        )
    if short:
        more = f" (and {len(short) - 1} more)" if len(short) > 1 else ""
        return failed(
            f"fewer than {MIN_POINTS} frontier points: {short[0]}{more} in run "
            f"{results.run_id}; {_ADMIN}"
        )
    shown = "; ".join(f"{code(label)} {n}" for label, n in counts[:3])
    more = f" and {len(counts) - 3} more" if len(counts) > 3 else ""
    return passed(f"every affected curve has >= {MIN_POINTS} frontier points: {shown}{more}")


def _curves(entry: MasterEntry, rows: Iterable[ThroughputRow]) -> list[tuple[str, int]]:
    """(curve label, frontier points) for the curves an entry's measured rows fall on."""
    groups: dict[str, list[tuple[float, float]]] = {}
    for row in rows:
        if not _belongs(entry, row):
            continue
        point = _point(row)
        if point is None:
            continue
        arm = "" if entry.is_agentic else f" {row.spec_decoding or 'none'}"
        label = (
            f"{entry.model_prefix} {entry.precision} {entry.sku} {entry.engine} "
            f"{row.isl}/{row.osl}{arm}"
        )
        groups.setdefault(label, []).append(point)
    return [(label, len(frontier(points))) for label, points in sorted(groups.items())]


def _belongs(entry: MasterEntry, row: ThroughputRow) -> bool:
    hw = (row.hw or "").lower()
    return (
        (row.infmax_model_prefix or "").lower() == entry.model_prefix.lower()
        and (row.framework or "").lower() == entry.engine
        and (row.precision or "").lower() == entry.precision.lower()
        and entry.sku is not None
        and (hw == entry.sku or hw.startswith(entry.sku + "-") or hw.startswith(entry.sku + "_"))
    )


def _point(row: ThroughputRow) -> tuple[float, float] | None:
    x, y = row.median_e2el, row.tput_per_gpu
    if x is None or y is None or not (math.isfinite(x) and math.isfinite(y)) or x <= 0 or y <= 0:
        return None
    return (x, y)


def frontier(points: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    """The upper-right frontier of (latency, throughput): latency ascending (throughput
    descending on ties); a point stays when its throughput is at least the best so far."""
    kept: list[tuple[float, float]] = []
    best = -math.inf
    for x, y in sorted(set(points), key=lambda p: (p[0], -p[1])):
        if y >= best and not (kept and kept[-1][0] == x):
            kept.append((x, y))
            best = y
    return kept
