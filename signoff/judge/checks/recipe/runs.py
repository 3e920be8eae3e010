"""What Check 3 compares: each changed single-node vLLM/SGLang recipe as the sweep runs it.

A target is a changed master-config entry (its script chosen per configuration point, read with
that point's environment bound: `ctx.script_runs`) or a changed script no changed entry runs
(`ctx.script_runs_for_path`: per configuration of the head's entries that run it, else with
nothing bound). Either way the script's own override hooks that
nothing exports are read as unset, as the job runs it (`ctx.unset_hooks`): an author who hides a
flag behind one only loses its documentation here, since the job never passes it.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from signoff.evidence import FileRead
from signoff.judge.context import JudgeContext, path_matches
from signoff.parse.benchmark.launch import ScriptRun
from signoff.parse.inferencex.master_config import MasterEntry


class Target(BaseModel):
    """One script to compare, with the entry (model, SKU) it serves when a changed entry has it."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    key: str  # the entry key, or the script path
    path: str
    read: FileRead | None  # None: the script could not be read at the head
    entry: MasterEntry | None = None


# a reading that ended before the script's end: the work bound, or a reader failure
_STOPPED = re.compile(
    r"\(work bound\)|work bound for reading scripts|script could not be evaluated"
)


def targets(ctx: JudgeContext) -> tuple[tuple[Target, ...], bool]:
    """(single-node vLLM/SGLang recipes in scope, whether the PR touches multi-node recipes)."""
    policy = ctx.policy
    engines = set(policy.images.engine_first_frameworks)
    found: dict[str, Target] = {}
    covered: set[str] = set()  # scripts a changed entry runs: compared through that entry
    multi_node = False
    for entry in ctx.changed_entries:
        if entry.multinode or entry.disagg or entry.engine in policy.recipe.disagg_frameworks:
            multi_node = True
        elif entry.engine in engines:
            runs = ctx.script_runs(entry, hooks_unset=True)
            covered.update(run.path for run in runs)
            read = ctx.script_for(entry)
            path = runs[0].path if runs else (read.path if read is not None else entry.file)
            found[entry.key] = Target(key=entry.key, path=path, read=read, entry=entry)
    if any(
        path_matches(f.path, policy.paths.multi_node_scripts) for f in ctx.evidence.changed_files
    ):
        multi_node = True
    for changed in ctx.changed_scripts:
        if changed.path in covered or not path_matches(
            changed.path, policy.paths.single_node_scripts
        ):
            continue
        read = ctx.evidence.file(changed.path, "head")
        if read is None or read.state != "ok":
            found[changed.path] = Target(key=changed.path, path=changed.path, read=None)
        elif _launches_engine(ctx, changed.path, engines):
            found[changed.path] = Target(key=changed.path, path=changed.path, read=read)
    return tuple(found[k] for k in sorted(found)), multi_node


def _launches_engine(ctx: JudgeContext, path: str, engines: set[str]) -> bool:
    """The script's reading shows a vLLM/SGLang launch, or stopped before it could show one
    (the work bound, a reader failure): then it is compared, and fails closed naming it."""
    facts = ctx.script_facts(path)
    if facts is None:
        return False
    if any(_STOPPED.search(problem) for problem in facts.problems):
        return True
    return any(launch.engine in engines for launch in facts.launches)


def script_runs(ctx: JudgeContext, target: Target) -> tuple[ScriptRun, ...]:
    """The entry's benchmark job per configuration point, or the changed script unbound."""
    if target.entry is not None:
        return ctx.script_runs(target.entry, hooks_unset=True)
    if target.read is None:
        return ()
    return ctx.script_runs_for_path(target.path, hooks_unset=True, jobs=("benchmark",))
