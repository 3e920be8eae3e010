"""Single-node vLLM/SGLang recipes are documented upstream.

Why: InferenceX numbers must be reproducible from the engines' own documentation. How it is
judged: N/A when the PR's benchmark changes are exclusively multi-node/disaggregated or touch no
single-node vLLM/SGLang recipe. Otherwise the Additional detail section must link the upstream
recipe: a PR in vllm-project/recipes or sgl-project/sglang (cookbook under docs_new), or a
published recipes.vllm.ai / docs.sglang.io cookbook page. When the template's recipe sub-item
demands MERGED, an open, draft or closed-unmerged PR (or a bare branch or commit) does not count;
an unreachable link cannot be verified. The recipe is read whole (the PR's files at its merge
commit) and as a structure: each server launch of the benchmark script, per swept configuration,
is compared with the recipe command for the same model and hardware; the major server arguments
(model, parallelism, DP attention, quantization, kv-cache dtype, kernel backends, fusion passes,
speculative decoding; listed per engine in the profile) must agree, other InferenceX tuning is
informational. The script is read as the job runs it: its own override hooks (read only through
`${X:-default}` and kin) that nothing in the benchmark job exports are unset, so their defaults
apply. To satisfy it: get the recipe merged upstream first and link it.
"""

from __future__ import annotations

from collections.abc import Iterator

from signoff.evidence import UpstreamLink
from signoff.judge import script_entries, sourced
from signoff.judge.baseline import base_wants, settled
from signoff.judge.checks.recipe.compare import LaunchComparison, compare_launch
from signoff.judge.checks.recipe.reasons import Compared, fail_reason, pass_reason, unread_files
from signoff.judge.checks.recipe.runs import Target, script_runs, targets
from signoff.judge.context import JudgeContext
from signoff.judge.model import Finding, Want, failed, not_applicable, passed
from signoff.parse.benchmark.launch import ScriptRun, ServerLaunch
from signoff.parse.comment.links import RecipeLinkRef, link_key
from signoff.parse.recipes.document import RecipeDoc, RecipeEngine
from signoff.parse.recipes.readers import read_recipe_file, read_recipe_page
from signoff.rules.recipe import RecipePolicy

ID = "recipe"
NAME = "recipe"
CONFIG = RecipePolicy  # its profile section, rules.<ID>.config


_ACCEPTED = {"merged", "published"}
_COMPARED_ENGINES = frozenset({"vllm", "sglang"})
_MULTI_NODE_ONLY = "benchmark changes are exclusively multi-node/disaggregated"


def wants(ctx: JudgeContext) -> Iterator[Want]:
    """Changed files the scripts source (judge/sourced), the master configs at the head when a
    changed script no changed entry runs (judge/script_entries), and the base texts of changed
    scripts whose reading has gaps (judge/baseline)."""
    yield from sourced.wants(ctx)
    yield from script_entries.wants(ctx)
    yield from base_wants(ctx)


def evaluate(ctx: JudgeContext) -> Finding:
    if ctx.master_problems:
        return failed(f"recipe scope cannot be determined: {ctx.master_problems[0]}")
    scope, multi_node = targets(ctx)
    if not scope and not (multi_node and not ctx.switches.recipe_multinode_na):
        if multi_node:
            return not_applicable(_MULTI_NODE_ONLY)
        return not_applicable("no single-node vLLM/SGLang recipe is added or changed")
    links = ctx.recipe_links
    if not links:
        return failed(
            "no upstream recipe link (vllm-project/recipes or sgl-project/sglang PR, "
            "recipes.vllm.ai or docs.sglang.io cookbook page) in the Additional detail section"
        )
    chosen, rejected = _accepted_links(ctx, links)
    if not chosen:
        return failed(rejected[0] if rejected else "no upstream recipe link could be verified")
    label = ", ".join(_label(link) for link in chosen)
    if not scope:  # multi-node before the N/A rule (#2030): a verified link is all it asked
        return passed(f"{label} linked ({_MULTI_NODE_ONLY})")
    docs, labels = _recipe_docs(ctx, chosen)
    compared, problem = _compare_all(ctx, scope, docs)
    if problem:
        return failed(problem)
    missing = unread_files(chosen)
    reason = fail_reason(compared, labels, label, missing, docs)
    if reason:
        return failed(reason + _withheld_note(ctx, compared))
    return passed(pass_reason(compared, labels, label))


def _compare_all(
    ctx: JudgeContext, scope: tuple[Target, ...], docs: list[RecipeDoc]
) -> tuple[list[Compared], str]:
    """Every launch of every configuration run compared (a launch behind an undecided condition
    too: each arm the sweep may take must agree with the recipe); or why a script cannot be."""
    out: list[Compared] = []
    for target in scope:
        runs = script_runs(ctx, target)
        if not runs:
            return [], f"{target.path} could not be read at the pinned head"
        for run in (settled(ctx, run) for run in runs):
            if not run.complete:
                why = run.problems[0] if run.problems else "unread"
                return [], why if run.path in why else f"{run.path} could not be fully read ({why})"
            launches = [x for x in run.launches if x.engine in _COMPARED_ENGINES]
            if not launches:
                return [], f"{run.path}: no vLLM/SGLang server launch found to compare"
            for launch in launches:
                out.append(Compared(target, run, launch, _compare(ctx, target, run, launch, docs)))
    return out, ""


def _compare(
    ctx: JudgeContext, target: Target, run: ScriptRun, launch: ServerLaunch, docs: list[RecipeDoc]
) -> LaunchComparison:
    entry = target.entry
    model = entry.model if entry is not None else (launch.model or "")
    sku = entry.sku if entry is not None else _sku_of_path(ctx, run.path)
    return compare_launch(
        launch,
        dict(run.config),
        docs,
        model=model,
        sku=sku,
        policy=ctx.policy,
        every_flag=not ctx.switches.recipe_major_args_only,  # before #1908 every flag counted
    )


def _withheld_note(ctx: JudgeContext, compared: list[Compared]) -> str:
    """Why override hooks stayed unknown, when the reason names something they may explain (a
    launch behind an undecided condition, a value the configuration does not bind)."""
    if not ctx.hooks_withheld or not any(_unknown_in(item) for item in compared):
        return ""
    return f". Override hooks are not read as unset: {ctx.hooks_withheld}"


def _unknown_in(item: Compared) -> bool:
    best = item.result.best
    unbound = best is not None and any(diff.kind == "unbound" for diff in best.diffs)
    return unbound or item.launch.reach == "undecided"


def _sku_of_path(ctx: JudgeContext, path: str) -> str | None:
    """`<prefix>_<precision>_<sku>_...sh`: the SKU a script-only change runs on."""
    parts = path.rsplit("/", 1)[-1].removesuffix(".sh").split("_")
    return parts[2] if len(parts) > 2 and parts[2] in ctx.policy.recipe.hardware else None


def _recipe_docs(
    ctx: JudgeContext, links: list[UpstreamLink]
) -> tuple[list[RecipeDoc], dict[str, str]]:
    """Every accepted link's recipe documents, and each document's link label."""
    docs: list[RecipeDoc] = []
    labels: dict[str, str] = {}
    recipe_policy = ctx.policy.recipe
    for link in links:
        engine = _engine_of(ctx, link)
        if link.kind == "page" and link.page_text is not None:
            docs.append(read_recipe_page(link.url, link.page_text))
            labels.setdefault(link.url, _label(link, state=False))
        for file in link.files:
            if file.text is None or file.state != "ok":
                continue
            docs.append(read_recipe_file(file.path, file.text, engine, recipe_policy))
            labels.setdefault(file.path, _label(link, state=False))
    return docs, labels


def _engine_of(ctx: JudgeContext, link: UpstreamLink) -> RecipeEngine:
    """The engine a link's recipes are for (a flat YAML file does not say)."""
    for source in ctx.policy.recipe.sources:
        named = link.repo and source.repo.lower() == link.repo.lower()
        hosted = source.kind == "page" and source.host in link.url
        if source.engine == "sglang" and (named or hosted):
            return "sglang"
    return "vllm"


def _accepted_links(
    ctx: JudgeContext, links: tuple[RecipeLinkRef, ...]
) -> tuple[list[UpstreamLink], list[str]]:
    must_merge = _merge_required(ctx)
    seen = {link_key(link.url): link for link in ctx.evidence.upstream}
    chosen: list[UpstreamLink] = []
    rejected: list[str] = []
    for ref in links:
        link = seen.get(link_key(ref.url))
        if link is None or link.state in ("unreachable", "not_checked"):
            why = link.reason if link is not None and link.reason else "it was not resolved"
            rejected.append(f"{ref.url} could not be verified ({why})")
        elif link.state in _ACCEPTED or not must_merge:
            chosen.append(link)
        else:
            rejected.append(
                f"{_label(link, state=False)} is {link.state}; "
                "the template requires the upstream PR to be MERGED"
            )
    return chosen, rejected


def _merge_required(ctx: JudgeContext) -> bool:
    """Whether linked PRs must be merged: the standard's switch, else what the current
    template's recipe sub-item says (unknown: assume it does)."""
    if ctx.switches.recipe_must_be_merged is not None:
        return ctx.switches.recipe_must_be_merged
    template = ctx.template
    if template is None:
        return True
    cue = ctx.policy.recipe.merged_cue
    return any(
        cue in item.text for item in template.items if item.catalog_id in ("RECIPE_PR", "RECIPE")
    )


def _label(link: UpstreamLink, *, state: bool = True) -> str:
    name = link.url
    if link.kind == "pull" and link.repo and link.number is not None:
        name = f"{link.repo}#{link.number}"
    return f"{name} ({link.state})" if state else name
