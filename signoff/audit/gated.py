"""Whether a merged PR needed a sign-off: it touched the recipe scope the profile names."""

from __future__ import annotations

from collections.abc import Iterable

from signoff.github.api import JsonObject
from signoff.judge.context import path_matches
from signoff.policy import Policy


def changed_paths(files: Iterable[JsonObject]) -> tuple[str, ...]:
    """Every path a PR's file list touches; a rename contributes its old and its new path."""
    paths: set[str] = set()
    for item in files:
        for key in ("filename", "previous_filename"):
            if item.get(key):
                paths.add(str(item[key]))
    return tuple(sorted(paths))


def is_gated(paths: Iterable[str], policy: Policy) -> bool:
    """True when any path matches one of the profile's `audit.gated_paths` globs."""
    patterns = policy.audit.gated_paths
    return any(path_matches(path, pattern) for path in paths for pattern in patterns)
