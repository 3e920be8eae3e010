"""The gate: from a GitHub event payload, decide whether it asks for a sign-off verification.

Pure: it reads only the payload and the policy, never GitHub. Mirrors the InferenceX workflow's
`gate` job (facts §5) and closes its holes: bots, our own verdict comments and replies that only
quote the opener never trigger.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict

from signoff.errors import InputError
from signoff.evidence import SignoffKind
from signoff.parse.comment.signoff_rule import signoff_problem
from signoff.policy import Policy
from signoff.refs import SignoffRef, parse_signoff_url

EventKind = Literal["issue_comment", "pull_request_review", "pull_request_review_comment"]

# Event -> (actions that (re-)run verification, kind of sign-off, payload key of the body object).
# Edits re-run verification (facts §6.2); deletions and dismissals never do.
_EVENTS: dict[str, tuple[frozenset[str], SignoffKind, str]] = {
    "issue_comment": (frozenset({"created", "edited"}), "conversation comment", "comment"),
    "pull_request_review": (frozenset({"submitted", "edited"}), "review summary", "review"),
    "pull_request_review_comment": (
        frozenset({"created", "edited"}),
        "inline review comment",
        "comment",
    ),
}
DISPATCH_EVENT = "workflow_dispatch"
DISPATCH_INPUTS = ("comment-url", "comment_url")


class GateDecision(BaseModel):
    """Whether to verify, why (one line for the log), and which sign-off."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    proceed: bool
    reason: str
    ref: SignoffRef | None = None
    dispatched: bool = False  # True: an explicit request; phrase and open/draft tests bypassed
    body_in_payload: bool = False  # False: the sign-off body must be fetched (dispatch)


def skip(reason: str) -> GateDecision:
    return GateDecision(proceed=False, reason=reason)


def decide(
    event_name: str,
    payload: Mapping[str, object],
    policy: Policy,
    *,
    comment_url: str = "",
    repository: str = "",
    edits_trigger: bool = True,
) -> GateDecision:
    """Decide for one event. `comment_url` is the action input; `repository` is GITHUB_REPOSITORY.

    A malformed dispatch request (no or bad URL, another repository) is an InputError: someone
    asked explicitly and must hear why nothing happened. Everything else that does not qualify is
    a skip with a reason.
    """
    if event_name in _EVENTS:
        if not edits_trigger and _text(payload.get("action")) == "edited":
            # From #3340 (2026-09-21) only new sign-offs verify; dispatch re-verifies an edit.
            return skip(f"{event_name} edits do not trigger verification; dispatch to re-verify")
        return _decide_event(event_name, payload, policy)
    if event_name == DISPATCH_EVENT or comment_url.strip():
        # Any other event (workflow_call, repository_dispatch ...) that passes an explicit
        # comment-url is a request too; the URL is all we need.
        return _decide_dispatch(payload, comment_url, repository)
    return skip(f"event {event_name or '(none)'!r} does not request a sign-off verification")


def _decide_dispatch(
    payload: Mapping[str, object], comment_url: str, repository: str
) -> GateDecision:
    url = comment_url.strip() or _dispatch_input(payload)
    if not url:
        raise InputError("workflow_dispatch needs the input comment-url (a sign-off comment URL)")
    ref = parse_signoff_url(url)
    home = repository or _text(_mapping(payload.get("repository")).get("full_name"))
    # The token is scoped to this repository; refuse to verify (and write to) another one.
    if home and ref.full_name.lower() != home.lower():
        raise InputError(f"comment-url is in {ref.full_name}, but this workflow runs in {home}")
    # Dispatch bypasses the phrase and the open/non-draft tests (facts §6.3).
    return GateDecision(
        proceed=True,
        reason=f"dispatched for {ref.kind} {ref.id} on {ref.full_name}#{ref.pr}",
        ref=ref,
        dispatched=True,
    )


def _dispatch_input(payload: Mapping[str, object]) -> str:
    inputs = _mapping(payload.get("inputs"))
    for key in DISPATCH_INPUTS:
        value = _text(inputs.get(key)).strip()
        if value:
            return value
    return ""


def _decide_event(event_name: str, payload: Mapping[str, object], policy: Policy) -> GateDecision:
    actions, kind, body_key = _EVENTS[event_name]
    action = _text(payload.get("action"))
    if action not in actions:
        return skip(f"{event_name} action {action!r} does not trigger verification")
    item = _mapping(payload.get(body_key))
    if event_name == "issue_comment":
        pr = _mapping(payload.get("issue"))
        # An issue comment is on a PR only when issue.pull_request is present (facts §5).
        if not pr.get("pull_request"):
            return skip("comment is on an issue, not on a pull request")
    else:
        pr = _mapping(payload.get("pull_request"))
    raw_body = item.get("body")
    if raw_body is None and event_name == "pull_request_review":
        return skip("review has no body (an approval without text never signs off)")
    problem = _body_problem(_text(raw_body), _mapping(item.get("user")), policy)
    if problem:
        return skip(problem)
    if _text(pr.get("state")) != "open":
        return skip(f"pull request is {_text(pr.get('state')) or 'in an unknown state'}, not open")
    # The issue object of a PR carries `draft` too; a missing key means an old payload: not draft.
    if pr.get("draft") is True:
        return skip("pull request is a draft")
    return _proceed(payload, pr, item, kind)


def _body_problem(body: str, user: Mapping[str, object], policy: Policy) -> str:
    """Why this body/author cannot be a sign-off, or "" when it can."""
    return signoff_problem(_text(user.get("login")), _text(user.get("type")), body, policy)


def _proceed(
    payload: Mapping[str, object],
    pr: Mapping[str, object],
    item: Mapping[str, object],
    kind: SignoffKind,
) -> GateDecision:
    repo = _mapping(payload.get("repository"))
    owner = _text(_mapping(repo.get("owner")).get("login"))
    name = _text(repo.get("name"))
    number, item_id = pr.get("number"), item.get("id")
    if not owner or not name or not isinstance(number, int) or not isinstance(item_id, int):
        raise InputError("event payload lacks repository, pull request number or comment id")
    ref = SignoffRef(owner=owner, repo=name, pr=number, kind=kind, id=item_id)
    author = _text(_mapping(item.get("user")).get("login"))
    reason = f"{kind} {item_id} by {author} on {ref.full_name}#{number} contains the opener"
    sender = _text(_mapping(payload.get("sender")).get("login"))
    if _text(payload.get("action")) == "edited" and sender and sender.lower() != author.lower():
        # Anyone with write access can edit anyone's comment; Check 0 reads the whole edit
        # history (GraphQL) and fails such a sign-off, naming who edited it.
        reason += f"; edited by {sender}, not by its author"
    return GateDecision(proceed=True, reason=reason, ref=ref, body_in_payload=True)


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""
