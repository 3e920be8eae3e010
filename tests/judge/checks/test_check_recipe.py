"""Check 3 (recipe) from small evidence variations."""

from __future__ import annotations

from builders import (
    RECIPE_URL,
    passing_parts,
    replace_file,
    set_signoff_body,
    signoff_body,
    template_text,
)


def test_merged_upstream_recipe_with_matching_major_args_passes(check):
    result = check(passing_parts(), "recipe")
    assert result.status == "PASS"
    assert "vllm-project/recipes#612 (merged)" in result.reason
    assert "--kv-cache-dtype" in result.reason
    # flags the recipe never mentions are InferenceX tuning: reported, not judged
    assert "Informational" in result.reason and "--max-model-len" in result.reason


def test_missing_recipe_link_fails(check):
    parts = passing_parts()
    set_signoff_body(parts, signoff_body(detail="- Validation run: see the checks tab"))
    result = check(parts, "recipe")
    assert result.status == "FAIL"
    assert "no upstream recipe link" in result.reason


def test_recipe_link_outside_the_detail_section_does_not_count(check):
    parts = passing_parts()
    body = signoff_body(detail="- all good") + f"\nP.S. {RECIPE_URL}\n"
    set_signoff_body(parts, body)
    assert check(parts, "recipe").status == "FAIL"


def test_open_upstream_pr_fails_when_the_template_demands_merged(check):
    parts = passing_parts()
    parts["upstream"][0]["state"] = "open"
    parts["upstream"][0]["merged_at"] = None
    result = check(parts, "recipe")
    assert result.status == "FAIL"
    assert "is open" in result.reason and "MERGED" in result.reason


def test_draft_upstream_pr_fails(check):
    parts = passing_parts()
    parts["upstream"][0]["state"] = "draft"
    assert check(parts, "recipe").status == "FAIL"


def test_open_pr_is_accepted_under_a_pre_merged_template(check):
    parts = passing_parts()
    parts["upstream"][0]["state"] = "open"
    old = template_text().replace("**MERGED**", "merged or opened")
    replace_file(parts, "docs/PR_REVIEW_CHECKLIST.md", "default", old)
    assert check(parts, "recipe").status == "PASS"


def test_published_recipe_page_counts_as_merged(check):
    parts = passing_parts()
    page = "https://recipes.vllm.ai/DeepSeek/DeepSeek-V4"
    set_signoff_body(parts, signoff_body(detail=f"- Recipe: {page}"))
    parts["upstream"] = [
        {
            "url": page,
            "kind": "page",
            "state": "published",
            "page_text": parts["upstream"][0]["files"][0]["text"],
        }
    ]
    assert check(parts, "recipe").status == "PASS"


def test_a_browser_rendered_page_is_judged_on_the_recipe_file_it_is_generated_from(check):
    parts = passing_parts()
    page = "https://recipes.vllm.ai/DeepSeek/DeepSeek-V4"
    set_signoff_body(parts, signoff_body(detail=f"- Recipe: {page}"))
    source = {"path": "models/DeepSeek/DeepSeek-V4.md", "sha": "f" * 40}
    recipe = parts["upstream"][0]["files"][0]["text"]
    parts["upstream"] = [
        {"url": page, "kind": "page", "state": "published", "page_text": "<div id=app></div>",
         "repo": "vllm-project/recipes", "files": [{**source, "text": recipe}]}
    ]  # fmt: skip
    result = check(parts, "recipe")
    assert result.status == "PASS" and "`DeepSeek-V4.md`" in result.reason
    # the page's own HTML gives no command; without its source file nothing supports the launch
    parts["upstream"][0]["files"] = [{**source, "state": "missing", "reason": "404 Not Found"}]
    result = check(parts, "recipe")
    assert result.status == "FAIL"
    assert "no recipe command" in result.reason and "404 Not Found" in result.reason


def test_unreachable_link_cannot_be_verified(check):
    parts = passing_parts()
    parts["upstream"][0]["state"] = "unreachable"
    parts["upstream"][0]["reason"] = "HTTP 502"
    result = check(parts, "recipe")
    assert result.status == "FAIL"
    assert "could not be verified" in result.reason


def test_short_reference_in_the_detail_section_is_recognised(check):
    parts = passing_parts()
    set_signoff_body(
        parts, signoff_body(detail="- Recipe merged upstream in vllm-project/recipes#612")
    )
    assert check(parts, "recipe").status == "PASS"


def test_major_arg_missing_from_the_recipe_fails_naming_it(check):
    parts = passing_parts()
    doc = parts["upstream"][0]["files"][0]["text"].replace("--kv-cache-dtype fp8 \\\n", "")
    parts["upstream"][0]["files"][0]["text"] = doc
    result = check(parts, "recipe")
    assert result.status == "FAIL"
    assert "--kv-cache-dtype fp8" in result.reason


def test_different_value_of_a_major_arg_fails(check):
    parts = passing_parts()
    doc = parts["upstream"][0]["files"][0]["text"].replace("FLASHMLA", "TRITON_MLA")
    parts["upstream"][0]["files"][0]["text"] = doc
    result = check(parts, "recipe")
    assert result.status == "FAIL"
    assert "--attention-backend FLASHMLA" in result.reason


def test_recipe_for_another_model_fails(check):
    parts = passing_parts()
    doc = parts["upstream"][0]["files"][0]["text"].replace("DeepSeek-V4-Pro", "DeepSeek-R1")
    parts["upstream"][0]["files"][0]["text"] = doc
    result = check(parts, "recipe")
    assert result.status == "FAIL"
    assert "no recipe command for `deepseek-ai/DeepSeek-V4-Pro` (vllm) on b200" in result.reason


def test_exclusively_multi_node_changes_are_not_applicable(check):
    parts = passing_parts()
    parts["changed_files"] = [
        {
            "path": "benchmarks/multi_node/srt-slurm-recipes/dsv4/gb200.yaml",
            "status": "added",
            "patch": "+x: 1",
        }
    ]
    result = check(parts, "recipe")
    assert result.status == "N/A"
    assert "multi-node" in result.reason


def test_docs_only_change_is_not_applicable(check):
    parts = passing_parts()
    parts["changed_files"] = [{"path": "README.md", "status": "modified", "patch": "+hi"}]
    assert check(parts, "recipe").status == "N/A"


def test_unreadable_script_of_a_changed_entry_fails_closed(check):
    parts = passing_parts()
    parts["files"] = [f for f in parts["files"] if not f["path"].endswith(".sh")]
    result = check(parts, "recipe")
    assert result.status == "FAIL"
    assert "could not be read" in result.reason
