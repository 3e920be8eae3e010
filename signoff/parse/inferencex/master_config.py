"""Read `configs/*-master.yaml` into typed entries, diff two versions, and map entries to scripts.

A master config is a mapping of entry key -> entry (`image`, `model`, `model-prefix`, `precision`,
`framework`, `runner`, `multinode`, `disagg`, `scenarios`). Parsing never raises: an unreadable
file or entry becomes a `problems` line ("file:line: what") that fail-closed callers report.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict

from signoff.yamlload import AliasBombError, load_yaml

SCENARIO_DIRS = {"fixed-seq-len": "fixed_seq_len", "agentic-coding": "agentic"}
LEGACY_SCENARIO_KEY = "seq-len-configs"  # pre-`scenarios` schema: a fixed-seq-len list at top level
TEMPLATE_PREFIX = "."  # `.dsv4-common: &common` holds anchors for `<<:` merges; not an entry
REQUIRED_FIELDS = ("image", "framework", "runner")  # without these no check can judge the entry
EXPECTED_FIELDS = ("model", "model-prefix", "precision")
_TOP_KEY = re.compile(
    r"""^(?:"([^"]+)"|'([^']+)'|([^\s#'"&*!|>%@`\-?:,\[\]{}][^:#]*?))\s*:(?:\s|$)"""
)


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SearchSpaceArgs(Frozen):
    """Distinct parallelism values over every search space (prefill/decode workers included)."""

    tp: tuple[int, ...] = ()
    ep: tuple[int, ...] = ()
    dp_attn: tuple[bool, ...] = ()


class SearchSpace(Frozen):
    """One search-space item of one scenario entry, its scalar values as text."""

    scenario: str  # "fixed-seq-len" or "agentic-coding"
    isl: int | None = None
    osl: int | None = None
    # key -> value: booleans "true"/"false", numbers in decimal, a mapping's keys as
    # "key.sub" (`kv-offload-backend: {name: x}` gives "kv-offload-backend.name")
    settings: tuple[tuple[str, str], ...] = ()
    conc_list: tuple[int, ...] = ()
    # `additional-settings` of a multi-node item, `NAME=VALUE` split at the first `=`: the
    # prefill role's, then the decode role's, each in written order (the multi-node workflow
    # exports them in that order, so a later one wins)
    additional: tuple[tuple[str, str], ...] = ()


class MasterEntry(Frozen):
    key: str
    file: str
    line: int
    image: str  # quotes stripped, '#' read as '/', a leading 'docker.io/' removed
    image_raw: str  # the scalar as written (after YAML unquoting)
    image_repo: str  # repository without tag or digest: "vllm/vllm-openai", "nvcr.io/nvidia/..."
    image_org: str | None  # Docker Hub org ("vllm"); registry host + namespace elsewhere
    model: str
    model_prefix: str
    precision: str
    framework: str
    runner: str
    sku: str | None
    multinode: bool
    disagg: bool
    scenarios: tuple[str, ...]  # scenario keys in file order: "fixed-seq-len", "agentic-coding"
    spec_decoding: tuple[str, ...]  # distinct non-"none" spec-decoding values, sorted
    spec_modes: tuple[str, ...]  # every distinct spec-decoding value, "none" included, sorted
    is_agentic: bool
    fingerprint: str  # sha256 of the entry's canonical JSON; equal fingerprints = unchanged
    # The same split the way a changelog's `scenario-type` limits a sweep: the entry less its
    # scenarios (config-wide fields reach every scenario), and each scenario by its name.
    fields_fingerprint: str = ""
    scenario_fingerprints: tuple[tuple[str, str], ...] = ()
    search_space_args: SearchSpaceArgs = SearchSpaceArgs()
    spaces: tuple[SearchSpace, ...] = ()  # every search-space item, in file order

    @property
    def engine(self) -> str:
        """The framework as the profile names engines: InferenceX compares `framework` as free
        text, and its results lower-case it (a `VLLM` entry is published as vllm)."""
        return self.framework.strip().lower()


class EntryChange(Frozen):
    key: str
    kind: Literal["added", "changed", "removed"]
    file: str
    base: MasterEntry | None
    head: MasterEntry | None


class MasterConfig(Frozen):
    file: str
    entries: dict[str, MasterEntry]
    problems: tuple[str, ...]  # "file:line: what" for anything that could not be read


def parse_master_config(
    text: str, file: str, sku_pattern: str, load: Callable[[str], object] = load_yaml
) -> MasterConfig:
    """Parse one master config; never raises (malformed input becomes `problems`). `load`
    reads the YAML (a caller that also needs the plain data passes a memoising loader)."""
    try:
        data = load(text)
    except Exception as exc:  # yaml.YAMLError, RecursionError, ...: all mean "unreadable"
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else 1
        what = exc.problem if isinstance(exc, AliasBombError) else "not valid YAML"
        return MasterConfig(file=file, entries={}, problems=(f"{file}:{line}: {what}",))
    if data is None:
        return MasterConfig(file=file, entries={}, problems=())
    if not isinstance(data, dict):
        return MasterConfig(
            file=file, entries={}, problems=(f"{file}:1: top level is not a mapping",)
        )
    lines = _top_level_lines(text)
    entries: dict[str, MasterEntry] = {}
    problems: list[str] = []
    for raw_key, value in data.items():
        key = str(raw_key)
        if key.startswith(TEMPLATE_PREFIX):
            continue
        line = lines.get(key, 1)
        entry = _read_entry(key, value, file, line, sku_pattern, problems)
        if entry is not None:
            entries[key] = entry
    return MasterConfig(file=file, entries=entries, problems=tuple(problems))


def _top_level_lines(text: str) -> dict[str, int]:
    """Line of every column-0 mapping key; a regex scan is far cheaper than composing nodes."""
    lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = _TOP_KEY.match(line)
        if match is not None:
            key = next(group for group in match.groups() if group is not None)
            lines.setdefault(key.strip(), number)
    return lines


def _read_entry(
    key: str, value: object, file: str, line: int, sku_pattern: str, problems: list[str]
) -> MasterEntry | None:
    where = f"{file}:{line}: {key}"
    if "*" in key:  # reserved for perf-changelog wildcards
        problems.append(f"{where}: entry keys may not contain '*'")
    if not isinstance(value, dict):
        problems.append(f"{where}: entry is not a mapping")
        return None
    fields = {name: _scalar(value.get(name)) for name in (*REQUIRED_FIELDS, *EXPECTED_FIELDS)}
    missing = [name for name in REQUIRED_FIELDS if not fields[name]]
    if missing:
        problems.append(f"{where}: missing {', '.join(missing)}")
        return None
    for name in EXPECTED_FIELDS:
        if not fields[name]:
            problems.append(f"{where}: missing {name}")
    multinode = _flag(value, "multinode", where, problems, required=True)
    disagg = _flag(value, "disagg", where, problems, required=False)
    scenarios = _scenarios(value)
    try:
        fingerprint = _fingerprint(value)
        wide = {k: v for k, v in value.items() if k not in ("scenarios", LEGACY_SCENARIO_KEY)}
        fields_fingerprint = _fingerprint(wide)
        per_scenario = tuple(sorted((name, _fingerprint(body)) for name, body in scenarios.items()))
    except (TypeError, ValueError, RecursionError):
        problems.append(f"{where}: entry cannot be serialised (recursive alias?)")
        return None
    spaces = list(_search_spaces(scenarios))
    modes = sorted({_spec_mode(space) for space in spaces} or {"none"})
    image = normalise_image(fields["image"])
    return MasterEntry(
        key=key,
        file=file,
        line=line,
        image=image,
        image_raw=fields["image"],
        image_repo=image_repository(image),
        image_org=image_org(image),
        model=fields["model"],
        model_prefix=fields["model-prefix"] or key.split("-", 1)[0],
        precision=fields["precision"],
        framework=fields["framework"],
        runner=fields["runner"],
        sku=sku_of(fields["runner"], sku_pattern),
        multinode=multinode,
        disagg=disagg,
        scenarios=tuple(scenarios),
        spec_decoding=tuple(mode for mode in modes if mode != "none"),
        spec_modes=tuple(modes),
        is_agentic="agentic-coding" in scenarios,
        fingerprint=fingerprint,
        fields_fingerprint=fields_fingerprint,
        scenario_fingerprints=per_scenario,
        search_space_args=_search_space_args(spaces),
        spaces=tuple(_read_spaces(scenarios)),
    )


def _scalar(value: object) -> str:
    if value is None or isinstance(value, (dict, list)):
        return ""
    return str(value).strip()


def _flag(
    value: dict[object, object], name: str, where: str, problems: list[str], *, required: bool
) -> bool:
    if name not in value:
        if required:
            problems.append(f"{where}: missing {name}")
        return False
    flag = value[name]
    if not isinstance(flag, bool):
        problems.append(f"{where}: {name} must be true or false, not {flag!r}")
        return str(flag).strip().lower() in ("true", "yes", "1")
    return flag


def _fingerprint(value: object) -> str:
    canonical = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _scenarios(value: dict[object, object]) -> dict[str, object]:
    scenarios = value.get("scenarios")
    found: dict[str, object] = {}
    if isinstance(scenarios, dict):
        found.update((str(name), body) for name, body in scenarios.items())
    if LEGACY_SCENARIO_KEY in value and "fixed-seq-len" not in found:
        found["fixed-seq-len"] = value[LEGACY_SCENARIO_KEY]
    return found


def _search_spaces(scenarios: Mapping[str, object]) -> Iterator[dict[object, object]]:
    for body in scenarios.values():
        for item in body if isinstance(body, list) else ():
            spaces = item.get("search-space") if isinstance(item, dict) else None
            for space in spaces if isinstance(spaces, list) else ():
                if isinstance(space, dict):
                    yield space


def _read_spaces(scenarios: Mapping[str, object]) -> Iterator[SearchSpace]:
    for scenario, body in scenarios.items():
        for item in body if isinstance(body, list) else ():
            spaces = item.get("search-space") if isinstance(item, dict) else None
            isl = _int(item.get("isl")) if isinstance(item, dict) else None
            osl = _int(item.get("osl")) if isinstance(item, dict) else None
            for space in spaces if isinstance(spaces, list) else ():
                if isinstance(space, dict):
                    yield _read_space(str(scenario), isl, osl, space)


def _read_space(
    scenario: str, isl: int | None, osl: int | None, space: dict[object, object]
) -> SearchSpace:
    settings: list[tuple[str, str]] = []
    for key, value in space.items():
        if isinstance(value, dict):
            settings += [(f"{key}.{k}", _text(v)) for k, v in value.items() if _is_scalar(v)]
        elif _is_scalar(value):
            settings.append((str(key), _text(value)))
    concs = space.get("conc-list")
    conc_list = tuple(c for c in concs if _int(c) is not None) if isinstance(concs, list) else ()
    return SearchSpace(
        scenario=scenario, isl=isl, osl=osl, settings=tuple(settings), conc_list=conc_list,
        additional=tuple(_additional(space)),
    )  # fmt: skip


def _additional(space: dict[object, object]) -> Iterator[tuple[str, str]]:
    """The `NAME=VALUE` items of the prefill and decode roles' `additional-settings`."""
    for role in (space.get("prefill"), space.get("decode")):
        items = role.get("additional-settings") if isinstance(role, dict) else None
        for item in items if isinstance(items, list) else ():
            name, eq, value = str(item).strip().partition("=")
            if eq and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                yield name, value


def _is_scalar(value: object) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _spec_mode(space: dict[object, object]) -> str:
    mode = space.get("spec-decoding")
    return "none" if mode is None else str(mode).strip().lower() or "none"


def _search_space_args(spaces: list[dict[object, object]]) -> SearchSpaceArgs:
    tp: set[int] = set()
    ep: set[int] = set()
    dp_attn: set[bool] = set()
    for space in spaces:
        workers: list[dict[object, object]] = [space]
        workers += [
            role for role in (space.get("prefill"), space.get("decode")) if isinstance(role, dict)
        ]
        for worker in workers:
            _collect_int(worker.get("tp"), tp)
            _collect_int(worker.get("ep"), ep)
            if isinstance(worker.get("dp-attn"), bool):
                dp_attn.add(bool(worker["dp-attn"]))
    return SearchSpaceArgs(
        tp=tuple(sorted(tp)), ep=tuple(sorted(ep)), dp_attn=tuple(sorted(dp_attn))
    )


def _collect_int(value: object, into: set[int]) -> None:
    if isinstance(value, int) and not isinstance(value, bool):
        into.add(value)


def normalise_image(raw: str) -> str:
    """`nvcr.io#nvidia/x:1` -> `nvcr.io/nvidia/x:1`; `docker.io/vllm/x` -> `vllm/x`; no quotes."""
    image = raw.strip().strip("'\"").strip().replace("#", "/")
    for prefix in ("docker.io/", "index.docker.io/"):
        if image.startswith(prefix):
            image = image[len(prefix) :]
    return image


# A container image reference as Docker reads one (distribution/reference's grammar): an optional
# registry host, lower-case path components, an optional tag and digest; nothing else (a blank
# would hand the runner's container tool a second argument).
_COMPONENT = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
_HOST = (
    r"(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*"
)
_REFERENCE = re.compile(
    rf"(?:{_HOST}(?::[0-9]+)?/)?{_COMPONENT}(?:/{_COMPONENT})*"
    r"(?::[\w][\w.-]{0,127})?"
    r"(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?"
)


def is_image_reference(image: str) -> bool:
    """Whether a normalised image is one valid reference (`vllm/vllm-openai:v1@sha256:...`)."""
    return _REFERENCE.fullmatch(image) is not None


def image_repository(image: str) -> str:
    """The repository part of a normalised image: no `@sha256:` digest, no `:tag`."""
    repo = image.split("@", 1)[0]
    head, _, last = repo.rpartition("/")
    last = last.split(":", 1)[0]  # a ':' before the last '/' is a registry port, not a tag
    return f"{head}/{last}" if head else last


def image_org(image: str) -> str | None:
    """Docker Hub org ("vllm", "lmsysorg", "rocm", "library" for official images).

    For other registries the result is "<host>/<namespace>" ("nvcr.io/nvidia", "ghcr.io/tile-ai"):
    it contains a dot or colon, so it can never equal a Docker Hub org name.
    """
    segments = [part for part in image_repository(image).split("/") if part]
    if not segments:
        return None
    first = segments[0]
    if "." in first or ":" in first or first == "localhost":
        return f"{first}/{segments[1]}" if len(segments) > 1 else first
    return first if len(segments) > 1 else "library"


def sku_of(runner: str, sku_pattern: str) -> str | None:
    """The SKU a runner label runs on: group 1 of `sku_pattern` ('cluster:b300-nv' -> 'b300')."""
    try:
        match = re.match(sku_pattern, runner.strip().lower())
    except re.error:
        return None
    if match is None or not match.groups() or not match.group(1):
        return None
    return match.group(1)


def diff_entries(base: MasterConfig | None, head: MasterConfig) -> tuple[EntryChange, ...]:
    """Entries added, changed (other fingerprint) or removed between two versions of one file."""
    before = base.entries if base is not None else {}
    changes: list[EntryChange] = []
    for key, entry in head.entries.items():
        old = before.get(key)
        if old is None:
            changes.append(
                EntryChange(key=key, kind="added", file=head.file, base=None, head=entry)
            )
        elif old.fingerprint != entry.fingerprint:
            changes.append(
                EntryChange(key=key, kind="changed", file=head.file, base=old, head=entry)
            )
    for key, old in before.items():
        if key not in head.entries:
            changes.append(
                EntryChange(key=key, kind="removed", file=head.file, base=old, head=None)
            )
    return tuple(sorted(changes, key=lambda change: (change.file, change.key)))


def script_candidates(entry: MasterEntry) -> tuple[str, ...]:
    """Single-node scripts the entry may run, most specific first, per scenario directory.

    Launchers try `<base>_<framework><spec>.sh` first, then `<base>[_trt|_atom]<spec>.sh` or
    `<base><spec>.sh`; `<spec>` is `_mtp` only for `spec-decoding: mtp` (draft_model: no suffix).
    Multi-node entries run srt-slurm recipes instead, so they have no single-node script.
    """
    if entry.multinode or entry.sku is None:
        return ()
    suffixes = [suffix for mode, suffix in (("mtp", "_mtp"), ("", "")) if _runs_mode(entry, mode)]
    candidates: list[str] = []
    for scenario in entry.scenarios:
        directory = SCENARIO_DIRS.get(scenario)
        if directory is None:
            continue
        base = (
            f"benchmarks/single_node/{directory}/{entry.model_prefix}_{entry.precision}_{entry.sku}"
        )
        for spec in suffixes:
            for path in (f"{base}_{entry.framework}{spec}.sh", f"{base}{spec}.sh"):
                if path not in candidates:
                    candidates.append(path)
    return tuple(candidates)


def sweep_may_run(path: str) -> bool:
    """Whether a sweep configuration can run the benchmark script at `path`: a single-node
    script only where `script_candidates` looks (directly in a scenario directory, so not
    `speedbench/` reference collectors), and nothing under a `deprecated/` directory."""
    if "/deprecated/" in f"/{path}":
        return False
    if not path.startswith("benchmarks/single_node/"):
        return True
    directory, _, name = path[len("benchmarks/single_node/") :].partition("/")
    return directory in SCENARIO_DIRS.values() and "/" not in name


def _runs_mode(entry: MasterEntry, mode: str) -> bool:
    if mode == "mtp":
        return "mtp" in entry.spec_modes
    return any(value != "mtp" for value in entry.spec_modes)
