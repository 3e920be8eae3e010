"""A branch's history (or one file's), so an audit reads files as they were at an instant."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from github.GithubException import GithubException

from signoff.audit.window import iso, parse_instant
from signoff.gather import audit_reads as reads
from signoff.github.api import Api, JsonObject, error_status


@dataclass(frozen=True)
class FileHistory:
    """Commits on `branch` (that changed `path`, when given), newest first, with their commit
    dates (UTC). `since`: commits before it were not listed, so older instants are unknown."""

    branch: str
    path: str | None
    commits: tuple[tuple[datetime, str], ...] = ()
    since: datetime | None = None
    problem: str = ""  # why the history could not be read ("" when it was)

    def at(self, instant: datetime) -> str | None:
        """The newest commit at or before `instant` (None: none, unknown, or unreadable)."""
        if self.problem or (self.since is not None and instant < self.since):
            return None
        for when, sha in self.commits:
            if when <= instant:
                return sha
        return None


def load_history(
    api: Api, repo: str, branch: str, path: str | None = None, since: datetime | None = None
) -> FileHistory:
    what = path or "the branch"
    try:
        items = reads.history(api, repo, branch, path, iso(since) if since else None)
    except GithubException as exc:
        return FileHistory(
            branch, path, problem=f"history of {what} on {branch}: {error_status(exc)}"
        )
    dated: list[tuple[datetime, str]] = []
    for item in items:
        when, sha = commit_date(item), str(item.get("sha") or "")
        if when is not None and sha:
            dated.append((when, sha))
    return FileHistory(branch, path, tuple(sorted(dated, reverse=True)), since)


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
