"""Expand one shell word the way bash would, as far as the bound values allow.

Quotes, escapes, `$NAME`, `${NAME op word}` (defaults, assignment, alternatives, lengths,
prefix/suffix removal, replacement, substrings, case changes, indirection, arrays), `$(( ))`,
`$( )` and backticks, after brace expansion (`shell_brace`). Unquoted expansions are split into
fields; `"${A[@]}"` and `"$@"` give one field per item, so a quoted JSON item stays one
argument. A part the reader cannot know (a command's output, a variable from the runner's
environment) stays unknown and keeps the text it was written as; the field records the literal
text before it (`prefix`), which is what a check may still rely on. Expansions nested deeper
than `MAX_DEPTH` are reported, not followed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from signoff.parse import shell_arith, shell_glob
from signoff.parse.shell_brace import brace_expand
from signoff.parse.shell_escapes import ansi_c_end, decode
from signoff.parse.shell_printf import Parts
from signoff.parse.shell_scan import NAME
from signoff.parse.shell_values import FROM_ENVIRONMENT, Array, Text, Value, unknown

MAX_DEPTH = 16
_SPECIAL = "@*#?$!-0123456789"
_SPECIAL_CHARS = frozenset("\\'\"$`")
_PROCESS = ("<(", ">(")  # a process substitution opening an unquoted word
_INDIRECT_OP = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)((?::?[-=+?]).*)?", re.S)
_OPS = (
    ":-", ":=", ":+", ":?", "-", "=", "+", "?", "##", "#", "%%", "%", "//", "/#", "/%", "/",
    "^^", "^", ",,", ",", ":",
)  # fmt: skip
# The operators that give a value of their own when the variable is unset (`:?` stops instead)
_FALLBACKS = frozenset({":-", "-", ":=", "=", ":+", "+"})


class Hooks(Protocol):
    # None: unset. `guarded`: the read supplies its own value when the variable is unset
    # (`${X:-word}` and kin), so it expects that it may be.
    def lookup(self, name: str, *, guarded: bool = False) -> Value | None: ...

    def positional(self) -> tuple[Text, ...] | None: ...

    def assign(self, name: str, value: Text) -> None: ...

    # Run the commands of the $( ) whose inside (`inner`) starts at `offset`; the text it prints
    # when that is known for certain (a lone printf/echo of known words), or its (text, known)
    # pieces when known in part (a printf of a run-time word through `%s`), else None.
    # `why`: set when the substitution may not run (it sits in an operand that applies only
    # if a variable known at run time is unset): what it runs is then marked undecided.
    def substitute(self, offset: int, inner: str, why: str = "") -> str | Parts | None: ...

    def problem(self, what: str) -> None: ...

    # Count `steps` units of work against the reading's bound (words a brace expansion adds).
    def charge(self, steps: int) -> None: ...


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
class _Seg:
    text: str
    quoted: bool
    known: bool = True
    split: bool = False  # an unquoted expansion: split into fields
    brk: bool = False  # a field boundary ("${A[@]}" items)


class Expander:
    def __init__(self, hooks: Hooks) -> None:
        self.hooks = hooks
        self.undecided = ""  # why the substitutions being expanded may not run ("": they do)

    # --- public -------------------------------------------------------------------------------

    def fields(self, raw: str, offset: int, line: int) -> list[Field]:
        """The fields a command word becomes (brace-expanded, split, arrays one item per
        field)."""
        words = brace_expand(raw)
        if words is None:
            self.hooks.problem(f"a brace expansion could not be read ({raw[:40]})")
            words = [raw]
        if len(words) > 1:
            self.hooks.charge(len(words) - 1)
        out: list[Field] = []
        for word in words:
            out += _assemble(self._segments(word, offset, 0), line, self._ifs())
        return out

    def value(self, raw: str, offset: int) -> Text:
        """An assignment's value or a `[[ ]]` operand: expanded, never split."""
        return _joined(self._segments(raw, offset, 0))

    def pattern(self, raw: str, offset: int) -> tuple[str, bool]:
        """A glob pattern: quoted parts escaped; (pattern, whether it is fully known)."""
        parts: list[str] = []
        known = True
        for seg in self._segments(raw, offset, 0):
            known = known and seg.known
            parts.append(shell_glob.escape(seg.text) if seg.quoted else seg.text)
        return "".join(parts), known

    def arithmetic(self, expression: str, offset: int) -> int | None:
        text = _joined(self._segments(expression, offset, 1, in_quotes=True))
        if not text.known:
            return None
        return shell_arith.evaluate(text.text, self._arith_lookup, self._arith_assign)

    # --- segments ----------------------------------------------------------------------------

    def _segments(
        self, raw: str, offset: int, depth: int, *, in_quotes: bool = False
    ) -> list[_Seg]:
        if depth > MAX_DEPTH:
            self.hooks.problem(f"expansion nested deeper than {MAX_DEPTH} levels")
            return [_Seg(raw, in_quotes, known=False)]
        if not _SPECIAL_CHARS.intersection(raw) and (in_quotes or raw[:2] not in _PROCESS):
            return [_Seg(raw, in_quotes)] if raw else []  # nothing to expand: the common case
        out: list[_Seg] = []
        i, quoted, opened, array_in_quotes = 0, in_quotes, 0, False
        while i < len(raw):
            char = raw[i]
            if char == "\\" and i + 1 < len(raw):
                i = self._escape(raw, i, quoted, out)
            elif char == "'" and not quoted:
                stop = _end(raw.find("'", i + 1), raw)
                out.append(_Seg(raw[i + 1 : stop], True))
                i = stop + 1
            elif char == '"' and not in_quotes:
                if quoted and len(out) == opened and not array_in_quotes:
                    out.append(_Seg("", True))  # "" is an empty argument, not nothing
                quoted, opened, array_in_quotes = not quoted, len(out), False
                i += 1
            elif i == 0 and not quoted and raw[:2] in _PROCESS:
                i = self._process_substitution(raw, offset, out)
            elif char == "$":
                before = len(out)
                i = self._dollar(raw, i, offset, depth, quoted, out)
                array_in_quotes |= any(seg.brk for seg in out[before:])
            elif char == "`":
                stop = _end(raw.find("`", i + 1), raw)
                printed = self.hooks.substitute(offset + i + 1, raw[i + 1 : stop], self.undecided)
                out.extend(_substituted(raw[i : stop + 1], printed, quoted))
                i = stop + 1
            else:
                out.append(_Seg(char, quoted))
                i += 1
        return _merge_literals(out)

    def _process_substitution(self, raw: str, offset: int, out: list[_Seg]) -> int:
        """`<(cmd)` / `>(cmd)`: its commands run (as a `$( )`'s do); the word is a path
        (`/dev/fd/63`) known only at run time."""
        stop = _matching(raw, 1, "(", ")")
        self.hooks.substitute(offset + 2, raw[2 : stop - 1], self.undecided)
        out.append(_Seg(raw[:stop], False, known=False))
        return stop

    def _escape(self, raw: str, i: int, quoted: bool, out: list[_Seg]) -> int:
        nxt = raw[i + 1]
        if nxt == "\n":
            return i + 2
        if quoted and nxt not in '"\\$`':
            out.append(_Seg("\\" + nxt, True))
        else:
            out.append(_Seg(nxt, True))
        return i + 2

    def _dollar(
        self, raw: str, i: int, offset: int, depth: int, quoted: bool, out: list[_Seg]
    ) -> int:
        if raw.startswith("$((", i):
            stop = _matching(raw, i + 1, "(", ")")
            value = self.arithmetic(raw[i + 3 : stop - 2], offset + i + 3)
            text = raw[i:stop] if value is None else str(value)
            out.append(_Seg(text, quoted, known=value is not None, split=not quoted))
            return stop
        if raw.startswith("$(", i):
            stop = _matching(raw, i + 1, "(", ")")
            printed = self.hooks.substitute(offset + i + 2, raw[i + 2 : stop - 1], self.undecided)
            out.extend(_substituted(raw[i:stop], printed, quoted))
            return stop
        if raw.startswith("${", i):
            stop = _matching(raw, i + 1, "{", "}")
            out.extend(self._braced(raw[i:stop], offset + i, depth, quoted))
            return stop
        if raw.startswith("$'", i) and not quoted:
            stop = (ansi_c_end(raw, i + 2, len(raw)) or len(raw) + 1) - 1
            decoded = decode(raw[i + 2 : stop], "ansi")
            # an escape bash decodes in a way not read here: the word is known only at run time
            out.append(
                _Seg(raw[i : stop + 1], True, known=False)
                if decoded is None
                else _Seg(decoded, True)
            )
            return stop + 1
        if raw.startswith('$"', i) and not quoted:
            return i + 1  # a locale string is read as a double-quoted one
        match = NAME.match(raw, i + 1)
        if match is not None:
            out.extend(self._variable(match.group(0), raw[i : match.end()], quoted, ""))
            return match.end()
        special = raw[i + 1 : i + 2]
        if special and special in _SPECIAL:
            out.extend(self._special(special, raw[i : i + 2], quoted))
            return i + 2
        out.append(_Seg("$", quoted))
        return i + 1

    # --- parameters --------------------------------------------------------------------------

    def _variable(self, name: str, written: str, quoted: bool, index: str) -> list[_Seg]:
        value = self.hooks.lookup(name)
        if value is FROM_ENVIRONMENT:
            return [_Seg(written, quoted, known=False, split=not quoted)]
        if isinstance(value, Array):
            return self._array(value, written, quoted, index)
        if index in ("@", "*"):
            items = () if value is None else (value,)
            return self._items(items, written, quoted, star=index == "*")
        if value is None:
            return [_Seg("", quoted, split=not quoted)]
        if index not in ("", "0"):
            return [_Seg("", quoted, split=not quoted)]
        return _text_segs(value, quoted)

    def _array(self, array: Array, written: str, quoted: bool, index: str) -> list[_Seg]:
        if index in ("@", "*"):
            return self._items(array.values(), written, quoted, star=index == "*")
        key = index or "0"
        if not array.assoc and key not in dict(array.items):
            number = self.arithmetic(key, 0)
            if number is None:
                return [_Seg(written, quoted, known=False, split=not quoted)]
            key = str(number)
        found = dict(array.items).get(key)
        if found is None and not array.exact:
            return [_Seg(written, quoted, known=False, split=not quoted)]
        if found is None:
            return [_Seg("", quoted, split=not quoted)]
        return _text_segs(found, quoted)

    def _items(
        self, items: tuple[Text, ...], written: str, quoted: bool, *, star: bool
    ) -> list[_Seg]:
        if star and quoted:
            joined = _joined([_Seg(t.text, True, t.known) for t in items], separator=" ")
            return [_Seg(joined.text, True, known=joined.known)]
        out: list[_Seg] = []
        for n, item in enumerate(items):
            if n:
                out.append(_Seg("", quoted, brk=True))
            out.extend(_text_segs(item, quoted))
        if not items and quoted:
            out.append(_Seg("", quoted, brk=True))  # "${EMPTY[@]}": no argument at all
        return out

    def _special(self, name: str, written: str, quoted: bool) -> list[_Seg]:
        params = self.hooks.positional()
        if name in "@*" and params is not None:
            return self._items(params, written, quoted, star=name == "*")
        if name == "#" and params is not None:
            return [_Seg(str(len(params)), quoted, split=not quoted)]
        if name.isdigit() and name != "0" and params is not None:
            n = int(name)
            value = params[n - 1] if n <= len(params) else Text("")
            return _text_segs(value, quoted)
        return [_Seg(written, quoted, known=False, split=not quoted)]

    def _braced(self, whole: str, offset: int, depth: int, quoted: bool) -> list[_Seg]:
        inner = whole[2:-1]
        if inner.startswith("#") and len(inner) > 1:
            return [self._length(inner[1:], whole, quoted)]
        if inner.startswith("!") and len(inner) > 1:
            named = _INDIRECT_OP.fullmatch(inner[1:])
            if named is not None and named[2]:  # `${!NAME:-word}`: the operator on its target
                target = self._scalar(named[1], "")
                if _names_variable(target):
                    assert isinstance(target, Text)
                    again = "${" + target.text + named[2] + "}"
                    return self._braced(again, offset, depth, quoted)
                return [_Seg(whole, quoted, known=False, split=not quoted)]
            return self._indirect(inner[1:], whole, quoted)
        name, index, rest = _parameter_name(inner)
        if name is None:
            self.hooks.problem(f"unreadable parameter expansion {whole[:60]}")
            return [_Seg(whole, quoted, known=False, split=not quoted)]
        op = next((op for op in _OPS if rest.startswith(op)), None) if rest else ""
        if op is None:
            return [_Seg(whole, quoted, known=False, split=not quoted)]
        if not op:
            if name in _SPECIAL or name.isdigit():
                return self._special(name, whole, quoted)
            return self._variable(name, whole, quoted, index)
        word = rest[len(op) :]
        return self._operator(name, index, op, word, whole, offset, depth, quoted)

    def _scalar(self, name: str, index: str, *, guarded: bool = False) -> Text | object | None:
        """A parameter as one string: Text, None (unset) or FROM_ENVIRONMENT."""
        if name.isdigit():
            params = self.hooks.positional()
            if params is None:
                return FROM_ENVIRONMENT
            n = int(name)
            return params[n - 1] if 0 < n <= len(params) else None
        value = self.hooks.lookup(name, guarded=guarded)
        if isinstance(value, Array):
            if index in ("@", "*"):
                return _joined([_Seg(t.text, True, t.known) for t in value.values()], " ")
            return dict(value.items).get(index or "0")
        return value

    def _operator(
        self,
        name: str,
        index: str,
        op: str,
        word: str,
        whole: str,
        offset: int,
        depth: int,
        quoted: bool,
    ) -> list[_Seg]:
        value = self._scalar(name, index, guarded=op in _FALLBACKS)
        unknown_seg = [_Seg(whole, quoted, known=False, split=not quoted)]
        operand_offset = offset + 2 + len(whole[2:-1]) - len(word)
        if value is FROM_ENVIRONMENT or (isinstance(value, Text) and not value.known):
            why = f"`{whole[:60]}` (${name} is known only at run time)"
            self._may_run(word, operand_offset, depth, why)
            return unknown_seg
        current = value if isinstance(value, Text) else None
        if op in (":-", "-", ":=", "=", ":+", "+", ":?", "?"):
            return self._default(name, op, current, word, operand_offset, depth, quoted)
        if current is None:
            current = Text("")
        result = self._transform(op, current.text, word, operand_offset, depth)
        if result is None:
            return unknown_seg
        return [_Seg(result, quoted, split=not quoted)]

    def _default(
        self,
        name: str,
        op: str,
        current: Text | None,
        word: str,
        offset: int,
        depth: int,
        quoted: bool,
    ) -> list[_Seg]:
        is_set = current is not None and (current.text != "" or ":" not in op)
        if op in (":+", "+"):
            if not is_set:
                return [_Seg("", quoted, split=not quoted)]
            return self._operand(word, offset, depth, quoted)
        if is_set and current is not None:
            return [_Seg(current.text, quoted, split=not quoted)]
        if op in (":?", "?"):
            return [_Seg("", quoted, split=not quoted)]  # bash would stop the script here
        segs = self._operand(word, offset, depth, quoted)
        if op in (":=", "="):
            self.hooks.assign(name, _joined(segs))
        return segs

    def _may_run(self, word: str, offset: int, depth: int, why: str) -> None:
        """The commands an operand's substitutions run when bash expands it, read as
        undecided: whether it is expanded depends on a value known only at run time."""
        if "$(" not in word and "`" not in word:
            return
        outer, self.undecided = self.undecided, self.undecided or why
        try:
            self._segments(word, offset, depth + 1)
        finally:
            self.undecided = outer

    def _operand(self, word: str, offset: int, depth: int, quoted: bool) -> list[_Seg]:
        segs = self._segments(word, offset, depth + 1, in_quotes=quoted)
        if not quoted:  # the operand's unquoted text is split like any unquoted expansion
            return [_Seg(s.text, s.quoted, s.known, not s.quoted, s.brk) for s in segs]
        return [_Seg(s.text, True, s.known, split=False, brk=s.brk) for s in segs]

    def _transform(self, op: str, text: str, word: str, offset: int, depth: int) -> str | None:
        if op in ("^^", "^", ",,", ","):
            if op in ("^", ","):
                head = text[:1].upper() if op == "^" else text[:1].lower()
                return head + text[1:]
            return text.upper() if op == "^^" else text.lower()
        if op == ":":
            return self._substring(text, word, offset)
        pattern, replacement = word, ""
        if op.startswith("/"):
            pattern, _, replacement = _split_replacement(word)
        glob, known = self._pattern_of(pattern, offset, depth)
        if not known:
            return None
        if op in ("#", "##", "%", "%%"):
            suffix, longest = op.startswith("%"), len(op) == 2
            return shell_glob.remove_affix(text, glob, suffix=suffix, longest=longest)
        new = _joined(self._segments(replacement, offset, depth + 1))
        if not new.known:
            return None
        return shell_glob.replace(text, glob, new.text, op[1:])

    def _pattern_of(self, raw: str, offset: int, depth: int) -> tuple[str, bool]:
        segs = self._segments(raw, offset, depth + 1)
        glob = "".join(shell_glob.escape(s.text) if s.quoted else s.text for s in segs)
        return glob, all(s.known for s in segs)

    def _substring(self, text: str, word: str, offset: int) -> str | None:
        start_text, _, length_text = word.partition(":")
        start = self.arithmetic(start_text, offset)
        if start is None:
            return None
        start = max(len(text) + start, 0) if start < 0 else start
        if not length_text:
            return text[start:]
        length = self.arithmetic(length_text, offset)
        if length is None:
            return None
        end = len(text) + length if length < 0 else start + length
        return text[start:end]

    def _length(self, inner: str, whole: str, quoted: bool) -> _Seg:
        name, index, rest = _parameter_name(inner)
        if name is None or rest:
            return _Seg(whole, quoted, known=False, split=not quoted)
        if name in ("@", "*") or (index in ("@", "*") and name):
            value = self.hooks.lookup(name) if name not in ("@", "*") else None
            params = self.hooks.positional() if name in ("@", "*") else None
            if isinstance(value, Array) and value.exact:
                return _Seg(str(len(value.items)), quoted, split=not quoted)
            if params is not None:
                return _Seg(str(len(params)), quoted, split=not quoted)
            if isinstance(value, Text) and value is not FROM_ENVIRONMENT:
                return _Seg("1", quoted, split=not quoted)
            return _Seg(whole, quoted, known=False, split=not quoted)
        scalar = self._scalar(name, index)
        if scalar is None:
            return _Seg("0", quoted, split=not quoted)
        if not isinstance(scalar, Text) or not scalar.known:
            return _Seg(whole, quoted, known=False, split=not quoted)
        return _Seg(str(len(scalar.text)), quoted, split=not quoted)

    def _indirect(self, inner: str, whole: str, quoted: bool) -> list[_Seg]:
        target = self._scalar(inner, "")
        if _names_variable(target):
            assert isinstance(target, Text)
            return self._variable(target.text, whole, quoted, "")
        return [_Seg(whole, quoted, known=False, split=not quoted)]

    # --- helpers -----------------------------------------------------------------------------

    def _ifs(self) -> str:
        value = self.hooks.lookup("IFS")
        if isinstance(value, Text) and value.known and value is not FROM_ENVIRONMENT:
            return value.text
        return " \t\n"

    def _arith_lookup(self, name: str) -> str | None:
        value = self._scalar(name, "")
        if value is None:
            return ""
        if isinstance(value, Text) and value.known and value is not FROM_ENVIRONMENT:
            return value.text
        return None

    def _arith_assign(self, name: str, value: int | None) -> None:
        self.hooks.assign(name, Text(str(value)) if value is not None else unknown(f"${name}"))


# --- module helpers -------------------------------------------------------------------------


def _names_variable(target: object) -> bool:
    """A known value that is a variable's name (the target of `${!NAME}`)."""
    return (
        isinstance(target, Text)
        and target.known
        and target is not FROM_ENVIRONMENT
        and NAME.fullmatch(target.text) is not None
    )


def _substituted(written: str, printed: str | Parts | None, quoted: bool) -> list[_Seg]:
    """A command substitution: its output when known (trailing newlines dropped, as the shell
    does), its pieces when known in part (the run-time ones as written), else the text as
    written, unknown."""
    if printed is None:
        return [_Seg(written, quoted, known=False, split=not quoted)]
    if isinstance(printed, str):
        return [_Seg(printed.rstrip("\n"), quoted, split=not quoted)]
    pieces = list(printed)
    if pieces and pieces[-1][1]:
        pieces[-1] = (pieces[-1][0].rstrip("\n"), True)
    return [_Seg(text, quoted, known=known, split=not quoted) for text, known in pieces if text]


def _end(found: int, raw: str) -> int:
    return len(raw) if found < 0 else found


def _matching(raw: str, i: int, open_: str, close: str) -> int:
    """Index after the `close` matching the `open_` at `i`, skipping quoted text."""
    depth, j = 0, i
    while j < len(raw):
        char = raw[j]
        if char == "\\":
            j += 2
            continue
        if char == "'" and open_ == "(":
            j = _end(raw.find("'", j + 1), raw) + 1
            continue
        if char == open_:
            depth += 1
        elif char == close:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return len(raw)


def _parameter_name(inner: str) -> tuple[str | None, str, str]:
    """(name, array index, the rest) of `${...}`'s inside."""
    match = NAME.match(inner)
    if match is None:
        if inner[:1] and inner[:1] in _SPECIAL:
            digits = len(inner) - len(inner.lstrip("0123456789")) if inner[0].isdigit() else 1
            return inner[:digits], "", inner[digits:]
        return None, "", inner
    name, rest = match.group(0), inner[match.end() :]
    if rest.startswith("["):
        close = rest.find("]")
        if close < 0:
            return None, "", inner
        return name, rest[1:close], rest[close + 1 :]
    return name, "", rest


def _split_replacement(word: str) -> tuple[str, str, str]:
    i = 0
    while i < len(word):
        if word[i] == "\\":
            i += 2
            continue
        if word[i] == "/":
            return word[:i], "/", word[i + 1 :]
        i += 1
    return word, "", ""


def _merge_literals(segs: list[_Seg]) -> list[_Seg]:
    out: list[_Seg] = []
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


def _text_segs(value: Text, quoted: bool) -> list[_Seg]:
    """A value's segments; an unknown one keeps its known pieces splittable."""
    if value.known or not value.parts:
        return [_Seg(value.text, quoted, known=value.known, split=not quoted)]
    return [_Seg(text, quoted, known=known, split=not quoted) for text, known in value.parts]


def _joined(segs: list[_Seg], separator: str = " ") -> Text:
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


def _assemble(segs: list[_Seg], line: int, ifs: str) -> list[Field]:
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
        self.current: list[_Seg] | None = None

    def add(self, seg: _Seg) -> None:
        self.current = [*(self.current or []), seg]

    def flush(self) -> None:
        if self.current is not None:
            text = _joined(self.current, separator="")
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
            self.add(_Seg(piece, False))
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
