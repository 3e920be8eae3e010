"""Glob matching of repository paths, as the profile's path patterns mean them."""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=256)
def _path_regex(pattern: str) -> re.Pattern[str]:
    """`**` spans directories, `*` and `?` stay inside one path segment."""
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def path_matches(path: str, pattern: str) -> bool:
    """Glob match of a repository path (see `_path_regex`)."""
    return _path_regex(pattern).match(path) is not None
