"""The audit carries WARN: a re-judged September merge, what was published then, and the JSON
(schema_version 3), CSV and Markdown reports."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime

from builders import build, current_parts, measured_curve
from test_audit_units import POLICY, _pull, _report

from signoff.audit.model import AuditedCheck, AuditReport, Published
from signoff.audit.outcome import agrees, disagreements, outcome_of
from signoff.audit.published import parse_verdict
from signoff.audit.rejudge import standard_for
from signoff.audit.render_csv import render_csv
from signoff.audit.render_json import render_json
from signoff.audit.render_markdown import render_markdown
from signoff.judge import judge
from signoff.publish.render import render_markdown as render_verdict

SEPTEMBER = datetime(2026, 9, 22, 15, 0, tzinfo=UTC)


def checked(status: str, check_id: str = "pareto-coverage") -> AuditedCheck:
    return AuditedCheck(number=14, id=check_id, name="Pareto coverage", status=status, reason="r")


def test_a_september_merge_is_re_judged_by_septembers_rules_warn_included() -> None:
    standard, notes = standard_for("at-the-time", SEPTEMBER, POLICY)
    assert standard.era == "E10" and notes == ()
    parts = current_parts()
    parts["throughput"]["rows"] = measured_curve(3)
    verdict = judge(build(parts), POLICY, standard)
    assert verdict.outcome == "WARN"
    assert outcome_of([checked("WARN"), checked("PASS", "codeowner")]) == "WARN"
    assert outcome_of([checked("WARN"), checked("FAIL", "codeowner")]) == "REJECTED"
    assert outcome_of([checked("WARN"), checked("UNVERIFIABLE", "codeowner")]) == "UNVERIFIABLE"


def test_a_published_warn_verdict_is_read_by_its_header_and_rows() -> None:
    parts = current_parts()
    parts["throughput"]["rows"] = measured_curve(2)
    standard, _ = standard_for("at-the-time", SEPTEMBER, POLICY)
    body = render_verdict(judge(build(parts), POLICY, standard), POLICY)
    parsed = parse_verdict(body, POLICY, standard)
    assert parsed.verdict == "WARN" and parsed.checks["pareto-coverage"] == "WARN"
    headless = "⚠️ Check 4 (reuse command): WARN — no command\n"
    assert parse_verdict(headless, POLICY, standard).verdict == "WARN"


def test_warn_and_pass_agree_with_each_other_and_disagree_with_a_rejection() -> None:
    warned = Published(verdict="WARN", status="success", checks={"pareto-coverage": "WARN"})
    assert agrees("PASS", warned, ()) and agrees("WARN", warned, ())
    assert agrees("WARN", Published(status="success"), ())
    assert agrees("WARN", Published(verdict="REJECTED"), ()) is False
    assert disagreements([checked("PASS")], warned) == ()
    assert disagreements([checked("FAIL")], warned) == ("pareto-coverage",)


def test_the_reports_carry_warn_and_the_json_is_schema_version_3() -> None:
    pr = _pull(7, outcome="WARN", era="E10", checks=(checked("WARN"),))
    report = _report((_pull(6), pr))
    document = json.loads(render_json(report))
    assert document["schema_version"] == 3 and document["summary"]["WARN"] == 1
    assert document["prs"][1]["checks"][0]["status"] == "WARN"
    rows = list(csv.DictReader(io.StringIO(render_csv(report))))
    assert [(r["pr"], r["outcome"], r["status"]) for r in rows][1] == ("7", "WARN", "WARN")
    markdown = render_markdown(report)
    assert "| ⚠️ WARN |" in markdown and "⚠️ WARN | E10" in markdown


def test_a_version_1_report_is_still_read() -> None:
    document = json.loads(render_json(_report((_pull(6),))))
    document["schema_version"] = 1
    del document["summary"]["WARN"]
    report = AuditReport.model_validate(document)
    assert report.schema_version == 1 and report.summary.WARN == 0
