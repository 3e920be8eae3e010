"""Property tests: the Markdown parsers and the matcher never raise and keep lines in range."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from signoff.parse.matching import match_items
from signoff.parse.signoff_comment import ParsedSignoff, parse_signoff
from signoff.parse.template import parse_template
from signoff.policy import load_policy

POLICY = load_policy(Path(__file__).parents[2] / "checklists" / "inferencex.yaml")
OPENER = "As a PR reviewer and CODEOWNER, I have reviewed this and have:"
FRAGMENTS = [
    OPENER,
    "- [x] Verified that this PR passes evals.",
    "- [X] item",
    "  - [ ] sub item",
    "- [ ]",
    "> - [x] quoted",
    "<!--",
    "-->",
    "```",
    "```markdown",
    "~~~",
    "    - [x] indented",
    "### Additional detail section:",
    "- insert any additional info here",
    "Signed: `someone`",
    "https://github.com/o/r/actions/runs/1",
    "[Link](https://x.test/a)",
    "<https://x.test/b>",
    "<div>",
    "## Template",
    "\x00",
    "\r",
    "",
    "> > > > > > > > > > deep",
    "- - - - - - - - - - - [x] deep list",
    "[x]",
    "\u2028 \u00e9\u4e2d\U0001f600",
]
RUN = settings(max_examples=150, deadline=None)

markdownish = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=40)), max_size=30
).map("\n".join)
anything = st.one_of(st.text(max_size=400), markdownish)


def line_count(text: str) -> int:
    return len(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))


def signoff_lines(parsed: ParsedSignoff) -> list[int]:
    lines = [item.line for item in parsed.items] + [link.line for link in parsed.links]
    optional = (parsed.opener_line, parsed.detail_line, parsed.signed_line)
    return lines + [line for line in optional if line is not None]


@RUN
@given(anything)
def test_parse_signoff_never_raises_and_keeps_lines_in_range(text: str) -> None:
    parsed = parse_signoff(text, POLICY.signoff)
    assert all(1 <= line <= line_count(text) for line in signoff_lines(parsed))
    assert all(
        item.parent is None or item.parent < index for index, item in enumerate(parsed.items)
    )


@RUN
@given(anything)
def test_parse_template_never_raises_and_keeps_lines_in_range(text: str) -> None:
    parsed = parse_template(text, POLICY.signoff, POLICY.template_items)
    assert all(1 <= item.line <= line_count(text) for item in parsed.items)


@RUN
@given(anything, anything)
def test_match_items_never_raises_and_covers_every_template_item(page: str, body: str) -> None:
    template = parse_template(page, POLICY.signoff, POLICY.template_items)
    signoff = parse_signoff(body, POLICY.signoff)
    report = match_items(template, signoff, POLICY.template_items)
    assert len(report.matches) == len(template.items)
    used = [m.signoff_index for m in report.matches if m.signoff_index is not None]
    assert len(used) == len(set(used))
    assert set(used).isdisjoint(report.extra)


@RUN
@given(st.integers(min_value=1, max_value=400))
def test_deeply_nested_quotes_and_lists_do_not_raise(depth: int) -> None:
    text = "> " * depth + "- " * depth + "[x] deep\n" + "```\n" + OPENER
    parsed = parse_signoff(text, POLICY.signoff)
    assert all(1 <= line <= line_count(text) for line in signoff_lines(parsed))
