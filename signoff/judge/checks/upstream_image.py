"""vLLM and SGLang run from upstream images, and come before other engines.

Why: a vendor that claims first-class vLLM/SGLang support must show it with the engines' own
images, and must not publish other engines ahead of them. How it is judged, per master-config
entry the PR adds or changes: (a) a `vllm` entry's image lives in Docker Hub org `vllm`, an
`sglang` entry's in `lmsysorg` (digests fine, `#` read as `/`), on established SKUs, the
framework read without case or blanks (InferenceX publishes a `VLLM` entry as vllm); (b) an entry
of any other framework (TRT-LLM, ATOM, ...) needs a vLLM or SGLang entry for the same model prefix
and SKU. New hardware (an SKU not in the profile's established list) is exempt. An exception
documented in the Additional detail section excuses an entry only when one sentence there both
asserts an exception phrase of the profile ("new hardware", "new model architecture", ...) and
names what it covers: the entry's SKU, model prefix, model or key. A negated phrase ("MI300X is
not new hardware", "rather than new hardware", "isn't new hardware") or a question asserts
nothing; words inside URLs do not count. N/A without master-config entry changes. To satisfy it:
use the upstream image, submit vLLM/SGLang first, or state the exception naming the SKU or model.
"""

from __future__ import annotations

from signoff.judge.context import JudgeContext
from signoff.judge.model import Finding, failed, not_applicable, passed
from signoff.judge.quote import code
from signoff.parse.comment.phrases import asserted, has_phrase, sentences, words
from signoff.parse.inferencex.master_config import MasterEntry, is_image_reference

ID = "upstream-image"
NAME = "upstream image / engine-first"
CONFIG = None  # it has no profile section beyond its switches (rules.<ID>.disable)


def evaluate(ctx: JudgeContext) -> Finding:
    if not ctx.changed_master_files:
        return not_applicable("no master-config entry is added or changed")
    if ctx.master_problems:
        return failed(ctx.master_problems[0])
    entries = ctx.changed_entries
    if not entries:
        return not_applicable("the master-config edits add or change no entry")
    notes: list[str] = []
    claims = _exception_claims(ctx)
    for entry in sorted(entries, key=lambda e: e.key):
        problem = _image_problem(ctx, entry) or _engine_first_problem(ctx, entry)
        if not problem:
            continue
        exception = _exception_for(claims, entry)
        if exception:
            notes.append(f"{code(entry.key)}: exception documented ({code(exception, 120)})")
            continue
        return failed(problem + _why_no_exception(ctx, entry))
    return passed(_pass_reason(entries, notes))


def _exception_claims(ctx: JudgeContext) -> list[tuple[str, frozenset[str]]]:
    """Detail sentences that assert an exception phrase, with their words (read once)."""
    cues = ctx.policy.images.exception_cues
    return [
        (sentence, frozenset(words(sentence)))
        for sentence in sentences(ctx.signoff.detail_words)
        if any(asserted(sentence, cue) for cue in cues)
    ]


def _exception_for(claims: list[tuple[str, frozenset[str]]], entry: MasterEntry) -> str:
    """The first asserted exception sentence naming what `entry` is, or ""."""
    names = _names(entry)
    return next((sentence for sentence, said in claims if names & said), "")


def _names(entry: MasterEntry) -> frozenset[str]:
    """Words that name the entry: its SKU, model prefix, key or model."""
    model = entry.model.lower()
    short = model.rsplit("/", 1)[-1]
    # "DeepSeek-V4" names deepseek-ai/DeepSeek-V4-Pro: the model's name less its last suffix.
    names = {entry.sku or "", entry.model_prefix, entry.key, model, short, short.rsplit("-", 1)[0]}
    return frozenset(name.lower() for name in names if name)


def _why_no_exception(ctx: JudgeContext, entry: MasterEntry) -> str:
    """Why exception wording in the detail section did not count, when there is some."""
    if not has_phrase(words(ctx.signoff.detail_words), ctx.policy.images.exception_cues):
        return ""
    named = " or ".join(code(n) for n in sorted({entry.sku or "", entry.model_prefix} - {""}))
    return (
        f" (the detail section's exception wording is negated, a question, or does not name "
        f"{named} in the same sentence)"
    )


def _established(ctx: JudgeContext, entry: MasterEntry) -> bool:
    return entry.sku is not None and entry.sku in ctx.policy.images.established_skus


def _image_problem(ctx: JudgeContext, entry: MasterEntry) -> str:
    orgs = ctx.policy.images.upstream_orgs.get(entry.engine)
    if orgs is None or not _established(ctx, entry):
        return ""
    if not is_image_reference(entry.image):
        return (
            f"{code(entry.key)} ({code(entry.framework)} on {entry.sku}) uses "
            f"{code(entry.image_raw)}, not a valid image reference (an optional registry, "
            "lower-case path components, an optional tag and digest, no blanks), so which "
            "image the runner pulls is unknown"
        )
    if entry.image_org in orgs:
        return ""
    allowed = " or ".join(f"{org}/" for org in orgs)
    return (
        f"{code(entry.key)} ({code(entry.framework)} on {entry.sku}) uses "
        f"{code(entry.image)}, not an upstream {allowed} image, and no new-hardware or "
        "new-architecture exception is documented"
    )


def _engine_first_problem(ctx: JudgeContext, entry: MasterEntry) -> str:
    images = ctx.policy.images
    if entry.engine in images.open_source_frameworks or not _established(ctx, entry):
        return ""  # open-source deployments are never ordered; new hardware is exempt
    first = _first_frameworks(ctx)
    for other in ctx.head_entries_mentioning({entry.model_prefix}):
        if (
            other.engine in first
            and other.model_prefix == entry.model_prefix
            and other.sku == entry.sku
        ):
            return ""
    return (
        f"{code(entry.key)} ({code(entry.framework)}, a vendor framework) has no "
        f"{'/'.join(first)} entry for {code(entry.model_prefix)} on {entry.sku}; vLLM/SGLang "
        "must be submitted first"
    )


def _first_frameworks(ctx: JudgeContext) -> tuple[str, ...]:
    """Which entries put vLLM/SGLang first: a plain vllm/sglang one, or (later prompt) any
    open-source deployment of them."""
    images = ctx.policy.images
    if ctx.standard.switches.engine_first_open_source:
        return images.open_source_frameworks
    return images.engine_first_frameworks


def _pass_reason(entries: tuple[MasterEntry, ...], notes: list[str]) -> str:
    images = sorted(
        {f"{code(e.image)} ({code(e.framework)} on {e.sku or 'unknown SKU'})" for e in entries}
    )
    head = f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}: " + "; ".join(images[:3])
    more = f" and {len(images) - 3} more" if len(images) > 3 else ""
    tail = f"; {'; '.join(notes)}" if notes else ""
    return f"{head}{more}; upstream images and engine-first order hold{tail}"
