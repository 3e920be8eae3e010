"""The one place PyGithub is configured: token, base URL, retries, throttling, timeouts, deadline.

Both `gather/` and `publish/` get their `Connection` from `connect()`; nothing else builds one.
Its requester decodes JSON answers strictly (a body cut short or an HTML page is an error, never
data) and belongs to one thread: each thread that talks to GitHub gets its own. Only PyGithub's
`Requester` is used, never its `Github` class: importing that loads PyGithub's whole object model
(see signoff/deferred.py).
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from datetime import UTC, datetime
from typing import Any, Literal, Protocol, cast

from github.Consts import DEFAULT_USER_AGENT
from github.GithubException import GithubException, RateLimitExceededExceedsMaxWait
from github.GithubRetry import GithubRetry
from github.Requester import Requester

from signoff.errors import GatherError

DEFAULT_API_URL = "https://api.github.com"
REPLAY_TOKEN = "replay-token"  # any token will do: cassettes carry no Authorization header
Mode = Literal["production", "test"]

# Five tries in all (one + four retries): enough to ride out a short 5xx burst or one secondary
# limit, few enough that a broken GitHub fails the run quickly instead of eating the job's budget.
TOTAL_RETRIES = 4
# Exponential backoff between 5xx / reset retries: 0.5, 1, 2, 4 s (urllib3: factor * 2**(n-1)).
BACKOFF_FACTOR = 0.5
# A secondary limit without Retry-After: GitHub asks for "at least one minute"; we wait less than
# that only because the deadline (120 s) would otherwise be gone after one wait. 30 s is a
# compromise that usually clears the abuse detector for our low request volume.
SECONDARY_RATE_WAIT = 30.0
# Retry-After (secondary limits, 429) is obeyed up to this many seconds; longer waits fail fast.
MAX_RETRY_AFTER = 60.0
# Never sleep through a primary rate limit: waiting up to an hour for X-RateLimit-Reset inside a
# CI job is worse than failing with a clear message. A reset due within 5 s is worth the wait.
MAX_PRIMARY_WAIT = 5.0
# Per-request socket timeout. GitHub answers reads in well under a second; 15 s covers a slow
# large list page while still leaving the 120 s deadline room for retries.
TIMEOUT_SECONDS = 15
# Neither reads nor writes are throttled. GitHub asks for a second between writes when an
# integration makes "a large number" of them; a run makes at most two (the comment, then the
# status, which waits for the comment's answer), so a pause would only add to every verdict.
PER_PAGE = 100
DEFAULT_DEADLINE_SECONDS = 120.0
# A 2xx answer whose body is not valid JSON (cut short, an HTML error page from a proxy) is a
# transport fault: a GET is sent again, three tries in all, with the 5xx backoff between them.
MALFORMED_TRIES = 3


class _Retry(GithubRetry):
    """GithubRetry whose Retry-After waits are capped; a longer wait raises instead of sleeping."""

    retry_after_cap: float = MAX_RETRY_AFTER
    sleep_cap: float | None = None  # test mode: every honoured wait becomes this (0: no sleeping)

    def get_retry_after(self, response: Any) -> float | None:
        wait: float | None = super().get_retry_after(response)
        if wait is None:
            return None
        if wait > self.retry_after_cap:
            raise RateLimitExceededExceedsMaxWait(
                response.status,
                {"message": f"Retry-After {wait:.0f} s"},
                dict(response.headers),
                wait=wait,
            )
        return wait if self.sleep_cap is None else min(wait, self.sleep_cap)


class _TestRetry(_Retry):
    """Same retry decisions as production, but no time is spent waiting (tests replay cassettes)."""

    sleep_cap = 0.0


def make_retry(mode: Mode) -> GithubRetry:
    """The retry policy: identical counts in both modes, no waiting in test mode."""
    if mode == "test":
        return _TestRetry(
            total=TOTAL_RETRIES,
            backoff_factor=0,
            secondary_rate_wait=0,
            max_rate_limit_wait=0,
        )
    return _Retry(
        total=TOTAL_RETRIES,
        backoff_factor=BACKOFF_FACTOR,
        secondary_rate_wait=SECONDARY_RATE_WAIT,
        max_rate_limit_wait=MAX_PRIMARY_WAIT,
    )


def resolve_api_url(explicit: str | None = None) -> str:
    """REST base URL: argument, else `$GITHUB_API_URL` (GHES `https://host/api/v3`), else GitHub."""
    url = explicit or os.environ.get("GITHUB_API_URL") or DEFAULT_API_URL
    return url.rstrip("/")


# Read as the GitHub CLI reads them (`gh help environment`): GH_TOKEN, then GITHUB_TOKEN for
# github.com; GH_ENTERPRISE_TOKEN, then GITHUB_ENTERPRISE_TOKEN for another host, where signoff
# then also takes GH_TOKEN and GITHUB_TOKEN (the names its own Action and workflows set).
GITHUB_COM_TOKENS = ("GH_TOKEN", "GITHUB_TOKEN")
ENTERPRISE_TOKENS = ("GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", *GITHUB_COM_TOKENS)


def token_names(token_env: str | None, api_url: str | None = None) -> tuple[str, ...]:
    """The environment variables a token is read from, first found wins (`--token-env NAME`:
    that one only)."""
    if token_env is not None:
        return (token_env,)
    if resolve_api_url(api_url) == DEFAULT_API_URL:
        return GITHUB_COM_TOKENS
    return ENTERPRISE_TOKENS


def read_token(token_env: str | None, api_url: str | None = None) -> tuple[str, str]:
    """(variable, token) of the first of `token_names` that is set and not blank; ("", "")."""
    for name in token_names(token_env, api_url):
        value = os.environ.get(name, "").strip()
        if value:
            return name, value
    return "", ""


def token_missing(token_env: str | None, api_url: str | None = None) -> str:
    """What to say when `read_token` found nothing: `GH_TOKEN or GITHUB_TOKEN is not set`."""
    *first, last = token_names(token_env, api_url)
    return f"{', '.join(first)} or {last} is not set" if first else f"{last} is not set"


class Connection(Protocol):
    """What gather/ and publish/ talk to GitHub through: a `Client`, or a PyGithub `Github`."""

    @property
    def requester(self) -> Requester: ...


def connect(token: str | None, api_url: str | None = None, *, mode: Mode = "production") -> Client:
    """A configured client; `token` None gives anonymous access (60 requests an hour)."""
    # PyGithub logs every retried or refused request at INFO on stderr, including the expected
    # 403 of the identity probe; our own messages say what failed, so keep only its warnings.
    logging.getLogger("github").setLevel(logging.WARNING)
    # The arguments PyGithub's `Github(auth=..., ...)` gives its Requester, the rest defaulted.
    return Client(
        malformed_wait=0.0 if mode == "test" else BACKOFF_FACTOR,
        auth=TokenAuth(token) if token else None,
        base_url=resolve_api_url(api_url),
        timeout=TIMEOUT_SECONDS,
        user_agent=DEFAULT_USER_AGENT,
        per_page=PER_PAGE,
        verify=True,
        retry=make_retry(mode),
        pool_size=None,
        seconds_between_requests=0,
        seconds_between_writes=0,
        lazy=False,
        api_version=None,
    )


class TokenAuth:
    """A token in the Authorization header, as PyGithub's `github.Auth.Token` sends it.

    `github.Auth` itself imports PyGithub's object model and PyJWT; the Requester only calls
    these two methods of whatever `auth` it is given.
    """

    token_type = "token"

    def __init__(self, token: str) -> None:
        self.token = token

    def authentication(self, headers: dict[str, str]) -> None:
        headers["Authorization"] = f"{self.token_type} {self.token}"

    def mask_authentication(self, headers: dict[str, str]) -> None:
        headers["Authorization"] = "token (oauth token removed)"


class MalformedAnswer(GithubException):
    """A success answer whose body is not the JSON GitHub sends (cut short, an HTML page, ...)."""

    def __init__(self, status: int, headers: dict[str, Any], problem: str) -> None:
        super().__init__(status, {"message": problem}, headers, problem)


def read_json(
    requester: Requester,
    verb: str,
    url: str,
    parameters: dict[str, Any] | None = None,
    body: Any | None = None,
    headers: dict[str, str] | None = None,
    follow_302_redirect: bool = False,
) -> tuple[dict[str, Any], Any]:
    """One request through PyGithub's public `requestJson`, its answer decoded strictly.

    4xx/5xx raise PyGithub's own exceptions (rate limits, not found, ...), as
    `requestJsonAndCheck` does; a 2xx body that is not JSON raises MalformedAnswer instead of
    becoming `{"data": "<html>..."}` (PyGithub's fallback for bodies not starting with { or [).
    """
    status, answer_headers, text = requester.requestJson(
        verb, url, parameters, headers, body, follow_302_redirect=follow_302_redirect
    )
    if status >= 400:
        raise requester.createException(status, answer_headers, _error_body(text))
    if not text:
        return answer_headers, None  # 204 No Content
    try:
        return answer_headers, json.loads(text)
    except ValueError:
        raise MalformedAnswer(status, answer_headers, _not_json(text)) from None


def _error_body(text: str) -> dict[str, Any]:
    """An error answer's body for PyGithub's exception mapping, which reads its `message`."""
    try:
        data = json.loads(text) if text else None
    except ValueError:
        return {"data": text[:200]}
    return data if isinstance(data, dict) else {"data": data}


def _not_json(text: str) -> str:
    start = text.lstrip()[:1]
    if start in ("{", "["):
        return "a JSON body cut short"
    return "a body that is not JSON (an HTML page?)" if start == "<" else "a body that is not JSON"


class StrictRequester(Requester):
    """PyGithub's Requester whose JSON answers are decoded strictly (see `read_json`).

    Every caller that uses `requestJsonAndCheck` (publish's identity probe and writes) gets
    MalformedAnswer, a GithubException, for a broken body; a GET is tried MALFORMED_TRIES times
    first. Writes are never repeated: a comment POST whose answer was lost may have landed.
    """

    malformed_wait: float = BACKOFF_FACTOR

    def requestJsonAndCheck(
        self,
        verb: str,
        url: str,
        parameters: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        input: Any | None = None,
        follow_302_redirect: bool = False,
    ) -> tuple[dict[str, Any], Any]:
        tries = MALFORMED_TRIES if verb == "GET" else 1
        for attempt in range(1, tries + 1):
            try:
                return read_json(self, verb, url, parameters, input, headers, follow_302_redirect)
            except MalformedAnswer:
                if attempt == tries:
                    raise
                time.sleep(self.malformed_wait * 2 ** (attempt - 1))
        raise AssertionError("unreachable")


class Client:
    """A `requester` (a StrictRequester) private to the calling thread.

    PyGithub's requester keeps the request being sent on its connection object between
    `request()` and `getresponse()`, so one requester must never serve two threads at once.
    Every thread gets its own, made from the same configuration (token, base URL, retries,
    timeouts: the keyword arguments of PyGithub's `Requester`), with its own connection pool.
    """

    def __init__(self, *, malformed_wait: float, auth: TokenAuth | None, **kwargs: Any) -> None:
        # PyGithub types `auth` as its own `Auth`; TokenAuth has what the Requester calls.
        self._config: dict[str, Any] = {"auth": cast(Any, auth), **kwargs}
        self._malformed_wait = malformed_wait
        self._mine = threading.local()

    @property
    def requester(self) -> Requester:
        mine: StrictRequester | None = getattr(self._mine, "requester", None)
        if mine is None:
            mine = StrictRequester(**self._config)
            mine.malformed_wait = self._malformed_wait
            self._mine.requester = mine
        return mine


def rate_limit_error(headers: dict[str, Any] | None) -> GatherError:
    """The could-not-verify error for an exhausted primary (or too-long secondary) rate limit."""
    reset = (headers or {}).get("x-ratelimit-reset") or (headers or {}).get("X-RateLimit-Reset")
    when = "later"
    if reset is not None and str(reset).isdigit():
        when = datetime.fromtimestamp(int(reset), UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return GatherError(f"GitHub API rate limit exhausted until {when}")


class Deadline:
    """An overall time budget, checked between requests (a single request is bounded by TIMEOUT)."""

    def __init__(self, seconds: float = DEFAULT_DEADLINE_SECONDS) -> None:
        self.seconds = seconds
        self._end = time.monotonic() + seconds

    def remaining(self) -> float:
        return self._end - time.monotonic()

    def check(self) -> None:
        """Raise GatherError when the budget is spent."""
        if self.remaining() <= 0:
            raise GatherError(f"could not verify: GitHub did not answer within {self.seconds:g} s")
