"""Nothing the PR submits is a deprecated model, scenario, precision or spec-decode arm.

Why: InferenceX runs on a fixed pool of GPUs; retired models and deprecated scenarios free that
capacity, and a PR must not bring them back. How it is judged: MODELS.md on the default branch
is the source of truth (dated deprecation notices, whose date is the last allowed day; the
Scenarios table; the model support matrix with its retirements). The review date is the instant
the evidence records (`reviewed_at`: the moment of gathering, or the sign-off's instant in an
audit), so a scheduled deprecation is allowed until its date. Every master-config entry the PR
adds or changes (its model prefix, precision, fixed-seq ISL/OSL and agentic scenarios, and its
non-spec-decode arm) and every benchmark script it adds or changes (its prefix and precision)
is matched against those rules; a match FAILs naming the MODELS.md row. A deprecation MODELS.md
marks "not yet enacted" still FAILs new configs but lets existing ones be changed. N/A when no
config or script changes. To satisfy it: do not submit what MODELS.md has deprecated.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime

from signoff.judge.context import JudgeContext
from signoff.judge.model import Finding, Want, failed, not_applicable, passed, want_file
from signoff.parse.inferencex.master_blocks import split_blocks
from signoff.parse.inferencex.master_config import EntryChange
from signoff.parse.inferencex.models_md import Deprecation, ModelsDoc, Scenario, parse_models
from signoff.yamlload import load_yaml

ID = "deprecated-models"
NAME = "deprecated models/scenarios"
CONFIG = None  # it has no profile section beyond its switches (rules.<ID>.disable)

MODELS = "MODELS.md"


def wants(ctx: JudgeContext) -> Iterator[Want]:
    if _in_scope(ctx):
        yield want_file(MODELS, "default")


def evaluate(ctx: JudgeContext) -> Finding:
    if not _in_scope(ctx):
        return not_applicable("no benchmark config or recipe is added, changed or re-enabled")
    if ctx.master_problems:
        return failed(f"the configs the PR submits cannot be determined: {ctx.master_problems[0]}")
    today = _review_date(ctx)
    if today is None:
        return failed("the evidence records no review date, so effective dates cannot be applied")
    doc = _models(ctx)
    if isinstance(doc, str):
        return failed(doc)
    notes: list[str] = []
    for change in ctx.entry_changes:
        problem = _judge_entry(ctx, change, doc, today, notes)
        if problem:
            return failed(problem)
    for path in _scripts(ctx):
        problem = _judge_script(path, doc, today)
        if problem:
            return failed(problem)
    count = len(ctx.entry_changes) + len(_scripts(ctx))
    tail = f"; {'; '.join(notes)}" if notes else ""
    return passed(f"{count} config(s)/script(s) checked against {MODELS} on {today}{tail}")


def _in_scope(ctx: JudgeContext) -> bool:
    return bool(ctx.changed_master_files or _scripts(ctx))


def _scripts(ctx: JudgeContext) -> list[str]:
    return [f.path for f in ctx.changed_scripts if "/deprecated/" not in f.path]


def _review_date(ctx: JudgeContext) -> date | None:
    try:
        instant = datetime.fromisoformat(ctx.evidence.reviewed_at.replace("Z", "+00:00"))
    except ValueError:
        return None
    return instant.date() if instant.tzinfo is not None else None


def _models(ctx: JudgeContext) -> ModelsDoc | str:
    read = ctx.evidence.file(MODELS, "default")
    if read is None or read.state != "ok" or read.text is None:
        return f"{MODELS} on the default branch is unreadable ({ctx.unread(read)})"
    doc = parse_models(read.text, MODELS)
    if doc.problems:
        return doc.problems[0]
    return doc


# --- matching -----------------------------------------------------------------------------------


def _in_force(rule: Deprecation, today: date) -> bool:
    return today >= rule.first_day


def _where(rule: Deprecation) -> str:
    last = "" if rule.first_day == date.min else f", from {rule.first_day}"
    return f"{MODELS}:{rule.line} ({rule.text}{last})"


def _judge_entry(
    ctx: JudgeContext, change: EntryChange, doc: ModelsDoc, today: date, notes: list[str]
) -> str:
    entry = change.head
    if entry is None:
        return ""
    scenarios = _entry_scenarios(ctx, change)
    for rule in doc.deprecations:
        if not (_in_force(rule, today) and rule.prefix in (None, entry.model_prefix)):
            continue
        if rule.precision is not None and rule.precision != entry.precision.lower():
            continue
        hit = _scenario_hit(rule, scenarios, "none" in entry.spec_modes)
        if hit is None:
            continue
        if rule.enacted or change.kind == "added":
            return f"{entry.key} ({entry.model_prefix}, {hit}) is deprecated: {_where(rule)}"
        notes.append(f"{entry.key}: {hit} is deprecated but not yet enacted ({MODELS}:{rule.line})")
    return ""


def _scenario_hit(rule: Deprecation, scenarios: list[Scenario], non_spec: bool) -> str | None:
    """The entry scenario the rule deprecates, named; None when it deprecates none of them."""
    for scenario in scenarios:
        if rule.scenario is not None and not _same_scenario(rule.scenario, scenario):
            continue
        if rule.non_spec_arm and not non_spec:
            continue
        return f"{scenario.name}{' non-spec-decode arm' if rule.non_spec_arm else ''}"
    return None


def _same_scenario(a: Scenario, b: Scenario) -> bool:
    if a.kind != b.kind:
        return False
    return a.kind != "fixed-seq-len" or (a.isl, a.osl) == (b.isl, b.osl)


def _entry_scenarios(ctx: JudgeContext, change: EntryChange) -> list[Scenario]:
    """The scenarios an entry runs: agentic coding, and each fixed-seq ISL/OSL pair."""
    assert change.head is not None
    found: list[Scenario] = []
    if change.head.is_agentic:
        found.append(Scenario(name="agentic coding", kind="agentic-coding"))
    if "fixed-seq-len" in change.head.scenarios:
        pairs = _seq_lens(ctx, change)
        found += [
            Scenario(name=f"ISL/OSL {isl}/{osl}", kind="fixed-seq-len", isl=isl, osl=osl)
            for isl, osl in pairs
        ] or [Scenario(name="fixed-seq-len (ISL/OSL unread)", kind="fixed-seq-len")]
    return found


def _seq_lens(ctx: JudgeContext, change: EntryChange) -> list[tuple[int, int]]:
    assert change.head is not None
    text = ctx.master_text(change.file, "head") or ""
    blocks = split_blocks(text)
    block = text
    if blocks is not None and change.key in blocks:
        start, end = blocks[change.key]
        block = "\n".join(text.split("\n")[start:end])
    try:
        data = load_yaml(block)
    except Exception:  # the entry parsed before; an odd block only means the pairs are unread
        return []
    entry = data.get(change.key) if isinstance(data, dict) else None
    items = entry.get("scenarios", {}).get("fixed-seq-len") if isinstance(entry, dict) else None
    pairs = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and isinstance(item.get("isl"), int):
            pairs.append((item["isl"], item.get("osl")))
    return sorted({(isl, osl) for isl, osl in pairs if isinstance(osl, int)})


def _judge_script(path: str, doc: ModelsDoc, today: date) -> str:
    """A script (`<prefix>_<precision>_...sh`) for a retired model or deprecated precision."""
    parts = path.rsplit("/", 1)[-1].split("_")
    prefix, precision = parts[0], parts[1].lower() if len(parts) > 1 else ""
    agentic = "/agentic/" in path
    for rule in doc.deprecations:
        if not (_in_force(rule, today) and rule.prefix == prefix and rule.enacted):
            continue
        whole_model = rule.scenario is None and rule.precision is None
        by_precision = rule.scenario is None and rule.precision == precision
        agentic_gone = agentic and rule.scenario is not None and (
            rule.scenario.kind == "agentic-coding" and not rule.non_spec_arm
        )  # fmt: skip
        if whole_model or by_precision or agentic_gone:
            return f"{path} submits a recipe for {prefix} that is deprecated: {_where(rule)}"
    return ""
