"""Publishing follows the era in force unless the profile says otherwise: the footer, the status
texts, collapsed rows, one comment per run, and whether edits trigger (#3164, #3338, #3340)."""

from __future__ import annotations

import json
from pathlib import Path

from builders import build, current_parts, measured_curve
from fake_github import FakeGitHub, FakeState, client, fake_github

from signoff.audit.published import parse_verdict
from signoff.gate import decide
from signoff.judge import judge
from signoff.publish.comment import is_verdict_for, publish_comment
from signoff.publish.render import render_markdown
from signoff.publish.status import plan_status
from signoff.publish.style import style_for, verdict_style
from signoff.standards import resolve_standard

EVENTS = Path(__file__).parents[1] / "data" / "events"
REPO, PR, SHA = "SemiAnalysisAI/InferenceX", 2417, "5f0c3e9a1b7d2c4e6f8091a2b3c4d5e6f7a8b9c0"
MARKER, BOT = "codeowner-signoff-verify", "github-actions[bot]"


def verdict_under(policy, spec, parts=None):
    return judge(build(parts or current_parts()), policy, resolve_standard(spec, policy))


def overridden(policy, **options):
    return policy.model_copy(update={"publish": policy.publish.model_copy(update=options)})


def test_the_defaults_follow_the_era_and_the_missions_verdict_keeps_its_form(policy):
    classic = style_for(policy, resolve_standard("0-8", policy))
    assert not (classic.footer_commits or classic.collapse_passing or classic.comment_per_run)
    assert classic.trigger_on_edits and classic.status_fail == policy.publish.classic_fail
    september = style_for(policy, resolve_standard("at:2026-09-21T12:00:00Z", policy))
    assert september.footer_commits and september.comment_per_run
    assert not september.trigger_on_edits and not september.collapse_passing
    assert september.status_fail == "CODEOWNER sign-off rejected"
    assert september.status_stale == "Fresh CODEOWNER sign-off verification required"
    assert style_for(policy, resolve_standard("current", policy)).collapse_passing


def test_a_profile_option_wins_over_the_era(policy):
    mine = overridden(policy, comment_per_run=False, trigger_on_edits=True, status_fail="no")
    style = style_for(mine, resolve_standard("current", policy))
    assert not style.comment_per_run and style.trigger_on_edits and style.status_fail == "no"
    forced = overridden(policy, collapse_passing=True, footer_commits=True)
    assert style_for(forced, resolve_standard("0-8", policy)).collapse_passing


def test_the_rejection_status_text_is_the_eras(policy):
    parts = current_parts()
    parts["signoff"]["author"] = "chunfangamd"
    for spec, text in (
        ("0-8", policy.publish.classic_fail),
        ("E10", "CODEOWNER sign-off rejected"),
    ):
        verdict = verdict_under(policy, spec, parts)
        plan = plan_status(verdict.outcome, policy, sha=SHA, style=verdict_style(verdict, policy))
        assert (plan.state, plan.description) == ("failure", text), spec


def test_collapsed_rows_keep_failures_and_warnings_open_and_audit_still_reads_every_row(policy):
    parts = current_parts()
    parts["throughput"]["rows"] = measured_curve(1)
    verdict = verdict_under(policy, "current", parts)
    body = render_markdown(verdict, policy)
    opened, folded = body.split("<details>")
    assert "Check 14 (Pareto coverage): WARN" in opened and "Check 0 (CODEOWNER)" not in opened
    assert "<summary>Passed and not applicable checks</summary>" in folded
    assert "➖ Check 11" in folded and "</details>" in folded
    assert f"Assessed commit: `{verdict.head_sha}`" in body
    parsed = parse_verdict(body, policy, resolve_standard("current", policy))
    assert parsed.verdict == "WARN" and len(parsed.checks) == 16
    assert "<details>" not in render_markdown(verdict_under(policy, "0-8"), policy)


def test_the_footer_says_a_head_that_moved_is_not_covered(policy):
    moved = verdict_under(policy, "current").model_copy(update={"head_moved_to": "f" * 40})
    body = render_markdown(moved, policy)
    assert f"(the PR head `{'f' * 40}` is not covered)" in body


def test_one_comment_per_run_posts_every_time_and_never_edits_or_deletes(policy):
    state = FakeState(repo=REPO, pr=PR, writer=BOT)
    body = f"<!-- {MARKER} sha={SHA} -->\n## ✅✅✅ **Verdict: PASS** ✅✅✅\n"
    with fake_github(FakeGitHub(state)):
        for _ in range(3):
            publish_comment(
                client(), REPO, PR, body, marker=MARKER, sha=SHA, identity=BOT, per_run=True
            )
        publish_comment(client(), REPO, PR, body, marker=MARKER, sha=SHA, identity=BOT)
    verdicts = [c for c in state.comments if is_verdict_for(c["body"], marker=MARKER, sha=SHA)]
    assert len(verdicts) == 1  # the per-SHA run converged them back to one
    state = FakeState(repo=REPO, pr=PR, writer=BOT)
    with fake_github(FakeGitHub(state)):
        for _ in range(3):
            publish_comment(
                client(), REPO, PR, body, marker=MARKER, sha=SHA, identity=BOT, per_run=True
            )
    verdicts = [c for c in state.comments if is_verdict_for(c["body"], marker=MARKER, sha=SHA)]
    assert len(verdicts) == 3


def test_edits_no_longer_trigger_from_3340_but_new_sign_offs_do(policy):
    edited = json.loads((EVENTS / "issue_comment.edited.pull_request.json").read_text())
    created = json.loads((EVENTS / "issue_comment.created.pull_request.json").read_text())
    assert decide("issue_comment", edited, policy, edits_trigger=True).proceed
    skipped = decide("issue_comment", edited, policy, edits_trigger=False)
    assert not skipped.proceed and "edits do not trigger" in skipped.reason
    assert decide("issue_comment", created, policy, edits_trigger=False).proceed


def test_a_pareto_warning_mentions_the_profiles_maintainers_above_the_findings(policy):
    parts = current_parts()
    parts["throughput"]["rows"] = measured_curve(2)
    body = render_markdown(verdict_under(policy, "current", parts), policy)
    line = "Check 14 (Pareto coverage) warns; for an admin exception: @functionstackx @cquil11"
    assert line in body and body.index(line) < body.index("⚠️ Check 14")
    assert "admin exception" not in render_markdown(verdict_under(policy, "current"), policy)


def test_an_escalation_that_is_not_a_login_is_a_profile_error(policy):
    import pydantic
    import pytest

    with pytest.raises(pydantic.ValidationError):
        policy.publish.model_validate(
            {**policy.publish.model_dump(), "escalations": {"pareto-coverage": ["@x <img>"]}}
        )
