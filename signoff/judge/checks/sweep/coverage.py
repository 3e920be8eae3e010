"""Whether the sweep benchmarked every master-config entry the PR adds or changes.

run-sweep.yml benchmarks what the PR's new perf-changelog.yaml entries select, nothing else
(utils/process_changelog.py at 843c6254f): a `config-keys` item names one key, or with `*` (its
only wildcard, any run of characters) every master key it matches in full; `scenario-type`
limits an entry to those scenarios; an `evals-only` or `all-evals` entry runs no throughput. A
changed entry outside that selection was never benchmarked, however green the run is, and its
model prefix may still show passing evals of a sibling entry the changelog did select.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from signoff.evidence import ChangedFile
from signoff.judge.context import JudgeContext
from signoff.judge.model import Want, want_file
from signoff.judge.quote import code
from signoff.parse.inferencex.changelog import appended_entries, new_entries
from signoff.parse.inferencex.master_config import EntryChange

NO_THROUGHPUT = frozenset({"evals-only", "all-evals"})

# (config-keys item, the scenarios its entry runs; None: every scenario)
Selection = list[tuple[str, frozenset[str] | None]]


def wants(ctx: JudgeContext) -> Iterator[Want]:
    """The changelog's texts at base and head when GitHub sent no patch for it (a PR past
    3,000 files lists the rest from git trees, without patches)."""
    path = ctx.policy.append_only.changelog
    changed = next((f for f in ctx.evidence.changed_files if f.path == path), None)
    if ctx.entry_changes and changed is not None and changed.patch is None:
        yield want_file(path, "base")
        yield want_file(path, "head")


def unswept(ctx: JudgeContext, files: Sequence[ChangedFile]) -> str:
    """Why an added or changed entry was not benchmarked ("" when every one was).

    `files` is the PR's diff as of the swept commit (its changelog is what the run read).
    """
    if ctx.master_problems:  # the entries the sweep had to cover are themselves unknown
        return (
            f"the changed entries cannot be read ({ctx.master_problems[0]}), "
            "so the sweep's run cannot be shown to cover them"
        )
    changes = sorted((c for c in ctx.entry_changes if c.head is not None), key=lambda c: c.key)
    if not changes:
        return ""
    path = ctx.policy.append_only.changelog
    at_head = files is ctx.evidence.changed_files
    selection = _selection(ctx, files, path, at_head)
    if isinstance(selection, str):
        return f"{selection}, so the sweep's run cannot be shown to cover {code(changes[0].key)}"
    for change in changes:
        problem = _uncovered(change, selection, path)
        if problem:
            return problem
    return ""


def selects(pattern: str, key: str) -> bool:
    """A `config-keys` item selects `key` as process_changelog.py resolves it (only `*` is
    special: `?` and `[` are literal there, unlike fnmatch)."""
    if "*" not in pattern:
        return pattern == key
    return re.fullmatch(re.escape(pattern).replace(r"\*", ".*"), key) is not None


def _selection(
    ctx: JudgeContext, files: Sequence[ChangedFile], path: str, at_head: bool
) -> Selection | str:
    changed = next((f for f in files if f.path == path), None)
    if changed is None or changed.status == "removed":
        return f"the PR adds no {path} entry"
    if changed.patch is not None:
        new = new_entries(changed.patch, path)
    elif at_head:
        base, head = ctx.evidence.file(path, "base"), ctx.evidence.file(path, "head")
        if base is None or head is None or base.text is None or head.text is None:
            return f"{path}: GitHub sent no patch and its texts were not read"
        new = appended_entries(base.text, head.text, path)
    else:
        return f"{path}: GitHub sent no patch at the swept commit"
    if new.problems:
        return new.problems[0]
    return [
        (pattern, frozenset(entry.scenario_types) or None)
        for entry in new.entries
        if not NO_THROUGHPUT & set(entry.flags)
        for pattern in entry.config_keys
    ]


def _uncovered(change: EntryChange, selection: Selection, path: str) -> str:
    scopes = [scenarios for pattern, scenarios in selection if selects(pattern, change.key)]
    if not scopes:
        return (
            f"{code(change.key)} is {change.kind} in {change.file}, but no entry the PR adds to "
            f"{path} runs its throughput (`config-keys`, without `evals-only`/`all-evals`), so "
            "the sweep never benchmarked it"
        )
    if any(scenarios is None for scenarios in scopes):
        return ""
    chosen = frozenset().union(*(s for s in scopes if s is not None))
    outside = sorted(_changed_scenarios(change) - chosen)
    if outside:
        return (
            f"{code(change.key)}: its {', '.join(outside)} scenario changed, but the PR's {path} "
            f"entries run only {', '.join(sorted(chosen))} for it"
        )
    return ""


def _changed_scenarios(change: EntryChange) -> set[str]:
    """Scenarios the change reaches: all of them when a config-wide field changed (or the entry
    is new, or what changed is in neither part)."""
    head = change.head
    assert head is not None  # `unswept` passes added and changed entries only
    now = dict(head.scenario_fingerprints)
    then = dict(change.base.scenario_fingerprints) if change.base is not None else {}
    every = set(now) | set(then)
    if change.base is None or change.base.fields_fingerprint != head.fields_fingerprint:
        return every
    changed = {name for name in every if now.get(name) != then.get(name)}
    return changed or every
