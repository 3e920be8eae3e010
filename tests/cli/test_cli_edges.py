"""The command line's edges a new user meets first: `parse` as a gate and on standard input,
`audit merge --help`, the token variables read as gh reads them, help text for every option,
and one-line errors in words (never Python's exception text)."""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

import pytest
from builders import DATA, signoff_body
from cassette_helpers import cassette, info

from signoff.cli import build_merge_parser, build_parser, main
from signoff.github.client import read_token, token_names

TEMPLATE = DATA / "markdown" / "PR_REVIEW_CHECKLIST_v21.md"
DEMO = info("demo")["signoff_url"]


def stdin_of(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


# --- parse -----------------------------------------------------------------------------------


def test_parse_exits_0_for_a_complete_sign_off_and_1_when_an_item_is_missing_or_unchecked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    comment = tmp_path / "comment.md"
    comment.write_text(signoff_body(), encoding="utf-8")
    assert main(["parse", str(comment), "--template", str(TEMPLATE)]) == 0
    capsys.readouterr()
    unchecked = signoff_body().replace("- [x]", "- [ ]", 1)
    comment.write_text(unchecked, encoding="utf-8")
    assert main(["parse", str(comment), "--template", str(TEMPLATE), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert len(report["unchecked"]) == 1 and report["missing"] == []


def test_parse_dash_reads_the_comment_from_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin_of(monkeypatch, signoff_body().encode())
    assert main(["parse", "-", "--template", str(TEMPLATE), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["signer"] == "ankur-singh"


def test_parse_of_standard_input_that_is_not_utf8_names_the_byte(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin_of(monkeypatch, b"As a PR reviewer \xd0")
    assert main(["parse", "-"]) == 2
    assert capsys.readouterr().err == "signoff: standard input: not UTF-8 at byte 17\n"


def test_parse_of_a_folder_says_it_is_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["parse", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"signoff: {tmp_path}: is a folder, not a file\n"


# --- audit merge --help ----------------------------------------------------------------------


def test_audit_merge_help_shows_merges_own_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["audit", "merge", "--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: signoff audit merge ") and "REPORT.json" in out
    assert "--since" not in out and "--cache-dir" not in out


# --- every option says what it does ----------------------------------------------------------


def _parsers() -> list[argparse.ArgumentParser]:
    top = build_parser()
    (sub,) = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
    return [top, *sub.choices.values(), build_merge_parser()]


def test_every_option_of_every_command_has_help_text_and_every_format_names_its_choices() -> None:
    for parser in _parsers():
        for action in parser._actions:
            if action.help == argparse.SUPPRESS or not action.option_strings:
                continue
            assert action.help, (parser.prog, action.option_strings)
            if "--format" in action.option_strings:
                assert action.choices is not None
                assert all(str(choice) in action.help for choice in action.choices), parser.prog


# --- tokens, as gh reads them ----------------------------------------------------------------


def test_gh_token_wins_over_github_token_as_gh_documents(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "from-github-token")
    assert read_token(None) == ("GITHUB_TOKEN", "from-github-token")
    monkeypatch.setenv("GH_TOKEN", "from-gh-token")
    assert read_token(None) == ("GH_TOKEN", "from-gh-token")
    monkeypatch.setenv("GH_TOKEN", "  ")  # blank counts as unset
    assert read_token(None) == ("GITHUB_TOKEN", "from-github-token")
    assert read_token("MY_TOKEN") == ("", "")  # --token-env NAME reads that one only


def test_github_enterprise_reads_the_enterprise_tokens_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ghes = "https://ghe.example.com/api/v3"
    assert token_names(None, ghes)[:2] == ("GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN")
    monkeypatch.setenv("GH_TOKEN", "dotcom")
    monkeypatch.setenv("GITHUB_ENTERPRISE_TOKEN", "enterprise")
    assert read_token(None, ghes) == ("GITHUB_ENTERPRISE_TOKEN", "enterprise")
    assert read_token(None) == ("GH_TOKEN", "dotcom")


def test_without_any_token_the_error_names_both_variables(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["audit", "o/r"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("signoff: GH_TOKEN or GITHUB_TOKEN is not set")


# --- one-line errors in words ----------------------------------------------------------------

NOT_A_CASSETTE = {
    "binary": (b"interactions:\n\xd0\x00", "not a cassette (not UTF-8 at byte 14)"),
    "empty": (b"", "not a cassette (empty)"),
    "json object": (b'{"a": 1}', "no `interactions` list at the top"),
    "broken yaml": (b"interactions: [1\n", "not a cassette (not YAML (line 2))"),
    "bare items": (b"interactions: [1, 2]\n", "interaction 1 lacks a `request` or `response`"),
}


@pytest.mark.parametrize(("content", "words"), NOT_A_CASSETTE.values(), ids=list(NOT_A_CASSETTE))
def test_a_file_that_is_no_cassette_is_refused_saying_what_is_wrong_with_it(
    content: bytes, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = tmp_path / "fake.yaml"
    fake.write_bytes(content)
    assert main(["verify", DEMO, "--replay", str(fake)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err
    assert "Error" not in err and "codec" not in err


@pytest.mark.parametrize("command", ["judge", "merge"])
@pytest.mark.parametrize(
    ("content", "words"),
    [(b"", "(empty)"), (b"  \n", "(empty)"), (b"\xd0{}", "(not UTF-8 at byte 0)")],
    ids=["empty", "blank", "not-utf8"],
)
def test_an_empty_or_binary_bundle_or_report_says_so_in_words(
    command: str, content: bytes, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "file.json"
    path.write_bytes(content)
    argv = ["judge", str(path)] if command == "judge" else ["audit", "merge", str(path)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err
    assert "Invalid JSON" not in err and "EOF" not in err and "codec" not in err


@pytest.mark.parametrize(
    ("content", "words"),
    [(b"", "is empty"), (b"\xff{}", "is not UTF-8 at byte 0"), (b"{", "is not JSON")],
    ids=["empty", "not-utf8", "cut-short"],
)
def test_an_event_payload_that_is_no_json_says_so_in_words(
    content: bytes,
    words: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    event = tmp_path / "event.json"
    event.write_bytes(content)
    for name, value in {
        "GITHUB_EVENT_NAME": "issue_comment",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_REPOSITORY": "o/r",
        "RUNNER_TEMP": str(tmp_path),
        "SIGNOFF_TOKEN": "t",
    }.items():
        monkeypatch.setenv(name, value)
    assert main(["action"]) == 2
    out = capsys.readouterr().out
    assert f"the event payload {words}" in out and "Expecting" not in out


def test_replay_without_vcrpy_says_in_one_line_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "vcr", None)  # `import vcr` now fails as if not installed
    assert main(["verify", DEMO, "--replay", str(cassette("demo"))]) == 2
    err = capsys.readouterr().err
    assert err == (
        "signoff: --replay needs vcrpy, which is not installed: pip install 'signoff[replay]'\n"
    )


def test_verify_imports_and_runs_its_checks_without_vcrpy(tmp_path: Path) -> None:
    import subprocess

    code = (
        "import sys; sys.modules['vcr'] = None\n"
        "import signoff.verify, signoff.verify_command, signoff.action, signoff.audit.run\n"
        "from signoff.cli import main\n"
        "sys.exit(main(['checks', '--format', 'json']))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "vcr" not in done.stderr
