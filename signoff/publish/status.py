"""The commit status on the pinned head SHA: the required check that branch protection reads.

State comes from the verdict we computed in this run, never from re-reading comment text (a
REJECTED body quoting `**Verdict: PASS**`, or a forged comment, can't flip it: facts §6.22).
"""

from __future__ import annotations

from typing import Literal

from github.GithubException import GithubException
from pydantic import BaseModel, ConfigDict

from signoff.errors import PublishError
from signoff.github.client import Connection
from signoff.policy import Policy
from signoff.publish.comment import describe_github_error
from signoff.publish.sanitize import inline, truncate
from signoff.publish.style import PublishStyle, style_for
from signoff.standards import resolve_standard

StatusState = Literal["success", "failure", "error"]
Result = Literal["PASS", "WARN", "REJECTED", "ERROR"]
MAX_DESCRIPTION = 140  # GitHub answers 422 for a longer description

# WARN (no FAIL, some warning-only check warned) merges like a PASS: InferenceX publishes it as
# `success` (#3300); the verdict comment carries the warning.
_STATES: dict[Result, StatusState] = {
    "PASS": "success", "WARN": "success", "REJECTED": "failure", "ERROR": "error",
}  # fmt: skip


class StatusPlan(BaseModel):
    """One status write, decided before it is sent."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sha: str
    context: str
    state: StatusState
    description: str
    target_url: str | None = None


def state_for(result: Result) -> StatusState:
    return _STATES[result]


def description_for(
    result: Result, policy: Policy, detail: str = "", style: PublishStyle | None = None
) -> str:
    """The text for the result under `style` (default: the profile's default standard's); an
    error may add a short cause. At most 140 characters."""
    chosen = style or style_for(policy, resolve_standard(None, policy))
    texts = {
        "PASS": chosen.status_pass,
        "WARN": chosen.status_warn,
        "REJECTED": chosen.status_fail,
        "ERROR": chosen.status_error,
    }
    text = texts[result]
    if result == "ERROR" and detail:
        text = f"{text}: {detail}"
    return fit_description(text)


def fit_description(text: str) -> str:
    """One inert line of at most MAX_DESCRIPTION characters (entities and all)."""
    return truncate(inline(text, limit=MAX_DESCRIPTION * 2), MAX_DESCRIPTION)


def plan_status(
    result: Result,
    policy: Policy,
    *,
    sha: str,
    context: str | None = None,
    target_url: str | None = None,
    detail: str = "",
    style: PublishStyle | None = None,
) -> StatusPlan:
    return StatusPlan(
        sha=sha,
        context=(context or "").strip() or policy.publish.status_context,
        state=state_for(result),
        description=description_for(result, policy, detail, style),
        target_url=target_url or None,
    )


def publish_status(gh: Connection, repository: str, plan: StatusPlan) -> None:
    """POST /repos/{owner}/{repo}/statuses/{sha}."""
    payload: dict[str, str] = {
        "state": plan.state,
        "context": plan.context,
        "description": plan.description,
    }
    if plan.target_url:
        payload["target_url"] = plan.target_url
    path = f"/repos/{repository}/statuses/{plan.sha}"
    try:
        gh.requester.requestJsonAndCheck("POST", path, input=payload)
    except GithubException as exc:
        raise PublishError(
            f"could not set status {plan.context}={plan.state} on {plan.sha[:12]}: "
            f"{describe_github_error(exc)}"
        ) from None
