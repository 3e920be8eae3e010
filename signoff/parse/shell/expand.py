"""Expand one shell word the way bash would, as far as the bound values allow.

Quotes, escapes, `$NAME`, `${NAME op word}` (defaults, assignment, alternatives, lengths,
prefix/suffix removal, replacement, substrings, case changes, indirection, arrays), `$(( ))`,
`$( )` and backticks, after brace expansion (`shell.brace`). Unquoted expansions are split into
fields; `"${A[@]}"` and `"$@"` give one field per item, so a quoted JSON item stays one
argument. A part the reader cannot know (a command's output, a variable from the runner's
environment) stays unknown and keeps the text it was written as; the field records the literal
text before it (`prefix`), which is what a check may still rely on. Expansions nested deeper
than `MAX_DEPTH` are reported, not followed.
"""

from __future__ import annotations

import re
import shlex
from typing import Protocol

from signoff.parse.shell import arith, wildcards
from signoff.parse.shell.brace import brace_expand
from signoff.parse.shell.escapes import ansi_c_end, decode
from signoff.parse.shell.evaluated import prompt_runs, subscript_runs
from signoff.parse.shell.fields import (
    Field,
    Segment,
    assemble,
    ifs_split,
    join_segments,
    merge_literals,
    substituted,
    text_segs,
)
from signoff.parse.shell.printf import Parts
from signoff.parse.shell.scan import NAME
from signoff.parse.shell.script_files import reads_program_from_input
from signoff.parse.shell.values import FROM_ENVIRONMENT, Array, Text, Value, unknown

MAX_DEPTH = 16
# Fields one command's words make before more count as work, and fields counted as one step
# (a real launch command makes 40 to 80, its array built item by item as many; most fewer
# than ten)
FIELDS_FREE = 128
FIELDS_PER_STEP = 2
_SPECIAL = "@*#?$!-0123456789"
_SPECIAL_CHAR = re.compile(r"[\\'\"$`]")  # a character that quotes or starts an expansion
_NOT_LITERAL = re.compile(r"[\\'\"$`{]")  # ... or may start a brace expansion
_PLAIN = re.compile(r"[^\\'\"$`]+")  # characters no expansion or quoting starts at
_PLAIN_QUOTED = re.compile(r"[^\\\"$`]+")  # the same inside double quotes, where `'` is plain
_PROCESS = ("<(", ">(")  # a process substitution opening an unquoted word
_BARE_VARIABLE = re.compile(r"\$[A-Za-z_][A-Za-z0-9_]*")  # `$NAME`, unquoted, nothing else
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

    # Count the characters an expansion produced against the reading's bound (see `produced`).
    def produced(self, chars: int) -> None: ...


class Expander:
    """Expands the words of one command (a fresh one per command and per substitution)."""

    def __init__(self, hooks: Hooks) -> None:
        self.hooks = hooks
        self.undecided = ""  # why the substitutions being expanded may not run ("": they do)
        self.made = 0  # fields this command's words have made
        self.charged = 0  # of those, the steps already counted (see `_count`)

    # --- public -------------------------------------------------------------------------------

    def fields(self, raw: str, offset: int, line: int) -> list[Field]:
        """The fields a command word becomes (brace-expanded, split, arrays one item per
        field)."""
        if raw and is_literal(raw):
            return [Field(raw, True, "", line)]  # the common case: one field, as written
        if _BARE_VARIABLE.fullmatch(raw) is not None:  # `$NAME` alone: its value's IFS fields
            value = self.hooks.lookup(raw[1:])
            if isinstance(value, Text) and value.known and value is not FROM_ENVIRONMENT:
                pieces = ifs_split(value.text, self._ifs()) if value.text else []
                fields = [Field(piece, True, "", line) for piece in pieces]
                self._count(fields)
                return fields
        words = brace_expand(raw)
        if words is None:
            self.hooks.problem(f"a brace expansion could not be read ({raw[:40]})")
            words = [raw]
        if len(words) > 1:
            self.hooks.charge(len(words) - 1)
        out: list[Field] = []
        for word in words:
            fields = assemble(self._segments(word, offset, 0), line, self._ifs())
            self._count(fields)
            out += fields
        return out

    def _count(self, fields: list[Field]) -> None:
        """Fields are work: their text (`Hooks.produced`), and past `FIELDS_FREE` fields in
        one command, a step per `FIELDS_PER_STEP` more (a thousand one-letter words, or an
        array doubled in a loop, are cheap in text and dear in fields)."""
        self.hooks.produced(sum(len(field.text) for field in fields))
        self.made += len(fields)
        due = max(self.made - FIELDS_FREE, 0) // FIELDS_PER_STEP - self.charged
        if due > 0:
            self.charged += due
            self.hooks.charge(due)

    def value(self, raw: str, offset: int) -> Text:
        """An assignment's value or a `[[ ]]` operand: expanded, never split."""
        text = join_segments(self._segments(raw, offset, 0))
        self.hooks.produced(len(text.text))
        return text

    def pattern(self, raw: str, offset: int) -> tuple[str, bool]:
        """A glob pattern: quoted parts escaped; (pattern, whether it is fully known)."""
        parts: list[str] = []
        known = True
        for seg in self._segments(raw, offset, 0):
            known = known and seg.known
            parts.append(wildcards.escape(seg.text) if seg.quoted else seg.text)
        pattern = "".join(parts)
        self.hooks.produced(len(pattern))
        return pattern, known

    def arithmetic(self, expression: str, offset: int) -> int | None:
        text = join_segments(self._segments(expression, offset, 1, in_quotes=True))
        if not text.known or self._runs_code(text.text):
            return None
        return arith.evaluate(text.text, self._arith_lookup, self._arith_assign)

    def evaluated(self, text: str) -> int | None:
        """Arithmetic on text already expanded (`let`'s arguments, an integer variable's
        value); None when it is unknown or a subscript would run a command (the caller's
        problem: shell.evaluated)."""
        if subscript_runs(text):
            return None
        return arith.evaluate(text, self._arith_lookup, self._arith_assign)

    def _runs_code(self, text: str, what: str = "arithmetic") -> bool:
        """Arithmetic on `text` (or a name it holds) would run a command (shell.evaluated):
        a problem."""
        if not subscript_runs(text):
            return False
        self.hooks.problem(f"{what} evaluates `{text[:60]}`, whose subscript runs a command")
        return True

    # --- segments ----------------------------------------------------------------------------

    def _segments(
        self, raw: str, offset: int, depth: int, *, in_quotes: bool = False
    ) -> list[Segment]:
        if depth > MAX_DEPTH:
            self.hooks.problem(f"expansion nested deeper than {MAX_DEPTH} levels")
            return [Segment(raw, in_quotes, known=False)]
        if _SPECIAL_CHAR.search(raw) is None and (in_quotes or raw[:2] not in _PROCESS):
            return [Segment(raw, in_quotes)] if raw else []  # nothing to expand: the common case
        out: list[Segment] = []
        i, quoted, opened, array_in_quotes = 0, in_quotes, 0, False
        while i < len(raw):
            char = raw[i]
            if char == "\\" and i + 1 < len(raw):
                i = self._escape(raw, i, quoted, out)
            elif char == "'" and not quoted:
                stop = _end(raw.find("'", i + 1), raw)
                out.append(Segment(raw[i + 1 : stop], True))
                i = stop + 1
            elif char == '"' and not in_quotes:
                if quoted and len(out) == opened and not array_in_quotes:
                    out.append(Segment("", True))  # "" is an empty argument, not nothing
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
                out.extend(substituted(raw[i : stop + 1], printed, quoted))
                i = stop + 1
            else:  # a run of plain characters is one literal (merge_literals would join them)
                plain = (_PLAIN_QUOTED if quoted else _PLAIN).match(raw, i)
                stop = plain.end() if plain is not None else i + 1
                out.append(Segment(raw[i:stop], quoted))
                i = stop
        return merge_literals(out)

    def _process_substitution(self, raw: str, offset: int, out: list[Segment]) -> int:
        """`<(cmd)` / `>(cmd)`: its commands run (as a `$( )`'s do); the word is a path
        (`/dev/fd/63`) known only at run time."""
        stop = _matching(raw, 1, "(", ")")
        if raw.startswith(">(") and _reads_its_input(raw[2 : stop - 1]):
            self.hooks.problem(f"{raw[:stop][:60]} runs what the script writes into it")
        self.hooks.substitute(offset + 2, raw[2 : stop - 1], self.undecided)
        out.append(Segment(raw[:stop], False, known=False))
        return stop

    def _escape(self, raw: str, i: int, quoted: bool, out: list[Segment]) -> int:
        nxt = raw[i + 1]
        if nxt == "\n":
            return i + 2
        if quoted and nxt not in '"\\$`':
            out.append(Segment("\\" + nxt, True))
        else:
            out.append(Segment(nxt, True))
        return i + 2

    def _dollar(
        self, raw: str, i: int, offset: int, depth: int, quoted: bool, out: list[Segment]
    ) -> int:
        if raw.startswith("$((", i):
            stop = _matching(raw, i + 1, "(", ")")
            value = self.arithmetic(raw[i + 3 : stop - 2], offset + i + 3)
            text = raw[i:stop] if value is None else str(value)
            out.append(Segment(text, quoted, known=value is not None, split=not quoted))
            return stop
        if raw.startswith("$[", i):  # bash's older spelling of `$(( ))`
            stop = _matching(raw, i + 1, "[", "]")
            value = self.arithmetic(raw[i + 2 : stop - 1], offset + i + 2)
            text = raw[i:stop] if value is None else str(value)
            out.append(Segment(text, quoted, known=value is not None, split=not quoted))
            return stop
        if raw.startswith("$(", i):
            stop = _matching(raw, i + 1, "(", ")")
            printed = self.hooks.substitute(offset + i + 2, raw[i + 2 : stop - 1], self.undecided)
            out.extend(substituted(raw[i:stop], printed, quoted))
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
                Segment(raw[i : stop + 1], True, known=False)
                if decoded is None
                else Segment(decoded, True)
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
        out.append(Segment("$", quoted))
        return i + 1

    # --- parameters --------------------------------------------------------------------------

    def _variable(self, name: str, written: str, quoted: bool, index: str) -> list[Segment]:
        value = self.hooks.lookup(name)
        if value is FROM_ENVIRONMENT:
            if index not in ("", "0", "@", "*"):
                self.arithmetic(index, 0)  # the subscript's assignments happen all the same
            return [Segment(written, quoted, known=False, split=not quoted)]
        if isinstance(value, Array):
            return self._array(value, written, quoted, index)
        if index in ("@", "*"):
            items = () if value is None else (value,)
            return self._items(items, written, quoted, star=index == "*")
        found, known = self._element(value, index)
        if not known:
            return [Segment(written, quoted, known=False, split=not quoted)]
        return text_segs(found or Text(""), quoted)

    def _array(self, array: Array, written: str, quoted: bool, index: str) -> list[Segment]:
        if index in ("@", "*") and (array.items or array.exact):
            return self._items(array.values(), written, quoted, star=index == "*")
        if index in ("@", "*"):  # (`mapfile -t A`: items known only at run time)
            return [Segment(written, quoted, known=False, split=not quoted)]
        found, known = self._element(array, index)
        if not known:
            return [Segment(written, quoted, known=False, split=not quoted)]
        return text_segs(found or Text(""), quoted)

    def _element(self, value: Value | None, index: str) -> tuple[Text | None, bool]:
        """The element `${NAME[index]}` names, and whether that is known: an indexed array's
        subscript and a string's are arithmetic (side effects included; a negative one counts
        from the end), an associative array's is expanded, a string is element 0. (None,
        True): no such element."""
        if isinstance(value, Array):
            key = index or "0"
            if value.assoc and not is_literal(key):  # `${M[$k]}`: the key as expanded
                expanded = self.value(key, 0)
                if not expanded.known:
                    return None, False
                key = expanded.text
            if not value.assoc and key not in dict(value.items):
                number = self.arithmetic(key, 0)
                if number is None:
                    return None, False
                if number < 0:
                    keys = [int(k) for k, _ in value.items if k.lstrip("-").isdigit()]
                    if not value.exact:
                        return None, False
                    number += max(keys, default=-1) + 1
                key = str(number)
            found = dict(value.items).get(key)
            return found, found is not None or value.exact
        if index in ("", "0") or not isinstance(value, Text | None):
            return value if isinstance(value, Text) else None, True
        number = self.arithmetic(index, 0)
        if number is None:
            return None, False
        return (value if number in (0, -1) else None), True

    def _items(
        self, items: tuple[Text, ...], written: str, quoted: bool, *, star: bool
    ) -> list[Segment]:
        if star and quoted:
            joined = _joined_items(items)
            return [Segment(joined.text, True, known=joined.known)]
        out: list[Segment] = []
        for n, item in enumerate(items):
            if n:
                out.append(Segment("", quoted, brk=True))
            out.extend(text_segs(item, quoted))
        if not items and quoted:
            out.append(Segment("", quoted, brk=True))  # "${EMPTY[@]}": no argument at all
        return out

    def _special(self, name: str, written: str, quoted: bool) -> list[Segment]:
        params = self.hooks.positional()
        if name in "@*" and params is not None:
            return self._items(params, written, quoted, star=name == "*")
        if name == "#" and params is not None:
            return [Segment(str(len(params)), quoted, split=not quoted)]
        if name.isdigit() and name != "0" and params is not None:
            n = int(name)
            value = params[n - 1] if n <= len(params) else Text("")
            return text_segs(value, quoted)
        return [Segment(written, quoted, known=False, split=not quoted)]

    def _braced(self, whole: str, offset: int, depth: int, quoted: bool) -> list[Segment]:
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
                return [Segment(whole, quoted, known=False, split=not quoted)]
            return self._indirect(inner[1:], whole, quoted)
        name, index, rest = _parameter_name(inner)
        if name is None:
            self.hooks.problem(f"unreadable parameter expansion {whole[:60]}")
            return [Segment(whole, quoted, known=False, split=not quoted)]
        if rest.startswith("@P"):  # prompt expansion runs the value's substitutions
            value = self._scalar(name, index)
            if isinstance(value, Text) and value.known and prompt_runs(value.text):
                self.hooks.problem(f"{whole[:60]} expands a prompt that runs a command")
        op = next((op for op in _OPS if rest.startswith(op)), None) if rest else ""
        if op is None:
            return [Segment(whole, quoted, known=False, split=not quoted)]
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
        if isinstance(value, Array) and index in ("@", "*"):
            return _joined_items(tuple(value.values()))
        if value is FROM_ENVIRONMENT or index in ("", "@", "*"):
            return value
        found, known = self._element(value, index)
        return found if known else unknown(f"${{{name}[{index}]}}")

    def _each(self, name: str, index: str) -> tuple[Text, ...] | None:
        """The elements an operator applies to one by one: an array's `[@]`/`[*]`, or the
        positional parameters `$@`/`$*` (None: one string, or not known)."""
        if name in ("@", "*"):
            return self.hooks.positional()
        if index not in ("@", "*"):
            return None
        value = self.hooks.lookup(name)
        return tuple(value.values()) if isinstance(value, Array) and value.exact else None

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
    ) -> list[Segment]:
        unknown_seg = [Segment(whole, quoted, known=False, split=not quoted)]
        operand_offset = offset + 2 + len(whole[2:-1]) - len(word)
        if op == ":" and (index in ("@", "*") or name in ("@", "*")):  # `${A[@]:1:2}`
            return self._slice(name, index, word, operand_offset, whole, quoted)
        items = self._each(name, index) if op not in _FALLBACKS else None
        if items is not None:  # `"${A[@]/#/-}"`, `"${@^^}"`: each element on its own
            changed = [self._transform(op, t.text, word, operand_offset, depth) for t in items]
            if any(c is None for c in changed) or not all(t.known for t in items):
                return unknown_seg
            star = name == "*" or index == "*"
            return self._items(tuple(Text(c or "") for c in changed), whole, quoted, star=star)
        value = self._scalar(name, index, guarded=op in _FALLBACKS)
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
        return [Segment(result, quoted, split=not quoted)]

    def _default(
        self,
        name: str,
        op: str,
        current: Text | None,
        word: str,
        offset: int,
        depth: int,
        quoted: bool,
    ) -> list[Segment]:
        is_set = current is not None and (current.text != "" or ":" not in op)
        if op in (":+", "+"):
            if not is_set:
                return [Segment("", quoted, split=not quoted)]
            return self._operand(word, offset, depth, quoted)
        if is_set and current is not None:
            return [Segment(current.text, quoted, split=not quoted)]
        if op in (":?", "?"):
            return [Segment("", quoted, split=not quoted)]  # bash would stop the script here
        segs = self._operand(word, offset, depth, quoted)
        if op in (":=", "="):
            self.hooks.assign(name, join_segments(segs))
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

    def _operand(self, word: str, offset: int, depth: int, quoted: bool) -> list[Segment]:
        segs = self._segments(word, offset, depth + 1, in_quotes=quoted)
        if not quoted:  # the operand's unquoted text is split like any unquoted expansion
            return [Segment(s.text, s.quoted, s.known, not s.quoted, s.brk) for s in segs]
        return [Segment(s.text, True, s.known, split=False, brk=s.brk) for s in segs]

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
            return wildcards.remove_affix(text, glob, suffix=suffix, longest=longest)
        new = join_segments(self._segments(replacement, offset, depth + 1))
        if not new.known:
            return None
        return wildcards.replace(text, glob, new.text, op[1:])

    def _pattern_of(self, raw: str, offset: int, depth: int) -> tuple[str, bool]:
        segs = self._segments(raw, offset, depth + 1)
        glob = "".join(wildcards.escape(s.text) if s.quoted else s.text for s in segs)
        return glob, all(s.known for s in segs)

    def _slice(
        self, name: str, index: str, word: str, offset: int, whole: str, quoted: bool
    ) -> list[Segment]:
        """`${A[@]:START:LENGTH}`, `${@:START}`: elements, not characters (a string is element
        0; `$@` counts `$0` first, known only at run time); a negative START counts from the
        end. Unknown when a bound or the elements are."""
        unknown_seg = [Segment(whole, quoted, known=False, split=not quoted)]
        start_text, colon, length_text = word.partition(":")
        start = self.arithmetic(start_text, offset) if start_text.strip() else 0
        length = self.arithmetic(length_text, offset) if colon else None
        if start is None or (colon and (length is None or length < 0)):
            return unknown_seg  # (a negative length is an error for elements)
        items: list[tuple[int, Text]]
        if name in ("@", "*"):
            params = self.hooks.positional()
            if params is None:
                return unknown_seg
            items = list(enumerate(params, start=1))
            top = len(params) + 1
        else:
            value = self.hooks.lookup(name)
            if isinstance(value, Array) and (value.assoc or not value.exact):
                return unknown_seg
            if isinstance(value, Array):
                items = sorted((int(k), v) for k, v in value.items if k.lstrip("-").isdigit())
            elif value is FROM_ENVIRONMENT or (isinstance(value, Text) and not value.known):
                return unknown_seg
            else:
                items = [] if value is None else [(0, value)]
            top = items[-1][0] + 1 if items else 0
        begin = start if start >= 0 else top + start
        if name in ("@", "*") and begin == 0:
            return unknown_seg  # `$0`, the script's name as the runner called it
        chosen = [v for k, v in items if k >= begin] if begin >= 0 else []
        star = name == "*" or index == "*"
        return self._items(tuple(chosen[:length] if length is not None else chosen), whole,
                           quoted, star=star)  # fmt: skip

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

    def _length(self, inner: str, whole: str, quoted: bool) -> Segment:
        name, index, rest = _parameter_name(inner)
        if name is None or rest:
            return Segment(whole, quoted, known=False, split=not quoted)
        if name in ("@", "*") or (index in ("@", "*") and name):
            value = self.hooks.lookup(name) if name not in ("@", "*") else None
            params = self.hooks.positional() if name in ("@", "*") else None
            if isinstance(value, Array) and value.exact:
                return Segment(str(len(value.items)), quoted, split=not quoted)
            if params is not None:
                return Segment(str(len(params)), quoted, split=not quoted)
            if isinstance(value, Text) and value is not FROM_ENVIRONMENT:
                return Segment("1", quoted, split=not quoted)
            return Segment(whole, quoted, known=False, split=not quoted)
        scalar = self._scalar(name, index)
        if scalar is None:
            return Segment("0", quoted, split=not quoted)
        if not isinstance(scalar, Text) or not scalar.known:
            return Segment(whole, quoted, known=False, split=not quoted)
        return Segment(str(len(scalar.text)), quoted, split=not quoted)

    def _indirect(self, inner: str, whole: str, quoted: bool) -> list[Segment]:
        target = self._scalar(inner, "")
        if isinstance(target, Text) and target.known and target is not FROM_ENVIRONMENT:
            self._runs_code(target.text, f"${{!{inner[:40]}}}")  # x='a[$(cmd)]'
        if _names_variable(target):
            assert isinstance(target, Text)
            return self._variable(target.text, whole, quoted, "")
        return [Segment(whole, quoted, known=False, split=not quoted)]

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
            return None if self._runs_code(value.text) else value.text
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


def is_literal(raw: str) -> bool:
    """Nothing in the word quotes, expands or brace-expands: it is its own text."""
    return _NOT_LITERAL.search(raw) is None and raw[:2] not in _PROCESS


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


def _reads_its_input(command: str) -> bool:
    """`>(bash)`: the command written in an output process substitution reads its program from
    what is written into it (its words as written; one that does not split is not that)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    return reads_program_from_input([Field(word, True, "", 0) for word in words])


def _joined_items(items: tuple[Text, ...]) -> Text:
    """Elements as one string, a space between each (`"${A[*]}"`)."""
    segs: list[Segment] = []
    for n, item in enumerate(items):
        if n:
            segs.append(Segment("", True, brk=True))
        segs.append(Segment(item.text, True, item.known))
    return join_segments(segs, separator=" ")


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
