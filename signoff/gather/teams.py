"""Team memberships of the signer, only for CODEOWNERS teams that decide a changed path.

GitHub answers 404 both for "not a member" and "this token cannot see the team", and 403 when
the token lacks `read:org` / the App lacks members permission. So: 200 active = member; 403 =
unknown; 404 = unknown unless `GET orgs/{org}/teams/{slug}` shows the team is readable, in which
case not_member. That costs one extra request, and only on the 404 path (a signer who is not a
member), which is the case where the answer decides between PASS and FAIL.
"""

from __future__ import annotations

from github.GithubException import GithubException, UnknownObjectException

from signoff.evidence import TeamMembership
from signoff.github.answers import Membership
from signoff.github.api import Api, error_status
from signoff.parse.inferencex.codeowners import CodeOwners

MAX_TEAMS = 5


def teams_to_check(codeowners: CodeOwners, paths: tuple[str, ...], signer: str) -> tuple[str, ...]:
    """`org/slug` teams on deciding lines where the signer is not listed directly.

    A specific (non-catch-all) last-matching line needs the signer on that line; the catch-all
    line is satisfied by anyone listed anywhere (facts §3.1), so its teams matter only when the
    signer is listed nowhere directly. Logins compare case-insensitively.
    """
    me = f"@{signer.lower()}"
    listed_anywhere = any(me == owner.lower() for rule in codeowners.rules for owner in rule.owners)
    teams: dict[str, str] = {}  # lower-case key -> spelling as written
    for path in paths:
        rule = codeowners.match(path)
        if rule is None:
            continue
        owners = [owner.lower() for owner in rule.owners]
        if me in owners or (rule.is_catch_all and listed_anywhere):
            continue
        for owner in rule.owners:
            team = owner[1:]
            if owner.startswith("@") and "/" in team:
                teams.setdefault(team.lower(), team)
    return tuple(teams[key] for key in sorted(teams)[:MAX_TEAMS])


def read_membership(api: Api, team: str, login: str) -> TeamMembership:
    org, slug = team.split("/", 1)
    try:
        data = api.get_object(
            f"/orgs/{org}/teams/{slug}/memberships/{login}", item=Membership.model_validate
        )
    except UnknownObjectException:
        return _after_404(api, team, login)
    except GithubException as exc:
        # 403: the token cannot read team membership; never evidence of non-membership.
        reason = f"{error_status(exc)} (the token cannot read team membership)"
        return TeamMembership(team=team, login=login, state="unknown", reason=reason)
    if data.get("state") == "active":
        return TeamMembership(team=team, login=login, state="member")
    reason = f"membership state {data.get('state')!r}"
    return TeamMembership(team=team, login=login, state="not_member", reason=reason)


def _after_404(api: Api, team: str, login: str) -> TeamMembership:
    org, slug = team.split("/", 1)
    try:
        api.get_object(f"/orgs/{org}/teams/{slug}")
    except GithubException:
        reason = "404 (not a member, or the token cannot read the team)"
        return TeamMembership(team=team, login=login, state="unknown", reason=reason)
    reason = "404 for the membership while the team itself is readable"
    return TeamMembership(team=team, login=login, state="not_member", reason=reason)


def read_memberships(api: Api, teams: tuple[str, ...], login: str) -> tuple[TeamMembership, ...]:
    return tuple(read_membership(api, team, login) for team in teams)
