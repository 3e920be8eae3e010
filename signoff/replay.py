"""Play back a recorded GitHub conversation (a vcrpy cassette) instead of talking to GitHub.

vcrpy is imported only here and only when a cassette is played: a live run never loads it.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

from signoff.errors import GatherError, InputError

# Requests must match the recording exactly; a request the cassette lacks fails the run.
# GraphQL queries share one URL, so theirs are told apart by what they ask (`GRAPHQL_BODY`).
GRAPHQL_BODY = "graphql_body"
MATCH_ON = ("method", "scheme", "host", "port", "path", "query", GRAPHQL_BODY)
# The same exactness as one string comparison: for long recordings (an audit of many PRs),
# where vcrpy compares each request with every recorded one.
MATCH_URI = ("method", "uri")
REPLAY_API_URL = "https://api.github.com"


@contextmanager
def replay(cassette_path: str | Path, match_on: tuple[str, ...] = MATCH_ON) -> Iterator[Any]:
    """A context under which every HTTP request is answered from the cassette.

    Nothing is recorded (record_mode "none") and each recorded answer is played at most once,
    so a retry in the recording (502 then 200) replays as the same two answers in order. A
    file that is no cassette is bad input (exit 2); a request the cassette lacks ends the run
    as could-not-verify, naming the request. The context value is vcrpy's Cassette
    (`play_count`, `all_played`, `requests`).
    """
    path = Path(cassette_path)
    if not path.is_file():
        raise InputError(f"{path}: no such cassette")
    import vcr
    from vcr.errors import CannotOverwriteExistingCassetteException

    player = vcr.VCR(record_mode="none", match_on=match_on, decode_compressed_response=False)
    player.register_matcher(GRAPHQL_BODY, same_graphql_query)
    with ExitStack() as stack:
        stack.enter_context(_new_connections_one_at_a_time())
        cassette = _load(stack, player, path)
        try:
            yield cassette
        except CannotOverwriteExistingCassetteException as exc:
            text = str(exc)
            request = text.split("\n\n", 2)[1].strip() if "\n\n" in text else "a request"
            raise GatherError(f"could not verify: {path} has no answer for {request}") from None


def same_graphql_query(one: Any, other: Any) -> None:
    """vcrpy matcher: two GraphQL POSTs match when they send the same query and variables
    (answers sent at once arrive in any order); other requests are left to the rest."""
    if not str(one.path).endswith("/graphql"):
        return
    if _json_body(one.body) != _json_body(other.body):
        raise AssertionError("another GraphQL query")


def _json_body(body: Any) -> Any:
    try:
        return json.loads(body.decode("utf-8") if isinstance(body, bytes) else body or "null")
    except (ValueError, UnicodeDecodeError):
        return body


def _load(stack: ExitStack, player: Any, path: Path) -> Any:
    """vcrpy's Cassette for `path`; InputError when the file is not a recording."""
    try:
        cassette = stack.enter_context(player.use_cassette(str(path), allow_playback_repeats=False))
    except Exception as exc:  # YAML errors, KeyError, TypeError: whatever the file held
        raise InputError(f"{path}: not a vcrpy cassette ({type(exc).__name__})") from None
    if len(cassette) == 0:
        raise InputError(f"{path}: not a vcrpy cassette (no recorded requests)")
    return cassette


@contextmanager
def _new_connections_one_at_a_time() -> Iterator[None]:
    """Keep vcrpy's patches in place while gather's threads open connections.

    vcrpy builds each fake connection's real twin with its patches briefly removed, for every
    thread at once; a connection another thread opens in that moment would be a real one. One
    lock around urllib3's connection factory closes that window (replay only).
    """
    import urllib3.connectionpool as pools

    lock = threading.Lock()
    patches = []
    for cls in (pools.HTTPConnectionPool, pools.HTTPSConnectionPool):
        original = cls._new_conn

        def locked(self: Any, _original: Any = original) -> Any:
            with lock:
                return _original(self)

        patches.append(mock.patch.object(cls, "_new_conn", locked))
    for patch in patches:
        patch.start()
    try:
        yield
    finally:
        for patch in reversed(patches):
            patch.stop()


def cassette_info(cassette_path: str | Path) -> dict[str, Any]:
    """The sidecar `<name>.json` written by cassettes/record.py: sign-off URL, pinned head."""
    sidecar = Path(cassette_path).with_suffix(".json")
    try:
        data = json.loads(sidecar.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{sidecar}: cannot read cassette description ({exc})") from None
    if not isinstance(data, dict):
        raise InputError(f"{sidecar}: cassette description must be a JSON object")
    return data
