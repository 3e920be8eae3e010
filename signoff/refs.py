"""Where a sign-off lives: parsed from a comment URL or an event, before anything is fetched."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from signoff.errors import InputError
from signoff.evidence import SignoffKind

_PULL = re.compile(r"^https?://[^/]+/(?P<owner>[^/]+)/(?P<repo>[^/]+)/pull/(?P<number>\d+)")
_ANCHORS: tuple[tuple[str, SignoffKind], ...] = (
    ("#issuecomment-", "conversation comment"),
    ("#pullrequestreview-", "review summary"),
    ("#discussion_r", "inline review comment"),
)


class SignoffRef(BaseModel):
    """A sign-off's coordinates: repository, PR number, kind and id."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    owner: str
    repo: str
    pr: int
    kind: SignoffKind
    id: int

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.repo}"


def parse_signoff_url(url: str) -> SignoffRef:
    """`https://github.com/o/r/pull/12#issuecomment-34` (or a review / review-comment anchor)."""
    text = url.strip()
    match = _PULL.match(text)
    if match is None:
        raise InputError(f"{text!r}: not a pull request comment URL (expected .../pull/<n>#...)")
    for anchor, kind in _ANCHORS:
        start = text.find(anchor)
        if start < 0:
            continue
        digits = re.match(r"\d+", text[start + len(anchor) :])
        if digits is None:
            raise InputError(f"{text!r}: {anchor} is not followed by a numeric id")
        return SignoffRef(
            owner=match["owner"],
            repo=match["repo"],
            pr=int(match["number"]),
            kind=kind,
            id=int(digits.group()),
        )
    raise InputError(
        f"{text!r}: no #issuecomment-, #pullrequestreview- or #discussion_r anchor in the URL"
    )
