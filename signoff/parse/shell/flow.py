"""What evaluating one command yields (its outcome), and the bound on nested evaluation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from signoff.parse.shell.values import Scope

MAX_EVAL_DEPTH = 90  # nested compounds + calls + substitutions (each costs ~5 Python frames)


class BudgetExceeded(Exception):
    """The evaluation used its whole work budget."""


@dataclass(slots=True, unsafe_hash=True)  # immutable: values.IMMUTABLE
class Outcome:
    status: bool | None = True  # the exit status: True for 0, None when unknown
    ctl: str = ""  # "", "exit", "fail", "return", "break", "continue"
    where: str = ""  # "exit at line 12": what ended the path


Runner = Callable[[Scope], tuple[Scope, Outcome]]
Path = tuple[Scope, Outcome, str]  # a path's end state, outcome and why it was taken
