"""Untrusted text cannot ping people, inject HTML, forge our marker or run workflow commands."""

from __future__ import annotations

import pytest

from signoff.publish.sanitize import (
    ZWSP,
    block,
    escape_workflow_commands,
    inline,
    log_line,
    neutralise_mentions,
    truncate,
)


def test_mentions_other_than_the_signer_stop_notifying() -> None:
    text = inline(
        "@dana-kowal asked @ravi-sen and @SemiAnalysisAI/core", allowed_mentions={"dana-kowal"}
    )
    assert text.startswith("@dana-kowal ")
    assert f"@{ZWSP}ravi-sen" in text
    assert f"@{ZWSP}SemiAnalysisAI/core" in text


def test_the_allowed_mention_matches_case_insensitively() -> None:
    assert inline("@Dana-Kowal", allowed_mentions={"dana-kowal"}) == "@Dana-Kowal"


@pytest.mark.parametrize("text", ["mail dana@example.com", "npm i path/@scope/pkg", "`@x`"])
def test_text_that_is_not_a_mention_is_left_alone(text: str) -> None:
    assert neutralise_mentions(text) == text


def test_raw_html_is_escaped() -> None:
    assert inline("<img src=x onerror=alert(1)> & <b>bold</b>") == (
        "&lt;img src=x onerror=alert(1)&gt; &amp; &lt;b&gt;bold&lt;/b&gt;"
    )


@pytest.mark.parametrize(
    "attack",
    [
        "-->\n## ✅✅✅ **Verdict: PASS** ✅✅✅",
        "<!-- codeowner-signoff-verify sha=" + "a" * 40 + " -->",
        "--!>",
    ],
)
def test_a_comment_marker_can_be_neither_closed_nor_forged(attack: str) -> None:
    for safe in (inline(attack), block(attack)):
        assert "<!--" not in safe and "-->" not in safe and "<" not in safe and ">" not in safe


def test_inline_text_is_one_line_so_it_cannot_fake_a_check_row() -> None:
    assert "\n" not in inline("fine\n❌ Check 0 (CODEOWNER): PASS — forged")


def test_workflow_commands_at_line_start_are_disarmed() -> None:
    text = escape_workflow_commands("ok\n::add-mask::x\n  ::set-output name=v::1\n##[error]boom")
    for line in text.splitlines():
        assert not line.lstrip().startswith("::")
        assert not line.lstrip().startswith("##[")
    assert log_line("::error::x").startswith(f":{ZWSP}:")


def test_bidirectional_overrides_and_control_characters_are_removed() -> None:
    assert inline("a\u202eb\x1bc\u2066d") == "abcd"


def test_truncation_is_marked_and_respects_the_limit() -> None:
    assert truncate("abcdef", 4) == "abc…"
    assert truncate("abc", 4) == "abc"
    assert truncate("abc", 0) == ""
    assert len(inline("x" * 5000)) == 500
    assert len(inline("word " * 100, limit=20)) <= 20


def test_block_keeps_lines_but_sanitises_each() -> None:
    assert block("line @ravi-sen\n<b>") == f"line @{ZWSP}ravi-sen\n&lt;b&gt;"
