"""An append-only changelog entry only adds new points to existing, unchanged same-image curves.

Why: `append-only: true` lets a PR sweep just its new points and keep every published point;
that is only fair if nothing already measured changes. How it is judged: when a changelog entry
the PR adds says `append-only: true`, every new entry of the PR must say so (no mixing), none may
ask for evals-only, all-evals or eval-min-prefill-ep (nor may the PR carry the all-evals or
evals-only labels), and no existing changelog line may be deleted. The master configs at the PR
base and head are expanded into sweep curves (recipe without concurrency -> points) for the
configs and scenarios the entries select: every base curve must remain with all its points,
at least one point must be added, and each added point must sit on an existing visual series
whose one image it keeps. No config the entries do not select may change; a selected config
keeps its scenario set, and its config-wide fields and unselected scenarios when it has any.
Any other benchmark-affecting change (scripts, launchers, ...) cannot be proven to reach only
the new points, so it FAILs. N/A when no new entry is append-only. To satisfy it: append
points only, and ship any script change in a regular (re-sweeping) PR.
"""

from __future__ import annotations

import json
from fnmatch import fnmatchcase
from typing import Any

from signoff.evidence import ChangedFile
from signoff.judge import sweep_definition
from signoff.judge.context import JudgeContext, path_matches
from signoff.judge.model import Finding, failed, not_applicable, passed
from signoff.parse.inferencex.changelog import ChangelogEntry, new_entries
from signoff.parse.inferencex.master_blocks import sparse_text, split_blocks
from signoff.parse.inferencex.sweep_matrix import Curve, curves
from signoff.yamlload import load_yaml

ID = "append-only"
NAME = "append-only additive"
CONFIG = None  # it has no profile section beyond its switches (rules.<ID>.disable)

Selection = dict[str, set[str] | None]  # config key -> selected scenarios (None: all)


def evaluate(ctx: JudgeContext) -> Finding:
    path = ctx.policy.append_only.changelog
    changed = next((f for f in ctx.evidence.changed_files if f.path == path), None)
    if changed is None or changed.status == "removed":
        return not_applicable(f"{path} is not changed")
    if changed.patch is None:
        return failed(f"{path}: GitHub sent no patch, so its new entries cannot be read")
    new = new_entries(changed.patch, path)
    if new.problems:
        return failed(new.problems[0])
    appended = [entry for entry in new.entries if entry.append_only]
    if not appended:
        return not_applicable(f"no entry the PR adds to {path} says append-only: true")
    problem = _entry_rules(ctx, new.entries, new.deleted_lines, path) or _isolation(ctx)
    if problem:
        return failed(problem)
    return _matrix(ctx, appended)


def _entry_rules(
    ctx: JudgeContext, entries: tuple[ChangelogEntry, ...], deleted: tuple[int, ...], path: str
) -> str:
    regular = next((e for e in entries if not e.append_only), None)
    if regular is not None:
        return f"{path}:{regular.line}: append-only and regular entries cannot share a sweep"
    flagged = next((e for e in entries if e.flags), None)
    if flagged is not None:
        return f"{path}:{flagged.line}: append-only cannot be combined with {flagged.flags[0]}"
    label = next((x for x in ctx.evidence.pull_request.labels
                  if x in ctx.policy.append_only.forbidden_labels), None)  # fmt: skip
    if label is not None:
        return f"the PR's `{label}` label cannot be combined with an append-only sweep"
    if deleted:
        return f"{path}:{deleted[0]} (base) is deleted; existing changelog entries are immutable"
    return ""


def _isolation(ctx: JudgeContext) -> str:
    """Benchmark-affecting changes beyond the master configs and the changelog. Whether one
    reaches only the new points cannot be proven from the diff, so it fails closed. (Switches
    to comparing per-configuration script runs at base and head once the shell reader can.)"""
    allowed = {ctx.policy.append_only.changelog, *ctx.changed_master_files}
    for changed in ctx.evidence.changed_files:
        if changed.path in allowed or not _affects(ctx, changed):
            continue
        return (
            f"{changed.path} changes benchmark behaviour; that it reaches only the appended "
            "points cannot be proven, so an append-only sweep cannot include it"
        )
    return ""


def _affects(ctx: JudgeContext, changed: ChangedFile) -> bool:
    patterns = (*ctx.policy.sweep.affecting_paths, ctx.master_configs_glob)
    if sweep_definition.is_not_executed(ctx, changed.path):
        return False  # a workflow or program the sweep never runs changes no benchmark
    return any(path_matches(changed.path, p) for p in patterns)


# --- the sweep matrix ---------------------------------------------------------------------------


def _matrix(ctx: JudgeContext, entries: list[ChangelogEntry]) -> Finding:
    if ctx.master_problems:
        return failed(f"the master configs cannot be compared: {ctx.master_problems[0]}")
    if not ctx.changed_master_files:
        return failed("append-only: true, but no master config changes, so no point is added")
    base, head = _raw(ctx, "base"), _raw(ctx, "head")
    if isinstance(base, str) or isinstance(head, str):
        return failed(base if isinstance(base, str) else str(head))
    selection = _selection(entries, set(head))
    problem = _scope(base, head, selection)
    if problem:
        return failed(problem)
    return _delta(base, head, selection)


def _raw(ctx: JudgeContext, role: str) -> dict[str, Any] | str:
    """Every top-level entry of the changed master configs at `role`, as plain data."""
    found: dict[str, Any] = {}
    for path in ctx.changed_master_files:
        text = ctx.master_text(path, role)
        if text is None:
            return f"{path} could not be read at the PR {role}"
        blocks = split_blocks(text)
        try:
            data = load_yaml(text if blocks is None else sparse_text(text, blocks, set(blocks)))
        except Exception:  # parsed once already by the master-config reader; be safe anyway
            return f"{path} is not valid YAML at the PR {role}"
        if isinstance(data, dict):
            found.update((str(k), v) for k, v in data.items() if not str(k).startswith("."))
    return found


def _selection(entries: list[ChangelogEntry], head_keys: set[str]) -> Selection:
    """Config keys the entries select (`*` wildcards resolved against the head's keys)."""
    selection: Selection = {}
    for entry in entries:
        scenarios = set(entry.scenario_types) or None
        for pattern in entry.config_keys:
            keys = (
                [k for k in head_keys if fnmatchcase(k, pattern)] if "*" in pattern else [pattern]
            )
            for key in keys:
                previous = selection.get(key, set())
                selection[key] = (
                    None if scenarios is None or previous is None else previous | scenarios
                )
    return selection


def _scope(base: dict[str, Any], head: dict[str, Any], selection: Selection) -> str:
    unrelated = sorted(k for k in base.keys() | head.keys()
                       if k not in selection and base.get(k) != head.get(k))  # fmt: skip
    if unrelated:
        return f"config {unrelated[0]} changed but no append-only entry selects it"
    for key, chosen in sorted(selection.items(), key=lambda item: item[0]):
        if key not in head:
            continue  # in a master config the PR does not change: nothing of it changes
        if key not in base:
            return f"{key} is a new config; append-only adds points to existing curves only"
        problem = _config_scope(key, base[key], head[key], chosen)
        if problem:
            return problem
    return ""


def _config_scope(key: str, base: Any, head: Any, chosen: set[str] | None) -> str:
    if not isinstance(base, dict) or not isinstance(head, dict):
        return f"{key} is not a mapping at the base or the head"
    before, after = base.get("scenarios") or {}, head.get("scenarios") or {}
    if not isinstance(before, dict) or not isinstance(after, dict) or set(before) != set(after):
        return f"{key}: append-only may not add or remove a scenario"
    unselected = set(before) - chosen if chosen is not None else set()
    if unselected:
        top = ({k: v for k, v in base.items() if k != "scenarios"},
               {k: v for k, v in head.items() if k != "scenarios"})  # fmt: skip
        if top[0] != top[1]:
            return f"{key}: config-wide fields changed although scenarios outside the entry exist"
        changed = sorted(s for s in unselected if before[s] != after[s])
        if changed:
            return f"{key}: scenario {changed[0]} changed outside the append-only entry's scope"
    return ""


def _delta(base: dict[str, Any], head: dict[str, Any], selection: Selection) -> Finding:
    before, after = _curves(base, selection), _curves(head, selection)
    if isinstance(before, str) or isinstance(after, str):
        return failed(before if isinstance(before, str) else str(after))
    now = {c.recipe: c for c in after}
    for old in before:
        new = now.get(old.recipe)
        if new is None:
            return failed(
                f"{old.config} ({old.scenario}): an existing recipe was changed or removed"
                f"{_difference(old, after)}"
            )
        if old.concs - new.concs:
            lost = sorted(old.concs - new.concs)
            return failed(f"{old.config} ({old.scenario}): existing concurrency {lost} removed")
    then = {c.recipe: c for c in before}
    added = [(c, c.concs - then[c.recipe].concs if c.recipe in then else c.concs) for c in after]
    added = [(c, points) for c, points in added if points]
    if not added:
        return failed("append-only: true, but the head's matrix adds no point")
    series = _base_images(before)
    for curve, points in added:
        images = series.get(curve.series, set())
        if curve.image is None or images != {curve.image}:
            return failed(
                f"{curve.config} ({curve.scenario}): new point(s) {sorted(points)} do not sit on "
                "an existing visual curve with one unchanged image"
            )
    count = sum(len(points) for _, points in added)
    keys = ", ".join(sorted({c.config for c, _ in added}))
    return passed(f"{count} new point(s) on existing same-image curves of {keys}; "
                  "every existing point unchanged")  # fmt: skip


def _difference(old: Curve, after: list[Curve]) -> str:
    """The fields by which the closest head recipe of the same config differs (for reasons)."""
    was = json.loads(old.recipe)
    same = [
        json.loads(c.recipe) for c in after if (c.config, c.scenario) == (old.config, old.scenario)
    ]
    if not same:
        return ""
    closest = min(same, key=lambda now: sum(now.get(k) != v for k, v in was.items()))
    changed = sorted(k for k in was.keys() | closest.keys() if was.get(k) != closest.get(k))
    shown = ", ".join(f"`{k}` was {was.get(k)!r}, now {closest.get(k)!r}" for k in changed[:3])
    return f" ({shown})" if shown else ""


def _curves(configs: dict[str, Any], selection: Selection) -> list[Curve] | str:
    found: list[Curve] = []
    for key, chosen in sorted(selection.items(), key=lambda item: item[0]):
        entry = configs.get(key)
        if not isinstance(entry, dict):
            continue
        expanded = curves(key, entry, chosen)
        if isinstance(expanded, str):
            return expanded
        found += expanded
    return found


def _base_images(before: list[Curve]) -> dict[str, set[str | None]]:
    images: dict[str, set[str | None]] = {}
    for curve in before:
        images.setdefault(curve.series, set()).add(curve.image)
    return images
