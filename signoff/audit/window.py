"""The audit window: `--since` / `--until` dates parsed to UTC instants, and the shard spec."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from signoff.errors import InputError

_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def parse_instant(text: str) -> datetime:
    """A GitHub timestamp (`2026-07-04T01:29:22Z`, or with an offset) as an aware UTC datetime."""
    value = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if value.tzinfo is None:
        raise ValueError(f"{text!r} has no time zone")
    return value.astimezone(UTC)


def iso(value: datetime) -> str:
    """`2026-07-04T01:29:22Z`: the one spelling of an instant in reports."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_bound(flag: str, text: str | None, *, end_of_day: bool) -> datetime | None:
    """`--since` / `--until`: a day (`2026-07-04`, the whole day in UTC) or an ISO 8601 instant
    with a time zone. A day as `--until` includes that day."""
    if text is None:
        return None
    raw = text.strip()
    try:
        if _DAY.match(raw):
            day = datetime.strptime(raw, "%Y-%m-%d").replace(tzinfo=UTC)
            return day + timedelta(days=1, seconds=-1) if end_of_day else day
        return parse_instant(raw)
    except ValueError:
        raise InputError(
            f"{flag} {raw!r}: not a date (YYYY-MM-DD, or an ISO 8601 time with a zone)"
        ) from None


@dataclass(frozen=True)
class Window:
    """Merges at or after `since` and at or before `until`; None is unbounded."""

    since: datetime | None
    until: datetime | None

    def holds(self, instant: datetime) -> bool:
        if self.since is not None and instant < self.since:
            return False
        return self.until is None or instant <= self.until


def parse_window(since: str | None, until: str | None) -> Window:
    start = parse_bound("--since", since, end_of_day=False)
    end = parse_bound("--until", until, end_of_day=True)
    if start is not None and end is not None and start > end:
        raise InputError(f"--since {since} is after --until {until}")
    return Window(start, end)


@dataclass(frozen=True)
class Shard:
    """Shard `index` of `count` (1-based): the PRs whose number modulo `count` is `index - 1`."""

    index: int
    count: int

    def takes(self, number: int) -> bool:
        return number % self.count == self.index - 1

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse_shard(text: str | None) -> Shard | None:
    if text is None:
        return None
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if match is None:
        raise InputError(f"--shard {text!r}: expected I/N, e.g. 1/4")
    index, count = int(match[1]), int(match[2])
    if count < 1 or not 1 <= index <= count:
        raise InputError(f"--shard {text!r}: I must be between 1 and N (N at least 1)")
    return Shard(index, count)
