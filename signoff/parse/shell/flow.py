"""What evaluating one command yields: its outcome, and the records of what it ran."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from signoff.parse.benchmark.launch import (
    ClientCall,
    HeredocUse,
    Ran,
    ScriptFileRun,
    ServerLaunch,
    ShellCommand,
)
from signoff.parse.shell_values import Scope

MAX_EVAL_DEPTH = 90  # nested compounds + calls + substitutions (each costs ~5 Python frames)


class BudgetExceeded(Exception):
    """The evaluation used its whole work budget."""


@dataclass(frozen=True, slots=True)
class Outcome:
    status: bool | None = True  # the exit status: True for 0, None when unknown
    ctl: str = ""  # "", "exit", "fail", "return", "break", "continue"
    where: str = ""  # "exit at line 12": what ended the path


Runner = Callable[[Scope], tuple[Scope, Outcome]]
Path = tuple[Scope, Outcome, str]  # a path's end state, outcome and why it was taken


@dataclass
class Records:
    launches: list[ServerLaunch] = field(default_factory=list)
    clients: list[ClientCall] = field(default_factory=list)
    commands: list[ShellCommand] = field(default_factory=list)
    heredocs: list[HeredocUse] = field(default_factory=list)
    ran: list[Ran] = field(default_factory=list)  # simple commands of the script's own text
    script_files: list[ScriptFileRun] = field(default_factory=list)

    def extend(self, other: Records) -> None:
        self.launches += other.launches
        self.clients += other.clients
        self.commands += other.commands
        self.heredocs += other.heredocs
        self.ran += other.ran
        self.script_files += other.script_files

    def content(self) -> tuple[tuple[str, ...], ...]:
        """What was recorded, regardless of how surely (to compare the forks of a command)."""
        strip = {"reach", "why"}
        return tuple(
            tuple(record.model_dump_json(exclude=strip) for record in group)
            for group in (
                self.launches, self.clients, self.commands, self.heredocs, self.script_files
            )
        )  # fmt: skip

    def with_reach(self, why: str) -> Records:
        update = {"reach": "undecided" if why else "reached", "why": why}
        return Records(
            [r.model_copy(update=update) for r in self.launches],
            [r.model_copy(update=update) for r in self.clients],
            [r.model_copy(update=update) for r in self.commands],
            [r.model_copy(update=update) for r in self.heredocs],
            [r.model_copy(update=update) for r in self.ran],
            [r.model_copy(update=update) for r in self.script_files],
        )
