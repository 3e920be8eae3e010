"""An authorised `/reuse-sweep-run` (from 2026-09-16 also `/use <run_id>`) is on record.

Why: InferenceX merges by reusing the PR's sweep instead of re-running it, and the merge tooling
only honours the command from trusted accounts. How it is judged: some PR conversation comment
(not a review body, not an inline comment) by an OWNER, MEMBER or COLLABORATOR has a whole line
that is the command, optionally followed by a numeric run id and nothing else. From #3192
(2026-09-16) `/use <run_id>` counts too (the run id is required: a bare `/use` is nothing; the
newest authorised command of either name wins), and from #3368 (2026-09-22) the check only
warns: without the command the row is WARN, a reminder, and the verdict can still merge.
To satisfy it: a maintainer posts `/reuse-sweep-run` (or `/reuse-sweep-run <run id>`, or in
those eras `/use <run id>`) as a PR comment.
"""

from __future__ import annotations

import re

from signoff.judge.context import JudgeContext
from signoff.judge.model import Finding, failed, passed
from signoff.rules.reuse_command import ReusePolicy

ID = "reuse-command"
NAME = "reuse command"
CONFIG = ReusePolicy  # its profile section, rules.<ID>.config


def command_pattern(command: str, *, run_id_required: bool = False) -> re.Pattern[str]:
    # Same grammar as the merge tooling: whole line, a numeric run id (optional for the legacy
    # command, required for `/use`), nothing else. The command is group 1, the run id group 2.
    run_id = r"[ \t]+(\d+)" if run_id_required else r"(?:[ \t]+(\d+))?"
    return re.compile(rf"(?m)^[ \t]*({re.escape(command)}){run_id}[ \t]*\r?$")


def _patterns(ctx: JudgeContext) -> list[re.Pattern[str]]:
    policy = ctx.policy.reuse
    patterns = [command_pattern(policy.command)]
    if ctx.standard.switches.reuse_use_command:
        patterns.append(command_pattern(policy.use_command, run_id_required=True))
    return patterns


def _commands(ctx: JudgeContext) -> str:
    policy = ctx.policy.reuse
    if ctx.standard.switches.reuse_use_command:
        return f"`{policy.use_command} <run_id>` or `{policy.command}`"
    return f"`{policy.command}`"


def evaluate(ctx: JudgeContext) -> Finding:
    policy = ctx.policy.reuse
    patterns = _patterns(ctx)
    authorised = set(policy.authorized_associations)
    ignored: list[str] = []
    found = None
    for comment in sorted(ctx.evidence.comments, key=lambda c: (c.created_at, c.id)):
        # Both commands share the rule: the newest authorised comment, its last line wins.
        matches = sorted((m for p in patterns for m in p.finditer(comment.body)), key=_at)
        if not matches:
            continue
        if comment.author_association not in authorised:
            ignored.append(f"{comment.author} ({comment.author_association})")
            continue
        found = (comment, matches[-1].group(1), matches[-1].group(2))
    if found is None:
        extra = f"; ignored unauthorised: {', '.join(sorted(set(ignored)))}" if ignored else ""
        who = ", ".join(policy.authorized_associations)
        return failed(
            f"no {_commands(ctx)} line from an authorised account ({who}) "
            f"in the PR conversation{extra}"
        )
    comment, name, run_id = found
    command = f"{name} {run_id}" if run_id else name
    return passed(f"{command} posted by {comment.author} ({comment.author_association})")


def _at(match: re.Match[str]) -> int:
    return match.start()
