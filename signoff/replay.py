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

from signoff.errors import GatherError, InputError, json_problem, not_utf8

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
    check_cassette(path)
    vcr = _vcrpy()
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


INSTALL_HINT = "pip install 'signoff[replay]'"


def _vcrpy() -> Any:
    """vcrpy, which only replays need (the `replay` extra); bad input saying how to get it."""
    try:
        import vcr
    except ImportError:
        raise InputError(f"--replay needs vcrpy, which is not installed: {INSTALL_HINT}") from None
    return vcr


def check_cassette(path: Path) -> None:
    """A cassette file that exists and is no folder; bad input saying which it is not."""
    if path.is_dir():
        raise InputError(f"{path}: --replay takes a cassette file, and this is a folder")
    if not path.is_file():
        raise InputError(f"{path}: no such cassette file")


def cassette_problem(path: Path) -> str | None:
    """What makes this file no vcrpy cassette, in words; None when it looks like one.

    vcrpy's own errors (KeyError, TypeError, YAML marks) say nothing to someone who passed
    the wrong file, so once vcrpy refuses it the shape vcrpy reads is checked: a YAML mapping
    whose `interactions` list holds `request` and `response` mappings.
    """
    import yaml

    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        return not_utf8(exc)
    except OSError as exc:
        return f"cannot read it ({exc.strerror or 'unreadable'})"
    if not text.strip():
        return "empty"
    try:
        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        return f"not YAML (line {mark.line + 1})" if mark is not None else "not YAML"
    except yaml.YAMLError:
        return "not YAML"
    if not isinstance(data, dict) or not isinstance(data.get("interactions"), list):
        return "no `interactions` list at the top: not a vcrpy cassette"
    interactions = data["interactions"]
    if not interactions:
        return "no recorded requests"
    for number, interaction in enumerate(interactions, 1):
        if not isinstance(interaction, dict) or not all(
            isinstance(interaction.get(part), dict) for part in ("request", "response")
        ):
            return f"interaction {number} lacks a `request` or `response` mapping"
        request = interaction["request"]
        if not isinstance(request.get("uri"), str) or not isinstance(request.get("method"), str):
            return f"interaction {number}'s request lacks its `method` or `uri`"
    return None


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
    except Exception:  # YAML errors, KeyError, TypeError: say what is wrong, in words
        problem = cassette_problem(path) or "vcrpy cannot play its interactions"
        raise InputError(f"{path}: not a cassette ({problem})") from None
    if len(cassette) == 0:
        problem = cassette_problem(path) or "no recorded requests"
        raise InputError(f"{path}: not a cassette ({problem})")
    _index_by_request_line(cassette)
    return cassette


# Matchers under which two matching requests have the same method and URI parts.
_URI_PARTS = {"scheme", "host", "port", "path", "query"}


def _index_by_request_line(cassette: Any) -> None:
    """Look answers up by method and URI instead of comparing each request with every recorded
    one (vcrpy's scan: quadratic, most of a long audit replay's time). Only the recorded
    requests with the same method and URI parts are compared, in recorded order, with every
    matcher as before, so the same answer plays."""
    from vcr import matchers as vcr_matchers
    from vcr.matchers import requests_match

    names = {
        name
        for matcher in cassette._match_on
        if getattr(vcr_matchers, name := getattr(matcher, "__name__", ""), None) is matcher
    }
    if "method" not in names or not ("uri" in names or names >= _URI_PARTS):
        return

    where: dict[tuple[Any, ...], list[int]] = {}
    for index, (stored, _) in enumerate(cassette.data):
        where.setdefault(_request_line(stored), []).append(index)
    scan, before = cassette._responses, cassette._before_record_request

    def responses(raw: Any) -> Iterator[tuple[int, Any]]:
        request = before(raw)
        if request is None:
            yield from scan(raw)
            return
        for index in where.get(_request_line(request), ()):
            stored, response = cassette.data[index]
            if requests_match(request, stored, cassette._match_on):
                yield index, response

    cassette._responses = responses


def _request_line(request: Any) -> tuple[Any, ...]:
    return (
        request.method,
        request.scheme,
        request.host,
        request.port,
        request.path,
        tuple(request.query),
    )


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
        text = sidecar.read_bytes().decode("utf-8")
        data = json.loads(text)
    except UnicodeDecodeError as exc:
        raise InputError(f"{sidecar}: cassette description is {not_utf8(exc)}") from None
    except json.JSONDecodeError as exc:
        problem = json_problem(text, exc.lineno, exc.colno)
        raise InputError(f"{sidecar}: cassette description is {problem}") from None
    except OSError as exc:
        why = exc.strerror or "unreadable"
        raise InputError(f"{sidecar}: cannot read cassette description ({why})") from None
    if not isinstance(data, dict):
        raise InputError(f"{sidecar}: cassette description must be a JSON object")
    return data
