"""An HTTP cache under PyGithub for audits: immutable answers by SHA, ETag revalidation for the
rest, kept on disk so a second (or an interrupted) run asks GitHub for little.

It sits in the `requests` transport that PyGithub's Requester uses (a `HTTPAdapter` subclass,
installed through PyGithub's connection-class hook), so every GitHub call stays a PyGithub call.
Rules, and why they are not RFC 7234's (which CacheControl implements):

- Every entry belongs to one origin: the API base URL of a live run, or the identity of a
  recording that is replayed. The origin is part of the key and is written into the entry, so
  an answer one server (or one recording) gave can never answer for another, even when both
  share a folder and the same URLs (a replayed demo and the real api.github.com do).
- Served from disk without asking, because the URL itself names immutable content: a commit, a
  tree or a blob by SHA, a compare of two SHAs and a file's contents at a SHA (a git SHA is the
  hash of what it names; a 404 there is final too: the path is absent from that fixed tree).
  The files and commits of a merged PR are keyed by the head SHA the PR listing gave this run
  as well: a merged PR's head can no longer move, and an entry written for another head (a
  different server's, or a recording's, PR of the same number) is a different key, a miss.
- Anything else is revalidated with `If-None-Match`; a 304 costs nothing against the rate limit.
  GitHub's `max-age=60` is ignored: serving stale lists by the clock would make two runs, or
  the same run at two speeds, read different data and spend a different number of requests.
- Also served unasked: an artifact's zip by its id (an artifact's content never changes once
  uploaded), and a comment's edit history (GraphQL) pinned to the `updated_at` the comment's
  REST listing gave this run (an edit moves `updated_at`, so the same instant means the same
  history). A zip is kept only when it opens and its CRCs check; an edit history only when
  GraphQL answered data and no error.
- Every entry carries its body's length and SHA-256: a truncated or altered file is a miss and
  is fetched again, never an answer.
- Reads fixed by their URL (all of the above) are shared by every PR of a run and fetched once
  (one flight per key): they are charged to `FIXED`, not to the PR that happened to ask first,
  so a PR's own count stays the same whatever `--jobs` is. Anything else is reused within one
  owner (one PR) only: an entry another PR wrote during this run is used by the next run.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import tempfile
import threading
import zipfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urljoin, urlsplit

import requests
from github.Requester import (
    HTTPRequestsConnectionClass,
    HTTPSRequestsConnectionClass,
    Requester,
)
from requests.adapters import HTTPAdapter
from requests.structures import CaseInsensitiveDict
from requests.utils import get_encoding_from_headers

from signoff.audit.budget import FIXED, Meter, current_owner
from signoff.gather.evals import MAX_ZIP_BYTES
from signoff.gather.signoff_edits import QUERY as EDITS_QUERY

_SHA = r"[0-9a-f]{40}"
_IMMUTABLE_PATHS = tuple(
    re.compile(pattern)
    for pattern in (
        rf"^/repos/[^/]+/[^/]+/commits/{_SHA}$",
        rf"^/repos/[^/]+/[^/]+/git/(?:trees|blobs|commits)/{_SHA}$",
        rf"^/repos/[^/]+/[^/]+/compare/{_SHA}\.\.\.{_SHA}$",
    )
)
_CONTENTS = re.compile(r"^/repos/[^/]+/[^/]+/contents(?:/.*)?$")
_ARTIFACT_ZIP = re.compile(r"^/repos/[^/]+/[^/]+/actions/artifacts/[0-9]+/zip$")
_GRAPHQL = ("/graphql", "/api/graphql")
_CACHED_STATUSES = (200, 404)


@dataclass(frozen=True)
class Entry:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def etag(self) -> str:
        return self.headers.get("etag") or self.headers.get("ETag") or ""


def api_path(url: str) -> str:
    path = urlsplit(url).path
    return path.removeprefix("/api/v3")


def is_immutable(url: str, frozen: Mapping[str, str] | frozenset[str]) -> bool:
    """Whether the answer to this GET can never change (see the module docstring)."""
    parts = urlsplit(url)
    path = api_path(url)
    if any(pattern.match(path) for pattern in _IMMUTABLE_PATHS):
        return True
    if _CONTENTS.match(path):
        return bool(re.fullmatch(_SHA, (parse_qs(parts.query).get("ref") or [""])[0]))
    return path in frozen


def is_artifact_zip(url: str) -> bool:
    return bool(_ARTIFACT_ZIP.match(api_path(url)))


def edits_node(request: requests.PreparedRequest) -> str:
    """The node id of an edit-history query (gather.signoff_edits), "" for any other request."""
    body = request.body
    if request.method != "POST" or urlsplit(str(request.url)).path not in _GRAPHQL:
        return ""
    if not isinstance(body, (str, bytes)):
        return ""
    try:
        payload = json.loads(body)
    except (ValueError, TypeError):
        return ""
    if not isinstance(payload, dict) or payload.get("query") != EDITS_QUERY:
        return ""
    variables = payload.get("variables")
    node = variables.get("id") if isinstance(variables, dict) else None
    return node if isinstance(node, str) else ""


def replay_origin(cassette: str | Path) -> str:
    """The origin of a replayed recording: its bytes' digest, so two recordings never share."""
    digest = hashlib.sha256(Path(cassette).read_bytes()).hexdigest()
    return f"recording sha256:{digest}"


def live_origin(api_url: str) -> str:
    """The origin of a live run: the API base URL, without a trailing slash."""
    return f"api {api_url.rstrip('/')}"


class HttpCache:
    """Entries on disk (one file each, written atomically), plus this run's bookkeeping.

    `origin` names the server or recording every answer comes from (`live_origin`,
    `replay_origin`); entries of any other origin in the same folder are never read.
    """

    def __init__(self, directory: Path, origin: str) -> None:
        if not origin:
            raise ValueError("an HTTP cache needs the origin of its answers")
        self.directory = directory
        self.origin = origin
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._lock = threading.Lock()
        self._written: dict[str, str] = {}  # key -> owner that wrote it during this run
        self._memo: dict[str, dict[str, Entry]] = {}  # owner -> key -> entry
        self._frozen: dict[str, str] = {}  # API path of a merged PR's list -> its head SHA
        self._edited: dict[str, str] = {}  # a comment's node id -> its listed updated_at
        self._flights: dict[str, threading.Lock] = {}  # key -> held while one owner fetches it

    def freeze(self, head_sha: str, *paths: str) -> None:
        """Mark list paths immutable: the files and commits of a PR merged at `head_sha`."""
        if not re.fullmatch(_SHA, head_sha):
            return  # no head to pin them to: they stay revalidated
        with self._lock:
            self._frozen.update(dict.fromkeys(paths, head_sha))

    def frozen(self) -> Mapping[str, str]:
        with self._lock:
            return dict(self._frozen)

    def pin_edits(self, node_id: str, updated_at: str) -> None:
        """A comment's edit history is fixed while its `updated_at` is this (from its listing)."""
        if node_id and updated_at:
            with self._lock:
                self._edited[node_id] = updated_at

    def edits_pin(self, node_id: str) -> str:
        with self._lock:
            return self._edited.get(node_id, "") if node_id else ""

    def key(self, request: requests.PreparedRequest) -> str:
        """One entry per origin, URL, media type, the pin (a merged PR's lists: the head SHA; an
        edit history: the comment's updated_at) and a GraphQL query's body."""
        accept = str(request.headers.get("Accept", ""))
        node = edits_node(request)
        with self._lock:
            path = api_path(str(request.url))
            pin = self._edited.get(node, "") if node else self._frozen.get(path, "")
        body = request.body if node else b""
        digest = hashlib.sha256(body if isinstance(body, bytes) else str(body).encode()).hexdigest()
        text = f"{self.origin}\n{request.method}\n{request.url}\n{accept}\n{pin}\n{digest}"
        return hashlib.sha256(text.encode()).hexdigest()

    @contextmanager
    def flight(self, key: str) -> Iterator[None]:
        """Held while one owner fetches a fixed read, so others wait for its answer."""
        with self._lock:
            lock = self._flights.setdefault(key, threading.Lock())
        with lock:
            yield

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.entry"

    def recall(self, owner: str, key: str) -> Entry | None:
        """This owner's own answer from earlier in the run."""
        with self._lock:
            return self._memo.get(owner, {}).get(key)

    def remember(self, owner: str, key: str, entry: Entry) -> None:
        with self._lock:
            self._memo.setdefault(owner, {})[key] = entry

    def forget(self, owner: str) -> None:
        """Drop an owner's in-memory answers once its PR is done."""
        with self._lock:
            self._memo.pop(owner, None)

    def load(self, owner: str, key: str, *, shared: bool = False) -> Entry | None:
        """The entry on disk, unless another owner wrote it during this run (a `shared`, fixed
        read is anyone's). A file whose body is not the length and digest it was written with
        (truncated, altered) is a miss."""
        if not shared and not self._readable_by(owner, key):
            return None
        try:
            raw = self._path(key).read_bytes()
        except OSError:
            return None
        if not shared and not self._readable_by(owner, key):  # another owner wrote it meanwhile
            return None
        head, _, body = raw.partition(b"\n")
        try:
            meta = json.loads(head)
            if meta["origin"] != self.origin or meta["key"] != key:
                return None  # another origin's answer is never ours, whatever its name
            if meta["length"] != len(body) or meta["sha256"] != hashlib.sha256(body).hexdigest():
                return None  # cut short or altered on disk
            return Entry(int(meta["status"]), dict(meta["headers"]), body)
        except (ValueError, KeyError, TypeError):
            return None  # a torn or foreign file is a miss, never an answer

    def _readable_by(self, owner: str, key: str) -> bool:
        with self._lock:
            writer = self._written.get(key)
        return writer is None or writer == owner

    def store(self, owner: str, key: str, entry: Entry) -> None:
        # Mark the key first: another owner must never see the file between the write and the
        # mark and take it for an entry of an earlier run.
        with self._lock:
            self._written[key] = owner
        path = self._path(key)
        path.parent.mkdir(exist_ok=True, mode=0o700)
        meta = {
            "headers": entry.headers,
            "key": key,
            "length": len(entry.body),
            "origin": self.origin,
            "sha256": hashlib.sha256(entry.body).hexdigest(),
            "status": entry.status,
        }
        head = json.dumps(meta, sort_keys=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(handle, "wb") as out:
            out.write(head.encode() + b"\n" + entry.body)
        os.replace(temporary, path)


class CachingAdapter(HTTPAdapter):
    """PyGithub's transport with the audit cache and request accounting in front of it."""

    def __init__(
        self, cache: HttpCache, meter: Meter, *, serial: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.cache, self.meter = cache, meter
        # Replaying a recording: vcrpy's bookkeeping of played answers is not thread-safe, so
        # one request at a time (the audit's own work still runs on --jobs workers).
        self._serial = threading.Lock() if serial else None

    def send(
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: Any = None,
        verify: bool | str = True,
        cert: Any = None,
        proxies: Mapping[str, str] | None = None,
    ) -> requests.Response:
        kwargs = {"stream": stream, "timeout": timeout, "verify": verify, "cert": cert}
        kwargs["proxies"] = proxies
        url = str(request.url)
        if request.method == "GET" and is_artifact_zip(url):  # (PyGithub never asks to stream)
            return self._fixed(request, self._download_zip, **kwargs)
        if request.method == "POST" and self.cache.edits_pin(edits_node(request)):
            return self._fixed(request, self._network, **kwargs)
        if request.method != "GET" or stream:
            # Writes, other downloads and unpinned GraphQL queries: never cached, always counted.
            return self._network(request, **kwargs)
        if is_immutable(url, self.cache.frozen()):
            return self._fixed(request, self._network, **kwargs)
        owner, key = current_owner.get(), self.cache.key(request)
        entry = self.cache.recall(owner, key)
        if entry is None:
            entry = self.cache.load(owner, key)
            if entry is not None:
                return self._revalidate(request, owner, key, entry, **kwargs)
            return self._fetch(request, owner, key, **kwargs)
        self.meter.hit()
        return _response(request, entry)

    def _fixed(
        self,
        request: requests.PreparedRequest,
        send: Callable[..., requests.Response],
        **kwargs: Any,
    ) -> requests.Response:
        """A read fixed by its URL: from this owner's memory or the disk, else fetched once for
        the whole run (other owners asking meanwhile wait for that answer) and charged to FIXED."""
        owner, key = current_owner.get(), self.cache.key(request)
        entry = self.cache.recall(owner, key) or self.cache.load(owner, key, shared=True)
        if entry is None:
            with self.cache.flight(key):
                entry = self.cache.load(owner, key, shared=True)
                if entry is None:
                    token = current_owner.set(FIXED)
                    try:
                        response = send(request, **kwargs)
                    finally:
                        current_owner.reset(token)
                    return self._keep(owner, key, response, fixed=True)
        self.meter.hit()
        self.cache.remember(owner, key, entry)
        return _response(request, entry)

    def _download_zip(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        """An artifact's zip, following GitHub's 302 to its signed URL here (so the bytes can be
        kept under the artifact's id), without the token when the URL is on another host, and
        read to at most one byte past MAX_ZIP_BYTES (the reader refuses bigger ones)."""
        response = self._network(request, **kwargs)
        if response.is_redirect and response.headers.get("Location"):
            location = urljoin(str(request.url), str(response.headers["Location"]))
            response.close()
            headers = {
                name: value
                for name, value in request.headers.items()
                if name.lower() != "authorization"
                or urlsplit(location).netloc == urlsplit(str(request.url)).netloc
            }
            follow = requests.Request("GET", location, headers=headers).prepare()
            # Streamed, so a zip past the bound is cut there instead of read into memory whole.
            response = self._network(follow, **{**kwargs, "stream": True})
        if response.status_code != 200:
            return response
        body = bytearray()
        for chunk in response.iter_content(65536):
            body.extend(chunk)
            if len(body) > MAX_ZIP_BYTES:
                break
        response.close()
        kept = bytes(body[: MAX_ZIP_BYTES + 1])
        return _response(request, Entry(200, dict(response.headers), kept))

    def _revalidate(
        self, request: requests.PreparedRequest, owner: str, key: str, entry: Entry, **kwargs: Any
    ) -> requests.Response:
        if entry.etag:
            request.headers["If-None-Match"] = entry.etag
        response = self._network(request, **kwargs)
        if response.status_code == 304:
            self.cache.remember(owner, key, entry)
            return _response(request, entry)
        return self._keep(owner, key, response)

    def _fetch(
        self, request: requests.PreparedRequest, owner: str, key: str, **kwargs: Any
    ) -> requests.Response:
        return self._keep(owner, key, self._network(request, **kwargs))

    def _keep(
        self, owner: str, key: str, response: requests.Response, *, fixed: bool = False
    ) -> requests.Response:
        if response.status_code == 200:
            cacheable = _complete(response)
        else:  # a missing file at a SHA is final; a missing zip or a query's failure may not be
            cacheable = fixed and response.status_code in _CACHED_STATUSES and _is_read(response)
        if cacheable:
            entry = Entry(response.status_code, dict(response.headers), response.content)
            self.cache.store(owner, key, entry)
            self.cache.remember(owner, key, entry)
        return response

    def _network(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        if self._serial is not None:
            with self._serial:
                response = self._replayed(request, **kwargs)
        else:
            response = super().send(request, **kwargs)
        retries = getattr(getattr(response.raw, "retries", None), "history", ()) or ()
        self.meter.sent(response.status_code, 1 + len(retries), response.headers)
        return response

    def _replayed(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        """A recorded answer; one the recording lacks is a request GitHub never answered (a
        recording of a lost connection holds nothing for it)."""
        from vcr.errors import CannotOverwriteExistingCassetteException

        try:
            return super().send(request, **kwargs)
        except CannotOverwriteExistingCassetteException:
            raise requests.ConnectionError(
                f"the recording has no answer for GET {request.url}"
            ) from None


def _is_query(response: requests.Response) -> bool:
    return response.request is not None and response.request.method == "POST"


def _is_read(response: requests.Response) -> bool:
    """A REST read by URL (not a query, not a download)."""
    return not _is_query(response) and not is_artifact_zip(str(response.url))


def _complete(response: requests.Response) -> bool:
    """Whether a 200 is whole enough to keep: a zip that opens and whose CRCs check, a GraphQL
    answer with data and no error, JSON that parses. Anything else is passed on, not kept (the
    reader asks again, and a later run fetches it again)."""
    body = response.content
    if is_artifact_zip(str(response.url)):
        return len(body) <= MAX_ZIP_BYTES and _whole_zip(body)
    if "json" not in str(response.headers.get("Content-Type", "json")):
        return True
    try:
        data = json.loads(body)
    except ValueError:
        return False
    if _is_query(response):
        return isinstance(data, dict) and bool(data.get("data")) and not data.get("errors")
    return True


def _whole_zip(body: bytes) -> bool:
    try:
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            return archive.testzip() is None
    except (zipfile.BadZipFile, ValueError, OSError, NotImplementedError, EOFError):
        return False


def _response(request: requests.PreparedRequest, entry: Entry) -> requests.Response:
    """A `requests.Response` built from a cache entry, as PyGithub expects to read it."""
    response = requests.Response()
    response.status_code = entry.status
    response.headers = CaseInsensitiveDict(entry.headers)
    response._content = entry.body
    response._content_consumed = True
    response.encoding = get_encoding_from_headers(response.headers)
    response.url = str(request.url)
    response.request = request
    return response


@contextmanager
def installed(adapter: CachingAdapter) -> Iterator[None]:
    """Make every PyGithub client created inside this block send through `adapter`.

    PyGithub's hook replaces its connection classes process-wide; ours share one session (one
    connection pool) and are removed again when the block ends.
    """
    session = requests.Session()
    session.auth = Requester.noopAuth
    session.mount("https://", adapter)
    session.mount("http://", adapter)

    class _Https(HTTPSRequestsConnectionClass):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.session.close()
            self.session = session

        def close(self) -> None:  # the shared session outlives each connection object
            pass

    class _Http(HTTPRequestsConnectionClass):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.session.close()
            self.session = session

        def close(self) -> None:
            pass

    Requester.injectConnectionClasses(_Http, _Https)
    try:
        yield
    finally:
        Requester.resetConnectionClasses()
        session.close()
