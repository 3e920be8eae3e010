"""A shell script as text to match rules against: its commands' source spans, $VARS expanded."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import NamedTuple

from signoff.parse.shell.syntax import Seq, Simple, every_command, parse

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
MAX_LINE = 4000  # longer command texts are truncated before matching (bounded regex work)
MAX_TEXT = 200_000  # how far past its last word a command's redirects are looked for


class Span(NamedTuple):
    offset: int  # where the command's first word or assignment starts (-1: not known)
    first: int  # first line
    last: int  # last line
    text: str  # the command's own text (redirects included), continuations joined


@lru_cache(maxsize=4096)
def command_spans(text: str) -> tuple[tuple[int, int, str], ...]:
    """(first line, last line, text) of every command (see `command_spans_at`)."""
    return tuple(dict.fromkeys((s.first, s.last, s.text) for s in command_spans_at(text)))


@lru_cache(maxsize=4096)
def command_spans_at(text: str) -> tuple[Span, ...]:
    """Every command with words, in text order, as its own text: from its first word to the
    control operator that ends it (`;`, `&&`, `|`, a newline), so the redirects the shell
    scanner sets aside are still there to read, and `false && git apply x` gives `false` and
    `git apply x` apart. The offset matches the script reader's `Ran.offset` for the text.
    """
    try:
        parsed = parse(text)
        roots = [parsed.script, *parsed.substitutions.values()]
        simples = [simple for simple in simple_commands(roots) if simple.words]
        spans = sorted({_span(text, simple) for simple in simples})
    except Exception:  # a reader bug must not hide a patch: fall back to physical lines
        return _physical_lines(text)
    out = []
    for offset, stop, first in spans:
        own = text[offset:stop]
        joined = " ".join(
            part.removesuffix("\\").strip()
            for part in own.splitlines()
            if not part.lstrip().startswith("#")
        ).strip()
        if joined:
            last = first + own.count("\n")
            out.append(Span(offset, first, last, joined[:MAX_LINE]))
    return tuple(out)


def _physical_lines(text: str) -> tuple[Span, ...]:
    return tuple(
        Span(-1, n, n, line.strip()[:MAX_LINE])
        for n, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    )


def expand(line: str, variables: Mapping[str, str]) -> str:
    """`$NAME`/`${NAME}` replaced by a known value (unknown names stay as written)."""
    return _VAR.sub(lambda m: variables.get(m[1] or m[2], m[0]), line)


def _span(text: str, simple: Simple) -> tuple[int, int, int]:
    """(start, stop, first line) of a simple command's own text."""
    words = [*simple.assigns, *simple.words]
    start = min(w.offset for w in words)
    last = max(w.offset + len(w.raw) for w in words)
    return start, _command_end(text, last, start + MAX_TEXT), simple.line


def _command_end(text: str, i: int, limit: int) -> int:
    """Where the command whose last word ends at `i` ends: the next control operator or
    newline outside quotes (its redirects come before it), at most at `limit`."""
    quote = ""
    stop = min(len(text), limit)
    while i < stop:
        char = text[i]
        if quote:
            if char == quote:
                quote = ""
            elif char == "\\" and quote == '"':
                i += 1
        elif char in "'\"":
            quote = char
        elif char == "\\":
            i += 1  # an escaped character (a continuation included)
        elif char in ";&|)\n" or (char == "#" and text[i - 1] in " \t"):
            break
        i += 1
    return min(i, stop)


def simple_commands(roots: list[Seq]) -> list[Simple]:
    """Every simple command in the trees, wherever it sits."""
    return [node for node in every_command(roots) if isinstance(node, Simple)]
