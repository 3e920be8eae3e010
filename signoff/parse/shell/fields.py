"""Fields: the pieces one expanded word is made of (segments), joined and split on IFS.

A segment is literal or expanded text, quoted or not, known or not; unquoted known expansions
are split into fields, and `brk` marks the boundary between `"${A[@]}"` items.
"""

from __future__ import annotations

from dataclasses import dataclass

from signoff.parse.shell.printf import Parts
from signoff.parse.shell.values import Text


@dataclass(frozen=True, slots=True)
class Field:
    text: str
    known: bool
    prefix: str  # the literal text before the first unknown part ("" when it starts unknown)
    line: int
    parts: tuple[tuple[str, bool], ...] = ()  # (text, known) pieces of an unknown field
    # False when an unquoted expansion known only at run time is part of it: it may split
    # into several fields, or none; True when it is surely this one field (`"${T:-60}"`)
    single: bool = True

    def as_text(self) -> Text:
        return Text(self.text, self.known, self.prefix, self.parts)


@dataclass(slots=True)
class Segment:
    text: str
    quoted: bool
    known: bool = True
    split: bool = False  # an unquoted expansion: split into fields
    brk: bool = False  # a field boundary ("${A[@]}" items)


def substituted(written: str, printed: str | Parts | None, quoted: bool) -> list[Segment]:
    """A command substitution: its output when known (trailing newlines dropped, as the shell
    does), its pieces when known in part (the run-time ones as written), else the text as
    written, unknown."""
    if printed is None:
        return [Segment(written, quoted, known=False, split=not quoted)]
    if isinstance(printed, str):
        return [Segment(printed.rstrip("\n"), quoted, split=not quoted)]
    pieces = list(printed)
    if pieces and pieces[-1][1]:
        pieces[-1] = (pieces[-1][0].rstrip("\n"), True)
    return [Segment(text, quoted, known=known, split=not quoted) for text, known in pieces if text]


def merge_literals(segs: list[Segment]) -> list[Segment]:
    out: list[Segment] = []
    for seg in segs:
        last = out[-1] if out else None
        if (
            last is not None
            and not seg.brk
            and not last.brk
            and seg.known
            and last.known
            and not seg.split
            and not last.split
            and seg.quoted == last.quoted
            and seg.text
            and last.text
        ):
            last.text += seg.text
        else:
            out.append(seg)
    return out


def text_segs(value: Text, quoted: bool) -> list[Segment]:
    """A value's segments; an unknown one keeps its known pieces splittable."""
    if value.known or not value.parts:
        return [Segment(value.text, quoted, known=value.known, split=not quoted)]
    return [Segment(text, quoted, known=known, split=not quoted) for text, known in value.parts]


def join_segments(segs: list[Segment], separator: str = " ") -> Text:
    parts: list[list[object]] = []
    for seg in segs:
        text, known = (separator, True) if seg.brk else (seg.text, seg.known)
        if parts and parts[-1][1] == known:
            parts[-1][0] = f"{parts[-1][0]}{text}"
        else:
            parts.append([text, known])
    whole = "".join(str(text) for text, _ in parts)
    if all(known for _, known in parts):
        return Text(whole)
    prefix = str(parts[0][0]) if parts[0][1] else ""
    pieces = tuple((str(text), bool(known)) for text, known in parts)
    return Text(whole, known=False, prefix=prefix, parts=pieces)


def assemble(segs: list[Segment], line: int, ifs: str) -> list[Field]:
    builder = _FieldBuilder(line, ifs)
    for seg in segs:
        if seg.brk:
            builder.flush()
        elif seg.split and seg.known:
            builder.split(seg.text)
        else:
            builder.add(seg)
    builder.flush()
    return builder.fields


class _FieldBuilder:
    """Joins segments into fields, splitting unquoted known expansions on IFS."""

    def __init__(self, line: int, ifs: str) -> None:
        self.line, self.ifs = line, ifs
        self.fields: list[Field] = []
        self.current: list[Segment] | None = None

    def add(self, seg: Segment) -> None:
        self.current = [*(self.current or []), seg]

    def flush(self) -> None:
        if self.current is not None:
            text = join_segments(self.current, separator="")
            prefix = "" if text.known else text.prefix
            single = not any(seg.split and not seg.known for seg in self.current)
            self.fields.append(Field(text.text, text.known, prefix, self.line, text.parts, single))
        self.current = None

    def split(self, text: str) -> None:
        if not text:
            return
        if text[0] in self.ifs:
            self.flush()
        for n, piece in enumerate(_ifs_split(text, self.ifs)):
            if n:
                self.flush()
            self.add(Segment(piece, False))
        if text[-1] in self.ifs:
            self.flush()


def _ifs_split(text: str, ifs: str) -> list[str]:
    if not ifs:
        return [text]
    pieces: list[str] = []
    word: list[str] = []
    for char in text:
        if char in ifs:
            if word or not char.isspace():
                pieces.append("".join(word))
            word = []
        else:
            word.append(char)
    if word:
        pieces.append("".join(word))
    return pieces
