"""Neutralise untrusted text (sign-off bodies, logins, quoted reasons) before we post or log it.

Everything a PR author or commenter wrote can end up in our verdict comment, commit status, job
summary or log. This module makes sure such text cannot ping people, inject HTML, close or forge
our hidden `<!-- marker -->`, or smuggle a workflow command (`::set-output`, `::add-mask` ...) into
the runner log.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from signoff.errors import InputError
from signoff.judge.quote import code_span

ZWSP = "\u200b"  # zero-width space: `@\u200bname` renders as "@name" but GitHub does not notify
ELLIPSIS = "…"
DEFAULT_INLINE_LIMIT = 500

# GitHub logins: alphanumerics and single hyphens, at most 39 characters; teams are `@org/slug`.
# A mention starts at a word boundary, so `dana@example.com` is not one.
_MENTION = re.compile(
    r"(?<![\w`@/])@(?P<name>[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?(?:/[A-Za-z0-9._-]+)?)"
)
# Trojan-source style direction overrides and C0/C1 controls other than tab and newline.
_INVISIBLE = re.compile(
    r"[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]"
)
# The runner parses `::command ...::` and the legacy `##[command]` at the start of a line, after
# leading whitespace; breaking the two leading characters apart disarms both.
_WORKFLOW_COMMAND = re.compile(r"^(?P<indent>[ \t]*)(?P<lead>::|##\[)", re.MULTILINE)


def escape_html(text: str) -> str:
    """Raw HTML (and so `<!--` / `-->`) becomes inert text: `<` `>` `&` turn into entities."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def neutralise_mentions(text: str, allowed: Iterable[str] = ()) -> str:
    """`@someone` stops notifying (a zero-width space after the @) unless `someone` is allowed.

    Logins compare case-insensitively, as GitHub treats them.
    """
    keep = {login.lower().removeprefix("@") for login in allowed}

    def _replace(match: re.Match[str]) -> str:
        name = match["name"]
        if name.lower() in keep:
            return match.group(0)
        return f"@{ZWSP}{name}"

    return _MENTION.sub(_replace, text)


def escape_workflow_commands(text: str) -> str:
    """A line starting with `::` or `##[` can no longer be read as a runner workflow command."""
    return _WORKFLOW_COMMAND.sub(
        lambda m: f"{m['indent']}{m['lead'][0]}{ZWSP}{m['lead'][1:]}", text
    )


def strip_invisible(text: str) -> str:
    """Drop control characters and bidirectional overrides; keep tabs and newlines."""
    return _INVISIBLE.sub("", text)


def truncate(text: str, limit: int) -> str:
    """At most `limit` characters; a cut ends in an ellipsis (counted in the limit)."""
    if limit <= 0:
        return ""
    if len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + ELLIPSIS


def truncate_words(text: str, limit: int) -> str:
    """Like `truncate`, but a cut falls between words when a blank lies in the last third
    of the room (a reason cut mid-word reads as a different word)."""
    cut = truncate(text, limit)
    if cut == text or limit <= 0:
        return cut
    room = text[: limit - 1]
    blank = room.rfind(" ")
    if blank >= (limit - 1) * 2 // 3:
        return room[:blank].rstrip() + ELLIPSIS
    return cut


def inline(
    text: str, *, allowed_mentions: Iterable[str] = (), limit: int = DEFAULT_INLINE_LIMIT
) -> str:
    """One safe line of Markdown from untrusted text: for reasons, names and quoted fragments.

    Newlines collapse to spaces (a reason can't start a new heading or fake a check row), HTML is
    escaped (so no comment marker can be opened or closed), mentions other than
    `allowed_mentions` are neutralised, workflow commands disarmed, and the result is at most
    `limit` characters.
    """
    flat = " ".join(strip_invisible(text).split())
    safe = neutralise_mentions(escape_html(flat), allowed_mentions)
    return escape_workflow_commands(truncate(safe, limit))


def block(text: str, *, allowed_mentions: Iterable[str] = (), limit: int = 60_000) -> str:
    """Multi-line untrusted text made safe like `inline`, keeping its line structure."""
    safe = neutralise_mentions(escape_html(strip_invisible(text)), allowed_mentions)
    return escape_workflow_commands(truncate(safe, limit))


# Characters that open Markdown constructs inside a line (links and images need `[`, emphasis
# `*` `_`, strikethrough `~`, code `` ` ``, escapes `\`); each is backslash-escaped in reason text
# outside code spans. HTML and autolinks go through `escape_html`; `(`, `!` and `|` are inert
# without them (a reason is one line, so no heading, list or table can start).
# An `_` between two ASCII letters or digits (`dsv4_fp4`) can neither open nor close emphasis.
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*\[\]~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
# GitHub autolinks bare URLs, `www.` hosts and e-mail addresses; a zero-width space breaks each.
_AUTOLINK = re.compile(r"(?i)(?<=:)(?=//)|(?<=www)(?=\.)|(?<=[\w.+-])(?=@)")
_BACKTICK_RUN = re.compile(r"`+")
# A status context is one line on the PR's checks list: no newline or other control character.
_CONTROL = re.compile(r"[\u0000-\u001f\u007f-\u009f\u2028\u2029]")


def split_code_spans(text: str) -> list[tuple[bool, str]]:
    """(is_code, text) segments: a backtick run opens a span closed by the next run of the same
    length (CommonMark); an unclosed run is plain text. Code segments hold the span's content."""
    segments: list[tuple[bool, str]] = []
    runs = list(_BACKTICK_RUN.finditer(text))
    plain_from, index = 0, 0
    while index < len(runs):
        opener = runs[index]
        closer = next(
            (j for j in range(index + 1, len(runs)) if len(runs[j][0]) == len(opener[0])), None
        )
        if closer is None:
            index += 1
            continue
        segments.append((False, text[plain_from : opener.start()]))
        segments.append((True, text[opener.end() : runs[closer].start()]))
        plain_from, index = runs[closer].end(), closer + 1
    segments.append((False, text[plain_from:]))
    return [(is_code, part) for is_code, part in segments if part or is_code]


def escape_markdown(text: str, allowed_mentions: Iterable[str] = ()) -> str:
    """Plain text that renders as itself: no HTML, link, image, emphasis, autolink or mention."""
    escaped = _MARKDOWN_PUNCTUATION.sub(r"\\\1", escape_html(text))
    return neutralise_mentions(_AUTOLINK.sub(ZWSP, escaped), allowed_mentions)


def reason_markdown(
    text: str, *, allowed_mentions: Iterable[str] = (), limit: int = DEFAULT_INLINE_LIMIT
) -> str:
    """A check's reason as one line of inert Markdown for the verdict comment.

    Defence in depth behind the checks' `code()`: code spans are kept (re-fenced, so nothing
    inside can close them) and everything else is escaped, so a reason quoting PR text can
    never render a link, image, mention, HTML or heading. The text is cut to `limit` first, so
    no span or escape is cut in half (a span cut open is plain text, escaped).
    """
    flat = truncate(" ".join(strip_invisible(text).split()), limit)
    parts = []
    for is_code, segment in split_code_spans(flat):
        if is_code:
            both = segment.startswith(" ") and segment.endswith(" ") and segment.strip(" ")
            parts.append(code_span(segment[1:-1] if both else segment))
        else:
            parts.append(escape_markdown(segment, allowed_mentions))
    return escape_workflow_commands("".join(parts))


def status_context_input(value: str) -> str | None:
    """The `status-context` input: None for the profile's default, else one printable line."""
    if _CONTROL.search(value):
        raise InputError(
            "input status-context must be one line of printable text "
            "(it holds a newline or another control character)"
        )
    return value.strip() or None


def log_line(text: str, *, limit: int = 2_000) -> str:
    """Text for the runner log: one line, no workflow commands, no control characters."""
    flat = " ".join(strip_invisible(text).split())
    return escape_workflow_commands(truncate(flat, limit))
