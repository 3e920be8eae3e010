"""`signoff verify URL --replay cassettes/NAME.yaml` reproduces every recorded verification.

Each cassette was recorded by cassettes/record.py running `signoff.verify.verify` against ghemu;
its sidecar NAME.json holds the sign-off URL, whether the run published, and the verdict. Here the
command itself replays it (record_mode none, each answer at most once) and must make every
recorded request, no more and no fewer.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from cassette_helpers import CASSETTES, Replayed, cassette, info, replay_verify

import signoff.replay as replay_module
from signoff.replay import replay as real_replay
from signoff.verify import run_verify_command

NAMES = sorted(path.stem for path in CASSETTES.glob("*.yaml"))
REPO = "SemiAnalysisAI/InferenceX"
DEMO_URL = "https://github.com/SemiAnalysisAI/InferenceX/pull/2700#issuecomment-2400027003"
FORGED_ID = 2400027101


@pytest.fixture(autouse=True)
def scrubbed(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ambient token, API URL or bot login: the command runs as the README shows it."""
    for name in list(os.environ):
        if name.startswith(("GITHUB_", "INPUT_", "RUNNER_", "SIGNOFF_")):
            monkeypatch.delenv(name)


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The cassettes `run_verify_command` replays, kept for inspection after the run."""
    cassettes: list[Any] = []

    @contextmanager
    def spy(path: str) -> Iterator[Any]:
        with real_replay(path) as recorded:
            cassettes.append(recorded)
            yield recorded

    monkeypatch.setattr(replay_module, "replay", spy)
    return cassettes


def run_command(
    name: str, capsys: pytest.CaptureFixture[str], played: list[Any]
) -> tuple[int, str, str, Any]:
    """`signoff verify` on the cassette as its sidecar says: (exit, stdout, stderr, cassette)."""
    described = info(name)
    code = run_verify_command(
        described["signoff_url"],
        replay=str(cassette(name)),
        publish=bool(described["publish"]),
        fmt="json",
    )
    captured = capsys.readouterr()
    (recorded,) = played
    return code, captured.out, captured.err, recorded


def run_json(
    name: str, capsys: pytest.CaptureFixture[str], played: list[Any]
) -> tuple[int, dict[str, Any], Any]:
    code, out, _, recorded = run_command(name, capsys, played)
    return code, json.loads(out), recorded


def failing(document: dict[str, Any]) -> dict[int, str]:
    return {c["number"]: c["reason"] for c in document["checks"] if c["status"] == "FAIL"}


VERDICTS = [name for name in NAMES if info(name)["verdict"] != "ERROR"]
ERRORS = [name for name in NAMES if info(name)["verdict"] == "ERROR"]


@pytest.mark.parametrize("name", VERDICTS)
def test_the_command_replays_every_cassette_exactly(
    name: str, capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    described = info(name)
    code, document, recorded = run_json(name, capsys, played)
    assert recorded.all_played, f"{name}: {recorded.play_count}/{len(recorded)} played"
    assert recorded.play_count == len(recorded) == described["requests"]
    assert code == {"PASS": 0, "REJECTED": 1}[described["verdict"]]
    assert document["verdict"] == described["verdict"]
    assert document["head_sha"] == described["pinned_head"]
    assert sorted(failing(document)) == described["failed_checks"]
    writes = [f"{r.method} {r.path}" for r in recorded.requests if r.method != "GET"]
    assert writes == described["writes"]
    assert bool(writes) is described["publish"]


@pytest.mark.parametrize("name", ERRORS)
def test_a_run_that_cannot_verify_exits_3_with_one_line_naming_the_request(
    name: str, capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    described = info(name)
    code, _, err, recorded = run_command(name, capsys, played)
    assert code == 3
    assert recorded.all_played and recorded.play_count == described["requests"]
    assert "Traceback" not in err
    failures = [line for line in err.splitlines() if "could not" in line]
    assert len(failures) == 1 and described["error"] in failures[0]
    writes = [f"{r.method} {r.path}" for r in recorded.requests if r.method != "GET"]
    assert writes == described["writes"]


@pytest.mark.parametrize(
    ("name", "check", "evidence"),
    [
        ("fail_codeowner", 0, "chunfangamd"),
        ("fail_sweep", 1, "skipped"),
        ("fail_evals", 2, "0.905 < 0.91"),
        ("fail_recipe", 3, "vllm-project/recipes#412 is open"),
        ("fail_reuse_command", 4, "/reuse-sweep-run"),
        ("fail_latest_template", 5, "APPEND_ONLY"),
        ("fail_upstream_image", 6, "rocm/vllm-dev"),
        ("fail_no_arch_hacks", 7, "--hf-overrides"),
        ("fail_spec_chat_template", 8, "--use-chat-template"),
    ],
)
def test_each_check_fails_on_its_own_cassette(
    name: str,
    check: int,
    evidence: str,
    capsys: pytest.CaptureFixture[str],
    played: list[Any],
) -> None:
    code, document, recorded = run_json(name, capsys, played)
    assert recorded.all_played
    assert code == 1 and document["verdict"] == "REJECTED"
    failures = failing(document)
    assert check in failures and evidence in failures[check]
    # Only that check fails; Check 2 judges the run Check 1 selected, so it falls with it.
    assert set(failures) == ({1, 2} if check == 1 else {check})
    if check == 1:
        assert "Check 1" in failures[2]
    others = [c for c in document["checks"] if c["number"] not in failures]
    assert all(c["status"] in {"PASS", "N/A"} for c in others)


def test_the_readme_demo_passes_and_publishes_from_the_cassette(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    assert info("demo")["signoff_url"] == DEMO_URL
    code = run_verify_command(DEMO_URL, replay=str(cassette("demo")), publish=True)
    out = capsys.readouterr().out
    (recorded,) = played
    assert code == 0 and recorded.all_played
    assert len(recorded) <= 20
    head = info("demo")["pinned_head"]
    assert out.startswith(f"<!-- codeowner-signoff-verify sha={head} -->\n")
    assert "**Verdict: PASS**" in out and "FAIL" not in out
    assert out.count("): PASS") + out.count("): N/A") == 9
    writes = [(r.method, r.path) for r in recorded.requests if r.method != "GET"]
    assert writes == [
        ("POST", f"/repos/{REPO}/issues/2700/comments"),
        ("POST", f"/repos/{REPO}/statuses/{head}"),
    ]
    status = json.loads(recorded.requests[-1].body)
    assert status["state"] == "success" and status["context"] == "codeowner-signoff-verify"


@pytest.fixture(scope="module")
def forged() -> Replayed:
    return replay_verify("forged_verdict")


def test_a_forged_verdict_is_ignored_and_ours_is_created(forged: Replayed) -> None:
    assert forged.all_played
    outcome = forged.outcome
    assert outcome.result == "PASS" and outcome.comment_action == "created"
    fake = next(c for c in forged.evidence.comments if c.id == FORGED_ID)
    assert fake.author == "mallory-x" and "**Verdict: PASS**" in fake.body
    assert fake.body.startswith(f"<!-- codeowner-signoff-verify sha={outcome.head_sha} -->")
    methods_paths = [(method, path) for method, path, _ in forged.writes]
    assert methods_paths == [
        ("POST", f"/repos/{REPO}/issues/2700/comments"),
        ("POST", f"/repos/{REPO}/statuses/{outcome.head_sha}"),
    ]
    assert not any(str(FORGED_ID) in uri for uri in forged.requests)
    assert outcome.status_state == "success"


def test_a_head_that_moves_during_verification_is_noted_in_the_verdict(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    described = info("head_moved")
    code = run_verify_command(described["signoff_url"], replay=str(cassette("head_moved")))
    out = capsys.readouterr().out
    (recorded,) = played
    assert code == 0 and recorded.all_played
    moved = described["head_moved_to"]
    assert moved and moved != described["pinned_head"]
    assert f"sha={described['pinned_head']} -->" in out.splitlines()[0]
    assert f"head moved to `{moved[:12]}`" in out and "fresh sign-off" in out
    # The files list answered for the moved head, so the PR's diff was re-read at the pin.
    compares = [r for r in recorded.requests if "/compare/" in r.path]
    assert any(r.path.endswith(f"...{described['pinned_head']}") for r in compares)


@pytest.fixture(scope="module")
def large() -> Replayed:
    return replay_verify("large_pr")


def test_a_pr_exactly_at_githubs_list_caps_is_complete_as_its_counts_declare(
    large: Replayed,
) -> None:
    evidence = large.evidence
    assert large.all_played
    # 3,000 files and 250 commits listed, and the PR object declares exactly that many.
    assert len(evidence.changed_files) == 3000 and not evidence.files_truncated
    assert len(evidence.commits) == 250 and not evidence.commits_truncated
    assert len(evidence.comments) == 1000
    assert sum("/pulls/2700/files" in uri for uri in large.requests) == 30
    assert sum("/pulls/2700/commits" in uri for uri in large.requests) == 3
    assert sum("/issues/2700/comments" in uri for uri in large.requests) == 10
    assert len(large.requests) == info("large_pr")["requests"] <= 60
    # Nothing is cut, so ownership is judged over every file instead of failing closed.
    assert large.outcome.verdict is not None
    codeowner = large.outcome.verdict.checks[0]
    assert codeowner.status == "PASS" and "3,000" not in codeowner.reason
    assert large.outcome.verdict.outcome == "PASS"


def test_a_body_cut_short_ends_in_exit_3_naming_the_request_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    code, out, err, recorded = run_command("truncated_json", capsys, played)
    assert code == 3 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"GET /repos/{REPO}/pulls/2700/files?per_page=100" in err
    assert "cut short (3 tries)" in err
    files = [r for r in recorded.requests if r.path.endswith("/pulls/2700/files")]
    assert len(files) == 3  # asked three times, then given up
    assert all(r.method == "GET" for r in recorded.requests)


def test_with_publish_a_broken_answer_sets_only_an_error_status(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    code, out, err, recorded = run_command("truncated_json_publish", capsys, played)
    head = info("truncated_json_publish")["pinned_head"]
    assert code == 3 and out == "" and "Traceback" not in err
    (write,) = [r for r in recorded.requests if r.method != "GET"]
    assert write.path == f"/repos/{REPO}/statuses/{head}"
    assert json.loads(write.body)["state"] == "error"


def test_an_html_page_in_place_of_json_ends_in_exit_3(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    code, out, err, _ = run_command("html_answer", capsys, played)
    assert code == 3 and out == "" and "Traceback" not in err
    assert "check-runs" in err and "not JSON" in err


def test_a_body_cut_short_once_is_asked_for_again_and_verifies(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    code, document, recorded = run_json("truncated_json_once", capsys, played)
    assert code == 0 and document["verdict"] == "PASS"
    files = [r for r in recorded.requests if r.path.endswith("/pulls/2700/files")]
    assert len(files) == 2


def test_a_verdict_comment_whose_answer_is_cut_is_not_posted_twice(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    code, out, err, recorded = run_command("comment_answer_truncated", capsys, played)
    assert code == 3 and json.loads(out)["verdict"] == "PASS" and "Traceback" not in err
    writes = [(r.method, r.path) for r in recorded.requests if r.method != "GET"]
    head = info("comment_answer_truncated")["pinned_head"]
    assert writes == [
        ("POST", f"/repos/{REPO}/issues/2700/comments"),
        ("POST", f"/repos/{REPO}/statuses/{head}"),
    ]
    assert json.loads(recorded.requests[-1].body)["state"] == "success"


@pytest.fixture(scope="module")
def beyond() -> Replayed:
    return replay_verify("beyond_caps")


def test_a_pr_past_githubs_caps_is_read_completely_another_way(beyond: Replayed) -> None:
    evidence = beyond.evidence
    assert beyond.all_played
    assert len(evidence.changed_files) == 3200 and not evidence.files_truncated
    assert len({f.path for f in evidence.changed_files}) == 3200
    assert len(evidence.commits) == 260 and not evidence.commits_truncated
    # 30 pages of the files list (patches for 3,000), the rest from the merge base's and the
    # head's trees; every commit from three compare pages instead of the capped commits list.
    assert sum("/pulls/2700/files" in uri for uri in beyond.requests) == 30
    assert sum("/git/trees/" in uri for uri in beyond.requests) == 2
    assert sum("/compare/" in uri for uri in beyond.requests) == 3
    assert not any("/pulls/2700/commits" in uri for uri in beyond.requests)
    assert evidence.commits[-1] == evidence.pull_request.head_sha
    assert beyond.outcome.verdict is not None and beyond.outcome.verdict.outcome == "PASS"


def test_an_eval_row_without_a_model_prefix_below_the_bar_is_not_a_pass(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    code, document, _ = run_json("fail_evals_no_prefix", capsys, played)
    assert code == 1 and document["verdict"] == "REJECTED"
    reason = failing(document)[2]
    assert "0.905" in reason and "names no model prefix" in reason and "0.91" in reason
