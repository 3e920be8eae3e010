"""The one place the audit meets today's gather, judge and standards: switch these to the
standards-by-era and who-may-publish APIs when they land.

- `rejudge`: gather the evidence for a merged PR's sign-off, with the template, CODEOWNERS and
  thresholds as they were then, and judge it (today: Checks 0-8 for every standard asked).
- `could_be_codeowner`: the signer test the live gate will use.
- `era_of` / `parse_standard`: which era's rules an audit row is judged under (today: recorded
  only; the checks are the Check 0-8 set whatever the era).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime

from github import Github
from pydantic import BaseModel, ConfigDict

from signoff.audit.history import FileHistory
from signoff.audit.model import AuditedCheck
from signoff.audit.selection import MergedPull
from signoff.audit.unverifiable import audited_checks
from signoff.audit.window import iso, parse_instant
from signoff.errors import InputError
from signoff.evidence import Evidence, MembershipState
from signoff.gather import gather_evidence
from signoff.judge import judge
from signoff.parse.codeowners import owner_is_team, parse_codeowners
from signoff.policy import Policy
from signoff.refs import SignoffRef

# Associations GitHub gives to people with a standing in the repository: the live gate accepts
# them as possible CODEOWNERs even when CODEOWNERS names them only through an unreadable team.
OWNER_ASSOCIATIONS = frozenset({"OWNER", "MEMBER", "COLLABORATOR"})
STANDARDS = ("at-the-time", "current", "0-8")
CHECK_0_8_ERA = "E4"  # the era whose numbering is the Check 0-8 standard


class AuditedChecks(BaseModel):
    """A re-judged sign-off: the evidence read, each check's audited status, era and notes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    evidence: Evidence
    checks: tuple[AuditedCheck, ...]
    era: str | None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class PolicyHistory:
    """Histories of the files an audit reads as of an instant (loaded once per run)."""

    template: FileHistory  # on the default branch
    codeowners: FileHistory  # on the base branch


def rejudge(
    gh: Github,
    pr: MergedPull,
    signoff_ref: SignoffRef,
    instant: datetime,
    standard_spec: str,
    *,
    policy: Policy,
    history: PolicyHistory,
) -> AuditedChecks:
    """Gather at the merged head with the template (default branch) and CODEOWNERS (base branch)
    as of `instant` and the thresholds at the head, judge, and mark vanished evidence.

    The judge sees the conversation as it was at the merge: a `/reuse-sweep-run` posted after the
    merge did not let it merge. Raises GatherError when GitHub cannot be read.
    """
    refs, notes = policy_refs(pr, instant, policy, history)
    evidence = gather_evidence(gh, signoff_ref, policy, pinned_head=pr.head_sha, policy_refs=refs)
    merged = parse_instant(pr.merged_at)
    before = tuple(c for c in evidence.comments if _at_or_before(c.created_at, merged))
    evidence = evidence.model_copy(update={"comments": before})
    verdict = judge(evidence, policy)
    checks = audited_checks(verdict.checks, evidence)
    return AuditedChecks(
        evidence=evidence, checks=checks, era=era_of(standard_spec, instant, policy), notes=notes
    )


def policy_refs(
    pr: MergedPull, instant: datetime, policy: Policy, history: PolicyHistory
) -> tuple[dict[str, str], tuple[str, ...]]:
    """path -> commit to read it at, and notes where a file's past could not be resolved."""
    refs = {policy.paths.thresholds: pr.head_sha}
    notes: list[str] = []
    for path, past in (
        (policy.paths.template, history.template),
        (policy.paths.codeowners, history.codeowners),
    ):
        sha = past.at(instant)
        if sha is None:
            # Never today's file: the PR's base commit is the closest state we know of.
            sha = str(_dig(pr.raw, "base", "sha") or pr.head_sha)
            why = past.problem or f"no commit on {past.branch} changed it before {iso(instant)}"
            notes.append(f"{path} read at the PR's base commit {sha[:7]} ({why})")
        refs[path] = sha
    return refs, tuple(notes)


def could_be_codeowner(
    signer: str,
    association: str,
    codeowners_text: str | None,
    team_memberships: Mapping[str, MembershipState],
    *,
    trusted: Collection[str] = OWNER_ASSOCIATIONS,
) -> bool:
    """Whether the live gate accepts this signer: named in CODEOWNERS, a member of a team named
    there (`team_memberships`: "org/slug" -> state; unknown never counts), or one of the
    `trusted` associations (the profile's `publish.trusted_associations`). Bots never.

    The same rule as `signoff.judge.eligibility.is_possible_codeowner`, on raw CODEOWNERS text of
    an instant rather than on a gathered bundle."""
    login = signer.lower()
    if not login or login.endswith("[bot]"):
        return False
    if association.upper() in trusted:
        return True
    if codeowners_text is None:
        return False
    memberships = {team.lower(): state for team, state in team_memberships.items()}
    for owner in parse_codeowners(codeowners_text).listed_owners():
        name = owner.lstrip("@").lower()
        if owner_is_team(owner):
            if memberships.get(name) == "member":
                return True
        elif name == login:
            return True
    return False


def parse_standard(spec: str, policy: Policy) -> str:
    """`at-the-time`, `current`, `0-8` or an era id of the profile; anything else is bad input."""
    eras = [era.id for era in policy.audit.eras]
    if spec in STANDARDS or spec in eras:
        return spec
    raise InputError(f"--standard {spec!r}: expected one of {', '.join([*STANDARDS, *eras])}")


def era_of(standard_spec: str, instant: datetime, policy: Policy) -> str | None:
    """The era whose rules a row is judged under: the one in force at the sign-off for
    `at-the-time`, the newest for `current`, E4 for `0-8`, or the era named."""
    eras = policy.audit.eras
    if standard_spec == "at-the-time":
        started = [era.id for era in eras if parse_instant(era.start) <= instant]
        return started[-1] if started else None
    if standard_spec == "current":
        return eras[-1].id if eras else None
    if standard_spec == "0-8":
        return CHECK_0_8_ERA
    return standard_spec


def _at_or_before(stamp: str, instant: datetime) -> bool:
    try:
        return parse_instant(stamp) <= instant
    except ValueError:
        return False  # an undated comment cannot be shown to predate the merge


def _dig(data: object, *keys: str) -> object:
    for key in keys:
        if not isinstance(data, Mapping):
            return None
        data = data.get(key)
    return data
