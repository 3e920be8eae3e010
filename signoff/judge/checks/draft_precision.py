"""The draft (MTP/NextN/EAGLE head or draft model) runs at the precision it ships in.

Why: a cheaper draft raises acceptance-adjusted throughput without the model running as it
ships; InferenceX added this rule with #3283 (2026-09-19) and restated it with #3348 as "serve
the draft as it ships". How it is judged, on what the scripts run for every spec-decode
configuration the PR adds or changes (the entry's script per swept configuration; a changed
script that launches a draft, or whose reading has a gap the base did not have (it fails
closed), read with nothing bound; a changed multi-node spec-decode recipe,
and every recipe a changed multi-node spec-decode entry runs, read as text): a launch must not
pass the draft-quantization leads the profile names (`--speculative-draft-model-quantization`,
quantization or dtype keys inside `--speculative-config`, `SGLANG_GLM_NEXTN_MOE_PTPC=1`);
`SGLANG_NVFP4_CKPT_FP8_NEXTN_MOE` must not be enabled (a value known only at run time counts as
enabled: it cannot be verified); an
ATOM `--online_quant_config` with a global quantization must exclude every draft module the
profile names for the model (a model whose draft modules the profile does not know cannot be
verified). signoff cannot read the checkpoint or the image, so a lead that restates the
image's default still FAILs: drop it. The Additional detail section must give the precision
evidence: a sentence naming the draft (draft, MTP, NextN, EAGLE, DSpark, head) and a precision
(BF16, FP8, ...). N/A when no spec-decode config or script changes. To satisfy it: serve the
draft as it ships (no draft quantization settings) and record the draft checkpoint or head, its
stored precision and its effective serving precision in the detail section.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from fnmatch import fnmatchcase

from signoff.judge.baseline import unknown
from signoff.judge.context import JudgeContext
from signoff.judge.golden_recipes import config_files
from signoff.judge.model import Finding, Want, failed, not_applicable, passed, want_file
from signoff.judge.quote import code
from signoff.parse.benchmark.engine_flags import may_be_flag
from signoff.parse.benchmark.launch import Arg, ScriptRun, ServerLaunch
from signoff.parse.comment.phrases import sentences, words
from signoff.rules.draft_precision import DraftPrecisionPolicy

ID = "draft-precision"
NAME = "draft runs as shipped"
CONFIG = DraftPrecisionPolicy  # its profile section, rules.<ID>.config
_DISABLED = frozenset({"", "0", "false", "no", "off"})
_RUN_TIME = "known only at run time: draft precision could not be verified"
_NOT_JSON = "which is not JSON: draft precision could not be verified"


def evaluate(ctx: JudgeContext) -> Finding:
    if ctx.master_problems:
        return failed(f"spec-decode configs cannot be determined: {ctx.master_problems[0]}")
    runs, recipes, unread = _targets(ctx)
    if not runs and not recipes and not unread:
        return not_applicable("no speculative-decoding config or script is added or changed")
    if unread:
        return failed(f"draft precision could not be verified: {unread[0]}")
    for run, prefix in runs:
        problem = _run_problem(ctx, run, prefix)
        if problem:
            return failed(problem)
    for path, text in recipes:
        problem = _recipe_problem(ctx, path, text)
        if problem:
            return failed(problem)
    evidence = _precision_evidence(ctx)
    if not evidence:
        return failed(
            "draft precision could not be verified: the Additional detail section does not "
            "state the draft's precision (name the draft checkpoint or head, its stored "
            "precision and its effective serving precision)"
        )
    scripts = len({run.path for run, _ in runs})
    return passed(
        f"no draft quantization in what {scripts} script(s) and {len(recipes)} recipe(s) run; "
        f"detail section: {code(evidence, 120)}"
    )


def _targets(
    ctx: JudgeContext,
) -> tuple[list[tuple[ScriptRun, str]], list[tuple[str, str]], list[str]]:
    """(run, model prefix) readings, (path, text) multi-node recipes, and what could not be read."""
    spec = ctx.policy.spec_decode
    runs: list[tuple[ScriptRun, str]] = []
    unread: list[str] = []
    jobs = tuple(ctx.policy.sweep_env.jobs) or ("benchmark",)
    for entry in ctx.changed_entries:
        speculative = set(entry.spec_decoding) & set(spec.spec_values) or entry.key.endswith("-mtp")
        if not speculative or entry.multinode:
            continue
        found = ctx.script_runs(entry, jobs=jobs)
        if not found:
            unread.append(f"{code(entry.key)}: its benchmark script could not be read")
        runs += [(run, entry.model_prefix) for run in found]
    seen = {run.path for run, _ in runs}
    for changed in ctx.changed_scripts:
        if changed.path in seen or changed.status == "removed":
            continue
        read = ctx.script_runs_for_path(changed.path)
        # a gap hides whether it launches a draft: such a reading is kept, and fails closed
        found = tuple(r for r in read if ctx.speculates(r) or unknown(ctx, (r,)))
        runs += [(run, _prefix_of(changed.path)) for run in found]
    return runs, _recipes(ctx, unread), unread


def _recipe_paths(ctx: JudgeContext) -> list[str]:
    """Changed multi-node spec-decode recipes, and every recipe a changed multi-node spec-decode
    entry runs (`CONFIG_FILE=`), changed or not: an image bump runs them as they are."""
    spec = ctx.policy.spec_decode
    paths: set[str] = set()
    for changed in ctx.changed_matching(ctx.policy.paths.multi_node_scripts):
        path = changed.path
        if changed.status == "removed" or not path.endswith((".yaml", ".yml", ".sh")):
            continue
        if re.search(r"mtp|eagle|dspark|nextn|spec", path.lower()):
            paths.add(path)
    for entry in ctx.changed_entries:
        speculative = set(entry.spec_decoding) & set(spec.spec_values) or entry.key.endswith("-mtp")
        if entry.multinode and speculative:
            paths.update(config_files(ctx, entry))
    return sorted(paths)


def _recipes(ctx: JudgeContext, unread: list[str]) -> list[tuple[str, str]]:
    found = []
    for path in _recipe_paths(ctx):
        read = ctx.evidence.file(path, "head")
        if read is None or read.state != "ok" or read.text is None:
            unread.append(f"{path} could not be read at the pinned head")
            continue
        found.append((path, read.text))
    return found


def wants(ctx: JudgeContext) -> Iterator[Want]:
    """The multi-node spec-decode recipes in scope, read whole at the head."""
    if ctx.master_problems:
        return
    for path in _recipe_paths(ctx):
        if ctx.evidence.file(path, "head") is None:
            yield want_file(path, "head")


def _prefix_of(path: str) -> str:
    return path.rsplit("/", 1)[-1].split("_", 1)[0]


def _run_problem(ctx: JudgeContext, run: ScriptRun, prefix: str) -> str:
    if not run.complete:
        why = run.problems[0] if run.problems else "unread"
        return (
            f"{run.path} could not be fully read ({why}), so draft precision could not be verified"
        )
    where = f" ({run.label})" if run.label else ""
    for launch in run.launches:
        for problem in _launch_problems(ctx, launch, prefix):
            return f"{run.path}:{launch.line}{where} {problem}"
    return ""


def _launch_problems(ctx: JudgeContext, launch: ServerLaunch, prefix: str) -> Iterator[str]:
    rules = ctx.policy.draft_precision
    for name, value in sorted(launch.env.items()):
        yield from _env_problems(ctx, name, value)
    for choice in launch.env_undecided:
        if choice.value is not None:
            yield from _env_problems(ctx, choice.name, choice.value)
    for arg in launch.args:
        if any(may_be_flag(arg.flag, flag, launch.engine, ctx.policy) for flag in rules.flags):
            yield f"passes {code(_shown(arg))}: it sets the draft's quantization"
        if any(may_be_flag(arg.flag, f, launch.engine, ctx.policy) for f in rules.config_flags):
            problem = _spec_config_problem(ctx, arg)
            if problem:
                yield problem
        if any(
            may_be_flag(arg.flag, f, launch.engine, ctx.policy) for f in rules.online_quant_flags
        ):
            problem = _online_quant_problem(ctx, arg, prefix)
            if problem:
                yield problem


def _env_problems(ctx: JudgeContext, name: str, value: str) -> Iterator[str]:
    rules = ctx.policy.draft_precision
    enabled = value.startswith("$") or value.strip().lower() not in _DISABLED
    if name in rules.prohibited_env and enabled:
        yield (
            f"enables {code(f'{name}={value}')}, which must not be enabled (it lowers the "
            "NextN/MTP draft's precision; a value known only at run time cannot be verified)"
        )
    want = rules.lead_env.get(name)
    if want is not None and (value.startswith("$") or value.strip() == want):
        yield f"sets {code(f'{name}={value}')}: it quantizes the draft's computation"


def _spec_config_problem(ctx: JudgeContext, arg: Arg) -> str:
    text = arg.value or ""
    if not arg.known:
        return f"passes {code(_shown(arg))}, {_RUN_TIME}"
    try:
        config = json.loads(text)
    except ValueError:
        return f"passes {code(_shown(arg))}, {_NOT_JSON}"
    keys = ctx.policy.draft_precision.config_keys
    hits = sorted(k for k in (config if isinstance(config, dict) else {}) if k in keys)
    if hits:
        return f"sets {code(hits[0])} in {code(arg.flag)}: it overrides the draft's precision"
    return ""


def _online_quant_problem(ctx: JudgeContext, arg: Arg, prefix: str) -> str:
    if not arg.known or arg.value is None:
        return f"passes {code(_shown(arg))}, {_RUN_TIME}"
    try:
        config = json.loads(arg.value)
    except ValueError:
        return f"passes {code(_shown(arg))}, {_NOT_JSON}"
    if not isinstance(config, dict) or config.get("global_quant_config") in (None, "", "none"):
        return ""
    excluded = [str(p) for p in config.get("exclude_layer") or [] if isinstance(p, str)]
    drafts = ctx.policy.draft_precision.draft_modules.get(prefix)
    if drafts is None:
        return (
            f"quantizes online ({code(str(config['global_quant_config']))}) and the profile does "
            f"not name {code(prefix)}'s draft modules: draft precision could not be verified"
        )
    for module in drafts:
        if not any(fnmatchcase(module, pattern) or module == pattern for pattern in excluded):
            return (
                f"quantizes online ({code(str(config['global_quant_config']))}) without "
                f"excluding the draft module {code(module)}: the draft runs below its shipped "
                "precision"
            )
    return ""


def _recipe_problem(ctx: JudgeContext, path: str, text: str) -> str:
    rules = ctx.policy.draft_precision
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.split("#", 1)[0]
        for name in (*rules.prohibited_env, *rules.lead_env):
            found = re.search(rf"\b{re.escape(name)}\b\s*[:=]\s*['\"]?([^'\"\s,}}]*)", line)
            if found is None:
                continue
            for problem in _env_problems(ctx, name, found[1]):
                return f"{path}:{number} {problem}"
        for flag in rules.flags:
            if re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", line):
                return f"{path}:{number} passes {code(flag)}: it sets the draft's quantization"
    return ""


def _precision_evidence(ctx: JudgeContext) -> str:
    """The first detail sentence naming both the draft and a precision."""
    rules = ctx.policy.draft_precision
    for sentence in sentences(ctx.signoff.detail_words):
        said = {w.lower() for w in words(sentence)}
        if said & set(rules.draft_words) and said & set(rules.precision_words):
            return sentence
    return ""


def _shown(arg: Arg) -> str:
    return f"{arg.flag}={arg.value}" if arg.joined else f"{arg.flag} {arg.value or ''}".strip()
