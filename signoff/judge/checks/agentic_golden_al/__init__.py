"""Agentic spec-decode configs simulate acceptance at the committed golden acceptance length.

Why: agentic trace replay does not reproduce real token-by-token traffic, so measured acceptance
there is not comparable; every submission pins the same golden AL for its model, thinking mode
and draft length instead. How it is judged: on what the benchmark job runs. For every agentic
spec-decode configuration of a master-config entry the PR adds or changes, the entry's script is
read as the benchmark job runs it (that configuration bound, `EVAL_ONLY=false`); a changed
agentic spec-decode script no changed entry runs is read as the benchmark job runs it under any
configuration (one whose reading has a gap the base did not have may be one, and fails closed).
Every server launch that runs, or may run, must get its engine's
synthetic-acceptance knob on every path to it (SGLang `SGLANG_SIMULATE_ACC_LEN` exported, vLLM's
`--speculative-config` with `"rejection_sample_method": "synthetic"` and
`"synthetic_acceptance_length"`, TensorRT-LLM `TLLM_SPEC_DECODE_FORCE_NUM_ACCEPTED_TOKENS` =
AL - 1, ATOM `--spec-decode-acceptance-length` or `-rate`, as far as the standard recognises
each engine): a knob in dead code, an uncalled function, behind `true ||`, in the eval-only arm,
not exported or set after the launch never reaches the server, and one whose value there cannot
be decided counts against. The value the server gets must equal the curve in
`golden_al_distribution/` on the default branch for the model (by model id), the thinking mode
and a draft length the launch sets. The eval job keeps real acceptance. Multi-node entries opt
into the runners' injection (`SYNTHETIC_ACCEPTANCE=true`) or run recipes (read as text) that pin
the knob; one that does neither and whose launcher runs a known chain of scripts to the servers
(AMD amd_utils) is judged by the chain's server script, read with what the chain hands it, whose
every decode server must get the knob as above; a chain file the PR changes must be read
completely and name nothing the server script is handed, else the check fails. A model
without a curve needs the Additional detail section to state where its AL comes from. A
synthetic knob that a changed non-agentic single-node script's launch may get FAILs unless a
sanctioned exception is documented. N/A without agentic spec-decode changes.
To satisfy it: give the server the golden value for your model, mode and draft length on the
benchmark job's path.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from signoff.judge.baseline import unknown
from signoff.judge.checks.agentic_golden_al import server_chain
from signoff.judge.checks.agentic_golden_al.runs import RunTarget, judge_runs, sets_a_knob
from signoff.judge.context import JudgeContext, path_matches
from signoff.judge.golden_curves import load_curves
from signoff.judge.golden_recipes import (
    AGENTIC_DIR,
    eval_recipe,
    judge_opt_in,
    judge_recipe,
    master_files,
    opt_in_entries,
    opted_in,
    recipe_reading,
    recipe_targets,
)
from signoff.judge.model import Finding, Want, failed, not_applicable, passed, want_dir, want_file
from signoff.parse.benchmark.launch import ScriptRun
from signoff.parse.inferencex.master_config import MasterEntry
from signoff.rules.agentic_golden_al import GoldenAlPolicy, ServerChain

ID = "agentic-golden-al"
NAME = "agentic golden synthetic AL"
CONFIG = (
    GoldenAlPolicy  # its profile section: rules.<ID>.config (signoff/rules/agentic_golden_al.py)
)


def wants(ctx: JudgeContext) -> Iterator[Want]:
    """Recipes of multi-node entries and changed agentic recipes (head); the head master
    configs for a changed recipe (an entry running it may opt into injection; none may run it);
    then the golden directory and the curves of the prefixes in scope (default branch)."""
    runs, _ = _run_targets(ctx)
    multi_node = _entries(ctx, multinode=True)
    recipes = recipe_targets(ctx, multi_node)
    opt_ins, chained = _multi_node_bare(ctx, multi_node)
    yield from server_chain.wants(ctx, [entry for entry, _ in chained])  # its few files first
    for recipe in recipes:
        if ctx.evidence.file(recipe.path, "head") is None:
            yield want_file(recipe.path, "head")
    for recipe in recipes:
        reading = recipe_reading(ctx, recipe.path)
        no_knob = reading is not None and not reading.settings and not eval_recipe(recipe.path)
        if no_knob or recipe.label == recipe.path:  # also: does any entry run the recipe?
            for path in master_files(ctx):
                if ctx.evidence.file(path, "head") is None:
                    yield want_file(path, "head")
    if not runs and not recipes and not opt_ins and not chained:
        return
    directory = ctx.policy.golden_al.directory
    yield want_dir(directory, "default")
    listing = ctx.evidence.listing(directory, "default")
    prefixes = {t.prefix for t in runs} | {t.prefix for t in recipes}
    prefixes |= {e.model_prefix for e in opt_ins} | {e.model_prefix for e, _ in chained}
    for name in listing.entries if listing is not None else ():
        if name.endswith((".yaml", ".yml")) and any(name.startswith(p) for p in prefixes):
            yield want_file(f"{directory}/{name}", "default")


def evaluate(ctx: JudgeContext) -> Finding:
    if ctx.master_problems:
        return failed(f"agentic configs cannot be determined: {ctx.master_problems[0]}")
    runs, problem = _run_targets(ctx)
    if problem:
        return failed(problem)
    misuse = _synthetic_outside_agentic(ctx)
    if misuse:
        return failed(misuse)
    multi_node = _entries(ctx, multinode=True)
    recipes = recipe_targets(ctx, multi_node)
    opt_ins, chained = _multi_node_bare(ctx, multi_node)
    if not runs and not recipes and not opt_ins and not chained:
        return not_applicable("no agentic speculative-decoding config is added or changed")
    curves = load_curves(ctx)
    if isinstance(curves, str):
        return failed(curves)
    findings = itertools.chain(  # lazily: the first FAIL is the verdict
        (judge_runs(ctx, target, curves) for target in runs),
        (judge_recipe(ctx, target, curves) for target in recipes),
        (judge_opt_in(ctx, entry, curves) for entry in opt_ins),
        (server_chain.judge_chain(ctx, entry, chain, curves) for entry, chain in chained),
    )
    notes: list[str] = []
    for finding in findings:
        if finding.status == "FAIL":
            return finding
        notes.append(finding.reason)
    return passed("; ".join(notes))


def _multi_node_bare(
    ctx: JudgeContext, entries: list[MasterEntry]
) -> tuple[list[MasterEntry], list[tuple[MasterEntry, ServerChain]]]:
    """Multi-node entries judged by their opt-in (opted in, or running no agentic recipe and
    no known chain), and those that run no recipe, do not opt in and whose launcher runs a
    known chain of scripts to the servers (judged by its server script)."""
    opt_ins: list[MasterEntry] = []
    chained: list[tuple[MasterEntry, ServerChain]] = []
    for entry in opt_in_entries(ctx, entries):
        chain = None if opted_in(ctx, entry) else server_chain.chain_of(ctx, entry)
        if chain is None:
            opt_ins.append(entry)
        else:
            chained.append((entry, chain))
    return opt_ins, chained


# --- single-node: what the benchmark job runs ---------------------------------------------------


def _is_spec(ctx: JudgeContext, entry: MasterEntry) -> bool:
    spec = ctx.policy.spec_decode.spec_values
    return bool(set(entry.spec_decoding) & set(spec)) or "-mtp" in entry.key


def _entries(ctx: JudgeContext, *, multinode: bool) -> list[MasterEntry]:
    """Changed agentic spec-decode entries, single- or multi-node."""
    return [
        entry
        for entry in ctx.changed_entries
        if entry.is_agentic and _is_spec(ctx, entry) and entry.multinode == multinode
    ]


def _run_targets(ctx: JudgeContext) -> tuple[list[RunTarget], str]:
    """Changed single-node entries' benchmark readings, then changed agentic spec scripts no
    changed entry runs; and a problem (an entry whose script cannot be found)."""
    golden = ctx.policy.golden_al
    targets: list[RunTarget] = []
    covered: set[str] = set()
    for entry in _entries(ctx, multinode=False):
        runs = _entry_runs(ctx, entry)
        if not runs:
            return [], f"{entry.key}: its agentic benchmark script could not be found or read"
        targets.append(RunTarget(entry.key, entry.model_prefix, entry.model, runs))
        covered |= {run.path for run in runs}
    for changed in ctx.changed_scripts:
        path = changed.path
        if AGENTIC_DIR not in path or "/deprecated/" in path or path in covered:
            continue
        runs = ctx.script_runs_for_job(path, golden.job, golden.scenario)
        if (
            path.endswith("_mtp.sh")
            or any(_speculates(ctx, run) for run in runs)
            or unknown(ctx, runs)
        ):
            prefix = path.rsplit("/", 1)[-1].split("_", 1)[0]
            targets.append(RunTarget(path, prefix, "", runs))
    return targets, ""


def _entry_runs(ctx: JudgeContext, entry: MasterEntry) -> tuple[ScriptRun, ...]:
    """The benchmark job's readings of an entry's agentic spec-decode configurations."""
    golden = ctx.policy.golden_al
    spec = ctx.policy.spec_decode.spec_values
    jobs = (golden.job,)
    runs = ctx.script_runs(entry, jobs=jobs, spec=spec, scenario=golden.scenario, hooks_unset=True)
    if not runs and "-mtp" in entry.key:  # a -mtp key whose spaces say none
        runs = ctx.script_runs(entry, jobs=jobs, scenario=golden.scenario, hooks_unset=True)
    return runs


def _speculates(ctx: JudgeContext, run: ScriptRun) -> bool:
    return ctx.speculates(run) or bool(sets_a_knob(ctx, run))


# --- misuse: synthetic acceptance outside agentic replay ----------------------------------------


def _synthetic_outside_agentic(ctx: JudgeContext) -> str:
    """A launch of a changed non-agentic single-node script that gets (or may get) a synthetic
    knob; Check 9's real-traffic rule. Dead code is no misuse; an unreadable script that names a
    knob is no proof of its absence."""
    detail = ctx.signoff.detail.lower()
    if any(cue in detail for cue in ctx.policy.golden_al.exception_cues):
        return ""
    names = [n for k in ctx.policy.golden_al.knobs for n in (k.name, k.env, k.key) if n]
    for changed in ctx.changed_scripts:
        single = path_matches(changed.path, ctx.policy.paths.single_node_scripts)
        if not single or AGENTIC_DIR in changed.path or "/speedbench/" in changed.path:
            continue  # multi-node helpers serve agentic and fixed-seq runs alike
        parsed = ctx.parsed_script(changed.path)
        if parsed is None or not any(name in parsed.text for name in names):
            continue  # every knob is named where it is set: no name, no knob (cheap skip)
        for run in ctx.script_runs_for_path(changed.path):
            found = sets_a_knob(ctx, run)
            if not run.complete and not found:
                why = run.problems[0] if run.problems else "unread"
                return (
                    f"{changed.path} names a synthetic-acceptance knob and could not be fully "
                    f"read ({why}), so its use on a non-agentic config is unverified"
                )
            if found:
                return (
                    f"{found} on a non-agentic config; synthetic acceptance is only for "
                    "agentic replay (no sanctioned exception)"
                )
    return ""
