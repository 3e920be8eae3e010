"""`signoff audit` and `signoff audit merge` as a user runs them: exit codes, one-line errors,
files written, the partial report when GitHub goes away. GitHub is a recorded cassette."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cassette_helpers import AUDIT_CASSETTES, CliRun, audit_info, replay_audit
from github.GithubException import UnknownObjectException

from signoff.cli import main
from signoff.errors import InputError
from signoff.gather.audit_reads import read_repository

REPO = "SemiAnalysisAI/InferenceX"


def audit(tmp_path: Path, cassette: str, *extra: str, until: str | None = None) -> int:
    args = audit_info(cassette)["args"]
    return main(
        [
            "audit",
            REPO,
            "--since",
            args["since"],
            "--until",
            until or args["until"],
            "--replay",
            str(AUDIT_CASSETTES / f"{cassette}.yaml"),
            "--cache-dir",
            str(tmp_path / "cache"),
            "--no-progress",
            *extra,
        ]
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["audit", "not-a-repo"], "'not-a-repo': expected OWNER/REPO"),
        (["audit", REPO, "--shard", "3/2"], "--shard '3/2': I must be between 1 and N"),
        (["audit", REPO, "--since", "2026-02-30"], "--since '2026-02-30': not a date"),
        (["audit", REPO, "--jobs", "0"], "--jobs 0: must be between 1 and 16"),
        (["audit", REPO, "--standard", "newest"], "unknown standard 'newest'"),
        (["audit", REPO], "GITHUB_TOKEN is not set"),
        (["audit", REPO, "extra.json"], "unexpected argument 'extra.json'"),
    ],
)
def test_bad_input_exits_2_with_one_line_naming_it(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_a_window_with_no_merges_exits_2_naming_the_window(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "audit",
            REPO,
            "--since",
            "2026-09-01",
            "--replay",
            str(AUDIT_CASSETTES / "history.yaml"),
            "--cache-dir",
            str(tmp_path),
            "--no-progress",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert (
        err
        == f"signoff: {REPO}: no pull requests merged into main between 2026-09-01T00:00:00Z and now\n"
    )


def test_an_unknown_repository_is_bad_input_naming_it() -> None:
    class Missing:
        def get_object(self, path: str) -> dict[str, object]:
            raise UnknownObjectException(404, {"message": "Not Found"}, None)

    with pytest.raises(InputError, match=r"^o/nope: repository not found"):
        read_repository(Missing(), "o/nope")  # type: ignore[arg-type]


def test_a_full_audit_prints_markdown_and_exits_1_when_prs_merged_without_a_valid_signoff(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The recording of a run that lost GitHub at #2106 holds complete answers up to #2105.
    code = audit(tmp_path, "unreachable", "--evidence-dir", str(tmp_path / "e"), until="2026-07-09")
    captured = capsys.readouterr()
    assert code == 0 and captured.err == ""  # all PASS or NOT_GATED; no TTY: no progress drawn
    assert captured.out.startswith(f"# signoff audit: {REPO} (main)\n")
    bundles = sorted(path.name for path in (tmp_path / "e").iterdir())
    assert bundles == ["pr-2101.json", "pr-2102.json", "pr-2103.json", "pr-2105.json"]
    assert main(["judge", str(tmp_path / "e" / "pr-2101.json"), "--format", "json"]) == 0


def test_an_audit_that_finds_unsigned_merges_exits_1(history_cli_run: CliRun) -> None:
    assert history_cli_run.code == 1
    assert history_cli_run.out.read_text(encoding="utf-8").count("NO_SIGNOFF") == 3


def test_github_lost_mid_run_exits_3_with_the_partial_report_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.json"
    code = audit(tmp_path, "unreachable", "--format", "json", "--out", str(out), "--jobs", "1")
    err = capsys.readouterr().err
    assert code == 3
    report = json.loads(out.read_text())
    assert [p["pr"] for p in report["prs"]] == [2101, 2102, 2103, 2104, 2105]
    assert report["stopped"]["not_audited"] == [2106, 2107, 2108]
    assert report["stopped"]["reason"].startswith("GitHub could not be read for #2106")
    assert err.startswith("signoff: partial report: GitHub could not be read for #2106")


def test_shard_reports_merge_into_markdown_csv_or_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = []
    for index in (1, 2):
        path = tmp_path / f"shard-{index}.json"
        shard = ("--shard", f"{index}/2", "--format", "json", "--out", str(path))
        assert audit(tmp_path / str(index), "unreachable", *shard, until="2026-07-09") == 0
        paths.append(str(path))
    capsys.readouterr()
    assert main(["audit", "merge", *paths, "--format", "csv"]) == 0
    csv_text = capsys.readouterr().out
    assert csv_text.startswith("pr,url,title,merged_at")
    assert main(["audit", "merge", *paths, "--format", "markdown"]) == 0
    assert "| 5 | 4 | 4 | 0 | 0 | 0 | 0 | 1 | 0 |" in capsys.readouterr().out  # WARN column
    assert main(["audit", "merge", *paths, "--out", str(tmp_path / "all.json")]) == 0
    merged = json.loads((tmp_path / "all.json").read_text())
    assert merged["shard"] is None and [p["pr"] for p in merged["prs"]] == list(range(2101, 2106))


def test_merging_something_that_is_not_a_report_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bogus = tmp_path / "bogus.json"
    bogus.write_text('{"schema_version": 1}')
    assert main(["audit", "merge", str(bogus)]) == 2
    assert "bogus.json: not an audit JSON report" in capsys.readouterr().err
    assert main(["audit", "merge", str(tmp_path / "missing.json")]) == 2


def test_max_requests_stops_with_a_partial_report_that_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.json"
    code = audit(
        tmp_path,
        "history",
        "--max-requests",
        "40",
        "--jobs",
        "1",
        "--format",
        "json",
        "--out",
        str(out),
    )
    report = json.loads(out.read_text())
    assert code == 3
    assert report["stopped"]["reason"].endswith("requests (--max-requests 40)")
    done = [p["pr"] for p in report["prs"]]
    # Each PR starts only while fewer than 40 requests are spent; the one that crossed 40 ends.
    cost = report["cost"]
    own = sum(p["requests"] for p in cost["prs"])
    assert cost["requests"] == cost["run"] + cost["fixed"] + own >= 40
    assert done == [2101, 2102]
    assert report["stopped"]["not_audited"] == list(range(2103, 2149))
    assert "partial report: stopped after" in capsys.readouterr().err


def test_a_run_that_was_cut_short_leaves_a_cache_that_makes_the_next_run_cheaper(
    tmp_path: Path,
) -> None:
    cold, _, _ = replay_audit("unreachable", tmp_path / "cold", until="2026-07-09")
    cut, _, _ = replay_audit("unreachable", tmp_path / "cache")
    assert cut.report.stopped is not None
    resumed, _, _ = replay_audit("unreachable", tmp_path / "cache", until="2026-07-09")
    # Contents at a SHA and merged PRs' file and commit lists come from the cache now.
    assert resumed.report.cost.fixed < cold.report.cost.fixed
    assert resumed.report.cost.requests < cold.report.cost.requests


# --- output paths are claimed before the first request -------------------------------------


@pytest.mark.parametrize(
    ("flag", "where", "words"),
    [
        ("--out", "missing/report.md", "cannot write the report there (No such file or directory)"),
        ("--out", "", "--out is a folder, not a file"),
        ("--evidence-dir", "a-file", "--evidence-dir is a file, not a folder"),
        ("--cache-dir", "a-file/cache", "cannot write into --cache-dir"),
        ("--cache-dir", "a-file", "--cache-dir is a file, not a folder"),
    ],
)
def test_an_output_path_that_cannot_be_written_is_bad_input_before_anything_is_read(
    flag: str,
    where: str,
    words: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    played: list[object],
) -> None:
    (tmp_path / "a-file").write_text("x")
    target = tmp_path / where if where else tmp_path
    argv = ["audit", REPO, "--replay", str(AUDIT_CASSETTES / "history.yaml"), flag, str(target)]
    assert main([*argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err == f"signoff: {target}: {words}\n" or (err.count("\n") == 1 and words in err), err
    assert played == []  # the recording was never opened: nothing was read
    assert not (tmp_path / "missing").exists()


def test_a_report_file_claimed_for_a_run_that_then_fails_on_bad_input_is_removed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.md"
    (tmp_path / "a-file").write_text("x")
    argv = ["audit", REPO, "--replay", str(AUDIT_CASSETTES / "history.yaml"), "--out", str(out)]
    assert main([*argv, "--evidence-dir", str(tmp_path / "a-file")]) == 2
    assert not out.exists()


# --- the terminal keeps a summary line -----------------------------------------------------


def test_on_a_terminal_the_audit_ends_with_one_summary_line_naming_counts_and_the_report(
    history_cli_run: CliRun,
) -> None:
    assert history_cli_run.code == 1 and history_cli_run.stdout == ""
    (line,) = history_cli_run.stderr.splitlines()
    summary = audit_info("history")["summary"]
    assert line.startswith(f"signoff: audited {summary['merged']} merged PRs: ")
    assert f"{summary['PASS']} PASS, {summary['REJECTED']} REJECTED" in line
    assert f"{summary['NO_SIGNOFF']} NO_SIGNOFF" in line
    assert line.endswith(f"written to {history_cli_run.out}")


def test_without_a_terminal_or_with_no_progress_the_audit_prints_no_summary_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert audit(tmp_path, "unreachable", "--format", "json", "--out", str(tmp_path / "r")) == 3
    assert "audited" not in capsys.readouterr().err
