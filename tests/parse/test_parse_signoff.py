"""Sign-off comment parsing: opener, task items, detail section, links and signature."""

from __future__ import annotations

from pathlib import Path

import pytest

from signoff.parse.signoff_comment import ParsedSignoff, has_opener, parse_signoff
from signoff.policy import SignoffSyntax

DATA = Path(__file__).parents[1] / "data" / "markdown"
SYNTAX = SignoffSyntax(
    opener="As a PR reviewer and CODEOWNER",
    detail_heading="additional detail section",
    placeholders=("insert any additional info here",),
    signed_prefix="Signed:",
)
OPENER = "As a PR reviewer and CODEOWNER, I have reviewed this and have:"


def read(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def template_block() -> str:
    """The V21 fixture's fenced template, without its fence lines."""
    page = read("PR_REVIEW_CHECKLIST_v21.md")
    start = page.index("```\n") + len("```\n")
    return page[start : page.index("\n```", start)]


def parse(body: str) -> ParsedSignoff:
    return parse_signoff(body, SYNTAX)


def test_filled_signoff_has_opener_items_detail_and_signature() -> None:
    parsed = parse(read("signoff_v21_filled.md"))
    assert parsed.has_opener and parsed.opener_line == 3
    assert len(parsed.items) == 15
    assert parsed.signed == "alice-reviewer"
    assert "recipes/pull/577" in parsed.detail


def test_uppercase_x_counts_as_checked() -> None:
    parsed = parse(f"{OPENER}\n- [X] Verified one\n- [x] Verified two\n- [ ] Verified three\n")
    assert [item.checked for item in parsed.items] == [True, True, False]


def test_an_empty_box_is_a_task_item_only_with_a_blank_after_it_as_cmark_gfm_renders() -> None:
    parsed = parse(f"{OPENER}\n- [x] \n- [ ]\t\n- [x]\n")
    assert [(item.text, item.checked) for item in parsed.items] == [("", True), ("", False)]


def test_a_tab_after_the_box_makes_a_ticked_item() -> None:
    parsed = parse(f"{OPENER}\n- [x]\tVerified one\n*\t[X]\tVerified two\n1)\t[ ]\tthree\n")
    got = [(item.text, item.checked) for item in parsed.items]
    assert got == [("Verified one", True), ("Verified two", True), ("three", False)]


def test_a_box_followed_by_a_no_break_space_or_nothing_is_plain_text() -> None:
    parsed = parse(f"{OPENER}\n- [x]\u00a0Verified one\n- [x]Verified two\n")
    assert parsed.items == ()


def test_a_box_that_a_link_definition_turns_into_a_link_is_still_a_box() -> None:
    parsed = parse(f"{OPENER}\n- [x] Verified one\n\n[x]: https://x.test/\n")
    assert [(item.text, item.checked) for item in parsed.items] == [("Verified one", True)]


def test_item_text_has_no_checkbox_and_flattened_markup() -> None:
    parsed = parse(
        f"{OPENER}\n- [x] Verified **that**   the `--hf-overrides` [docs](https://x.test/a) hold\n"
    )
    assert parsed.items[0].text == "Verified that the --hf-overrides docs hold"
    assert parsed.items[0].links == ("https://x.test/a",)


def test_review_summary_body_with_crlf_parses_like_lf() -> None:
    body = read("signoff_v21_filled.md")
    lf, crlf = parse(body), parse(body.replace("\n", "\r\n"))
    assert crlf == lf
    assert crlf.signed_line == len(body.splitlines())


def test_item_line_numbers_are_source_lines() -> None:
    body = read("signoff_v21_filled.md")
    lines = body.split("\n")
    for item in parse(body).items:
        assert lines[item.line - 1].lstrip().startswith(("- [x]", "- [X]", "- [ ]"))


def test_placeholder_left_in_detail_section_gives_empty_detail() -> None:
    body = template_block().replace("- [ ]", "- [x]")
    parsed = parse(body)
    assert parsed.detail == ""
    assert parsed.detail_line is not None


def test_placeholder_with_different_case_and_spacing_is_still_a_placeholder() -> None:
    body = (
        f"{OPENER}\n- [x] a\n\n### Additional detail section:\n-   Insert  any additional INFO here"
    )
    assert parse(body).detail == ""


def test_detail_keeps_reviewer_text_and_drops_only_the_placeholder() -> None:
    body = (
        f"{OPENER}\n- [x] a\n\n### Additional detail section:\n"
        "- insert any additional info here\n- run 123 is green\n\nSigned: bob\n"
    )
    assert parse(body).detail == "run 123 is green"


def test_text_on_the_detail_heading_line_belongs_to_the_detail() -> None:
    body = (
        f"{OPENER}\n- [x] a\n\n**Additional detail section:** new hardware, no upstream image yet\n"
    )
    assert parse(body).detail == "new hardware, no upstream image yet"


def test_signoff_without_detail_heading_has_empty_detail() -> None:
    parsed = parse(f"{OPENER}\n- [x] Verified a\n\nSigned: `carol`\n")
    assert (parsed.detail, parsed.detail_line) == ("", None)
    assert parsed.signed == "carol"


def test_item_mentioning_the_detail_section_does_not_start_it() -> None:
    parsed = parse(template_block())
    assert parsed.detail_line is not None
    recipe_sub = parsed.items[11]
    assert recipe_sub.line < parsed.detail_line
    assert "additional detail section" in recipe_sub.text


def test_items_inside_html_comments_do_not_count() -> None:
    body = f"{OPENER}\n- [x] real\n\n<!-- - [x] hidden one -->\n\n<!--\n- [x] hidden two\n-->\n"
    assert [item.text for item in parse(body).items] == ["real"]


def test_items_inside_block_quotes_do_not_count() -> None:
    body = f"{OPENER}\n- [x] real\n\n> - [x] quoted item\n> Signed: mallory\n"
    parsed = parse(body)
    assert [item.text for item in parsed.items] == ["real"]
    assert parsed.signed is None


@pytest.mark.parametrize(
    "quote",
    [
        "<blockquote>\n\n{signoff}\n</blockquote>\n",  # Markdown after a blank line
        '<BLOCKQUOTE cite="x">\n\n{signoff}\n\n</BLOCKQUOTE>\n',
        "<blockquote>\n\n{signoff}\n",  # never closed: the browser quotes to the end
        "<div><blockquote>\n\n{signoff}\n\n</blockquote></div>\n",
        "<blockquote><!-- </blockquote> -->\n\n{signoff}\n\n</blockquote>\n",
        "> <blockquote>\n\n{signoff}\n",  # opened inside a `>` quote, never closed
        "See <blockquote>\n\n{signoff}\n",  # opened inline
    ],
)
def test_a_sign_off_inside_an_html_blockquote_is_someone_elses(quote: str) -> None:
    # GitHub renders raw `<blockquote>` as a quote: what stands in it is not the commenter's.
    quoted = f"{OPENER}\n- [x] quoted item\n\nSigned: kedarpotdar-nv"
    parsed = parse("Agreed with my colleague:\n\n" + quote.format(signoff=quoted))
    assert not parsed.has_opener
    assert parsed.items == () and parsed.signed is None


def test_text_after_a_closed_html_blockquote_is_the_commenters_own() -> None:
    body = f"<blockquote>\n\n> earlier words\n\n</blockquote>\n\n{OPENER}\n- [x] mine\n"
    parsed = parse(body)
    assert parsed.has_opener and [item.text for item in parsed.items] == ["mine"]


def test_blockquote_text_inside_an_html_comment_or_code_quotes_nothing() -> None:
    body = f"<!-- <blockquote> -->\n\n`<blockquote>`\n\n{OPENER}\n- [x] mine\n"
    parsed = parse(body)
    assert parsed.has_opener and [item.text for item in parsed.items] == ["mine"]


def test_items_in_code_spans_and_code_blocks_do_not_count() -> None:
    spans = "`- [x] in a span`\n\n    - [x] indented code\n\n```bash\n- [x] fenced\n```\n"
    body = f"{OPENER}\n- [x] real\n\n{spans}"
    assert [item.text for item in parse(body).items] == ["real"]


def test_opener_inside_code_span_does_not_count() -> None:
    assert not parse(f"Please start with `{OPENER}`\n- [x] a\n").has_opener


def test_stray_fence_lines_around_pasted_template_still_parse() -> None:
    block = template_block().replace("- [ ]", "- [x]").replace("FILL_IN_GITHUB_USERNAME", "dave")
    parsed = parse(f"```\n{block}\n```\n")
    assert parsed.has_opener and parsed.opener_line == 2
    assert len(parsed.items) == 15 and all(item.checked for item in parsed.items)
    assert parsed.signed == "dave"


def test_unclosed_fence_before_pasted_template_still_parses() -> None:
    parsed = parse(f"```markdown\n{OPENER}\n- [x] Verified a\n\nSigned: erin\n")
    assert parsed.has_opener and [item.text for item in parsed.items] == ["Verified a"]
    assert parsed.signed_line == 5


def test_code_fence_with_a_language_is_not_unwrapped() -> None:
    parsed = parse(f"```bash\n{OPENER}\n- [x] Verified a\n```\n")
    assert not parsed.has_opener and parsed.items == ()


def test_fenced_command_in_detail_does_not_disturb_items() -> None:
    body = (
        f"{OPENER}\n- [x] a\n\n### Additional detail section:\n```bash\nvllm serve m --tp 8\n```\n"
    )
    parsed = parse(body)
    assert [item.text for item in parsed.items] == ["a"] and parsed.detail == ""


def test_verdict_comment_quoting_the_opener_has_no_opener() -> None:
    body = read("verdict_comment.md")
    parsed = parse(body)
    assert has_opener(body, SYNTAX)  # the gate's raw contains() still fires
    assert not parsed.has_opener
    assert parsed.items == ()


def test_has_opener_is_case_insensitive_substring() -> None:
    assert has_opener("as a pr reviewer and codeowner, i say", SYNTAX)
    assert not has_opener("As a PR reviewer and code owner", SYNTAX)


def test_nested_sub_item_points_at_its_parent() -> None:
    body = f"{OPENER}\n- [x] parent one\n- [x] parent two\n  - [ ] child\n- [x] parent three\n"
    items = parse(body).items
    assert (items[2].depth, items[2].parent) == (1, 1)
    assert (items[3].depth, items[3].parent) == (0, None)


def test_plain_sub_bullet_is_neither_item_nor_part_of_parent_text() -> None:
    body = f"{OPENER}\n- [x] recipes match\n  - If they are not, a PR was opened\n"
    items = parse(body).items
    assert [item.text for item in items] == ["recipes match"]


def test_signed_line_lazily_continuing_the_last_item_is_not_item_text() -> None:
    parsed = parse(f"{OPENER}\n- [x] last item\nSigned: `frank`\n")
    assert parsed.items[0].text == "last item"
    assert (parsed.signed, parsed.signed_line) == ("frank", 3)


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("Signed: `grace`", "grace"),
        ("**Signed:** @grace", "grace"),
        ("signed: grace", "grace"),
        ("Signed:", None),
    ],
)
def test_signed_line_gives_the_bare_name(line: str, name: str | None) -> None:
    assert parse(f"{OPENER}\n- [x] a\n\n{line}\n").signed == name


def test_last_signed_line_wins() -> None:
    parsed = parse(f"Signed: nobody\n\n{OPENER}\n- [x] a\n\nSigned: heidi\n")
    assert (parsed.signed, parsed.signed_line) == ("heidi", 6)


def test_links_carry_line_and_detail_flag() -> None:
    parsed = parse(read("signoff_v21_filled.md"))
    detail_links = [link.url for link in parsed.links if link.in_detail]
    assert detail_links == ["https://github.com/vllm-project/recipes/pull/577"]
    run_link = next(link for link in parsed.links if link.text == "Link")
    assert run_link.line == 6 and not run_link.in_detail


def test_run_links_appended_to_items_are_item_links() -> None:
    items = parse(read("signoff_v21_filled.md")).items
    assert any("/actions/runs/28689732075" in url for url in items[2].links)
    assert items[3].links == (
        "https://github.com/SemiAnalysisAI/InferenceX/actions/runs/28689732075/job/84013",
    )


def test_bare_url_drops_trailing_sentence_punctuation() -> None:
    parsed = parse(
        f"{OPENER}\n- [x] a\n\n### Additional detail section:\nsee https://x.test/p/1.\n"
    )
    assert [link.url for link in parsed.links] == ["https://x.test/p/1"]


def test_autolinks_are_collected() -> None:
    parsed = parse(f"{OPENER}\n- [x] evals <https://x.test/run/2>\n")
    assert [link.url for link in parsed.links] == ["https://x.test/run/2"]


def test_empty_body_parses_to_nothing() -> None:
    parsed = parse("")
    assert not parsed.has_opener and parsed.items == () and parsed.links == ()
    assert parsed.signed is None and parsed.detail == ""
