"""docs/audit.md's example audit workflow: actionlint- and zizmor-clean, pinned, read-only, no shell
injection."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import yaml
from test_action_yml import PINNED, ROOT, lint, zizmor


def _audit_workflow() -> Path:
    text = (ROOT / "docs" / "audit.md").read_text(encoding="utf-8")
    text = text.split("Example audit workflow (", 1)[1]
    block = text.split("```yaml\n", 1)[1].split("\n```", 1)[0]
    folder = Path(tempfile.mkdtemp(prefix="signoff-audit-")) / ".github" / "workflows"
    folder.mkdir(parents=True)
    path = folder / "signoff-audit.yml"
    path.write_text(block + "\n", encoding="utf-8")
    return path


WORKFLOW = _audit_workflow()
DATA: dict[str, Any] = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
STEPS = [step for job in DATA["jobs"].values() for step in job["steps"]]


def test_the_audit_workflow_passes_actionlint() -> None:
    result = lint(ROOT, str(WORKFLOW))
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_audit_workflow_passes_zizmor() -> None:
    result = zizmor(str(WORKFLOW))
    assert result.returncode == 0, result.stdout + result.stderr


def test_it_runs_weekly_and_on_dispatch_with_a_window() -> None:
    triggers = DATA[True]  # YAML 1.1 reads the key `on` as true
    assert triggers["schedule"] and set(triggers["workflow_dispatch"]["inputs"]) == {
        "since",
        "until",
    }


def test_no_expression_is_spliced_into_a_shell_script_and_every_action_is_pinned() -> None:
    for step in STEPS:
        assert "${{" not in step.get("run", ""), step.get("name")
        if "uses" in step:
            assert PINNED.match(step["uses"]), step["uses"]


def test_shards_run_as_a_matrix_and_the_merge_writes_the_summary_and_keeps_json_and_csv() -> None:
    shard, merge = DATA["jobs"]["shard"], DATA["jobs"]["merge"]
    assert shard["strategy"]["matrix"]["shard"] == [1, 2, 3, 4]
    audit = next(s for s in shard["steps"] if s.get("name") == "Audit one shard")
    assert '--shard "$SHARD/4"' in audit["run"] and "--format json" in audit["run"]
    assert merge["needs"] == "shard" and merge["if"] == "always()"
    script = next(s for s in merge["steps"] if s.get("name") == "Merge the reports")["run"]
    assert "GITHUB_STEP_SUMMARY" in script and "--format csv" in script
    kept = next(s for s in merge["steps"] if s.get("name") == "Keep the audit")["with"]["path"]
    assert "audit.json" in kept and "audit.csv" in kept


def test_the_audit_never_asks_for_write_access() -> None:
    assert DATA["permissions"] == {}
    for job in DATA["jobs"].values():
        assert all(level == "read" for level in job["permissions"].values())
