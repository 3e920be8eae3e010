"""Launch commands in Markdown / MDX recipes and published HTML pages, each under its section.

Markdown and MDX go through markdown-it-py: fenced and indented code blocks are read as shell,
headings set the section path, and MDX `<Tab title=...>` / `<Accordion title=...>` wrappers add
their title while they are open. Inline code spans such as `--kv-cache-dtype fp8` in prose are
kept as mentions (options a recipe documents without a full command). Published pages are read
with the standard library's HTML parser: `<pre>` blocks under `<h1>`-`<h6>` headings.
"""

from __future__ import annotations

import shlex
from html.parser import HTMLParser

from markdown_it import MarkdownIt
from markdown_it.token import Token

from signoff.parse.recipes.document import RecipeCommand, RecipeDoc, commands_in_shell

_MD = MarkdownIt("commonmark")
_NOT_SHELL = frozenset(
    {"python", "py", "json", "yaml", "yml", "javascript", "js", "jsx", "ts", "text", "output"}
)
_TITLED = ("tab", "accordion", "step", "expandable", "card")


class _Sections:
    """The heading path and the open MDX wrappers above the current token."""

    def __init__(self) -> None:
        self.headings: list[tuple[int, str]] = []
        self.wrappers: list[str] = []

    def heading(self, level: int, text: str) -> None:
        self.headings = [(lvl, t) for lvl, t in self.headings if lvl < level] + [(level, text)]
        self.wrappers = []

    def path(self) -> tuple[str, ...]:
        return tuple(t for _, t in self.headings) + tuple(self.wrappers)


def read_markdown(source: str, text: str, *, prefix: tuple[str, ...] = ()) -> RecipeDoc:
    """Every server launch in the document's shell code blocks, with its section path."""
    tokens = _MD.parse(_without_front_matter(text))
    sections = _Sections()
    commands: list[RecipeCommand] = []
    problems: list[str] = []
    mentions: list[tuple[str, str | None]] = []
    offset = _front_matter_lines(text)
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            sections.heading(int(token.tag[1:]), tokens[index + 1].content.strip())
        elif token.type == "html_block":
            _wrappers(token.content, sections)
        elif token.type in ("fence", "code_block") and _is_shell(token):
            first = (token.map[0] if token.map else 0) + offset + 2
            found, trouble = commands_in_shell(
                token.content, source=source, section=prefix + sections.path(), first_line=first
            )
            commands.extend(found)
            problems.extend(trouble)
        elif token.type == "inline":
            mentions.extend(_mentions(token))
    return RecipeDoc(
        source=source,
        title=_title(text, tokens),
        commands=tuple(commands),
        mentions=tuple(mentions),
        problems=tuple(problems),
    )


def _is_shell(token: Token) -> bool:
    language = token.info.strip().split(" ", 1)[0].lower() if token.info else ""
    return language not in _NOT_SHELL


def _wrappers(html: str, sections: _Sections) -> None:
    """Open/close MDX wrappers in an HTML block; a titled one becomes part of the section."""
    reader = _TagReader()
    reader.feed(html)
    for tag, title in reader.events:
        if tag.startswith("/"):
            if tag[1:] in _TITLED and sections.wrappers:
                sections.wrappers.pop()
        elif tag in _TITLED:
            sections.wrappers.append(title)


class _TagReader(HTMLParser):
    """Start/end tags of an HTML (MDX) fragment: (tag, title) and ("/tag", "")."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.events: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        title = next((value or "" for name, value in attrs if name == "title"), "")
        self.events.append((tag, title))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        return  # self-closing: opens nothing

    def handle_endtag(self, tag: str) -> None:
        self.events.append((f"/{tag}", ""))


def _mentions(token: Token) -> list[tuple[str, str | None]]:
    """`--flag value` inline code spans in prose."""
    found: list[tuple[str, str | None]] = []
    for child in token.children or ():
        if child.type != "code_inline" or not child.content.startswith("--"):
            continue
        try:
            words = shlex.split(child.content)
        except ValueError:
            continue
        if not words:
            continue
        flag, _, inline = words[0].partition("=")
        value = inline or (words[1] if len(words) > 1 else None)
        found.append((flag, value))
    return found


def _front_matter_lines(text: str) -> int:
    if not text.startswith("---\n"):
        return 0
    end = text.find("\n---", 4)
    return 0 if end < 0 else text[: end + 4].count("\n") + 1


def _without_front_matter(text: str) -> str:
    lines = _front_matter_lines(text)
    return "\n".join(text.split("\n")[lines:]) if lines else text


def _title(text: str, tokens: list[Token]) -> str:
    """The front matter `title:`, else the first heading."""
    head = text.split("\n")[: _front_matter_lines(text)]
    for line in head:
        if line.startswith("title:"):
            return line[len("title:") :].strip().strip("\"'")
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            return tokens[index + 1].content.strip()
    return ""


def read_html(source: str, text: str) -> RecipeDoc:
    """Server launches in a published page's `<pre>` blocks, under its headings."""
    reader = _PageReader()
    try:
        reader.feed(text)
        reader.close()
    except Exception:  # html.parser tolerates almost anything; a failure is a page we cannot read
        return RecipeDoc(source=source, problems=(f"{source}: the page could not be parsed",))
    commands: list[RecipeCommand] = []
    problems: list[str] = []
    for section, code in reader.blocks:
        found, trouble = commands_in_shell(code, source=source, section=section, first_line=0)
        commands.extend(found)
        problems.extend(trouble)
    title = reader.headings[0][1] if reader.headings else ""
    return RecipeDoc(source=source, title=title, commands=tuple(commands), problems=tuple(problems))


class _PageReader(HTMLParser):
    """Collects (section path, text) of every `<pre>` block; script and style are skipped."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.headings: list[tuple[int, str]] = []
        self.blocks: list[tuple[tuple[str, ...], str]] = []
        self._heading: tuple[int, list[str]] | None = None
        self._pre: list[str] | None = None
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        elif len(tag) == 2 and tag[0] == "h" and tag[1] in "123456":
            self._heading = (int(tag[1]), [])
        elif tag == "pre":
            self._pre = []
        elif tag == "br" and self._pre is not None:
            self._pre.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip = max(0, self._skip - 1)
        elif self._heading is not None and tag == f"h{self._heading[0]}":
            level, parts = self._heading
            kept = [(lvl, t) for lvl, t in self.headings if lvl < level]
            self.headings = [*kept, (level, " ".join("".join(parts).split()))]
            self._heading = None
        elif tag == "pre" and self._pre is not None:
            section = tuple(t for _, t in self.headings)
            self.blocks.append((section, "".join(self._pre)))
            self._pre = None

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._pre is not None:
            self._pre.append(data)
        elif self._heading is not None:
            self._heading[1].append(data)
