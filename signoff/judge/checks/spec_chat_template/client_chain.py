"""Multi-node entries whose benchmark client runs in a repository script their launcher reaches
by file, through a chain of scripts (AMD's amd_utils: the entry's script -> submit.sh ->
job.slurm -> server.sh -> server_<engine>.sh -> bench.sh; profile `client_chains`).

The chain is not followed command by command (sbatch, docker and `eval` sit in it). The client
script is read as the chain runs it for a spec-decode configuration, with the values the chain
hands it bound (`client_env`), and every benchmark-client call it may make must carry the chat
template. What the PR changed in the chain is read too, and fails closed naming the file when
it cannot be read completely, calls the client without the flag itself, runs a script file the
PR wrote that signoff does not read, or has a changed line naming a value the client's reading
took as given, what the chain derives it from (`feeds`) or the client script; a changed program
of another language (`programs`: sync.py) is not read and fails closed. A chain file the PR did
not change was reviewed when it landed and counts for the entry. The PR's changes to a chain
data file (models.yaml) are judged by those names alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from signoff.evidence import ChangedFile
from signoff.judge.baseline import settled
from signoff.judge.checks.spec_chat_template.calls import chat_template_problem, lacking_call
from signoff.judge.context import JudgeContext
from signoff.judge.model import Want, want_file
from signoff.judge.paths import path_matches
from signoff.judge.script_files import unread_script_file
from signoff.parse.diff import patch_lines
from signoff.parse.inferencex.master_config import MasterEntry
from signoff.parse.shell.script_files import basename
from signoff.rules.spec_chat_template import ClientChain, SpecChatTemplatePolicy


def chain_of(ctx: JudgeContext, entry: MasterEntry) -> ClientChain | None:
    """The client chain the entry's launcher runs (None: no chain is known for its runner)."""
    chains = ctx.policy.config(SpecChatTemplatePolicy).client_chains
    return next(
        (c for c in chains if entry.runner in c.runners and entry.framework in c.frameworks), None
    )


def wants(ctx: JudgeContext, entries: list[MasterEntry]) -> Iterator[Want]:
    """The client scripts at the head, and the chain files the PR adds or changes."""
    for entry in entries:
        chain = chain_of(ctx, entry)
        if chain is None:
            continue
        paths = [chain.client_script]
        paths += [f.path for f in _changed_in(ctx, chain, entry) if f.status != "removed"]
        for path in paths:
            if ctx.evidence.file(path, "head") is None:
                yield want_file(path, "head")


def chain_problem(ctx: JudgeContext, entry: MasterEntry, chain: ClientChain) -> tuple[str, str]:
    """(why the entry is not known to benchmark through the chat template, or "";
    what was read, for the PASS reason)."""
    if ctx.evidence.files_truncated:
        return f"{entry.key}: the PR's file list is incomplete, so its changes to the chain " \
               f"to {chain.client_script} are unknown", ""  # fmt: skip
    changed = [f for f in _changed_in(ctx, chain, entry) if f.status != "removed"]
    judged = {chain.client_script, *(f.path for f in changed)}
    for item in changed:
        if item.path != chain.client_script:
            problem = _changed_file_problem(ctx, chain, item, judged)
            if problem:
                return f"{entry.key}: {problem}", ""
    env = {
        name: value.format(framework=entry.framework) for name, value in chain.client_env.items()
    }
    client_changed = any(f.path == chain.client_script for f in changed)
    run = ctx.script_run_with(chain.client_script, env)
    if run is None:
        read = ctx.evidence.file(chain.client_script, "head")
        return f"{entry.key}: {chain.client_script}, the chain's benchmark client script, " \
               f"could not be read at the head ({ctx.unread(read)})", ""  # fmt: skip
    must_reach = client_changed or ctx.library_changed  # the PR wrote what runs the client
    problem = chat_template_problem(ctx, run, judged, must_reach=must_reach)
    if problem:
        return f"{entry.key}: {problem}", ""
    shown = ", ".join(f"{name}={value}" for name, value in sorted(env.items()))
    return "", f"{entry.key} ({basename(chain.client_script)}, {shown})"


def _changed_in(ctx: JudgeContext, chain: ClientChain, entry: MasterEntry) -> list[ChangedFile]:
    """The PR's changed files in the entry's chain: its script and the chain's files."""
    script = _entry_script(chain, entry)

    def in_chain(path: str | None) -> bool:
        return bool(path) and (path == script or path_matches(path or "", chain.files))

    found = [f for f in ctx.evidence.changed_files if in_chain(f.path) or in_chain(f.previous_path)]
    return sorted(found, key=lambda f: f.path)


def _entry_script(chain: ClientChain, entry: MasterEntry) -> str:
    return chain.entry_script.format(
        model_prefix=entry.model_prefix, precision=entry.precision, framework=entry.framework
    )


def _changed_file_problem(
    ctx: JudgeContext, chain: ClientChain, item: ChangedFile, judged: set[str]
) -> str:
    """Why a chain file the PR adds or changes may change the client's flags ("" if not)."""
    read = ctx.evidence.file(item.path, "head")
    verb = "adds" if item.status == "added" else "changes"
    if read is None or read.state != "ok" or read.text is None:
        return (
            f"{item.path}, which this PR {verb} in the chain to {chain.client_script}, could "
            f"not be read at the head ({ctx.unread(read)})"
        )
    name = basename(item.path)
    if any(path_matches(name, glob) for glob in chain.programs):  # it may rewrite any file
        return (
            f"{item.path}, a program the chain to {chain.client_script} may run, which this PR "
            f"{verb}; signoff reads only its shell scripts"
        )
    problem = _named_in_patch(ctx, chain, item)
    if problem or not any(path_matches(name, glob) for glob in chain.scripts):
        return problem
    for run in ctx.script_runs_for_path(item.path):
        run = settled(ctx, run)
        if not run.complete:
            why = run.problems[0] if run.problems else "unread"
            return (
                f"{item.path}, which this PR {verb} in the chain to {chain.client_script}, "
                f"could not be fully read ({why})"
            )
        problem = lacking_call(ctx, run) or unread_script_file(ctx, run, judged)
        if problem:
            return problem
    return ""


def _named_in_patch(ctx: JudgeContext, chain: ClientChain, item: ChangedFile) -> str:
    """A line the PR adds or removes in a chain file that names what decides the client's chat
    template: a value the client's reading took as given, what feeds it, the client script."""
    if item.patch is None:
        return (
            f"{item.path}, which this PR changes in the chain to {chain.client_script}, has "
            "no patch (too large for GitHub to show), so its changes are unknown"
        )
    lines = patch_lines(item.patch)
    if not lines.complete:
        return f"{item.path}: its patch could not be read, so its changes are unknown"
    names = sorted({*chain.client_env, *chain.feeds, basename(chain.client_script)})
    pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, names)) + r")(?!\w)")
    for kind, line in [("adds", d) for d in lines.added] + [("removes", d) for d in lines.removed]:
        if line.text.lstrip().startswith("#"):
            continue  # a whole-line comment, in the shell and in YAML alike
        found = pattern.search(line.text)
        if found is not None:
            side = "" if kind == "adds" else " (base)"
            return (
                f"{item.path}:{line.line}{side}, a line this PR {kind}, names `{found[1]}`, "
                f"which decides the chat template {basename(chain.client_script)} passes; "
                "signoff does not follow values through the chain"
            )
    return ""
