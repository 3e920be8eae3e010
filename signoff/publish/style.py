"""How a verdict is published: the profile's `publish:` options, each defaulting to the era's.

InferenceX changed how its verdicts look and land in September 2026 (#3164 footer and status
texts, #3338 one new comment per run, #3340 edits no longer trigger, the later prompt's
collapsed PASS/N/A rows). Those are rule switches of the standards file; a profile option set
to a value wins over the era, and one left unset (null) follows the standard being published.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from signoff.judge.model import Verdict
from signoff.policy import Policy
from signoff.standards import Standard, resolve_standard


class PublishStyle(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    footer_commits: bool = False  # "Assessed commit" / "Covered commit" lines
    collapse_passing: bool = False  # PASS and N/A rows in one <details> block
    comment_per_run: bool = False  # a new comment each run, never edited (else one per SHA)
    trigger_on_edits: bool = True  # an edited sign-off is verified again
    status_pass: str
    status_warn: str
    status_fail: str
    status_error: str
    status_stale: str | None = None  # the description for a head the verdict does not cover


def style_for(policy: Policy, standard: Standard) -> PublishStyle:
    """The options in force: the profile's where set, else the standard's switches."""
    era, mine = standard.switches, policy.publish

    def pick(option: bool | None, default: bool) -> bool:
        return default if option is None else option

    passing = mine.status_pass or era.status_pass or mine.classic_pass
    return PublishStyle(
        footer_commits=pick(mine.footer_commits, era.footer_commits),
        collapse_passing=pick(mine.collapse_passing, era.collapse_passing),
        comment_per_run=pick(mine.comment_per_run, era.comment_per_run),
        trigger_on_edits=pick(mine.trigger_on_edits, era.trigger_on_edits),
        status_pass=passing,
        status_warn=mine.status_warn or passing,
        status_fail=mine.status_fail or era.status_fail or mine.classic_fail,
        status_error=mine.status_error,
        status_stale=mine.status_stale or era.status_stale,
    )


def verdict_style(verdict: Verdict, policy: Policy) -> PublishStyle:
    """The style of the standard a verdict was judged under (the profile's default if none)."""
    spec = verdict.standard.spec if verdict.standard is not None else None
    return style_for(policy, resolve_standard(spec, policy))
