"""A shell script as text to match rules against: its commands' source spans, $VARS expanded."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from signoff.parse.shell_ast import AndOr, Case, Func, Group, If, Loop, Seq, Simple, parse

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
MAX_LINE = 4000  # longer command texts are truncated before matching (bounded regex work)


@lru_cache(maxsize=4096)
def command_spans(text: str) -> tuple[tuple[int, int, str], ...]:
    """(first line, last line, source text) of every command; comment lines inside are dropped.

    The shell scanner decides where a command ends (quoted newlines, continuations); the text is
    the physical lines it spans, so redirects the scanner sets aside are still there to read.
    """
    lines = text.splitlines()
    try:
        parsed = parse(text)
        roots = [parsed.script, *parsed.substitutions.values()]
        spans = sorted({_span(simple) for simple in _simples(roots) if simple.words})
    except Exception:  # a reader bug must not hide a patch: fall back to physical lines
        spans = [(n, n) for n in range(1, len(lines) + 1)]
    out = []
    for first, last in spans:
        kept = [ln.strip() for ln in lines[first - 1 : last] if not ln.lstrip().startswith("#")]
        joined = " ".join(part.removesuffix("\\").strip() for part in kept).strip()
        if joined:
            out.append((first, last, joined[:MAX_LINE]))
    return tuple(out)


def expand(line: str, variables: Mapping[str, str]) -> str:
    """`$NAME`/`${NAME}` replaced by a known value (unknown names stay as written)."""
    return _VAR.sub(lambda m: variables.get(m[1] or m[2], m[0]), line)


def _span(simple: Simple) -> tuple[int, int]:
    words = [*simple.assigns, *simple.words]
    return simple.line, max(w.line + w.raw.count("\n") for w in words)


def _simples(roots: list[Seq]) -> list[Simple]:
    """Every simple command in the trees, wherever it sits (walked iteratively: depth is the
    script author's choice)."""
    found: list[Simple] = []
    stack: list[object] = list(roots)
    while stack:
        node = stack.pop()
        if isinstance(node, Simple):
            found.append(node)
        elif isinstance(node, Seq):
            stack.extend(node.items)
        elif isinstance(node, AndOr):
            stack.extend(node.first.commands)
            stack.extend(cmd for _, pipe in node.rest for cmd in pipe.commands)
        elif isinstance(node, If):
            stack.extend(part for arm in node.arms for part in arm)
            if node.orelse is not None:
                stack.append(node.orelse)
        elif isinstance(node, Case):
            stack.extend(arm.body for arm in node.arms)
        elif isinstance(node, Loop):
            stack.append(node.body)
            if node.cond is not None:
                stack.append(node.cond)
        elif isinstance(node, Group | Func):
            stack.append(node.body)
    return found
