"""Check 4 (reuse command) and Check 5 (latest template) from small evidence variations."""

from __future__ import annotations

import pytest
from builders import passing_parts, replace_file, set_signoff_body, signoff_body

DATA_V13 = "PR_REVIEW_CHECKLIST_v13.md"


def _with_comments(*comments: tuple[str, str, str]) -> dict:
    parts = passing_parts()
    parts["comments"] = [
        {
            "id": 10 + i,
            "author": who,
            "author_association": assoc,
            "body": body,
            "created_at": f"2026-11-20T1{i}:00:00Z",
        }
        for i, (who, assoc, body) in enumerate(comments)
    ]
    return parts


def test_reuse_command_by_a_member_passes(check):
    result = check(passing_parts(), "reuse-command")
    assert result.status == "PASS"
    assert "functionstackx (MEMBER)" in result.reason


def test_reuse_command_with_a_run_id_passes_and_names_it(check):
    parts = _with_comments(
        ("lee", "COLLABORATOR", "Reusing the sweep:\n/reuse-sweep-run 28600000123\n")
    )
    result = check(parts, "reuse-command")
    assert result.status == "PASS"
    assert "/reuse-sweep-run 28600000123" in result.reason


@pytest.mark.parametrize(
    "body",
    [
        "please /reuse-sweep-run",
        "/reuse-sweep-run now",
        "/reuse-sweep-run abc",
        "> /reuse-sweep-run",
        "`/reuse-sweep-run`",
    ],
)
def test_reuse_command_must_be_a_whole_line_with_an_optional_numeric_id(check, body):
    parts = _with_comments(("lee", "MEMBER", body))
    assert check(parts, "reuse-command").status == "FAIL"


def test_reuse_command_from_an_unauthorised_account_is_ignored(check):
    parts = _with_comments(("drive-by", "CONTRIBUTOR", "/reuse-sweep-run"))
    result = check(parts, "reuse-command")
    assert result.status == "FAIL"
    assert "drive-by (CONTRIBUTOR)" in result.reason


def test_all_current_items_checked_pass(check):
    result = check(passing_parts(), "latest-template")
    assert result.status == "PASS"
    assert "all 15 current" in result.reason


def test_uppercase_x_counts_as_checked(check):
    parts = passing_parts()
    set_signoff_body(parts, signoff_body().replace("- [x]", "- [X]"))
    assert check(parts, "latest-template").status == "PASS"


def test_copy_missing_the_newest_item_fails_naming_it(check):
    parts = passing_parts()
    set_signoff_body(parts, signoff_body(drop=("append-only: true",)))
    result = check(parts, "latest-template")
    assert result.status == "FAIL"
    assert "APPEND_ONLY" in result.reason


def test_older_template_copy_fails_with_the_missing_items(check):
    from builders import DATA

    old = (DATA / "markdown" / DATA_V13).read_text(encoding="utf-8")
    block = old.split("```")[1] if "```" in old else old
    body = block.replace("- [ ]", "- [x]").replace("insert any additional info here", "see run")
    parts = passing_parts()
    set_signoff_body(parts, body)
    result = check(parts, "latest-template")
    assert result.status == "FAIL"
    assert "NO_PATCH" in result.reason and "DEPRECATED" in result.reason


def test_unchecked_item_without_explanation_fails(check):
    parts = passing_parts()
    set_signoff_body(parts, signoff_body(uncheck=("For agentic workloads",)))
    result = check(parts, "latest-template")
    assert result.status == "FAIL"
    assert "AGENTIC_AL" in result.reason


def test_unchecked_item_named_by_a_detail_sentence_passes(check):
    parts = passing_parts()
    detail = (
        "- Recipe: https://github.com/vllm-project/recipes/pull/612\n"
        "- The synthetic acceptance item does not apply: this PR only touches a fixed-seq-len recipe."
    )
    set_signoff_body(parts, signoff_body(detail=detail, uncheck=("For agentic workloads",)))
    result = check(parts, "latest-template")
    assert result.status == "PASS"
    assert "1 unchecked item(s) explained" in result.reason


def _unchecked_all(detail: str) -> str:
    return signoff_body(detail=detail, uncheck=("",))


@pytest.mark.parametrize(
    "detail",
    [
        "- quantization n/a",
        "- N/A",
        "- Not applicable to this PR.",
        "- See https://docs.vllm.ai/en/latest/configuration/api.html",
        "- [docs](https://docs.vllm.ai/en/latest/configuration/api.html)",
        "- <https://example.test/n/a/left-unchecked>",
        "- Items left unchecked because they do not apply.",
    ],
)
def test_one_explanation_in_the_detail_section_does_not_explain_every_unchecked_item(check, detail):
    parts = passing_parts()
    set_signoff_body(parts, _unchecked_all(detail))
    result = check(parts, "latest-template")
    assert result.status == "FAIL"
    assert "no explanation attached" in result.reason and "LATEST" in result.reason


def test_a_phrase_inside_a_url_on_the_items_line_explains_nothing(check):
    parts = passing_parts()
    body = signoff_body(uncheck=("For agentic workloads",))
    body = body.replace("workloads", "workloads https://x.test/configuration/api/not-applicable", 1)
    set_signoff_body(parts, body)
    assert check(parts, "latest-template").status == "FAIL"


def test_n_a_on_the_items_own_line_explains_that_item_only(check):
    parts = passing_parts()
    body = signoff_body(uncheck=("For agentic workloads", "MODELS.md"))
    lines = body.split("\n")
    at = next(i for i, line in enumerate(lines) if "For agentic workloads" in line)
    lines[at] += " — n/a: no agentic scenario in this PR"
    set_signoff_body(parts, "\n".join(lines))
    result = check(parts, "latest-template")
    assert result.status == "FAIL"
    assert "DEPRECATED" in result.reason and "AGENTIC_AL" not in result.reason


def test_an_explanation_nested_under_the_item_explains_it(check):
    parts = passing_parts()
    body = signoff_body(uncheck=("For agentic workloads",))
    lines = body.split("\n")
    at = next(i for i, line in enumerate(lines) if "For agentic workloads" in line)
    lines.insert(at + 1, "  - Not applicable: this PR has no agentic scenario.")
    set_signoff_body(parts, "\n".join(lines))
    result = check(parts, "latest-template")
    assert result.status == "PASS", result.reason
    assert "1 unchecked item(s) explained" in result.reason


def test_an_explanation_under_a_sub_item_does_not_explain_its_parent(check):
    parts = passing_parts()
    body = signoff_body(uncheck=("recipes.vllm.ai",))
    lines = body.split("\n")
    at = next(i for i, line in enumerate(lines) if "MERGED" in line)
    lines.insert(at + 1, "    - n/a")
    set_signoff_body(parts, "\n".join(lines))
    result = check(parts, "latest-template")
    assert result.status == "FAIL" and "RECIPE " in result.reason


def test_unreadable_template_fails_closed(check):
    parts = passing_parts()
    replace_file(parts, "docs/PR_REVIEW_CHECKLIST.md", "default", None, state="unavailable")
    result = check(parts, "latest-template")
    assert result.status == "FAIL"
    assert "unreadable" in result.reason


def test_signoff_pasted_with_its_template_fence_still_counts(check):
    parts = passing_parts()
    set_signoff_body(parts, "```\n" + signoff_body() + "```\n")
    assert check(parts, "latest-template").status == "PASS"


@pytest.mark.parametrize(
    ("standard", "item", "drop", "feeds"),
    [
        ("E8", "APPEND_ONLY", "append-only: true", "verified by Check 12 (append-only additive)"),
        ("E7", "DEPRECATED", "MODELS.md", "verified by Check 7 (deprecated models/scenarios)"),
        ("E6", "AGENTIC_AL", "For agentic workloads", "verified by Check 10 (agentic golden"),
        ("E4", "UPSTREAM_IMG", "hub.docker.com/u/vllm", "verified by Check 6 (upstream image"),
    ],
)
def test_a_missing_item_is_named_with_the_check_that_verifies_it_in_that_era(
    check, standard, item, drop, feeds
):
    parts = passing_parts()
    set_signoff_body(parts, signoff_body(drop=(drop,)))
    result = check(parts, "latest-template", standard)
    assert result.status == "FAIL" and item in result.reason and feeds in result.reason


@pytest.mark.parametrize("standard", ["0-8", "E4"])
def test_an_item_no_check_of_the_era_verifies_is_still_required_by_the_template(check, standard):
    parts = passing_parts()
    set_signoff_body(parts, signoff_body(drop=("MODELS.md",)))
    result = check(parts, "latest-template", standard)
    assert result.status == "FAIL" and "DEPRECATED" in result.reason
    assert "verified by" not in result.reason
