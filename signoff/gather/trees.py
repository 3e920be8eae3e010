"""Changed paths between two commits from their git trees: the PR's files past the 3,000 cap.

`GET git/trees/{sha}?recursive=1` lists every blob of a commit's tree (GitHub cuts it at 100,000
entries or 7 MB and says so with `truncated`). A path whose blob or mode differs between the
merge base and the head is changed, as in the PR's diff; no rename detection (a move is a
removal plus an addition, so ownership is judged for both paths) and no patches.
"""

from __future__ import annotations

from github.GithubException import GithubException

from signoff.evidence import ChangedFile
from signoff.github.answers import TreeAnswer
from signoff.github.api import Api

# Blobs (files, symlinks) and gitlinks (submodules) are what a diff shows; trees are folders.
_LEAVES = frozenset({"blob", "commit"})


def prefetch(api: Api, repo: str, sha: str) -> None:
    api.prefetch(_tree_path(repo, sha), {"recursive": 1}, item=TreeAnswer.model_validate)


def changed_between(api: Api, repo: str, base: str, head: str) -> dict[str, ChangedFile] | None:
    """Path -> change from `base` to `head`; None when a tree is cut short or unreadable."""
    prefetch(api, repo, base)
    before, after = _leaves(api, repo, base), _leaves(api, repo, head)
    if before is None or after is None:
        return None
    return diff_leaves(before, after)


Leaves = dict[str, tuple[str, str]]  # path -> (mode, object sha)


def diff_leaves(before: Leaves, after: Leaves) -> dict[str, ChangedFile]:
    """The changes from one tree's leaves to another's, by path (sorted)."""
    changed: dict[str, ChangedFile] = {}
    for path in sorted(before.keys() | after.keys()):
        old, new = before.get(path), after.get(path)
        if old == new:
            continue
        if old is None:
            status = "added"
        elif new is None:
            status = "removed"
        else:
            status = "modified" if old[1] != new[1] else "changed"  # same blob: mode only
        changed[path] = ChangedFile(path=path, status=status)
    return changed


def _leaves(api: Api, repo: str, sha: str) -> Leaves | None:
    """Path -> (mode, object sha) of every leaf, or None when GitHub cut or refused the tree."""
    try:
        data = api.get_object(
            _tree_path(repo, sha), {"recursive": 1}, item=TreeAnswer.model_validate
        )
    except GithubException:
        return None
    tree = TreeAnswer.model_validate(data)
    if tree.truncated:
        return None
    return {entry.path: (entry.mode, entry.sha) for entry in tree.tree if entry.type in _LEAVES}


def _tree_path(repo: str, sha: str) -> str:
    return f"/repos/{repo}/git/trees/{sha}"
