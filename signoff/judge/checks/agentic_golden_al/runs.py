"""Hold what an agentic spec-decode config's benchmark job runs to the golden acceptance length.

Each reading is one script evaluated for the benchmark job (`EVAL_ONLY=false`) under one
configuration (or, for a changed script no changed entry runs, under every configuration at
once). Every server launch in it that runs, or may run, must get its engine's synthetic-
acceptance knob on every path to it: a knob in dead code, in an uncalled function, behind
`true ||`, in the eval-only arm, not exported, or set after the launch never reaches the server;
a knob whose value at the launch depends on a condition the reader cannot decide counts against.
The value the server gets (resolved by the reader) must be the golden AL for the model, the
thinking mode and a draft length the launch sets.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from signoff.judge.context import JudgeContext
from signoff.judge.golden_curves import expected, golden_hit, model_keys, no_curve
from signoff.judge.model import Finding, failed, passed
from signoff.parse.benchmark.engine_flags import may_be_flag
from signoff.parse.benchmark.launch import EnvChoice, ScriptRun, ServerLaunch
from signoff.parse.benchmark.launch_acceptance import (
    KnobSetting,
    LaunchAcceptance,
    knobs_for,
    read_launch_acceptance,
)
from signoff.parse.benchmark.script_text import command_spans_at
from signoff.parse.inferencex.golden_al import GoldenCurve
from signoff.policy import AcceptanceKnob


@dataclass(frozen=True)
class RunTarget:
    label: str  # what a reason names: the config key or the script
    prefix: str
    model: str  # the model id ("" when only the prefix is known)
    runs: tuple[ScriptRun, ...]
    # Which launches are held to the knob (None: every one that may decode speculatively);
    # a chain's server script holds its decode servers, whatever flags the reader sees.
    held: Callable[[ServerLaunch], bool] | None = None
    # The draft lengths a held launch that shows none runs with (a chain's reviewed server
    # script builds them from a setting the chain hands it)
    drafts: tuple[int, ...] = ()


def judge_runs(ctx: JudgeContext, target: RunTarget, curves: list[GoldenCurve]) -> Finding:
    """PASS when every launch of every reading pins the golden AL (or the model has no curve
    and the detail section states the AL source)."""
    keys = model_keys(ctx, target.model, target.prefix)
    mine = [curve for curve in curves if curve.key in keys]
    hits: list[str] = []
    for run in target.runs:
        problem = _run_problem(ctx, target, run, mine, hits)
        if problem:
            return failed(f"{target.label}: {problem}")
    configs = sum(max(len(run.points), 1) for run in target.runs)
    plural = "s" if configs != 1 else ""
    plain = target.held is None and all(_plain_runs(ctx, run) for run in target.runs)
    if not hits and plain:
        return passed(f"{target.label}: the benchmark job's server does not decode speculatively")
    if not mine:
        return no_curve(ctx, target.label, keys)
    return passed(
        f"{target.label}: AL {', '.join(dict.fromkeys(hits))} "
        f"({configs} benchmark configuration{plural})"
    )


def _plain_runs(ctx: JudgeContext, run: ScriptRun) -> bool:
    return all(surely_not_speculative(ctx, launch) for launch in run.launches)


def _run_problem(
    ctx: JudgeContext, target: RunTarget, run: ScriptRun, mine: list[GoldenCurve], hits: list[str]
) -> str:
    where = f" ({run.label})" if run.label else ""
    unverified = f"so its acceptance is unverified{where}"
    if not run.complete:
        why = run.problems[0] if run.problems else "unread"
        return f"{run.path} could not be fully read ({why}), {unverified}"
    if not run.launches:
        return f"{run.path} starts no server the reader recognises, {unverified}"
    if target.held is not None and not any(target.held(launch) for launch in run.launches):
        return f"{run.path} starts no decode server the reader recognises, {unverified}"
    files = [doc.body for doc in run.heredocs]
    commands = _commands(ctx, run)
    for launch in run.launches:
        if target.held is not None:
            if not target.held(launch):
                continue  # a prefill server of a disaggregated pair: the decode side accepts
        elif surely_not_speculative(ctx, launch):
            continue  # `NUM_SPEC_TOKENS=0` at high concurrency: no acceptance to simulate
        knobs = knobs_for(launch, in_force(ctx))
        reading = read_launch_acceptance(
            launch, ctx.policy, knobs, files, commands, default_drafts=target.drafts
        )
        problem = _launch_problem(ctx, run, launch, reading, knobs)
        if not problem and mine:
            problem = _against_golden(ctx, run, launch, reading, mine, hits)
        if problem:
            return problem + where + (f" [may run: {launch.why}]" if launch.why else "")
    return ""


def surely_not_speculative(ctx: JudgeContext, launch: ServerLaunch) -> bool:
    """A vLLM or SGLang launch that can be seen to decode without speculation: no flag either
    engine could read as a speculative, draft or acceptance setting, no config file that could
    hold one, no word known only at run time where a flag could stand. Any other launch (TRT-LLM
    and ATOM read their spec settings from config files or flags of their own) is held to the
    knob."""
    if launch.engine not in ("vllm", "sglang") or launch.opaque:
        return False
    golden = ctx.policy.golden_al
    signals = {*ctx.policy.spec_decode.script_flags, "--config"}
    signals |= {knob.flag for knob in golden.knobs if knob.flag}
    signals |= {draft.flag for draft in golden.drafts if draft.flag}
    return not any(
        may_be_flag(arg.flag, flag, launch.engine, ctx.policy)
        for arg in launch.args
        for flag in signals
    )


def in_force(ctx: JudgeContext) -> list[AcceptanceKnob]:
    """The knobs of the engines the standard recognises (TRT-LLM from #2330, ATOM from #2667)."""
    engines = ctx.switches.agentic_al_engines
    return [knob for knob in ctx.policy.golden_al.knobs if knob.engine in engines]


def _launch_problem(
    ctx: JudgeContext,
    run: ScriptRun,
    launch: ServerLaunch,
    reading: LaunchAcceptance,
    knobs: list[AcceptanceKnob],
) -> str:
    at = f"{run.path}:{launch.line}"
    if reading.undecided:
        return _undecided(at, reading.undecided)
    if not reading.knobs:
        names = ", ".join(sorted({k.name for k in knobs})) or (
            f"none this standard recognises for {launch.engine}"
        )
        return (
            f"{at} launches {launch.command} with no synthetic-acceptance knob ({names}) on "
            "the benchmark job's path: it runs real (unsimulated) acceptance"
        )
    lacking = next((knob for knob in reading.knobs if knob.missing), None)
    if lacking is not None:
        return (
            f"{at} sets {lacking.knob} without {lacking.missing}: it runs real (unsimulated) "
            "acceptance"
        )
    unreadable = next((knob for knob in reading.knobs if knob.source), None)
    if unreadable is not None:
        return (
            f"{at} {unreadable.source} is `{_short(unreadable.raw)}`, known only at run time, "
            f"so its {unreadable.knob} cannot be read"
        )
    if not reading.drafts:
        shown = f" (`{_short(reading.unresolved_drafts[0])}`)" if reading.unresolved_drafts else ""
        return f"the draft length of the launch at {at} cannot be read{shown}"
    unresolved = next((knob for knob in reading.knobs if not knob.values), None)
    if unresolved is not None:
        return (
            f"{_set_at(ctx, run, launch, unresolved)} {unresolved.knob} = "
            f"`{_short(unresolved.raw)}` cannot be resolved to a number"
        )
    return ""


def _short(text: str) -> str:
    return text if len(text) <= 160 else text[:157] + "..."


def _undecided(at: str, choices: tuple[EnvChoice, ...]) -> str:
    """A knob variable whose value at the launch is not decided: say when it has which."""
    name = choices[0].name
    mine = [c for c in choices if c.name == name]
    if any(c.value is None for c in mine):
        when = next(c.why for c in mine if c.value is not None)
        return f"{at}: {name} is set only when {when}, so the benchmark job may run real acceptance"
    values = "; ".join(f"{c.value} when {c.why}" for c in mine)
    return f"{at}: {name} is not decided at the launch ({values})"


def _against_golden(
    ctx: JudgeContext,
    run: ScriptRun,
    launch: ServerLaunch,
    reading: LaunchAcceptance,
    mine: list[GoldenCurve],
    hits: list[str],
) -> str:
    golden = ctx.policy.golden_al
    mode = "thinking_off" if reading.thinking_off else golden.default_mode
    for setting in reading.knobs:
        for value in setting.values:
            hit = golden_hit(mine, mode, reading.drafts, value, golden.tolerance)
            if hit is None:
                return (
                    f"{_set_at(ctx, run, launch, setting)} {setting.knob} gives AL {value:g}, "
                    f"not the golden {expected(mine, mode, reading.drafts)} ({mode})"
                )
            hits.append(hit)
    return ""


def _set_at(ctx: JudgeContext, run: ScriptRun, launch: ServerLaunch, setting: KnobSetting) -> str:
    """Where a reason should point: the flag's line, or the last command before the launch
    that assigns the inherited variable (the launch itself when there is none)."""
    if setting.line:
        return f"{run.path}:{setting.line}"
    knob = next((k for k in ctx.policy.golden_al.knobs if k.name == setting.knob), None)
    parsed = ctx.parsed_script(run.path)
    if knob is None or not knob.env or parsed is None:
        return f"{run.path}:{launch.line}"
    assigns = re.compile(rf"(?<![\w$]){re.escape(knob.env)}=")
    ran = {record.offset for record in run.ran}
    lines = [
        span.first
        for span in command_spans_at(parsed.text)
        if span.offset in ran and span.first <= launch.line and assigns.search(span.text)
    ]
    return f"{run.path}:{lines[-1] if lines else launch.line}"


def _commands(ctx: JudgeContext, run: ScriptRun) -> list[str]:
    """The text of every command of the script that runs in this reading."""
    parsed = ctx.parsed_script(run.path)
    if parsed is None:
        return []
    ran = {record.offset for record in run.ran}
    return [span.text for span in command_spans_at(parsed.text) if span.offset in ran]


def sets_a_knob(ctx: JudgeContext, run: ScriptRun) -> str:
    """The first launch of a reading that gets (or may get) a synthetic-acceptance knob of any
    engine in force, as `path:line KNOB`; "" when none does (the misuse rule's reading: a flag
    the engine may read as the knob counts)."""
    for launch in run.launches:
        for knob in in_force(ctx):
            found = _knob_set(ctx, launch, knob)
            if found:
                may = f" [may run: {launch.why}]" if launch.why else ""
                return f"{run.path}:{launch.line} {found}{may}"
    return ""


def _knob_set(ctx: JudgeContext, launch: ServerLaunch, knob: AcceptanceKnob) -> str:
    if knob.env and knob.env in launch.env:
        return f"sets {knob.name}"
    maybe = [c for c in launch.env_undecided if c.name == knob.env and c.value is not None]
    if knob.env and maybe:
        return f"may set {knob.name} (when {maybe[0].why})"
    for arg in launch.args if knob.flag else ():
        named = may_be_flag(arg.flag, knob.flag, launch.engine, ctx.policy)
        if named and (not knob.key or knob.key in (arg.value or "") or knob.key in arg.flag):
            return f"passes {knob.name}"
    return ""
