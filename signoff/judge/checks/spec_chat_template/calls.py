"""Whether one reading's benchmark-client calls carry the chat template on every path."""

from __future__ import annotations

from collections.abc import Iterable

from signoff.judge.baseline import base_run, settled
from signoff.judge.context import JudgeContext
from signoff.judge.script_files import unread_script_file
from signoff.parse.benchmark.engine_flags import may_be_flag
from signoff.parse.benchmark.launch import Arg, ClientCall, ScriptRun, ServerLaunch

_TEMPLATE_MARKS = ("{{", "{%")  # Jinja's expression and statement openers


def chat_template_problem(
    ctx: JudgeContext, run: ScriptRun, judged: Iterable[str], *, must_reach: bool = True
) -> str:
    """Why `run` is not known to benchmark through the chat template ("" when it is).
    `judged`: the files the check reads itself; `must_reach`: a flagged call must surely run
    (False only for a reviewed client script whose loop the caller feeds: then no call may
    lack the flag, and some call must carry it)."""
    spec = ctx.policy.spec_decode
    run = settled(ctx, run)
    where = f" ({run.label})" if run.label else ""
    if not run.complete:
        why = run.problems[0] if run.problems else "unread"
        return f"{run.path} could not be fully read ({why}){where}"
    flags = " or ".join(spec.chat_template_flags)
    lacking = [call for call in run.clients if not has_chat_template(ctx, call)]
    if lacking:
        call = lacking[0]
        may = f", and may run: {call.why}" if call.why else ""
        return f"{run.path}:{call.line} calls {call.command} without {flags}{where}{may}"
    for launch in run.launches:
        for flag, path in launch.reads:
            if template_flag(ctx, flag, launch.engine):  # the prompt format the draft sees
                return (
                    f"{run.path}:{launch.line} serves with {flag} `{path}`, a chat template "
                    f"this PR adds or changes; signoff does not read templates{where}"
                )
        for arg in inline_templates(ctx, launch):
            if not _served_at_base(ctx, run, arg.value or ""):
                return (
                    f"{run.path}:{arg.line} serves with {arg.flag} given inline, a chat "
                    f"template this PR writes; signoff does not read templates{where}"
                )
    unread = unread_script_file(ctx, run, judged)
    if unread:  # the file may hold a benchmark call of its own, flagless
        return f"{unread}, so its benchmark calls are unverified"
    reached = [call for call in run.clients if call.reach == "reached"]
    if reached or (run.clients and not must_reach):
        return ""
    if run.clients:
        call = run.clients[0]
        return (
            f"{run.path}:{call.line}: the only {call.command} call with {flags} may not run "
            f"({call.why}){where}"
        )
    clients = "/".join(c for c in spec.client_commands if not c.endswith(".py"))
    return f"{run.path} runs no {clients} call, so the chat template is unverified{where}"


def template_flag(ctx: JudgeContext, flag: str, engine: str) -> bool:
    """The engine may read `flag` as a server chat template flag (an abbreviation too)."""
    flags = ctx.policy.spec_decode.server_chat_template_flags
    return any(may_be_flag(flag, target, engine, ctx.policy) for target in flags)


def inline_templates(ctx: JudgeContext, launch: ServerLaunch) -> list[Arg]:
    """The launch's chat template flags given a template's text rather than a file (vLLM
    takes either: `--chat-template '{% for m in messages %}...'`)."""
    return [
        arg
        for arg in launch.args
        if arg.value is not None
        and any(mark in arg.value for mark in _TEMPLATE_MARKS)
        and template_flag(ctx, arg.flag, launch.engine)
    ]


def _served_at_base(ctx: JudgeContext, run: ScriptRun, text: str) -> bool:
    """The base script, read as `run` was, serves the same inline template: the PR did not
    write it (a base that only mentions it, in a comment, does not count)."""
    base = base_run(ctx, run)
    return base is not None and any(
        arg.value == text for launch in base.launches for arg in inline_templates(ctx, launch)
    )


def lacking_call(ctx: JudgeContext, run: ScriptRun) -> str:
    """The first client call of `run` without the chat template, as a reason ("" if none)."""
    flags = " or ".join(ctx.policy.spec_decode.chat_template_flags)
    for call in run.clients:
        if not has_chat_template(ctx, call):
            may = f", and may run: {call.why}" if call.why else ""
            return f"{run.path}:{call.line} calls {call.command} without {flags}{may}"
    return ""


def has_chat_template(ctx: JudgeContext, call: ClientCall) -> bool:
    """The client matches its arguments word for word: `--use-chat-template` alone."""
    flags = ctx.policy.spec_decode.chat_template_flags
    return any(arg.flag in flags and not arg.joined and arg.value is None for arg in call.args)
