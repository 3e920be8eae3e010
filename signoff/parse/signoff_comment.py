"""Parse a sign-off comment into its opener, task items, detail section, links and signature."""

# What counts as the reviewer's own statement:
# - Markdown is parsed by markdown-it-py (CommonMark); lines are 1-based source lines.
# - Task items are read as GitHub's renderer (cmark-gfm) reads them, not with mdit-py-plugins'
#   tasklists plugin, whose parent search is quadratic (10 s on a 64 KB comment of items): a list
#   item is a task when its own source line is `[ \t\v\f]*` + a bullet or `1.`/`1)` marker + at
#   least one of those blanks + `[ ]`, `[x]` or `[X]` + one more blank (tab, vertical tab and form
#   feed included; NBSP and other Unicode spaces not, nor the end of the line). The box is
#   checked when `[x]` or `[X]` appears anywhere on that line, as cmark-gfm decides it (its
#   `strstr` over the line). tests/parse/test_tasklist_differential.py compares this with cmark-gfm.
# - Block quotes, HTML comments/blocks and code (spans, indented or fenced blocks) are never the
#   reviewer's statement: no opener, task item, detail text, signature or link comes from them.
#   GitHub renders a raw HTML `<blockquote>` as a quote too, Markdown after a blank line inside
#   it included: everything from the tag to its end tag (or to the end, if never closed) is
#   quoted; a paragraph holding such a tag inline is quoted whole.
# - Stray fence: reviewers paste the page's fenced template with its ``` lines. A fence whose info
#   string is empty, `markdown` or `md` and whose content holds the opener is unwrapped (its fence
#   lines blanked, so line numbers stay) and the comment parsed again, but only when no opener
#   stands outside code. An unclosed fence runs to the end of the comment and unwraps the same way.
# - Task item text is what a reader sees: markup flattened, link text kept, hrefs left out (they are
#   in `links`), code-span content kept. A nested plain bullet is not part of its parent's text.
# - The detail section runs from a heading naming `detail_heading` (or a line starting with it) to
#   the last `Signed:` line or the end; placeholder phrases are removed and lines left without a
#   letter or digit dropped.

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from pydantic import BaseModel, ConfigDict

from signoff.policy import SignoffSyntax

_MD = MarkdownIt("commonmark")
# A plain URL in text: GitHub autolinks these even without <...>; trailing punctuation is prose.
_BARE_URL = re.compile(r"https?://[^\s<>()\[\]{}\"'`]+")
_URL_TAIL = ".,;:!?*_~"
# cmark-gfm's task-list line (extensions/ext_scanners.re), anchored at the start of the line.
_TASK_LINE = re.compile(r"[ \t\v\f]*(?:[-+*]|[0-9]{1,9}[.)])[ \t\v\f]+\[[ xX]\][ \t\v\f]")
_BOX_TEXT = re.compile(r"\[[ xX]\][ \t\v\f]*")
_UNWRAPPABLE_INFO = ("", "markdown", "md")
# A `<blockquote` or `</blockquote` tag name, wherever its `>` is (the browser opens it anyway).
_QUOTE_TAG = re.compile(r"<(/?)blockquote(?=[\s/>])", re.IGNORECASE)


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TaskItem(Frozen):
    text: str
    checked: bool
    # The item's own words and those of text nested under it (not of nested task items), for
    # explanations attached to the item; link destinations and URLs left out.
    words: str = ""
    line: int
    depth: int  # 0 = top level; counts enclosing task items only
    parent: int | None  # index into items of the nearest enclosing task item
    links: tuple[str, ...] = ()


class Link(Frozen):
    url: str
    text: str
    line: int
    in_detail: bool


class ParsedSignoff(Frozen):
    has_opener: bool
    opener_line: int | None
    items: tuple[TaskItem, ...]
    detail: str
    detail_words: str  # the detail section as words: one line per source line, no URLs
    detail_line: int | None
    links: tuple[Link, ...]
    signed: str | None
    signed_line: int | None


@dataclass(frozen=True)
class Row:
    """One source line of rendered inline text from a paragraph, heading or list item."""

    line: int
    text: str  # code spans included
    prose: str  # code spans left out: the opener never counts inside code
    words: str  # what reads as words: link text kept, link destinations and URLs left out
    links: tuple[tuple[str, str], ...]  # (url, link text)
    item: int | None  # the task item whose own paragraph this row is
    owner: int | None  # the innermost task item this row is inside (its own text or nested)
    quoted: bool
    heading: int  # heading level, 0 when not a heading


@dataclass(frozen=True)
class RawItem:
    line: int
    checked: bool
    depth: int
    parent: int | None


@dataclass(frozen=True)
class Fence:
    start: int  # 0-based line of the opening fence
    end: int  # 0-based line after the block
    info: str
    content: str
    markup: str


@dataclass(frozen=True)
class Scan:
    rows: tuple[Row, ...]
    items: tuple[RawItem, ...]
    fences: tuple[Fence, ...]


@dataclass
class _Walk:
    lines: list[str]  # the source, to read each list item's first line as cmark-gfm does
    rows: list[Row] = field(default_factory=list)
    items: list[RawItem] = field(default_factory=list)
    fences: list[Fence] = field(default_factory=list)
    quote: int = 0
    html_quote: int = 0  # raw HTML <blockquote> elements left open
    stack: list[int | None] = field(default_factory=list)  # open list items: task index or None
    heading: int = 0

    @property
    def quoted(self) -> bool:
        return self.quote > 0 or self.html_quote > 0


def normalise_space(text: str) -> str:
    """Collapse every run of whitespace to one space and trim."""
    return " ".join(text.split())


def to_lines(text: str) -> str:
    """Unify line endings: review-summary bodies arrive with CRLF, old clients with bare CR."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def scan_markdown(text: str) -> Scan:
    """Walk the token stream once, keeping rows of inline text, task items and fences."""
    try:
        tokens = _MD.parse(text)
    except Exception:  # markdown-it is robust, but a parser bug must not crash a verdict
        return Scan(rows=(), items=(), fences=())
    walk = _Walk(lines=text.split("\n"))
    for index, token in enumerate(tokens):
        _visit(walk, tokens, index, token)
    return Scan(rows=tuple(walk.rows), items=tuple(walk.items), fences=tuple(walk.fences))


def _visit(walk: _Walk, tokens: Sequence[Token], index: int, token: Token) -> None:
    kind = token.type
    if kind == "blockquote_open":
        walk.quote += 1
    elif kind == "blockquote_close":
        walk.quote = max(0, walk.quote - 1)
    elif kind == "list_item_open":
        walk.stack.append(_open_item(walk, tokens, index))
    elif kind == "list_item_close" and walk.stack:
        walk.stack.pop()
    elif kind == "heading_open":
        walk.heading = int(token.tag[1:]) if token.tag[1:].isdigit() else 1
    elif kind == "heading_close":
        walk.heading = 0
    elif kind == "fence" and not walk.quoted and token.map:
        walk.fences.append(_fence(token))
    elif kind == "html_block":
        walk.html_quote = max(0, walk.html_quote + html_quote_change(token.content))
    elif kind == "inline" and token.map:
        _add_rows(walk, tokens, index, token)


def html_quote_change(html: str) -> int:
    """+1 per `<blockquote>` and -1 per `</blockquote>` in raw HTML, comments left out."""
    change = 0
    for match in _QUOTE_TAG.finditer(_without_comments(html)):
        change += -1 if match.group(1) else 1
    return change


def _without_comments(html: str) -> str:
    """Raw HTML without its `<!-- -->` comments; an unclosed one runs to the end (linear)."""
    kept, at = [], 0
    while (start := html.find("<!--", at)) >= 0:
        kept.append(html[at:start])
        end = html.find("-->", start + 4)
        if end < 0:
            return "".join(kept)
        at = end + 3
    kept.append(html[at:])
    return "".join(kept)


def _open_item(walk: _Walk, tokens: Sequence[Token], index: int) -> int | None:
    checked = _checkbox(walk, tokens, index)
    if checked is None or walk.quoted:
        return None
    tasks = [task for task in walk.stack if task is not None]
    line = (tokens[index].map or [0])[0] + 1
    parent = tasks[-1] if tasks else None
    walk.items.append(RawItem(line=line, checked=checked, depth=len(tasks), parent=parent))
    return len(walk.items) - 1


def _checkbox(walk: _Walk, tokens: Sequence[Token], index: int) -> bool | None:
    """True/False for a checked/unchecked task item opening at `index`, None for a plain bullet."""
    if index + 2 >= len(tokens) or tokens[index + 1].type != "paragraph_open":
        return None
    start = (tokens[index].map or [-1])[0]
    if (tokens[index + 1].map or [-2])[0] != start or not 0 <= start < len(walk.lines):
        return None  # the box must open the item's own first line
    line = walk.lines[start]
    if _TASK_LINE.match(line) is None:
        return None
    return "[x]" in line or "[X]" in line


def _fence(token: Token) -> Fence:
    start, end = token.map or (0, 0)
    info = token.info.strip().split(" ")[0].lower() if token.info.strip() else ""
    return Fence(start=start, end=end, info=info, content=token.content, markup=token.markup)


def _is_item_paragraph(walk: _Walk, tokens: Sequence[Token], index: int) -> int | None:
    """The task index when this inline is a paragraph directly inside the innermost task item."""
    if not walk.stack or walk.stack[-1] is None or walk.heading:
        return None
    return walk.stack[-1] if index >= 1 and tokens[index - 1].type == "paragraph_open" else None


def _add_rows(walk: _Walk, tokens: Sequence[Token], index: int, token: Token) -> None:
    item = _is_item_paragraph(walk, tokens, index)
    first_line = (token.map or [0])[0] + 1
    children = _strip_checkbox(token.children or [], item, walk, first_line)
    owner = next((task for task in reversed(walk.stack) if task is not None), None)
    inline_html = "".join(c.content for c in children if c.type == "html_inline")
    change = html_quote_change(inline_html) if "<" in inline_html else 0
    quoted = walk.quoted or change != 0  # a quote tag inside the paragraph quotes it whole
    walk.html_quote = max(0, walk.html_quote + change)
    for offset, line in enumerate(_flatten(children)):
        walk.rows.append(
            Row(
                line=first_line + offset,
                text=normalise_space(line.text),
                prose=normalise_space(line.prose),
                words=normalise_space(line.words),
                links=tuple(line.links),
                item=item,
                owner=owner,
                quoted=quoted,
                heading=walk.heading,
            )
        )


def _strip_checkbox(children: list[Token], item: int | None, walk: _Walk, line: int) -> list[Token]:
    """Drop the `[x]` box (and the blanks after it) from a task item's first paragraph."""
    if item is None or walk.items[item].line != line or not children:
        return children
    head = children[0]
    if head.type == "text":
        box = _BOX_TEXT.match(head.content)
        if box is not None:
            rest = head.content[box.end() :]
            return ([head.copy(content=rest)] if rest else []) + children[1:]
    if head.type == "link_open":
        # `[x]: url` defined elsewhere turns the box into a shortcut link; the box is still a box.
        close = next((i for i, c in enumerate(children) if c.type == "link_close"), None)
        if close is not None:
            return children[close + 1 :]
    return children


@dataclass
class _Line:
    text: str = ""
    prose: str = ""
    words: str = ""
    links: list[tuple[str, str]] = field(default_factory=list)


def _flatten(children: Iterable[Token]) -> list[_Line]:
    """Inline tokens as per-line text, prose, words and links; breaks start a new line."""
    lines = [_Line()]
    href: str | None = None
    autolink = False
    label = ""
    for child in children:
        line = lines[-1]
        if child.type in ("softbreak", "hardbreak"):
            lines.append(_Line())
        elif child.type == "link_open":
            href, label = str(child.attrs.get("href", "")), ""
            autolink = child.markup in ("autolink", "linkify")
        elif child.type == "link_close" and href is not None:
            line.links.append((href, normalise_space(label)))
            href, autolink = None, False
        elif child.type in ("text", "code_inline", "image"):
            piece = child.content
            label += piece if href is not None else ""
            if href is None and child.type == "text":
                line.links.extend((url, url) for url in bare_urls(piece))
            line.text += piece
            line.prose += "" if child.type == "code_inline" else piece
            # Words are what a reader reads as words: no URL, whether autolinked or bare.
            line.words += " " if autolink else _BARE_URL.sub(" ", piece)
        elif child.type == "html_inline":
            # A multi-line inline comment or tag still occupies source lines.
            lines.extend(_Line() for _ in range(child.content.count("\n")))
    return lines


def bare_urls(text: str) -> list[str]:
    """Plain http(s) URLs in one text string, without trailing sentence punctuation."""
    found = []
    for match in _BARE_URL.finditer(text):
        url = match.group(0).rstrip(_URL_TAIL)
        if len(url) > len("https://"):
            found.append(url)
    return found


def has_opener(body: str, syntax: SignoffSyntax) -> bool:
    """The trigger gate's test: GitHub's case-insensitive contains() over the raw body."""
    return syntax.opener.lower() in (body or "").lower()


def parse_signoff(body: str, syntax: SignoffSyntax) -> ParsedSignoff:
    """Parse a sign-off body; never raises, whatever the text.

    Memoised: one run asks for the same body's reading in the gate, before gathering, in the
    judge and before writing, and a 64 KB hostile body can take a second to read. The reading
    is pure and frozen, so sharing it is safe.
    """
    return _parse_once(body or "", syntax)


def parse_cache_clear() -> None:
    """Forget the memoised readings (for benchmarks that measure a reading)."""
    _parse_once.cache_clear()


@lru_cache(maxsize=16)
def _parse_once(body: str, syntax: SignoffSyntax) -> ParsedSignoff:
    text = to_lines(body)
    scan = scan_markdown(text)
    if _opener_row(scan.rows, syntax) is None:
        unwrapped = unwrap_fences(text, scan.fences, syntax.opener)
        if unwrapped is not None:
            scan = scan_markdown(unwrapped)
    return _build(scan, syntax)


def unwrap_fences(text: str, fences: Sequence[Fence], opener: str) -> str | None:
    """Blank the fence lines around pasted template text; None when no fence holds the opener."""
    lines = text.split("\n")
    changed = False
    for fence in fences:
        if fence.info not in _UNWRAPPABLE_INFO or opener.lower() not in fence.content.lower():
            continue
        for number in (fence.start, _closing_line(lines, fence)):
            if number is not None and 0 <= number < len(lines):
                lines[number] = ""
                changed = True
    return "\n".join(lines) if changed else None


def _closing_line(lines: Sequence[str], fence: Fence) -> int | None:
    """The 0-based closing fence line, or None when the fence ran unclosed to the end."""
    last = fence.end - 1
    if last <= fence.start or last >= len(lines) or not fence.markup:
        return None
    candidate = lines[last].strip()
    is_fence = candidate.startswith(fence.markup) and set(candidate) <= {fence.markup[0]}
    return last if is_fence else None


def _opener_row(rows: Sequence[Row], syntax: SignoffSyntax) -> Row | None:
    needle = normalise_space(syntax.opener).lower()
    if not needle:
        return None
    return next((row for row in rows if not row.quoted and needle in row.prose.lower()), None)


def _build(scan: Scan, syntax: SignoffSyntax) -> ParsedSignoff:
    rows = [row for row in scan.rows if not row.quoted]
    opener = _opener_row(rows, syntax)
    heading = _detail_row(rows, syntax, opener.line if opener else 0)
    signed = _signed_row(rows, syntax)
    start = heading.line if heading else None
    stop = signed.line if signed else None
    return ParsedSignoff(
        has_opener=opener is not None,
        opener_line=opener.line if opener else None,
        items=task_items(scan, syntax),
        detail=_detail_text(rows, heading, stop, syntax),
        detail_words=_detail_text(rows, heading, stop, syntax, words=True),
        detail_line=start,
        links=_links(rows, start, stop),
        signed=_signed_name(signed, syntax) if signed else None,
        signed_line=stop,
    )


def _detail_row(rows: Sequence[Row], syntax: SignoffSyntax, after: int) -> Row | None:
    """The detail heading after the opener (or the first anywhere when none follows it)."""
    hits = [row for row in rows if is_detail_heading(row, syntax)]
    later = [row for row in hits if row.line > after]
    chosen = later or hits
    return chosen[0] if chosen else None


def is_detail_heading(row: Row, syntax: SignoffSyntax) -> bool:
    """A heading naming the section, or a line opening with it; item prose mentioning it is not."""
    needle = normalise_space(syntax.detail_heading).lower()
    text = row.text.lower()
    if not needle:
        return False
    return (row.heading > 0 and needle in text) or text.lstrip(" #*_-").startswith(needle)


def _is_signed(row: Row, syntax: SignoffSyntax) -> bool:
    prefix = syntax.signed_prefix.strip().lower()
    return bool(prefix) and row.text.lower().startswith(prefix)


def _signed_row(rows: Sequence[Row], syntax: SignoffSyntax) -> Row | None:
    """The last `Signed:` line: the template closes with it; earlier mentions do not count."""
    signed = [row for row in rows if _is_signed(row, syntax)]
    return signed[-1] if signed else None


def _signed_name(row: Row, syntax: SignoffSyntax) -> str | None:
    name = row.text[len(syntax.signed_prefix.strip()) :].strip().strip("`*_ ").lstrip("@")
    return name or None


def _detail_text(
    rows: Sequence[Row],
    heading: Row | None,
    stop: int | None,
    syntax: SignoffSyntax,
    *,
    words: bool = False,
) -> str:
    if heading is None:
        return ""
    kept = []
    for row in rows:
        if row.line < heading.line or (stop is not None and row.line >= stop):
            continue
        source = row.words if words else row.text
        text = _after_heading(source, syntax) if row is heading else source
        cleaned = _drop_placeholders(text, syntax.placeholders)
        if any(char.isalnum() for char in cleaned):
            kept.append(cleaned)
    return "\n".join(kept)


def _after_heading(text: str, syntax: SignoffSyntax) -> str:
    """Text written on the heading line itself after the heading phrase (`**...:** see run`)."""
    at = text.lower().find(normalise_space(syntax.detail_heading).lower())
    rest = text[at + len(normalise_space(syntax.detail_heading)) :] if at >= 0 else ""
    return rest.lstrip(" :*_-")


def _drop_placeholders(text: str, placeholders: Sequence[str]) -> str:
    for phrase in placeholders:
        needle = normalise_space(phrase)
        if needle:
            text = re.sub(re.escape(needle), "", text, flags=re.IGNORECASE)
    return normalise_space(text)


def _links(rows: Sequence[Row], start: int | None, stop: int | None) -> tuple[Link, ...]:
    found = []
    for row in rows:
        inside = start is not None and row.line >= start and (stop is None or row.line < stop)
        for url, text in row.links:
            found.append(Link(url=url, text=text, line=row.line, in_detail=inside))
    return tuple(found)


def task_items(scan: Scan, syntax: SignoffSyntax) -> tuple[TaskItem, ...]:
    """Task items with their own text; a lazily continued `Signed:` or detail line is cut off."""
    texts: dict[int, list[str]] = {}
    words: dict[int, list[str]] = {}
    urls: dict[int, list[str]] = {}
    closed: set[int] = set()
    for row in scan.rows:
        if row.owner is None or row.owner in closed or row.quoted:
            continue
        if _is_signed(row, syntax) or is_detail_heading(row, syntax):  # lazy continuation
            closed.add(row.owner)
            continue
        words.setdefault(row.owner, []).append(row.words)
        if row.item is not None:
            texts.setdefault(row.item, []).append(row.text)
            urls.setdefault(row.item, []).extend(url for url, _ in row.links)
    return tuple(
        TaskItem(
            text=normalise_space(" ".join(texts.get(index, []))),
            checked=raw.checked,
            words=normalise_space(" ".join(words.get(index, []))),
            line=raw.line,
            depth=raw.depth,
            parent=raw.parent,
            links=tuple(urls.get(index, [])),
        )
        for index, raw in enumerate(scan.items)
    )
