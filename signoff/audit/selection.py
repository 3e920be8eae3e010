"""Which PRs an audit covers: merged into the base branch within the window, or each `--pr`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from signoff.audit.window import Shard, Window, iso, parse_instant
from signoff.errors import InputError
from signoff.gather import audit_reads as reads
from signoff.github.api import Api, JsonObject


@dataclass(frozen=True)
class MergedPull:
    """A merged PR as listed: enough to audit it. `raw` is GitHub's list item (gather reads it)."""

    number: int
    title: str
    url: str
    merged_at: str
    head_sha: str
    base_ref: str
    raw: Mapping[str, object]


def to_merged(raw: JsonObject) -> MergedPull | None:
    """The PR when it was merged (a closed-unmerged PR has no merged_at), else None."""
    merged_at = raw.get("merged_at")
    head, base = raw.get("head"), raw.get("base")
    if not merged_at or not isinstance(head, dict) or not isinstance(base, dict):
        return None
    return MergedPull(
        number=int(raw["number"]),
        title=str(raw.get("title") or ""),
        url=str(raw.get("html_url") or ""),
        merged_at=iso(parse_instant(str(merged_at))),
        head_sha=str(head.get("sha") or ""),
        base_ref=str(base.get("ref") or ""),
        raw=raw,
    )


def merged_in_window(api: Api, repo: str, base: str, window: Window) -> list[MergedPull]:
    """Every PR merged into `base` within the window, oldest merge first.

    Read from the closed-PR list sorted by last update, newest first, stopping at the first PR
    updated before `since` (its merge, and every later item's, is older still). Cheaper than
    the search API, which also caps at 1,000 results and has its own, smaller rate limit.
    """
    found: list[MergedPull] = []
    for raw in reads.closed_pulls_newest_first(api, repo, base):
        updated = raw.get("updated_at")
        if window.since is not None and updated and parse_instant(str(updated)) < window.since:
            break
        pull = to_merged(raw)
        if (
            pull is not None
            and pull.base_ref == base
            and window.holds(parse_instant(pull.merged_at))
        ):
            found.append(pull)
    return in_merge_order(found)


def named_pulls(api: Api, repo: str, base: str, numbers: Iterable[int]) -> list[MergedPull]:
    """Each `--pr`; one that is not merged into `base` is bad input naming it."""
    found: list[MergedPull] = []
    for number in sorted(set(numbers)):
        pull = to_merged(reads.read_pull(api, repo, number))
        if pull is None:
            raise InputError(f"{repo}#{number}: not merged")
        if pull.base_ref != base:
            raise InputError(f"{repo}#{number}: merged into {pull.base_ref}, not {base}")
        found.append(pull)
    return in_merge_order(found)


def in_merge_order(pulls: Iterable[MergedPull]) -> list[MergedPull]:
    """The one order of every report: merge time, then PR number."""
    return sorted(pulls, key=lambda p: (p.merged_at, p.number))


def shard_of(pulls: Iterable[MergedPull], shard: Shard | None) -> list[MergedPull]:
    return [p for p in pulls if shard is None or shard.takes(p.number)]
