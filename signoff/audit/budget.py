"""Request accounting for an audit: what each PR cost against the rate limit, and what is left.

A REST request counts against GitHub's primary rate limit unless it was answered 304 Not
Modified (a conditional request), never left the machine (a cache hit), or did not go to the API
(an artifact download from blob storage: its answers carry no `X-RateLimit-*` headers). GraphQL
queries (gather's read of the sign-off's edit history) draw on GitHub's separate GraphQL budget
and are tallied apart. Costs are kept per owner (one PR, or "run" for the listing), so a PR's cost
does not depend on which PRs ran beside it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field

RUN = "run"
# Reads fixed by their URL (a SHA, an artifact id, a pinned edit history), shared by every PR of
# a run and fetched once: charged here, not to whichever PR asked first (see audit.cache).
FIXED = "fixed"
# Who the requests made now are for: "run" (listing, histories), "fixed", or "pr-<n>" (set by
# the worker).
current_owner: ContextVar[str] = ContextVar("signoff_audit_owner", default=RUN)


def pr_owner(number: int) -> str:
    return f"pr-{number}"


@dataclass
class Spend:
    counted: int = 0  # REST requests sent and not answered 304: these use up the rate limit
    not_modified: int = 0  # conditional requests answered 304 (free)
    cache_hits: int = 0  # answered from the cache without asking GitHub
    graphql: int = 0  # GraphQL queries (their own budget, not the REST rate limit)


@dataclass
class Meter:
    """Thread-safe tally per owner plus the latest primary rate-limit headers seen."""

    spends: dict[str, Spend] = field(default_factory=dict)
    remaining: int | None = None
    limit: int | None = None
    reset_at: float | None = None  # epoch seconds
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _spend(self, owner: str) -> Spend:
        return self.spends.setdefault(owner, Spend())

    def sent(self, status: int, attempts: int, headers: Mapping[str, str]) -> None:
        lower = {k.lower(): v for k, v in headers.items()}
        if "x-ratelimit-limit" not in lower:
            return  # not an API answer (blob storage), so not on the rate limit
        with self._lock:
            spend = self._spend(current_owner.get())
            if lower.get("x-ratelimit-resource") == "graphql":
                spend.graphql += attempts
            elif status == 304:
                spend.not_modified += 1
                spend.counted += attempts - 1
            else:
                spend.counted += attempts
            self._observe(headers)

    def hit(self) -> None:
        with self._lock:
            self._spend(current_owner.get()).cache_hits += 1

    def _observe(self, headers: Mapping[str, str]) -> None:
        lower = {k.lower(): v for k, v in headers.items()}
        if lower.get("x-ratelimit-resource", "core") != "core":
            return
        for name, attr in (("x-ratelimit-remaining", "remaining"), ("x-ratelimit-limit", "limit")):
            if str(lower.get(name, "")).isdigit():
                setattr(self, attr, int(lower[name]))
        if str(lower.get("x-ratelimit-reset", "")).isdigit():
            self.reset_at = float(lower["x-ratelimit-reset"])

    def counted(self, owner: str) -> int:
        with self._lock:
            return self.spends.get(owner, Spend()).counted

    def total(self) -> Spend:
        with self._lock:
            out = Spend()
            for spend in self.spends.values():
                out.counted += spend.counted
                out.not_modified += spend.not_modified
                out.cache_hits += spend.cache_hits
                out.graphql += spend.graphql
            return out


# Keep this many requests in hand before starting another PR: a PR costs ~20 (a large one ~60),
# and every worker may have one in flight.
RESERVE_PER_WORKER = 60
MAX_WAIT_SECONDS = 3900.0  # a primary limit resets within the hour


class Budget:
    """Between PRs: wait for the rate-limit reset when the remaining budget runs low, and stop
    once `max_requests` have been spent."""

    def __init__(
        self,
        meter: Meter,
        max_requests: int | None,
        *,
        workers: int = 1,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
        on_wait: Callable[[float], None] | None = None,
    ) -> None:
        self.meter, self.max_requests = meter, max_requests
        self.reserve = RESERVE_PER_WORKER * workers
        self._sleep, self._clock, self._on_wait = sleep, clock, on_wait
        self._lock = threading.Lock()

    def exhausted(self) -> str:
        """Why no further PR may start ("" while it may)."""
        if self.max_requests is not None:
            spent = self.meter.total().counted
            if spent >= self.max_requests:
                return f"stopped after {spent} requests (--max-requests {self.max_requests})"
        return ""

    def wait_if_low(self) -> None:
        """Block until the reset when fewer than `reserve` requests remain (one waiter at a time;
        the countdown is shown through `on_wait`)."""
        with self._lock:
            remaining, reset = self.meter.remaining, self.meter.reset_at
            if remaining is None or reset is None or remaining >= self.reserve:
                return
            end = min(reset + 1, self._clock() + MAX_WAIT_SECONDS)
            while (left := end - self._clock()) > 0:
                if self._on_wait is not None:
                    self._on_wait(left)
                self._sleep(min(1.0, left))
            if self._on_wait is not None:
                self._on_wait(0)
            self.meter.remaining = None  # unknown until the next answer says
