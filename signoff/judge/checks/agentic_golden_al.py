"""Agentic spec-decode configs simulate acceptance at the committed golden acceptance length.

Why: agentic trace replay does not reproduce real token-by-token traffic, so measured acceptance
there is not comparable; every submission pins the same golden AL for its model, thinking mode
and draft length instead. How it is judged: for each agentic spec-decode config the PR adds or
changes (a master-config entry with an agentic-coding scenario and spec decoding, a changed
script under benchmarks/single_node/agentic/, a changed multi-node agentic recipe), the script
or recipe must set the engine's synthetic-acceptance knob (SGLang `SGLANG_SIMULATE_ACC_LEN`, vLLM
`"rejection_sample_method": "synthetic"` with `"synthetic_acceptance_length"`, TensorRT-LLM
`TLLM_SPEC_DECODE_FORCE_NUM_ACCEPTED_TOKENS` = AL - 1, ATOM `--spec-decode-acceptance-length`
or `-rate`, as far as the standard recognises each engine), or a multi-node entry must opt into
the runners' injection (`SYNTHETIC_ACCEPTANCE=true`). Every value must equal the curve in
`golden_al_distribution/` on the default branch for the model (by model id), the thinking mode
and a draft length the config sets. Real acceptance is allowed only in eval-only branches. A
model without a curve needs the Additional detail section to state where its AL comes from.
Synthetic knobs on a non-agentic spec-decode script FAIL unless a sanctioned exception is
documented. N/A without agentic spec-decode changes. To satisfy it: copy the golden value for
your model, mode and draft length into the knob.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from signoff.judge.context import JudgeContext, path_matches
from signoff.judge.model import Finding, Want, failed, not_applicable, passed, want_dir, want_file
from signoff.parse.acceptance import AcceptanceReading, read_acceptance
from signoff.parse.golden_al import GoldenCurve, parse_golden
from signoff.parse.master_blocks import split_blocks
from signoff.parse.master_config import MasterEntry, script_candidates

ID = "agentic-golden-al"
NAME = "agentic golden synthetic AL"

AGENTIC_DIR = "/agentic/"


@dataclass(frozen=True)
class _Target:
    label: str  # what a reason names: the config key or the file
    path: str  # the script or recipe read for it ("" for an opt-in master entry)
    prefix: str
    model: str  # the model id ("" when only the prefix is known)
    shell: bool = True


def wants(ctx: JudgeContext) -> Iterator[Want]:
    """Recipes of multi-node entries and changed agentic recipes (head); the head master
    configs when a changed recipe pins no knob (an entry running it may opt into injection);
    then the golden directory and the curves of the prefixes in scope (default branch)."""
    targets, _, _ = _targets(ctx)
    for target in targets:
        if target.path and not target.shell and ctx.evidence.file(target.path, "head") is None:
            yield want_file(target.path, "head")
    for target in targets:
        reading = _reading(ctx, target.path, shell=False) if not target.shell else None
        if reading is not None and not reading.settings and not _eval_recipe(target.path):
            for path in _master_files(ctx):
                if ctx.evidence.file(path, "head") is None:
                    yield want_file(path, "head")
    if not targets and not _opt_ins(ctx):
        return
    directory = ctx.policy.golden_al.directory
    yield want_dir(directory, "default")
    listing = ctx.evidence.listing(directory, "default")
    prefixes = {t.prefix for t in targets} | {e.model_prefix for e in _opt_ins(ctx)}
    for name in listing.entries if listing is not None else ():
        if name.endswith((".yaml", ".yml")) and any(name.startswith(p) for p in prefixes):
            yield want_file(f"{directory}/{name}", "default")


def evaluate(ctx: JudgeContext) -> Finding:
    if ctx.master_problems:
        return failed(f"agentic configs cannot be determined: {ctx.master_problems[0]}")
    targets, multi_node, problem = _targets(ctx)
    if problem:
        return failed(problem)
    misuse = _synthetic_outside_agentic(ctx)
    if misuse:
        return failed(misuse)
    if not targets and not multi_node:
        return not_applicable("no agentic speculative-decoding config is added or changed")
    curves = _curves(ctx)
    if isinstance(curves, str):
        return failed(curves)
    notes: list[str] = []
    for target in targets:
        verdict = _judge_target(ctx, target, curves)
        if verdict.status == "FAIL":
            return verdict
        notes.append(verdict.reason)
    for entry in multi_node:
        verdict = _judge_opt_in(ctx, entry, curves)
        if verdict.status == "FAIL":
            return verdict
        notes.append(verdict.reason)
    return passed("; ".join(notes))


# --- what is in scope ---------------------------------------------------------------------------


def _is_spec(ctx: JudgeContext, entry: MasterEntry) -> bool:
    spec = ctx.policy.spec_decode.spec_values
    return bool(set(entry.spec_decoding) & set(spec)) or "-mtp" in entry.key


def _targets(ctx: JudgeContext) -> tuple[list[_Target], list[MasterEntry], str]:
    """Scripts/recipes to read, multi-node entries without a changed recipe, and a problem."""
    targets: dict[str, _Target] = {}
    multi_node: list[MasterEntry] = []
    for entry in ctx.changed_entries:
        if not (entry.is_agentic and _is_spec(ctx, entry)):
            continue
        if entry.multinode:
            recipes = [] if _opted_in(ctx, entry) else _entry_recipes(ctx, entry)
            for recipe in recipes:
                targets[recipe] = _Target(entry.key, recipe, entry.model_prefix, entry.model, False)
            if not recipes:
                multi_node.append(entry)
            continue
        script = _agentic_script(ctx, entry)
        if script is None:
            return [], [], f"{entry.key}: its agentic benchmark script could not be found or read"
        targets[script] = _Target(entry.key, script, entry.model_prefix, entry.model)
    for changed in ctx.changed_scripts:
        path = changed.path
        in_scope = AGENTIC_DIR in path and "/deprecated/" not in path and path not in targets
        if in_scope and _spec_script(ctx, path):
            prefix = path.rsplit("/", 1)[-1].split("_", 1)[0]
            targets[path] = _Target(path, path, prefix, "")
    for path in _agentic_recipes(ctx):
        if path not in targets:
            targets[path] = _Target(path, path, _recipe_prefix(ctx, path), "", shell=False)
    return [targets[p] for p in sorted(targets)], multi_node, ""


def _opted_in(ctx: JudgeContext, entry: MasterEntry) -> bool:
    return ctx.policy.golden_al.opt_in in _opt_in_text(ctx, entry)


def _entry_recipes(ctx: JudgeContext, entry: MasterEntry) -> list[str]:
    """The agentic recipes a multi-node entry runs (`CONFIG_FILE=<path>` settings)."""
    found = re.findall(r"CONFIG_FILE=([\w./-]+\.ya?ml)", _opt_in_text(ctx, entry))
    return sorted({_in_repo(ctx, p) for p in found if AGENTIC_DIR in p or "agentx" in p})


def _in_repo(ctx: JudgeContext, path: str) -> str:
    """A CONFIG_FILE as a repository path: launchers copy the repository's recipe tree into
    the srt-slurm checkout, so `recipes/<...>` names `<recipe root><...>`."""
    for launched, root in ctx.policy.golden_al.recipe_roots.items():
        if path.startswith(launched):
            return root + path[len(launched) :]
    return path


def _launched(ctx: JudgeContext, path: str) -> list[str]:
    """Every spelling a master config may use for a repository recipe path."""
    names = [path]
    for launched, root in ctx.policy.golden_al.recipe_roots.items():
        if path.startswith(root):
            names.append(launched + path[len(root) :])
    return names


def _master_files(ctx: JudgeContext) -> list[str]:
    """The master configs at the head (their names come from the profile's glob)."""
    glob = ctx.master_configs_glob
    return [glob.replace("*", vendor) for vendor in ctx.policy.golden_al.master_vendors]


def _eval_recipe(path: str) -> bool:
    """Eval recipes measure accuracy and keep real acceptance, like EVAL_ONLY branches."""
    return "eval" in path.rsplit("/", 1)[-1].lower()


def _injected_for(ctx: JudgeContext, path: str) -> str | None:
    """The head entry that runs recipe `path` and opts into the runners' injection."""
    opt_in = ctx.policy.golden_al.opt_in
    names = _launched(ctx, path)
    for master in _master_files(ctx):
        text = ctx.master_text(master, "head") or ""
        blocks = split_blocks(text) or {}
        lines = text.split("\n")
        for key, (start, end) in blocks.items():
            block = "\n".join(lines[start:end])
            if opt_in in block and any(name in block for name in names):
                return key
    return None


def _agentic_script(ctx: JudgeContext, entry: MasterEntry) -> str | None:
    for candidate in script_candidates(entry):
        if AGENTIC_DIR not in candidate:
            continue
        read = ctx.evidence.file(candidate, "head")
        if read is not None and read.state == "ok":
            return candidate
    return None


def _spec_script(ctx: JudgeContext, path: str) -> bool:
    read = ctx.evidence.file(path, "head")
    text = read.text if read is not None and read.text is not None else ""
    flags = ctx.policy.spec_decode.script_flags
    return path.endswith("_mtp.sh") or any(flag in text for flag in flags)


def _agentic_recipes(ctx: JudgeContext) -> list[str]:
    """Changed multi-node recipe files under an `agentic/` directory that configure spec decode."""
    found = []
    for changed in ctx.changed_matching(ctx.policy.paths.multi_node_scripts):
        path = changed.path
        if changed.status == "removed" or AGENTIC_DIR not in path or "/deprecated/" in path:
            continue
        if path.endswith((".yaml", ".yml")) and re.search(r"mtp|eagle|dspark|spec", path.lower()):
            found.append(path)
    return sorted(found)


def _recipe_prefix(ctx: JudgeContext, path: str) -> str:
    """The model prefix of a multi-node recipe: the changed multi-node agentic entry's, when
    there is exactly one, else the recipe directory the profile maps to a prefix."""
    entries = {e.model_prefix for e in ctx.changed_entries if e.multinode and e.is_agentic}
    if len(entries) == 1:
        return entries.pop()
    dirs = ctx.policy.golden_al.recipe_dirs
    for part in path.lower().split("/"):
        if part in dirs:
            return dirs[part]
    return ""


def _synthetic_outside_agentic(ctx: JudgeContext) -> str:
    """Synthetic knobs on a non-agentic spec-decode script (Check 9's real-traffic rule)."""
    detail = ctx.signoff.detail.lower()
    if any(cue in detail for cue in ctx.policy.golden_al.exception_cues):
        return ""
    names = [knob.name for knob in ctx.policy.golden_al.knobs]
    for changed in ctx.changed_scripts:
        single = path_matches(changed.path, ctx.policy.paths.single_node_scripts)
        if not single or AGENTIC_DIR in changed.path or "/speedbench/" in changed.path:
            continue  # multi-node helpers serve agentic and fixed-seq runs alike
        read = ctx.evidence.file(changed.path, "head")
        if read is None or read.text is None or not any(n in read.text for n in names):
            continue  # every knob pattern contains its name: no name, no knob (cheap skip)
        reading = _reading(ctx, changed.path, shell=True)
        if reading is not None and reading.settings:
            knob = reading.settings[0]
            return (
                f"{changed.path}:{knob.line} sets {knob.knob} on a non-agentic config; "
                "synthetic acceptance is only for agentic replay (no sanctioned exception)"
            )
    return ""


# --- reading ------------------------------------------------------------------------------------


def _reading(ctx: JudgeContext, path: str, *, shell: bool) -> AcceptanceReading | None:
    """The acceptance settings of one script or recipe. (Switches to per-configuration script
    runs, with EVAL_ONLY bound, once the shell reader offers them.)"""
    read = ctx.evidence.file(path, "head")
    if read is None or read.state != "ok" or read.text is None:
        return None
    facts = ctx.script_facts(path) if shell else None
    variables = dict(facts.variables) if facts is not None else {}
    alternatives = dict(facts.alternatives) if facts is not None else {}
    engines = ctx.switches.agentic_al_engines
    return read_acceptance(
        read.text, ctx.policy.golden_al, engines, variables, alternatives, shell=shell
    )


def _curves(ctx: JudgeContext) -> list[GoldenCurve] | str:
    directory = ctx.policy.golden_al.directory
    listing = ctx.evidence.listing(directory, "default")
    if listing is None or listing.state != "ok":
        why = listing.reason or listing.state if listing is not None else ctx.unread(None)
        return f"{directory}/ on the default branch could not be listed ({why})"
    curves: list[GoldenCurve] = []
    for read in ctx.evidence.files_at("default"):
        if not read.path.startswith(f"{directory}/") or read.text is None:
            continue
        found, problems = parse_golden(read.text, read.path)
        if problems:
            return problems[0]
        curves.extend(found)
    return curves


def _keys(ctx: JudgeContext, target_model: str, prefix: str) -> list[str]:
    own = target_model.rstrip("/").rsplit("/", 1)[-1].lower()
    return [k for k in (own, *ctx.policy.golden_al.model_keys.get(prefix, ())) if k]


# --- judging ------------------------------------------------------------------------------------


def _judge_target(ctx: JudgeContext, target: _Target, curves: list[GoldenCurve]) -> Finding:
    reading = _reading(ctx, target.path, shell=target.shell)
    if reading is None:
        read = ctx.evidence.file(target.path, "head")
        return failed(f"{target.path} could not be read at the pinned head ({ctx.unread(read)})")
    if target.shell and reading.real_spec_lines and not reading.eval_only_guard:
        line = reading.real_spec_lines[0]
        return failed(f"{target.label}: {target.path}:{line} runs real (unsimulated) acceptance")
    if not reading.settings and not target.shell:
        if not reading.drafts and not reading.real_spec_lines:  # e.g. a "-nospec-" recipe
            return passed(f"{target.label}: the recipe does not decode speculatively")
        if _eval_recipe(target.path):
            return passed(f"{target.label}: eval recipe, real acceptance kept for accuracy")
        injected = _injected_for(ctx, target.path)
        if injected is not None:
            return passed(f"{target.label}: run by {injected}, which opts into golden injection")
    if not reading.settings:
        knobs = ", ".join(sorted({k.name for k in ctx.policy.golden_al.knobs
                                  if k.engine in ctx.switches.agentic_al_engines}))  # fmt: skip
        return failed(f"{target.label}: no synthetic-acceptance knob ({knobs}) in {target.path}")
    unresolved = next((s for s in reading.settings if not s.values), None)
    if unresolved is not None:
        return failed(
            f"{target.label}: {target.path}:{unresolved.line} {unresolved.knob} = "
            f"`{unresolved.raw}` cannot be resolved to a number"
        )
    if not reading.drafts:
        return failed(f"{target.label}: the draft length in {target.path} cannot be read")
    return _against_golden(ctx, target, reading, curves)


def _against_golden(
    ctx: JudgeContext, target: _Target, reading: AcceptanceReading, curves: list[GoldenCurve]
) -> Finding:
    model = target.model or _recipe_model(ctx, target)
    keys = _keys(ctx, model, target.prefix)
    mode = "thinking_off" if reading.thinking_off else ctx.policy.golden_al.default_mode
    mine = [curve for curve in curves if curve.key in keys]
    if not mine:
        return _no_curve(ctx, target.label, keys)
    tolerance = ctx.policy.golden_al.tolerance
    matched: list[str] = []
    for setting in reading.settings:
        for value in setting.values:
            hit = _golden_hit(mine, mode, reading.drafts, value, tolerance)
            if hit is None:
                expected = _expected(mine, mode, reading.drafts)
                return failed(
                    f"{target.label}: {target.path}:{setting.line} {setting.knob} gives AL "
                    f"{value:g}, not the golden {expected} ({mode})"
                )
            matched.append(hit)
    return passed(f"{target.label}: AL {', '.join(dict.fromkeys(matched))}")


def _recipe_model(ctx: JudgeContext, target: _Target) -> str:
    """An srt-slurm recipe's `model: path:` (the model id), when the target is a recipe."""
    read = ctx.evidence.file(target.path, "head")
    if target.shell or read is None or read.text is None:
        return ""
    match = re.search(
        r"(?m)^model:\s*\n(?:[ \t]+\S.*\n)*?[ \t]+path:\s*['\"]?([^\s'\"]+)", read.text
    )
    return match[1] if match else ""


def _golden_hit(
    curves: list[GoldenCurve], mode: str, drafts: tuple[int, ...], value: float, tolerance: float
) -> str | None:
    for curve in curves:
        for draft in drafts:
            golden = curve.value(mode, draft)
            if golden is not None and abs(golden - value) <= tolerance:
                return f"{value:g} = {curve.file.rsplit('/', 1)[-1]} {mode}[{draft}]"
    return None


def _expected(curves: list[GoldenCurve], mode: str, drafts: tuple[int, ...]) -> str:
    values = sorted(
        {f"{c.value(mode, d):g} (draft {d})" for c in curves for d in drafts if c.value(mode, d)}
    )
    return " or ".join(values) if values else f"(no {mode} value for draft length {drafts})"


def _no_curve(ctx: JudgeContext, label: str, keys: list[str]) -> Finding:
    detail = ctx.signoff.detail.lower()
    cue = next((c for c in ctx.policy.golden_al.source_cues if c in detail), None)
    wanted = " / ".join(keys) or "its model"
    if cue is None:
        return failed(
            f"{label}: no golden AL curve for {wanted}, and the Additional detail section does "
            "not state the AL source"
        )
    return passed(f"{label}: no golden curve for {wanted}; AL source stated ({cue!r})")


# --- multi-node opt-in --------------------------------------------------------------------------


def _opt_ins(ctx: JudgeContext) -> list[MasterEntry]:
    return [e for e in ctx.changed_entries if e.multinode and e.is_agentic and _is_spec(ctx, e)]


def _opt_in_text(ctx: JudgeContext, entry: MasterEntry) -> str:
    """The entry's own lines in the head master config."""
    text = ctx.master_text(entry.file, "head") or ""
    blocks = split_blocks(text)
    if blocks is None or entry.key not in blocks:
        return text  # unsplittable file: the whole text (a stricter, not a looser, reading)
    start, end = blocks[entry.key]
    return "\n".join(text.split("\n")[start:end])


def _judge_opt_in(ctx: JudgeContext, entry: MasterEntry, curves: list[GoldenCurve]) -> Finding:
    policy = ctx.policy.golden_al
    block = _opt_in_text(ctx, entry)
    if policy.opt_in not in block:
        return failed(
            f"{entry.key}: multi-node agentic spec decode without {policy.opt_in} in its "
            "master-config entry and without a changed recipe that pins the golden AL"
        )
    length = re.search(rf"{re.escape(policy.opt_in_length)}=([0-9.]+)", block)
    if length is None:
        return passed(f"{entry.key}: the runner injects the golden AL ({policy.opt_in})")
    drafts = tuple(int(n) for n in re.findall(r"NUM_SPEC_TOKENS=(\d+)", block)) or tuple(
        range(1, 9)
    )
    target = _Target(entry.key, entry.file, entry.model_prefix, entry.model)
    mode = "thinking_off" if "THINKING_MODE=thinking_off" in block else policy.default_mode
    mine = [c for c in curves if c.key in _keys(ctx, entry.model, entry.model_prefix)]
    if not mine:
        return _no_curve(ctx, target.label, _keys(ctx, entry.model, entry.model_prefix))
    hit = _golden_hit(mine, mode, drafts, float(length[1]), policy.tolerance)
    if hit is None:
        return failed(
            f"{entry.key}: {policy.opt_in_length}={length[1]} is not the golden "
            f"{_expected(mine, mode, drafts)} ({mode})"
        )
    return passed(f"{entry.key}: injected AL {hit}")
