"""The PR description names what the diff changes, and claims nothing it does not (warning only).

Why: reviewers and readers of the published results take the description at its word; a body
that still describes an older image or another config misleads them. InferenceX made this
advisory in its later prompt (Check 15): it WARNs, never FAILs. How it is judged, read
deterministically (the body is untrusted text: it is only searched, never followed): for every
master-config entry the PR adds or changes, the description must name the entry's config key and,
when the diff sets its image (a new entry, or a changed image), that image or its tag (the
engine version); and every config key of the master configs, and every `org/name:tag` image, the
description names must be one the diff adds, changes or replaces (an old image the change
replaces may be named as the old one). A description that was not read WARNs. N/A when the PR
changes no master-config entry and the description names no config key or image. To satisfy it:
edit the PR description so it lists the config keys, images and versions the PR really changes.
"""

from __future__ import annotations

import re

from signoff.judge.context import JudgeContext
from signoff.judge.model import Finding, failed, not_applicable, passed
from signoff.judge.quote import code
from signoff.parse.inferencex.master_blocks import split_blocks
from signoff.parse.inferencex.master_config import EntryChange

ID = "pr-description"
NAME = "PR description"
CONFIG = None  # it has no profile section beyond its switches (rules.<ID>.disable)
# An image reference as descriptions write them: registry/org/name:tag (or @sha256:...).
_IMAGE = re.compile(r"(?<![\w./-])((?:[\w.-]+/)+[\w.-]+(?::[\w.-]+|@sha256:[0-9a-f]{8,}))")
_KEYISH = re.compile(r"[A-Za-z0-9][\w.]*(?:-[\w.]+)+")  # config keys are dash-joined words


def evaluate(ctx: JudgeContext) -> Finding:
    body = ctx.evidence.pull_request.body
    if body is None:
        return failed("the PR description was not read, so its claims could not be compared")
    if ctx.master_problems:
        return failed(f"the changed configs cannot be read: {ctx.master_problems[0]}")
    changes = [c for c in ctx.entry_changes if c.kind != "removed"]
    mentioned_keys, mentioned_images = _mentions(ctx, body)
    if not changes and not mentioned_keys and not mentioned_images:
        return not_applicable("no master-config entry changes and the description names none")
    missing = [problem for change in changes for problem in _unnamed(change, body)]
    if missing:
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        return failed(f"the PR description does not name {missing[0]}{more}")
    changed_keys = {c.key for c in ctx.entry_changes}
    allowed_images = _images_of(ctx.entry_changes)
    stray = [f"config {code(k)}" for k in sorted(mentioned_keys - changed_keys)]
    stray += [f"image {code(i)}" for i in sorted(mentioned_images) if not _known(i, allowed_images)]
    if stray:
        return failed(
            f"the PR description claims {stray[0]}, which this PR does not change"
            + (f" (and {len(stray) - 1} more)" if len(stray) > 1 else "")
        )
    return passed(
        f"the description names the {len(changes)} changed entr"
        f"{'y' if len(changes) == 1 else 'ies'} and their images, and claims nothing else"
    )


def _mentions(ctx: JudgeContext, body: str) -> tuple[set[str], set[str]]:
    """Config keys of the master configs (base or head) and images the description names."""
    known: set[str] = set()
    for path in ctx.changed_master_files:
        for role in ("base", "head"):
            text = ctx.master_text(path, role)
            blocks = split_blocks(text) if text is not None else None
            known |= set(blocks or ())
    keys = {word.rstrip(".") for word in _KEYISH.findall(body)} & known
    images = {match.lower() for match in _IMAGE.findall(body)}
    return keys, images


def _unnamed(change: EntryChange, body: str) -> list[str]:
    """What the description must name for one added or changed entry and does not."""
    head = change.head
    if head is None:
        return []
    found: list[str] = []
    if not _has_word(body, change.key):
        found.append(f"the config key {code(change.key)}")
    base_image = change.base.image if change.base is not None else None
    if head.image != base_image:
        tag = _tag(head.image)
        if head.image.lower() not in body.lower() and not (tag and _has_word(body, tag)):
            found.append(f"the image {code(head.image)} of {code(change.key)}")
    return found


def _images_of(changes: tuple[EntryChange, ...]) -> set[str]:
    images: set[str] = set()
    for change in changes:
        for entry in (change.base, change.head):
            if entry is not None:
                images |= {entry.image.lower(), entry.image_raw.lower()}
    return images


def _known(image: str, allowed: set[str]) -> bool:
    """An image the description names is one the change sets or replaces (a registry prefix such
    as `docker.io/` or a `#` separator written differently still counts)."""
    plain = image.replace("#", "/").removeprefix("docker.io/")
    return any(plain == a or plain.endswith("/" + a) or a.endswith("/" + plain) for a in allowed)


def _tag(image: str) -> str:
    if "@" in image:
        return ""
    last = image.rsplit("/", 1)[-1]
    return last.split(":", 1)[1] if ":" in last else ""


def _has_word(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w.-]){re.escape(word)}(?![\w-])", text, re.IGNORECASE) is not None
