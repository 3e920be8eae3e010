"""The sign-off's author owns what the PR changes.

Why: only a CODEOWNER's sign-off can vouch for a partner's recipe. How it is judged: for every
changed path (both paths of a rename) the last matching line of `.github/CODEOWNERS` on the default
branch names its owners. A path owned only by the catch-all `*` is satisfied by any recognised
CODEOWNER (listed anywhere, directly or through a team); a path with a specific line needs the
signer listed on that line or a member of a team listed there. Logins compare case-insensitively.
A team whose membership the token cannot read is not held against a signer who qualifies another
way. Comments by bots and verdict comments are never sign-offs, and neither is a text someone
other than its author edited (GitHub's GraphQL edit history: `editor`, `userContentEdits`); a
history that cannot be read in full fails. From #3155 (2026-09-15) no sign-off is needed when
every changed path's effective owner is the core team (or an admin the profile lists): the check
PASSes saying so; any other owner, an unowned path or anything unread keeps the rule above.
To satisfy it: have an owner of every specifically-owned path post the sign-off, and edit it
only themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from signoff.judge.checks.codeowner.scope import exempt_reason
from signoff.judge.context import JudgeContext
from signoff.judge.model import Finding, failed, passed
from signoff.parse.comment.signoff_rule import signoff_problem
from signoff.parse.inferencex.codeowners import CodeOwners, Rule, owner_is_team
from signoff.rules.codeowner import CodeownersScope

ID = "codeowner"
NAME = "CODEOWNER"
CONFIG = CodeownersScope  # its profile section, rules.<ID>.config


@dataclass
class _Coverage:
    named: list[str] = field(default_factory=list)  # specific paths the signer owns
    catch_all: int = 0
    unowned: int = 0
    denied: list[tuple[str, Rule, list[str]]] = field(
        default_factory=list
    )  # path, rule, unknown teams


def evaluate(ctx: JudgeContext) -> Finding:
    not_signoff = _not_a_signoff(ctx) or not_the_authors_text(ctx)
    if not_signoff:
        return failed(not_signoff)
    owners = ctx.codeowners
    if owners is None:
        read = ctx.codeowners_read
        why = read.reason or read.state if read is not None else "not read"
        return failed(f"{ctx.policy.paths.codeowners} on the default branch is unreadable ({why})")
    if ctx.evidence.files_truncated:
        return failed(
            "GitHub listed only the first 3,000 changed files; ownership of the rest is unverified"
        )
    if not ctx.changed_paths:
        return failed("the PR's changed files could not be read, so ownership cannot be checked")
    exempt = exempt_reason(ctx)
    if exempt:
        return passed(exempt)
    return _judge_coverage(ctx, owners)


def _not_a_signoff(ctx: JudgeContext) -> str:
    """The gate's reading (bots, our verdicts, no opener in the comment's own text)."""
    signoff = ctx.evidence.signoff
    problem = signoff_problem(
        signoff.author,
        signoff.author_type,
        signoff.body,
        ctx.policy,
        opener=ctx.signoff.has_opener,
    )
    return f"not a CODEOWNER sign-off: {problem}" if problem else ""


def not_the_authors_text(ctx: JudgeContext) -> str:
    """Why the sign-off's current text is not shown to be its author's alone ("" when it is).

    A collaborator can edit anyone's comment (tick its boxes, say); an edit by someone else makes
    the text theirs too, whoever triggered the verification and whatever was edited later.
    """
    signoff, edits = ctx.evidence.signoff, ctx.evidence.signoff_edits
    if edits is None:
        return "who edited the sign-off was not read, so it is not shown to be its author's text"
    if not edits.readable:
        return f"who edited the sign-off could not be read ({edits.reason})"
    if not edits.complete:
        return "the sign-off's edit history could not be read in full"
    if edits.last_edited_at and not edits.editors:
        return "GitHub reports an edit of the sign-off but lists no edit history"
    others = edits.others(signoff.author)
    if not others:
        return ""
    names = ", ".join(login or "an account GitHub no longer names" for login in others)
    return (
        f"the sign-off was edited by {names}, not only by its author {signoff.author}: "
        "it is not the author's own sign-off (post a fresh one)"
    )


def _judge_coverage(ctx: JudgeContext, owners: CodeOwners) -> Finding:
    signer = ctx.evidence.signoff.author
    coverage = _Coverage()
    for path in ctx.changed_paths:
        rule = owners.match(path)
        if rule is None or not rule.owners:
            coverage.unowned += 1  # GitHub requires no owner's review for an un-owned path
        elif rule.is_catch_all and ctx.switches.codeowner_catch_all:
            coverage.catch_all += 1
        else:
            owns, unknown = _owns(ctx, rule.owners, signer)
            if owns:
                coverage.named.append(path)
            else:
                coverage.denied.append((path, rule, unknown))
    if coverage.denied:
        return failed(_denied_reason(ctx, signer, coverage.denied[0], len(coverage.denied)))
    recognised, via = _recognised(ctx, owners, signer, coverage)
    if coverage.catch_all and not recognised:
        return failed(via)
    return passed(_pass_reason(ctx, signer, coverage, via))


def _owns(ctx: JudgeContext, listed: tuple[str, ...], signer: str) -> tuple[bool, list[str]]:
    """Whether the signer is one of `listed` (directly or via a team), plus unreadable teams."""
    unknown: list[str] = []
    for owner in listed:
        if not owner_is_team(owner):
            if owner.lstrip("@").lower() == signer.lower():
                return True, []
            continue
        state = _membership(ctx, owner, signer)
        if state == "member":
            return True, []
        if state == "unknown":
            unknown.append(owner)
    return False, unknown


def _membership(ctx: JudgeContext, team: str, signer: str) -> str:
    slug = team.lstrip("@").lower()
    for entry in ctx.evidence.memberships:
        if entry.team.lower() == slug and entry.login.lower() == signer.lower():
            return entry.state
    return "unknown"


def _recognised(
    ctx: JudgeContext, owners: CodeOwners, signer: str, coverage: _Coverage
) -> tuple[bool, str]:
    """Whether the signer is a CODEOWNER anywhere in the file (for catch-all paths)."""
    if coverage.named:
        return True, f"owns {coverage.named[0]}"
    owns, unknown = _owns(ctx, owners.listed_owners(), signer)
    if owns:
        return True, "is listed in CODEOWNERS"
    if unknown:
        teams = ", ".join(unknown)
        return False, (
            f"{signer} is not listed directly in CODEOWNERS and membership of {teams} could not be "
            "read (token lacks team access), so the catch-all paths are unverified"
        )
    return (
        False,
        f"{signer} is not a CODEOWNER: not listed in CODEOWNERS nor a member of a listed team",
    )


def _denied_reason(
    ctx: JudgeContext, signer: str, denied: tuple[str, Rule, list[str]], count: int
) -> str:
    path, rule, unknown = denied
    file = ctx.policy.paths.codeowners.rsplit("/", 1)[-1]
    more = f" (and {count - 1} more path{'s' if count > 2 else ''})" if count > 1 else ""
    owners = " ".join(rule.owners)
    if unknown:
        return (
            f"{path}{more} is owned by {owners} ({file}:{rule.line}); {signer} is not listed there "
            f"and membership of {', '.join(unknown)} could not be read"
        )
    return f"{path}{more} is owned by {owners} ({file}:{rule.line}); {signer} is not one of them"


def _pass_reason(ctx: JudgeContext, signer: str, coverage: _Coverage, via: str) -> str:
    parts = []
    if coverage.named:
        first = coverage.named[0]
        more = f" and {len(coverage.named) - 1} more" if len(coverage.named) > 1 else ""
        parts.append(f"{signer} is a named owner of {first}{more}")
    else:
        parts.append(f"{signer} {via}")
    if coverage.catch_all:
        parts.append(f"{coverage.catch_all} path(s) fall under the catch-all")
    if coverage.unowned:
        parts.append(f"{coverage.unowned} path(s) have no owner")
    skipped = ctx.codeowners.skipped if ctx.codeowners is not None else ()
    if skipped:
        lines = ", ".join(str(s.line) for s in skipped)
        parts.append(f"CODEOWNERS line(s) {lines} ignored as GitHub does")
    return "; ".join(parts)
