"""Single-node vLLM/SGLang recipes are documented upstream.

Why: InferenceX numbers must be reproducible from the engines' own documentation. How it is
judged: N/A when the PR's benchmark changes are exclusively multi-node/disaggregated or touch no
single-node vLLM/SGLang recipe. Otherwise the Additional detail section must link the upstream
recipe: a PR in vllm-project/recipes or sgl-project/sglang (cookbook under docs_new), or a
published recipes.vllm.ai / docs.sglang.io cookbook page. When the template's recipe sub-item
demands MERGED, an open, draft or closed-unmerged PR (or a bare branch or commit) does not count;
an unreachable link cannot be verified. The major server arguments of the PR's launch command
(model, parallelism, quantization, kv-cache dtype, kernel backends; listed in the profile) must
appear in the recipe; other InferenceX tuning is informational. To satisfy it: get the recipe
merged upstream first and link it.
"""

from __future__ import annotations

import re

from signoff.evidence import FileRead, UpstreamLink
from signoff.judge.context import JudgeContext, path_matches
from signoff.judge.model import Finding, failed, not_applicable, passed
from signoff.parse.launch import Arg, ServerLaunch
from signoff.parse.links import RecipeLinkRef, link_key

ID = "recipe"
NAME = "recipe"

_ACCEPTED = {"merged", "published"}
_MULTI_NODE_ONLY = "benchmark changes are exclusively multi-node/disaggregated"


def evaluate(ctx: JudgeContext) -> Finding:
    if ctx.master_problems:
        return failed(f"recipe scope cannot be determined: {ctx.master_problems[0]}")
    scripts, scope_note = _single_node_scripts(ctx)
    if not scripts and (scope_note != _MULTI_NODE_ONLY or ctx.switches.recipe_multinode_na):
        return not_applicable(scope_note)
    links = ctx.recipe_links
    if not links:
        return failed(
            "no upstream recipe link (vllm-project/recipes or sgl-project/sglang PR, "
            "recipes.vllm.ai or docs.sglang.io cookbook page) in the Additional detail section"
        )
    chosen, rejected = _accepted_links(ctx, links)
    if not chosen:
        return failed(rejected[0] if rejected else "no upstream recipe link could be verified")
    if not scripts:  # multi-node before the N/A rule (#2030): a verified link is all it asks
        return passed(f"{', '.join(_label(link) for link in chosen)} linked ({scope_note})")
    launches, unread = _launches(ctx, scripts)
    if unread:
        return failed(unread)
    recipe_text = _recipe_text(chosen)
    missing = _missing_major_args(ctx, launches, recipe_text)
    missing += [f"model {m}" for m in _models(ctx) if not _mentions_model(m, recipe_text)]
    label = ", ".join(_label(link) for link in chosen)
    if missing:
        return failed(
            f"{label} linked, but the recipe lacks major server args: {', '.join(missing)}"
        )
    checked = sorted({a.flag for launch in launches for a in _major(ctx, launch)})
    args = f"major args match ({', '.join(checked)})" if checked else "no major args to compare"
    return passed(f"{label} linked; {args}{_informational(ctx, launches, recipe_text)}")


def _informational(ctx: JudgeContext, launches: list[ServerLaunch], recipe: str) -> str:
    """Other launch flags the recipe does not mention: InferenceX tuning, reported not judged."""
    major = set(ctx.policy.recipe.major_args)
    extra = sorted(
        {
            arg.flag
            for launch in launches
            for arg in launch.args
            if arg.flag not in major and _normalise(arg.flag.lstrip("-")) not in recipe
        }
    )
    if not extra:
        return ""
    shown = ", ".join(extra[:4]) + (f" and {len(extra) - 4} more" if len(extra) > 4 else "")
    return f". Informational (InferenceX-specific tuning, not in the recipe): {shown}"


def _single_node_scripts(ctx: JudgeContext) -> tuple[list[FileRead | str], str]:
    """Head scripts of single-node vLLM/SGLang recipes this PR touches (a str: unread path)."""
    policy = ctx.policy
    engines = set(policy.images.engine_first_frameworks)
    wanted: dict[str, FileRead | str] = {}
    multi_node = False
    for entry in ctx.changed_entries:
        if entry.multinode or entry.disagg or entry.framework in policy.recipe.disagg_frameworks:
            multi_node = True
            continue
        if entry.framework in engines:
            read = ctx.script_for(entry)
            wanted[entry.key] = read if read is not None else f"the benchmark script of {entry.key}"
    if any(
        path_matches(f.path, policy.paths.multi_node_scripts) for f in ctx.evidence.changed_files
    ):
        multi_node = True
    for changed in ctx.changed_scripts:
        if path_matches(changed.path, policy.paths.single_node_scripts):
            read = ctx.evidence.file(changed.path, "head")
            if read is None or read.state != "ok":
                wanted[changed.path] = changed.path
            elif _engine_of(ctx, read) in engines:
                wanted[changed.path] = read
    if wanted:
        return [wanted[k] for k in sorted(wanted)], ""
    if multi_node:
        return [], _MULTI_NODE_ONLY
    return [], "no single-node vLLM/SGLang recipe is added or changed"


def _models(ctx: JudgeContext) -> list[str]:
    """Models of the single-node vLLM/SGLang entries in scope (what the sweep actually serves)."""
    policy = ctx.policy
    return sorted(
        {
            entry.model
            for entry in ctx.changed_entries
            if not (entry.multinode or entry.disagg)
            and entry.framework in policy.images.engine_first_frameworks
        }
    )


def _engine_of(ctx: JudgeContext, read: FileRead) -> str:
    facts = ctx.script_facts(read.path)
    if facts is None:
        return "other"
    engines = {launch.engine for launch in facts.launches}
    return sorted(engines)[0] if len(engines) == 1 else ("vllm" if "vllm" in engines else "other")


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


def _launches(ctx: JudgeContext, scripts: list[FileRead | str]) -> tuple[list[ServerLaunch], str]:
    launches: list[ServerLaunch] = []
    for script in scripts:
        if isinstance(script, str):
            return [], f"{script} could not be read at the pinned head"
        facts = ctx.script_facts(script.path)
        if facts is None or not facts.complete:
            why = facts.problems[0] if facts is not None and facts.problems else "unread"
            return [], f"{script.path} could not be fully read ({why})"
        if not facts.launches:
            return [], f"{script.path}: no server launch command found to compare with the recipe"
        launches.extend(facts.launches)
    return launches, ""


def _major(ctx: JudgeContext, launch: ServerLaunch) -> list[Arg]:
    if not ctx.switches.recipe_major_args_only:  # before #1908 every launch flag had to match
        return list(launch.args)
    major = set(ctx.policy.recipe.major_args)
    return [arg for arg in launch.args if arg.flag in major]


def _recipe_text(links: list[UpstreamLink]) -> str:
    texts = [f.text or "" for link in links for f in link.files]
    texts.extend(link.page_text or "" for link in links)
    return _normalise("\n".join(texts))


def _normalise(text: str) -> str:
    """Lower-case with `_`, `=`, `:` and whitespace folded to `-`, so CLI and YAML forms compare."""
    return re.sub(r"[\s_:=\"']+", "-", text.lower())


def _missing_major_args(ctx: JudgeContext, launches: list[ServerLaunch], recipe: str) -> list[str]:
    """Major flags (with literal values) of the launch commands that the recipe never mentions."""
    missing: set[str] = set()
    for launch in launches:
        if launch.model and not _mentions_model(launch.model, recipe):
            missing.add(f"model {launch.model}")
        for arg in _major(ctx, launch):
            gap = _arg_gap(ctx, arg, recipe)
            if gap:
                missing.add(gap)
    return sorted(missing)


def _mentions_model(model: str, recipe: str) -> bool:
    if "$" in model:
        return True  # filled from the matrix at run time; the config's model is what is swept
    name = model.strip("'\"").rstrip("/").rsplit("/", 1)[-1]
    return _normalise(name) in recipe


def _arg_gap(ctx: JudgeContext, arg: Arg, recipe: str) -> str:
    """ "--flag value" when the recipe lacks the flag (any alias) or its literal value."""
    if arg.flag in ("--model", "--model-path"):
        return (
            "" if arg.value is None or _mentions_model(arg.value, recipe) else f"model {arg.value}"
        )
    names = _aliases(ctx, arg.flag)
    if not any(_normalise(name.lstrip("-")) in recipe for name in names):
        return arg.flag if arg.value is None else f"{arg.flag} {arg.value}"
    value = (arg.value or "").strip("'\"")
    if not value or "$" in value:
        return ""  # boolean flag, or a value the sweep matrix fills in
    pairs = (_normalise(f"{name.lstrip('-')} {value}") for name in names)
    return "" if any(pair in recipe for pair in pairs) else f"{arg.flag} {value}"


def _aliases(ctx: JudgeContext, flag: str) -> tuple[str, ...]:
    for group in ctx.policy.recipe.arg_aliases:
        if flag in group:
            return group
    return (flag,)
