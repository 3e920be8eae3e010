"""The sign-off that let a PR merge: the last one posted before the merge by a possible owner.

A sign-off is read as `verify` reads it (conversation comment, review summary or inline review
comment; the opener in the comment's own Markdown; never a bot, never a verdict comment).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from signoff.audit.window import iso, parse_instant
from signoff.evidence import SignoffKind
from signoff.github.api import JsonObject
from signoff.parse.comment.signoff_rule import has_opener
from signoff.policy import Policy
from signoff.refs import SignoffRef

_KIND_ORDER: dict[SignoffKind, int] = {
    "conversation comment": 0,
    "review summary": 1,
    "inline review comment": 2,
}


@dataclass(frozen=True)
class Candidate:
    """A comment that reads as a sign-off, with when and by whom it was posted."""

    ref: SignoffRef
    author: str
    association: str
    at: datetime
    updated: datetime | None
    url: str


def signoff_candidates(
    repo: str,
    number: int,
    sources: Iterable[tuple[SignoffKind, list[JsonObject]]],
    policy: Policy,
) -> list[Candidate]:
    """Every sign-off on the PR, oldest first (ties: conversation, review, inline; then id)."""
    owner, name = repo.split("/", 1)
    found: list[Candidate] = []
    for kind, items in sources:
        for item in items:
            candidate = _candidate(owner, name, number, kind, item, policy)
            if candidate is not None:
                found.append(candidate)
    return sorted(found, key=lambda c: (c.at, _KIND_ORDER[c.ref.kind], c.ref.id))


def _candidate(
    owner: str, name: str, number: int, kind: SignoffKind, item: JsonObject, policy: Policy
) -> Candidate | None:
    user = item.get("user") if isinstance(item.get("user"), dict) else {}
    login = str((user or {}).get("login") or "")
    body = str(item.get("body") or "")
    stamp = item.get("submitted_at") if kind == "review summary" else item.get("created_at")
    if not _reads_as_signoff(login, str((user or {}).get("type") or ""), body, policy) or not stamp:
        return None
    try:
        at = parse_instant(str(stamp))
        updated = parse_instant(str(item["updated_at"])) if item.get("updated_at") else None
    except ValueError:
        return None  # an undated comment cannot be placed before or after the merge
    ref = SignoffRef(owner=owner, repo=name, pr=number, kind=kind, id=int(item.get("id") or 0))
    return Candidate(
        ref=ref,
        author=login,
        association=str(item.get("author_association") or "NONE"),
        at=at,
        updated=updated,
        url=str(item.get("html_url") or ""),
    )


def _reads_as_signoff(login: str, account: str, body: str, policy: Policy) -> bool:
    """The gate's reading: no bot, no verdict comment, the opener in the comment's own text."""
    if account == "Bot" or login.lower().endswith("[bot]"):
        return False
    if f"<!-- {policy.publish.marker}".lower() in body.lower():
        return False
    return has_opener(body, policy)


def signoff_that_merged(
    candidates: list[Candidate], merged_at: datetime, could_own: Callable[[Candidate], bool]
) -> Candidate | None:
    """The newest sign-off created at or before the merge whose signer could be a CODEOWNER."""
    for candidate in reversed(candidates):
        if candidate.at <= merged_at and could_own(candidate):
            return candidate
    return None


def signoff_notes(
    chosen: Candidate | None, candidates: list[Candidate], merged_at: datetime
) -> tuple[str, ...]:
    """What a reader of the audit row should know about the sign-offs around the merge."""
    notes = []
    if chosen is not None and chosen.updated is not None and chosen.updated > merged_at:
        notes.append(
            f"the sign-off was edited after the merge (last edit {iso(chosen.updated)}); GitHub "
            "returns only the latest text, and that text was judged"
        )
    skipped = [c for c in candidates if c.at <= merged_at and (chosen is None or c.at > chosen.at)]
    if skipped:
        names = ", ".join(sorted({c.author for c in skipped}))
        notes.append(f"sign-off(s) by {names} skipped: not a possible CODEOWNER then")
    late = [c for c in candidates if c.at > merged_at]
    if late:
        names = ", ".join(sorted({c.author for c in late}))
        notes.append(f"{len(late)} sign-off(s) posted after the merge ({names}) do not count")
    return tuple(notes)
