"""The configuration points a master-config entry sweeps, and the environment each one gets.

A single-node entry sweeps, per scenario item, every search-space item times its concurrencies
(`conc-list`, or `conc-start` doubled up to `conc-end`), as a benchmark job and as an eval job.
Each point's environment is what the sweep exports to the benchmark script: the profile's
`sweep_env` table says which variable each search-space key and entry field becomes and how its
value is spelled. Points that read the same are grouped back into one `ScriptRun` that names the
configuration it covers (`DP_ATTENTION=false, TP=8`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence

from pydantic import BaseModel, ConfigDict

from signoff.memo import ByIdentity
from signoff.parse.benchmark.launch import ScriptRun
from signoff.parse.inferencex.master_config import (
    SCENARIO_DIRS,
    MasterEntry,
    SearchSpace,
    script_candidates,
)
from signoff.policy import SweepEnv

_READING_KEYS: ByIdentity[str] = ByIdentity(1024)


class ConfigPoint(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    scenario: str
    spec: str  # the spec-decoding value, "none" when absent
    job: str  # a `sweep_env.jobs` key: "benchmark", "eval"
    env: tuple[tuple[str, str], ...]  # everything the sweep exports, sorted by name
    point_vars: tuple[str, ...]  # the variables that come from the search space

    def value(self, name: str) -> str | None:
        return dict(self.env).get(name)

    @property
    def label(self) -> str:
        values = dict(self.env)
        return ", ".join(f"{name}={values[name]}" for name in self.point_vars if name in values)


def config_points(
    entry: MasterEntry, sweep: SweepEnv, jobs: Sequence[str]
) -> tuple[tuple[ConfigPoint, ...], str]:
    """Every point of a single-node entry (with the jobs asked for), and a problem when the
    entry sweeps more points than `sweep.max_points` (only those points are returned)."""
    points: list[ConfigPoint] = []
    for space in entry.spaces:
        for conc in _concurrencies(space, sweep):
            for job in jobs:
                points.append(_point(entry, space, conc, job, sweep))
                if len(points) > sweep.max_points:
                    problem = f"{entry.key} sweeps more than {sweep.max_points} configurations"
                    return tuple(points[: sweep.max_points]), problem
    return tuple(points), ""


def _concurrencies(space: SearchSpace, sweep: SweepEnv) -> Iterator[int | None]:
    if space.conc_list:
        yield from space.conc_list
        return
    settings = dict(space.settings)
    start, end = _number(settings.get("conc-start")), _number(settings.get("conc-end"))
    if start is None or end is None or start < 1 or end < start:
        yield None  # an entry the sweep itself would reject; read it with CONC unknown
        return
    conc = start
    while conc < end:
        yield conc
        conc *= sweep.conc_step
    yield end


def _number(text: str | None) -> int | None:
    return int(text) if text is not None and text.isdigit() else None


def _point(
    entry: MasterEntry, space: SearchSpace, conc: int | None, job: str, sweep: SweepEnv
) -> ConfigPoint:
    env: dict[str, str] = dict(sweep.constants)
    entry_fields = {"model": entry.model, "model-prefix": entry.model_prefix,
                    "precision": entry.precision, "framework": entry.framework,
                    "image": entry.image_raw, "runner": entry.runner}  # fmt: skip
    for name, field_name in sweep.entry.items():
        if field_name in entry_fields:
            env[name] = entry_fields[field_name]
    env.update(sweep.scenarios.get(space.scenario, {}))
    point_vars = _search_space_env(space, sweep, env)
    if conc is not None:
        env[sweep.concurrency] = str(conc)
        point_vars.append(sweep.concurrency)
    if space.isl is not None and space.osl is not None:
        env[sweep.isl], env[sweep.osl] = str(space.isl), str(space.osl)
        env[sweep.max_model_len.env] = str(space.isl + space.osl + sweep.max_model_len.pad)
        point_vars += [sweep.isl, sweep.osl]
    env.update(sweep.jobs.get(job, {}))
    spec = dict(space.settings).get("spec-decoding") or "none"
    return ConfigPoint(scenario=space.scenario, spec=spec, job=job,
                       env=tuple(sorted(env.items())), point_vars=tuple(point_vars))  # fmt: skip


def _search_space_env(space: SearchSpace, sweep: SweepEnv, env: dict[str, str]) -> list[str]:
    settings = dict(space.settings)
    names: list[str] = []
    for key, variable in sweep.point.items():
        raw = settings.get(f"{key}.{variable.field}" if variable.field else key)
        if raw is None and variable.default is None:
            continue
        value = raw if raw is not None else str(variable.default)
        env[variable.env] = sweep.booleans.get(value, value)
        names.append(variable.env)
    return names


def point_scripts(entry: MasterEntry, point: ConfigPoint) -> tuple[str, ...]:
    """The scripts the launcher may run for this point, most specific first."""
    directory = SCENARIO_DIRS.get(point.scenario, "")
    mtp = point.spec == "mtp"
    return tuple(
        path
        for path in script_candidates(entry)
        if f"/{directory}/" in path and path.endswith("_mtp.sh") == mtp
    )


def group_runs(
    items: Sequence[tuple[ConfigPoint, ScriptRun]], sweep: SweepEnv
) -> tuple[ScriptRun, ...]:
    """One run per distinct reading, naming the configuration its points share."""
    groups: dict[str, list[tuple[ConfigPoint, ScriptRun]]] = {}
    keys: dict[int, str] = {}  # a curve's points share one reading: its key is made once
    for point, run in items:
        if id(run) not in keys:
            keys[id(run)] = _reading_key(run)
        groups.setdefault(keys[id(run)], []).append((point, run))
    labelled = {v.env for v in sweep.point.values() if v.label}
    varying = _varying([point for point, _ in items])
    out: list[ScriptRun] = []
    for members in groups.values():
        first_point, first_run = members[0]
        shared = _shared([point for point, _ in members])
        config = tuple(
            (name, value) for name, value in shared if name in labelled or name in varying
        )
        out.append(first_run.model_copy(update={
            "config": config,
            "environment": first_point.env,
            "points": tuple(dict.fromkeys(point.label for point, _ in members)),
        }))  # fmt: skip
    return tuple(out)


def _reading_key(run: ScriptRun) -> str:
    """What makes two readings the same: everything they run, except the values given to the
    benchmark client (`--max-concurrency $CONC` differs per point; its flags must not). Kept
    per run: every round of gathering groups the same shared readings again."""
    found = _READING_KEYS.get(run)
    if found is None:
        found = _reading_key_of(run)
        _READING_KEYS.put(run, found)
    return found


def _reading_key_of(run: ScriptRun) -> str:
    clients = [
        (c.command, c.line, c.reach, c.why, [(a.flag, a.joined, a.value is None) for a in c.args])
        for c in run.clients
    ]
    rest = run.model_dump_json(exclude={"config", "environment", "points", "clients"})
    # a digest of it: kept per run, the whole text would hold tens of KB for each
    return hashlib.sha256(json.dumps([rest, clients]).encode()).hexdigest()


def _varying(points: Sequence[ConfigPoint]) -> set[str]:
    seen: dict[str, set[str]] = {}
    for point in points:
        values = dict(point.env)  # once per point, not per name (a mass edit has thousands)
        for name in point.point_vars:
            seen.setdefault(name, set()).add(values.get(name) or "")
    return {name for name, values in seen.items() if len(values) > 1}


def _shared(points: Sequence[ConfigPoint]) -> tuple[tuple[str, str], ...]:
    names = points[0].point_vars
    envs = [dict(point.env) for point in points]
    first = envs[0]
    return tuple(
        sorted(
            (name, first[name])
            for name in names
            if name in first and all(env.get(name) == first[name] for env in envs)
        )
    )
