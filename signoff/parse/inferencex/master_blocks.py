"""Split a master config into top-level entry blocks so only the entries a PR touches are parsed.

PyYAML's constructor runs in Python even with the C loader: a 320 KB master config costs ~0.5 s.
A PR changes a handful of entries, so we compare the raw blocks of base and head and parse just
those, blanking the other blocks so line numbers stay true. Files that use anchors, aliases or
merge keys (which can tie blocks together) or a non-mapping top level are not split.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

_MERGE_KEY = re.compile(r"<<\s*:")
_ANCHOR_CHARS = re.compile(r"[&*]")
_TOP_LEVEL_KEY = re.compile(
    r"""^(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<plain>[^\s#:][^:#]*?))\s*:(?:\s|$)"""
)

Blocks = dict[str, tuple[int, int]]  # key -> (first line index, end line index, exclusive)


def _has_cross_block_refs(text: str) -> bool:
    """Anchors (`&a`), aliases (`*a`) or merge keys, which can make one block depend on another."""
    if "<<" in text and _MERGE_KEY.search(text):
        return True
    for match in _ANCHOR_CHARS.finditer(text):  # both characters are rare in master configs
        at = match.start()
        before = text[at - 1] if at else "\n"
        after = text[at + 1 : at + 2]
        if before in " \t\n:[{,-" and after and after not in " \t\n,[]{}":
            return True
    return False


@lru_cache(maxsize=16)
def split_blocks(text: str) -> Blocks | None:
    """Top-level key -> line span, or None when the file cannot be split safely."""
    if _has_cross_block_refs(text):
        return None
    lines = text.split("\n")
    blocks: Blocks = {}
    current: str | None = None
    start = 0
    for index, line in enumerate(lines):
        if not line or line[0] in " \t#":
            continue  # indented content, comments and blank lines belong to the open block
        match = _TOP_LEVEL_KEY.match(line)
        if match is None or line.startswith(("---", "...")):
            return None  # flow style, sequences or several documents: parse the whole file
        key = (
            match["dq"]
            if match["dq"] is not None
            else match["sq"]
            if match["sq"] is not None
            else match["plain"]
        ).strip()
        if key in blocks or key == current:
            return None  # duplicate keys: leave the YAML loader to decide
        if current is not None:
            blocks[current] = (start, index)
        current, start = key, index
    if current is not None:
        blocks[current] = (start, len(lines))
    return blocks


@lru_cache(maxsize=16)
def _lines(text: str) -> tuple[str, ...]:
    return tuple(text.split("\n"))


@lru_cache(maxsize=64)
def sparse_keys(text: str, keep: frozenset[str]) -> str:
    """`text` with every block outside `keep` blanked, or `text` whole when it cannot be split
    (kept: a mass edit's checks ask for the same subsets in every round of gathering)."""
    blocks = split_blocks(text)
    return text if blocks is None else sparse_text(text, blocks, set(keep))


@lru_cache(maxsize=1024)
def block_text(text: str, key: str) -> str | None:
    """The lines of `key`'s block, None when the file cannot be split or has no such key
    (kept: every changed entry asks for its own lines, and each split read the whole file)."""
    blocks = split_blocks(text)
    if blocks is None or key not in blocks:
        return None
    start, end = blocks[key]
    return "\n".join(_lines(text)[start:end])


def sparse_text(text: str, blocks: Blocks, keep: set[str]) -> str:
    """The file with every block outside `keep` blanked (same line count, so lines stay true)."""
    lines = _lines(text)
    out = [""] * len(lines)
    for key in keep:
        span = blocks.get(key)
        if span is not None:
            out[span[0] : span[1]] = lines[span[0] : span[1]]
    return "\n".join(out)


@lru_cache(maxsize=16)
def changed_keys(base: str, head: str) -> frozenset[str] | None:
    """Keys whose block text differs between base and head (added, removed or edited)."""
    base_blocks, head_blocks = split_blocks(base), split_blocks(head)
    if base_blocks is None or head_blocks is None:
        return None
    base_lines, head_lines = _lines(base), _lines(head)
    keys = set(base_blocks) | set(head_blocks)
    changed = set()
    for key in keys:
        if key not in base_blocks or key not in head_blocks:
            changed.add(key)
            continue
        (b0, b1), (h0, h1) = base_blocks[key], head_blocks[key]
        if _significant(base_lines[b0:b1]) != _significant(head_lines[h0:h1]):
            changed.add(key)
    return frozenset(changed)


def _significant(lines: Sequence[str]) -> list[str]:
    """A block's lines without trailing whitespace and trailing blank lines."""
    kept = [line.rstrip() for line in lines]
    while kept and not kept[-1]:
        kept.pop()
    return kept
