"""What Check 3 compares: each changed single-node vLLM/SGLang recipe as the sweep runs it.

A target is a changed master-config entry with its benchmark script (or a changed script no
changed entry names), and one `ScriptRun` per distinct configuration point the entry sweeps.
`script_runs` is the single adapter to the per-configuration script evaluator: until that lands
in JudgeContext (`ctx.script_runs(entry)`), it binds each point's environment (`TP`, `EP_SIZE`,
`DP_ATTENTION`, `SPEC_DECODING`, `MODEL`, ...) to the launches today's reader finds, so values
the sweep fills in are compared against the point's value. Swap its body at merge.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from signoff.evidence import FileRead
from signoff.judge.context import JudgeContext, path_matches
from signoff.parse.launch import ScriptRun
from signoff.parse.master_blocks import sparse_text, split_blocks
from signoff.parse.master_config import MasterEntry, script_candidates
from signoff.yamlload import load_yaml

_SEARCH_ENV = (("tp", "TP", None), ("ep", "EP_SIZE", "1"), ("pp", "PP_SIZE", "1"))


class Target(BaseModel):
    """One script to compare, with the entry (model, SKU) it serves when a changed entry has it."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    key: str  # the entry key, or the script path
    path: str
    read: FileRead | None  # None: the script could not be read at the head
    entry: MasterEntry | None = None


def targets(ctx: JudgeContext) -> tuple[tuple[Target, ...], bool]:
    """(single-node vLLM/SGLang scripts in scope, whether the PR touches multi-node recipes)."""
    policy = ctx.policy
    engines = set(policy.images.engine_first_frameworks)
    found: dict[str, Target] = {}
    multi_node = False
    for entry in ctx.changed_entries:
        if entry.multinode or entry.disagg or entry.framework in policy.recipe.disagg_frameworks:
            multi_node = True
        elif entry.framework in engines:
            for path, read in _entry_scripts(ctx, entry):
                found[path] = Target(key=entry.key, path=path, read=read, entry=entry)
    if any(
        path_matches(f.path, policy.paths.multi_node_scripts) for f in ctx.evidence.changed_files
    ):
        multi_node = True
    for changed in ctx.changed_scripts:
        if changed.path in found or not path_matches(
            changed.path, policy.paths.single_node_scripts
        ):
            continue
        read = ctx.evidence.file(changed.path, "head")
        if read is None or read.state != "ok":
            found[changed.path] = Target(key=changed.path, path=changed.path, read=None)
        elif _launches_engine(ctx, changed.path, engines):
            found[changed.path] = Target(key=changed.path, path=changed.path, read=read)
    return tuple(found[p] for p in sorted(found)), multi_node


def _entry_scripts(ctx: JudgeContext, entry: MasterEntry) -> list[tuple[str, FileRead | None]]:
    """The script the launcher picks for each spec mode (`_mtp` and plain), read at the head."""
    picked: dict[bool, tuple[str, FileRead | None]] = {}
    for candidate in script_candidates(entry):
        mtp = candidate.endswith("_mtp.sh")
        read = ctx.evidence.file(candidate, "head")
        if mtp not in picked or (
            picked[mtp][1] is None and read is not None and read.state == "ok"
        ):
            picked[mtp] = (candidate, read if read is not None and read.state == "ok" else None)
    return [picked[k] for k in sorted(picked)]


def _launches_engine(ctx: JudgeContext, path: str, engines: set[str]) -> bool:
    facts = ctx.script_facts(path)
    return facts is not None and any(launch.engine in engines for launch in facts.launches)


def script_runs(ctx: JudgeContext, target: Target) -> tuple[ScriptRun, ...]:
    """The adapter: one run per configuration point (see the module docstring)."""
    facts = ctx.script_facts(target.path)
    if facts is None:
        return ()
    points = _config_points(ctx, target) or [()]
    return tuple(
        ScriptRun(
            path=target.path,
            config=point,
            launches=facts.launches,
            clients=facts.clients,
            problems=facts.problems,
            complete=facts.complete,
        )
        for point in points
    )


def _config_points(ctx: JudgeContext, target: Target) -> list[tuple[tuple[str, str], ...]]:
    """Distinct environments the sweep exports for the entry's search-space points that run
    this script (`_mtp` scripts run the `spec-decoding: mtp` points, the others the rest)."""
    entry = target.entry
    if entry is None:
        return []
    mtp_script = target.path.endswith("_mtp.sh")
    points: set[tuple[tuple[str, str], ...]] = set()
    for space in _search_space(ctx, entry):
        spec = str(space.get("spec-decoding", "none"))
        if (spec == "mtp") != mtp_script:
            continue
        env = {"MODEL": entry.model, "PRECISION": entry.precision, "FRAMEWORK": entry.framework}
        env["SPEC_DECODING"] = spec
        env["DP_ATTENTION"] = str(bool(space.get("dp-attn", False))).lower()
        for key, name, default in _SEARCH_ENV:
            value = space.get(key, default)
            if value is not None:
                env[name] = str(value)
        points.add(tuple(sorted(env.items())))
    return sorted(points)


def _search_space(ctx: JudgeContext, entry: MasterEntry) -> list[dict[object, object]]:
    text = ctx.master_text(entry.file, "head")
    if text is None:
        return []
    blocks = split_blocks(text)
    data = load_yaml(sparse_text(text, blocks, {entry.key}) if blocks is not None else text)
    scenarios = data.get(entry.key, {}).get("scenarios", {}) if isinstance(data, dict) else {}
    spaces: list[dict[object, object]] = []
    for items in scenarios.values() if isinstance(scenarios, dict) else ():
        for item in items if isinstance(items, list) else ():
            space = item.get("search-space") if isinstance(item, dict) else None
            spaces.extend(s for s in space or () if isinstance(s, dict))
    return spaces
