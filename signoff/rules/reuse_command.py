"""The reuse-command check: the commands that reuse a sweep run, and who may give them.

Read from the profile's `rules.reuse-command.config`
(or its older top-level key `reuse:`).
"""

from __future__ import annotations

from signoff.rules.base import Strict

ID = "reuse-command"  # the check whose section this is
LEGACY = "reuse"  # the top-level key profiles wrote it under before `rules.<id>.config`


class ReusePolicy(Strict):
    command: str = "/reuse-sweep-run"
    use_command: str = "/use"  # from #3192 (switch reuse_use_command); its run id is required
    authorized_associations: tuple[str, ...] = ("OWNER", "MEMBER", "COLLABORATOR")


Config = ReusePolicy
