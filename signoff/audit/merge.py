"""`signoff audit merge`: shard reports combined into the report one whole run gives."""

from __future__ import annotations

from collections.abc import Sequence

from signoff.audit.model import AuditReport, Cost, Stopped, summarize
from signoff.errors import InputError

_SAME = ("schema_version", "repository", "base", "since", "until", "standard", "generated_by")


def merge_reports(reports: Sequence[tuple[str, AuditReport]]) -> AuditReport:
    """Reports of shards 1..N of one audit (each exactly once) -> the whole report.

    A PR's fields are the same whichever shard audited it, so the findings are those of one whole
    run. The cost is the shards' own: the run-level requests (listing the PRs, file histories)
    are made by every shard and counted once, as a single run makes them; the reads fixed by a
    commit are shared within a shard only, so shards together may spend more on them.
    """
    if not reports:
        raise InputError("audit merge: no reports given")
    first_path, first = reports[0]
    count = _shard_count(first_path, first)
    seen: dict[int, str] = {}
    for path, report in reports:
        for name in _SAME:
            if getattr(report, name) != getattr(first, name):
                raise InputError(f"{path}: {name} differs from {first_path}")
        index = _shard_index(path, report, count)
        if index in seen:
            raise InputError(f"{path}: shard {index}/{count} is also in {seen[index]}")
        seen[index] = path
    missing = [f"{i}/{count}" for i in range(1, count + 1) if i not in seen]
    if missing:
        raise InputError(f"audit merge: shard report(s) {', '.join(missing)} missing")
    return _combine([report for _, report in sorted(reports, key=lambda r: _index(r[1]))])


def _index(report: AuditReport) -> int:
    return int((report.shard or "1/1").split("/")[0])


def _shard_count(path: str, report: AuditReport) -> int:
    if report.shard is None:
        raise InputError(f"{path}: not a shard report (run with --shard I/N)")
    return int(report.shard.split("/")[1])


def _shard_index(path: str, report: AuditReport, count: int) -> int:
    if _shard_count(path, report) != count:
        raise InputError(f"{path}: shard {report.shard} is not one of {count}")
    return _index(report)


def _combine(reports: list[AuditReport]) -> AuditReport:
    prs = tuple(sorted((p for r in reports for p in r.prs), key=lambda p: (p.merged_at, p.pr)))
    numbers = [p.pr for p in prs]
    if len(numbers) != len(set(numbers)):
        raise InputError("audit merge: a PR appears in more than one shard report")
    stopped = [r.stopped for r in reports if r.stopped is not None]
    return reports[0].model_copy(
        update={
            "prs": prs,
            "summary": summarize(prs),
            "stopped": _merge_stops(stopped),
            "shard": None,
            "cost": _merge_costs([r.cost for r in reports], [p.pr for p in prs]),
        }
    )


def _merge_costs(costs: list[Cost], order: list[int]) -> Cost:
    own = {p.pr: p for cost in costs for p in cost.prs}
    prs = tuple(own[n] for n in order if n in own)
    run, fixed = costs[0].run, sum(c.fixed for c in costs)
    return Cost(
        requests=run + fixed + sum(p.requests for p in prs),
        run=run,
        fixed=fixed,
        prs=prs,
        graphql=sum(c.graphql for c in costs),
    )


def _merge_stops(stops: list[Stopped]) -> Stopped | None:
    if not stops:
        return None
    reasons = "; ".join(dict.fromkeys(s.reason for s in stops))
    missing = tuple(sorted({n for s in stops for n in s.not_audited}))
    return Stopped(reason=reasons, not_audited=missing)
