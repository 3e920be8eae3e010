"""Whether a PR needs a CODEOWNER sign-off at all (#3155, 2026-09-15; switch signoff_scope_owners).

From #3155 InferenceX requires a sign-off only when some changed file's effective owner (the last
matching CODEOWNERS line; a rename counts both paths) is neither a repository admin nor its core
team. signoff reads no repository permissions, so an owner counts as an admin only when the
profile names it (`codeowners_scope.admins`, each with the maintainer decision); any other user,
a team other than the profile's core teams, or an e-mail owner makes the sign-off required.
Anything unread (CODEOWNERS, a truncated file list) makes it required too: fail closed.
"""

from __future__ import annotations

from signoff.judge.context import JudgeContext


def exempt_reason(ctx: JudgeContext) -> str:
    """Why no sign-off is required, or "" when one is (always "" with the switch off)."""
    if not ctx.switches.signoff_scope_owners:
        return ""
    scope = ctx.policy.codeowners_scope
    owners = ctx.codeowners
    if owners is None or ctx.evidence.files_truncated or not ctx.changed_paths:
        return ""
    trusted = {name.lower() for name in (*scope.core_teams, *scope.admins)}
    for path in ctx.changed_paths:
        rule = owners.match(path)
        effective = rule.owners if rule is not None else ()
        if not effective or any(owner.lower() not in trusted for owner in effective):
            return ""  # unowned paths are not exempt: nobody trusted vouches for them
    teams = ", ".join(scope.core_teams) or "no core team"
    return f"no sign-off is required (#3155): every changed path's effective owner is {teams}" + (
        " or a profile-listed admin" if scope.admins else ""
    )
