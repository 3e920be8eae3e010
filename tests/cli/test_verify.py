"""`verify()` and `signoff verify`: pin, gather, judge, (publish), map outcomes to exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cassette_helpers import is_write

from signoff.github.client import connect
from signoff.policy import Policy
from signoff.refs import parse_signoff_url
from signoff.replay import replay
from signoff.verify import verify
from signoff.verify_command import failure_line, run_verify_command

ROOT = Path(__file__).resolve().parents[2]
E2E = ROOT / "cassettes" / "publish" / "e2e"
URL = "https://github.com/SemiAnalysisAI/InferenceX/pull/2700#issuecomment-2400027003"
HEAD = "d9a2aaf0b52bb6e758ad6e4dedad360652b10f74"


def test_verify_without_publishing_pins_the_head_and_writes_nothing(policy: Policy) -> None:
    gh = connect("replay-token", mode="test")
    with replay(E2E / "pass_created.yaml") as cassette:
        outcome = verify(gh, parse_signoff_url(URL), policy, publish=False, identity=None)
    assert (outcome.result, outcome.head_sha, outcome.status_state) == ("PASS", HEAD, None)
    assert outcome.evidence is not None and outcome.evidence.pull_request.head_sha == HEAD
    replayed = [r for i, r in enumerate(cassette.requests) if cassette.play_counts[i]]
    assert replayed and not any(is_write(r.method, r.path) for r in replayed)


def test_a_gather_failure_is_returned_not_raised(policy: Policy) -> None:
    gh = connect("replay-token", mode="test")
    with replay(E2E / "could_not_verify.yaml"):
        outcome = verify(gh, parse_signoff_url(URL), policy, publish=False, identity=None)
    assert outcome.result == "ERROR" and int(outcome.exit_code) == 3
    assert outcome.verdict is None and outcome.head_sha == HEAD


def test_the_cli_prints_the_markdown_verdict_and_exits_0_on_pass(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bundle = tmp_path / "evidence.json"
    code = run_verify_command(URL, replay=str(E2E / "pass_created.yaml"), evidence_out=str(bundle))
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith(f"<!-- codeowner-signoff-verify sha={HEAD} -->\n")
    assert json.loads(bundle.read_text(encoding="utf-8"))["pull_request"]["head_sha"] == HEAD


def test_the_cli_prints_json_when_asked_and_exits_1_on_rejection(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = run_verify_command(URL, replay=str(E2E / "rejected_updated.yaml"), fmt="json")
    assert code == 1
    assert json.loads(capsys.readouterr().out)["verdict"] == "REJECTED"


def test_the_cli_without_a_token_or_cassette_is_bad_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_verify_command(URL) == 2
    assert capsys.readouterr().err.strip() == "signoff: GH_TOKEN or GITHUB_TOKEN is not set"


def test_the_cli_rejects_a_url_without_a_comment_anchor(capsys: pytest.CaptureFixture[str]) -> None:
    code = run_verify_command("https://github.com/o/r/pull/1", replay="x.yaml")
    assert code == 2
    assert "anchor" in capsys.readouterr().err


def test_a_missing_cassette_is_bad_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run_verify_command(URL, replay=str(tmp_path / "none.yaml")) == 2
    assert "no such cassette" in capsys.readouterr().err


def test_could_not_verify_is_one_line_on_stderr_with_exit_3(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = run_verify_command(URL, replay=str(E2E / "could_not_verify.yaml"))
    err = capsys.readouterr().err
    assert code == 3
    assert err.count("\n") == 1 and err.startswith("signoff: could not verify: ")
    assert "Traceback" not in err


def test_a_cassette_lacking_a_request_is_could_not_verify_not_a_crash(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # That recording never published a comment, so it holds no GET /user for --publish.
    code = run_verify_command(
        URL.replace("issuecomment-2400027003", "pullrequestreview-2900027001"),
        replay=str(E2E / "review_dispatch_status_only.yaml"),
        publish=True,
    )
    assert code == 3
    assert "has no answer for" in capsys.readouterr().err


def test_failure_lines_always_say_what_could_not_be_done() -> None:
    assert failure_line("could not write the verdict comment") == (
        "could not write the verdict comment"
    )
    assert failure_line("boom\n::error::x") == "could not verify: boom ::error::x"


def test_the_saved_evidence_re_judges_to_the_byte_identical_verdict(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from signoff.cli import main

    bundle = tmp_path / "evidence.json"
    for cassette in ("pass_created.yaml", "rejected_updated.yaml"):
        code = run_verify_command(URL, replay=str(E2E / cassette), evidence_out=str(bundle))
        live = capsys.readouterr().out
        assert main(["judge", str(bundle)]) == code  # the audit trail alone reproduces it
        assert capsys.readouterr().out == live
