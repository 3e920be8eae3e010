"""Bad input: exit 2 and one line on stderr naming what is wrong; no traceback, no verdict, no write.

Every case runs the command as a user does (`signoff.cli.main`); the `verify` cases replay the
README demo with `--publish`, so any request or write the command made would show.
"""

from __future__ import annotations

import json
import re
import types
from pathlib import Path
from typing import Any

import pytest
from builders import DATA, build, passing_parts, signoff_body
from cassette_helpers import CASSETTES, cassette, info
from make_examples import OUT

from signoff.cli import main
from signoff.errors import InputError
from signoff.evidence import dump_evidence
from signoff.judge import registry
from signoff.refs import parse_signoff_url
from signoff.replay import replay as real_replay

ROOT = Path(__file__).resolve().parents[2]
DEMO = info("demo")["signoff_url"]
EVENTS = ROOT / "tests" / "data" / "events"
NOT_UTF8 = b"\xff\xfe\x00\x81 binary"


def one_line_exit_2(capsys: pytest.CaptureFixture[str], *needles: str) -> str:
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1, captured.err
    assert "Traceback" not in captured.err
    for needle in needles:
        assert needle in captured.err
    return captured.err


def verify_demo(*extra: str) -> int:
    return main(["verify", DEMO, "--replay", str(cassette("demo")), "--publish", *extra])


# --- verify --------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["a directory", "a missing folder"])
def test_an_unwritable_evidence_out_is_refused_before_anything_is_published(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    target = tmp_path if where == "a directory" else tmp_path / "missing" / "bundle.json"
    assert verify_demo("--evidence-out", str(target)) == 2
    one_line_exit_2(capsys, str(target))
    assert played == []  # the cassette was never even opened: nothing read, nothing written
    assert not (tmp_path / "missing").exists()


def test_a_writable_evidence_out_gets_the_bundle_after_the_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    target = tmp_path / "bundle.json"
    assert verify_demo("--evidence-out", str(target)) == 0
    assert json.loads(target.read_text(encoding="utf-8"))["pull_request"]["number"] == 2700


def test_a_run_that_cannot_verify_leaves_no_empty_evidence_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    target = tmp_path / "bundle.json"
    described = info("truncated_json")
    code = main(
        [
            "verify",
            described["signoff_url"],
            "--replay",
            str(cassette("truncated_json")),
            "--evidence-out",
            str(target),
        ]
    )
    assert code == 3 and not target.exists()


@pytest.mark.parametrize(
    "content",
    [b"hello: [1", b"just text\n", b'{"a": 1}', b"interactions: [1, 2]\n", b"", NOT_UTF8],
    ids=["broken-yaml", "text", "json-object", "bad-interactions", "empty", "binary"],
)
def test_a_replay_file_that_is_not_a_cassette_is_bad_input(
    content: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = tmp_path / "fake.yaml"
    fake.write_bytes(content)
    assert main(["verify", DEMO, "--replay", str(fake)]) == 2
    one_line_exit_2(capsys, str(fake), "cassette")


def test_a_replay_path_that_is_a_directory_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", DEMO, "--replay", str(tmp_path)]) == 2
    one_line_exit_2(capsys, str(tmp_path), "--replay takes a cassette file, and this is a folder")


BAD_URLS = {
    "full-width digits": "https://github.com/o/r/pull/\uff11\uff12#issuecomment-5",
    "dot-dot owner": "https://github.com/../r/pull/1#issuecomment-5",
    "dot-dot repo": "https://github.com/o/../pull/1#issuecomment-5",
    "29-digit PR": "https://github.com/o/r/pull/" + "9" * 29 + "#issuecomment-5",
    "29-digit id": "https://github.com/o/r/pull/1#issuecomment-" + "9" * 29,
    "PR 0": "https://github.com/o/r/pull/0#issuecomment-5",
    "comment 0": "https://github.com/o/r/pull/1#issuecomment-0",
    "leading zero": "https://github.com/o/r/pull/01#issuecomment-5",
    "other host": "https://evil.example/o/r/pull/1#issuecomment-5",
    "api host": "https://api.github.com/o/r/pull/1#issuecomment-5",
    "plain http": "http://github.com/o/r/pull/1#issuecomment-5",
    "no anchor": "https://github.com/o/r/pull/1",
    "anchor in the path": "https://github.com/o/r/pull/1/issuecomment-5",
    "trailing junk": "https://github.com/o/r/pull/1abc#issuecomment-5",
    "id with junk": "https://github.com/o/r/pull/1#issuecomment-5x",
    "space inside": "https://github.com/o/r/pull/1 #issuecomment-5",
    "issue, not pull": "https://github.com/o/r/issues/1#issuecomment-5",
    "extra path": "https://github.com/o/r/x/pull/1#issuecomment-5",
}


@pytest.mark.parametrize("url", list(BAD_URLS.values()), ids=list(BAD_URLS))
def test_a_url_that_is_not_a_sign_off_on_this_github_is_refused_before_any_request(
    url: str, capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    assert main(["verify", url, "--replay", str(cassette("demo")), "--publish"]) == 2
    one_line_exit_2(capsys)
    assert played == []


def test_the_github_enterprise_host_behind_the_api_url_is_the_one_accepted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ghes = "https://ghe.example.com/o/r/pull/12#discussion_r34"
    ref = parse_signoff_url(ghes, api_url="https://ghe.example.com/api/v3")
    assert (ref.full_name, ref.pr, ref.kind, ref.id) == ("o/r", 12, "inline review comment", 34)
    monkeypatch.setenv("GITHUB_API_URL", "https://ghe.example.com/api/v3")
    assert parse_signoff_url(ghes).pr == 12
    with pytest.raises(InputError, match=re.escape("not a URL on https://ghe.example.com")):
        parse_signoff_url("https://github.com/o/r/pull/12#discussion_r34")
    review = parse_signoff_url(
        "https://www.github.com/o/r/pull/3/files#pullrequestreview-9",
        api_url="https://api.github.com",
    )
    assert (review.pr, review.kind, review.id) == (3, "review summary", 9)


@pytest.mark.parametrize(
    "api_url",
    ["notaurl", "ftp://example.com", "https://[::1", "https://api.github.com:99999"],
)
def test_an_api_url_that_is_no_url_is_bad_input(
    api_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "t")
    assert main(["verify", DEMO, "--api-url", api_url]) == 2
    one_line_exit_2(capsys, "GitHub API URL")


def test_an_api_url_with_a_password_is_refused_without_echoing_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "t")
    assert main(["verify", DEMO, "--api-url", "https://me:s3cret@api.github.com"]) == 2
    err = one_line_exit_2(capsys, "credentials")
    assert "s3cret" not in err


def test_an_empty_token_env_name_is_bad_input(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    assert main(["verify", DEMO, "--token-env", ""]) == 2
    one_line_exit_2(capsys, "--token-env")


def test_the_replayed_demo_says_that_nothing_was_sent(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    assert verify_demo() == 0
    err = capsys.readouterr().err
    assert "replayed" in err and "nothing was sent to GitHub" in err
    assert "published:" not in err


# --- judge: strict bundles -----------------------------------------------------------------


def _bundle(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "bundle.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ('"schema_version": 2', '"schema_version": "2"', "schema_version"),
        ('"number": 2650', '"number": true', "pull_request.number"),
        ('"draft": false', '"draft": 0', "pull_request.draft"),
    ],
)
def test_judge_validates_a_bundle_strictly_instead_of_coercing(
    old: str, new: str, where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = dump_evidence(build(passing_parts()))
    assert old in text
    assert main(["judge", str(_bundle(tmp_path, text.replace(old, new, 1)))]) == 2
    one_line_exit_2(capsys, where)


def test_a_binary_bundle_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", str(_bundle(tmp_path, NOT_UTF8))]) == 2
    one_line_exit_2(capsys, "not UTF-8")


def test_a_bundle_in_latin_1_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = dump_evidence(build(passing_parts())).encode("utf-8")
    latin_1 = text.replace(b'"title": "', b'"title": "caf\xe9 ', 1)  # e-acute as Latin-1
    assert latin_1 != text
    assert main(["judge", str(_bundle(tmp_path, latin_1))]) == 2
    one_line_exit_2(capsys, "not UTF-8")


# --- profiles ------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["judge", "parse", "checks", "verify"])
def test_a_binary_profile_is_bad_input_for_every_command(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    profile = tmp_path / "profile.yaml"
    profile.write_bytes(NOT_UTF8)
    comment = tmp_path / "comment.md"
    comment.write_text("LGTM\n", encoding="utf-8")
    args = {
        "judge": ["judge", str(OUT / "pass.json")],
        "parse": ["parse", str(comment)],
        "checks": ["checks"],
        "verify": ["verify", DEMO, "--replay", str(cassette("demo")), "--publish"],
    }[command]
    assert main([*args, "--profile", str(profile)]) == 2
    one_line_exit_2(capsys, str(profile), "not UTF-8")
    assert played == []


def test_checks_with_a_missing_profile_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["checks", "--profile", "/no/such/profile.yaml"]) == 2
    one_line_exit_2(capsys, "/no/such/profile.yaml")


def test_action_reads_the_profile_flag_over_the_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SIGNOFF_PROFILE", str(ROOT / "checklists" / "inferencex.yaml"))
    monkeypatch.setenv("GITHUB_OUTPUT", str(tmp_path / "output"))
    assert main(["action", "--profile", "/no/such/profile.yaml"]) == 2
    out = capsys.readouterr().out
    assert "::error title=signoff::/no/such/profile.yaml" in out
    assert "verdict<<" in (tmp_path / "output").read_text(encoding="utf-8")


def test_there_is_one_profile_and_the_wheel_maps_it_from_checklists() -> None:
    from signoff.policy import default_profile_path

    assert default_profile_path() == ROOT / "checklists" / "inferencex.yaml"
    assert sorted(p.name for p in (ROOT / "signoff").rglob("*.yaml")) == []
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"signoff.checklists" = "checklists"' in pyproject
    assert '"signoff.checklists" = ["*.yaml"]' in pyproject
    packages = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "signoff").rglob("__init__.py")
    }
    for package in sorted(packages | {"signoff.checklists"}):
        assert f'"{package}",' in pyproject, f"{package} is not packaged"


# --- parse ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "template", ["", "# A page\n\nNo boxes here.\n"], ids=["empty", "no-items"]
)
def test_parse_against_a_template_without_items_is_bad_input(
    template: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    comment = tmp_path / "comment.md"
    comment.write_text(signoff_body(), encoding="utf-8")
    page = tmp_path / "PR_REVIEW_CHECKLIST.md"
    page.write_text(template, encoding="utf-8")
    assert main(["parse", str(comment), "--template", str(page)]) == 2
    one_line_exit_2(capsys, str(page), "no checklist items")


def test_parse_against_the_real_template_still_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    comment = tmp_path / "comment.md"
    comment.write_text(signoff_body(), encoding="utf-8")
    template = DATA / "markdown" / "PR_REVIEW_CHECKLIST_v21.md"
    assert main(["parse", str(comment), "--template", str(template), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["missing"] == []


def test_parse_of_a_binary_comment_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    comment = tmp_path / "comment.md"
    comment.write_bytes(NOT_UTF8)
    assert main(["parse", str(comment)]) == 2
    one_line_exit_2(capsys, "not UTF-8")


# --- a crash inside a check ----------------------------------------------------------------


@pytest.fixture
def crashing_check(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(ctx: Any) -> Any:
        raise ValueError("entry `dsv4` has no runner")

    broken = types.SimpleNamespace(
        ID="reuse-command", NAME="reuse command", evaluate=boom, __doc__=""
    )
    monkeypatch.setitem(registry.CHECKS, "reuse-command", broken)


def test_a_crashing_check_is_reported_with_its_message(
    crashing_check: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["judge", str(OUT / "pass.json"), "--format", "json"]) == 1
    captured = capsys.readouterr()
    reason = next(c["reason"] for c in json.loads(captured.out)["checks"] if c["number"] == 4)
    assert "ValueError: `entry 'dsv4' has no runner`" in reason
    assert "Traceback" not in captured.err


def test_debug_prints_the_traceback_of_a_crashing_check(
    crashing_check: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["judge", str(OUT / "pass.json"), "--debug"]) == 1
    err = capsys.readouterr().err
    assert "check 4 (reuse command) crashed" in err
    assert "Traceback" in err and "ValueError: entry `dsv4` has no runner" in err


# --- the Action's runner files -------------------------------------------------------------


def action_env(tmp_path: Path, **overrides: str) -> dict[str, str]:
    env = {
        "GITHUB_EVENT_NAME": "issue_comment",
        "GITHUB_EVENT_PATH": str(EVENTS / "issue_comment.created.pull_request.json"),
        "GITHUB_REPOSITORY": "SemiAnalysisAI/InferenceX",
        "GITHUB_OUTPUT": str(tmp_path / "output"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "RUNNER_TEMP": str(tmp_path),
        "SIGNOFF_TOKEN": "replay-token",
        **overrides,
    }
    return env


@pytest.mark.parametrize("variable", ["SIGNOFF_EVIDENCE_PATH", "GITHUB_STEP_SUMMARY"])
def test_an_action_file_that_is_a_directory_stops_before_verifying_and_still_says_error(
    variable: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    played: list[Any],
) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    for name, value in action_env(tmp_path, **{variable: str(folder)}).items():
        monkeypatch.setenv(name, value)
    with real_replay(CASSETTES / "publish" / "e2e" / "pass_created.yaml") as recorded:
        assert main(["action"]) == 2
    assert recorded.play_count == 0  # nothing read, nothing published
    out = capsys.readouterr().out
    assert out.count("::error") == 1 and str(folder) in out and "directory" in out
    assert "verdict<<" in (tmp_path / "output").read_text(encoding="utf-8")
    assert "ERROR" in (tmp_path / "output").read_text(encoding="utf-8")


def test_an_output_file_that_is_a_directory_stops_before_verifying(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    for name, value in action_env(tmp_path, GITHUB_OUTPUT=str(folder)).items():
        monkeypatch.setenv(name, value)
    with real_replay(CASSETTES / "publish" / "e2e" / "pass_created.yaml") as recorded:
        assert main(["action"]) == 2
    assert recorded.play_count == 0
    out = capsys.readouterr().out
    assert out.count("::error") == 1 and "$GITHUB_OUTPUT" in out
    assert list(folder.iterdir()) == []


# --- a bug is never a traceback or an exit code that reads as REJECTED ---------------------


def test_an_unexpected_error_is_one_line_and_exit_3(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> int:
        raise RuntimeError("something\nunforeseen")

    monkeypatch.setattr("signoff.verify_command.run_verify_command", broken)
    assert main(["verify", DEMO]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "internal error RuntimeError: something unforeseen" in err
    assert main(["verify", DEMO, "--debug"]) == 3
    assert "Traceback" in capsys.readouterr().err


def test_an_unexpected_error_in_the_action_still_says_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("unforeseen")

    for name, value in action_env(tmp_path).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr("signoff.action._gate", broken)
    assert main(["action"]) == 3
    assert "internal error RuntimeError" in capsys.readouterr().out
    assert "ERROR" in (tmp_path / "output").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "argv",
    [["judge", "x.json", "--format", "xml"], ["verify"], [], ["frobnicate"]],
    ids=["bad-choice", "missing-url", "no-command", "unknown-command"],
)
def test_a_usage_error_is_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("signoff")


def test_a_token_with_characters_no_token_has_is_bad_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, played: list[Any]
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_\u00e9t\u00e9 pasted")
    assert main(["verify", DEMO, "--replay", str(cassette("demo")), "--publish"]) == 2
    err = one_line_exit_2(capsys, "GITHUB_TOKEN")
    assert "pasted" not in err  # the token itself is never echoed
    assert played == []


def test_a_key_written_twice_in_the_profile_is_bad_input_naming_its_line(tmp_path: Path) -> None:
    from signoff.errors import PolicyError
    from signoff.policy import load_policy

    checklists = ROOT / "checklists"
    shipped = (checklists / "inferencex.yaml").read_text(encoding="utf-8")
    standards = "inferencex-standards.yaml"
    (tmp_path / standards).write_text((checklists / standards).read_text(encoding="utf-8"))
    doubled = shipped.replace("\nsweep:\n", "\nsweep:\n  default_scope: single-node-fixed\n", 1)
    assert doubled != shipped and doubled.count("default_scope:") == 2
    profile = tmp_path / "profile.yaml"
    profile.write_text(doubled, encoding="utf-8")
    second = [n for n, text in enumerate(doubled.split("\n"), 1) if "default_scope:" in text][1]
    message = f"profile.yaml:{second}: policy profile names the key 'default_scope' twice"
    with pytest.raises(PolicyError, match=message):
        load_policy(profile)
