"""Runner files: outputs in heredoc form, a job summary under 1 MiB, the evidence bundle path."""

from __future__ import annotations

import re
from pathlib import Path

from signoff.publish.summary import (
    MAX_SUMMARY_BYTES,
    evidence_path_for,
    fit_bytes,
    format_outputs,
    write_outputs,
    write_step_summary,
)

SHA = "5f0c3e9a1b7d2c4e6f8091a2b3c4d5e6f7a8b9c0"


def parse_outputs(text: str) -> dict[str, str]:
    """Read $GITHUB_OUTPUT the way the runner does (heredoc records only)."""
    values: dict[str, str] = {}
    lines = iter(text.splitlines())
    for line in lines:
        match = re.fullmatch(r"([\w-]+)<<(\S+)", line)
        assert match, f"not a heredoc record: {line!r}"
        name, delimiter = match.groups()
        body: list[str] = []
        for inner in lines:
            if inner == delimiter:
                break
            body.append(inner)
        values[name] = "\n".join(body)
    return values


def test_outputs_round_trip_through_the_runner_format(tmp_path: Path) -> None:
    out = tmp_path / "output"
    write_outputs(out, {"verdict": "PASS", "comment-url": "https://x/1", "evidence-path": ""})
    assert parse_outputs(out.read_text(encoding="utf-8")) == {
        "verdict": "PASS",
        "comment-url": "https://x/1",
        "evidence-path": "",
    }


def test_a_multi_line_value_cannot_inject_another_output() -> None:
    hostile = "x\nEOF\nverdict=PASS\nghadelimiter_\nverdict<<EOF"
    values = parse_outputs(format_outputs({"comment-url": hostile, "verdict": "REJECTED"}))
    assert values == {"comment-url": hostile, "verdict": "REJECTED"}


def test_outputs_are_appended_not_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "output"
    out.write_text("earlier<<A\n1\nA\n", encoding="utf-8")
    write_outputs(out, {"verdict": "SKIPPED"})
    assert parse_outputs(out.read_text(encoding="utf-8")) == {"earlier": "1", "verdict": "SKIPPED"}


def test_a_huge_summary_is_cut_below_one_mebibyte_between_characters(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    write_step_summary(summary, "✅" * 600_000)  # 1.8 MB of three-byte characters
    data = summary.read_bytes()
    assert len(data) <= MAX_SUMMARY_BYTES < 1024 * 1024
    assert "truncated" in data.decode("utf-8")


def test_a_small_summary_is_written_unchanged() -> None:
    assert fit_bytes("## verdict\n", 100) == "## verdict\n"


def test_the_evidence_goes_to_runner_temp_unless_a_path_is_given(tmp_path: Path) -> None:
    assert evidence_path_for(SHA, runner_temp=str(tmp_path)) == (
        tmp_path / f"signoff-evidence-{SHA}.json"
    )
    assert evidence_path_for(SHA, configured=" out/e.json ", runner_temp="/t") == Path("out/e.json")
