"""Brace expansion as bash does it to a command word before any other expansion.

`--{hf-overrides,x}` reaches the engine as `--hf-overrides --x`, and `--hf-{overrides,}` as
`--hf-overrides --hf-`: a reader that kept the word as written would miss the flag. Expansion
is textual and keeps quotes (they are removed later): only unquoted `{a,b}` and `{x..y[..n]}`
expand, `${...}` never does, and a brace that is neither stays as written. What is not read here
comes out as None, and the caller fails closed on the word: a candidate in a word that also holds
a command substitution (offsets of what it runs would move), a zero-padded sequence, more than
`MAX_FIELDS` words, a word longer than `MAX_WORD` characters or with braces nested
deeper than `MAX_NESTING`. Results are cached per word: every reading of a script meets the same
words again.
"""

from __future__ import annotations

import functools
import re

from signoff.parse.shell.escapes import ansi_c_end

MAX_FIELDS = 1024
MAX_WORD = 8192  # a longer word with braces in it is not read
MAX_NESTING = 32  # braces open at once (each level of expansion recurses once)
_LONGEST_SEQUENCE = 48  # `{-9223372036854775808..9223372036854775807..2}` fits
_SEQUENCE = re.compile(r"(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?")


def brace_expand(word: str) -> list[str] | None:
    """The words bash's brace expansion makes of `word` ([word] when none applies)."""
    if "{" not in word or "}" not in word:
        return [word]  # the common case
    words = _expanded(word)
    return None if words is None else list(words)


@functools.lru_cache(maxsize=4096)
def _expanded(word: str) -> tuple[str, ...] | None:
    if len(word) > MAX_WORD:
        return None
    try:
        return tuple(_expand(word))
    except _Unread:
        return None


class _Unread(Exception):
    """The word holds an expansion this module does not read."""


def _expand(word: str) -> list[str]:
    found = _first_expansion(word)
    if found is None:
        return [word]
    if "$(" in word or "`" in word or word.startswith(("<(", ">(")):
        raise _Unread
    start, stop, items = found
    rests = _expand(word[stop + 1 :])
    out: list[str] = []
    for item in items:
        for head in _expand(word[:start] + item):
            if len(out) + len(rests) > MAX_FIELDS:
                raise _Unread
            out.extend(head + rest for rest in rests)
    return out


def _first_expansion(word: str) -> tuple[int, int, list[str]] | None:
    """(index of `{`, index of its `}`, the items it expands to) for the leftmost unquoted
    brace that expands; None when none does. One pass pairs every brace and notes which pairs
    hold a top-level comma, so a word of braces that never expand costs linear time."""
    opened: list[int] = []
    pairs: dict[int, int] = {}
    commas: set[int] = set()
    i = 0
    while i < len(word):
        char = word[i]
        if char in "\\'\"$":
            i = _skip(word, i)
            continue
        if char == "{":
            opened.append(i)
            if len(opened) > MAX_NESTING:
                raise _Unread
        elif char == "}" and opened:
            pairs[opened.pop()] = i
        elif char == "," and opened:
            commas.add(opened[-1])
        i += 1
    for start in sorted(pairs):
        stop = pairs[start]
        if start in commas:
            return start, stop, _split(word[start + 1 : stop])
        if stop - start <= _LONGEST_SEQUENCE and (items := _sequence(word[start + 1 : stop])):
            return start, stop, items
    return None


def _skip(text: str, i: int) -> int:
    """Index after the escape, quote or `${ }`/`$( )`/`$'...'` at `i` (which brace expansion
    does not look into); `i + 1` for a plain `$`."""
    char = text[i]
    if char == "\\":
        return i + 2
    if char in "'\"":
        return _after_quote(text, i)
    if text.startswith(("${", "$("), i):
        return _matching(text, i + 1) + 1
    if text.startswith("$'", i):
        return ansi_c_end(text, i + 2, len(text)) or len(text)
    return i + 1


def _split(inner: str) -> list[str]:
    """`{inner}`'s alternatives: its parts between top-level commas."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(inner):
        char = inner[i]
        if char in "\\'\"$":
            i = _skip(inner, i)
            continue
        depth += (char == "{") - (char == "}")
        if char == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
        i += 1
    return [*parts, inner[start:]]


def _sequence(inner: str) -> list[str] | None:
    match = _SEQUENCE.fullmatch(inner)
    if match is None:
        return None
    first, last, step = match.group(1), match.group(2), abs(int(match.group(3) or 1)) or 1
    if first.isalpha() != last.isalpha():
        return None
    if first.isalpha():
        low, high = ord(first), ord(last)
        direction = 1 if high >= low else -1
        return [chr(c) for c in range(low, high + direction, step * direction)]
    if any(n.lstrip("-").startswith("0") and len(n.lstrip("-")) > 1 for n in (first, last)):
        raise _Unread  # zero-padded: bash pads every number to one width (not read here)
    low, high = int(first), int(last)
    direction = 1 if high >= low else -1
    if abs(high - low) // step > MAX_FIELDS:
        raise _Unread
    return [str(n) for n in range(low, high + direction, step * direction)]


def _after_quote(text: str, i: int) -> int:
    """Index after the quote opened at `i` (`'` ends at the next `'`; `"` skips escapes)."""
    quote, j = text[i], i + 1
    while j < len(text) and text[j] != quote:
        j += 2 if quote == '"' and text[j] == "\\" else 1
    return j + 1


def _matching(text: str, i: int) -> int:
    """Index of the bracket closing the one at `i` (`{` or `(`), skipping quoted text; the
    text's length when nothing closes it."""
    close = "}" if text[i] == "{" else ")"
    depth, j = 0, i
    while j < len(text):
        char = text[j]
        if char == "\\":
            j += 2
            continue
        if char in "'\"":
            j = _after_quote(text, j)
            continue
        depth += (char == text[i]) - (char == close)
        if depth == 0:
            return j
        j += 1
    return len(text)
