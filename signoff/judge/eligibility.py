"""Whether a verification may write the head's verdict: a possible CODEOWNER's newest sign-off.

Pure, like the checks. Two rules keep a PASS from being clobbered:

- Only someone who could be a CODEOWNER of the PR may replace the verdict: named in CODEOWNERS on
  the default branch, a member of a team it names, or an OWNER/MEMBER/COLLABORATOR of the
  repository. Anyone else's "sign-off" is skipped (nothing written), since it could only ever
  produce a REJECTED that overwrites a real owner's verdict.
- Only the newest sign-off's verification writes: by created time, then id, across the three
  sign-off kinds, counting only comments the gate would accept from a possible CODEOWNER. A
  verification whose sign-off was edited or deleted after it was read also writes nothing (the
  run for that edit does).
"""

from __future__ import annotations

from collections.abc import Sequence

from signoff.evidence import Evidence, PostedSignoff
from signoff.judge.context import JudgeContext
from signoff.parse.comment.signoff_rule import signoff_problem
from signoff.parse.inferencex.codeowners import CodeOwners, owner_is_team
from signoff.policy import Policy
from signoff.standards import Standard


def publish_blocker(evidence: Evidence, policy: Policy, standard: Standard | None = None) -> str:
    """Why this sign-off must not replace the head's verdict ("" when it may); `standard`: the
    one the bundle was gathered under (None: the one it records)."""
    signoff = evidence.signoff
    ctx = JudgeContext(evidence, policy, standard)
    if is_possible_codeowner(signoff.author, signoff.author_association, ctx):
        return ""
    if ctx.codeowners is None:
        return (
            f"{signoff.author} is {signoff.author_association} and CODEOWNERS could not be read, "
            "so they are not shown to be a possible CODEOWNER; nothing was written"
        )
    return (
        f"{signoff.author} ({signoff.author_association}) cannot be a CODEOWNER of this PR: not "
        "named in CODEOWNERS, not a member of a team it names, and not an owner, member or "
        "collaborator of the repository; nothing was written"
    )


def is_possible_codeowner(login: str, association: str, ctx: JudgeContext) -> bool:
    """OWNER/MEMBER/COLLABORATOR, named directly in CODEOWNERS, or a known member of a team it
    names. Team membership is known only for the signer's deciding teams; unknown never counts."""
    if association.upper() in ctx.policy.publish.trusted_associations:
        return True
    owners = ctx.codeowners
    if owners is None or not login:
        return False
    return _named(owners, login) or _team_member(owners, login, ctx)


def _named(owners: CodeOwners, login: str) -> bool:
    me = login.lower()
    listed = owners.listed_owners()
    return any(not owner_is_team(o) and o.lstrip("@").lower() == me for o in listed)


def _team_member(owners: CodeOwners, login: str, ctx: JudgeContext) -> bool:
    teams = {o.lstrip("@").lower() for o in owners.listed_owners() if owner_is_team(o)}
    return any(
        m.state == "member" and m.login.lower() == login.lower() and m.team.lower() in teams
        for m in ctx.evidence.memberships
    )


def superseded(
    posted: Sequence[PostedSignoff],
    evidence: Evidence,
    policy: Policy,
    standard: Standard | None = None,
) -> str:
    """Why this verification must leave the verdict to another one ("" when it may write)."""
    signoff = evidence.signoff
    ours = next((p for p in posted if (p.kind, p.id) == (signoff.kind, signoff.id)), None)
    if ours is None:
        return f"the sign-off {signoff.url} was deleted before the verdict was written"
    if ours.body != signoff.body:
        return (
            f"the sign-off {signoff.url} was edited after it was read; the verification of the "
            "edit writes the verdict"
        )
    newer = newest_signoff(posted, evidence, policy, after=ours, standard=standard)
    if newer is not None:
        return (
            f"a newer sign-off ({newer.url or f'{newer.kind} {newer.id}'} by {newer.author}) "
            "supersedes this one; its verification writes the verdict"
        )
    return ""


def newest_signoff(
    posted: Sequence[PostedSignoff],
    evidence: Evidence,
    policy: Policy,
    *,
    after: PostedSignoff | None = None,
    standard: Standard | None = None,
) -> PostedSignoff | None:
    """The newest comment (created time, id) newer than `after` that the gate would accept from
    a possible CODEOWNER.

    Anyone can post thousands of comments of 64 KB, and reading one as Markdown can take a
    second: the cheap tests (newer than ours, who wrote it) come first, so a comment only a
    possible CODEOWNER wrote after ours is ever read, newest first, until one is a sign-off.
    """
    ctx = JudgeContext(evidence, policy, standard)
    newer = [p for p in posted if after is None or _order(p) > _order(after)]
    for p in sorted(newer, key=_order, reverse=True):
        if is_possible_codeowner(p.author, p.author_association, ctx) and not signoff_problem(
            p.author, p.author_type, p.body, policy
        ):
            return p
    return None


def _order(posted: PostedSignoff) -> tuple[str, int, str]:
    # ISO 8601 UTC timestamps as GitHub writes them compare as text; the id breaks ties.
    return (posted.created_at, posted.id, posted.kind)
