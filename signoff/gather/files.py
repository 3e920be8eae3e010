"""File texts at named refs: default-branch policy files, master configs, benchmark scripts."""

from __future__ import annotations

import re
from collections.abc import Iterable

from github.GithubException import GithubException

from signoff.evidence import ChangedFile, FileRead, RefRole
from signoff.gather.api import Api, error_status

_ADDED_HUNK = re.compile(r"^@@ -0,0 \+1(?:,(?P<count>\d+))? @@")
_NO_NEWLINE = "\\ No newline at end of file"


def read_file(api: Api, repo: str, path: str, ref: str, role: RefRole) -> FileRead:
    """One read: ok, missing (404), or unavailable with GitHub's answer as the reason."""
    try:
        text = api.file_text(repo, path, ref)
    except GithubException as exc:
        return FileRead(
            path=path, role=role, sha=ref, state="unavailable", reason=error_status(exc)
        )
    if text is None:
        return FileRead(path=path, role=role, sha=ref, state="missing", reason="404 Not Found")
    return FileRead(path=path, role=role, sha=ref, text=text)


def read_all(api: Api, repo: str, paths: Iterable[str], ref: str, role: RefRole) -> list[FileRead]:
    return [read_file(api, repo, path, ref, role) for path in paths]


def prefetch(api: Api, repo: str, paths: Iterable[str], ref: str) -> None:
    """Send the reads of `paths` at `ref` ahead (`read_file` takes their answers)."""
    for path in paths:
        api.prefetch_file(repo, path, ref)


def as_role(reads: Iterable[FileRead], role: RefRole) -> list[FileRead]:
    """Copies of reads under another role (the head reads serve as the sweep commit's)."""
    return [read.model_copy(update={"role": role}) for read in reads]


def text_of_added(changed: ChangedFile) -> str | None:
    """The full text of a file the PR adds, rebuilt from its patch (saves one request).

    An added file's patch is one hunk `@@ -0,0 +1,N @@` of `+` lines; anything else (no patch,
    a truncated patch, a count mismatch) returns None and the file is read normally.
    """
    if changed.status != "added" or not changed.patch:
        return None
    lines = changed.patch.split("\n")
    header = _ADDED_HUNK.match(lines[0])
    if header is None:
        return None
    body, newline = lines[1:], True
    if body and body[-1] == _NO_NEWLINE:
        body, newline = body[:-1], False
    expected = int(header["count"]) if header["count"] is not None else 1
    if len(body) != expected or any(not line.startswith("+") for line in body):
        return None
    text = "\n".join(line[1:] for line in body)
    return text + "\n" if newline else text
