"""An authorised `/reuse-sweep-run` is on record.

Why: InferenceX merges by reusing the PR's sweep instead of re-running it, and the merge tooling
only honours the command from trusted accounts. How it is judged: some PR conversation comment
(not a review body, not an inline comment) by an OWNER, MEMBER or COLLABORATOR has a whole line
that is the command, optionally followed by a numeric run id and nothing else. To satisfy it: a
maintainer posts `/reuse-sweep-run` (or `/reuse-sweep-run <run id>`) as a PR comment.
"""

from __future__ import annotations

import re

from signoff.judge.context import JudgeContext
from signoff.judge.model import Finding, failed, passed

ID = "reuse-command"
NAME = "reuse command"


def command_pattern(command: str) -> re.Pattern[str]:
    # Same grammar as the merge tooling: whole line, optional numeric run id, nothing else.
    return re.compile(rf"(?m)^[ \t]*{re.escape(command)}(?:[ \t]+(\d+))?[ \t]*\r?$")


def evaluate(ctx: JudgeContext) -> Finding:
    policy = ctx.policy.reuse
    pattern = command_pattern(policy.command)
    authorised = set(policy.authorized_associations)
    ignored: list[str] = []
    found = None
    for comment in sorted(ctx.evidence.comments, key=lambda c: (c.created_at, c.id)):
        matches = list(pattern.finditer(comment.body))
        if not matches:
            continue
        if comment.author_association not in authorised:
            ignored.append(f"{comment.author} ({comment.author_association})")
            continue
        found = (comment, matches[-1].group(1))  # newest authorised comment, last line wins
    if found is None:
        extra = f"; ignored unauthorised: {', '.join(sorted(set(ignored)))}" if ignored else ""
        who = ", ".join(policy.authorized_associations)
        return failed(
            f"no `{policy.command}` line from an authorised account ({who}) "
            f"in the PR conversation{extra}"
        )
    comment, run_id = found
    command = f"{policy.command} {run_id}" if run_id else policy.command
    return passed(f"{command} posted by {comment.author} ({comment.author_association})")
