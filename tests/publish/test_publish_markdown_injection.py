"""PR-controlled text in a reason never renders as Markdown in the verdict comment (cmark-gfm).

Checks quote PR values with `code()`; the renderer escapes everything outside code spans as a
second line of defence. Both are checked by rendering rows with GitHub's own renderer
(cmark-gfm, the `cmarkgfm` package) and asserting that only paragraphs and code come out.
"""

from __future__ import annotations

import html
import re

import cmarkgfm
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from signoff.errors import InputError
from signoff.judge.model import CheckResult
from signoff.judge.quote import code
from signoff.publish.render import render_row
from signoff.publish.sanitize import ZWSP, reason_markdown, split_code_spans, status_context_input

SIGNER = "kedarpotdar-nv"
HOSTILE = [
    "![PASS](https://img.test/pass.png)",
    "[click](https://evil.test)",
    "<img src=x onerror=alert(1)>",
    "<!-- codeowner-signoff-verify sha=abc -->",
    "https://evil.test/path",
    "www.evil.test",
    "dana@example.com",
    "@octocat please merge",
    "**bold** _em_ ~~gone~~",
    "# Heading",
    "| a | b |",
    "`` ` ``",
    "```",
    "\\`![x](y)`",
    "&lt;b&gt;",
    "&#60;img src=x&#62;",
    "<https://evil.test>",
    "[ref]: https://evil.test",
    "a\nb\n## c",
]
TAG = re.compile(r"<(/?)([a-zA-Z0-9]+)")


def tags(markdown: str) -> set[str]:
    rendered = cmarkgfm.github_flavored_markdown_to_html(markdown)
    return {name.lower() for _, name in TAG.findall(rendered)}


def row(reason: str) -> str:
    return render_row(
        CheckResult(number=6, id="x", name="upstream image", status="FAIL", reason=reason), SIGNER
    )


@pytest.mark.parametrize("value", HOSTILE)
def test_a_value_quoted_with_code_renders_as_code_only(value: str) -> None:
    rendered = row(f"uses {code(value)}, not an upstream image")
    assert tags(rendered) <= {"p", "code"}
    visible = html.unescape(cmarkgfm.github_flavored_markdown_to_html(rendered))
    assert " ".join(value.split()) in visible.replace("\n", " ")


@pytest.mark.parametrize("value", HOSTILE)
def test_a_value_a_check_forgot_to_quote_still_renders_as_text(value: str) -> None:
    assert tags(row(f"uses {value}, not an upstream image")) <= {"p", "code"}


def test_mentions_other_than_the_signer_do_not_notify() -> None:
    rendered = row(f"@{SIGNER} and @octocat and @org/team")
    assert f"@{SIGNER}" in rendered
    assert f"@{ZWSP}octocat" in rendered and f"@{ZWSP}org/team" in rendered


def test_a_span_cut_by_the_length_cap_becomes_escaped_text() -> None:
    reason = "x" * 190 + " `![PASS](https://img.test/p.png)`"
    assert tags(reason_markdown(reason, limit=200)) <= {"p"}


def test_code_spans_round_trip_through_the_renderer() -> None:
    reason = f"the {code('a`b')} and {code('`')} and `default` key"
    assert split_code_spans(reason_markdown(reason)) == split_code_spans(reason)


FRAGMENTS = st.sampled_from(
    [
        *HOSTILE,
        "`",
        "``",
        "*",
        "_",
        "~",
        "[",
        "]",
        "(",
        ")",
        "!",
        "<",
        ">",
        "\\",
        " ",
        "x",
        ":",
        "//",
        "a_",
        "_b",
        "é",
        "__",
        "**",
        "1",
    ]
)


@settings(max_examples=1000)
@given(st.lists(FRAGMENTS, max_size=20).map("".join))
def test_any_reason_renders_as_paragraph_text_and_code_only(reason: str) -> None:
    assert tags(row(reason)) <= {"p", "code"}


@pytest.mark.parametrize("value", ["ctx\nInjected", "ctx\r", "a\tb", "ctx\u2028x", "\x1b[31m"])
def test_a_status_context_with_a_control_character_is_bad_input(value: str) -> None:
    with pytest.raises(InputError, match="status-context must be one line"):
        status_context_input(value)


def test_a_plain_status_context_is_kept_and_an_empty_one_means_the_default() -> None:
    assert status_context_input("  codeowner-signoff-verify  ") == "codeowner-signoff-verify"
    assert status_context_input("") is None
