"""Gather: read everything a verdict needs from GitHub into one frozen `Evidence` snapshot.

Gather imports nothing of the judge: what to read next and the sweep rule come from the caller's
plan (signoff/gather/plan.py). `gather_evidence` is imported on first use: its readers of
CODEOWNERS, master configs and upstream recipes need the parsers, which with the judge take a
third of a verdict's start-up to import. `pin_pull` and `start` need none of it, so the first
reads go out while they load.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from github.GithubException import GithubException

from signoff.errors import GatherError
from signoff.evidence import SignOff
from signoff.gather import first_reads, signoff_body
from signoff.gather.pull_request import head_sha, read_pull
from signoff.gather.signoff_body import fetch_signoff as _fetch_signoff
from signoff.github.api import Api
from signoff.github.client import Connection, Deadline
from signoff.policy import Policy
from signoff.refs import SignoffRef
from signoff.standards import Standard

if TYPE_CHECKING:
    from signoff.gather.stages import gather_evidence

__all__ = [
    "Deadline",
    "HeadStart",
    "PinnedPull",
    "fetch_signoff",
    "gather_evidence",
    "pin_pull",
    "start",
]


def __getattr__(name: str) -> object:
    if name == "gather_evidence":
        from signoff.gather.stages import gather_evidence

        return gather_evidence
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class PinnedPull:
    """The PR as read when verification starts; its head SHA is the pin for every check.

    Handing it back to `gather_evidence` saves reading the PR twice. `raw` is gather's own
    copy of GitHub's answer: nothing outside gather/ reads it. `not_signoff`: why the comment
    is no sign-off, when `start(gate=True)` found it so (nothing else was read then).
    """

    head_sha: str
    raw: Mapping[str, object]
    not_signoff: str = ""


def pin_pull(gh: Connection, ref: SignoffRef, *, deadline: Deadline | None = None) -> PinnedPull:
    """Read the PR now and pin its head SHA (before anything else is read)."""
    with Api(gh, deadline) as api:
        raw = read_pull(api, ref)
    return PinnedPull(head_sha=head_sha(raw), raw=raw)


@dataclass(frozen=True)
class HeadStart:
    """A verification whose first reads are under way: `pinned()` waits for the pinned PR (or
    raises what reading it raised); `api` holds the answers, for `gather_evidence(started=)`."""

    api: Api
    pinned: Callable[[], PinnedPull]


def start(
    gh: Connection, ref: SignoffRef, policy: Policy, standard: Standard, *, gate: bool = False
) -> HeadStart:
    """Pin the PR on a worker of the pool, then send the first reads at its head (`first_reads`).

    `gate` (publishing): the sign-off itself is read beside the pin, and a comment that is no
    sign-off (our verdict, a bot's, a remark) stops there, before anything else is read; it is
    refused anyway, and reading ahead for it would cost some twenty requests. A sign-off that
    cannot be read here is read again, and judged, by the gathering as usual.
    The caller must close `api` (`gather_evidence(started=api)` does) once `pinned()` answered.
    """
    api = Api(gh, fold_texts=True)
    if gate:
        signoff_body.prefetch(api, ref, keep=True)  # (gathering takes the same answer)

    def pin() -> PinnedPull:
        raw = read_pull(api, ref)
        refused = _not_signoff(api, ref, policy) if gate else ""
        if not refused:
            first_reads.send(api, ref, raw, head_sha(raw), policy, standard, {})
        return PinnedPull(head_sha=head_sha(raw), raw=raw, not_signoff=refused)

    return HeadStart(api, api.start(pin).result)


def _not_signoff(api: Api, ref: SignoffRef, policy: Policy) -> str:
    """Why the comment is no sign-off, in the words the refusal after gathering uses ("": it
    may be one, or could not be read here)."""
    try:
        signoff = _fetch_signoff(api, ref)
    except (GatherError, GithubException):
        return ""
    from signoff.parse.comment.signoff_rule import signoff_problem  # (the parsers load meanwhile)

    problem = signoff_problem(signoff.author, signoff.author_type, signoff.body, policy)
    return f"{signoff.url} is not a sign-off: {problem}; nothing written" if problem else ""


def fetch_signoff(gh: Connection, ref: SignoffRef, *, deadline: Deadline | None = None) -> SignOff:
    """The sign-off alone, through the endpoint of its kind."""
    with Api(gh, deadline) as api:
        return _fetch_signoff(api, ref)
