"""The audit's pure parts: windows and shards, published rows by name, the signer test, outcomes
and disagreements, vanished evidence, renderers (escaping), and merging shard reports."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from pathlib import Path

import pytest
from builders import build, passing_parts

from signoff.audit.merge import merge_reports
from signoff.audit.model import (
    AuditedCheck,
    AuditedPull,
    AuditReport,
    Cost,
    Published,
    PullCost,
    SignoffUsed,
    summarize,
)
from signoff.audit.outcome import agrees, disagreement_line, disagreements, outcome_of
from signoff.audit.published import (
    parse_verdict,
    plain_lines,
    read_published,
    status_at_merge,
    verdict_comment,
)
from signoff.audit.rejudge import could_be_codeowner, parse_standard, standard_for
from signoff.audit.render_csv import render_csv
from signoff.audit.render_json import render_json
from signoff.audit.render_markdown import code, render_markdown
from signoff.audit.signoffs import signoff_candidates, signoff_notes, signoff_that_merged
from signoff.audit.unverifiable import audited_checks
from signoff.audit.window import parse_shard, parse_window
from signoff.errors import InputError
from signoff.evidence import Evidence
from signoff.judge import judge
from signoff.judge.model import Verdict
from signoff.policy import load_policy
from signoff.standards import resolve_standard

POLICY = load_policy()
SHA = "a" * 40
MERGED = datetime(2026, 7, 20, 12, 0, tzinfo=UTC)
CODEOWNERS = "*  @InferenceX/core\nconfigs/nvidia-master.yaml @ankur-singh @kedarpotdar-nv\n"


# --- window and shard -------------------------------------------------------------------------


def test_a_day_as_until_includes_the_whole_day_and_since_starts_at_midnight_utc() -> None:
    window = parse_window("2026-07-01", "2026-07-31")
    assert window.since == datetime(2026, 7, 1, tzinfo=UTC)
    assert window.holds(datetime(2026, 7, 31, 23, 59, 59, tzinfo=UTC))
    assert not window.holds(datetime(2026, 8, 1, tzinfo=UTC))


def test_an_instant_with_an_offset_is_converted_to_utc() -> None:
    window = parse_window("2026-07-03T21:29:22-04:00", None)
    assert window.since == datetime(2026, 7, 4, 1, 29, 22, tzinfo=UTC) and window.until is None


@pytest.mark.parametrize("text", ["2026-13-01", "yesterday", "2026-07-01T10:00:00", "07/01/2026"])
def test_a_date_that_does_not_parse_is_bad_input_naming_it(text: str) -> None:
    with pytest.raises(InputError, match=f"--since '{text}': not a date"):
        parse_window(text, None)


def test_a_window_that_ends_before_it_starts_is_bad_input() -> None:
    with pytest.raises(InputError, match="is after --until"):
        parse_window("2026-08-01", "2026-07-01")


@pytest.mark.parametrize("text", ["3/2", "0/4", "1/0", "a/b", "1-4", "2"])
def test_a_shard_spec_outside_1_to_n_is_bad_input(text: str) -> None:
    with pytest.raises(InputError, match="--shard"):
        parse_shard(text)


def test_shards_split_prs_by_number_with_each_pr_in_exactly_one() -> None:
    shards = [parse_shard(f"{i}/3") for i in (1, 2, 3)]
    for number in range(2100, 2130):
        assert sum(1 for s in shards if s is not None and s.takes(number)) == 1


# --- published verdicts -------------------------------------------------------------------------


E7_BODY = f"""<!-- codeowner-signoff-verify sha={SHA} -->
## ✅✅✅ **Verdict: PASS** ✅✅✅

✅ Check 0 (CODEOWNER): PASS — owner

✅ Check 3 (recipe linked, MERGED, complete (single-node only)): PASS — merged

➖ Check 7 (deprecated models/scenarios): N/A — none

❌ Check 8 (`no architecture hacks`): FAIL — **--hf-overrides** found
"""


def test_rows_are_keyed_on_their_names_even_with_parentheses_and_formatting() -> None:
    parsed = parse_verdict(E7_BODY, POLICY, resolve_standard("E7", POLICY))
    assert parsed.checks == {
        "codeowner": "PASS",
        "recipe": "PASS",
        "deprecated-models": "N/A",
        "no-arch-hacks": "FAIL",
    }
    assert parsed.verdict == "PASS"  # the header says PASS, whatever a row says


def test_a_rejected_header_quoting_verdict_pass_stays_rejected() -> None:
    body = "## ❌❌❌ **REJECTED** ❌❌❌\n@x see `**Verdict: PASS**` is not enough\n\n✅ Check 0 (CODEOWNER): PASS — ok\n"
    assert parse_verdict(body, POLICY, resolve_standard("E4", POLICY)).verdict == "REJECTED"


def test_rows_in_a_table_and_a_header_without_a_heading_are_read_too() -> None:
    body = (Path(__file__).parents[1] / "data" / "markdown" / "verdict_comment.md").read_text()
    parsed = parse_verdict(body, POLICY, resolve_standard("E4", POLICY))
    assert parsed.verdict == "PASS" and parsed.checks["codeowner"] == "PASS"


def test_an_unknown_row_name_is_listed_not_guessed_from_its_number() -> None:
    body = "## ✅✅✅ **Verdict: PASS** ✅✅✅\n\n✅ Check 7 (pareto frontier): PASS — ok\n"
    parsed = parse_verdict(body, POLICY, resolve_standard("E8", POLICY))
    assert parsed.checks == {} and parsed.unknown_rows == ("pareto frontier",)


def test_without_a_header_a_failing_row_means_rejected_and_no_rows_mean_unknown() -> None:
    assert (
        parse_verdict(
            "Check 2 (evals pass): FAIL — low\n", POLICY, resolve_standard("E4", POLICY)
        ).verdict
        == "REJECTED"
    )
    assert parse_verdict("Looks fine to me.\n", POLICY).verdict is None


def test_rows_inside_code_blocks_or_html_comments_are_not_read() -> None:
    body = "```\n✅ Check 0 (CODEOWNER): PASS — fake\n```\n<!--\n✅ Check 1 (sweep on in-PR commit): PASS\n-->\n"
    assert parse_verdict(body, POLICY).checks == {}
    assert plain_lines("**bold** and `code`") == ["bold and code"]


def _comment(
    cid: int, login: str, body: str, at: str = "2026-07-20T11:00:00Z"
) -> dict[str, object]:
    return {
        "id": cid,
        "user": {"login": login},
        "body": body,
        "created_at": at,
        "html_url": f"https://github.com/o/r/pull/1#issuecomment-{cid}",
    }


def test_only_verifier_comments_for_the_merged_head_before_the_merge_count() -> None:
    marker = f"<!-- codeowner-signoff-verify sha={SHA} -->\n## ✅✅✅ **Verdict: PASS** ✅✅✅\n"
    comments = [
        _comment(1, "mallory-x", marker),  # not a verifier identity
        _comment(2, "klaud-cold", marker.replace(SHA, "b" * 40)),  # another head
        _comment(3, "Klaud-Cold", marker),  # the one (login compared case-insensitively)
        _comment(4, "Klaud-Cold", marker, at="2026-07-20T13:00:00Z"),  # after the merge
    ]
    found = verdict_comment(comments, SHA, MERGED, POLICY)
    assert found is not None and found["id"] == 3


def test_the_status_at_merge_is_the_newest_before_the_merge_and_a_forged_source_is_named() -> None:
    statuses = [
        {
            "id": 9,
            "context": "codeowner-signoff-verify",
            "state": "failure",
            "created_at": "2026-07-20T13:00:00Z",
        },
        {
            "id": 8,
            "context": "codeowner-signoff-verify",
            "state": "success",
            "created_at": "2026-07-20T11:30:00Z",
            "target_url": "https://github.com/o/r/pull/1#issuecomment-1",
        },
        {"id": 7, "context": "other", "state": "failure", "created_at": "2026-07-20T11:40:00Z"},
    ]
    chosen = status_at_merge(statuses, MERGED, POLICY)
    assert chosen is not None and chosen["id"] == 8
    comments = [_comment(1, "mallory-x", "<!-- codeowner-signoff-verify -->")]
    published, notes = read_published(comments, statuses, SHA, MERGED, POLICY)
    assert published.verdict is None and published.status == "success"
    assert notes == (
        "the status `success` at merge points at a comment by mallory-x, who is not a verifier identity",
    )


# --- who could sign off ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("signer", "association", "teams", "expected"),
    [
        ("Kedarpotdar-NV", "CONTRIBUTOR", {}, True),  # named directly (case-insensitive)
        ("outsider", "MEMBER", {}, True),  # an org member could own through a team
        ("outsider", "COLLABORATOR", {}, True),
        ("outsider", "CONTRIBUTOR", {}, False),
        ("outsider", "NONE", {"InferenceX/core": "member"}, True),
        ("outsider", "NONE", {"InferenceX/core": "unknown"}, False),  # unreadable never counts
        ("github-actions[bot]", "OWNER", {}, False),  # bots never sign off
    ],
)
def test_a_possible_codeowner_is_named_in_a_team_or_has_standing(
    signer: str, association: str, teams: dict[str, str], expected: bool
) -> None:
    assert could_be_codeowner(signer, association, CODEOWNERS, teams) is expected  # type: ignore[arg-type]


def test_without_a_readable_codeowners_only_standing_counts() -> None:
    assert not could_be_codeowner("ankur-singh", "CONTRIBUTOR", None, {})
    assert could_be_codeowner("ankur-singh", "MEMBER", None, {})


OPENER = "As a PR reviewer and CODEOWNER, I have reviewed this and have:\n- [x] done\n"


def _item(cid: int, login: str, body: str, at: str, **extra: object) -> dict[str, object]:
    return {
        "id": cid,
        "user": {"login": login, "type": extra.pop("type", "User")},
        "body": body,
        "created_at": at,
        "author_association": "MEMBER",
        **extra,
    }


def test_the_sign_off_that_merged_is_the_newest_before_the_merge_by_a_possible_owner() -> None:
    comments = [
        _item(1, "ankur-singh", OPENER, "2026-07-20T09:00:00Z"),
        _item(
            2, "kedarpotdar-nv", OPENER, "2026-07-20T10:00:00Z", updated_at="2026-07-21T10:00:00Z"
        ),
        _item(3, "someone", OPENER, "2026-07-20T11:00:00Z"),  # not a possible owner
        _item(4, "perf-bot[bot]", OPENER, "2026-07-20T11:10:00Z", type="Bot"),  # bots never
        _item(5, "ankur-singh", "> " + OPENER, "2026-07-20T11:20:00Z"),  # only quotes it
        _item(
            6,
            "ankur-singh",
            f"<!-- codeowner-signoff-verify sha={SHA} -->\n{OPENER}",
            "2026-07-20T11:30:00Z",
        ),
        _item(7, "ankur-singh", OPENER, "2026-07-20T12:30:00Z"),  # after the merge
    ]
    found = signoff_candidates("o/r", 1, [("conversation comment", comments)], POLICY)
    assert [c.ref.id for c in found] == [1, 2, 3, 7]
    chosen = signoff_that_merged(found, MERGED, lambda c: c.author != "someone")
    assert chosen is not None and chosen.ref.id == 2
    notes = signoff_notes(chosen, found, MERGED)
    assert any("edited after the merge" in n for n in notes)
    assert any("someone skipped" in n for n in notes)
    assert any("posted after the merge (ankur-singh)" in n for n in notes)


# --- outcomes and disagreements -------------------------------------------------------------------


def _check(cid: str, status: str, number: int = 0) -> AuditedCheck:
    return AuditedCheck(number=number, id=cid, name=cid, status=status, reason="r")  # type: ignore[arg-type]


def test_any_fail_rejects_else_any_unverifiable_else_pass() -> None:
    assert (
        outcome_of([_check("a", "PASS"), _check("b", "UNVERIFIABLE"), _check("c", "FAIL")])
        == "REJECTED"
    )
    assert outcome_of([_check("a", "N/A"), _check("b", "UNVERIFIABLE")]) == "UNVERIFIABLE"
    assert outcome_of([_check("a", "N/A"), _check("b", "PASS")]) == "PASS"


def test_only_pass_against_fail_is_a_disagreement_not_na_or_unverifiable() -> None:
    published = Published(
        verdict="PASS", checks={"a": "PASS", "b": "N/A", "c": "PASS", "d": "FAIL"}
    )
    checks = [
        _check("a", "FAIL"),
        _check("b", "PASS"),
        _check("c", "UNVERIFIABLE"),
        _check("d", "N/A"),
    ]
    assert disagreements(checks, published) == ("a", "d")


def test_nothing_published_is_no_agreement_and_a_status_alone_still_counts() -> None:
    assert agrees("PASS", Published(), ()) is None
    assert agrees("NO_SIGNOFF", Published(status="success"), ()) is False
    assert agrees("REJECTED", Published(verdict="REJECTED"), ()) is True
    assert agrees("PASS", Published(verdict="PASS"), ("a",)) is False
    line = disagreement_line("NO_SIGNOFF", Published(status="success"), (), {})
    assert line == "published PASS (status only); re-judged NO_SIGNOFF"


# --- vanished evidence ------------------------------------------------------------------------------


def _with_evals(reason: str) -> tuple[Evidence, Verdict]:
    evidence = build(passing_parts())
    results = evidence.evals[0].model_copy(
        update={"available": False, "reason": reason, "rows": ()}
    )
    evidence = evidence.model_copy(update={"evals": (results,)})
    return evidence, judge(evidence, POLICY)


@pytest.mark.parametrize(
    "reason",
    ["artifact eval_results_all expired", "artifacts of run 28600000123: 404 Not Found"],
)
def test_an_expired_artifact_or_a_deleted_run_makes_evals_unverifiable(reason: str) -> None:
    evidence, verdict = _with_evals(reason)
    checks = {c.id: c for c in audited_checks(verdict.checks, evidence)}
    assert checks["evals"].status == "UNVERIFIABLE"
    assert checks["evals"].reason.startswith("evidence no longer exists: eval results of run")


@pytest.mark.parametrize(
    "reason",
    [
        "artifact eval_results_all is not a valid zip",
        "run 28600000123 has no eval artifacts",
        "artifact eval_results_all: agg_eval_all.json is not valid JSON",
    ],
)
def test_evidence_that_is_broken_rather_than_gone_still_fails(reason: str) -> None:
    evidence, verdict = _with_evals(reason)
    checks = {c.id: c for c in audited_checks(verdict.checks, evidence)}
    assert checks["evals"].status == "FAIL"


def test_a_live_verdict_is_unchanged_by_the_audit_reading() -> None:
    _, verdict = _with_evals("artifact eval_results_all expired")
    assert [c.status for c in verdict.checks if c.id == "evals"] == ["FAIL"]


# --- standards --------------------------------------------------------------------------------------


def test_at_the_time_judges_under_the_standard_in_force_at_the_sign_off() -> None:
    e5, notes = standard_for("at-the-time", datetime(2026, 7, 10, 19, 0, tzinfo=UTC), POLICY)
    assert e5.era == "E5" and [c.id for c in e5.checks][-1] == "engine-patches" and notes == ()
    e3, _ = standard_for("at-the-time", datetime(2026, 7, 4, 1, 29, 21, tzinfo=UTC), POLICY)
    assert e3.era == "E3"
    early, notes = standard_for("at-the-time", datetime(2026, 6, 1, tzinfo=UTC), POLICY)
    assert early.era == "E1" and notes == (
        "no verifier standard was in force at 2026-06-01T00:00:00Z; judged under E1",
    )
    current, _ = standard_for("current", MERGED, POLICY)
    assert current.era == "E11" and len(current.checks) == 16
    named, _ = standard_for("0-8", MERGED, POLICY)
    assert named.era is None and len(named.checks) == 9
    assert parse_standard("E6", POLICY) == "E6" and parse_standard("at-the-time", POLICY)
    with pytest.raises(InputError, match="unknown standard 'E12'"):
        parse_standard("E12", POLICY)


def test_rows_are_read_with_the_names_of_the_era_they_were_published_in() -> None:
    body = "## ✅✅✅ **Verdict: PASS** ✅✅✅\n\n✅ Check 1 (sweep + evals on in-PR commit): PASS — ok\n"
    assert parse_verdict(body, POLICY, resolve_standard("E2", POLICY)).checks == {"sweep": "PASS"}


# --- renderers and merge ----------------------------------------------------------------------------


def _pull(number: int, **update: object) -> AuditedPull:
    base = AuditedPull(
        pr=number,
        url=f"https://github.com/o/r/pull/{number}",
        title="t",
        merged_at="2026-07-20T12:00:00Z",
        head_sha=SHA,
        gated=True,
        outcome="PASS",
        era="E6",
        signoff=SignoffUsed(
            author="ankur-singh",
            kind="conversation comment",
            url="https://github.com/x",
            at="2026-07-20T11:00:00Z",
        ),
        checks=(_check("codeowner", "PASS"),),
    )
    return base.model_copy(update=update)


def _report(prs: tuple[AuditedPull, ...], shard: str | None = None) -> AuditReport:
    own = tuple(PullCost(pr=p.pr, requests=10) for p in prs)
    return AuditReport(
        repository="o/r",
        base="main",
        since=None,
        until=None,
        standard="at-the-time",
        generated_by="signoff 0.1.0",
        prs=prs,
        summary=summarize(prs),
        shard=shard,
        cost=Cost(requests=4 + 3 + 10 * len(prs), run=4, fixed=3, prs=own, graphql=len(prs)),
    )


HOSTILE = "![x](https://evil.example/p.png) <img src=x> @everyone | `tick` [link](javascript:x)"


def test_markdown_puts_pr_controlled_text_in_code_spans_that_cannot_break_the_table() -> None:
    pr = _pull(
        7,
        title=HOSTILE,
        outcome="REJECTED",
        checks=(_check("codeowner", "FAIL"),),
        notes=(HOSTILE,),
    )
    text = render_markdown(_report((pr,)))
    for line in text.splitlines():
        if "evil.example" in line:
            assert (
                "`` ![x](https://evil.example/p.png) <img src=x> @everyone \\| `tick` [link](javascript:x) ``"
                in line
            )
    assert code("a`b``c") == "``` a`b``c ```"
    assert text.index("## Summary") < text.index("## Merged without a valid sign-off")
    assert text.index("## Merged without a valid sign-off") < text.index("## Disagreements")
    assert text.index("## Disagreements") < text.index("## All merged PRs")


def test_csv_has_one_row_per_pr_and_check_and_defuses_formula_cells() -> None:
    prs = (
        _pull(
            1,
            title='=HYPERLINK("http://evil")',
            checks=(_check("codeowner", "PASS"), _check("sweep", "FAIL", 1)),
        ),
        _pull(2, outcome="NOT_GATED", gated=False, checks=(), signoff=None),
    )
    rows = list(csv.DictReader(io.StringIO(render_csv(_report(prs)))))
    assert [(r["pr"], r["check_id"]) for r in rows] == [
        ("1", "codeowner"),
        ("1", "sweep"),
        ("2", ""),
    ]
    assert rows[0]["title"].startswith("'=")


def test_merge_needs_every_shard_once_and_the_same_audit() -> None:
    one, two = _report((_pull(2),), "1/2"), _report((_pull(3),), "2/2")
    merged = merge_reports([("b.json", two), ("a.json", one)])
    assert [p.pr for p in merged.prs] == [2, 3] and merged.shard is None
    assert merged.summary.merged == 2
    # The run's own reads once (every shard makes them); each shard's fixed reads and queries.
    assert merged.cost == Cost(
        requests=4 + 3 + 3 + 20, run=4, fixed=6, prs=one.cost.prs + two.cost.prs, graphql=2
    )
    with pytest.raises(InputError, match="shard report\\(s\\) 2/2 missing"):
        merge_reports([("a.json", one)])
    with pytest.raises(InputError, match=r"is also in a\.json"):
        merge_reports([("a.json", one), ("c.json", one)])
    with pytest.raises(InputError, match="not a shard report"):
        merge_reports([("w.json", _report((_pull(2),)))])
    other = two.model_copy(update={"base": "release"})
    with pytest.raises(InputError, match=r"d\.json: base differs"):
        merge_reports([("a.json", one), ("d.json", other)])


def test_the_json_report_keeps_the_documented_field_order() -> None:
    text = render_json(_report((_pull(2),)))
    keys = [line.split('"')[1] for line in text.splitlines() if line.startswith('  "')]
    assert keys == [
        "schema_version",
        "repository",
        "base",
        "since",
        "until",
        "standard",
        "generated_by",
        "prs",
        "summary",
        "stopped",
        "shard",
        "cost",
    ]


def test_the_progress_line_shows_prs_requests_rate_limit_and_the_reset_countdown() -> None:
    from rich.console import Console

    from signoff.audit.budget import Meter
    from signoff.audit.progress import Bar, Silent, reporter

    screen = io.StringIO()
    meter = Meter(remaining=4321)
    bar = Bar(3, meter, Console(file=screen, force_terminal=True, width=120))
    with bar:
        bar.advance()
        bar.waiting(75)
        bar._progress.refresh()
        shown = screen.getvalue()
    assert "1/3" in shown and "rate limit 4321" in shown and "resuming in 1:15" in shown
    assert isinstance(reporter(3, meter, enabled=False), Silent)
    assert isinstance(reporter(3, meter, enabled=True), Silent)  # pytest's stderr is no TTY


def test_markdown_names_every_unverifiable_check_with_its_reason() -> None:
    gone = AuditedCheck(
        number=2,
        id="evals",
        name="evals pass",
        status="UNVERIFIABLE",
        reason="the eval artifact of run 7 has expired (GitHub answers 410)",
    )
    pr = _pull(9, outcome="UNVERIFIABLE", checks=(_check("codeowner", "PASS"), gone))
    text = render_markdown(_report((pr,)))
    section = text[text.index("## Could not be verified") : text.index("## All merged PRs")]
    assert "Check 2 (evals pass)" in section
    assert "| ` the eval artifact of run 7 has expired (GitHub answers 410) ` |" in section
    assert "## Could not be verified" not in render_markdown(_report((_pull(3),)))


def test_a_long_reason_is_cut_between_words_never_inside_one() -> None:
    reason = " ".join(["configuration"] * 40)
    cut = code(reason, 100)
    inner = cut.strip("` ")
    assert inner.endswith("configuration…") and len(inner) <= 100
    assert set(inner.removesuffix("…").split()) == {"configuration"}  # whole words only
