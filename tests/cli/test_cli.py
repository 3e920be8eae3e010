"""The command line: exit codes, one-line errors, the parse preflight and the checks list."""

from __future__ import annotations

import json

import pytest
from builders import DATA, build, passing_parts
from make_examples import OUT

from signoff.cli import main
from signoff.evidence import dump_evidence
from signoff.standards import resolve_standard


def test_judge_pass_bundle_exits_zero_and_prints_the_verdict(capsys):
    assert main(["judge", str(OUT / "pass.json")]) == 0
    assert "**Verdict: PASS**" in capsys.readouterr().out


def test_judge_rejected_bundle_exits_one(capsys):
    assert main(["judge", str(OUT / "fail-codeowner.json")]) == 1


def test_missing_bundle_is_bad_input_with_one_line_message(tmp_path, capsys):
    assert main(["judge", str(tmp_path / "nope.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nope.json" in err and "Traceback" not in err


def test_a_version_1_bundle_without_the_new_fields_is_still_judged(tmp_path, capsys):
    text = dump_evidence(build(passing_parts())).replace(
        '"schema_version": 2', '"schema_version": 1'
    )
    old = json.loads(text)
    del old["throughput"], old["pull_request"]["body"]
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    assert main(["judge", str(path)]) == 0


def test_malformed_bundle_names_the_field(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text('{"schema_version": 1, "repository": {"owner": "o"}}', encoding="utf-8")
    assert main(["judge", str(path)]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and "repository.name" in err


def test_unsupported_bundle_schema_version_is_rejected(tmp_path, capsys):
    text = dump_evidence(build(passing_parts())).replace(
        '"schema_version": 2', '"schema_version": 99'
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
    assert code == 1  # an item is missing: a script gating on parse stops here
    assert report["is_signoff"] is True and report["signer"] == "ankur-singh"
    assert len(report["missing"]) == 1 and "append-only" in report["missing"][0]
    assert report["unchecked"] == [] and report["extra"] == []
    assert all(item["template_item"] for item in report["items"])
    assert "https://github.com/vllm-project/recipes/pull/612" in report["links"]


def test_parse_text_output_flags_a_missing_opener(tmp_path, capsys):
    comment = tmp_path / "comment.md"
    comment.write_text("LGTM\n", encoding="utf-8")
    assert main(["parse", str(comment)]) == 1
    assert "sign-off opener: MISSING" in capsys.readouterr().out


def test_checks_lists_every_check_of_the_default_standard_with_its_docs(capsys, policy):
    assert main(["checks"]) == 0
    out = capsys.readouterr().out
    for slot in resolve_standard(None, policy).checks:
        assert f"Check {slot.number} ({slot.name}) [{slot.id}]" in out
    assert "To satisfy it:" in out


def test_checks_json_lists_the_chosen_standard_for_tools(capsys, policy):
    assert main(["checks", "--standard", "E3", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert (document["standard"], document["era"]) == ("E3", "E3")
    assert [(c["number"], c["id"]) for c in document["checks"]] == [
        (0, "codeowner"), (1, "sweep"), (2, "evals"), (3, "recipe"), (4, "reuse-command")
    ]  # fmt: skip
    fields = {"number", "id", "name", "results", "warn_only", "rule"}
    assert all(set(c) == fields for c in document["checks"])
    assert all("To satisfy it:" in c["rule"] for c in document["checks"])
    assert all(c["results"] == ["PASS", "FAIL", "N/A"] for c in document["checks"])


def test_checks_text_names_the_standard_and_the_rules_in_force(capsys):
    assert main(["checks", "--standard", "at:2026-07-04T03:00:00Z"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Standard E4 at 2026-07-04T03:00:00Z: 9 checks\n")
    assert "#2030" in out and "#2210" not in out
    assert "Check 3 (recipe link) [recipe]" in out


def test_a_bad_standard_is_bad_input_with_one_line_naming_it(capsys):
    assert main(["checks", "--standard", "E0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown standard 'E0'" in err and "Traceback" not in err
    assert main(["judge", str(OUT / "pass.json"), "--standard", "at:soon"]) == 2
    assert "at:soon" in capsys.readouterr().err


def test_verify_with_a_bad_standard_exits_two_before_any_request(capsys):
    url = "https://github.com/SemiAnalysisAI/InferenceX/pull/2700#issuecomment-1"
    assert main(["verify", url, "--standard", "E42", "--replay", "none.yaml"]) == 2
    assert "unknown standard 'E42'" in capsys.readouterr().err


def test_judge_re_judges_a_saved_bundle_under_another_standard(capsys):
    assert main(["judge", str(OUT / "pass.json"), "--format", "json"]) == 0
    recorded = json.loads(capsys.readouterr().out)
    assert recorded["standard"] == "0-8" and len(recorded["checks"]) == 9
    then = ["--format", "json", "--standard", "at:2026-07-05T00:00:00Z"]
    main(["judge", str(OUT / "pass.json"), *then])
    e4 = json.loads(capsys.readouterr().out)
    assert (e4["standard"], e4["era"]) == ("at:2026-07-05T00:00:00Z", "E4")
    assert [c["name"] for c in e4["checks"]][3:6] == [
        "recipe link", "reuse command", "latest checklist template"
    ]  # fmt: skip


def test_re_judging_under_an_era_whose_evidence_was_not_gathered_fails_closed(capsys):
    # E1 read thresholds.json; the bundle (gathered under 0-8) holds thresholds.yaml only.
    assert main(["judge", str(OUT / "pass.json"), "--format", "json", "--standard", "E1"]) == 1
    e1 = json.loads(capsys.readouterr().out)
    assert [c["number"] for c in e1["checks"]] == [1, 2, 3]
    evals = e1["checks"][1]
    assert evals["status"] == "FAIL" and "thresholds.json" in evals["reason"]
    assert "gathered under standard 0-8" in evals["reason"]


def test_a_verdict_under_another_standard_names_it_in_the_footer(capsys):
    main(["judge", str(OUT / "pass.json"), "--standard", "E3"])
    out = capsys.readouterr().out
    assert "standard `E3`" in out and "Check 4 (reuse-sweep-run posted): PASS" in out
    assert main(["judge", str(OUT / "pass.json")]) == 0
    assert "standard `" not in capsys.readouterr().out  # the default stays unnamed


@pytest.mark.parametrize(
    ("spec", "era", "numbers"),
    [
        ("current", "E11", 16),
        ("0-8", None, 9),
        ("at:2026-07-10T19:00:00Z", "E5", 10),
        ("at:2026-09-05T12:00:00Z", "E8", 13),  # early September is still E8
        ("at:2026-09-19T12:00:00Z", "E9", 14),
        ("at:2026-09-22T12:00:00Z", "E10", 15),
    ],
)
def test_checks_lists_the_chosen_standards_numbering(capsys, spec, era, numbers):
    assert main(["checks", "--standard", spec, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["era"] == era
    assert [c["number"] for c in document["checks"]] == list(range(numbers))
    assert all(c["rule"] for c in document["checks"])


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
