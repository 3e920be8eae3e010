"""`signoff audit` over the recorded 48-PR history (cassettes/audit/history.yaml).

The history was recorded by cassettes/record_audit.py running the real audit against ghemu on
the scenario of cassettes/recording/history/; here it is replayed only (vcrpy, record_mode none).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cassette_helpers import audit_info, replay_audit

from signoff.audit.merge import merge_reports
from signoff.audit.model import AuditedPull, AuditReport, findings
from signoff.audit.outcome import disagreement_line
from signoff.audit.render_csv import render_csv
from signoff.audit.render_json import render_json
from signoff.audit.render_markdown import render_markdown
from signoff.audit.run import RunResult
from signoff.judge import judge
from signoff.policy import load_policy

FIRST = 2101
SPECIAL = {  # recording.history.SPECIAL offsets, as PR numbers
    "jgangani_before": FIRST + 2,
    "expired": FIRST + 5,
    "e5": FIRST + 6,
    "no_signoff": FIRST + 7,
    "review": FIRST + 9,
    "several": FIRST + 13,
    "jgangani_after": FIRST + 14,
    "late_signoff": FIRST + 15,
    "edited_late": FIRST + 17,
    "stale_template": FIRST + 20,
    "forged": FIRST + 22,
    "inline": FIRST + 24,
    "bar_before": FIRST + 25,
    "published_wrong_reject": FIRST + 28,
    "bar_after": FIRST + 30,
}
DOCS = [FIRST + n for n in (3, 11, 19, 27, 35)]


@pytest.fixture(scope="module")
def first_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="module")
def history(first_cache: Path) -> RunResult:
    """The first run, on an empty cache (which it leaves filled in `first_cache`)."""
    result, _, recorded = replay_audit("history", first_cache)
    assert recorded.all_played
    return result


@pytest.fixture(scope="module")
def report(history: RunResult) -> AuditReport:
    return history.report


def row(report: AuditReport, number: int) -> AuditedPull:
    return next(p for p in report.prs if p.pr == number)


def statuses(pr: AuditedPull) -> dict[str, str]:
    return {c.id: c.status for c in pr.checks}


def test_every_merged_pr_of_the_window_is_listed_once_in_merge_order(report: AuditReport) -> None:
    numbers = [p.pr for p in report.prs]
    assert numbers == list(range(FIRST, FIRST + 48))
    merged = [p.merged_at for p in report.prs]
    assert merged == sorted(merged)
    # The PR merged into `release` and the PR closed without merging are not audited.
    assert FIRST + 48 not in numbers and FIRST + 49 not in numbers


def test_outcomes_match_what_the_recording_declared(report: AuditReport) -> None:
    declared = audit_info("history")["outcomes"]
    assert {str(p.pr): p.outcome for p in report.prs} == declared
    s = report.summary
    assert (s.merged, s.gated, s.PASS, s.REJECTED) == (48, 43, 36, 3)
    assert (s.UNVERIFIABLE, s.NO_SIGNOFF, s.NOT_GATED, s.disagreements) == (1, 3, 5, 3)


def test_docs_only_prs_are_listed_but_never_judged(report: AuditReport) -> None:
    for number in DOCS:
        pr = row(report, number)
        assert pr.outcome == "NOT_GATED" and not pr.gated
        assert pr.checks == () and pr.signoff is None and pr.agrees_with_published is None
        # The files list only: a merged PR's is fixed by its head, so charged to the run's fixed reads.
        assert own_requests(report, number) == 0


def test_rows_span_five_eras_and_the_e5_window_is_found(report: AuditReport) -> None:
    assert {p.era for p in report.prs if p.era} == {"E4", "E5", "E6", "E7", "E8"}
    assert row(report, SPECIAL["e5"]).era == "E5"


def test_the_default_branch_is_read_as_it_was_at_each_sign_off(history: RunResult) -> None:
    template = "docs/PR_REVIEW_CHECKLIST.md"
    texts: dict[int, str] = {}
    for number, evidence in history.evidence.items():
        read = evidence.file(template, "default")
        assert read is not None and read.state == "ok" and read.text is not None
        assert len(read.sha) == 40  # at a commit, never at the branch name
        texts[number] = read.text
    assert len(set(texts.values())) == 4  # V13, V18, V19 and V21 were each in force for some PR
    assert "append-only: true" not in texts[FIRST + 41] and "append-only: true" in texts[FIRST + 42]
    # Before 2026-07-17 the bars lived in thresholds.json; the era's switch names the file.
    early, late = history.evidence[FIRST], history.evidence[FIRST + 45]
    assert early.file("utils/evals/thresholds.json", "default") is not None
    assert late.file("utils/evals/thresholds.yaml", "default") is not None


def test_each_row_is_judged_under_the_standard_in_force_at_its_sign_off(
    history: RunResult,
) -> None:
    e4, e8 = row(history.report, FIRST), row(history.report, FIRST + 47)
    assert (e4.era, [c.id for c in e4.checks][-1], len(e4.checks)) == (
        "E4",
        "spec-chat-template",
        9,
    )
    assert e8.era == "E8" and len(e8.checks) == 13
    assert [c.id for c in e8.checks if c.number == 7] == ["deprecated-models"]
    assert history.evidence[FIRST + 47].standard is not None
    assert history.evidence[FIRST + 47].reviewed_at == e8.signoff.at if e8.signoff else False


def test_codeowners_is_read_as_it_was_so_a_removed_owner_passes_before_and_fails_after(
    report: AuditReport,
) -> None:
    before, after = row(report, SPECIAL["jgangani_before"]), row(report, SPECIAL["jgangani_after"])
    assert before.signoff is not None and before.signoff.author == "jgangani"
    assert before.outcome == "PASS"
    assert after.outcome == "REJECTED" and statuses(after)["codeowner"] == "FAIL"
    reason = next(c.reason for c in after.checks if c.id == "codeowner")
    assert "jgangani is not one of them" in reason
    # The verifier rejected it at the time too: the audit agrees.
    assert after.published.verdict == "REJECTED" and after.agrees_with_published is True


def test_thresholds_are_read_at_the_head_so_the_raised_bar_applies_only_after(
    report: AuditReport,
) -> None:
    before, after = row(report, SPECIAL["bar_before"]), row(report, SPECIAL["bar_after"])
    assert before.outcome == "PASS" and statuses(before)["evals"] == "PASS"
    assert after.outcome == "REJECTED" and statuses(after)["evals"] == "FAIL"
    assert "0.950 < 0.96" in next(c.reason for c in after.checks if c.id == "evals")


def test_a_pr_merged_without_any_sign_off_is_no_signoff(report: AuditReport) -> None:
    pr = row(report, SPECIAL["no_signoff"])
    assert pr.outcome == "NO_SIGNOFF" and pr.gated and pr.signoff is None
    assert pr.checks == ()


def test_a_sign_off_posted_after_the_merge_does_not_count(report: AuditReport) -> None:
    pr = row(report, SPECIAL["late_signoff"])
    assert pr.outcome == "NO_SIGNOFF"
    assert any("after the merge" in note and "do not count" in note for note in pr.notes)


def test_only_the_last_sign_off_before_the_merge_by_a_possible_owner_counts(
    report: AuditReport,
) -> None:
    pr = row(report, SPECIAL["several"])
    # Earlier: a stale sign-off by ankur-singh; later but before the merge: a non-owner's copy;
    # after the merge: another one. The one that let it merge is kedarpotdar-nv's.
    assert pr.signoff is not None and pr.signoff.author == "kedarpotdar-nv"
    assert pr.signoff.url.endswith(f"#issuecomment-{2_500_000_000 + pr.pr * 100 + 2}")
    assert pr.outcome == "PASS"
    assert any("nv-perf-dev skipped" in note for note in pr.notes)
    assert any("posted after the merge (ankur-singh)" in note for note in pr.notes)


def test_a_sign_off_edited_after_the_merge_still_counts_and_the_edit_is_noted(
    history: RunResult,
) -> None:
    pr = row(history.report, SPECIAL["edited_late"])
    assert pr.outcome == "PASS" and pr.signoff is not None
    assert any("edited after the merge" in note for note in pr.notes)
    # The latest text is what was judged (REST returns only that).
    evidence = history.evidence[pr.pr]
    assert "recipe page updated later" in evidence.signoff.body


def test_review_summary_and_inline_review_comment_sign_offs_are_found(report: AuditReport) -> None:
    review, inline = row(report, SPECIAL["review"]), row(report, SPECIAL["inline"])
    assert review.signoff is not None and review.signoff.kind == "review summary"
    assert inline.signoff is not None and inline.signoff.kind == "inline review comment"
    assert review.outcome == inline.outcome == "PASS"


def test_an_expired_eval_artifact_is_unverifiable_not_a_failure(report: AuditReport) -> None:
    pr = row(report, SPECIAL["expired"])
    assert pr.outcome == "UNVERIFIABLE"
    evals = next(c for c in pr.checks if c.id == "evals")
    assert evals.status == "UNVERIFIABLE"
    assert "no longer exists" in evals.reason and "expired" in evals.reason
    assert not any(c.status == "FAIL" for c in pr.checks)
    # Nothing contradicts the published PASS: unverifiable is not a disagreement.
    assert pr.agrees_with_published is True and pr.disagreements == ()


def test_a_forged_pass_comment_is_not_a_published_verdict_and_its_green_status_is_flagged(
    report: AuditReport,
) -> None:
    pr = row(report, SPECIAL["forged"])
    assert pr.outcome == "NO_SIGNOFF"
    assert pr.published.verdict is None and pr.published.comment_url is None
    assert pr.published.status == "success"
    assert pr.agrees_with_published is False
    assert any("mallory-x, who is not a verifier identity" in note for note in pr.notes)


def test_a_published_pass_wrong_by_its_eras_rules_is_named_check_by_check(
    report: AuditReport,
) -> None:
    pr = row(report, SPECIAL["stale_template"])
    assert pr.era == "E6" and pr.published.verdict == "PASS"
    assert pr.outcome == "REJECTED" and pr.disagreements == ("latest-template",)
    names = {c.id: f"Check {c.number} ({c.name})" for c in pr.checks}
    line = disagreement_line(pr.outcome, pr.published, pr.disagreements, names)
    # Named as E6, the era of the sign-off, printed it.
    assert line == "published PASS; re-judged REJECTED on Check 5 (latest checklist template)"


def test_a_published_rejection_the_audit_does_not_share_is_a_disagreement_too(
    report: AuditReport,
) -> None:
    pr = row(report, SPECIAL["published_wrong_reject"])
    assert pr.published.verdict == "REJECTED" and pr.outcome == "PASS"
    assert pr.disagreements == ("sweep",) and pr.agrees_with_published is False


def test_published_rows_are_read_by_name_whatever_number_the_era_gave_them(
    report: AuditReport,
) -> None:
    e4 = next(p for p in report.prs if p.era == "E4" and p.published.verdict)
    e7 = next(p for p in report.prs if p.era == "E7" and p.published.verdict)
    e8 = next(p for p in report.prs if p.era == "E8" and p.published.verdict)
    # "Check 7" is architecture hacks in E4 and deprecated models in E7: both land on their ids.
    assert (
        e4.published.checks["no-arch-hacks"] == "PASS"
        and "deprecated-models" not in e4.published.checks
    )
    assert e7.published.checks["deprecated-models"] == "N/A"
    assert e7.published.checks["no-arch-hacks"] == "PASS"
    assert e8.published.checks["append-only"] == "N/A"
    assert e8.published.checks["recipe"] == "PASS"  # "recipe linked, MERGED, complete (...)"
    assert all(not any("not recognised" in n for n in p.notes) for p in report.prs)


def own_requests(report: AuditReport, number: int) -> int:
    return next(p.requests for p in report.cost.prs if p.pr == number)


def test_each_judged_pr_records_what_it_cost_and_the_total_adds_up(report: AuditReport) -> None:
    described = audit_info("history")
    cost = report.cost
    assert cost.requests == described["counted_requests"]
    assert cost.requests == cost.run + cost.fixed + sum(p.requests for p in cost.prs)
    assert 0 < cost.run <= 6  # the repository, one page of closed PRs, two file histories
    assert [p.pr for p in cost.prs] == [p.pr for p in report.prs]
    judged = [p.pr for p in report.prs if p.checks]
    assert max(own_requests(report, n) for n in judged) <= 24  # REST only, not GraphQL
    assert cost.graphql >= len(judged)  # one edit-history query per judged sign-off


def test_parallel_workers_give_the_byte_identical_report(
    report: AuditReport, tmp_path: Path
) -> None:
    parallel, _, recorded = replay_audit("history", tmp_path, jobs=4)
    assert recorded.all_played
    for render in (render_json, render_markdown, render_csv):
        assert render(parallel.report) == render(report)


def test_merged_shard_reports_find_byte_for_byte_what_one_whole_run_finds(
    report: AuditReport, tmp_path: Path
) -> None:
    shards = []
    for index in (1, 2):
        result, _, _ = replay_audit("history", tmp_path / str(index), shard=f"{index}/2")
        assert result.report.shard == f"{index}/2"
        assert all(p.pr % 2 == index - 1 for p in result.report.prs)
        shards.append((f"shard-{index}.json", result.report))
    merged = merge_reports(list(reversed(shards)))
    assert findings(merged) == findings(report)
    # Each PR's own reads and the run's are the same; fixed reads are shared within a shard only.
    assert merged.cost.prs == report.cost.prs and merged.cost.run == report.cost.run
    assert merged.cost.fixed >= report.cost.fixed


def test_a_second_run_on_the_cache_spends_almost_nothing_and_reports_the_same(
    report: AuditReport, first_cache: Path
) -> None:
    again, meter, recorded = replay_audit("history_rerun", first_cache)
    assert recorded.all_played
    spend = meter.total()
    assert spend.counted == audit_info("history_rerun")["counted_requests"] <= 50
    assert spend.not_modified > 300 and spend.cache_hits > 400
    assert findings(again.report) == findings(report)
    assert render_json(again.report) != render_json(report)  # the cost section alone differs


def test_evidence_bundles_re_judge_offline_to_the_same_check_statuses(history: RunResult) -> None:
    policy = load_policy()
    for pr in history.report.prs:
        if not pr.checks:
            continue
        verdict = judge(history.evidence[pr.pr], policy)
        offline = {c.id: c.status for c in verdict.checks}
        for check in pr.checks:
            # UNVERIFIABLE is the audit's reading of a FAIL on vanished evidence.
            expected = "FAIL" if check.status == "UNVERIFIABLE" else check.status
            assert offline[check.id] == expected, (pr.pr, check.id)
