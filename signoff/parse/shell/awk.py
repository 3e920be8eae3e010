"""What `awk 'BEGIN{print EXPR}'` prints, for a command substitution over known numbers.

Benchmark scripts derive one setting from another this way (ATOM's acceptance rate is
`$(awk "BEGIN{print ($AL-1)/$N}")`), so reading the output keeps such a value comparable. Only a
BEGIN block that prints one expression of number literals, `+ - * /` and parentheses is read;
the expression is parsed, never run. Anything else gives None: unknown.
"""

from __future__ import annotations

import ast
import re

_PROGRAM = re.compile(r"\s*BEGIN\s*\{\s*print\s+([^;{}]{1,200}?)\s*;?\s*\}\s*")
_ARITHMETIC = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Add, ast.Sub, ast.Mult,
               ast.Div, ast.USub, ast.UAdd)  # fmt: skip


def awk_output(args: list[str]) -> str | None:
    """`awk PROGRAM` (no input, no options) as awk prints it, or None when it cannot be read."""
    if len(args) != 1:
        return None
    program = _PROGRAM.fullmatch(args[0])
    if program is None:
        return None
    value = arithmetic(program[1])
    if value is None:
        return None
    if value == int(value) and abs(value) < 1e16:
        return f"{int(value)}\n"  # awk prints integral values as integers
    return f"{value:.6g}\n"  # awk's default OFMT


def arithmetic(expression: str) -> float | None:
    """The value of + - * / over number literals (parsed, never evaluated as code); None for
    anything else, a division by zero included."""
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not all(isinstance(node, _ARITHMETIC) for node in ast.walk(tree)):
        return None
    return _fold(tree.body)


def _fold(node: ast.AST) -> float | None:
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        return float(value)
    if isinstance(node, ast.UnaryOp):
        inner = _fold(node.operand)
        return None if inner is None else (-inner if isinstance(node.op, ast.USub) else inner)
    if isinstance(node, ast.BinOp):
        left, right = _fold(node.left), _fold(node.right)
        if left is None or right is None or (isinstance(node.op, ast.Div) and right == 0):
            return None
        ops = {ast.Add: left + right, ast.Sub: left - right, ast.Mult: left * right}
        return ops.get(type(node.op), left / right if isinstance(node.op, ast.Div) else None)
    return None
