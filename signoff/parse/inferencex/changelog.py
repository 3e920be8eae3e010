"""Read the entries a PR adds to `perf-changelog.yaml`, from its patch (no extra request).

The changelog is append-only: a PR's entries are runs of added lines. Each run of consecutive
added lines must parse as a YAML list of mappings; anything else (an edit inside an existing
entry, a fragment) is a problem, never a guess. Deleted non-blank lines are reported too.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from signoff.parse.diff import DiffLine, patch_lines
from signoff.yamlload import load_yaml


class ChangelogEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    line: int  # first line in the head file
    config_keys: tuple[str, ...]
    scenario_types: tuple[str, ...] = ()  # empty: every scenario of the config
    append_only: bool = False
    flags: tuple[str, ...] = ()  # evals-only, all-evals, eval-min-prefill-ep when set


class NewEntries(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    entries: tuple[ChangelogEntry, ...] = ()
    deleted_lines: tuple[int, ...] = ()  # non-blank lines the PR removes (old numbering)
    problems: tuple[str, ...] = ()


_EVAL_FLAGS = ("evals-only", "all-evals", "eval-min-prefill-ep")


def new_entries(patch: str, path: str) -> NewEntries:
    """The entries a changelog patch adds; never raises."""
    lines = patch_lines(patch)
    if not lines.complete:
        return NewEntries(problems=(f"{path}: the patch could not be read",))
    entries: list[ChangelogEntry] = []
    problems: list[str] = []
    for run in _runs(lines.added):
        text = "\n".join(line.text for line in run)
        if not text.strip():
            continue
        parsed = _entries(text, run[0].line, path)
        if isinstance(parsed, str):
            problems.append(parsed)
        else:
            entries += parsed
    deleted = tuple(line.line for line in lines.removed if line.text.strip())
    return NewEntries(entries=tuple(entries), deleted_lines=deleted, problems=tuple(problems))


def appended_entries(base: str, head: str, path: str) -> NewEntries:
    """The entries the head appends to the base text (for a changelog GitHub sent no patch for:
    past the PR's first 3,000 files). Anything but a pure append of whole lines is a problem."""
    if not head.startswith(base) or (base and not base.endswith("\n")):
        return NewEntries(problems=(f"{path}: the head does not only append to the base",))
    first = base.count("\n") + 1
    added = head[len(base) :]
    if not added.strip():
        return NewEntries()
    parsed = _entries(added, first, path)
    if isinstance(parsed, str):
        return NewEntries(problems=(parsed,))
    return NewEntries(entries=tuple(parsed))


def _runs(added: tuple[DiffLine, ...]) -> list[list[DiffLine]]:
    runs: list[list[DiffLine]] = []
    for line in added:
        if runs and runs[-1][-1].line + 1 == line.line and runs[-1][-1].hunk == line.hunk:
            runs[-1].append(line)
        else:
            runs.append([line])
    return runs


def _entries(text: str, first: int, path: str) -> list[ChangelogEntry] | str:
    try:
        data = load_yaml(text)
    except Exception:  # yaml.YAMLError and friends: the added lines are not whole entries
        return f"{path}:{first}: the added lines are not whole changelog entries"
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        return f"{path}:{first}: the added lines are not a list of changelog entries"
    found = []
    offsets = [i for i, ln in enumerate(text.split("\n")) if ln.startswith("- ")]
    for index, item in enumerate(data):
        entry = _entry(item, first + (offsets[index] if index < len(offsets) else 0))
        if isinstance(entry, str):
            return f"{path}:{first}: {entry}"
        found.append(entry)
    return found


def _entry(item: dict[Any, Any], line: int) -> ChangelogEntry | str:
    keys = item.get("config-keys")
    if not isinstance(keys, list) or not keys or not all(isinstance(k, str) for k in keys):
        return "an entry without a config-keys list"
    scenarios = item.get("scenario-type") or []
    if not isinstance(scenarios, list) or not all(isinstance(s, str) for s in scenarios):
        return "scenario-type must be a list"
    append_only = item.get("append-only", False)
    if not isinstance(append_only, bool):
        return f"append-only must be true or false, not {append_only!r}"
    flags = tuple(flag for flag in _EVAL_FLAGS if item.get(flag) not in (None, False))
    return ChangelogEntry(
        line=line, config_keys=tuple(keys), scenario_types=tuple(scenarios),
        append_only=append_only, flags=flags,
    )  # fmt: skip
