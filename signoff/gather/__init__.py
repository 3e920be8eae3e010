"""Gather: read everything a verdict needs from GitHub into one frozen `Evidence` snapshot."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from github import Github

from signoff.client import Deadline
from signoff.evidence import SignOff
from signoff.gather.api import Api
from signoff.gather.collect import gather_evidence
from signoff.gather.pull import head_sha, read_pull
from signoff.gather.signoff_body import fetch_signoff as _fetch_signoff
from signoff.refs import SignoffRef

__all__ = ["Deadline", "PinnedPull", "fetch_signoff", "gather_evidence", "pin_pull"]


@dataclass(frozen=True)
class PinnedPull:
    """The PR as read when verification starts; its head SHA is the pin for every check.

    Handing it back to `gather_evidence` saves reading the PR twice. `raw` is gather's own
    copy of GitHub's answer: nothing outside gather/ reads it.
    """

    head_sha: str
    raw: Mapping[str, object]


def pin_pull(gh: Github, ref: SignoffRef, *, deadline: Deadline | None = None) -> PinnedPull:
    """Read the PR now and pin its head SHA (before anything else is read)."""
    with Api(gh, deadline) as api:
        raw = read_pull(api, ref)
    return PinnedPull(head_sha=head_sha(raw), raw=raw)


def fetch_signoff(gh: Github, ref: SignoffRef, *, deadline: Deadline | None = None) -> SignOff:
    """The sign-off alone, through the endpoint of its kind."""
    with Api(gh, deadline) as api:
        return _fetch_signoff(api, ref)
