"""Which master-config entries run a changed script, whether or not the PR changes one of them.

A PR that changes only a single-node benchmark script changes what every entry whose job runs
that script does, per swept configuration: the launcher runs, for each configuration point, the
first of the entry's candidate scripts that exists (`parse/config_points.point_scripts`). So the
master configs are read at the head even when the PR leaves them alone (their directory, then
each file), with the script's directory listed (which earlier candidates exist), and the script
is judged per configuration of each entry that runs it. Unknown (a master config or listing not
read, a config that does not parse): None, and the callers read the script with nothing bound.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Literal

from signoff.judge.model import Want, want_dir, want_file
from signoff.judge.paths import path_matches
from signoff.parse.inferencex.config_points import point_scripts
from signoff.parse.inferencex.master_blocks import split_blocks
from signoff.parse.inferencex.master_config import MasterEntry, script_candidates

if TYPE_CHECKING:
    from signoff.judge.context import JudgeContext

MEMO_KEY = "script-entries"
BLOCKS_KEY = "script-entries-blocks"


def uncovered_scripts(ctx: JudgeContext) -> list[str]:
    """Changed single-node scripts no changed entry may run (their candidates do not name it)."""
    covered = {c for entry in ctx.changed_entries for c in script_candidates(entry)}
    single = ctx.policy.paths.single_node_scripts
    return sorted(
        f.path
        for f in ctx.changed_scripts
        if path_matches(f.path, single) and f.path not in covered and _may_be_entry_script(f.path)
    )


def _may_be_entry_script(path: str) -> bool:
    """`<prefix>_<precision>_<gpu>...sh`, as launchers name a benchmark script (a helper such
    as `helper.sh` is run by no entry, only by file, which the checks judge themselves)."""
    return len(path.rsplit("/", 1)[-1].removesuffix(".sh").split("_")) >= 3


def undecided_scripts(ctx: JudgeContext) -> list[str]:
    """Changed single-node scripts a changed entry may run, still read with nothing bound and
    with something left undecided: every head entry whose job runs one (changed or not) runs
    the PR's version, so they are read per configuration of those entries too."""
    uncovered = set(uncovered_scripts(ctx))
    single = ctx.policy.paths.single_node_scripts
    found = []
    for changed in ctx.changed_scripts:
        path = changed.path
        if path in uncovered or not path_matches(path, single) or not _may_be_entry_script(path):
            continue
        if ctx.parsed_script(path) is None:
            continue
        runs = ctx.script_runs_for_path(path)
        if len(runs) == 1 and not runs[0].job and (not runs[0].complete or runs[0].notes):
            found.append(path)
    return sorted(found)


def wants(ctx: JudgeContext) -> Iterator[Want]:
    """The master configs at the head and the scripts' directories, for uncovered scripts and
    for covered ones whose reading with nothing bound leaves something undecided."""
    scripts = sorted({*uncovered_scripts(ctx), *undecided_scripts(ctx)})
    if not scripts:
        return
    configs = _master_files(ctx)
    if configs is None:
        yield want_dir(_config_dir(ctx), "head")
    else:
        for path in configs:
            if ctx.evidence.file(path, "head") is None:
                yield want_file(path, "head")
    for directory in sorted({path.rsplit("/", 1)[0] for path in scripts}):
        if ctx.evidence.listing(directory, "head") is None:
            yield want_dir(directory, "head")


def entries_running(ctx: JudgeContext, path: str) -> tuple[MasterEntry, ...] | None:
    """Head entries whose benchmark job runs `path` for some configuration (None: unknown)."""
    memo = ctx.memo.setdefault(MEMO_KEY, {})
    assert isinstance(memo, dict)
    if path not in memo:
        memo[path] = _entries_running(ctx, path)
    return memo[path]  # type: ignore[no-any-return]


def _entries_running(ctx: JudgeContext, path: str) -> tuple[MasterEntry, ...] | None:
    directory, name = path.rsplit("/", 1)
    listing = ctx.evidence.listing(directory, "head")
    configs = _master_files(ctx)
    if listing is None or listing.state != "ok" or configs is None:
        return None
    present = {f"{directory}/{entry}" for entry in listing.entries}
    parts = name.removesuffix(".sh").split("_")
    if not _may_be_entry_script(path):
        return ()
    needles = (f"model-prefix: {parts[0]}", parts[1])
    found: list[MasterEntry] = []
    jobs = tuple(ctx.policy.sweep_env.jobs) or ("benchmark",)
    for config in configs:
        entries = _entries_mentioning(ctx, config, needles)
        if entries is None:
            return None
        for entry in entries:
            if entry.multinode:
                continue
            # the script a point runs depends only on its scenario and spec-decoding
            kinds = {(point.scenario, point.spec): point for point in ctx.points(entry, jobs)[0]}
            for point in kinds.values():
                chosen = next((c for c in point_scripts(entry, point) if c in present), None)
                if chosen == path:
                    found.append(entry)
                    break
    return tuple(sorted(found, key=lambda e: (e.file, e.key)))


def _entries_mentioning(
    ctx: JudgeContext, config: str, needles: tuple[str, ...]
) -> list[MasterEntry] | None:
    """The config's head entries whose block holds every needle (None: unreadable)."""
    blocks = _block_texts(ctx, config)
    if blocks is False:
        return None
    keys = (
        None
        if blocks is None
        else frozenset(key for key, block in blocks.items() if all(n in block for n in needles))
    )
    parsed = ctx.master_config(config, "head", keys)
    if parsed is None or parsed.problems:
        return None
    return list(parsed.entries.values())


def _block_texts(ctx: JudgeContext, config: str) -> dict[str, str] | Literal[False] | None:
    """Each head entry's block of text in `config`, split once per verdict (None: the file
    does not split into blocks; False: it was not read)."""
    memo = ctx.memo.setdefault(BLOCKS_KEY, {})
    assert isinstance(memo, dict)
    if config not in memo:
        text = ctx.master_text(config, "head")
        blocks = split_blocks(text) if text is not None else None
        lines = text.split("\n") if text is not None else []
        memo[config] = (
            False if text is None
            else None if blocks is None
            else {key: "\n".join(lines[start:end]) for key, (start, end) in blocks.items()}
        )  # fmt: skip
    return memo[config]  # type: ignore[no-any-return]


def _config_dir(ctx: JudgeContext) -> str:
    return ctx.master_configs_glob.rsplit("/", 1)[0]


def _master_files(ctx: JudgeContext) -> list[str] | None:
    """The master configs at the head, from their directory's listing (None: not listed)."""
    directory = _config_dir(ctx)
    listing = ctx.evidence.listing(directory, "head")
    if listing is None or listing.state != "ok":
        return None
    glob = ctx.master_configs_glob
    return sorted(
        f"{directory}/{entry}"
        for entry in listing.entries
        if path_matches(f"{directory}/{entry}", glob)
    )
