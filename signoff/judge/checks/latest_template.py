"""The sign-off copies every item of the current checklist.

Why: the checklist grows (21 versions so far); a stale copy silently skips new rules. How it is
judged: the template is the fenced block of `docs/PR_REVIEW_CHECKLIST.md` on the default branch at
verification time. Every template item must have a matching, checked item in the sign-off
(tolerant of whitespace, case, typos and appended run links, not of outdated wording). An
unchecked item passes only with an explanation attached to it: an explanation phrase ("n/a",
"not applicable", ...) on the item's own line or in text nested under it, or a sentence in the
Additional detail section that names the item by one of its cue phrases. Words count as words:
a phrase inside a URL or a link destination explains nothing, and one "n/a" explains only the
item it is attached to. A missing or unexplained item is named with the check that verifies it
under the standard being judged (items later eras added map to their checks only from those eras
on). To satisfy it: copy the template afresh from the default branch and check or explain every
item.
"""

from __future__ import annotations

from signoff.judge.context import JudgeContext
from signoff.judge.model import Finding, failed, passed
from signoff.parse.comment.item_matching import ItemMatch
from signoff.parse.comment.phrases import count_phrase, has_phrase, phrase_words, words

ID = "latest-template"
NAME = "latest template"
CONFIG = None  # it has no profile section beyond its switches (rules.<ID>.disable)


def evaluate(ctx: JudgeContext) -> Finding:
    path = ctx.policy.paths.template
    if ctx.template is None or ctx.matches is None:
        read = ctx.template_read
        why = read.reason or read.state if read is not None else "not read"
        return failed(f"{path} on the default branch is unreadable ({why})")
    if not ctx.template.items:
        return failed(f"{path} on the default branch has no checklist items to compare against")
    report = ctx.matches
    if report.missing:
        names = ", ".join(_name(ctx, m) for m in report.missing)
        return failed(f"sign-off lacks {len(report.missing)} current {path} item(s): {names}")
    unexplained = [m for m in report.unchecked if not _explained(ctx, m)]
    if unexplained:
        names = ", ".join(_name(ctx, m) for m in unexplained)
        return failed(
            f"unchecked item(s) with no explanation attached (on the item's line, nested under "
            f"it, or a detail sentence naming it): {names}"
        )
    total = len(report.matches)
    if report.unchecked:
        return passed(
            f"all {total} current {path} items present; {len(report.unchecked)} unchecked "
            "item(s) explained"
        )
    return passed(f"all {total} current {path} items present and checked")


def _name(ctx: JudgeContext, match: ItemMatch) -> str:
    """The item, and the check that verifies it under the standard being judged (the mapping
    is per era: DEPRECATED feeds Check 7 in E7+, and no check before)."""
    words = match.template_text.split()
    snippet = " ".join(words[:8]) + (" …" if len(words) > 8 else "")
    label = match.catalog_id or f"item {match.template_index + 1}"
    slot = ctx.standard.check_for_item(match.catalog_id) if match.catalog_id else None
    feeds = f"; verified by Check {slot.number} ({slot.name})" if slot is not None else ""
    return f'{label} ("{snippet}"{feeds})'


def _explained(ctx: JudgeContext, match: ItemMatch) -> bool:
    """An explanation attached to this item: see the module docstring."""
    if match.signoff_index is None:
        return False
    item = ctx.signoff.items[match.signoff_index]
    own, template = words(item.words), words(match.template_text)
    for cue in ctx.policy.signoff.explanation_cues:
        cue_words = phrase_words(cue)
        # The template's own wording is no explanation: count only what the reviewer added.
        if count_phrase(own, cue_words) > count_phrase(template, cue_words):
            return True
    spec = next((s for s in ctx.policy.template_items if s.id == match.catalog_id), None)
    return spec is not None and has_phrase(words(ctx.signoff.detail_words), spec.cues)
