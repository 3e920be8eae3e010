"""Words, sentences and negation scope: phrase tests that URLs and "not" cannot fool."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from signoff.parse.prose import asserted, clauses, count_phrase, phrase_words, sentences, words


def test_words_leave_out_urls_and_keep_slashed_words() -> None:
    text = "quantization n/a, see https://docs.vllm.ai/en/latest/configuration/api.html (n/a)"
    assert words(text) == ["quantization", "n/a", "see", "n/a"]


def test_a_phrase_matches_whole_words_only() -> None:
    haystack = words("renew hardware; brand-new hardware; new hardwares; new hardware")
    assert count_phrase(haystack, phrase_words("new hardware")) == 1


def test_sentences_split_at_sentence_ends_not_inside_words() -> None:
    text = "See MODELS.md and v0.11.1. B200 is new hardware! Really?\nnext line"
    assert sentences(text) == [
        "See MODELS.md and v0.11.1.",
        "B200 is new hardware!",
        "Really?",
        "next line",
    ]


def test_clauses_break_at_punctuation_and_contrasting_conjunctions() -> None:
    assert clauses("a b, c; d but e (f) g") == [["a", "b"], ["c"], ["d"], ["e"], ["f"], ["g"]]


@pytest.mark.parametrize(
    "sentence",
    [
        "MI300X is new hardware.",
        "MI300X counts as new hardware, not as an established SKU.",
        "Not a typo: MI300X is new hardware.",
        "MI300X is not on the list, but it is new hardware.",
        "**New hardware**: MI455X.",
    ],
)
def test_an_asserted_claim_is_read_as_asserted(sentence: str) -> None:
    assert asserted(sentence, "new hardware")


@pytest.mark.parametrize(
    "sentence",
    [
        "MI300X is not new hardware.",
        "MI300X isn't new hardware.",
        "MI300X isn’t new hardware.",
        "MI300X is NOT new hardware.",
        "No new hardware is involved.",
        "MI300X was never new hardware.",
        "Neither new hardware nor a new architecture.",
        "It runs without new hardware.",
        "MI300X rather than new hardware.",
        "An established SKU instead of new hardware.",
        "New hardware does not apply here.",
        "MI300X cannot be called new hardware.",
        "Is MI300X new hardware?",
        "It is false that MI300X is new hardware.",
        "Nothing here is new hardware.",
        "not not new hardware",
    ],
)
def test_a_negated_or_questioned_claim_is_not_asserted(sentence: str) -> None:
    assert not asserted(sentence, "new hardware")


def test_a_claim_that_itself_says_not_is_asserted_unless_negated_again() -> None:
    claim = "does not fundamentally support"
    assert asserted("vLLM does not fundamentally support MI455X.", claim)
    assert not asserted("It is not true that vLLM does not fundamentally support MI455X.", claim)


def _oracle(sentence: str) -> bool:
    """A clause holds "new" directly followed by "hardware" and no "not"; no question."""
    if sentence.rstrip().endswith("?"):
        return False
    return any(
        "not" not in clause and ("new", "hardware") in itertools.pairwise(clause)
        for clause in clauses(sentence)
    )


@settings(max_examples=300)
@given(
    st.lists(st.sampled_from(["new", "hardware", "not", ",", "but", "is", "?", "x"]), max_size=30)
)
def test_a_claim_is_asserted_exactly_where_a_clause_holds_it_without_a_negator(
    parts: list[str],
) -> None:
    sentence = " ".join(parts)
    assert asserted(sentence, "new hardware") == _oracle(sentence)
