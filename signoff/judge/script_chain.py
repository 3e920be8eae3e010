"""A chain of repository scripts a multi-node launcher runs by file, to the one script a check
reads (AMD's amd_utils: the entry's script -> submit.sh -> job.slurm -> server.sh ->
server_<engine>.sh, which starts the servers and runs bench.sh, the benchmark client).

signoff does not follow such a chain command by command (sbatch, docker and `eval` sit in it):
the check reads its target script with the values the chain hands it bound, as profile data. A
chain file the PR did not change was reviewed when it landed and counts for the entry; what the
PR changed is judged here: a changed shell script must be read completely (its gaps the base
shared apart), run no script file the PR wrote that signoff does not read, and pass the check's
own test of its reading; a changed program of another language (`programs`) is not read; and no
line the PR adds or removes in any changed chain file may name what the target's reading took
as given, what the chain derives it from, or the target itself (`names`: a value that changes
on its way through the chain is not followed). A changed data file (models.yaml) is judged by
that last rule alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from signoff.evidence import ChangedFile
from signoff.judge.baseline import settled
from signoff.judge.context import JudgeContext
from signoff.judge.paths import path_matches
from signoff.judge.script_files import unread_script_file
from signoff.parse.benchmark.launch import ScriptRun
from signoff.parse.diff import patch_lines
from signoff.parse.shell.script_files import basename


@dataclass(frozen=True)
class Chain:
    """One entry's chain as a check judges it."""

    entry_script: str  # the entry's own script (the chain's first file)
    files: tuple[str, ...]  # globs: every other file of the chain
    scripts: tuple[str, ...]  # name globs: which of them are shell scripts
    programs: tuple[str, ...]  # name globs: programs of another language (not read)
    target: str  # the chain's file the check reads itself
    names: tuple[str, ...]  # what a changed line may not name (see the module doc)
    decides: str  # what those names decide, for a reason: "the chat template bench.sh passes"


def changed_in(ctx: JudgeContext, chain: Chain) -> list[ChangedFile]:
    """The PR's changed files in the chain: the entry's script and the chain's files."""

    def inside(path: str | None) -> bool:
        if not path:
            return False
        return path == chain.entry_script or any(path_matches(path, g) for g in chain.files)

    found = [f for f in ctx.evidence.changed_files if inside(f.path) or inside(f.previous_path)]
    return sorted(found, key=lambda f: f.path)


def changed_problem(
    ctx: JudgeContext, chain: Chain, judged: set[str], own: Callable[[ScriptRun], str]
) -> str:
    """Why a chain file the PR adds or changes (the target apart) may change what the target
    does ("" if none may). `judged`: the files the check reads itself; `own`: the check's own
    test of a changed script's reading."""
    for item in changed_in(ctx, chain):
        if item.status != "removed" and item.path != chain.target:
            problem = _changed_file_problem(ctx, chain, item, judged, own)
            if problem:
                return problem
    return ""


def _changed_file_problem(
    ctx: JudgeContext,
    chain: Chain,
    item: ChangedFile,
    judged: set[str],
    own: Callable[[ScriptRun], str],
) -> str:
    read = ctx.evidence.file(item.path, "head")
    verb = "adds" if item.status == "added" else "changes"
    if read is None or read.state != "ok" or read.text is None:
        return (
            f"{item.path}, which this PR {verb} in the chain to {chain.target}, could "
            f"not be read at the head ({ctx.unread(read)})"
        )
    name = basename(item.path)
    if any(path_matches(name, glob) for glob in chain.programs):  # it may rewrite any file
        return (
            f"{item.path}, a program the chain to {chain.target} may run, which this PR "
            f"{verb}; signoff reads only its shell scripts"
        )
    problem = named_in_patch(ctx, chain, item)
    if problem or not any(path_matches(name, glob) for glob in chain.scripts):
        return problem
    for run in ctx.script_runs_for_path(item.path):
        run = settled(ctx, run)
        if not run.complete:
            why = run.problems[0] if run.problems else "unread"
            return (
                f"{item.path}, which this PR {verb} in the chain to {chain.target}, "
                f"could not be fully read ({why})"
            )
        problem = own(run) or unread_script_file(ctx, run, judged)
        if problem:
            return problem
    return ""


def named_in_patch(ctx: JudgeContext, chain: Chain, item: ChangedFile) -> str:
    """A line the PR adds or removes in a chain file that names one of `chain.names`."""
    if item.patch is None:
        return (
            f"{item.path}, which this PR changes in the chain to {chain.target}, has "
            "no patch (too large for GitHub to show), so its changes are unknown"
        )
    lines = patch_lines(item.patch)
    if not lines.complete:
        return f"{item.path}: its patch could not be read, so its changes are unknown"
    pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, sorted(chain.names))) + r")(?!\w)")
    for kind, line in [("adds", d) for d in lines.added] + [("removes", d) for d in lines.removed]:
        if line.text.lstrip().startswith("#"):
            continue  # a whole-line comment, in the shell and in YAML alike
        found = pattern.search(line.text)
        if found is not None:
            side = "" if kind == "adds" else " (base)"
            return (
                f"{item.path}:{line.line}{side}, a line this PR {kind}, names `{found[1]}`, "
                f"which decides {chain.decides}; signoff does not follow values through the "
                "chain"
            )
    return ""
