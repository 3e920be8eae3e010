"""Bash glob patterns (`case` arms, `[[ == ]]`, `${X#pat}`) matched without regexes.

Patterns and subjects come from untrusted scripts, so matching is the linear-backtracking
wildcard algorithm over a bounded product of lengths, never a compiled regular expression
(which can backtrack exponentially; `has_pattern`'s fixed one cannot). `*`, `?`, `[...]`
(ranges, `!`/`^` negation, `[:class:]`) and backslash escapes are supported; anything else is
literal. None means "could not decide".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

MAX_WORK = 200_000  # pattern length x subject length

_CLASSES: dict[str, Callable[[str], bool]] = {
    "alpha": str.isalpha,
    "digit": str.isdigit,
    "alnum": str.isalnum,
    "upper": str.isupper,
    "lower": str.islower,
    "space": str.isspace,
    "punct": lambda c: not c.isalnum() and not c.isspace() and c.isprintable(),
    "xdigit": lambda c: c in "0123456789abcdefABCDEF",
}


def _never(_char: str) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class _Piece:
    kind: str  # "char", "any", "star", "set"
    char: str = ""
    members: tuple[tuple[str, str], ...] = ()  # set: (low, high) ranges, or ("class", name)
    negated: bool = False


def escape(text: str) -> str:
    """`text` as a pattern that matches only itself."""
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)


def match(pattern: str, text: str) -> bool | None:
    """Whether the whole of `text` matches `pattern`; None when the work bound is hit."""
    pieces = _compile(pattern)
    if (len(pieces) + 1) * (len(text) + 1) > MAX_WORK:
        return None
    p = t = 0
    star, resume = -1, 0
    while t < len(text):
        if p < len(pieces) and pieces[p].kind == "star":
            star, resume, p = p, t, p + 1
        elif p < len(pieces) and _matches_one(pieces[p], text[t]):
            p, t = p + 1, t + 1
        elif star >= 0:
            resume += 1
            p, t = star + 1, resume
        else:
            return False
    while p < len(pieces) and pieces[p].kind == "star":
        p += 1
    return p == len(pieces)


_PATTERN_PIECE = re.compile(r"[*?]|\[[^\]]+\]")


def has_pattern(text: str) -> bool:
    """Whether `text` holds a pattern character: `*`, `?` or a bracket expression (not a lone
    `[`, the command)."""
    return _PATTERN_PIECE.search(text) is not None


def matches_everything(pattern: str) -> bool:
    """Whether `pattern` matches every string, the empty one included: unescaped stars only
    (a `case` arm of `*` is taken whatever the subject, even one known only at run time)."""
    return bool(pattern) and not pattern.strip("*")


def remove_affix(text: str, pattern: str, *, suffix: bool, longest: bool) -> str | None:
    """`${X#pat}` / `##` / `%` / `%%`."""
    if len(text) * (len(pattern) + 1) * 4 > MAX_WORK:
        return None
    cuts = range(len(text), -1, -1) if longest else range(len(text) + 1)
    for cut in cuts:
        part = text[len(text) - cut :] if suffix else text[:cut]
        matched = match(pattern, part)
        if matched is None:
            return None
        if matched:
            return text[: len(text) - cut] if suffix else text[cut:]
    return text


def replace(text: str, pattern: str, new: str, mode: str) -> str | None:
    """`${X/pat/new}`; mode "" replaces the first match, "/" every match, "#" a match at the
    start, "%" a match at the end. Each match is the longest one at its position."""
    if not pattern:  # `${X/#/pre}`, `${X/%/post}`: an empty match at the anchor
        return new + text if mode == "#" else text + new if mode == "%" else text
    if (len(text) + 1) ** 2 * (len(pattern) + 1) > MAX_WORK:
        return None
    if mode == "%":
        return _replace_suffix(text, pattern, new)
    out: list[str] = []
    i = 0
    while i < len(text):
        end = _longest_at(text, i, pattern)
        if end is None:
            return None
        if end > i:
            out.append(new)
            if mode != "/":
                return "".join(out) + text[end:]
            i = end
            continue
        if mode == "#":
            return text
        out.append(text[i])
        i += 1
    return "".join(out)


def _replace_suffix(text: str, pattern: str, new: str) -> str | None:
    for start in range(len(text) + 1):
        matched = match(pattern, text[start:])
        if matched is None:
            return None
        if matched and start < len(text):
            return text[:start] + new
    return text


def _longest_at(text: str, start: int, pattern: str) -> int | None:
    """The end of the longest match starting at `start` (start itself when none)."""
    for end in range(len(text), start, -1):
        matched = match(pattern, text[start:end])
        if matched is None:
            return None
        if matched:
            return end
    return start


def _compile(pattern: str) -> list[_Piece]:
    pieces: list[_Piece] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            pieces.append(_Piece("char", pattern[i + 1]))
            i += 2
        elif char == "*":
            if not pieces or pieces[-1].kind != "star":
                pieces.append(_Piece("star"))
            i += 1
        elif char == "?":
            pieces.append(_Piece("any"))
            i += 1
        elif char == "[" and (bracket := _bracket(pattern, i)) is not None:
            piece, i = bracket
            pieces.append(piece)
        else:
            pieces.append(_Piece("char", char))
            i += 1
    return pieces


def _bracket(pattern: str, i: int) -> tuple[_Piece, int] | None:
    j, negated = i + 1, False
    if j < len(pattern) and pattern[j] in "!^":
        negated, j = True, j + 1
    members: list[tuple[str, str]] = []
    first = True
    while j < len(pattern) and (pattern[j] != "]" or first):
        first = False
        if pattern.startswith("[:", j) and (close := pattern.find(":]", j + 2)) > 0:
            members.append(("class", pattern[j + 2 : close]))
            j = close + 2
        elif j + 2 < len(pattern) and pattern[j + 1] == "-" and pattern[j + 2] != "]":
            members.append((pattern[j], pattern[j + 2]))
            j += 3
        else:
            members.append((pattern[j], pattern[j]))
            j += 1
    if j >= len(pattern):
        return None  # no closing bracket: a literal `[`
    return _Piece("set", members=tuple(members), negated=negated), j + 1


def _matches_one(piece: _Piece, char: str) -> bool:
    if piece.kind == "any":
        return True
    if piece.kind == "char":
        return piece.char == char
    if piece.kind != "set":
        return False
    hit = any(
        _CLASSES.get(high, _never)(char) if low == "class" else low <= char <= high
        for low, high in piece.members
    )
    return hit != piece.negated
