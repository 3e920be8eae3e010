"""Settings the later prompt bans outright inside Check 8: `publish_events_and_metrics: false`.

Read as the job reads them: the lines a PR adds anywhere it can change a benchmark (a
disabling value FAILs, comments excepted), and for every benchmark of a framework that has the
setting (profile `arch.banned_settings[].frameworks`: Dynamo's TensorRT-LLM workers) the whole
recipe it runs, changed or not: there the setting must be present and enabled. signoff does not
read the image, so an omitted setting is "could not be verified" (FAIL) unless the profile
records, with the maintainer decision, that the image's default is enabled.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from signoff.judge.context import JudgeContext, path_matches
from signoff.judge.golden_recipes import config_files
from signoff.judge.model import Want, want_file
from signoff.judge.quote import code
from signoff.rules.no_arch_hacks import BannedSetting
from signoff.yamlload import load_yaml


def problem(ctx: JudgeContext) -> str:
    """The first banned or unverifiable setting, or "" when none (switch off: always "")."""
    if not ctx.switches.banned_settings:
        return ""
    for setting in ctx.policy.arch.banned_settings:
        found = _added_lines(ctx, setting) or _recipes(ctx, setting)
        if found:
            return found
    return ""


def wants(ctx: JudgeContext) -> Iterator[Want]:
    """The recipes the affected benchmarks of the setting's frameworks run, whole, at the head."""
    if not ctx.switches.banned_settings:
        return
    for setting in ctx.policy.arch.banned_settings:
        for path in _recipe_paths(ctx, setting):
            if ctx.evidence.file(path, "head") is None:
                yield want_file(path, "head")


def _added_lines(ctx: JudgeContext, setting: BannedSetting) -> str:
    pattern = _disabling(setting)
    for changed in ctx.evidence.changed_files:
        if not any(path_matches(changed.path, glob) for glob in setting.paths):
            continue
        if changed.patch is None:
            if setting.key in _head_text(ctx, changed.path):
                return f"{changed.path}: GitHub sent no patch; {_unverified(setting)}"
            continue
        line = 0
        for raw in changed.patch.split("\n"):
            hunk = re.match(r"@@ -\d+(?:,\d+)? \+(\d+)", raw)
            if hunk:
                line = int(hunk[1]) - 1
                continue
            if raw.startswith("-"):
                continue
            line += 1
            if raw.startswith("+") and pattern.search(raw[1:].split("#", 1)[0]):
                return (
                    f"{changed.path}:{line} sets {code(raw[1:].strip(), 80)}: "
                    f"{code(setting.key)} must not be disabled"
                )
    return ""


def _recipes(ctx: JudgeContext, setting: BannedSetting) -> str:
    for path in _recipe_paths(ctx, setting):
        read = ctx.evidence.file(path, "head")
        if read is None or read.state != "ok" or read.text is None:
            return f"{path} could not be read at the pinned head; {_unverified(setting)}"
        values = _values(_parsed(read.text), setting.key)
        if values is None:
            return f"{path} is not YAML signoff can read; {_unverified(setting)}"
        off = [v for v in values if str(v).strip().lower() in setting.disabled]
        if off:
            return f"{path} sets {code(f'{setting.key}: {off[0]}')}: it must not be disabled"
        if not values and not setting.default_enabled:
            return (
                f"{path} does not set {code(setting.key)} and the image's default is not read; "
                f"{_unverified(setting)}"
            )
    return ""


def _recipe_paths(ctx: JudgeContext, setting: BannedSetting) -> list[str]:
    """Recipes of changed entries of the setting's frameworks, and changed recipe files there."""
    paths: set[str] = set()
    for entry in ctx.changed_entries:
        if entry.engine in setting.frameworks:
            paths.update(config_files(ctx, entry))
    for changed in ctx.evidence.changed_files:
        recipe = changed.path.endswith((".yaml", ".yml")) and changed.status != "removed"
        if recipe and any(path_matches(changed.path, glob) for glob in setting.recipes):
            paths.add(changed.path)
    return sorted(paths)


def _disabling(setting: BannedSetting) -> re.Pattern[str]:
    key = re.escape(setting.key)
    flag = re.escape("--" + setting.key.replace("_", "-"))
    values = "|".join(re.escape(v) for v in setting.disabled)
    return re.compile(
        rf"(?:\b{key}\b[\"']?\s*[:=]|{flag}(?:\s+|=))\s*[\"']?(?:{values})\b", re.IGNORECASE
    )


def _parsed(text: str) -> Any:
    try:
        return load_yaml(text)
    except Exception:  # any YAML error: the reader says so and the check fails closed
        return _UNREADABLE


_UNREADABLE = object()


def _values(node: Any, key: str) -> list[Any] | None:
    """Every value of `key` at any depth (None: the text was not YAML)."""
    if node is _UNREADABLE:
        return None
    found: list[Any] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for name, value in item.items():
                if name == key:
                    found.append(value)
                stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _head_text(ctx: JudgeContext, path: str) -> str:
    read = ctx.evidence.file(path, "head")
    return read.text if read is not None and read.text is not None else ""


def _unverified(setting: BannedSetting) -> str:
    return f"event/metric publication ({code(setting.key)}) could not be verified"
