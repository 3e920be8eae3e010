"""Checklist page parsing: where the template is, its items, and catalogue identification."""

from __future__ import annotations

from pathlib import Path

from signoff.parse.template import ParsedTemplate, identify_item, parse_template
from signoff.policy import SignoffSyntax, TemplateItemSpec, load_policy

DATA = Path(__file__).parents[1] / "data" / "markdown"
POLICY = load_policy(Path(__file__).parents[2] / "checklists" / "inferencex.yaml")
SYNTAX = POLICY.signoff
CATALOG = POLICY.template_items
OPENER = "As a PR reviewer and CODEOWNER, I have reviewed this and have:"
V21_IDS = [
    "LATEST",
    "QUALITY",
    "PRVAL",
    "EVALS",
    "SPEC_CHAT",
    "AGENTIC_AL",
    "DEPRECATED",
    "ARCH",
    "UPSTREAM_IMG",
    "ENGINE_FIRST",
    "RECIPE",
    "RECIPE_PR",
    "NO_PATCH",
    "APPEND_ONLY",
    "EXCEPTIONS",
]
V13_IDS = [
    "LATEST",
    "QUALITY",
    "PRVAL",
    "EVALS",
    "SPEC_CHAT",
    "ARCH",
    "UPSTREAM_IMG",
    "ENGINE_FIRST",
    "RECIPE",
    "EXCEPTIONS",
]


def parse_page(name: str) -> ParsedTemplate:
    return parse_template((DATA / name).read_text(encoding="utf-8"), SYNTAX, CATALOG)


def test_v21_page_identifies_all_fifteen_items_in_order() -> None:
    assert [item.catalog_id for item in parse_page("PR_REVIEW_CHECKLIST_v21.md").items] == V21_IDS


def test_v13_page_identifies_its_ten_items() -> None:
    assert [item.catalog_id for item in parse_page("PR_REVIEW_CHECKLIST_v13.md").items] == V13_IDS


def test_template_line_numbers_are_lines_of_the_page() -> None:
    page = (DATA / "PR_REVIEW_CHECKLIST_v21.md").read_text(encoding="utf-8").split("\n")
    for item in parse_page("PR_REVIEW_CHECKLIST_v21.md").items:
        assert page[item.line - 1].lstrip().startswith("- [ ]")
        assert item.text.split()[0] in page[item.line - 1]


def test_recipe_sub_item_is_a_depth_one_child_of_recipe() -> None:
    items = parse_page("PR_REVIEW_CHECKLIST_v21.md").items
    sub = items[11]
    assert (sub.depth, sub.parent) == (1, 10)
    assert all(item.depth == 0 for index, item in enumerate(items) if index != 11)


def test_plain_recipe_sub_bullet_of_older_versions_is_not_an_item() -> None:
    items = parse_page("PR_REVIEW_CHECKLIST_v13.md").items
    assert len(items) == 10
    assert not any("If they are not" in item.text for item in items)


def test_example_section_and_intro_prose_are_not_template() -> None:
    page = (
        "Intro\n\n- [ ] not part of it\n\n## Template\n\n```\n"
        + OPENER
        + "\n- [ ] Verified a\n```\n\n## Example\n- [ ] nope\n"
    )
    parsed = parse_template(page, SYNTAX, CATALOG)
    assert [(item.text, item.line) for item in parsed.items] == [("Verified a", 9)]


def test_opener_and_detail_section_are_reported() -> None:
    parsed = parse_page("PR_REVIEW_CHECKLIST_v21.md")
    assert parsed.opener == OPENER
    assert parsed.has_detail_section


def test_v1_style_template_without_detail_heading_has_no_detail_section() -> None:
    items = "- [ ] Verified a\n- [ ] Verified b, linked in the additional detail section\n"
    text = f"{OPENER}\n{items}\nSigned: `X`\n"
    parsed = parse_template(text, SYNTAX, CATALOG)
    assert not parsed.has_detail_section
    assert len(parsed.items) == 2


def test_bare_template_file_is_parsed_as_the_template() -> None:
    parsed = parse_template(
        f"{OPENER}\n- [ ] Verified that this PR passes evals.\n", SYNTAX, CATALOG
    )
    assert [(item.catalog_id, item.line) for item in parsed.items] == [("EVALS", 2)]


def test_page_without_template_heading_uses_the_fence_holding_the_opener() -> None:
    page = "```bash\n- [ ] a shell note\n```\n\n```\n" + OPENER + "\n- [ ] Verified b\n```\n"
    parsed = parse_template(page, SYNTAX, CATALOG)
    assert [(item.text, item.line) for item in parsed.items] == [("Verified b", 7)]


def test_fence_with_the_opener_wins_over_an_earlier_fence_in_the_section() -> None:
    page = "## Template\n\n```\nplain note\n```\n\n```\n" + OPENER + "\n- [ ] Verified d\n```\n"
    parsed = parse_template(page, SYNTAX, CATALOG)
    assert [(item.text, item.line) for item in parsed.items] == [("Verified d", 9)]


def test_template_heading_matches_any_level_and_case() -> None:
    page = "# Intro\n\n### TEMPLATE:\n\n" + OPENER + "\n- [ ] Verified c\n\n# Example\n- [ ] nope\n"
    parsed = parse_template(page, SYNTAX, CATALOG)
    assert [(item.text, item.line) for item in parsed.items] == [("Verified c", 6)]


def test_crlf_page_gives_the_same_template() -> None:
    text = (DATA / "PR_REVIEW_CHECKLIST_v21.md").read_text(encoding="utf-8")
    crlf = parse_template(text.replace("\n", "\r\n"), SYNTAX, CATALOG)
    assert crlf == parse_page("PR_REVIEW_CHECKLIST_v21.md")


def test_identify_item_returns_none_without_any_cue() -> None:
    assert identify_item("Verified the weather is nice", CATALOG) is None


def test_identify_item_counts_cues_and_ties_go_to_the_earlier_spec() -> None:
    catalog = (
        TemplateItemSpec(id="FIRST", cues=("alpha", "beta")),
        TemplateItemSpec(id="SECOND", cues=("alpha", "gamma", "delta")),
    )
    assert identify_item("alpha beta", catalog) == "FIRST"
    assert identify_item("alpha gamma delta", catalog) == "SECOND"
    assert identify_item("ALPHA", catalog) == "FIRST"


def test_identify_item_prefers_the_child_spec_under_its_parent() -> None:
    text = "the single-node recipe is in recipes.vllm.ai, see vllm-project/recipes"
    assert identify_item(text, CATALOG) == "RECIPE"
    assert identify_item(text, CATALOG, parent_id="RECIPE") == "RECIPE_PR"


def test_identify_item_ignores_emphasis_in_cues_and_whitespace_in_text() -> None:
    assert identify_item("verified   that it is MERGED", CATALOG) == "RECIPE_PR"


def test_template_items_keep_link_urls_for_identification() -> None:
    syntax = SignoffSyntax(opener="x", detail_heading="y")
    parsed = parse_template("- [ ] see [the hub](https://hub.docker.com/u/vllm)\n", syntax, CATALOG)
    assert parsed.items[0].catalog_id == "UPSTREAM_IMG"
    assert parsed.items[0].links == ("https://hub.docker.com/u/vllm",)
