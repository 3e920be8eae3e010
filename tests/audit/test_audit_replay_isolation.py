"""A replayed audit never leaves answers behind for a real one: without `--cache-dir` it writes
nothing to the user's cache, and in a shared cache folder each recording's answers are its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from cassette_helpers import AUDIT_CASSETTES, CliRun, audit_info

from signoff.audit.run import default_cache_dir
from signoff.cli import main

REPO = "SemiAnalysisAI/InferenceX"


def audit(name: str, out: Path, *extra: str) -> int:
    args = audit_info(name)["args"]
    return main(
        [
            "audit",
            REPO,
            "--since",
            args["since"],
            "--until",
            args["until"],
            "--replay",
            str(AUDIT_CASSETTES / f"{name}.yaml"),
            "--format",
            "json",
            "--out",
            str(out),
            "--no-progress",
            *extra,
        ]
    )


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user whose cache folder is under tmp_path (platformdirs reads XDG_CACHE_HOME)."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home" / ".cache"))
    return tmp_path / "home"


def test_the_replayed_demo_writes_nothing_to_the_users_cache_and_no_answer_crosses_over(
    home: Path, tmp_path: Path, history_cli_run: CliRun
) -> None:
    assert str(default_cache_dir(None)).startswith(str(home))
    # The README's demo, as a user runs it: no --cache-dir.
    assert history_cli_run.code == 1
    assert str(history_cli_run.default_cache).startswith(str(history_cli_run.home))
    assert not (history_cli_run.home / ".cache").exists()
    # The demo again into a cache folder, then another recording of the same repository (the
    # first PRs' URLs are the same; GitHub resets every connection from #2106 on) on that folder.
    shared = tmp_path / "shared-cache"
    assert audit("history", tmp_path / "history.json", "--cache-dir", str(shared)) == 1
    assert any(shared.rglob("*.entry"))
    # One PR at a time: where a recording that resets connections stops, and so its request
    # count, must not depend on which parallel reads were in flight.
    after_demo = tmp_path / "after-demo.json"
    assert audit("unreachable", after_demo, "--cache-dir", str(shared), "--jobs", "1") == 3
    alone = tmp_path / "alone.json"
    empty = str(tmp_path / "empty-cache")
    assert audit("unreachable", alone, "--cache-dir", empty, "--jobs", "1") == 3
    # Every answer came from the second recording: byte for byte the report of that recording
    # on an empty cache, requests included, and it stopped where that recording stops.
    assert after_demo.read_bytes() == alone.read_bytes()
    assert b'"not_audited": [' in after_demo.read_bytes()
    assert not (home / ".cache").exists()
