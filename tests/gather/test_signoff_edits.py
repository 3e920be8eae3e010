"""Check 0: a sign-off is its author's only when nobody else edited its text (GraphQL history)."""

from __future__ import annotations

from typing import Any

import pytest
from builders import SIGNER, edited_by, never_edited, passing_parts


def _with_edits(edits: dict[str, Any] | None) -> dict[str, Any]:
    parts = passing_parts()
    parts["signoff_edits"] = edits
    return parts


def test_a_sign_off_nobody_edited_passes(check) -> None:
    assert check(_with_edits(never_edited()), "codeowner").status == "PASS"


def test_edits_by_the_author_alone_pass(check) -> None:
    assert check(_with_edits(edited_by(SIGNER, SIGNER.upper())), "codeowner").status == "PASS"


def test_a_collaborators_edit_fails_naming_the_editor(check) -> None:
    result = check(_with_edits(edited_by("ravi-s")), "codeowner")
    assert result.status == "FAIL"
    assert f"edited by ravi-s, not only by its author {SIGNER}" in result.reason


def test_an_edit_by_someone_else_counts_even_if_the_author_edited_after_it(check) -> None:
    result = check(_with_edits(edited_by("ravi-s", SIGNER)), "codeowner")
    assert result.status == "FAIL" and "ravi-s" in result.reason


def test_every_other_editor_is_named_once_sorted(check) -> None:
    result = check(_with_edits(edited_by("zed", "amy", "zed")), "codeowner")
    assert "edited by amy, zed," in result.reason


def test_a_deleted_editor_account_still_fails(check) -> None:
    result = check(_with_edits(edited_by("")), "codeowner")
    assert result.status == "FAIL" and "an account GitHub no longer names" in result.reason


@pytest.mark.parametrize(
    ("edits", "expected"),
    [
        (None, "who edited the sign-off was not read"),
        ({"readable": False, "reason": "GraphQL answered 400: x"}, "could not be read (GraphQL"),
        ({**edited_by(SIGNER), "complete": False}, "could not be read in full"),
        ({**edited_by(SIGNER), "editors": []}, "lists no edit history"),
    ],
)
def test_an_edit_history_that_cannot_be_read_in_full_fails_closed(
    check, edits: dict[str, Any] | None, expected: str
) -> None:
    result = check(_with_edits(edits), "codeowner")
    assert result.status == "FAIL" and expected in result.reason
