"""`signoff action` end to end, in process: real event payloads, a scrubbed environment, cassettes.

Each cassette under cassettes/publish/e2e/ was recorded by cassettes/record_publish.py running
`run_action` against ghemu; here the same run replays it and must make the same requests.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cassette_helpers import is_write
from github import Github

import signoff.action as action
from signoff.action import run_action
from signoff.github.client import connect
from signoff.refs import SignoffRef
from signoff.replay import replay
from signoff.verify import VerifyOutcome

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "tests" / "data" / "events"
E2E = ROOT / "cassettes" / "publish" / "e2e"
REPO = "SemiAnalysisAI/InferenceX"
HEAD = "d9a2aaf0b52bb6e758ad6e4dedad360652b10f74"
RUN_URL = f"https://github.com/{REPO}/actions/runs/17000000001"
PR_URL = f"https://github.com/{REPO}/pull/2700"


@pytest.fixture(autouse=True)
def no_retry_sleep(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replays don't sleep between retries (conftest scrubs the environment)."""

    def test_connect(token: str | None, api_url: str | None = None) -> Github:
        return connect(token, api_url, mode="test")

    monkeypatch.setattr(action, "connect", test_connect)


def action_env(tmp_path: Path, event: str, fixture: str, **inputs: str) -> dict[str, str]:
    return {
        "GITHUB_EVENT_NAME": event,
        "GITHUB_EVENT_PATH": str(EVENTS / f"{fixture}.json"),
        "GITHUB_REPOSITORY": REPO,
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_RUN_ID": "17000000001",
        "GITHUB_OUTPUT": str(tmp_path / "output"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "RUNNER_TEMP": str(tmp_path),
        "SIGNOFF_TOKEN": "replay-token",
        **inputs,
    }


def outputs(tmp_path: Path) -> dict[str, str]:
    text = (tmp_path / "output").read_text(encoding="utf-8")
    return {
        name: value
        for name, delimiter, value in re.findall(r"([\w-]+)<<(\S+)\n(.*?)\n?\2\n", text, re.S)
    }


def writes(cassette: Any) -> list[tuple[str, str, dict[str, Any]]]:
    """Every non-GET request the run replayed, with its recorded JSON body."""
    return [
        (request.method, request.path, json.loads(request.body))
        for index, request in enumerate(cassette.requests)
        if is_write(request.method, request.path) and cassette.play_counts[index]
    ]


@pytest.fixture
def played_in_full() -> Iterator[list[Any]]:
    """Collects cassettes; asserts afterwards that the run made every recorded request."""
    cassettes: list[Any] = []
    yield cassettes
    for cassette in cassettes:
        assert cassette.all_played, f"{cassette._path}: some recorded requests were not made"


def run_replayed(name: str, env: dict[str, str], played_in_full: list[Any]) -> tuple[int, Any]:
    with replay(E2E / f"{name}.yaml") as cassette:
        code = run_action(env)
    played_in_full.append(cassette)
    return code, cassette


def test_a_passing_sign_off_gets_one_verdict_comment_and_a_success_status(
    tmp_path: Path, played_in_full: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    env = action_env(tmp_path, "issue_comment", "issue_comment.created.pull_request")
    code, cassette = run_replayed("pass_created", env, played_in_full)
    assert code == 0
    (comment, status) = writes(cassette)
    assert comment[:2] == ("POST", f"/repos/{REPO}/issues/2700/comments")
    body = comment[2]["body"]
    assert body.startswith(f"<!-- codeowner-signoff-verify sha={HEAD} -->\n")
    assert "**Verdict: PASS**" in body and "@kedarpotdar-nv" not in body
    assert status[1] == f"/repos/{REPO}/statuses/{HEAD}"
    assert status[2]["state"] == "success"
    assert status[2]["target_url"] == f"{PR_URL}#issuecomment-2400027004"
    out = outputs(tmp_path)
    assert out == {
        "verdict": "PASS",
        "comment-url": f"{PR_URL}#issuecomment-2400027004",
        "evidence-path": str(tmp_path / f"signoff-evidence-{HEAD}.json"),
    }
    evidence = json.loads(Path(out["evidence-path"]).read_text(encoding="utf-8"))
    assert evidence["pull_request"]["head_sha"] == HEAD
    assert (tmp_path / "summary.md").read_text(encoding="utf-8") == body
    assert "signoff: verdict PASS" in capsys.readouterr().out


def test_re_running_on_an_edit_leaves_the_identical_verdict_untouched(
    tmp_path: Path, played_in_full: list[Any]
) -> None:
    env = action_env(tmp_path, "issue_comment", "issue_comment.edited.pull_request")
    code, cassette = run_replayed("pass_rerun_unchanged", env, played_in_full)
    assert code == 0
    assert [(method, path) for method, path, _ in writes(cassette)] == [
        ("POST", f"/repos/{REPO}/statuses/{HEAD}")
    ]
    assert outputs(tmp_path)["comment-url"] == f"{PR_URL}#issuecomment-2400027004"


def test_a_rejected_sign_off_updates_our_stale_verdict_and_ignores_a_forged_pass(
    tmp_path: Path, played_in_full: list[Any]
) -> None:
    env = action_env(tmp_path, "issue_comment", "issue_comment.created.pull_request")
    code, cassette = run_replayed("rejected_updated", env, played_in_full)
    assert code == 1
    (comment, status) = writes(cassette)
    # 2400027102: github-actions[bot]'s outdated verdict; 2400027101, a user's forgery, untouched.
    assert comment[:2] == ("PATCH", f"/repos/{REPO}/issues/comments/2400027102")
    assert "**REJECTED**" in comment[2]["body"]
    assert comment[2]["body"].splitlines()[2].startswith("@kedarpotdar-nv ")
    assert (status[2]["state"], status[2]["description"]) == (
        "failure",
        "Sign-off verification rejected - see verdict comment",
    )
    assert outputs(tmp_path)["verdict"] == "REJECTED"
    assert "**REJECTED**" in (tmp_path / "summary.md").read_text(encoding="utf-8")


def test_each_failing_row_of_a_rejected_verdict_is_an_error_annotation_on_the_run(
    tmp_path: Path, played_in_full: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    env = action_env(tmp_path, "issue_comment", "issue_comment.created.pull_request")
    code, _ = run_replayed("rejected_updated", env, played_in_full)
    assert code == 1
    errors = [line for line in capsys.readouterr().out.splitlines() if line.startswith("::error")]
    evidence = json.loads(Path(outputs(tmp_path)["evidence-path"]).read_text(encoding="utf-8"))
    assert errors and all(re.match(r"::error title=Check \d+ \([^:,]+\)::\S", e) for e in errors)
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    failing = re.findall(r"Check (\d+) \(([^)]+)\): FAIL", summary)
    assert [e.split("::")[1] for e in errors] == [
        f"error title=Check {n} ({name})" for n, name in failing
    ]
    assert evidence["pull_request"]["head_sha"] == HEAD


def test_an_edit_by_a_collaborator_fails_check_0_naming_the_editor_and_the_log_says_so(
    tmp_path: Path, played_in_full: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    env = action_env(tmp_path, "issue_comment", "issue_comment.edited.by_collaborator")
    code, cassette = run_replayed("edited_by_collaborator", env, played_in_full)
    assert code == 1
    (comment, status) = writes(cassette)
    row = next(line for line in comment[2]["body"].splitlines() if "Check 0 (CODEOWNER):" in line)
    assert (
        "): FAIL" in row and "edited by nv-perf-dev, not only by its author kedarpotdar-nv" in row
    )
    assert status[2]["state"] == "failure"
    graphql = [r for r in cassette.requests if r.path.endswith("/graphql")]
    edits = [r for r in graphql if b"node(id: $signoff)" in r.body]
    # The edit history's one page rides in a texts query; no query of its own goes out.
    assert len(edits) == 1 and not any(b"query SignoffEdits" in r.body for r in graphql)
    log = capsys.readouterr().out
    assert "::warning title=signoff::the sign-off was edited by nv-perf-dev" in log


def test_a_sign_off_by_someone_who_cannot_be_a_codeowner_is_skipped_and_writes_nothing(
    tmp_path: Path, played_in_full: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    env = action_env(tmp_path, "issue_comment", "issue_comment.created.by_nonowner")
    code, cassette = run_replayed("nonowner_skipped", env, played_in_full)
    assert code == 0 and writes(cassette) == []
    assert outputs(tmp_path)["verdict"] == "SKIPPED"
    skipped = [line for line in capsys.readouterr().out.splitlines() if "skipped" in line]
    assert len(skipped) == 1 and "mallory-x (NONE) cannot be a CODEOWNER" in skipped[0]


def test_a_dispatch_on_our_own_verdict_comment_is_bad_input_and_writes_nothing(
    tmp_path: Path, played_in_full: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    env = action_env(
        tmp_path,
        "workflow_dispatch",
        "workflow_dispatch",
        SIGNOFF_COMMENT_URL=f"{PR_URL}#issuecomment-2400027100",
    )
    code, cassette = run_replayed("dispatch_not_signoff", env, played_in_full)
    assert code == 2 and writes(cassette) == []
    assert outputs(tmp_path)["verdict"] == "ERROR"
    errors = [line for line in capsys.readouterr().out.splitlines() if "::error" in line]
    assert len(errors) == 1 and "#issuecomment-2400027100 is not a sign-off" in errors[0]


def test_a_dispatch_for_a_review_with_comments_off_only_sets_the_status(
    tmp_path: Path, played_in_full: list[Any]
) -> None:
    env = action_env(
        tmp_path,
        "workflow_dispatch",
        "workflow_dispatch",
        SIGNOFF_COMMENT_URL=f"{PR_URL}#pullrequestreview-2900027001",
        SIGNOFF_POST_COMMENT="false",
        SIGNOFF_STATUS_CONTEXT="signoff/inferencex",
    )
    code, cassette = run_replayed("review_dispatch_status_only", env, played_in_full)
    assert code == 0
    ((method, path, sent),) = writes(cassette)
    assert (method, path) == ("POST", f"/repos/{REPO}/statuses/{HEAD}")
    assert (sent["state"], sent["context"], sent["target_url"]) == (
        "success",
        "signoff/inferencex",
        RUN_URL,
    )
    assert outputs(tmp_path)["comment-url"] == ""


def test_when_github_cannot_be_read_the_status_is_error_and_the_exit_code_is_3(
    tmp_path: Path, played_in_full: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    env = action_env(tmp_path, "issue_comment", "issue_comment.created.pull_request")
    code, cassette = run_replayed("could_not_verify", env, played_in_full)
    assert code == 3
    ((_, _, sent),) = writes(cassette)
    assert (sent["state"], sent["target_url"]) == ("error", RUN_URL)
    assert len(sent["description"]) <= 140
    assert outputs(tmp_path) == {"verdict": "ERROR", "comment-url": "", "evidence-path": ""}
    assert "could not verify" in (tmp_path / "summary.md").read_text(encoding="utf-8")
    log = capsys.readouterr().out
    assert "::error title=signoff::could not verify: GitHub" in log
    assert "Traceback" not in log


@pytest.mark.parametrize(
    ("event", "fixture", "reason"),
    [
        ("issue_comment", "issue_comment.created.verdict_by_bot", "bot"),
        ("issue_comment", "issue_comment.created.verdict_by_user", "verdict marker"),
        (
            "issue_comment",
            "issue_comment.created.quote_only",
            "does not contain the sign-off opener",
        ),
        ("issue_comment", "issue_comment.created.issue", "not on a pull request"),
        ("pull_request_review", "pull_request_review.submitted.approval_without_body", "no body"),
    ],
)
def test_a_skipped_event_exits_0_with_a_reason_and_no_github_request(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    event: str,
    fixture: str,
    reason: str,
) -> None:
    def no_network(token: str | None, api_url: str | None = None) -> Github:
        raise AssertionError("a skipped event must not talk to GitHub")

    monkeypatch.setattr(action, "connect", no_network)
    env = action_env(tmp_path, event, fixture)
    assert run_action(env) == 0
    skipped = [line for line in capsys.readouterr().out.splitlines() if "skipped" in line]
    assert len(skipped) == 1 and reason in skipped[0]
    assert outputs(tmp_path)["verdict"] == "SKIPPED"
    assert not (tmp_path / "summary.md").exists()


def test_an_empty_token_is_bad_input(tmp_path: Path) -> None:
    env = action_env(tmp_path, "issue_comment", "issue_comment.created.pull_request")
    env["SIGNOFF_TOKEN"] = ""
    assert run_action(env) == 2
    assert outputs(tmp_path)["verdict"] == "ERROR"


def test_a_post_comment_value_that_is_not_a_boolean_is_bad_input(tmp_path: Path) -> None:
    env = action_env(
        tmp_path, "issue_comment", "issue_comment.created.pull_request", SIGNOFF_POST_COMMENT="yep"
    )
    assert run_action(env) == 2


@pytest.mark.parametrize("context", ["codeowner-signoff-verify\nforged", "ctx\r", "a\x1bb"])
def test_a_status_context_with_a_newline_is_bad_input_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], context: str
) -> None:
    env = action_env(
        tmp_path,
        "issue_comment",
        "issue_comment.created.pull_request",
        SIGNOFF_STATUS_CONTEXT=context,
    )
    with replay(E2E / "pass_created.yaml") as cassette:  # any request would be played from here
        assert run_action(env) == 2
    assert not any(cassette.play_counts.values())
    assert outputs(tmp_path)["verdict"] == "ERROR"
    (line,) = [ln for ln in capsys.readouterr().out.splitlines() if "status-context" in ln]
    assert line.startswith("::error title=signoff::input status-context must be one line")


def test_a_dispatch_for_another_repository_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env = action_env(
        tmp_path,
        "workflow_dispatch",
        "workflow_dispatch",
        SIGNOFF_COMMENT_URL="https://github.com/someone/else/pull/1#issuecomment-9",
    )
    assert run_action(env) == 2
    assert "someone/else" in capsys.readouterr().out


def test_outside_github_actions_the_missing_event_is_bad_input(tmp_path: Path) -> None:
    assert run_action({"GITHUB_OUTPUT": str(tmp_path / "output")}) == 2


def test_an_unknown_profile_path_is_bad_input(tmp_path: Path) -> None:
    env = action_env(
        tmp_path,
        "issue_comment",
        "issue_comment.created.pull_request",
        SIGNOFF_PROFILE=str(tmp_path / "missing.yaml"),
    )
    assert run_action(env) == 2


def test_a_refused_comment_still_sets_the_status_and_fails_the_run(
    tmp_path: Path, played_in_full: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    env = action_env(tmp_path, "issue_comment", "issue_comment.created.pull_request")
    code, cassette = run_replayed("comment_forbidden", env, played_in_full)
    assert code == 3
    status = [sent for method, path, sent in writes(cassette) if "/statuses/" in path]
    assert status and status[0]["state"] == "success" and status[0]["target_url"] == RUN_URL
    assert outputs(tmp_path)["verdict"] == "ERROR"
    assert "could not write the verdict comment" in capsys.readouterr().out


def test_an_unknown_standard_input_is_bad_input_before_any_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env = action_env(
        tmp_path, "issue_comment", "issue_comment.created.pull_request", SIGNOFF_STANDARD="E0"
    )
    assert run_action(env) == 2
    assert outputs(tmp_path)["verdict"] == "ERROR"
    assert "unknown standard 'E0'" in capsys.readouterr().out


def test_an_error_quoting_pr_controlled_text_is_inert_in_the_job_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Artifact and file names come from the PR's configs; an error naming one must not render
    # a link or an image in the job summary.
    def failing_verify(gh: Any, ref: SignoffRef, *args: Any, **kwargs: Any) -> VerifyOutcome:
        error = "could not verify: artifact eval_[PASS](evil.example) ![x](y) <b>hi</b> failed"
        return VerifyOutcome(ref=ref, error=error)

    monkeypatch.setattr(action, "verify", failing_verify)
    env = action_env(tmp_path, "issue_comment", "issue_comment.created.pull_request")
    assert run_action(env) == 3
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "could not verify: artifact eval" in summary
    assert "[PASS](" not in summary and "![x](" not in summary and "<b>" not in summary
