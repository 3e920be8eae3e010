"""vLLM and SGLang run from upstream images, and come before other engines.

Why: a vendor that claims first-class vLLM/SGLang support must show it with the engines' own
images, and must not publish other engines ahead of them. How it is judged, per master-config
entry the PR adds or changes: (a) a `vllm` entry's image lives in Docker Hub org `vllm`, an
`sglang` entry's in `lmsysorg` (digests fine, `#` read as `/`), on established SKUs; (b) an entry
of any other framework (TRT-LLM, ATOM, ...) needs a vLLM or SGLang entry for the same model prefix
and SKU. New hardware (an SKU not in the profile's established list) and an exception documented
in the Additional detail section (new hardware / new architecture) are allowed. N/A without
master-config entry changes. To satisfy it: use the upstream image, or submit vLLM/SGLang first.
"""

from __future__ import annotations

from signoff.judge.context import JudgeContext
from signoff.judge.model import Finding, failed, not_applicable, passed
from signoff.parse.master_config import MasterEntry

ID = "upstream-image"
NAME = "upstream image / engine-first"


def evaluate(ctx: JudgeContext) -> Finding:
    if not ctx.changed_master_files:
        return not_applicable("no master-config entry is added or changed")
    if ctx.master_problems:
        return failed(ctx.master_problems[0])
    entries = ctx.changed_entries
    if not entries:
        return not_applicable("the master-config edits add or change no entry")
    exception = _documented_exception(ctx)
    notes: list[str] = []
    for entry in sorted(entries, key=lambda e: e.key):
        problem = _image_problem(ctx, entry) or _engine_first_problem(ctx, entry)
        if not problem:
            continue
        if exception:
            notes.append(f"{entry.key}: exception documented ({exception!r})")
            continue
        return failed(problem)
    return passed(_pass_reason(entries, notes))


def _documented_exception(ctx: JudgeContext) -> str:
    detail = ctx.signoff.detail.lower()
    return next((cue for cue in ctx.policy.images.exception_cues if cue in detail), "")


def _established(ctx: JudgeContext, entry: MasterEntry) -> bool:
    return entry.sku is not None and entry.sku in ctx.policy.images.established_skus


def _image_problem(ctx: JudgeContext, entry: MasterEntry) -> str:
    orgs = ctx.policy.images.upstream_orgs.get(entry.framework)
    if orgs is None or not _established(ctx, entry):
        return ""
    if entry.image_org in orgs:
        return ""
    allowed = " or ".join(f"{org}/" for org in orgs)
    return (
        f"{entry.key} ({entry.framework} on {entry.sku}) uses {entry.image}, not an upstream "
        f"{allowed} image, and no new-hardware or new-architecture exception is documented"
    )


def _engine_first_problem(ctx: JudgeContext, entry: MasterEntry) -> str:
    images = ctx.policy.images
    first = images.engine_first_frameworks
    if entry.framework in first or entry.framework in images.exempt_frameworks:
        return ""
    if not _established(ctx, entry):
        return ""
    for other in ctx.head_entries_mentioning({entry.model_prefix}):
        if (
            other.framework in first
            and other.model_prefix == entry.model_prefix
            and other.sku == entry.sku
        ):
            return ""
    return (
        f"{entry.key} ({entry.framework}) has no {'/'.join(first)} entry for "
        f"{entry.model_prefix} on {entry.sku}; vLLM/SGLang must be submitted first"
    )


def _pass_reason(entries: tuple[MasterEntry, ...], notes: list[str]) -> str:
    images = sorted({f"{e.image} ({e.framework} on {e.sku or 'unknown SKU'})" for e in entries})
    head = f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}: " + "; ".join(images[:3])
    more = f" and {len(images) - 3} more" if len(images) > 3 else ""
    tail = f"; {'; '.join(notes)}" if notes else ""
    return f"{head}{more}; upstream images and engine-first order hold{tail}"
