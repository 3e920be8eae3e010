"""File texts at named refs: default-branch policy files, master configs, benchmark scripts."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from github.GithubException import GithubException

from signoff.evidence import ChangedFile, FileRead, RefRole
from signoff.github.api import Api, error_status

_ADDED_HUNK = re.compile(r"^@@ -0,0 \+1(?:,(?P<count>\d+))? @@")
_NO_NEWLINE = "\\ No newline at end of file"


def read_file(api: Api, repo: str, path: str, ref: str, role: RefRole) -> FileRead:
    """One read: ok, missing (404), or unavailable with GitHub's answer as the reason."""
    folded = api.folded.get((repo, path, ref))
    read = _read_folded(api, folded, path, ref, role) if folded is not None else None
    return read if read is not None else _read_contents(api, repo, path, ref, role)


def _read_contents(api: Api, repo: str, path: str, ref: str, role: RefRole) -> FileRead:
    """One contents-API read (files up to 1 MB)."""
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
    prefetch_at(api, repo, [(path, ref) for path in paths])


@dataclass(frozen=True)
class Extra:
    """More fields for the repository of a texts query (`pull_graph` folds two lists in)."""

    decls: str  # variable declarations, each starting ", "
    fields: str  # fields inside `repository { }`, aliased
    variables: dict[str, object] = field(default_factory=dict)
    root: str = ""  # fields beside `repository` (`signoff_edits` folds the sign-off's node in)


Sent = tuple[str, dict[str, object]]  # a query and its variables


def prefetch_at(
    api: Api, repo: str, wanted: Iterable[tuple[str, str]], *, extra: Extra | None = None
) -> Sent | None:
    """Send the reads of (path, ref) pairs ahead: with `api.fold_texts`, TEXTS_PER_QUERY to a
    GraphQL query (`object(expression: "REF:PATH")`), else one contents request each.

    Send a stage's reads in one call: each call is a query of its own. `extra` rides in the
    first query (sent even with no texts); that query is returned (None: no `extra`).
    """
    pairs = [pair for pair in dict.fromkeys(wanted) if (repo, *pair) not in api.folded]
    if not api.fold_texts:
        for path, ref in pairs:
            api.prefetch_file(repo, path, ref)
        return None
    sent: Sent | None = None
    chunks = [
        pairs[start : start + TEXTS_PER_QUERY] for start in range(0, len(pairs), TEXTS_PER_QUERY)
    ]
    if extra is not None and not chunks:
        chunks = [[]]
    for number, chunk in enumerate(chunks):
        query, variables = _texts_query(repo, chunk, extra if number == 0 else None)
        api.prefetch_graphql(query, variables, item=check_texts)
        for index, (path, ref) in enumerate(chunk):
            api.folded[(repo, path, ref)] = (query, variables, f"f{index}")
        if number == 0 and extra is not None:
            sent = (query, variables)
    return sent


# Files per GraphQL query: a stage's policy files, master configs and scripts fit in one.
TEXTS_PER_QUERY = 20
_KIND = {"Tree": "directory", "Commit": "submodule"}  # what REST's contents API calls them


def _texts_query(repo: str, pairs: list[tuple[str, str]], extra: Extra | None) -> Sent:
    """One query for the texts of `pairs`: alias f<i> is pair i's object (null: no such file)."""
    owner, name = repo.split("/", 1)
    declared = "".join(f", $e{i}: String!" for i in range(len(pairs)))
    declared += extra.decls if extra is not None else ""
    fields = "".join(
        f"\n    f{i}: object(expression: $e{i}) {{ __typename ... on Blob "
        "{ text isBinary isTruncated } }"
        for i in range(len(pairs))
    )
    fields += extra.fields if extra is not None else ""
    root = extra.root if extra is not None else ""
    query = (
        f"query FileTexts($owner: String!, $name: String!{declared}) {{\n"
        f"  repository(owner: $owner, name: $name) {{{fields}\n  }}{root}\n}}"
    )
    variables: dict[str, object] = {"owner": owner, "name": name}
    variables.update({f"e{i}": f"{ref}:{path}" for i, (path, ref) in enumerate(pairs)})
    variables.update(extra.variables if extra is not None else {})
    return query, variables


def check_texts(data: object) -> None:
    """The answer's shape (GraphQL errors were raised before): each alias null or an object."""
    repository = data.get("data", {}).get("repository") if isinstance(data, dict) else None
    if repository is None:
        return  # (read as unavailable, per file)
    if not isinstance(repository, dict):
        raise ValueError("an answer whose `repository` is not an object")
    for node in repository.values():
        if node is None:
            continue
        if not isinstance(node, dict) or not isinstance(node.get("__typename"), str):
            raise ValueError("an answer with a file object lacking `__typename`")
        if node["__typename"] == "Blob" and not (
            isinstance(node.get("text"), (str, type(None)))
            and isinstance(node.get("isBinary"), bool)
            and isinstance(node.get("isTruncated"), bool)
        ):
            raise ValueError("an answer with a blob lacking `text`, `isBinary` or `isTruncated`")


def _read_folded(
    api: Api, folded: tuple[str, dict[str, object], str], path: str, ref: str, role: RefRole
) -> FileRead | None:
    """A file's read taken from the GraphQL answer it was folded into, as `read_file` reads;
    None for a text GitHub cut short (`Blob.text` stops at 512,000 bytes): read it again
    through the contents API, which serves files up to 1 MB whole; None too when a query with
    more folded in failed (the error may be the other part's)."""
    query, variables, alias = folded

    def unavailable(reason: str) -> FileRead:
        return FileRead(path=path, role=role, sha=ref, state="unavailable", reason=reason)

    try:
        data = api.graphql(query, dict(variables), item=check_texts)
    except GithubException as exc:
        if _carries_more(variables):
            # An error may be the folded-in part's (a sign-off deleted meanwhile): the file's
            # own read says what GitHub says of the file.
            return None
        return unavailable(f"GraphQL {_graphql_error(exc)}")
    repository = data.get("data", {}).get("repository")
    if not isinstance(repository, dict):
        return unavailable("GraphQL: the repository is not readable")
    node = repository.get(alias)
    if node is None:
        return FileRead(path=path, role=role, sha=ref, state="missing", reason="404 Not Found")
    kind = node["__typename"]
    if kind != "Blob":
        return unavailable(f"422 {path} is a {_KIND.get(kind, kind.lower())}")
    if node["isTruncated"]:
        return None
    if node["isBinary"] or node["text"] is None:
        return unavailable(f"{path} is not a text file (GraphQL `isBinary`)")
    return FileRead(path=path, role=role, sha=ref, text=node["text"])


def _carries_more(variables: dict[str, object]) -> bool:
    """Whether a texts query carries more than file objects (`Extra` variables)."""
    return any(key not in ("owner", "name") and not _TEXT_VARIABLE.match(key) for key in variables)


_TEXT_VARIABLE = re.compile(r"^e\d+$")


def _graphql_error(exc: GithubException) -> str:
    """`400 <first error's message>`: what GitHub's GraphQL said."""
    errors = exc.data.get("errors") if isinstance(exc.data, dict) else None
    first = errors[0] if isinstance(errors, list) and errors else None
    message = first.get("message") if isinstance(first, dict) else None
    return f"{exc.status} {' '.join(str(message or '').split())[:200]}".strip()


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
