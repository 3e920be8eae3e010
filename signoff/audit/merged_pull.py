"""Audit one merged PR: gated or not, the sign-off that let it merge, the re-judgement, and what
was published for its head at the merge."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from github.GithubException import GithubException

from signoff.audit.gated import changed_paths, is_gated
from signoff.audit.model import AuditedPull, Published, SignoffUsed
from signoff.audit.outcome import agrees, disagreements, outcome_of
from signoff.audit.published import read_published
from signoff.audit.rejudge import PolicyHistory, could_be_codeowner, rejudge
from signoff.audit.selection import MergedPull
from signoff.audit.signoffs import (
    Candidate,
    signoff_candidates,
    signoff_notes,
    signoff_that_merged,
)
from signoff.audit.window import iso, parse_instant
from signoff.evidence import Evidence, MembershipState, SignoffKind
from signoff.gather import audit_reads as reads
from signoff.gather.teams import MAX_TEAMS, read_memberships
from signoff.github.api import Api, JsonObject
from signoff.github.client import Connection
from signoff.parse.inferencex.codeowners import owner_is_team, parse_codeowners
from signoff.policy import Policy


@dataclass(frozen=True)
class AuditSettings:
    """What every PR of one run shares."""

    repo: str
    standard: str
    policy: Policy
    history: PolicyHistory
    # Tells the HTTP cache a comment's edit history is fixed while its updated_at is as listed.
    pin_edits: Callable[[str, str], None] | None = None


@dataclass(frozen=True)
class PullAudit:
    row: AuditedPull
    evidence: Evidence | None  # the bundle judged (None when nothing was judged)


def audit_pull(gh: Connection, pr: MergedPull, settings: AuditSettings) -> PullAudit:
    """One row of the report. Raises GatherError when GitHub cannot be read."""
    api = Api(gh)
    row = AuditedPull(
        pr=pr.number,
        url=pr.url,
        title=pr.title,
        merged_at=pr.merged_at,
        head_sha=pr.head_sha,
        gated=False,
        outcome="NOT_GATED",
    )
    paths = changed_paths(reads.list_files(api, settings.repo, pr.number))
    if not is_gated(paths, settings.policy):
        return PullAudit(row, None)  # listed, never judged
    found = _find_signoff(api, pr, settings)
    row = row.model_copy(update={"gated": True, "published": found.published})
    if found.chosen is None:
        return PullAudit(_finish(row, "NO_SIGNOFF", (), found.published, found.notes), None)
    chosen = found.chosen
    judged = rejudge(
        gh,
        pr,
        chosen.ref,
        chosen.at,
        settings.standard,
        policy=settings.policy,
        history=settings.history,
    )
    row = row.model_copy(update={"era": judged.era, "signoff": _used(chosen)})
    notes = found.notes + judged.notes
    outcome = outcome_of(judged.checks)
    return PullAudit(_finish(row, outcome, judged.checks, found.published, notes), judged.evidence)


@dataclass(frozen=True)
class _Found:
    chosen: Candidate | None
    published: Published
    notes: tuple[str, ...]


def _find_signoff(api: Api, pr: MergedPull, settings: AuditSettings) -> _Found:
    """The sign-off that let the PR merge and what was published for its head at the merge."""
    repo, merged = settings.repo, parse_instant(pr.merged_at)
    comments = reads.list_comments(api, repo, pr.number)
    inline = reads.list_review_comments(api, repo, pr.number)
    sources: tuple[tuple[SignoffKind, list[JsonObject]], ...] = (
        ("conversation comment", comments),
        ("review summary", reads.list_reviews(api, repo, pr.number)),
        ("inline review comment", inline),
    )
    if settings.pin_edits is not None:
        _pin_edits(settings.pin_edits, comments + inline)
    candidates = signoff_candidates(repo, pr.number, sources, settings.policy)
    chosen = signoff_that_merged(candidates, merged, lambda c: _could_own(api, pr, c, settings))
    statuses = reads.list_statuses(api, repo, pr.head_sha)
    published, notes = read_published(comments, statuses, pr.head_sha, merged, settings.policy)
    return _Found(chosen, published, signoff_notes(chosen, candidates, merged) + notes)


def _pin_edits(pin: Callable[[str, str], None], items: list[JsonObject]) -> None:
    """Comments carry an `updated_at` that any edit moves. Reviews are left out: REST gives them
    only `submitted_at`, which an edit leaves as it was, so theirs is always asked for."""
    for item in items:
        node, updated = item.get("node_id"), item.get("updated_at")
        if isinstance(node, str) and isinstance(updated, str):
            pin(node, updated)


def _finish(
    row: AuditedPull,
    outcome: str,
    checks: tuple[object, ...],
    published: Published,
    notes: tuple[str, ...],
) -> AuditedPull:
    audited = row.model_copy(update={"outcome": outcome, "checks": checks, "notes": notes})
    contradicted = disagreements(audited.checks, published)
    return audited.model_copy(
        update={
            "disagreements": contradicted,
            "agrees_with_published": agrees(audited.outcome, published, contradicted),
        }
    )


def _used(candidate: Candidate) -> SignoffUsed:
    return SignoffUsed(
        author=candidate.author,
        kind=candidate.ref.kind,
        url=candidate.url,
        at=iso(candidate.at),
    )


def _could_own(api: Api, pr: MergedPull, candidate: Candidate, settings: AuditSettings) -> bool:
    """The live gate's signer test, with CODEOWNERS from the PR's base as of the sign-off."""
    policy = settings.policy
    sha = settings.history.codeowners.at(candidate.at) or _base_sha(pr)
    try:
        text = api.file_text(settings.repo, policy.paths.codeowners, sha)
    except GithubException:
        text = None
    trusted = policy.publish.trusted_associations
    if could_be_codeowner(candidate.author, candidate.association, text, {}, trusted=trusted):
        return True
    teams = _teams(text)[:MAX_TEAMS]
    if not teams:
        return False
    memberships: dict[str, MembershipState] = {
        m.team: m.state for m in read_memberships(api, teams, candidate.author)
    }
    return could_be_codeowner(
        candidate.author, candidate.association, text, memberships, trusted=trusted
    )


def _teams(text: str | None) -> tuple[str, ...]:
    if text is None:
        return ()
    owners = parse_codeowners(text).listed_owners()
    return tuple(owner.lstrip("@") for owner in owners if owner_is_team(owner))


def _base_sha(pr: MergedPull) -> str:
    base = pr.raw.get("base")
    return str(base.get("sha")) if isinstance(base, dict) and base.get("sha") else pr.head_sha
