"""The golden acceptance-length curves on the default branch, and holding a value to them."""

from __future__ import annotations

from signoff.judge.context import JudgeContext
from signoff.judge.model import Finding, failed, passed
from signoff.parse.inferencex.golden_al import GoldenCurve, parse_golden


def load_curves(ctx: JudgeContext) -> list[GoldenCurve] | str:
    """Every curve read from the golden directory, or why they cannot be had."""
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


def model_keys(ctx: JudgeContext, model: str, prefix: str) -> list[str]:
    """The curve keys a config may use: its own model id first, then the prefix's ids."""
    own = model.rstrip("/").rsplit("/", 1)[-1].lower()
    return [k for k in (own, *ctx.policy.golden_al.model_keys.get(prefix, ())) if k]


def golden_hit(
    curves: list[GoldenCurve], mode: str, drafts: tuple[int, ...], value: float, tolerance: float
) -> str | None:
    """`2.49 = dsv4_mtp.yaml thinking_on[3]` when `value` is the golden AL of a draft length."""
    for curve in curves:
        for draft in drafts:
            golden = curve.value(mode, draft)
            if golden is not None and abs(golden - value) <= tolerance:
                return f"{value:g} = {curve.file.rsplit('/', 1)[-1]} {mode}[{draft}]"
    return None


def expected(curves: list[GoldenCurve], mode: str, drafts: tuple[int, ...]) -> str:
    values = sorted(
        {f"{c.value(mode, d):g} (draft {d})" for c in curves for d in drafts if c.value(mode, d)}
    )
    return " or ".join(values) if values else f"(no {mode} value for draft length {drafts})"


def no_curve(ctx: JudgeContext, label: str, keys: list[str]) -> Finding:
    """A model without a curve passes only when the detail section states its AL source."""
    detail = ctx.signoff.detail.lower()
    cue = next((c for c in ctx.policy.golden_al.source_cues if c in detail), None)
    wanted = " / ".join(keys) or "its model"
    if cue is None:
        return failed(
            f"{label}: no golden AL curve for {wanted}, and the Additional detail section does "
            "not state the AL source"
        )
    return passed(f"{label}: no golden curve for {wanted}; AL source stated ({cue!r})")
