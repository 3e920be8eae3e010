"""Differential test: signoff reads a task item exactly where cmark-gfm renders a checkbox.

GitHub renders comments with cmark-gfm; the `cmarkgfm` package binds that C library. For every
document of a corpus of task-list spellings (bullets, ordered markers, tabs, NBSP, vertical tab,
missing blank, nested lists, block quotes, fences, indented code, link definitions) the checkboxes
cmark-gfm renders, with their source line and state, must be the task items signoff reads.
"""

from __future__ import annotations

import itertools
import re

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options
from hypothesis import given, settings
from hypothesis import strategies as st

from signoff.parse.signoff_comment import scan_markdown, to_lines

# With source positions on, each rendered checkbox follows its <li data-sourcepos="LINE:...">.
_BOX = re.compile(r'<li data-sourcepos="(\d+):\d+-\d+:\d+"><input type="checkbox"( checked="")?')

MARKERS = ["-", "*", "+", "1.", "1)", "10."]
GAPS = [" ", "\t", "  ", "    "]
BOXES = ["[x]", "[X]", "[ ]", "[  ]", "[xx]", "[y]", "\\[x]", "[\t]"]
AFTER = [" ", "\t", "\v", "\f", "\u00a0", "", "  ", "\u2003", "\u3000", "\t\t"]
REST = ["Verified it", "", "a [x] b"]
CONTEXTS = [
    "{line}",
    "- parent\n  {line}",
    "- parent\n\n  {line}",
    "1. parent\n   {line}",
    "> {line}",
    "> - parent\n>   {line}",
    "```\n{line}\n```",
    "    {line}",
    "Paragraph\n{line}",
    "{line}\n{line}",
    "- - {line}",
    "{line}\n\n[x]: https://x.test/\n[X]: https://x.test/",
    "<div>\n{line}\n</div>",
    "- [x] first\n  {line}",
    "{line} <!--\n-->",
]


def rendered_boxes(text: str) -> list[tuple[int, bool]]:
    """(line, checked) of every checkbox cmark-gfm renders for `text`."""
    html = cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_SOURCEPOS)
    return [(int(m[1]), bool(m[2])) for m in _BOX.finditer(html)]


def read_items(text: str) -> list[tuple[int, bool]]:
    """(line, checked) of every task item signoff reads outside block quotes."""
    return [(item.line, item.checked) for item in scan_markdown(to_lines(text)).items]


def _lines() -> list[str]:
    spellings = itertools.product(MARKERS, GAPS, BOXES, AFTER, REST)
    return [f"{marker}{gap}{box}{after}{rest}" for marker, gap, box, after, rest in spellings]


LINES = _lines()
# Every spelling on its own, and a spread of them in every context.
CORPUS = LINES + [
    context.format(line=line) for context in CONTEXTS[1:] for line in LINES[:: len(LINES) // 400]
]


def test_the_corpus_covers_ticked_unticked_and_plain_spellings() -> None:
    states = {state for text in CORPUS for _, state in rendered_boxes(text)}
    plain = [text for text in LINES if not rendered_boxes(text)]
    assert states == {True, False}
    assert len(plain) > len(LINES) // 2
    assert len(CORPUS) > 10_000, len(CORPUS)


@pytest.mark.parametrize("chunk", range(8))
def test_signoff_reads_a_task_item_exactly_where_cmark_gfm_renders_a_checkbox(chunk: int) -> None:
    mismatches = [
        (text, rendered_boxes(text), read_items(text))
        for text in CORPUS[chunk::8]
        if rendered_boxes(text) != read_items(text)
    ]
    assert mismatches == []


FRAGMENTS = st.sampled_from(
    [
        "- ", "* ", "1. ", "2) ", "  ", "\t", "> ", "[x]", "[X]", "[ ]", " ", "\u00a0", "\v",
        "text", "\n", "\n\n", "```", "    ", "[x]: https://x.test/", "<!--", "-->", "`", "*",
    ]
)  # fmt: skip


@settings(max_examples=400)
@given(st.lists(FRAGMENTS, max_size=24).map("".join))
def test_random_task_list_text_reads_as_cmark_gfm_renders_it(text: str) -> None:
    assert read_items(text) == rendered_boxes(text)
