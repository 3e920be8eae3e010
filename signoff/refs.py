"""Where a sign-off lives: parsed from a comment URL or an event, before anything is fetched.

A sign-off URL is taken only as GitHub writes one: `https://HOST/OWNER/REPO/pull/N` (or
`.../pull/N/files`), then `#issuecomment-ID`, `#pullrequestreview-ID` or `#discussion_rID`.
HOST is the web host of the configured GitHub server (github.com for api.github.com; the GitHub
Enterprise host behind `https://HOST/api/v3`). Names and numbers are checked as GitHub allows
them (ASCII only, no `..`, numbers from 1 and of sane size) before any request is made.
"""

from __future__ import annotations

import os
import re
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict

from signoff.errors import InputError
from signoff.evidence import SignoffKind

DEFAULT_API_URL = "https://api.github.com"
# GitHub logins: letters, digits and single hyphens, at most 39 characters.
_OWNER = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})", re.ASCII)
# Repository names: letters, digits, `.`, `_`, `-`, at most 100 characters (not `.` or `..`).
_REPO = re.compile(r"[A-Za-z0-9._-]{1,100}", re.ASCII)
_NUMBER = re.compile(r"[1-9][0-9]{0,18}", re.ASCII)
MAX_PR = 2**31 - 1  # PR numbers are 32-bit on GitHub's side
MAX_ID = 2**63 - 1  # comment and review ids are 64-bit
_ANCHORS: tuple[tuple[str, SignoffKind], ...] = (
    ("issuecomment-", "conversation comment"),
    ("pullrequestreview-", "review summary"),
    ("discussion_r", "inline review comment"),
)


class SignoffRef(BaseModel):
    """A sign-off's coordinates: repository, PR number, kind and id."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    owner: str
    repo: str
    pr: int
    kind: SignoffKind
    id: int

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.repo}"


def web_host(api_url: str) -> tuple[str, str]:
    """(scheme, host[:port]) of the web UI whose API is `api_url`; InputError for a bad one.

    `https://api.github.com` -> github.com (`api.X.ghe.com` -> `X.ghe.com` alike);
    `https://HOST/api/v3` (GitHub Enterprise Server) -> HOST.
    """
    redacted = re.sub(r"//[^/]*@", "//***@", api_url)  # never echo a password into a log
    problem = f"GitHub API URL {_shown(redacted)} (--api-url or $GITHUB_API_URL)"
    if any(ch.isspace() or not ch.isprintable() for ch in api_url):
        raise InputError(f"{problem}: not a URL")
    try:
        parts = urlsplit(api_url)
        parts.port  # noqa: B018 (raises ValueError for a port out of range)
    except ValueError:
        raise InputError(f"{problem}: not a URL") from None
    if parts.scheme.lower() not in {"http", "https"} or not parts.hostname:
        raise InputError(f"{problem}: not an http(s) URL with a host")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise InputError(f"{problem}: credentials, a query or a fragment do not belong in it")
    host = parts.netloc.lower()
    if host.startswith("api.") and parts.path.strip("/") == "":
        host = host.removeprefix("api.")
    return parts.scheme.lower(), host


def parse_signoff_url(url: str, *, api_url: str | None = None) -> SignoffRef:
    """The sign-off a URL points to, on the server of `api_url` (default `$GITHUB_API_URL`)."""
    text = url.strip()
    shown = _shown(text)
    if not text or any(ch.isspace() or not ch.isprintable() for ch in text):
        raise InputError(f"{shown}: a sign-off URL is one line without spaces")
    scheme, host = web_host(api_url or os.environ.get("GITHUB_API_URL") or DEFAULT_API_URL)
    try:
        parts = urlsplit(text)
        netloc = parts.netloc.lower()
    except ValueError:
        raise InputError(f"{shown}: not a URL") from None
    allowed = {host, f"www.{host}"} if host == "github.com" else {host}
    if netloc not in allowed or parts.scheme.lower() not in {"https", scheme}:
        raise InputError(f"{shown}: not a URL on {scheme}://{host} (the configured GitHub)")
    owner, repo, pr = _pull_path(parts.path, shown)
    kind, item = _anchor(parts.fragment, shown)
    return SignoffRef(owner=owner, repo=repo, pr=pr, kind=kind, id=item)


def _pull_path(path: str, shown: str) -> tuple[str, str, int]:
    segments = path.split("/")
    if segments[-1] == "":
        segments = segments[:-1]
    if segments[-1:] == ["files"]:
        segments = segments[:-1]
    if len(segments) != 5 or segments[0] != "" or segments[3] != "pull":
        raise InputError(f"{shown}: not a pull request comment URL (expected /OWNER/REPO/pull/N)")
    _, owner, repo, _, number = segments
    if not _OWNER.fullmatch(owner):
        raise InputError(f"{shown}: {owner!r} is not a GitHub owner name")
    if not _REPO.fullmatch(repo) or repo in {".", ".."}:
        raise InputError(f"{shown}: {repo!r} is not a GitHub repository name")
    return owner, repo, _number(number, MAX_PR, "pull request number", shown)


def _anchor(fragment: str, shown: str) -> tuple[SignoffKind, int]:
    for prefix, kind in _ANCHORS:
        if fragment.startswith(prefix):
            return kind, _number(fragment[len(prefix) :], MAX_ID, f"#{prefix} id", shown)
    raise InputError(
        f"{shown}: no #issuecomment-, #pullrequestreview- or #discussion_r anchor in the URL"
    )


def _number(text: str, limit: int, what: str, shown: str) -> int:
    if not _NUMBER.fullmatch(text) or int(text) > limit:
        raise InputError(f"{shown}: {what} {text[:30]!r} is not a number from 1 to {limit}")
    return int(text)


def _shown(text: str) -> str:
    """The URL quoted for an error line, cut to a readable length."""
    return repr(text if len(text) <= 200 else text[:200] + "...")
