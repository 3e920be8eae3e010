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

from collections.abc import Iterator

from signoff.judge.checks.spec_chat_template.calls import chat_template_problem, lacking_call
from signoff.judge.context import JudgeContext
from signoff.judge.model import Want, want_file
from signoff.judge.script_chain import Chain, changed_in, changed_problem
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
        paths += [f.path for f in changed_in(ctx, _judged(chain, entry)) if f.status != "removed"]
        for path in paths:
            if ctx.evidence.file(path, "head") is None:
                yield want_file(path, "head")


def chain_problem(ctx: JudgeContext, entry: MasterEntry, chain: ClientChain) -> tuple[str, str]:
    """(why the entry is not known to benchmark through the chat template, or "";
    what was read, for the PASS reason)."""
    if ctx.evidence.files_truncated:
        return f"{entry.key}: the PR's file list is incomplete, so its changes to the chain " \
               f"to {chain.client_script} are unknown", ""  # fmt: skip
    judged_chain = _judged(chain, entry)
    changed = [f for f in changed_in(ctx, judged_chain) if f.status != "removed"]
    judged = {chain.client_script, *(f.path for f in changed)}
    problem = changed_problem(ctx, judged_chain, judged, lambda run: lacking_call(ctx, run))
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


def _judged(chain: ClientChain, entry: MasterEntry) -> Chain:
    """The entry's chain as judge/script_chain reads it: a changed line may not name what the
    client's reading took as given, what the chain derives it from, or the client script."""
    client = basename(chain.client_script)
    return Chain(
        entry_script=chain.entry_script.format(
            model_prefix=entry.model_prefix, precision=entry.precision, framework=entry.framework
        ),
        files=(chain.files,),
        scripts=chain.scripts,
        programs=chain.programs,
        target=chain.client_script,
        names=tuple(sorted({*chain.client_env, *chain.feeds, client})),
        decides=f"the chat template {client} passes",
    )
