"""What a benchmark script runs: server launches and client calls, per swept configuration.

These records are the contract between the script reader (`bench_script`, which evaluates a
script's control flow with one configuration's environment bound) and the checks that read what a
script runs (Check 3 compares launches with upstream recipes, Check 7 scans them for architecture
overrides, Check 8 looks for the chat-template flag on client calls).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Engine = Literal["vllm", "sglang", "trtllm", "atom", "other"]
# "reached": the command runs for this configuration; "undecided": a condition on its path could
# not be decided from the bound values (both arms were kept). Dead code is dropped, never listed.
Reach = Literal["reached", "undecided"]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Arg(Frozen):
    flag: str  # as written: "--tensor-parallel-size" ("--tp=8" gives flag "--tp", value "8")
    value: str | None  # None for boolean flags; unresolved variables stay as "$NAME"
    line: int


class ServerLaunch(Frozen):
    engine: Engine
    command: str  # "vllm serve", "python3 -m sglang.launch_server", "trtllm-serve serve"
    model: str | None  # positional model (`vllm serve MODEL`) or the --model/--model-path value
    args: tuple[Arg, ...]
    line: int
    env: dict[str, str]  # assignments prefixed on the command plus variables exported before it
    reach: Reach = "reached"
    why: str = ""  # for "undecided": the condition that could not be decided, with its line


class ClientCall(Frozen):
    command: str
    args: tuple[Arg, ...]
    line: int
    reach: Reach = "reached"
    why: str = ""


class ScriptRun(Frozen):
    """One script evaluated under one configuration point of the sweep."""

    path: str
    config: tuple[tuple[str, str], ...] = ()  # the bound environment, sorted by name
    launches: tuple[ServerLaunch, ...] = ()
    clients: tuple[ClientCall, ...] = ()
    notes: tuple[str, ...] = ()  # undecidable conditions and other reading notes, with lines
    problems: tuple[str, ...] = ()  # why the reading is incomplete
    complete: bool = True  # False: the script could not be read reliably (checks fail closed)

    @property
    def label(self) -> str:
        """`TP=8, EP_SIZE=1, DP_ATTENTION=false` (empty: no configuration was bound)."""
        return ", ".join(f"{name}={value}" for name, value in self.config)
