"""Decide `test`/`[ ]` and `[[ ]]` conditions from the bound values: True, False or None.

None means the condition depends on something the reader cannot know (a file, a command's
output, a variable from the runner's environment, a regex, a locale-dependent ordering); the
evaluator then keeps both arms. `[ ]` follows POSIX's argument-count rules on the expanded
fields; `[[ ]]` is parsed from its words (no field splitting, `==`/`!=` match glob patterns,
integer operators take arithmetic). Nesting is bounded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from signoff.parse.shell.evaluated import subscript_runs
from signoff.parse.shell.expand import Expander
from signoff.parse.shell.fields import Field
from signoff.parse.shell.values import Text
from signoff.parse.shell.wildcards import match as glob_match
from signoff.parse.shell.wildcards import matches_everything

Tri = bool | None
MAX_DEPTH = 32
_INTEGER = {"-eq": "==", "-ne": "!=", "-lt": "<", "-le": "<=", "-gt": ">", "-ge": ">="}
_STRING = frozenset({"=", "==", "!=", "<", ">", "=~", "-nt", "-ot", "-ef"})


def both(a: Tri, b: Tri) -> Tri:
    if a is False or b is False:
        return False
    return True if a is True and b is True else None


def either(a: Tri, b: Tri) -> Tri:
    if a is True or b is True:
        return True
    return False if a is False and b is False else None


def negate(a: Tri) -> Tri:
    return None if a is None else not a


def _nonempty(value: Field | Text) -> Tri:
    if value.known:
        return value.text != ""
    return True if value.prefix else None


# --- [ ] and test ---------------------------------------------------------------------------


def single_bracket(args: Sequence[Field], is_set: Callable[[str], Tri]) -> Tri:
    """`test ARGS` / `[ ARGS ]` (the brackets removed)."""
    if len(args) > 64:
        return None
    return _posix(list(args), is_set, 0)


def _posix(args: list[Field], is_set: Callable[[str], Tri], depth: int) -> Tri:
    if depth > MAX_DEPTH:
        return None
    if len(args) == 0:
        return False
    if len(args) == 1:
        return _nonempty(args[0])
    ops = [a.text if a.known else None for a in args]
    if len(args) == 2:
        if ops[0] == "!":
            return negate(_nonempty(args[1]))
        return _unary(ops[0], args[1], is_set)
    if len(args) == 3:
        if ops[1] in _STRING or ops[1] in _INTEGER or ops[1] in ("-a", "-o"):
            return _binary_fields(args[0], ops[1], args[2])
        if ops[0] == "(" and ops[2] == ")":
            return _nonempty(args[1])
    if len(args) in (3, 4) and ops[0] == "!":
        return negate(_posix(args[1:], is_set, depth + 1))
    if len(args) >= 3 and ops[0] == "(" and ops[-1] == ")" and "-a" not in ops and "-o" not in ops:
        return _posix(args[1:-1], is_set, depth + 1)
    return _connectives(args, ops, is_set, depth)


def _connectives(
    args: list[Field], ops: list[str | None], is_set: Callable[[str], Tri], depth: int
) -> Tri:
    for connective, combine in (("-o", either), ("-a", both)):
        for i in range(len(args) - 2, 0, -1):
            if ops[i] == connective:
                left = _posix(args[:i], is_set, depth + 1)
                return combine(left, _posix(args[i + 1 :], is_set, depth + 1))
    return None


def _unary(op: str | None, operand: Field | Text, is_set: Callable[[str], Tri]) -> Tri:
    if op == "-n":
        return _nonempty(operand)
    if op == "-z":
        return negate(_nonempty(operand))
    if op == "-v" and operand.known:
        return is_set(operand.text)
    return None  # file tests, -o, -t: about the machine, not the script


def _binary_fields(left: Field, op: str | None, right: Field) -> Tri:
    if op in ("-a", "-o"):
        combine = both if op == "-a" else either
        return combine(_nonempty(left), _nonempty(right))
    if op is None or not (left.known and right.known):
        return None
    if op in _INTEGER:
        a, b = _integer(left.text), _integer(right.text)
        if a is None or b is None:
            return None
        return _compare(_INTEGER[op], a, b)
    if op in ("=", "=="):
        return left.text == right.text
    if op == "!=":
        return left.text != right.text
    return None  # <, > (locale order), file comparisons


def _integer(text: str) -> int | None:
    stripped = text.strip()
    body = stripped[1:] if stripped[:1] in "+-" else stripped
    if not body.isdigit() or not body.isascii():
        return None
    return int(stripped)


def _compare(op: str, a: int, b: int) -> bool:
    return {
        "==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b,
    }[op]  # fmt: skip


# --- [[ ]] ----------------------------------------------------------------------------------


class DoubleBracket:
    """`[[ ... ]]` over raw words: && || ! ( ) unary and binary operators."""

    def __init__(
        self,
        words: Sequence[tuple[str, int]],
        expander: Expander,
        is_set: Callable[[str], Tri],
    ) -> None:
        self.words, self.expander, self.is_set = list(words), expander, is_set
        self.i = 0

    def evaluate(self) -> Tri:
        if not self.words or len(self.words) > 256:
            return None
        result = self._or(0)
        return result if self.i == len(self.words) else None

    def _peek(self, ahead: int = 0) -> str | None:
        index = self.i + ahead
        return self.words[index][0] if index < len(self.words) else None

    def _or(self, depth: int) -> Tri:
        result = self._and(depth)
        while self._peek() == "||":
            self.i += 1
            result = either(result, self._and(depth))
        return result

    def _and(self, depth: int) -> Tri:
        result = self._not(depth)
        while self._peek() == "&&":
            self.i += 1
            result = both(result, self._not(depth))
        return result

    def _not(self, depth: int) -> Tri:
        if depth > MAX_DEPTH:
            self.i = len(self.words) + 1  # give up: the caller sees an unconsumed expression
            return None
        if self._peek() == "!":
            self.i += 1
            return negate(self._not(depth + 1))
        if self._peek() == "(":
            self.i += 1
            result = self._or(depth + 1)
            if self._peek() != ")":
                self.i = len(self.words) + 1
                return None
            self.i += 1
            return result
        return self._primary()

    def _primary(self) -> Tri:
        first, second = self._peek(), self._peek(1)
        if first is None:
            return None
        if second is not None and (second in _STRING or second in _INTEGER):
            return self._binary()
        if first.startswith("-") and len(first) == 2 and second not in (None, "&&", "||", ")"):
            self.i += 2
            operand = self._value(self.i - 1)
            if first == "-v" and operand.known and _runs_code(self.expander, operand.text):
                return None  # `[[ -v 'a[$(cmd)]' ]]`
            return _unary(first, operand, self.is_set)
        self.i += 1
        return _nonempty(self._value(self.i - 1))

    def _binary(self) -> Tri:
        left, op, right_index = self._value(self.i), self._peek(1), self.i + 2
        self.i += 3
        if right_index >= len(self.words) or op is None:
            self.i = len(self.words) + 1
            return None
        if op in ("==", "=", "!="):
            pattern, known = self.expander.pattern(*self.words[right_index])
            if known and matches_everything(pattern):
                return op != "!="
            if not (known and left.known):
                return None
            matched = glob_match(pattern, left.text)
            return matched if op != "!=" or matched is None else not matched
        if op in _INTEGER:
            a = self._arith(left)
            b = self._arith(self._value(right_index))
            return None if a is None or b is None else _compare(_INTEGER[op], a, b)
        return None  # =~ (a regex from the script is never run), <, >, file comparisons

    def _value(self, index: int) -> Text:
        raw, offset = self.words[index]
        return self.expander.value(raw, offset)

    def _arith(self, value: Text) -> int | None:
        if not value.known or _runs_code(self.expander, value.text):
            return None
        return self.expander.evaluated(value.text)  # (`[[ 1 -eq X=1 ]]` assigns X)


def _runs_code(expander: Expander, text: str) -> bool:
    """`[[ $a -eq 1 ]]` with a='x[$(cmd)]' runs cmd (shell.evaluated): a problem."""
    if not subscript_runs(text):
        return False
    expander.hooks.problem(f"arithmetic evaluates `{text[:60]}`, whose subscript runs a command")
    return True
