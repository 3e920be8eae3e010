"""Speculative decoding is benchmarked through a chat template.

Why: draft acceptance depends on the prompt format; raw completions inflate acceptance length
far beyond real-world use. How it is judged: for every spec-decode configuration the PR adds or
changes (search-space `spec-decoding: mtp|draft_model`, or a `-mtp` key), the entry's script is
read with that configuration bound, and a changed spec-decode script no changed entry runs
(`_mtp.sh`, or speculative flags in what it launches) is read with nothing bound. Each reading
must reach a benchmark-client call carrying `--use-chat-template` (or `--dsv4`, which implies
it; the client matches these words exactly), and no reached or undecided client call may lack
it: a call behind `true ||`, `false &&`, a dead branch, an uncalled function or a comment proves
nothing. A script run by file (`bash x.sh`, `./x.sh`) is not read: a call that may run one the
PR adds or changes FAILs (see judge/script_files). A multi-node spec-decode entry needs a
changed multi-node recipe that turns the chat template on; agentic replay always goes through
chat completions. N/A when no spec-decode config changes. To satisfy it: pass
`--use-chat-template` to run_benchmark_serving on every path.
"""

from __future__ import annotations

from collections.abc import Iterator

from signoff.judge import script_entries
from signoff.judge.context import JudgeContext
from signoff.judge.model import Finding, Want, failed, not_applicable, passed
from signoff.judge.script_files import unread_script_file
from signoff.parse.launch import ClientCall, ScriptRun
from signoff.parse.master_config import MasterEntry

ID = "spec-chat-template"
NAME = "spec-decode chat template"


def wants(ctx: JudgeContext) -> Iterator[Want]:
    """The master configs at the head when a changed script no changed entry runs: it is
    read per configuration of the entries that do (judge/script_entries.py)."""
    yield from script_entries.wants(ctx)


def evaluate(ctx: JudgeContext) -> Finding:
    if ctx.master_problems:
        return failed(f"spec-decode configs cannot be determined: {ctx.master_problems[0]}")
    entries, agentic, multi_node = _spec_entries(ctx)
    scripts = _spec_scripts(ctx, entries)
    if not entries and not scripts and not agentic and not multi_node:
        return not_applicable("no speculative-decoding config is added or changed")
    if multi_node and not _multi_node_chat_template(ctx):
        return failed(
            f"{', '.join(sorted(multi_node))}: no changed multi-node recipe enables the chat "
            "template (use-chat-template), so realistic acceptance is unverified"
        )
    checked: list[str] = [f"{key} (multi-node recipe)" for key in sorted(multi_node)]
    readings = [*_entry_runs(ctx, entries), *scripts]
    judged = {run.path for _, runs in readings for run in runs}
    for label, runs in readings:
        if not runs:
            return failed(f"{label}: its benchmark script could not be found or read at the head")
        for run in runs:
            problem = _chat_template_problem(ctx, run, judged)
            if problem:
                return failed(problem if label == run.path else f"{label}: {problem}")
        configs = sum(max(len(run.points), 1) for run in runs)
        names = ", ".join(sorted({run.path.rsplit("/", 1)[-1] for run in runs}))
        checked.append(f"{names} ({configs} configuration{'s' if configs != 1 else ''})")
    parts = []
    if checked:
        flags = "/".join(ctx.policy.spec_decode.chat_template_flags)
        parts.append(f"{', '.join(checked)} benchmark with {flags} on every path")
    if agentic:
        parts.append(f"{', '.join(sorted(agentic))} replay through chat completions (agentic)")
    return passed("; ".join(parts))


def _spec_entries(ctx: JudgeContext) -> tuple[list[MasterEntry], set[str], set[str]]:
    """Single-node fixed-seq spec entries, and the keys of agentic and multi-node ones."""
    spec = ctx.policy.spec_decode
    entries: list[MasterEntry] = []
    agentic: set[str] = set()
    multi_node: set[str] = set()
    for entry in ctx.changed_entries:
        if not (set(entry.spec_decoding) & set(spec.spec_values) or entry.key.endswith("-mtp")):
            continue
        if entry.is_agentic and "fixed-seq-len" not in entry.scenarios:
            agentic.add(entry.key)
        elif entry.multinode:
            multi_node.add(entry.key)
        else:
            entries.append(entry)
    return entries, agentic, multi_node


def _entry_runs(
    ctx: JudgeContext, entries: list[MasterEntry]
) -> list[tuple[str, tuple[ScriptRun, ...]]]:
    """Per entry, the readings of its fixed-seq spec-decode configurations."""
    spec = ctx.policy.spec_decode
    out: list[tuple[str, tuple[ScriptRun, ...]]] = []
    for entry in entries:
        runs = ctx.script_runs(entry, spec=spec.spec_values, scenario="fixed-seq-len")
        if not runs and entry.key.endswith("-mtp"):  # a -mtp key whose spaces say none
            runs = ctx.script_runs(entry, scenario="fixed-seq-len")
        out.append((entry.key, runs))
    return out


def _spec_scripts(
    ctx: JudgeContext, entries: list[MasterEntry]
) -> list[tuple[str, tuple[ScriptRun, ...]]]:
    """Changed fixed-seq spec-decode scripts that no changed spec entry runs, read unbound."""
    covered = {run.path for _, runs in _entry_runs(ctx, entries) for run in runs}
    out: list[tuple[str, tuple[ScriptRun, ...]]] = []
    for changed in ctx.changed_scripts:
        path = changed.path
        if "/agentic/" in path or path in covered:
            continue
        if ctx.parsed_script(path) is None:
            if path.endswith("_mtp.sh"):
                out.append((path, ()))
            continue
        runs = ctx.script_runs_for_path(path, jobs=("benchmark",))
        if path.endswith("_mtp.sh") or any(ctx.speculates(run) for run in runs):
            out.append((path, runs))
    return out


def _multi_node_chat_template(ctx: JudgeContext) -> bool:
    """A line the PR adds to a multi-node recipe turns the chat template on (srt-slurm recipes
    spell it `use-chat-template` / `use_chat_template: true`, or pass the client flag)."""
    spec = ctx.policy.spec_decode
    for changed in ctx.changed_matching(ctx.policy.paths.multi_node_scripts):
        for line in (changed.patch or "").splitlines():
            if not line.startswith("+") or line.startswith("+++"):
                continue
            text = line[1:].lower().replace("_", "-")
            if any(flag in text for flag in spec.chat_template_flags) or (
                "use-chat-template" in text and "false" not in text
            ):
                return True
    return False


def _chat_template_problem(ctx: JudgeContext, run: ScriptRun, judged: set[str]) -> str:
    spec = ctx.policy.spec_decode
    where = f" ({run.label})" if run.label else ""
    if not run.complete:
        why = run.problems[0] if run.problems else "unread"
        return f"{run.path} could not be fully read ({why}){where}"
    flags = " or ".join(spec.chat_template_flags)
    lacking = [call for call in run.clients if not _has_chat_template(ctx, call)]
    if lacking:
        call = lacking[0]
        may = f", and may run: {call.why}" if call.why else ""
        return f"{run.path}:{call.line} calls {call.command} without {flags}{where}{may}"
    unread = unread_script_file(ctx, run, judged)
    if unread:  # the file may hold a benchmark call of its own, flagless
        return f"{unread}, so its benchmark calls are unverified"
    reached = [call for call in run.clients if call.reach == "reached"]
    if reached:
        return ""
    if run.clients:
        call = run.clients[0]
        return (
            f"{run.path}:{call.line}: the only {call.command} call with {flags} may not run "
            f"({call.why}){where}"
        )
    clients = "/".join(spec.client_commands)
    return f"{run.path} runs no {clients} call, so the chat template is unverified{where}"


def _has_chat_template(ctx: JudgeContext, call: ClientCall) -> bool:
    """The client matches its arguments word for word: `--use-chat-template` alone."""
    flags = ctx.policy.spec_decode.chat_template_flags
    return any(arg.flag in flags and not arg.joined and arg.value is None for arg in call.args)
