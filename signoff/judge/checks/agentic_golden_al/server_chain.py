"""Multi-node agentic spec-decode entries whose launcher runs a known chain of repository scripts
to the servers (AMD's amd_utils; profile `server_chains`): the entry's script -> submit.sh ->
job.slurm -> server.sh -> the server script for its framework, which starts the prefill and
decode servers itself and gives the decode server its acceptance settings.

Such an entry neither opts into the runners' injection nor names a recipe; it is judged by its
server script, read per agentic spec-decode configuration with what the chain hands it for the
benchmark job bound (`server_env`: the model name as the launcher derives it, the agentic flag,
`EVAL_ONLY=false`; `settings`: the entry's additional settings the chain carries to it). Every
decode server that may start must get the engine's knob on every path at the golden AL for the
model, the thinking mode and the draft length (judged as single-node launches are, agentic_
golden_al.runs); a launch whose role is not known to be another counts as a decode server.
What the server script's reading leaves unread (a file it sources from the image, an `eval` of
a data file's program, a `bash -c` of a command string known only in part, which is read for its
known pieces) is baseline only while nothing the PR changed feeds it (judge/baseline: a changed
`models.yaml` its `eval` reads is new). A launch of a server script the PR did not change that
shows no draft length runs the one the chain hands it (`draft`), as the reviewed script builds
it; a server script the PR changes must show its draft lengths itself. The chain's other files
the PR changes are judged by judge/script_chain (read completely, no line naming what the
server's reading took as given); such a script that starts a server itself is not followed and
fails.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from signoff.judge.baseline import base_wants, settled
from signoff.judge.checks.agentic_golden_al.runs import RunTarget, in_force, judge_runs
from signoff.judge.context import JudgeContext
from signoff.judge.model import Finding, Want, failed, passed, want_file
from signoff.judge.script_chain import Chain, changed_in, changed_problem
from signoff.parse.benchmark.launch import ScriptRun, ServerLaunch
from signoff.parse.benchmark.launch_acceptance import flag_value, json_value
from signoff.parse.inferencex.golden_al import GoldenCurve
from signoff.parse.inferencex.master_config import MasterEntry
from signoff.parse.shell.script_files import basename
from signoff.rules.agentic_golden_al import ServerChain


def chain_of(ctx: JudgeContext, entry: MasterEntry) -> ServerChain | None:
    """The server chain the entry's launcher runs (None: no chain is known for its runner)."""
    return next(
        (
            chain
            for chain in ctx.policy.golden_al.server_chains
            if entry.runner in chain.runners and entry.framework in chain.frameworks
        ),
        None,
    )


def wants(ctx: JudgeContext, entries: list[MasterEntry]) -> Iterator[Want]:
    """The server scripts at the head, the chain files the PR adds or changes, and the base
    texts the comparison of a changed server script's gaps needs (judge/baseline)."""
    for entry in entries:
        chain = chain_of(ctx, entry)
        if chain is None:
            continue
        judged = _judged(ctx, chain, entry)
        changed = [f for f in changed_in(ctx, judged) if f.status != "removed"]
        for path in [judged.target, *(f.path for f in changed)]:
            if ctx.evidence.file(path, "head") is None:
                yield want_file(path, "head")
        if any(f.path == judged.target for f in changed):
            yield from base_wants(ctx)


def judge_chain(
    ctx: JudgeContext, entry: MasterEntry, chain: ServerChain, curves: list[GoldenCurve]
) -> Finding:
    """PASS when every decode server of every configuration gets the golden AL and nothing the
    PR changed in the chain may change what the server script is handed."""
    judged = _judged(ctx, chain, entry)
    server = judged.target
    if ctx.evidence.files_truncated:
        return failed(
            f"{entry.key}: the PR's file list is incomplete, so its changes to the chain to "
            f"{server} are unknown"
        )
    changed = [f for f in changed_in(ctx, judged) if f.status != "removed"]
    server_changed = any(f.path == server for f in changed)
    runs: list[ScriptRun] = []
    drafts: set[int] = set()
    environments = _environments(ctx, chain, entry)
    for env, config in environments:
        run = ctx.script_run_with(server, env, partial=True)
        if run is None:
            read = ctx.evidence.file(server, "head")
            return failed(
                f"{entry.key}: {server}, the chain's server script, could not be read at the "
                f"head ({ctx.unread(read)})"
            )
        run = settled(ctx, run)  # a gap is baseline only when nothing the PR changed feeds it
        runs.append(run.model_copy(update={"config": config}))
        drafts |= _draft(chain, env)
    target = RunTarget(
        entry.key, entry.model_prefix, entry.model, tuple(runs), held=_decode_server(ctx, chain),
        drafts=() if server_changed else tuple(sorted(drafts)),
    )  # fmt: skip
    finding = judge_runs(ctx, target, curves)
    if finding.status == "FAIL":
        return finding
    judged_files = {server, *(f.path for f in changed)}
    problem = changed_problem(ctx, judged, judged_files, _starts_servers(chain))
    if problem:
        return failed(f"{entry.key}: {problem}")
    shown = ", ".join(_shown([env for env, _ in environments]))
    return passed(f"{finding.reason} [{basename(server)} as the chain runs it: {shown}]")


def _judged(ctx: JudgeContext, chain: ServerChain, entry: MasterEntry) -> Chain:
    """The entry's chain as judge/script_chain reads it: a changed line may not name what the
    server script's reading took as given, what the chain derives it from, the server script,
    a synthetic-acceptance knob or a draft-length flag (a data file's flags reach the servers
    through the script's command strings, where the reviewed script's run-time pieces sit)."""
    server = chain.server_scripts[entry.framework]
    knobs = {name for knob in in_force(ctx) for name in (knob.env, knob.flag, knob.key) if name}
    drafts = {name for draft in ctx.policy.golden_al.drafts for name in (draft.flag, draft.key)}
    names = {*chain.server_env, *chain.settings, *chain.feeds, basename(server), *knobs, *drafts}
    names.discard("")
    return Chain(
        entry_script=chain.entry_script.format(
            model_prefix=entry.model_prefix, precision=entry.precision, framework=entry.framework
        ),
        files=chain.files,
        scripts=chain.scripts,
        programs=chain.programs,
        target=server,
        names=tuple(sorted(names)),
        decides=f"the synthetic acceptance {basename(server)} gives the decode server",
    )


def _environments(
    ctx: JudgeContext, chain: ServerChain, entry: MasterEntry
) -> list[tuple[dict[str, str], tuple[tuple[str, str], ...]]]:
    """Per distinct agentic spec-decode configuration: what the server script is handed, and
    the settings that tell the configurations apart (for reasons)."""
    golden = ctx.policy.golden_al
    spec = set(ctx.policy.spec_decode.spec_values)
    spaces = [s for s in entry.spaces if s.scenario == golden.scenario]
    speculative = [s for s in spaces if dict(s.settings).get("spec-decoding", "").lower() in spec]
    base = {name: value.format(model_name=_model_name(entry)) for name, value in
            chain.server_env.items()}  # fmt: skip
    found: dict[tuple[tuple[str, str], ...], dict[str, str]] = {}
    for space in speculative or spaces:  # a `-mtp` key whose spaces name no spec decoding
        given = dict(chain.settings)
        given.update((name, value) for name, value in space.additional if name in chain.settings)
        config = tuple(sorted(given.items()))
        found.setdefault(config, {**base, **given})
    return [(found[config], config) for config in sorted(found)]


def _model_name(entry: MasterEntry) -> str:
    """The model name the launcher derives from the entry's model id (`${MODEL##*/}`)."""
    return entry.model.rsplit("/", 1)[-1]


def _shown(environments: list[dict[str, str]]) -> list[str]:
    """`NAME=value` of what the server script was handed (values of several configurations
    joined by `/`; empty ones left out)."""
    values: dict[str, dict[str, None]] = {}
    for env in environments:
        for name, value in env.items():
            if value:
                values.setdefault(name, {})[value] = None
    return [f"{name}={'/'.join(values[name])}" for name in sorted(values)]


def _draft(chain: ServerChain, env: dict[str, str]) -> set[int]:
    """The draft length the chain hands the server script (`draft`), when a positive number."""
    value = env.get(chain.draft, "") if chain.draft else ""
    return {int(value)} if value.isdigit() and int(value) > 0 else set()


def _decode_server(ctx: JudgeContext, chain: ServerChain) -> Callable[[ServerLaunch], bool]:
    """Whether a launch is held to the knob: any whose role is not known to be another one."""

    def held(launch: ServerLaunch) -> bool:
        role = chain.roles.get(launch.engine)
        if role is None:
            return True
        if role.key:
            data, _ = json_value(launch, role.flag, ctx.policy, (role.key,))
            value = data.get(role.key) if data is not None else None
            return not isinstance(value, str) or value in role.decode
        found = flag_value(launch, role.flag, ctx.policy)
        return found is None or not found.known or found.text in role.decode

    return held


def _starts_servers(chain: ServerChain) -> Callable[[ScriptRun], str]:
    """A changed chain script other than a server script that starts a server itself."""

    def starts(run: ScriptRun) -> str:
        if run.path in chain.server_scripts.values() or not run.launches:
            return ""
        launch = run.launches[0]
        return (
            f"{run.path}:{launch.line} starts {launch.command} itself; signoff judges only the "
            "servers the chain's server script starts"
        )

    return starts
