"""An in-process fake of the few GitHub routes publishing uses, at PyGithub's HTTP connection.

PyGithub's own `Requester.injectConnectionClasses` hook swaps the HTTP connection, so the whole
client stack (JSON decoding, error mapping, `PaginatedList`) runs for real against this state:
conversation comments, reviews and review comments of one PR, and commit statuses. A `Turnstile`
lets racing publisher threads take turns request by request in a seeded random order, so every
interleaving is reproducible (no sleeps, no OS-scheduling luck).
"""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from github import Github
from github.Requester import Requester

from signoff.github.client import connect

API = "https://api.github.com"
BOT = "github-actions[bot]"  # who an installation token writes as (GET /user answers 403)


@dataclass
class FakeState:
    """One PR's comments of the three sign-off kinds, plus the commit statuses written."""

    repo: str
    pr: int
    comments: list[dict[str, Any]] = field(default_factory=list)
    reviews: list[dict[str, Any]] = field(default_factory=list)
    review_comments: list[dict[str, Any]] = field(default_factory=list)
    statuses: list[dict[str, Any]] = field(default_factory=list)
    writes: list[tuple[str, str]] = field(default_factory=list)  # (thread, "VERB path")
    # GraphQL: node id -> (author, editors newest first as userContentEdits lists them)
    edits: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    graphql_queries: int = 0
    head_sha: str = "c0ffee" + "a" * 34  # what GET pulls/{n} answers (nothing else of the PR)
    user_answer: tuple[int, Any] = (403, {"message": "Forbidden"})  # GET /user (an App token)
    writer: str = BOT  # who the comments POSTed are by (a GitHub App's token: `<slug>[bot]`)
    # "VERB path" -> how many of its next answers are cut short (a 200 whose JSON breaks off)
    cut_short: dict[str, int] = field(default_factory=dict)
    next_id: int = 5_000_000_000
    clock: int = 0  # seconds after 2026-11-21T00:00:00Z: every write is a tick later

    def now(self) -> str:
        self.clock += 1
        return f"2026-11-21T{self.clock // 3600:02d}:{self.clock // 60 % 60:02d}:{self.clock % 60:02d}Z"

    def add_comment(
        self, ident: int, author: str, body: str, created_at: str, association: str
    ) -> None:
        self.comments.append(self._comment(ident, author, body, created_at, association))

    def _comment(
        self, ident: int, author: str, body: str, created_at: str, association: str
    ) -> dict[str, Any]:
        kind = "Bot" if author.endswith("[bot]") else "User"
        return {
            "id": ident,
            "node_id": f"IC_{ident}",
            "user": {"login": author, "type": kind, "id": abs(hash(author)) % 10**8},
            "author_association": association,
            "body": body,
            "created_at": created_at,
            "updated_at": created_at,
            "html_url": f"https://github.com/{self.repo}/pull/{self.pr}#issuecomment-{ident}",
            "issue_url": f"{API}/repos/{self.repo}/issues/{self.pr}",
        }

    def ours(self, sha_marker: str) -> list[dict[str, Any]]:
        return [
            c
            for c in self.comments
            if c["user"]["login"] == BOT and c["body"].lstrip().startswith(sha_marker)
        ]


class Turnstile:
    """Racing threads take turns at each request; the next one is drawn from a seeded RNG once
    every live thread is waiting, so a seed fixes the interleaving."""

    def __init__(self, names: list[str], seed: int) -> None:
        self._rng = random.Random(seed)
        self._cond = threading.Condition()
        self._alive = set(names)
        self._waiting: set[str] = set()
        self._turn: str | None = None

    def enter(self) -> None:
        me = threading.current_thread().name
        with self._cond:
            if me not in self._alive:
                return  # not a racing thread (setup, assertions)
            self._waiting.add(me)
            self._pick()
            self._cond.wait_for(lambda: self._turn == me)
            self._waiting.discard(me)

    def leave(self) -> None:
        with self._cond:
            if self._turn == threading.current_thread().name:
                self._turn = None
                self._pick()

    def finished(self) -> None:
        with self._cond:
            self._alive.discard(threading.current_thread().name)
            self._pick()

    def _pick(self) -> None:
        if self._turn is None and self._waiting and self._waiting == self._alive:
            self._turn = self._rng.choice(sorted(self._waiting))
            self._cond.notify_all()


class _Response:
    def __init__(self, status: int, data: Any, *, cut: bool = False, link: str = "") -> None:
        self.status, self.data, self.cut = status, data, cut
        self._text: str | None = None  # written on the first read: a list is paged first
        self._headers = {"content-type": "application/json; charset=utf-8"}
        if link:
            self._headers["link"] = link

    def getheaders(self) -> Any:
        return self._headers.items()

    def read(self) -> str:
        if self._text is None:
            text = "" if self.data is None else json.dumps(self.data)
            self._text = text[: len(text) // 2] if self.cut else text
        return self._text


def _paged(response: _Response, query: dict[str, list[str]]) -> _Response:
    """A list answer cut to the page asked for (`page`, `per_page`), with GitHub's next link."""
    if "per_page" not in query or response.status != 200:
        return response
    items = response.data
    if response.cut or not isinstance(items, list):  # an answer cut short stays cut short
        return response
    page, size = int(query.get("page", ["1"])[0]), int(query["per_page"][0])
    more = len(items) > page * size
    link = f'<{API}/next?page={page + 1}>; rel="next"' if more else ""
    return _Response(200, items[(page - 1) * size : page * size], link=link)


class FakeGitHub:
    """Routes one request against the state; anything unknown is a 404 (the test fails loudly)."""

    def __init__(self, state: FakeState, turnstile: Turnstile | None = None) -> None:
        self.state = state
        self.turnstile = turnstile
        self._lock = threading.Lock()
        base = f"/repos/{state.repo}"
        self._routes: list[tuple[str, re.Pattern[str], Any]] = [
            ("GET", re.compile(r"/user"), lambda m, body: self.state.user_answer),
            ("GET", re.compile(rf"{base}/pulls/{state.pr}"), self._pull),
            ("GET", re.compile(rf"{base}/issues/comments/(\d+)"), self._get_comment),
            ("GET", re.compile(rf"{base}/issues/{state.pr}/comments"), self._list_comments),
            ("GET", re.compile(rf"{base}/pulls/{state.pr}/reviews"), self._list("reviews")),
            (
                "GET",
                re.compile(rf"{base}/pulls/{state.pr}/comments"),
                self._list("review_comments"),
            ),
            ("POST", re.compile(rf"{base}/issues/{state.pr}/comments"), self._create),
            ("PATCH", re.compile(rf"{base}/issues/comments/(\d+)"), self._update),
            ("DELETE", re.compile(rf"{base}/issues/comments/(\d+)"), self._delete),
            ("POST", re.compile(rf"{base}/statuses/([0-9a-f]{{40}})"), self._status),
            ("POST", re.compile(r"/graphql"), self._graphql),
        ]

    def handle(self, verb: str, url: str, body: str | None) -> _Response:
        if self.turnstile is not None:
            self.turnstile.enter()
        try:
            with self._lock:
                path, _, query = url.partition("?")
                response = self._route(verb, path.removeprefix(API), body)
                if verb == "GET":
                    response = _paged(response, parse_qs(query))
                response.read()  # the body as the state is now, under the lock
                return response
        finally:
            if self.turnstile is not None:
                self.turnstile.leave()

    def _route(self, verb: str, path: str, body: str | None) -> _Response:
        payload = json.loads(body) if body else {}
        for method, pattern, handler in self._routes:
            match = pattern.fullmatch(path)
            if method == verb and match:
                if verb != "GET" and path != "/graphql":
                    self.state.writes.append((threading.current_thread().name, f"{verb} {path}"))
                status, data = handler(match, payload)
                return _Response(status, data, cut=self._cut(f"{verb} {path}"))
        return _Response(404, {"message": f"Not Found: {verb} {path}"})

    def _cut(self, request: str) -> bool:
        left = self.state.cut_short.get(request, 0)
        if left:
            self.state.cut_short[request] = left - 1
        return left > 0

    def _pull(self, match: re.Match[str], body: dict[str, Any]) -> tuple[int, Any]:
        # The fields gather's strict answer shape requires (GitHub always sends them).
        base = {"ref": "main", "sha": "1" * 40, "repo": {"default_branch": "main"}}
        return 200, {
            "number": self.state.pr,
            "state": "open",
            "head": {"ref": "feature", "sha": self.state.head_sha},
            "base": base,
            "changed_files": 0,
            "commits": 0,
            "comments": 0,
        }

    def _get_comment(self, match: re.Match[str], body: dict[str, Any]) -> tuple[int, Any]:
        comment = self._find(int(match.group(1)))
        return (200, comment) if comment is not None else (404, {"message": "Not Found"})

    def _list_comments(self, match: re.Match[str], body: dict[str, Any]) -> tuple[int, Any]:
        return 200, [dict(c) for c in self.state.comments]

    def _list(self, key: str) -> Any:
        return lambda match, body: (200, [dict(c) for c in getattr(self.state, key)])

    def _create(self, match: re.Match[str], body: dict[str, Any]) -> tuple[int, Any]:
        self.state.next_id += 1
        comment = self.state._comment(
            self.state.next_id, self.state.writer, body["body"], self.state.now(), "NONE"
        )
        self.state.comments.append(comment)
        return 201, comment

    def _update(self, match: re.Match[str], body: dict[str, Any]) -> tuple[int, Any]:
        comment = self._find(int(match.group(1)))
        if comment is None:
            return 404, {"message": "Not Found"}
        comment.update(body=body["body"], updated_at=self.state.now())
        return 200, comment

    def _delete(self, match: re.Match[str], body: dict[str, Any]) -> tuple[int, Any]:
        comment = self._find(int(match.group(1)))
        if comment is None:
            return 404, {"message": "Not Found"}
        self.state.comments.remove(comment)
        return 204, None

    def _status(self, match: re.Match[str], body: dict[str, Any]) -> tuple[int, Any]:
        status = {**body, "sha": match.group(1), "created_at": self.state.now()}
        self.state.statuses.append(status)
        return 201, status

    def _graphql(self, match: re.Match[str], body: dict[str, Any]) -> tuple[int, Any]:
        """The sign-off edit-history query only: one page of `userContentEdits`."""
        self.state.graphql_queries += 1
        variables = body.get("variables") or {}
        node_id = variables.get("id")
        if node_id not in self.state.edits:
            return 200, {"data": {"node": None}, "errors": [{"type": "NOT_FOUND", "message": "x"}]}
        author, editors = self.state.edits[node_id]
        start = int(variables.get("after") or 0)
        page = editors[start : start + int(variables["first"])]
        end = start + len(page)
        node = {
            "__typename": "IssueComment",
            "author": {"login": author},
            "lastEditedAt": "2026-11-21T00:00:00Z" if editors else None,
            "editor": {"login": editors[0]} if editors else None,
            "userContentEdits": {
                "totalCount": len(editors),
                "pageInfo": {"hasNextPage": end < len(editors), "endCursor": str(end)},
                "nodes": [
                    {"editedAt": "2026-11-21T00:00:00Z", "editor": {"login": e}} for e in page
                ],
            },
        }
        return 200, {"data": {"node": node}}

    def _find(self, ident: int) -> dict[str, Any] | None:
        return next((c for c in self.state.comments if c["id"] == ident), None)


@contextmanager
def fake_github(server: FakeGitHub) -> Iterator[None]:
    """Every `Github` made inside talks to `server` (PyGithub's connection-injection hook)."""

    class Connection:
        def __init__(self, host: str, port: int | None = None, **kwargs: Any) -> None:
            self.host, self.port = host, port

        def request(
            self, verb: str, url: str, body: str | None, headers: Any, stream: bool = False
        ) -> None:
            self._response = server.handle(verb, url, body)

        def getresponse(self) -> _Response:
            return self._response

        def close(self) -> None:
            pass

    Requester.injectConnectionClasses(Connection, Connection)  # type: ignore[arg-type]
    try:
        yield
    finally:
        Requester.resetConnectionClasses()


def client() -> Github:
    """A client configured as in production tests (no waits), for use inside `fake_github`."""
    return connect("fake-token", API, mode="test")
