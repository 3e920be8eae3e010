"""What a benchmark script runs: server launches and client calls, per swept configuration.

These records are the contract between the script reader (`benchmark.script`, which evaluates a
script's control flow with one configuration's environment bound) and the checks that read what a
script runs (Check 3 compares launches with upstream recipes, Check 7 scans them for architecture
overrides, Check 8 looks for the chat-template flag on client calls).
"""

from __future__ import annotations

from typing import Literal

from signoff.parse.shell.records import Frozen as Frozen
from signoff.parse.shell.records import HeredocUse as HeredocUse
from signoff.parse.shell.records import Ran as Ran
from signoff.parse.shell.records import Reach as Reach
from signoff.parse.shell.records import ScriptFileRun as ScriptFileRun

Engine = Literal["vllm", "sglang", "trtllm", "atom", "other"]


class Arg(Frozen):
    flag: str  # as written: "--tensor-parallel-size" ("--tp=8" gives flag "--tp", value "8")
    value: str | None  # None for boolean flags; unresolved variables stay as "$NAME"
    line: int
    joined: bool = False  # written as one word, `--flag=value`
    known: bool = True  # False: the value holds text known only at run time (shown as written)
    # for a value known only in part: its (text, known) pieces, in order, joining to `value`
    parts: tuple[tuple[str, bool], ...] = ()


class EnvChoice(Frozen):
    """An exported variable whose value at a launch depends on a condition the reader could not
    decide: one of the values it may have there (None: not set by the script on that path)."""

    name: str
    value: str | None
    why: str  # the condition under which it has this value


class ServerLaunch(Frozen):
    engine: Engine
    command: str  # "vllm serve", "python3 -m sglang.launch_server", "trtllm-serve serve"
    model: str | None  # positional model (`vllm serve MODEL`) or the --model/--model-path value
    args: tuple[Arg, ...]
    line: int
    env: dict[str, str]  # assignments prefixed on the command plus variables exported before it
    reach: Reach = "reached"
    why: str = ""  # for "undecided": the condition that could not be decided, with its line
    # Words where a flag could stand whose text is only known at run time (`$EXTRA_ARGS`,
    # `$(cat args.txt)`): the reader cannot say which flags they hold.
    opaque: tuple[str, ...] = ()
    # Exported variables `env` leaves out because their value here is not decided (set in one
    # arm of an undecided `if`, or differently in each): every value each may have, and when.
    env_undecided: tuple[EnvChoice, ...] = ()
    # Files the PR adds or changes that the launch names and signoff does not read as the
    # engine does (a model-config path, a chat template, a speculative config): (flag, path);
    # flag "(model)" for the positional model. A `--config` YAML it reads is in `args`.
    reads: tuple[tuple[str, str], ...] = ()
    # The image a container runtime wrapping the launch runs it in (`docker run IMAGE vllm
    # serve`), as resolved; a running container's name for `docker exec`; "" when none does.
    container: str = ""


class ClientCall(Frozen):
    command: str
    args: tuple[Arg, ...]
    line: int
    reach: Reach = "reached"
    why: str = ""


class ShellCommand(Frozen):
    """Any other command the script runs (`sed -i ... config.json`, `python3 x.py --flag`)."""

    argv: tuple[str, ...]
    line: int
    reach: Reach = "reached"
    why: str = ""


class ScriptRun(Frozen):
    """One script evaluated under one configuration point of the sweep (or several points that
    gave the same reading)."""

    path: str
    # The configuration that distinguishes this reading, sorted by name: search-space variables
    # the script reads and that are the same for every point it covers.
    config: tuple[tuple[str, str], ...] = ()
    launches: tuple[ServerLaunch, ...] = ()
    clients: tuple[ClientCall, ...] = ()
    commands: tuple[ShellCommand, ...] = ()
    heredocs: tuple[HeredocUse, ...] = ()
    script_files: tuple[ScriptFileRun, ...] = ()  # scripts it runs by file (not read)
    installs: tuple[ScriptFileRun, ...] = ()  # local projects it builds and installs (not read)
    containers: tuple[ScriptFileRun, ...] = ()  # shells and Python it runs in a container
    ran: tuple[Ran, ...] = ()  # every simple command of the script's text that runs, in order
    notes: tuple[str, ...] = ()  # undecidable conditions and other reading notes, with lines
    problems: tuple[str, ...] = ()  # why the reading is incomplete
    complete: bool = True  # False: the script could not be read reliably (checks fail closed)
    job: str = ""  # "benchmark" or "eval" (the sweep job kind); "" when nothing was bound
    environment: tuple[tuple[str, str], ...] = ()  # everything bound for the first point
    points: tuple[str, ...] = ()  # every configuration point this reading covers
    # Variables the reading took as unset and relied on: the script's own override hooks,
    # which nothing exports (only when the caller asked for that reading; sorted)
    unset: tuple[str, ...] = ()
    # Files the PR changed that the reading sourced and ran, by the script line that sources
    # them (what they define and run reports that line): (line, repository path)
    sourced: tuple[tuple[int, str], ...] = ()

    @property
    def label(self) -> str:
        """`DP_ATTENTION=false, TP=8` (empty: no configuration was bound)."""
        return ", ".join(f"{name}={value}" for name, value in self.config)
