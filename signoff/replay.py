"""Play back a recorded GitHub conversation (a vcrpy cassette) instead of talking to GitHub."""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import vcr

from signoff.errors import InputError

# Requests must match the recording exactly; a request the cassette lacks fails the run.
MATCH_ON = ("method", "scheme", "host", "port", "path", "query")
# The same exactness as one string comparison: for long recordings (an audit of many PRs),
# where vcrpy compares each request with every recorded one.
MATCH_URI = ("method", "uri")
REPLAY_API_URL = "https://api.github.com"


def replay(
    cassette_path: str | Path, match_on: tuple[str, ...] = MATCH_ON
) -> AbstractContextManager[Any]:
    """A context manager under which every HTTP request is answered from the cassette.

    Nothing is recorded (record_mode "none") and each recorded answer is played at most once,
    so a retry in the recording (502 then 200) replays as the same two answers in order.
    The context value is vcrpy's Cassette (`play_count`, `all_played`, `requests`).
    """
    path = Path(cassette_path)
    if not path.is_file():
        raise InputError(f"{path}: no such cassette")
    player = vcr.VCR(
        record_mode="none",
        match_on=match_on,
        decode_compressed_response=False,
    )
    manager: AbstractContextManager[Any] = player.use_cassette(
        str(path), allow_playback_repeats=False
    )
    return manager


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
