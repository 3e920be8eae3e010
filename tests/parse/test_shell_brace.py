"""Brace expansion reads words as bash expands them (each expectation printed by bash 5), and
what it does not read comes out as None so the caller fails closed."""

from __future__ import annotations

import pytest

from signoff.parse.shell_brace import MAX_FIELDS, brace_expand

AS_BASH_EXPANDS = [
    ("--{hf-overrides,x}", ["--hf-overrides", "--x"]),
    ("--hf-{overrides,}", ["--hf-overrides", "--hf-"]),
    ("{a,b{1,2}}x{3,4}", ["ax3", "ax4", "b1x3", "b1x4", "b2x3", "b2x4"]),
    ("{a}{b,c}", ["{a}b", "{a}c"]),
    ("a{1..3}", ["a1", "a2", "a3"]),
    ("{5..1..2}", ["5", "3", "1"]),
    ("{a..e..2}", ["a", "c", "e"]),
    ("{1..-1}", ["1", "0", "-1"]),
    ('{"method":"mtp","n":3}', ['"method":"mtp"', '"n":3']),
    ('{a,"b,c"}', ["a", '"b,c"']),
    ("{$'a,b',c}", ["$'a,b'", "c"]),
    ("a{b{c,d}e", ["a{bce", "a{bde"]),
]
LEFT_AS_WRITTEN = ["'{a,b}'", '"{a,b}"', "${X:-{a,b}}", "x{}", "\\{a,b}", "--{hf-overrides}", "$'{a,b}'"]  # fmt: skip


@pytest.mark.parametrize(("word", "words"), AS_BASH_EXPANDS)
def test_an_unquoted_brace_expands_as_bash_expands_it(word: str, words: list[str]) -> None:
    assert brace_expand(word) == words


@pytest.mark.parametrize("word", LEFT_AS_WRITTEN)
def test_a_quoted_escaped_or_parameter_brace_stays_as_written(word: str) -> None:
    assert brace_expand(word) == [word]


@pytest.mark.parametrize(
    "word",
    ["{a,b}$(cmd)", "`cmd`{a,b}", "{01..10}", "{1..100000}", "{a,b}" * 11, "{" * 40 + "a,b}"],
    ids=["substitution", "backtick", "zero-padded", "long-sequence", "too-many", "many-braces"],
)
def test_what_is_not_read_is_none(word: str) -> None:
    assert brace_expand(word) is None


def test_a_long_word_or_too_many_results_is_not_expanded() -> None:
    assert brace_expand("{" * 100_000 + "a,b}") is None
    assert len(brace_expand("{a,b}" * 10) or []) == MAX_FIELDS
