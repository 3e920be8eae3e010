"""The one place the audit meets gather, judge, the standards by era and the signer rule.

- `rejudge`: gather the evidence for a merged PR's sign-off as of the sign-off's instant (the
  default branch's files as they were then, CODEOWNERS from the base branch as it was then, the
  thresholds and configs at the head) and judge it under the standard asked for: the one in
  force at that instant (`at-the-time`), or a named one (`current`, `0-8`, `E4` ...).
- `could_be_codeowner`: the signer test the live gate uses (judge/eligibility.py's rule, on
  CODEOWNERS text of an instant).
- `standard_for` / `parse_standard`: which standard a row is judged under.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel, ConfigDict

from signoff.audit.history import FileHistory
from signoff.audit.model import AuditedCheck
from signoff.audit.selection import MergedPull
from signoff.audit.unverifiable import audited_checks
from signoff.audit.window import iso, parse_instant
from signoff.errors import InputError
from signoff.evidence import Evidence, MembershipState
from signoff.gather import audit_reads as reads
from signoff.gather import gather_evidence
from signoff.github.api import Api
from signoff.github.client import Connection
from signoff.judge import judge
from signoff.judge.reading import PLAN
from signoff.parse.inferencex.codeowners import owner_is_team, parse_codeowners
from signoff.policy import Policy
from signoff.refs import SignoffRef
from signoff.standards import Standard, resolve_standard, standard_at

# Associations GitHub gives to people with a standing in the repository: the live gate accepts
# them as possible CODEOWNERs even when CODEOWNERS names them only through an unreadable team.
OWNER_ASSOCIATIONS = frozenset({"OWNER", "MEMBER", "COLLABORATOR"})
AT_THE_TIME = "at-the-time"
ALL_OTHER_FILES = "*"  # gather's policy_refs key for every other default-branch read


class AuditedChecks(BaseModel):
    """A re-judged sign-off: the evidence read, each check's audited status, era and notes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    evidence: Evidence
    checks: tuple[AuditedCheck, ...]
    era: str | None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class PolicyHistory:
    """Histories an audit reads files as of an instant with (loaded once per run)."""

    default: FileHistory  # every commit of the default branch since some date
    codeowners: FileHistory  # the CODEOWNERS file's commits on the base branch


def rejudge(
    gh: Connection,
    pr: MergedPull,
    signoff_ref: SignoffRef,
    instant: datetime,
    standard_spec: str,
    *,
    policy: Policy,
    history: PolicyHistory,
) -> AuditedChecks:
    """Gather at the merged head as of `instant` (the sign-off's creation), judge under the
    standard asked for, and mark vanished evidence UNVERIFIABLE.

    The judge sees the conversation as it was at the merge: a `/reuse-sweep-run` posted after the
    merge did not let it merge. Raises GatherError when GitHub cannot be read.
    """
    standard, notes = standard_for(standard_spec, instant, policy)
    refs, more = policy_refs(Api(gh), signoff_ref.full_name, pr, instant, policy, standard, history)
    # One PR's reads one after another: the audit runs PRs in parallel (--jobs) instead, which
    # keeps the request meter and the HTTP cache in step and the reports byte-identical.
    evidence = gather_evidence(
        gh, signoff_ref, policy, standard=standard, plan=PLAN, pinned_head=pr.head_sha,
        reviewed_at=instant, policy_refs=refs, workers=1,
    )  # fmt: skip
    merged = parse_instant(pr.merged_at)
    before = tuple(c for c in evidence.comments if _at_or_before(c.created_at, merged))
    evidence = evidence.model_copy(update={"comments": before})
    verdict = judge(evidence, policy, standard)
    checks = audited_checks(verdict.checks, evidence)
    return AuditedChecks(evidence=evidence, checks=checks, era=standard.era, notes=notes + more)


def standard_for(spec: str, instant: datetime, policy: Policy) -> tuple[Standard, tuple[str, ...]]:
    """The standard in force at `instant` for `at-the-time`, else the one `spec` names."""
    if spec != AT_THE_TIME:
        return resolve_standard(spec, policy), ()
    try:
        return standard_at(instant, policy), ()
    except InputError:  # before the first era: no verifier ran yet; its first rules apply
        first = policy.standards.eras[0].id
        note = f"no verifier standard was in force at {iso(instant)}; judged under {first}"
        return resolve_standard(first, policy), (note,)


def policy_refs(
    api: Api,
    repo: str,
    pr: MergedPull,
    instant: datetime,
    policy: Policy,
    standard: Standard,
    history: PolicyHistory,
) -> tuple[dict[str, str], tuple[str, ...]]:
    """gather's `policy_refs`: the default branch's files at its commit as of `instant`,
    CODEOWNERS at the base branch's as of `instant`, the thresholds at the head."""
    notes: list[str] = []
    default = history.default.at(instant)
    if default is None and not history.default.problem:
        # Older than the run's listing of the branch: one request for this instant.
        default = reads.commit_at(api, repo, history.default.branch, iso(instant))
    codeowners = history.codeowners.at(instant)
    if codeowners is None:
        # Never today's file: the PR's base commit is the closest state we know of.
        codeowners = _base_sha(pr)
        why = history.codeowners.problem or f"no commit changed it before {iso(instant)}"
        notes.append(f"{policy.paths.codeowners} read at the PR's base commit ({why})")
    thresholds = standard.switches.thresholds or policy.paths.thresholds
    refs = {ALL_OTHER_FILES: default or _base_sha(pr), policy.paths.codeowners: codeowners}
    if default is None:
        notes.append(f"the default branch as of {iso(instant)} is unknown; read at the PR's base")
    refs[thresholds] = pr.head_sha
    return refs, tuple(notes)


def _base_sha(pr: MergedPull) -> str:
    return str(_dig(pr.raw, "base", "sha") or pr.head_sha)


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
    """`at-the-time` or any standard the profile knows (`current`, `0-8`, `E4`, `at:...`)."""
    if spec != AT_THE_TIME:
        resolve_standard(spec, policy)  # InputError naming the spec and the choices
    return spec


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
