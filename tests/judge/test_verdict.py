"""Verdict-level rules: PASS iff no FAIL, fail-closed crashes, determinism, output formats."""

from __future__ import annotations

import json
import types
from pathlib import Path

from builders import HEAD_SHA, build, passing_parts, set_signoff_body, signoff_body

import signoff.judge.checks as checks_package
from signoff.judge import judge, run_check
from signoff.judge.context import JudgeContext
from signoff.judge.registry import CHECKS
from signoff.publish.render import PASS_HEADER, REJECTED_HEADER, render_json, render_markdown
from signoff.standards import resolve_standard


def test_every_check_module_is_registered_once_under_its_own_id():
    here = Path(checks_package.__file__).parent
    modules = {p.stem for p in here.glob("*.py") if p.stem != "__init__"}
    modules |= {p.parent.name for p in here.glob("*/__init__.py")}  # a check with helpers
    registered = [m.__name__.rsplit(".", 1)[-1] for m in CHECKS.values()]
    assert sorted(registered) == sorted(modules)
    assert all(check_id == module.ID for check_id, module in CHECKS.items())
    assert not any(hasattr(module, "NUMBER") for module in CHECKS.values())  # eras number them


def test_every_check_documents_what_it_checks_why_and_how_to_satisfy_it():
    for module in CHECKS.values():
        doc = module.__doc__ or ""
        assert not doc.startswith("Check "), module.__name__  # numbers belong to the standard
        assert "Why:" in doc and "To satisfy it:" in doc
        assert isinstance(module.NAME, str) and module.NAME


def test_all_checks_passing_gives_pass(policy):
    verdict = judge(build(passing_parts()), policy)
    assert verdict.outcome == "PASS"
    default = resolve_standard(None, policy)
    assert [c.id for c in verdict.checks] == [slot.id for slot in default.checks]
    assert {c.status for c in verdict.checks} == {"PASS"}


def test_not_applicable_counts_as_a_pass(policy):
    parts = passing_parts()
    parts["changed_files"] = [{"path": "README.md", "status": "modified", "patch": "+typo fix"}]
    parts["signoff"]["author"] = "kedarpotdar-nv"
    verdict = judge(build(parts), policy)
    statuses = {c.id: c.status for c in verdict.checks}
    assert statuses["recipe"] == "N/A" and statuses["upstream-image"] == "N/A"
    assert verdict.outcome == ("PASS" if "FAIL" not in statuses.values() else "REJECTED")
    assert "FAIL" not in statuses.values()


def test_one_failing_check_rejects(policy):
    parts = passing_parts()
    set_signoff_body(parts, signoff_body(drop=("append-only: true",)))
    verdict = judge(build(parts), policy)
    assert verdict.outcome == "REJECTED"
    assert [c.number for c in verdict.failures] == [5]


def test_a_crashing_check_fails_closed_and_names_itself(policy):
    def boom(ctx):
        raise KeyError("surprise")

    broken = types.SimpleNamespace(ID="reuse-command", NAME="reuse command", evaluate=boom)
    standard = resolve_standard("E8", policy)  # Check 4 still FAILs there (it warns from #3368)
    slot = standard.slot("reuse-command")
    ctx = JudgeContext(build(passing_parts()), policy, standard)
    result = run_check(broken, ctx, slot)  # type: ignore[arg-type]
    assert result.status == "FAIL"
    assert "internal error in check 4 (reuse command): KeyError" in result.reason


def test_same_evidence_gives_byte_identical_verdicts(policy):
    first = render_markdown(judge(build(passing_parts()), policy), policy)
    second = render_markdown(judge(build(passing_parts()), policy), policy)
    assert first == second


def test_markdown_verdict_has_marker_header_and_one_row_per_check(policy):
    text = render_markdown(judge(build(passing_parts()), policy), policy)
    lines = text.splitlines()
    assert lines[0] == f"<!-- codeowner-signoff-verify sha={HEAD_SHA} -->"
    assert lines[1] == PASS_HEADER
    rows = [ln for ln in lines if ln.startswith(("✅ Check", "❌ Check", "➖ Check"))]
    assert len(rows) == len(resolve_standard(None, policy).checks)
    assert rows[0].startswith("✅ Check 0 (CODEOWNER): PASS — ")
    assert "@" not in "\n".join(lines[1:3])  # never @ on PASS


def test_rejected_verdict_mentions_only_the_signer(policy):
    parts = passing_parts()
    parts["signoff"]["author"] = "chunfangamd"
    text = render_markdown(judge(build(parts), policy), policy)
    lines = text.splitlines()
    assert lines[1] == REJECTED_HEADER
    assert lines[2].startswith(
        "@chunfangamd sign-off not accepted: 1 check failed (Check 0 (CODEOWNER))"
    )
    # owners named in the reason must not be pinged
    assert "@ankur-singh" not in text and "@\u200bankur-singh" in text


def test_untrusted_text_cannot_close_the_marker_or_inject_html(policy):
    parts = passing_parts()
    parts["signoff"]["author"] = "mallory"
    parts["changed_files"].append(
        {"path": "configs/amd-master.yaml", "status": "modified", "patch": "+x"}
    )
    verdict = judge(build(parts), policy)
    text = render_markdown(verdict, policy)
    assert text.count("<!--") == 1 and text.count("-->") == 1


def test_head_moved_note_asks_for_a_fresh_signoff(policy):
    parts = passing_parts()
    parts["head_moved_to"] = "f" * 40
    text = render_markdown(judge(build(parts), policy), policy)
    assert "fresh sign-off is needed" in text and "ffffffffffff" in text


def test_json_verdict_has_the_documented_shape(policy):
    document = json.loads(render_json(judge(build(passing_parts()), policy)))
    assert set(document) >= {"verdict", "repository", "pr", "head_sha", "signoff", "checks"}
    assert document["signoff"] == {
        "author": "ankur-singh",
        "kind": "conversation comment",
        "url": "https://github.com/SemiAnalysisAI/InferenceX/pull/2650#issuecomment-3100000001",
    }
    assert [set(c) for c in document["checks"]] == [
        {"number", "id", "name", "status", "reason"}
    ] * len(resolve_standard(None, policy).checks)
    assert (document["standard"], document["era"]) == ("0-8", None)


def test_file_lookups_follow_a_copy_that_replaces_the_files():
    evidence = build(passing_parts())
    assert evidence.file(".github/CODEOWNERS", "default") is not None
    emptied = evidence.model_copy(update={"files": ()})
    assert emptied.file(".github/CODEOWNERS", "default") is None
    assert evidence.file(".github/CODEOWNERS", "default") is not None
