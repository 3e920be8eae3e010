"""Pair sign-off task items with template items, tolerating typos but not stale wording."""

# Both texts are normalised (case, whitespace, emphasis, `/edit/` -> `/blob/`, run links and a
# trailing "Link" dropped) and compared word by word with difflib. A pair matches when the whole
# ratio, or the ratio of the template against the same-length start of the sign-off item (text
# appended after a copied item), reaches MATCH_THRESHOLD. Pairs are assigned one-to-one, best
# first; ties go to the pair at equal depth, then the earlier template item, then the earlier
# sign-off item.
#
# Bounded work on hostile text: a 64 KB comment can hold ten thousand items. difflib's exact ratio
# runs only for pairs whose cheap upper bounds (length ratio, then shared-word count) can reach
# MATCH_THRESHOLD; other pairs keep that upper bound as their score, which is below the threshold
# either way. The run-link and filler trims are loops over tokens: their regex forms backtracked
# quadratically (15-50 s on one long line).

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from difflib import SequenceMatcher

from signoff.parse.comment.checklist_template import ParsedTemplate, TemplateItem, identify_item
from signoff.parse.comment.signoff_comment import Frozen, ParsedSignoff, TaskItem
from signoff.policy import TemplateItemSpec

# Calibrated on the V1-V21 history: typo fixes score above 0.9, the V18 recipe rewording below 0.7.
MATCH_THRESHOLD = 0.86
# The prefix rule needs enough template words that a short generic phrase cannot claim an item.
_PREFIX_MIN_WORDS = 6
# Reviewers append links to Actions runs (the evidence the item asks for); they are not item text.
_GITHUB_URL = ("https://github.com/", "http://github.com/")
_RUNS_PATH = "/actions/runs/"
_EDIT_LINK = re.compile(r"/edit/(?=main/)")
_BRACKETS = re.compile(r"[\[\]()<>{}|]")
_MARKUP = re.compile(r"[*`~]")
# Words a reviewer ends an item with when a link follows ("... Link", "run: here").
_FILLER_WORDS = ("links", "link", "here", "run")
_FILLER_GAP = " \t\n\r\f\v:;,.-"
_WORD_CHAR = re.compile(r"\w")
_WORD = re.compile(r"\w[\w/.:\-]*\w|\w")


class ItemMatch(Frozen):
    template_index: int
    template_text: str
    catalog_id: str | None
    signoff_index: int | None  # None: no sign-off item matched (missing)
    checked: bool  # False when missing
    # Of the chosen pair; for a missing item, of its closest sign-off item (an upper bound of it
    # when that stays below MATCH_THRESHOLD, see the module comment).
    similarity: float


class MatchReport(Frozen):
    matches: tuple[ItemMatch, ...]  # one per template item, in template order
    missing: tuple[ItemMatch, ...]
    unchecked: tuple[ItemMatch, ...]
    extra: tuple[int, ...]  # sign-off item indices matched to no template item


def normalise_item_text(text: str) -> str:
    """Comparable lower-case text: no markup, canonical checklist link, no run links or "Link"."""
    lowered = " ".join(_drop_run_url(token) for token in text.lower().split())
    lowered = _EDIT_LINK.sub("/blob/", lowered)
    lowered = _MARKUP.sub("", _BRACKETS.sub(" ", lowered))
    lowered = " ".join(lowered.split())
    return _drop_trailing_filler(lowered).strip()


def _drop_run_url(token: str) -> str:
    """The token cut before a GitHub URL that goes on to an Actions run path (run links)."""
    starts = [token.find(prefix) for prefix in _GITHUB_URL]
    hits = [(at, prefix) for at, prefix in zip(starts, _GITHUB_URL, strict=True) if at >= 0]
    if not hits:
        return token
    at, prefix = min(hits)
    # The run path must follow at least one character of owner/repo after the host.
    runs = token.rfind(_RUNS_PATH)
    return token[:at] if runs >= at + len(prefix) + 1 else token


def _drop_trailing_filler(text: str) -> str:
    """Text without a tail made only of filler words ("link", "here", ...) and punctuation."""
    cut = None
    end = len(text)
    while True:
        end = len(text[:end].rstrip(_FILLER_GAP))
        word = next((w for w in _FILLER_WORDS if text.endswith(w, 0, end)), None)
        # The filler must be a whole word: what precedes it is no word character.
        if word is None or (end > len(word) and _WORD_CHAR.match(text[end - len(word) - 1])):
            break
        end -= len(word)
        cut = end
    return text if cut is None else text[:cut].rstrip(_FILLER_GAP)


def _words(text: str) -> list[str]:
    return _WORD.findall(normalise_item_text(text))


def similarity(template_text: str, signoff_text: str) -> float:
    """How closely a sign-off item reproduces a template item, 0..1 (see module docstring)."""
    return _similarity(_words(template_text), _words(signoff_text))


def _similarity(template: list[str], signoff: list[str]) -> float:
    if not template or not signoff:
        return 1.0 if template == signoff else 0.0
    whole = SequenceMatcher(None, template, signoff, autojunk=False).ratio()
    if len(template) < _PREFIX_MIN_WORDS or len(signoff) <= len(template):
        return whole
    head = signoff[: len(template)]
    return max(whole, SequenceMatcher(None, template, head, autojunk=False).ratio())


def match_items(
    template: ParsedTemplate, signoff: ParsedSignoff, catalog: Sequence[TemplateItemSpec]
) -> MatchReport:
    """One ItemMatch per template item; never raises."""
    scores = _score_pairs(template.items, signoff.items)
    chosen = _assign(scores, template.items, signoff.items)
    matches = tuple(
        _item_match(index, item, chosen.get(index), scores, signoff.items, catalog)
        for index, item in enumerate(template.items)
    )
    used = {match.signoff_index for match in matches}
    return MatchReport(
        matches=matches,
        missing=tuple(match for match in matches if match.signoff_index is None),
        unchecked=tuple(m for m in matches if m.signoff_index is not None and not m.checked),
        extra=tuple(index for index in range(len(signoff.items)) if index not in used),
    )


def _score_pairs(
    template: Sequence[TemplateItem], signoff: Sequence[TaskItem]
) -> dict[tuple[int, int], float]:
    template_words = [_words(item.text) for item in template]
    signoff_words = [tuple(_words(item.text)) for item in signoff]
    # Items with the same words score the same: a pasted-over comment is scored once per text.
    distinct = {words: list(words) for words in signoff_words}
    distinct_counts = {words: Counter(words) for words in distinct}
    scores: dict[tuple[int, int], float] = {}
    for t, t_words in enumerate(template_words):
        t_counts = Counter(t_words)
        by_text: dict[tuple[str, ...], float] = {}
        for words, s_words in distinct.items():
            bound = _upper_bound(t_words, t_counts, s_words, distinct_counts[words])
            close = bound >= MATCH_THRESHOLD
            by_text[words] = _similarity(t_words, s_words) if close else bound
        scores.update(((t, s), by_text[words]) for s, words in enumerate(signoff_words))
    return scores


def _upper_bound(
    template: list[str], t_counts: Counter[str], signoff: list[str], s_counts: Counter[str]
) -> float:
    """An upper bound of `_similarity` (difflib's real_quick_ratio and quick_ratio), cheaply."""
    if not template or not signoff:
        return 1.0  # the exact rule decides empty texts
    bound = _quick_bound(template, t_counts, signoff, s_counts)
    if len(template) >= _PREFIX_MIN_WORDS and len(signoff) > len(template):
        head = signoff[: len(template)]
        bound = max(bound, _quick_bound(template, t_counts, head, Counter(head)))
    return bound


def _quick_bound(
    template: list[str], t_counts: Counter[str], signoff: list[str], s_counts: Counter[str]
) -> float:
    total = len(template) + len(signoff)
    if 2.0 * min(len(template), len(signoff)) / total < MATCH_THRESHOLD:
        return 2.0 * min(len(template), len(signoff)) / total
    shared = sum(min(count, s_counts[word]) for word, count in t_counts.items())
    return 2.0 * shared / total


def _assign(
    scores: dict[tuple[int, int], float],
    template: Sequence[TemplateItem],
    signoff: Sequence[TaskItem],
) -> dict[int, int]:
    """Greedy one-to-one assignment, best pair first, deterministic tie-breaking."""
    candidates = [pair for pair, score in scores.items() if score >= MATCH_THRESHOLD]
    candidates.sort(
        key=lambda pair: (
            -scores[pair],
            template[pair[0]].depth != signoff[pair[1]].depth,
            pair,
        )
    )
    chosen: dict[int, int] = {}
    taken: set[int] = set()
    for t, s in candidates:
        if t not in chosen and s not in taken:
            chosen[t] = s
            taken.add(s)
    return chosen


def _item_match(
    index: int,
    item: TemplateItem,
    signoff_index: int | None,
    scores: dict[tuple[int, int], float],
    signoff: Sequence[TaskItem],
    catalog: Sequence[TemplateItemSpec],
) -> ItemMatch:
    if signoff_index is not None:
        score, checked = scores[(index, signoff_index)], signoff[signoff_index].checked
    else:
        score = max((scores[(index, s)] for s in range(len(signoff))), default=0.0)
        checked = False
    catalog_id = item.catalog_id or identify_item(" ".join((item.text, *item.links)), catalog)
    return ItemMatch(
        template_index=index,
        template_text=item.text,
        catalog_id=catalog_id,
        signoff_index=signoff_index,
        checked=checked,
        similarity=round(score, 4),
    )
