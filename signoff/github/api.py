"""Raw REST reads through PyGithub's requester: checked JSON, all pages, file text, binary streams.

Gather never touches PyGithub objects: list items are "incomplete" objects that silently GET
themselves when a missing attribute is read, which would blow the request budget. Every read
goes through the client's requester (`signoff.github.client`), so retries, timeouts and auth stay
configured in one place. Answers are checked on arrival (`signoff.github.answers`): a body that
is not JSON or lacks what we read is asked for again, then ends the run as could-not-verify.

Reads that do not depend on each other can be sent ahead (`prefetch`) into a small pool; the
gathering thread later takes each answer at the point where it would otherwise have asked.
"""

from __future__ import annotations

import base64
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Literal, TypeVar
from urllib.parse import quote, urlencode

import requests
from github.GithubException import (
    GithubException,
    RateLimitExceededException,
    UnknownObjectException,
)
from pydantic import ValidationError

from signoff.errors import GatherError
from signoff.github import pool
from signoff.github.answers import Content
from signoff.github.client import (
    BACKOFF_FACTOR,
    MALFORMED_TRIES,
    Client,
    Connection,
    Deadline,
    MalformedAnswer,
    rate_limit_error,
    read_json,
)

JsonObject = dict[str, Any]
Check = Callable[[Any], object]  # raises ValidationError (or ValueError) for a malformed value
Headers = dict[str, Any]
PER_PAGE = 100
T = TypeVar("T")


def error_status(exc: GithubException) -> str:
    """`404 Not Found`-style text for a failed read, for evidence reasons."""
    message = ""
    if isinstance(exc.data, dict):
        message = str(exc.data.get("message") or "")
    return f"{exc.status} {message}".strip()


@dataclass(frozen=True)
class Expect:
    """What an answer must look like: anything JSON, an object, or a page of a list."""

    kind: Literal["any", "object", "page"] = "any"
    key: str | None = None  # a page's list is under this key of an object answer
    item: Check | None = None  # checks the answer, or each listed item


Key = tuple[str, str]


@dataclass(frozen=True)
class _Sent:
    """A read sent ahead: what its answer must look like, the answer to come, kept or taken once."""

    expect: Expect
    future: Future[tuple[Headers, Any]]
    keep: bool


class Api:
    """One gathering session: the requesters, a deadline, answers sent ahead, failure mapping.

    Use it as a context manager (or call `close()`) so reads sent ahead are waited for.
    """

    def __init__(
        self,
        gh: Connection,
        deadline: Deadline | None = None,
        *,
        workers: int = 0,
        fold_texts: bool = False,
    ) -> None:
        self._gh = gh
        self.deadline = deadline or Deadline()
        # File texts sent ahead go out as GraphQL queries of many files each (`files`); the
        # files folded so: (repo, path, ref) -> (query, variables, alias of its answer).
        self.fold_texts = fold_texts
        self.folded: dict[tuple[str, str, str], tuple[str, dict[str, Any], str]] = {}
        # REST lists folded into such a query too (`gather.pull_graph`): (kind, repo, key) ->
        # (query, variables).
        self.folded_reads: dict[tuple[str, str, str], tuple[str, dict[str, Any]]] = {}
        # Only our Client gives each thread its own requester; any other Connection reads inline.
        self._pool = pool.Pool((workers or pool.WORKERS) if isinstance(gh, Client) else 1)
        self._ahead: dict[Key, _Sent] = {}
        self._lock = threading.Lock()  # `_ahead` is read by tasks on worker threads too

    def __enter__(self) -> Api:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self._pool.close()

    # --- reading ahead ---------------------------------------------------------------------

    def start(self, task: Callable[..., T], *args: object) -> Future[T]:
        """Run an independent read (its own requests, in its own order) in the pool.

        A task may take answers sent ahead by `prefetch` before it was started (the pool starts
        reads in the order they were sent, so those are under way when the task runs), never
        answers it or anyone sends later: it could wait for a read queued behind itself. Two
        tasks must not read the same URL (replay answers in order).
        """
        return self._pool.start(task, *args)

    def prefetch(
        self,
        path: str,
        params: dict[str, Any] | None = None,
        *,
        item: Check | None = None,
        keep: bool = False,
    ) -> None:
        """Send `GET path` ahead; the next `get_object` of it takes this answer.

        `keep`: every later `get_object` of it takes the same answer (one snapshot per run).
        """
        self._send_ahead(path, params, Expect("object", item=item), keep)

    def prefetch_file(self, repo: str, path: str, ref: str) -> None:
        """Send the read of `file_text(repo, path, ref)` ahead."""
        self._send_ahead(contents_path(repo, path), {"ref": ref}, _CONTENT, False)

    def prefetch_pages(
        self,
        path: str,
        count: int,
        *,
        key: str | None = None,
        item: Check | None = None,
        keep: bool = False,
    ) -> None:
        """Send pages 1..count of a list ahead; `pages()` of the same list takes them in order."""
        for number in range(1, count + 1):
            self._send_ahead(path, page_params(number), Expect("page", key, item), keep)

    def _send_ahead(
        self, path: str, params: dict[str, Any] | None, expect: Expect, keep: bool
    ) -> None:
        key = _key(path, params)
        with self._lock:
            if key in self._ahead:
                return
        future = self._pool.start(self._fetch, path, params, expect)
        with self._lock:
            self._ahead.setdefault(key, _Sent(expect, future, keep))

    # --- reads -----------------------------------------------------------------------------

    def get(
        self, path: str, params: dict[str, Any] | None = None, *, item: Check | None = None
    ) -> Any:
        """One GET answered with JSON; GithubException for 4xx (callers decide), fatal otherwise."""
        return self._answer(path, params, Expect(item=item))[1]

    def get_object(
        self, path: str, params: dict[str, Any] | None = None, *, item: Check | None = None
    ) -> JsonObject:
        data = self._answer(path, params, Expect("object", item=item))[1]
        assert isinstance(data, dict)  # checked on arrival
        return data

    def pages(
        self,
        path: str,
        *,
        key: str | None = None,
        max_pages: int = 30,
        item: Check | None = None,
    ) -> list[JsonObject]:
        """Every item of a paginated list (per_page=100), page by page while GitHub links a next.

        `key` names the list inside an object answer (`check_runs`, `artifacts`). Pages are
        asked for by number (`?page=N&per_page=100`), so they can be sent ahead.
        """
        return self.bounded_pages(path, key=key, max_pages=max_pages, item=item)[0]

    def bounded_pages(
        self,
        path: str,
        *,
        key: str | None = None,
        max_pages: int = 30,
        item: Check | None = None,
    ) -> tuple[list[JsonObject], bool]:
        """`pages`, and whether the list was cut: GitHub linked a page past `max_pages`."""
        items: list[JsonObject] = []
        for number in range(1, max_pages + 1):
            headers, data = self._answer(path, page_params(number), Expect("page", key, item))
            items.extend(data if key is None else data[key])
            if 'rel="next"' not in str(headers.get("link", "")):
                return items, False
        return items, True

    def file_text(self, repo: str, path: str, ref: str) -> str | None:
        """A file's UTF-8 text at `ref`; None when it does not exist there (404)."""
        try:
            data = self._answer(contents_path(repo, path), {"ref": ref}, _CONTENT)[1]
        except UnknownObjectException:
            return None
        if isinstance(data, list) or data.get("type") != "file":
            kind = "directory" if isinstance(data, list) else data.get("type")
            raise GithubException(422, {"message": f"{path} is a {kind}"}, None)
        if data.get("encoding") != "base64":
            # Files over 1 MB come without content; the judge sees them as unavailable.
            raise GithubException(413, {"message": "file too large for the contents API"}, None)
        try:
            raw = base64.b64decode(str(data.get("content") or ""), validate=False)
        except ValueError:
            raise GithubException(
                422, {"message": f"{path}: content is not base64"}, None
            ) from None
        return raw.decode("utf-8", errors="replace")

    def stream(self, path: str, limit: int) -> bytes:
        """A binary download (following GitHub's 302 to a signed URL), at most `limit` bytes.

        Raises GithubException with the HTTP status for 4xx answers (410: expired artifact) and
        ValueError when the body exceeds `limit`.
        """
        self.deadline.check()
        try:
            _, _, chunks = self._gh.requester.getStream(path, chunk_size=65536)
            return _bounded(chunks, limit)
        except requests.HTTPError as exc:
            status = exc.response.status_code if exc.response is not None else 0
            if status >= 500:
                raise GatherError(f"could not verify: download {path} failed ({status})") from None
            raise GithubException(status, {"message": str(status)}, None) from None
        except RateLimitExceededException as exc:
            raise rate_limit_error(exc.headers) from None
        except (requests.RequestException, OSError) as exc:
            raise GatherError(f"could not verify: download {path} failed ({exc})") from None

    # --- one answer ------------------------------------------------------------------------

    def _answer(
        self, path: str, params: dict[str, Any] | None, expect: Expect
    ) -> tuple[Headers, Any]:
        key = _key(path, params)
        with self._lock:
            sent = self._ahead.get(key)
            if sent is not None and not sent.keep:
                del self._ahead[key]
        if sent is not None and sent.expect == expect:
            return sent.future.result()
        return self._fetch(path, params, expect)

    def _fetch(
        self, path: str, params: dict[str, Any] | None, expect: Expect
    ) -> tuple[Headers, Any]:
        """(headers, JSON) of one GET, checked; a malformed answer is asked for again."""
        return self._checked(
            lambda: self._guarded(path, lambda: read_json(self._gh.requester, "GET", path, params)),
            expect,
            f"GET {shown(path, params)}",
        )

    def prefetch_graphql(self, query: str, variables: dict[str, Any], *, item: Check) -> None:
        """Send a GraphQL query ahead; every later `graphql` of it takes the same answer."""
        key = _graphql_key(query, variables)
        expect = Expect("object", item=item)
        with self._lock:
            if key in self._ahead:
                return
        future = self._pool.start(self._graphql_fetch, query, variables, expect)
        with self._lock:
            self._ahead.setdefault(key, _Sent(expect, future, True))

    def graphql(self, query: str, variables: dict[str, Any], *, item: Check) -> JsonObject:
        """One GraphQL query, checked like a GET and asked again when malformed (it only reads,
        though it is sent as a POST). GraphQL's own errors stay GithubException (4xx)."""
        expect = Expect("object", item=item)
        with self._lock:
            sent = self._ahead.get(_graphql_key(query, variables))
        if sent is not None and sent.expect == expect:
            data = sent.future.result()[1]
        else:
            data = self._graphql_fetch(query, variables, expect)[1]
        assert isinstance(data, dict)  # checked on arrival
        return data

    def _graphql_fetch(
        self, query: str, variables: dict[str, Any], expect: Expect
    ) -> tuple[Headers, Any]:
        requester = self._gh.requester
        return self._checked(
            lambda: self._guarded("GraphQL", lambda: requester.graphql_query(query, variables)),
            expect,
            f"the GraphQL query {operation(query)}".rstrip(),
        )

    def _checked(
        self, send: Callable[[], tuple[Headers, Any]], expect: Expect, what: str
    ) -> tuple[Headers, Any]:
        """Rate limits, network failures, 5xx that survived the client's retries and answers that
        stay malformed become GatherError (could not verify); 4xx stay GithubException."""
        problem = ""
        for attempt in range(1, MALFORMED_TRIES + 1):
            self.deadline.check()
            try:
                headers, data = send()
                _check(data, expect)
                return headers, data
            except MalformedAnswer as exc:
                problem = exc.message or "malformed"
            except (ValidationError, ValueError) as exc:
                problem = _shape_problem(exc)
            if attempt < MALFORMED_TRIES:
                time.sleep(self._malformed_wait() * 2 ** (attempt - 1))
        raise GatherError(
            f"could not verify: GitHub answered {what} with {problem} ({MALFORMED_TRIES} tries)"
        )

    @staticmethod
    def _guarded(what: str, call: Callable[[], tuple[Headers, Any]]) -> tuple[Headers, Any]:
        """One request with GitHub's failures mapped: could not verify, but a 4xx is raised
        (callers decide what it means)."""
        try:
            return call()
        except RateLimitExceededException as exc:
            raise rate_limit_error(exc.headers) from None
        except MalformedAnswer:
            raise
        except (requests.RequestException, OSError) as exc:
            raise GatherError(f"could not verify: GitHub request {what} failed ({exc})") from None
        except GithubException as exc:
            if exc.status >= 500:
                raise GatherError(
                    f"could not verify: GitHub kept failing on {what} ({error_status(exc)})"
                ) from None
            raise

    def _malformed_wait(self) -> float:
        return float(getattr(self._gh.requester, "malformed_wait", BACKOFF_FACTOR))


def operation(query: str) -> str:
    """A GraphQL query's operation name (`query FileTexts(...)`: FileTexts), "" without one."""
    match = _OPERATION.match(query)
    return match.group(1) if match else ""


_OPERATION = re.compile(r"\s*query\s+(\w+)")


def page_params(number: int) -> dict[str, Any]:
    """Query of page `number` of a list (GitHub's first page needs no `page`)."""
    return {"per_page": PER_PAGE} if number == 1 else {"page": number, "per_page": PER_PAGE}


def contents_path(repo: str, path: str) -> str:
    """`/repos/{repo}/contents/{path}` with the path escaped (a name may hold `#`, `?`, `%`)."""
    return f"/repos/{repo}/contents/{quote(path, safe='/')}"


def shown(path: str, params: dict[str, Any] | None) -> str:
    """The request as a user can recognise it: path and query."""
    return f"{path}?{urlencode(sorted(params.items()))}" if params else path


def _key(path: str, params: dict[str, Any] | None) -> Key:
    return path, urlencode(sorted((params or {}).items()))


def _graphql_key(query: str, variables: dict[str, Any]) -> Key:
    return "POST /graphql " + query, json.dumps(variables, sort_keys=True)


def _check(data: Any, expect: Expect) -> None:
    if expect.kind == "object" and not isinstance(data, dict):
        raise ValueError("an answer that is not a JSON object")
    if expect.kind != "page":
        if expect.item is not None:
            expect.item(data)
        return
    chunk = data.get(expect.key) if expect.key is not None and isinstance(data, dict) else data
    if not isinstance(chunk, list):
        where = f"`{expect.key}` list" if expect.key else "list"
        raise ValueError(f"an answer without its {where}")
    for entry in chunk:
        if not isinstance(entry, dict):
            raise ValueError("a list entry that is not an object")
        if expect.item is not None:
            expect.item(entry)


def _file_or_directory(data: Any) -> None:
    """A contents answer: a file object, or a list (the path is a directory)."""
    if not isinstance(data, list):
        Content.model_validate(data)


_CONTENT = Expect(item=_file_or_directory)


def _shape_problem(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the answer"
        return f"an answer lacking what signoff reads (`{where}`: {first['msg']})"
    return str(exc)


def _bounded(chunks: Iterator[bytes], limit: int) -> bytes:
    buffer = bytearray()
    for chunk in chunks:
        buffer.extend(chunk)
        if len(buffer) > limit:
            raise ValueError(f"larger than {limit // (1024 * 1024)} MB")
    return bytes(buffer)
