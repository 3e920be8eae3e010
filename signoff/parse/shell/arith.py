"""Bash arithmetic (`$(( ))`, `(( ))`, `[[ -gt ]]`, array indexes) over 64-bit integers.

Operands that are unknown make the result unknown (None); so do division by zero, syntax the
reader does not follow and nesting deeper than `MAX_DEPTH`. Assignments (`i++`, `x += 2`) are
reported through a callback so the evaluator can record them. Results wrap like bash's int64,
and `**` / `<<` are computed modulo 2**64 so a hostile exponent cannot exhaust memory.
"""

from __future__ import annotations

import re
from collections.abc import Callable

MAX_DEPTH = 64
MAX_NAME_DEPTH = 8  # a variable whose value is itself an expression naming variables ...
_TOKEN = re.compile(
    r"\s*(?:(?P<num>0[xX][0-9a-fA-F]+|\d+#[0-9a-zA-Z@_]+|\d+)|(?P<name>[A-Za-z_]\w*)"
    r"|(?P<op>\*\*=?|<<=?|>>=?|&&|\|\||\+\+|--|[=!<>]=|[-+*/%&|^]=|[-+*/%<>=!~&|^?:(),]))"
)
_BINARY = {
    "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
    "<": 7, "<=": 7, ">": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9,
    "*": 10, "/": 10, "%": 10, "**": 11,
}  # fmt: skip
_ASSIGN = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|=", "**="})

Lookup = Callable[[str], str | None]  # a variable's text, None when unknown
Assign = Callable[[str, int | None], None]


class _Unknown(Exception):
    """The expression's value cannot be known from the bound values."""


def _wrap(value: int) -> int:
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


def evaluate(text: str, lookup: Lookup, assign: Assign | None = None) -> int | None:
    """The value of an arithmetic expression, or None when it cannot be known."""
    try:
        tokens = _tokenize(text)
        if not tokens:
            return 0
        parser = _Parser(tokens, lookup, assign, 0)
        value = parser.comma()
        if parser.i != len(tokens):
            return None
        return value
    except (_Unknown, ValueError, RecursionError):
        return None


def _tokenize(text: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    i = 0
    while i < len(text):
        if text[i:].strip() == "":
            break
        match = _TOKEN.match(text, i)
        if match is None or match.end() == i:
            raise _Unknown
        kind = match.lastgroup or ""
        tokens.append((kind, match.group(kind)))
        i = match.end()
    return tokens


def _number(text: str) -> int:
    if text.lower().startswith("0x"):
        return int(text, 16)
    if "#" in text:
        base, digits = text.split("#", 1)
        if not 2 <= int(base) <= 36:
            raise _Unknown
        return int(digits, int(base))
    if len(text) > 1 and text.startswith("0"):
        return int(text, 8)
    return int(text)


class _Parser:
    def __init__(
        self, tokens: list[tuple[str, str]], lookup: Lookup, assign: Assign | None, depth: int
    ) -> None:
        self.tokens, self.lookup, self.assign = tokens, lookup, assign
        self.i, self.depth, self.skipping = 0, depth, False

    def peek(self) -> str:
        return self.tokens[self.i][1] if self.i < len(self.tokens) else ""

    def take(self) -> tuple[str, str]:
        if self.i >= len(self.tokens):
            raise _Unknown
        self.i += 1
        return self.tokens[self.i - 1]

    def comma(self) -> int:
        value = self.ternary()
        while self.peek() == ",":
            self.take()
            value = self.ternary()
        return value

    def ternary(self) -> int:
        if self._is_assignment():
            return self._assignment()
        condition = self.binary(1)
        if self.peek() != "?":
            return condition
        self.take()
        yes = self.comma()
        if self.take()[1] != ":":
            raise _Unknown
        no = self.ternary()
        return yes if condition else no

    def _is_assignment(self) -> bool:
        return (
            self.i + 1 < len(self.tokens)
            and self.tokens[self.i][0] == "name"
            and self.tokens[self.i + 1][1] in _ASSIGN
        )

    def _assignment(self) -> int:
        name, op = self.take()[1], self.take()[1]
        right = self.ternary()
        value = right if op == "=" else _apply(op[:-1], self._variable(name), right)
        value = _wrap(value)
        if self.assign is not None:
            self.assign(name, value)
        return value

    def binary(self, level: int) -> int:
        left = self.unary()
        while (op := self.peek()) in _BINARY and _BINARY[op] >= level:
            self.take()
            if op in ("&&", "||") and (bool(left) == (op == "||")):
                self._skip_operand(_BINARY[op] + 1)
                left = int(op == "||")
                continue
            right = self.binary(_BINARY[op] + (0 if op == "**" else 1))
            left = _wrap(_apply(op, left, right))
        return left

    def _skip_operand(self, level: int) -> None:
        saved = self.assign, self.skipping
        self.assign, self.skipping = None, True  # short-circuited: parsed, never evaluated
        try:
            self.binary(level)
        finally:
            self.assign, self.skipping = saved

    def unary(self) -> int:
        op = self.peek()
        if op in ("!", "~", "-", "+"):
            self.take()
            if self.depth >= MAX_DEPTH:
                raise _Unknown
            self.depth += 1
            value = self.unary()
            self.depth -= 1
            return {"!": int(not value), "~": ~value, "-": -value, "+": value}[op]
        if op in ("++", "--"):
            self.take()
            name = self.take()[1]
            value = _wrap(self._variable(name) + (1 if op == "++" else -1))
            if self.assign is not None:
                self.assign(name, value)
            return value
        return self.postfix()

    def postfix(self) -> int:
        kind, text = self.take()
        if kind == "num":
            return _wrap(_number(text))
        if text == "(":
            if self.depth >= MAX_DEPTH:
                raise _Unknown
            self.depth += 1
            value = self.comma()
            self.depth -= 1
            if self.take()[1] != ")":
                raise _Unknown
            return value
        if kind != "name":
            raise _Unknown
        value = self._variable(text)
        if self.peek() in ("++", "--"):
            step = 1 if self.take()[1] == "++" else -1
            if self.assign is not None:
                self.assign(text, _wrap(value + step))
        return value

    def _variable(self, name: str) -> int:
        text = self.lookup(name)
        if text is None and self.skipping:
            return 0
        if text is None:
            raise _Unknown
        if text.strip() == "":
            return 0
        if self.depth >= MAX_NAME_DEPTH:
            raise _Unknown
        inner = _Parser(_tokenize(text), self.lookup, None, self.depth + 1)
        value = inner.comma()
        if inner.i != len(inner.tokens):
            raise _Unknown
        return value


def _apply(op: str, left: int, right: int) -> int:
    if op in ("/", "%"):
        if right == 0:
            raise _Unknown
        quotient = abs(left) // abs(right) * (1 if (left < 0) == (right < 0) else -1)
        return quotient if op == "/" else left - quotient * right
    if op == "**":
        if right < 0:
            raise _Unknown
        return pow(left, right, 1 << 64)
    if op in ("<<", ">>"):
        shift = right & 63
        return (left << shift) & ((1 << 64) - 1) if op == "<<" else left >> shift
    table: dict[str, Callable[[int, int], int]] = {
        "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
        "&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b,
        "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b),
        "<": lambda a, b: int(a < b), "<=": lambda a, b: int(a <= b),
        ">": lambda a, b: int(a > b), ">=": lambda a, b: int(a >= b),
        "&&": lambda a, b: int(bool(a and b)), "||": lambda a, b: int(bool(a or b)),
    }  # fmt: skip
    return table[op](left, right)
