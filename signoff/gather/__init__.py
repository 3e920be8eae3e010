"""Gather: read everything a verdict needs from GitHub into one frozen `Evidence` snapshot."""

from __future__ import annotations

from github import Github

from signoff.client import Deadline
from signoff.evidence import SignOff
from signoff.gather.api import Api
from signoff.gather.collect import gather_evidence
from signoff.gather.pull import head_sha, read_pull
from signoff.gather.signoff_body import fetch_signoff as _fetch_signoff
from signoff.refs import SignoffRef

__all__ = ["Deadline", "fetch_signoff", "gather_evidence", "read_head_sha"]


def read_head_sha(gh: Github, ref: SignoffRef, *, deadline: Deadline | None = None) -> str:
    """The PR's head SHA now (the gate pins it before verification starts)."""
    return head_sha(read_pull(Api(gh, deadline), ref))


def fetch_signoff(gh: Github, ref: SignoffRef, *, deadline: Deadline | None = None) -> SignOff:
    """The sign-off alone, through the endpoint of its kind."""
    return _fetch_signoff(Api(gh, deadline), ref)
