"""Speculative decoding is benchmarked through a chat template.

Why: draft acceptance depends on the prompt format; raw completions inflate acceptance length
far beyond real-world use. How it is judged: for every spec-decode configuration the PR adds or
changes (search-space `spec-decoding: mtp|draft_model`, or a `-mtp` key), the entry's script is
read with that configuration bound, and a changed spec-decode script no changed entry runs
(`_mtp.sh`, or speculative flags in what it launches; a single-node one whose reading has a gap
the base did not have may be one, and fails closed) is read with nothing bound. Each reading
of a configuration must reach a benchmark-client call carrying `--use-chat-template` (or
`--dsv4`, which implies it; the client matches these words exactly), and no reached or
undecided client call may lack it: a call behind `true ||`, `false &&`, a dead branch, an
uncalled function or a comment proves nothing. A reading with nothing bound (a multi-node node
script whose caller picks its role) needs no call that surely runs, only one that carries the
flag and none without. When the PR changes the library that defines the client, the
benchmark program its head body runs (`benchmark_serving.py`) is the call that must carry the
flag; a chat template
file the PR changes that a launch serves with (`--chat-template`) is not read and FAILs. A
script run by file (`bash x.sh`, `./x.sh`) is not read: a call that may run one the PR adds or
changes, or fetches from a URL the profile does not trust, FAILs (see judge/script_files). A
multi-node spec-decode entry's recipes
(`CONFIG_FILE=`) must turn the chat template on (one the repository lacks comes from the
launcher's external checkout, which is not read: the FAIL names its ref, see recipe_checkout);
one that names no recipe and whose launcher
runs a known chain of scripts to the client (profile `client_chains`) is judged by the client
script the chain runs, read with the values it hands it (see client_chain), and any other needs
a changed multi-node recipe line that turns it on; agentic replay always goes through chat
completions. N/A when no spec-decode config changes. To satisfy it: pass
`--use-chat-template` to run_benchmark_serving on every path.
"""

from __future__ import annotations

from collections.abc import Iterator

from signoff.judge import script_entries, sourced
from signoff.judge.baseline import base_wants, unknown
from signoff.judge.checks.spec_chat_template import client_chain, recipe_checkout
from signoff.judge.checks.spec_chat_template.calls import chat_template_problem, inline_templates
from signoff.judge.context import JudgeContext, path_matches
from signoff.judge.golden_recipes import config_file_refs, config_files, launched_names
from signoff.judge.model import Finding, Want, failed, not_applicable, passed, want_file
from signoff.parse.benchmark.launch import ScriptRun
from signoff.parse.inferencex.master_config import MasterEntry, sweep_may_run
from signoff.parse.recipes.srt_benchmark import recipe_uses_chat_template
from signoff.rules.spec_chat_template import SpecChatTemplatePolicy

ID = "spec-chat-template"
NAME = "spec-decode chat template"
CONFIG = SpecChatTemplatePolicy


def wants(ctx: JudgeContext) -> Iterator[Want]:
    """Changed files the scripts source (judge/sourced), the master configs at the head when a
    changed script no changed entry runs (judge/script_entries), the recipes multi-node
    spec-decode entries run (head), the client chains of those naming none (client_chain), and
    the base texts of changed scripts whose reading has gaps (judge/baseline)."""
    yield from sourced.wants(ctx)
    yield from script_entries.wants(ctx)
    if not ctx.master_problems:
        multi_node = list(_spec_entries(ctx)[2].values())
        # the chains' few files first: a mass edit's recipes may outrun the read budget
        yield from client_chain.wants(ctx, [e for e in multi_node if not config_files(ctx, e)])
        # entries with a recipe the repository lacks: where it comes from is asked before the
        # recipes still unread, so a mass edit's many recipes do not crowd it out
        outside = [
            entry
            for entry in multi_node
            if any(_missing(ctx, path) for path in config_files(ctx, entry))
        ]
        yield from recipe_checkout.wants(ctx, outside)
        for entry in multi_node:
            for path in config_files(ctx, entry):
                if ctx.evidence.file(path, "head") is None:
                    yield want_file(path, "head")
    yield from base_wants(ctx)
    yield from _inline_template_bases(ctx)


def _inline_template_bases(ctx: JudgeContext) -> Iterator[Want]:
    """The base text of each changed script that serves with a chat template given inline: a
    template the base already had is not the PR's (calls.inline_templates)."""
    for changed in ctx.changed_scripts:
        parsed = ctx.parsed_script(changed.path)
        if changed.status == "added" or parsed is None or "{" not in parsed.text:
            continue
        runs = ctx.script_runs_for_path(changed.path)
        if any(inline_templates(ctx, launch) for run in runs for launch in run.launches):
            yield want_file(changed.previous_path or changed.path, "base")


def evaluate(ctx: JudgeContext) -> Finding:
    if ctx.master_problems:
        return failed(f"spec-decode configs cannot be determined: {ctx.master_problems[0]}")
    entries, agentic, multi_node = _spec_entries(ctx)
    scripts = _spec_scripts(ctx, entries)
    if not entries and not scripts and not agentic and not multi_node:
        return not_applicable("no speculative-decoding config is added or changed")
    problem, checked = _multi_node_problem(ctx, multi_node)
    if problem:
        return failed(problem)
    readings = [*_entry_runs(ctx, entries), *scripts]
    judged = {run.path for _, runs in readings for run in runs}
    for label, runs in readings:
        if not runs:
            return failed(f"{label}: its benchmark script could not be found or read at the head")
        for run in runs:
            # With nothing bound (a helper script no entry runs), which calls run is its
            # caller's choice: no call may lack the flag, and some call must carry it.
            problem = chat_template_problem(ctx, run, judged, must_reach=bool(run.job))
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


def _spec_entries(
    ctx: JudgeContext,
) -> tuple[list[MasterEntry], set[str], dict[str, MasterEntry]]:
    """Single-node fixed-seq spec entries, the keys of agentic ones, and multi-node ones."""
    spec = ctx.policy.spec_decode
    entries: list[MasterEntry] = []
    agentic: set[str] = set()
    multi_node: dict[str, MasterEntry] = {}
    for entry in ctx.changed_entries:
        if not (set(entry.spec_decoding) & set(spec.spec_values) or entry.key.endswith("-mtp")):
            continue
        if entry.is_agentic and "fixed-seq-len" not in entry.scenarios:
            agentic.add(entry.key)
        elif entry.multinode:
            multi_node[entry.key] = entry
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
        if "/agentic/" in path or path in covered or not sweep_may_run(path):
            continue  # a script no sweep configuration runs benchmarks nothing here
        # a single-node script is in scope by what its reading shows, so one unread or read
        # with a gap of the PR's stays in (and fails closed); multi-node helper scripts are
        # judged through the recipes and client chains their entries run
        single_node = path_matches(path, ctx.policy.paths.single_node_scripts)
        if ctx.parsed_script(path) is None:
            if path.endswith("_mtp.sh") or single_node:
                out.append((path, ()))
            continue
        runs = ctx.script_runs_for_path(path, jobs=("benchmark",))
        if (
            path.endswith("_mtp.sh")
            or any(ctx.speculates(run) for run in runs)
            or (single_node and unknown(ctx, runs))
        ):
            out.append((path, runs))
    return out


def _multi_node_problem(
    ctx: JudgeContext, multi_node: dict[str, MasterEntry]
) -> tuple[str, list[str]]:
    """Why a multi-node spec-decode entry is not known to benchmark through the chat template
    ("" when it is), and what was read: every recipe it runs (`CONFIG_FILE=`) is read whole at
    the head and must turn the template on, whatever lines the PR changed; an entry naming no
    recipe is read through its launcher's client chain (client_chain) when one is known, and
    otherwise needs a changed multi-node recipe line that turns it on."""
    checked: list[str] = []
    bare = sorted(key for key, entry in multi_node.items() if not config_files(ctx, entry))
    unchained = [key for key in bare if client_chain.chain_of(ctx, multi_node[key]) is None]
    if unchained and not _multi_node_chat_template(ctx):
        return (
            f"{', '.join(unchained)}: no multi-node recipe is named (CONFIG_FILE), so the "
            "benchmark client runs in a script the launcher runs by file, which signoff does "
            "not read, and no changed multi-node recipe enables the chat template "
            "(use-chat-template), so realistic acceptance is unverified"
        ), checked
    for key in bare:
        chain = client_chain.chain_of(ctx, multi_node[key])
        if chain is None:
            checked.append(f"{key} (multi-node recipe)")
            continue
        problem, shown = client_chain.chain_problem(ctx, multi_node[key], chain)
        if problem:
            return f"{problem}, so realistic acceptance is unverified", checked
        checked.append(shown)
    flags = ctx.policy.spec_decode.chat_template_flags
    for key in sorted(set(multi_node) - set(bare)):
        checked.append(f"{key} (multi-node recipe)")
        for path, selector, launched in _recipe_refs(ctx, multi_node[key]):
            read = ctx.evidence.file(path, "head")
            outside = _missing(ctx, path)
            why = recipe_checkout.external_reason(ctx, multi_node[key], launched) if outside else ""
            if why:
                return (
                    f"{key}: its recipe is not in the repository ({path}): {why}, so "
                    "realistic acceptance is unverified"
                ), checked
            if read is None or read.state != "ok" or read.text is None:
                return (
                    f"{key}: its recipe {path} could not be read at the head "
                    f"({ctx.unread(read)}), so realistic acceptance is unverified"
                ), checked
            defaults = ctx.policy.spec_decode.recipe_chat_template_defaults
            if not recipe_uses_chat_template(read.text, flags, selector, defaults):
                shown = f"{path}:{selector}" if selector else path
                return (
                    f"{key}: its recipe {shown} does not enable the chat template "
                    "(benchmark use_chat_template: true, or a benchmark type whose srtctl "
                    "default is on), so realistic acceptance is unverified"
                ), checked
    return "", sorted(checked)


def _missing(ctx: JudgeContext, path: str) -> bool:
    """The head has no file at `path` (a definite 404, not an unread file)."""
    read = ctx.evidence.file(path, "head")
    return read is not None and read.state == "missing"


def _recipe_refs(ctx: JudgeContext, entry: MasterEntry) -> list[tuple[str, str, str]]:
    """(repository path, selector, the path as the entry names it) of each recipe it runs."""
    return [
        (path, selector, next((n for n in launched_names(ctx, path) if n != path), path))
        for path, selector in config_file_refs(ctx, entry)
    ]


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
