"""Quote a PR-controlled value in a reason as one inline code span, so it renders as inert text."""

# Values a PR author or commenter wrote (an `image:` value, a flag, a path, a sentence) must never
# render as Markdown in our verdict comment: `![PASS](https://…)` would show an image. A code span
# shows its content literally (no links, images, mentions, HTML or emphasis). The fence is one
# backtick longer than the longest backtick run inside, so nothing inside can close it; newlines
# and control characters become spaces, so a value cannot start a new line; the value is capped,
# so one value cannot swamp the reason. publish/render.py re-fences every code span it finds and
# escapes everything else, so a check that forgot `code()` still cannot inject Markdown.

from __future__ import annotations

import re

DEFAULT_LIMIT = 160
ELLIPSIS = "…"
_CONTROL = re.compile(r"[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_BACKTICKS = re.compile(r"`+")


def code(value: object, limit: int = DEFAULT_LIMIT) -> str:
    """`value` as one inline code span: one line, at most `limit` characters of content."""
    text = _CONTROL.sub(" ", str(value))
    if len(text) > limit:
        text = text[: max(limit - 1, 0)] + ELLIPSIS
    return code_span(text)


def code_span(content: str) -> str:
    """A code span showing exactly `content` (already one line)."""
    if not content.strip(" "):
        return "` `" if content else '""'  # nothing to show; no Markdown either
    longest = max((len(run) for run in _BACKTICKS.findall(content)), default=0)
    fence = "`" * (longest + 1)
    # CommonMark strips one space from each end when both ends have one, and a content that
    # starts or ends with a backtick would merge with the fence: pad with a space then.
    pad = " " if content[0] in "` " or content[-1] in "` " else ""
    return f"{fence}{pad}{content}{pad}{fence}"
