"""Fields: the pieces one expanded word is made of (segments), joined and split on IFS.

A segment is literal or expanded text, quoted or not, known or not; unquoted known expansions
are split into fields, and `brk` marks the boundary between `"${A[@]}"` items.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from signoff.parse.shell.printf import Parts
from signoff.parse.shell.values import Text


@dataclass(slots=True, unsafe_hash=True)  # immutable: values.IMMUTABLE
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


def joined(words: Sequence[Field], between: str = " ") -> Field:
    """Words as one text, on the first word's line; known only at run time (and perhaps several
    fields) when any of them is."""
    known = all(w.known for w in words)
    return Field(between.join(w.text for w in words), known, "", words[0].line, single=known)


def split_pieces(
    pieces: Sequence[tuple[str, bool]], separator: re.Pattern[str]
) -> list[tuple[tuple[str, bool], ...]]:
    """A list's entries from its (text, known) pieces: the known pieces split where the
    separator stands, a run-time piece kept whole within the entry it stands in; empty
    entries (`a::b`) are left out."""
    entries: list[list[tuple[str, bool]]] = [[]]
    for text, known in pieces:
        for index, piece in enumerate(separator.split(text) if known else [text]):
            if index:
                entries.append([])
            if piece:
                entries[-1].append((piece, known))
    return [tuple(entry) for entry in entries if entry]


def of_pieces(pieces: Sequence[tuple[str, bool]], line: int) -> Field:
    """One field of (text, known) pieces: known when every piece is, else with its literal
    prefix and its pieces (so a known tail still names a path)."""
    text = "".join(piece for piece, _ in pieces)
    first = next((i for i, (_, known) in enumerate(pieces) if not known), None)
    if first is None:
        return Field(text, True, text, line)
    prefix = "".join(piece for piece, _ in pieces[:first])
    return Field(text, False, prefix, line, tuple(pieces))


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
    joined: list[str] = []  # texts merged into out[-1], joined once (`+=` on an attribute copies)
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
            joined.append(seg.text)
        else:
            if joined and last is not None:
                last.text += "".join(joined)
                joined = []
            out.append(seg)
    if joined:
        out[-1].text += "".join(joined)
    return out


def text_segs(value: Text, quoted: bool) -> list[Segment]:
    """A value's segments; an unknown one keeps its known pieces splittable."""
    if value.known or not value.parts:
        return [Segment(value.text, quoted, known=value.known, split=not quoted)]
    return [Segment(text, quoted, known=known, split=not quoted) for text, known in value.parts]


def join_segments(segs: list[Segment], separator: str = " ") -> Text:
    if len(segs) == 1 and not segs[0].brk:  # most words are one piece
        seg = segs[0]
        if seg.known:
            return Text(seg.text)
        return Text(seg.text, known=False, prefix="", parts=((seg.text, False),))
    texts: list[list[str]] = []  # runs of pieces alike in being known
    knowns: list[bool] = []
    for seg in segs:
        text, known = (separator, True) if seg.brk else (seg.text, bool(seg.known))
        if knowns and knowns[-1] == known:
            texts[-1].append(text)
        else:
            texts.append([text])
            knowns.append(known)
    joined = ["".join(run) for run in texts]
    whole = "".join(joined)
    if all(knowns):
        return Text(whole)
    prefix = joined[0] if knowns[0] else ""
    return Text(whole, known=False, prefix=prefix, parts=tuple(zip(joined, knowns, strict=True)))


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
        if self.current is None:
            self.current = [seg]
        else:
            self.current.append(seg)

    def flush(self) -> None:
        current = self.current
        if current is not None and len(current) == 1 and current[0].known:
            self.fields.append(Field(current[0].text, True, "", self.line))  # the common case
        elif current is not None:
            text = join_segments(current, separator="")
            prefix = "" if text.known else text.prefix
            single = not any(seg.split and not seg.known for seg in current)
            self.fields.append(Field(text.text, text.known, prefix, self.line, text.parts, single))
        self.current = None

    def split(self, text: str) -> None:
        if not text:
            return
        if text[0] in self.ifs:
            self.flush()
        for n, piece in enumerate(ifs_split(text, self.ifs)):
            if n:
                self.flush()
            self.add(Segment(piece, False))
        if text[-1] in self.ifs:
            self.flush()


def ifs_split(text: str, ifs: str) -> list[str]:
    """The pieces an unquoted known expansion splits into on `ifs` (as bash splits it)."""
    if not ifs:
        return [text]
    if ifs == " \t\n":  # the default: runs of these blanks separate, and none is a field
        return [piece for piece in text.replace("\t", " ").replace("\n", " ").split(" ") if piece]
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
