"""A file's history on a branch, so an audit reads it as it was at an instant, not as it is now."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from github.GithubException import GithubException

from signoff.audit import reads
from signoff.audit.window import parse_instant
from signoff.gather.api import Api, JsonObject, error_status


@dataclass(frozen=True)
class FileHistory:
    """Commits on `branch` that changed `path`, newest first, with their commit dates (UTC)."""

    branch: str
    path: str
    commits: tuple[tuple[datetime, str], ...] = ()
    problem: str = ""  # why the history could not be read ("" when it was)

    def at(self, instant: datetime) -> str | None:
        """The commit whose version of the file was current at `instant` (None: none yet, or
        the history is unreadable)."""
        for when, sha in self.commits:
            if when <= instant:
                return sha
        return None


def load_history(api: Api, repo: str, branch: str, path: str) -> FileHistory:
    try:
        items = reads.path_history(api, repo, branch, path)
    except GithubException as exc:
        return FileHistory(
            branch, path, problem=f"history of {path} on {branch}: {error_status(exc)}"
        )
    dated: list[tuple[datetime, str]] = []
    for item in items:
        when, sha = commit_date(item), str(item.get("sha") or "")
        if when is not None and sha:
            dated.append((when, sha))
    return FileHistory(branch, path, tuple(sorted(dated, reverse=True)))


def commit_date(item: JsonObject) -> datetime | None:
    """When the commit landed on the branch: its committer date (a squash merge's merge time)."""
    commit = item.get("commit")
    if not isinstance(commit, dict):
        return None
    for role in ("committer", "author"):
        person = commit.get(role)
        if isinstance(person, dict) and person.get("date"):
            try:
                return parse_instant(str(person["date"]))
            except ValueError:
                return None
    return None
