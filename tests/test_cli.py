"""The command line: exit codes, one-line errors, the parse preflight and the checks list."""

from __future__ import annotations

import json

from builders import DATA, build, passing_parts
from make_examples import OUT

from signoff.cli import main
from signoff.evidence import dump_evidence


def test_judge_pass_bundle_exits_zero_and_prints_the_verdict(capsys):
    assert main(["judge", str(OUT / "pass.json")]) == 0
    assert "**Verdict: PASS**" in capsys.readouterr().out


def test_judge_rejected_bundle_exits_one(capsys):
    assert main(["judge", str(OUT / "fail-codeowner.json")]) == 1


def test_missing_bundle_is_bad_input_with_one_line_message(tmp_path, capsys):
    assert main(["judge", str(tmp_path / "nope.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nope.json" in err and "Traceback" not in err


def test_malformed_bundle_names_the_field(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text('{"schema_version": 1, "repository": {"owner": "o"}}', encoding="utf-8")
    assert main(["judge", str(path)]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and "repository.name" in err


def test_unsupported_bundle_schema_version_is_rejected(tmp_path, capsys):
    text = dump_evidence(build(passing_parts())).replace(
        '"schema_version": 1', '"schema_version": 99'
    )
    path = tmp_path / "future.json"
    path.write_text(text, encoding="utf-8")
    assert main(["judge", str(path)]) == 2
    assert "schema_version" in capsys.readouterr().err


def test_invalid_profile_reports_file_and_line(tmp_path, capsys):
    profile = tmp_path / "profile.yaml"
    profile.write_text(
        "schema_version: 1\nname: x\nsignoff:\n  opener: 5\n  detail_heading: [a]\n",
        encoding="utf-8",
    )
    assert main(["judge", "--profile", str(profile), str(OUT / "pass.json")]) == 2
    err = capsys.readouterr().err
    assert f"{profile}:" in err and "Traceback" not in err


def test_parse_preflight_reports_missing_items_against_the_template(tmp_path, capsys):
    from builders import signoff_body

    comment = tmp_path / "comment.md"
    comment.write_text(signoff_body(drop=("append-only: true",)), encoding="utf-8")
    template = DATA / "markdown" / "PR_REVIEW_CHECKLIST_v21.md"
    code = main(["parse", str(comment), "--template", str(template), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["is_signoff"] is True and report["signer"] == "ankur-singh"
    assert len(report["missing"]) == 1 and "append-only" in report["missing"][0]
    assert report["unchecked"] == [] and report["extra"] == []
    assert all(item["template_item"] for item in report["items"])
    assert "https://github.com/vllm-project/recipes/pull/612" in report["links"]


def test_parse_text_output_flags_a_missing_opener(tmp_path, capsys):
    comment = tmp_path / "comment.md"
    comment.write_text("LGTM\n", encoding="utf-8")
    assert main(["parse", str(comment)]) == 0
    assert "sign-off opener: MISSING" in capsys.readouterr().out


def test_checks_lists_all_nine_checks_with_their_docs(capsys):
    assert main(["checks"]) == 0
    out = capsys.readouterr().out
    for number in range(9):
        assert f"Check {number} (" in out
    assert "To satisfy it:" in out


def test_the_command_process_flushes_everything_before_it_exits(tmp_path):
    """`python -m signoff` leaves without the interpreter's teardown, after flushing."""
    import subprocess
    import sys

    out = tmp_path / "verdict.json"
    for bundle, code in (("pass.json", 0), ("fail-codeowner.json", 1)):
        with out.open("w", encoding="utf-8") as stdout:  # a file: block-buffered stdout
            done = subprocess.run(
                [sys.executable, "-m", "signoff", "judge", str(OUT / bundle), "--format", "json"],
                stdout=stdout,
                stderr=subprocess.PIPE,
                text=True,
            )
        assert done.returncode == code and done.stderr == ""
        assert json.loads(out.read_text(encoding="utf-8"))["verdict"] in {"PASS", "REJECTED"}
    missing = subprocess.run(
        [sys.executable, "-m", "signoff", "judge", str(tmp_path / "nope.json")],
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1
