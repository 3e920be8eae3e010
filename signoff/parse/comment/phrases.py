"""Words, sentences and negation in prose: phrase tests that URLs and "not" cannot fool."""

# Why words and not substrings: "n/a" is inside `configuration/api`, and "new hardware" inside
# "MI300X is not new hardware". A phrase matches only as a run of whole words; the text given
# here is already free of link destinations and autolinks (signoff_comment reads it from the
# Markdown tokens), and bare URLs are dropped again by `words` should any remain.
#
# Negation scope (for claims such as "new hardware"): a clause is cut at punctuation and at the
# conjunctions below; a claim is negated when its clause holds a negator outside the claim's own
# words, before or after it ("not new hardware", "new hardware? not really", "rather than new
# hardware"). Fail closed: a double negative also counts as negated, and a question asserts
# nothing.

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_URL = re.compile(r"(?:https?|ftp)://\S*|www\.\S*", re.IGNORECASE)
_STRIP = "\"'`*_~()[]{}<>.,;:!?…“”‘’"
# Sentence ends: ., ! or ? (or a run of them) followed by a blank or the end; a dot inside a
# word (`models.md`, `v0.11`) does not end a sentence.
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\s]+")
_CLAUSE_MARKS = frozenset(",;:()—–")
_CLAUSE_WORDS = frozenset(
    {"but", "however", "although", "though", "yet", "whereas", "while", "unlike", "except"}
)
NEGATORS = frozenset(
    {
        "not", "no", "never", "nor", "neither", "without", "none", "nothing", "cannot",
        "hardly", "barely", "false", "untrue", "isnt", "arent", "wasnt",
        "werent", "doesnt", "dont", "didnt", "cant", "wont", "shouldnt", "wouldnt", "hasnt",
        "havent", "aint",
    }
)  # fmt: skip
# Two-word negators: "rather than new hardware", "instead of a new architecture".
NEGATOR_PAIRS = frozenset(
    {("rather", "than"), ("instead", "of"), ("other", "than"), ("far", "from"), ("opposed", "to")}
)


def words(text: str) -> list[str]:
    """Lower-case words of `text`: URLs dropped, surrounding punctuation and emphasis stripped."""
    found = []
    for raw in _URL.sub(" ", text).split():
        word = raw.strip(_STRIP).lower()
        if word:
            found.append(word)
    return found


def phrase_words(phrase: str) -> tuple[str, ...]:
    return tuple(words(phrase))


def count_phrase(haystack: Sequence[str], phrase: Sequence[str]) -> int:
    """How often `phrase` occurs in `haystack` as a run of whole words."""
    size = len(phrase)
    if not size:
        return 0
    first = phrase[0]
    return sum(
        1
        for at, word in enumerate(haystack)
        if word == first and tuple(haystack[at : at + size]) == tuple(phrase)
    )


def has_phrase(haystack: Sequence[str], phrases: Iterable[str]) -> bool:
    return any(count_phrase(haystack, phrase_words(phrase)) for phrase in phrases)


def sentences(text: str) -> list[str]:
    """Sentences of `text`: each line (a list item or paragraph line) split at sentence ends."""
    found: list[str] = []
    for line in text.split("\n"):
        found.extend(part for part in _SENTENCE_END.split(line) if part.strip())
    return found


def clauses(sentence: str) -> list[list[str]]:
    """The sentence's words cut into clauses at punctuation and contrasting conjunctions."""
    result: list[list[str]] = [[]]
    for raw in _URL.sub(" ", sentence).split():
        if raw[0] in _CLAUSE_MARKS:
            result.append([])
        word = raw.strip(_STRIP).lower()
        if word in _CLAUSE_WORDS:
            result.append([])
        elif word:
            result[-1].append(word)
        if raw.rstrip("\"'”’*_`")[-1:] in _CLAUSE_MARKS:
            result.append([])
    return [clause for clause in result if clause]


def is_negator(clause: Sequence[str], at: int) -> bool:
    """Whether the word at `at` negates its clause ("not", "isn't", "rather than" ...)."""
    word = clause[at]
    if word.endswith(("n't", "n’t")) or word.replace("'", "").replace("’", "") in NEGATORS:
        return True
    return at + 1 < len(clause) and (word, clause[at + 1]) in NEGATOR_PAIRS


def asserted(sentence: str, phrase: str) -> bool:
    """Whether the sentence asserts `phrase`: it occurs in a clause with no negator outside the
    phrase's own words, and the sentence is a statement, not a question."""
    target = phrase_words(phrase)
    if not target or sentence.rstrip(" \"'”’)*_`").endswith("?"):
        return False
    return any(_asserted_in(clause, target) for clause in clauses(sentence))


def _asserted_in(clause: Sequence[str], target: Sequence[str]) -> bool:
    size = len(target)
    # Running count of negators, so each occurrence is checked in O(len(target)).
    before = [0]
    for at in range(len(clause)):
        before.append(before[-1] + is_negator(clause, at))
    for at in range(len(clause) - size + 1):
        if tuple(clause[at : at + size]) == tuple(target):
            inside = before[at + size] - before[at]
            if before[-1] - inside == 0:
                return True
    return False
