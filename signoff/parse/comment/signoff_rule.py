"""Whether a comment can be a sign-off at all: its author and the opener in its own text.

Pure: the gate, `verify --publish` (and dispatch) before anything is written, gathering's early
refusal and Check 0 all read a comment through this one rule.
"""

from __future__ import annotations

from signoff.parse.comment.signoff_comment import parse_signoff
from signoff.policy import Policy


def signoff_problem(
    login: str, account_type: str, body: str, policy: Policy, *, opener: bool | None = None
) -> str:
    """Why a comment is not a sign-off ("" when it is): the one reading shared by the gate,
    `verify --publish` (and dispatch) before anything is written, and Check 0.

    `opener` is the Markdown reading of the body when the caller already has it.
    """
    if account_type == "Bot" or login.lower().endswith("[bot]"):
        return f"author {login or '(unknown)'} is a bot"
    # Our own verdict comment quotes the opener; it must never re-trigger (no self-trigger).
    if f"<!-- {policy.publish.marker}".lower() in body.lower():
        return "comment is a signoff verdict (carries the verdict marker)"
    if not (has_opener(body, policy) if opener is None else opener):
        return f"body does not contain the sign-off opener {policy.signoff.opener!r}"
    return ""


def has_opener(body: str, policy: Policy) -> bool:
    """The opener appears (case-insensitively, as GitHub's contains()) in the comment's own text:
    the same Markdown reading as Check 0, so quotes, HTML comments and code never count.

    A reply that only quotes someone's sign-off is a discussion, not a sign-off of its own.
    """
    return parse_signoff(body, policy.signoff).has_opener
