"""Multi-node agentic spec-decode configs and the golden AL: srt-slurm recipes read as text/YAML.

A multi-node entry either opts into the runners' injection (`SYNTHETIC_ACCEPTANCE=true` in its
master-config lines, optionally with `SYNTHETIC_ACCEPTANCE_LENGTH`) or runs recipes
(`CONFIG_FILE=recipes/...`) that pin the knob in their server environment or spec config. A
changed agentic recipe without a knob passes when a head entry running it opts in, when it is an
eval recipe (real acceptance for accuracy) or when it does not decode speculatively.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from signoff.judge.context import JudgeContext
from signoff.judge.golden_curves import expected, golden_hit, model_keys, no_curve
from signoff.judge.model import Finding, failed, passed
from signoff.parse.inferencex.golden_al import GoldenCurve
from signoff.parse.inferencex.master_blocks import block_text, split_blocks
from signoff.parse.inferencex.master_config import MasterEntry
from signoff.parse.recipes.srt_acceptance import AcceptanceReading, read_acceptance

AGENTIC_DIR = "/agentic/"


@dataclass(frozen=True)
class RecipeTarget:
    label: str  # the entry key, or the recipe path
    path: str
    prefix: str


def recipe_targets(ctx: JudgeContext, entries: list[MasterEntry]) -> list[RecipeTarget]:
    """The recipes of multi-node entries that do not opt in, then changed agentic recipes."""
    found: dict[str, RecipeTarget] = {}
    for entry in entries:
        for recipe in [] if opted_in(ctx, entry) else entry_recipes(ctx, entry):
            found.setdefault(recipe, RecipeTarget(entry.key, recipe, entry.model_prefix))
    for path in _agentic_recipes(ctx):
        found.setdefault(path, RecipeTarget(path, path, _recipe_prefix(ctx, path)))
    return [found[path] for path in sorted(found)]


def opt_in_entries(ctx: JudgeContext, entries: list[MasterEntry]) -> list[MasterEntry]:
    """Multi-node entries judged by their opt-in: opted in, or running no agentic recipe."""
    return [e for e in entries if opted_in(ctx, e) or not entry_recipes(ctx, e)]


def opted_in(ctx: JudgeContext, entry: MasterEntry) -> bool:
    return ctx.policy.golden_al.opt_in in opt_in_text(ctx, entry)


def entry_recipes(ctx: JudgeContext, entry: MasterEntry) -> list[str]:
    """The agentic recipes a multi-node entry runs (`CONFIG_FILE=<path>` settings)."""
    return [p for p in config_files(ctx, entry) if AGENTIC_DIR in p or "agentx" in p]


def config_files(ctx: JudgeContext, entry: MasterEntry) -> list[str]:
    """Every recipe a master-config entry runs (`CONFIG_FILE=<path>`), as repository paths."""
    return sorted({path for path, _ in config_file_refs(ctx, entry)})


def config_file_refs(ctx: JudgeContext, entry: MasterEntry) -> list[tuple[str, str]]:
    """(repository path, selector) of every `CONFIG_FILE=<path>[:<selector>]` of the entry; the
    selector names the recipe section srtctl runs (`zip_override_x[0]`; "" for the whole)."""
    found = re.findall(r"CONFIG_FILE=([\w./-]+\.ya?ml)(?::([\w.\[\]-]+))?", opt_in_text(ctx, entry))
    return sorted({(_in_repo(ctx, path), selector) for path, selector in found})


def _in_repo(ctx: JudgeContext, path: str) -> str:
    """A CONFIG_FILE as a repository path: launchers copy the repository's recipe tree into
    the srt-slurm checkout, so `recipes/<...>` names `<recipe root><...>`."""
    for launched, root in ctx.policy.golden_al.recipe_roots.items():
        if path.startswith(launched):
            return root + path[len(launched) :]
    return path


def launched_names(ctx: JudgeContext, path: str) -> list[str]:
    """Every spelling a master config may use for a repository recipe path."""
    names = [path]
    for launched, root in ctx.policy.golden_al.recipe_roots.items():
        if path.startswith(root):
            names.append(launched + path[len(root) :])
    return names


def master_files(ctx: JudgeContext) -> list[str]:
    """The master configs at the head (their names come from the profile's glob)."""
    glob = ctx.master_configs_glob
    return [glob.replace("*", vendor) for vendor in ctx.policy.golden_al.master_vendors]


def eval_recipe(path: str) -> bool:
    """Eval recipes measure accuracy and keep real acceptance, like EVAL_ONLY branches."""
    return "eval" in path.rsplit("/", 1)[-1].lower()


def _injected_for(ctx: JudgeContext, path: str) -> str | None:
    """The head entry that runs recipe `path` and opts into the runners' injection."""
    opt_in = ctx.policy.golden_al.opt_in
    names = launched_names(ctx, path)
    for master in master_files(ctx):
        text = ctx.master_text(master, "head") or ""
        blocks = split_blocks(text) or {}
        lines = text.split("\n")
        for key, (start, end) in blocks.items():
            block = "\n".join(lines[start:end])
            if opt_in in block and any(name in block for name in names):
                return key
    return None


def _run_by_no_entry(ctx: JudgeContext, path: str) -> bool:
    """Whether no head master config names recipe `path` at all (its file name appears in no
    entry, as a CONFIG_FILE or in any other spelling); False when a master config could not be
    read (then the recipe is judged as if it ran)."""
    name = path.rsplit("/", 1)[-1]
    for master in master_files(ctx):
        read = ctx.evidence.file(master, "head")
        if read is not None and read.state == "missing":
            continue
        if read is None or read.state != "ok" or read.text is None or name in read.text:
            return False
    return True


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


def recipe_reading(ctx: JudgeContext, path: str) -> AcceptanceReading | None:
    """The acceptance settings of one recipe file read as text (None when it was not read)."""
    read = ctx.evidence.file(path, "head")
    if read is None or read.state != "ok" or read.text is None:
        return None
    return read_acceptance(read.text, ctx.policy.golden_al, ctx.switches.agentic_al_engines)


# --- judging ------------------------------------------------------------------------------------


def judge_recipe(ctx: JudgeContext, target: RecipeTarget, curves: list[GoldenCurve]) -> Finding:
    if target.label == target.path and _run_by_no_entry(ctx, target.path):
        return passed(
            f"{target.path}: no head master-config entry runs it (CONFIG_FILE), so the sweep "
            "does not benchmark it (an entry that comes to run it has it judged then)"
        )
    reading = recipe_reading(ctx, target.path)
    if reading is None:
        read = ctx.evidence.file(target.path, "head")
        return failed(f"{target.path} could not be read at the pinned head ({ctx.unread(read)})")
    if not reading.settings:
        if not reading.drafts and not reading.real_spec_lines:  # e.g. a "-nospec-" recipe
            return passed(f"{target.label}: the recipe does not decode speculatively")
        if eval_recipe(target.path):
            return passed(f"{target.label}: eval recipe, real acceptance kept for accuracy")
        injected = _injected_for(ctx, target.path)
        if injected is not None:
            return passed(f"{target.label}: run by {injected}, which opts into golden injection")
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
    ctx: JudgeContext, target: RecipeTarget, reading: AcceptanceReading, curves: list[GoldenCurve]
) -> Finding:
    keys = model_keys(ctx, _recipe_model(ctx, target.path), target.prefix)
    mode = "thinking_off" if reading.thinking_off else ctx.policy.golden_al.default_mode
    mine = [curve for curve in curves if curve.key in keys]
    if not mine:
        return no_curve(ctx, target.label, keys)
    tolerance = ctx.policy.golden_al.tolerance
    matched: list[str] = []
    for setting in reading.settings:
        for value in setting.values:
            hit = golden_hit(mine, mode, reading.drafts, value, tolerance)
            if hit is None:
                return failed(
                    f"{target.label}: {target.path}:{setting.line} {setting.knob} gives AL "
                    f"{value:g}, not the golden {expected(mine, mode, reading.drafts)} ({mode})"
                )
            matched.append(hit)
    return passed(f"{target.label}: AL {', '.join(dict.fromkeys(matched))}")


def _recipe_model(ctx: JudgeContext, path: str) -> str:
    """An srt-slurm recipe's `model: path:` (the model id)."""
    read = ctx.evidence.file(path, "head")
    if read is None or read.text is None:
        return ""
    match = re.search(
        r"(?m)^model:\s*\n(?:[ \t]+\S.*\n)*?[ \t]+path:\s*['\"]?([^\s'\"]+)", read.text
    )
    return match[1] if match else ""


def opt_in_text(ctx: JudgeContext, entry: MasterEntry) -> str:
    """The entry's own lines in the head master config."""
    text = ctx.master_text(entry.file, "head") or ""
    block = block_text(text, entry.key)
    # unsplittable file: the whole text (a stricter, not a looser, reading)
    return text if block is None else block


def judge_opt_in(ctx: JudgeContext, entry: MasterEntry, curves: list[GoldenCurve]) -> Finding:
    policy = ctx.policy.golden_al
    block = opt_in_text(ctx, entry)
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
    mode = "thinking_off" if "THINKING_MODE=thinking_off" in block else policy.default_mode
    keys = model_keys(ctx, entry.model, entry.model_prefix)
    mine = [c for c in curves if c.key in keys]
    if not mine:
        return no_curve(ctx, entry.key, keys)
    hit = golden_hit(mine, mode, drafts, float(length[1]), policy.tolerance)
    if hit is None:
        return failed(
            f"{entry.key}: {policy.opt_in_length}={length[1]} is not the golden "
            f"{expected(mine, mode, drafts)} ({mode})"
        )
    return passed(f"{entry.key}: injected AL {hit}")
