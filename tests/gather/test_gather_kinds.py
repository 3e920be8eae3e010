"""Review-summary and inline-review-comment sign-offs are read through their own endpoints."""

from __future__ import annotations

import pytest
from cassette_helpers import replay_gather


@pytest.mark.parametrize(
    ("name", "kind", "route"),
    [
        ("review_summary", "review summary", "/pulls/2700/reviews/2900027001"),
        ("inline_review_comment", "inline review comment", "/pulls/comments/1900027001"),
    ],
)
def test_signoff_is_fetched_through_the_endpoint_of_its_kind(
    name: str, kind: str, route: str
) -> None:
    replayed = replay_gather(name)
    # The reads of a conversation comment's verification plus the sign-off's own fetch.
    assert replayed.all_played and len(replayed.requests) <= 21
    assert sum(route in uri for uri in replayed.requests) == 1
    signoff = replayed.evidence.signoff
    assert signoff.kind == kind and signoff.author == "kedarpotdar-nv"
    assert signoff.body.startswith("As a PR reviewer and CODEOWNER")
    assert signoff.created_at == "2026-08-18T14:00:00Z"
    # Review bodies are not conversation comments: the comment list lacks the sign-off.
    assert all(c.id != signoff.id for c in replayed.evidence.comments)
