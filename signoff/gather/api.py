"""Raw REST reads through PyGithub's requester: JSON, all pages, file text, and binary streams.

Gather never touches PyGithub objects: list items are "incomplete" objects that silently GET
themselves when a missing attribute is read, which would blow the request budget. Every read
goes through `Requester.requestJsonAndCheck` / `getStream`, so retries, timeouts and auth stay
configured in one place (`signoff.client`).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from typing import Any

import requests
from github import Github
from github.GithubException import (
    GithubException,
    RateLimitExceededException,
    UnknownObjectException,
)

from signoff.client import Deadline, rate_limit_error
from signoff.errors import GatherError

_NEXT = re.compile(r'<([^>]+)>;\s*rel="next"')
JsonObject = dict[str, Any]


def error_status(exc: GithubException) -> str:
    """`404 Not Found`-style text for a failed read, for evidence reasons."""
    message = ""
    if isinstance(exc.data, dict):
        message = str(exc.data.get("message") or "")
    return f"{exc.status} {message}".strip()


class Api:
    """One gathering session: a requester, a deadline, and the mapping of fatal failures."""

    def __init__(self, gh: Github, deadline: Deadline | None = None) -> None:
        self._requester = gh.requester
        self.deadline = deadline or Deadline()

    def get(self, path: str, params: dict[str, Any] | None = None) -> Any:
        """One GET answered with JSON; GithubException for 4xx (callers decide), fatal otherwise."""
        return self._request(path, params)[1]

    def get_object(self, path: str, params: dict[str, Any] | None = None) -> JsonObject:
        data = self.get(path, params)
        if not isinstance(data, dict):
            raise GatherError(f"could not verify: unexpected answer shape from {path}")
        return data

    def pages(self, path: str, *, key: str | None = None, max_pages: int = 30) -> list[JsonObject]:
        """Every item of a paginated list (per_page=100), following GitHub's `Link: rel="next"`.

        `key` names the list inside an object answer (`check_runs`, `artifacts`).
        """
        items: list[JsonObject] = []
        url: str | None = path
        params: dict[str, Any] | None = {"per_page": 100}
        for _ in range(max_pages):
            if url is None:
                break
            headers, data = self._request(url, params)
            chunk = data.get(key, []) if key is not None and isinstance(data, dict) else data
            if not isinstance(chunk, list):
                raise GatherError(f"could not verify: unexpected answer shape from {path}")
            items.extend(item for item in chunk if isinstance(item, dict))
            match = _NEXT.search(str(headers.get("link", "")))
            url, params = (match.group(1), None) if match else (None, None)
        return items

    def _request(self, url: str, params: dict[str, Any] | None) -> tuple[dict[str, Any], Any]:
        """(headers, JSON) of one GET; rate limits, network failures and 5xx that survived the
        client's retries become GatherError (could not verify), 4xx stay GithubException."""
        self.deadline.check()
        try:
            return self._requester.requestJsonAndCheck("GET", url, parameters=params)
        except RateLimitExceededException as exc:
            raise rate_limit_error(exc.headers) from None
        except (requests.RequestException, OSError) as exc:
            raise GatherError(f"could not verify: GitHub request {url} failed ({exc})") from None
        except GithubException as exc:
            if exc.status >= 500:
                raise GatherError(
                    f"could not verify: GitHub kept failing on {url} ({error_status(exc)})"
                ) from None
            raise

    def file_text(self, repo: str, path: str, ref: str) -> str | None:
        """A file's UTF-8 text at `ref`; None when it does not exist there (404)."""
        try:
            data = self.get_object(f"/repos/{repo}/contents/{path}", {"ref": ref})
        except UnknownObjectException:
            return None
        if data.get("type") != "file":
            raise GithubException(422, {"message": f"{path} is a {data.get('type')}"}, None)
        if data.get("encoding") != "base64":
            # Files over 1 MB come without content; the judge sees them as unavailable.
            raise GithubException(413, {"message": "file too large for the contents API"}, None)
        raw = base64.b64decode(str(data.get("content") or ""))
        return raw.decode("utf-8", errors="replace")

    def stream(self, path: str, limit: int) -> bytes:
        """A binary download (following GitHub's 302 to a signed URL), at most `limit` bytes.

        Raises GithubException with the HTTP status for 4xx answers (410: expired artifact) and
        ValueError when the body exceeds `limit`.
        """
        self.deadline.check()
        try:
            _, _, chunks = self._requester.getStream(path, chunk_size=65536)
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


def _bounded(chunks: Iterator[bytes], limit: int) -> bytes:
    buffer = bytearray()
    for chunk in chunks:
        buffer.extend(chunk)
        if len(buffer) > limit:
            raise ValueError(f"larger than {limit // (1024 * 1024)} MB")
    return bytes(buffer)
