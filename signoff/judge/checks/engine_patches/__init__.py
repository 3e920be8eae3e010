"""The serving engine runs as shipped: no engine patches without a waiver.

Why: the community must be able to reproduce a number from the released image; a patched engine
measures something nobody can download. How it is judged: on what the scripts a PR reaches run.
A changed script may run under any configuration, so it is read with nothing bound; the script
of a changed master-config entry is read per swept configuration (benchmark and eval jobs); a
helper they run next to themselves (`bash "$(dirname "$0")/x.sh"`) is read with nothing bound,
and one they source is read whole. Every command that runs, or may run, is read for patching:
`git apply`/`patch`, patch files, edits of installed engine sources (`sed -i`, redirects, copies
into site-packages, /sgl-workspace or a `find_spec` location), inline programs that rewrite
engine files, sitecustomize hooks, engine wheels installed over the image, container setup
scripts. Any other script they run by file (`bash ./x.sh`) is not read: a call that may run one
the PR adds or changes, or fetches from a URL the profile does not trust (`curl URL | sh`),
FAILs (see judge/script_files, judge/fetched_code). Dead code (`false &&`, `true ||`, a dead
branch, an uncalled function, a comment) never counts; a command behind a condition the reader
cannot decide counts, and the reason names that condition; a script that cannot be read in full
fails. The lines a PR adds to shared launchers, multi-node recipe files and the shared benchmark
library are read line by line, for patching and for recipe code fetched from another repository
at a pinned commit or pull-request ref (what runs then is outside the PR); a changed launcher
is also read whole for the container images it names (launcher_images). Harness and eval
tooling is allowed. Patching the PR adds needs `docs/waiver/<this PR>.md` added in this PR;
patching that was already there needs the original PR's waiver on the default branch. Either way
the waiver must name the patched file, have the sections (what is patched, why, upstream links,
removal plan) and be linked in the Additional detail section. N/A when no benchmark script,
launcher, recipe or master config changes. To satisfy it: run the image as shipped, or file and
link the waiver.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from signoff.evidence import ChangedFile
from signoff.judge import script_entries
from signoff.judge.baseline import base_wants, settled
from signoff.judge.checks.engine_patches import launcher_images
from signoff.judge.context import JudgeContext, path_matches
from signoff.judge.model import Finding, Want, failed, not_applicable, passed, want_dir, want_file
from signoff.judge.recipe_settings import unread_settings
from signoff.judge.script_files import unread_script_file
from signoff.parse.benchmark.engine_patches import (
    Helper,
    PatchHit,
    find_in_lines,
    find_in_run,
    find_patches,
    helper_scripts,
    sourced_file,
)
from signoff.parse.benchmark.launch import ScriptRun
from signoff.parse.diff import patch_lines
from signoff.parse.recipes.pinned_checkout import (
    cloned_repo,
    full_pin,
    head_lines,
    moved_after,
    pins_in,
)
from signoff.rules.engine_patches import PatchPolicy

ID = "engine-patches"
NAME = "no engine patches without waiver"
CONFIG = PatchPolicy  # its profile section, rules.<ID>.config

IGNORED = "**/deprecated/**"  # retired scripts moved aside by a retirement PR are not run


@dataclass
class _Scan:
    introduced: list[PatchHit] = field(default_factory=list)  # on lines this PR adds
    existing: list[PatchHit] = field(default_factory=list)  # already on the default branch
    scanned: list[str] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)  # files sourced from run-time paths
    problem: str = ""
    image: str = ""  # a changed launcher's new container image: no waiver covers it


def wants(ctx: JudgeContext) -> Iterator[Want]:
    """The master configs at the head for a changed script no changed entry runs (read per
    configuration of the entries that do); base texts of changed scripts with gaps
    (judge/baseline); helper scripts of the reached scripts; then the waivers the hits need."""
    yield from script_entries.wants(ctx)
    yield from base_wants(ctx)
    yield from _base_launcher_wants(ctx)
    yield from launcher_images.wants(ctx)
    unread = _reach(ctx).unread
    for path in dict.fromkeys(unread):
        yield want_file(path, "head")
    if unread:
        return  # the scan needs the helpers first
    scan = _scan(ctx)
    if scan.problem:
        return
    if scan.introduced and _changed(ctx, _own_waiver(ctx)) is not None:
        yield want_file(_own_waiver(ctx), "head")
    if scan.existing:
        directory = ctx.policy.patches.waiver_dir
        yield want_dir(directory, "default")
        listing = ctx.evidence.listing(directory, "default")
        for name in listing.entries if listing is not None else ():
            if name.endswith(".md") and name[:-3].isdigit():
                yield want_file(f"{directory}/{name}", "default")


def evaluate(ctx: JudgeContext) -> Finding:
    if not _in_scope(ctx):
        return not_applicable("no benchmark script, launcher, recipe or master config changed")
    if ctx.master_problems:
        return failed(f"the configs the PR runs cannot be determined: {ctx.master_problems[0]}")
    scan = _scan(ctx)
    if scan.problem:
        return failed(scan.problem)
    unread = f"; not read: {', '.join(dict.fromkeys(scan.unread))}" if scan.unread else ""
    notes: list[str] = []
    for hits, own in ((scan.introduced, True), (scan.existing, False)):
        if hits:
            verdict = _waived(ctx, hits, own)
            if verdict.status == "FAIL":
                return verdict
            notes.append(verdict.reason)
    if scan.image:
        return failed(scan.image)
    if not notes:
        return passed(f"no engine patching in {_scanned(scan)}{unread}")
    return passed("; ".join(notes) + unread)


# --- what the PR reaches ------------------------------------------------------------------------


def _in_scope(ctx: JudgeContext) -> bool:
    patches = ctx.policy.patches
    shared = (*patches.launcher_paths, *patches.recipe_paths, *patches.shared_libraries)
    return bool(
        ctx.changed_scripts
        or ctx.changed_master_files
        or any(_matches_any(f.path, shared) for f in ctx.evidence.changed_files)
    )


def _matches_any(path: str, patterns: tuple[str, ...]) -> bool:
    return any(path_matches(path, pattern) for pattern in patterns)


def _changed(ctx: JudgeContext, path: str) -> ChangedFile | None:
    index = ctx.memoized(
        "engine-patches.changed", lambda: {f.path: f for f in ctx.evidence.changed_files}
    )
    return index.get(path)


@dataclass
class _Reach:
    """The scripts a PR reaches, with the readings to hold them to (None: read the whole text,
    for a sourced helper), and the helpers found that the evidence does not hold yet."""

    scripts: dict[str, tuple[ScriptRun, ...] | None] = field(default_factory=dict)
    unread: list[str] = field(default_factory=list)


def _reach(ctx: JudgeContext) -> _Reach:
    return ctx.memoized("engine-patches.reach", lambda: _reach_all(ctx))


def _reach_all(ctx: JudgeContext) -> _Reach:
    """Changed scripts (read with nothing bound), the scripts changed entries run (per swept
    configuration, every job), and the helpers those readings run or source, transitively."""
    readings: dict[str, list[ScriptRun]] = {}
    for changed in ctx.changed_scripts:
        readings.setdefault(changed.path, []).extend(ctx.script_runs_for_path(changed.path))
    jobs = tuple(ctx.policy.sweep_env.jobs) or ("benchmark",)
    for entry in ctx.changed_entries:
        for run in ctx.script_runs(entry, jobs=jobs):
            readings.setdefault(run.path, []).append(run)
    skip = set(ctx.policy.patches.shared_libraries)
    queue = [path for path in readings if not path_matches(path, IGNORED) and path not in skip]
    whole: set[str] = set()  # sourced helpers: their every command counts
    done: list[str] = []
    reach = _Reach()
    while queue:
        path = queue.pop(0)
        if path in done:
            continue
        done.append(path)
        for helper in _helpers(ctx, path, None if path in whole else readings[path]):
            if helper.path in skip or path_matches(helper.path, IGNORED):
                continue
            if ctx.evidence.file(helper.path, "head") is None:
                reach.unread.append(helper.path)
            if helper.sourced and helper.path not in whole:
                whole.add(helper.path)
                done = [p for p in done if p != helper.path]  # read it again, whole
            readings.setdefault(helper.path, list(ctx.script_runs_for_path(helper.path)))
            queue.append(helper.path)
    reach.scripts = {p: None if p in whole else tuple(readings[p]) for p in done}
    return reach


def _helpers(ctx: JudgeContext, path: str, runs: list[ScriptRun] | None) -> list[Helper]:
    """Helpers run or sourced by what runs (by any command, when read whole)."""
    parsed = ctx.parsed_script(path)
    if parsed is None:
        return []
    if runs is None or any(not run.complete for run in runs):
        return list(helper_scripts(parsed.text, path))
    offsets = {record.offset for run in runs for record in run.ran}
    return list(helper_scripts(parsed.text, path, offsets))


def _evaluated(run: ScriptRun) -> bool:
    """Whether a reading is complete but for files the script sources: the script is then read
    whole (a sourced file's functions and variables can change what runs), and so are the
    sourced helpers next to it; a file sourced from elsewhere is as unknown as any program the
    script starts, and the reason names it."""
    return run.complete or all(sourced_file(p) is not None for p in run.problems)


# --- scanning -----------------------------------------------------------------------------------


def _scan(ctx: JudgeContext) -> _Scan:
    return ctx.memoized("engine-patches.scan", lambda: _scan_all(ctx))


def _scan_all(ctx: JudgeContext) -> _Scan:
    scan = _Scan()
    patches = ctx.policy.patches
    shared = (*patches.launcher_paths, *patches.recipe_paths, *patches.shared_libraries)
    reached = _reach(ctx).scripts
    # what this check reads: the reached scripts, and the launcher/recipe/library lines it scans
    known = {
        *reached,
        *(f.path for f in ctx.evidence.changed_files if _matches_any(f.path, shared)),
    }
    for path, runs in reached.items():
        read = ctx.evidence.file(path, "head")
        if read is not None and read.state == "missing" and runs and all(r.complete for r in runs):
            continue  # absent with every other candidate: the jobs run no script (context)
        if read is None or read.state != "ok" or read.text is None:
            why = next((p for run in runs or () for p in run.problems), "")  # names candidates
            scan.problem = (
                f"{why}, so patching is unverified" if why
                else f"{path} could not be read at the pinned head ({ctx.unread(read)})"
            )  # fmt: skip
            return scan
        _scan_script(ctx, path, read.text, runs, scan)
        unread = next((u for run in runs or () if (u := unread_script_file(ctx, run, known))), "")
        if unread and not scan.problem:
            scan.problem = f"{unread}, so patching there is unverified"
        if scan.problem:
            return scan
    for changed in ctx.evidence.changed_files:
        if changed.status == "removed" or not _matches_any(changed.path, shared):
            continue
        if changed.patch is None:
            scan.problem = f"{changed.path}: GitHub sent no patch, so added patching is unverified"
            return scan
        if _matches_any(changed.path, patches.recipe_paths):
            environment = unread_settings(ctx, changed, known)
            if environment:  # `PYTHONPATH: /workspace/...` under a worker's environment
                scan.problem = f"{environment}, so patching there is unverified"
                return scan
        added = ((line.line, line.text) for line in patch_lines(changed.patch).added)
        hits = find_in_lines(added, changed.path, patches)
        scan.introduced += [
            _named_pin(h, changed.patch)
            for h in hits
            if not _trusted_pin(h, changed.patch, patches) and not _base_pin(ctx, h, changed.patch)
        ]
        scan.scanned.append(changed.path)
    for path in ctx.changed_master_files:  # `additional-settings` the sweep step exports
        master = _changed(ctx, path)
        settings = unread_settings(ctx, master, known) if master is not None else ""
        if settings:
            scan.problem = f"{settings}, so patching there is unverified"
            return scan
    scan.image = launcher_images.new_image(ctx)
    scan.introduced += _shadowing(ctx)
    return scan


def _shadowing(ctx: JudgeContext) -> list[PatchHit]:
    """Files the PR adds or changes that Python imports ahead of the installed engine (profile
    `shadow_files`): where the script puts them on the path is its own business."""
    return [
        PatchHit(path=f.path, line=1, rule="shadow-file", text=f.path[-120:],
                 what="shadows the installed engine's Python modules")
        for f in ctx.evidence.changed_files
        if f.status != "removed" and _matches_any(f.path, ctx.policy.patches.shadow_files)
    ]  # fmt: skip


def _trusted_pin(hit: PatchHit, patch: str, patches: PatchPolicy) -> bool:
    """A pinned checkout of a trusted recipe orchestrator (profile `trusted_recipe_repos`):
    what it runs patches only through a setup script the recipes or launcher name, and those
    lines are read by the patch patterns themselves."""
    if hit.rule != "pinned-checkout":
        return False
    lines = head_lines(patch)
    repo = cloned_repo(lines, hit.line)
    trusted = {r.repo.lower() for r in patches.trusted_recipe_repos}
    return repo is not None and repo.lower() in trusted and not moved_after(lines, hit.line)


def _pinned(hit: PatchHit, patch: str) -> tuple[str, str] | None:
    """(lower-case `owner/name`, full commit) a pinned-checkout hit checks out, when both are
    known."""
    if hit.rule != "pinned-checkout":
        return None
    lines = head_lines(patch)
    repo, sha = cloned_repo(lines, hit.line), full_pin(lines.get(hit.line, ""))
    if moved_after(lines, hit.line):
        return None  # the tree that runs is not the pinned commit's
    return (repo.lower(), sha) if repo and sha else None


def _untrusted_pins(ctx: JudgeContext) -> bool:
    """Whether a changed launcher adds a pin, tied to its clone, of an untrusted repository."""
    patches = ctx.policy.patches
    for changed in ctx.evidence.changed_files:
        if changed.status == "removed" or changed.patch is None:
            continue
        if not _matches_any(changed.path, patches.launcher_paths):
            continue
        added = ((line.line, line.text) for line in patch_lines(changed.patch).added)
        for hit in find_in_lines(added, changed.path, patches):
            if _pinned(hit, changed.patch) and not _trusted_pin(hit, changed.patch, patches):
                return True
    return False


def _launcher_dirs(ctx: JudgeContext) -> list[str]:
    """The directories the profile's launcher globs name (`runners/**` -> `runners`)."""
    dirs = (glob.split("*", 1)[0].rstrip("/") for glob in ctx.policy.patches.launcher_paths)
    return sorted({d for d in dirs if d})


def _base_launcher_wants(ctx: JudgeContext) -> Iterator[Want]:
    """The base's launchers, when a changed launcher adds an untrusted pin: one the base
    already checks out is baseline (see `_base_pin`)."""
    if not _untrusted_pins(ctx):
        return
    for directory in _launcher_dirs(ctx):
        yield want_dir(directory, "base")
        listing = ctx.evidence.listing(directory, "base")
        for name in listing.entries if listing is not None and listing.state == "ok" else ():
            path = f"{directory}/{name}"
            if name.endswith(".sh") and _matches_any(path, ctx.policy.patches.launcher_paths):
                yield want_file(path, "base")


def _base_pins(ctx: JudgeContext) -> frozenset[tuple[str, str]] | None:
    """Every (repository, commit) the base's launchers check out, tied to their clones; None
    when a launcher directory or file of the base could not be read (nothing is then baseline)."""
    if "engine-patches.base-pins" not in ctx.memo:
        ctx.memo["engine-patches.base-pins"] = _read_base_pins(ctx)
    pins = ctx.memo["engine-patches.base-pins"]
    return pins if isinstance(pins, frozenset) else None


def _read_base_pins(ctx: JudgeContext) -> frozenset[tuple[str, str]] | str:
    pins: set[tuple[str, str]] = set()
    for directory in _launcher_dirs(ctx):
        listing = ctx.evidence.listing(directory, "base")
        if listing is None or listing.state != "ok":
            return f"{directory}/ not listed at the base"
        for name in listing.entries:
            path = f"{directory}/{name}"
            if not name.endswith(".sh") or not _matches_any(
                path, ctx.policy.patches.launcher_paths
            ):
                continue
            read = ctx.evidence.file(path, "base")
            if read is None or read.state != "ok" or read.text is None:
                return f"{path} not read at the base"
            pins |= pins_in(read.text)
    return frozenset(pins)


def _base_pin(ctx: JudgeContext, hit: PatchHit, patch: str) -> bool:
    """A pin of a repository at a full commit that a base launcher already checks out, tied
    to a clone of the same repository: the external code it runs is the base's, reviewed when
    it merged (moving or copying a pinned block is no new external code)."""
    pinned = _pinned(hit, patch)
    if pinned is None:
        return False
    pins = _base_pins(ctx)
    return pins is not None and pinned in pins


def _named_pin(hit: PatchHit, patch: str) -> PatchHit:
    """A pinned checkout that counts, naming why: the repository it checks out (so the
    maintainer can see whether a waiver or a `trusted_recipe_repos` entry is the remedy), or
    the later git command that may move the tree off the pin."""
    if hit.rule != "pinned-checkout":
        return hit
    lines = head_lines(patch)
    repo = cloned_repo(lines, hit.line)
    if repo is None:
        where = "of a repository the checkout cannot be tied to"
    elif moved_after(lines, hit.line):
        where = f"of {repo}, which a later git command in the same branch may move off that commit"
    else:
        where = f"of {repo}, a repository the profile's trusted_recipe_repos does not list"
    return hit.model_copy(update={"what": f"{hit.what} {where}"})


def _scan_script(
    ctx: JudgeContext, path: str, text: str, runs: tuple[ScriptRun, ...] | None, scan: _Scan
) -> None:
    """The patching one script runs across its readings (the surest hit per line and rule),
    into `scan`; or why it cannot be told (`scan.problem`)."""
    patches, variables = ctx.policy.patches, _variables(ctx, path)
    if runs is None:
        found = list(find_patches(text, path, patches, variables, "sourced: every command counts"))
        runs = ()
    else:
        found = []
    for run in (settled(ctx, run, keep_sources=True) for run in runs):
        run = _without_libraries(ctx, run)
        if run.complete:
            found += find_in_run(text, path, run, patches, variables)
        elif _evaluated(run):
            made = [p for p in settled(ctx, run).problems if sourced_file(p) is not None]
            if made:  # a source the PR wrote or changed (fed by a fetch, standard input, ...)
                where = f" ({run.label})" if run.label else ""
                scan.problem = (
                    f"{path} could not be fully read ({made[0]}), so patching is unverified{where}"
                )
                return
            why = f"{run.problems[0]}: every command counts"
            found += find_patches(text, path, patches, variables, why)
            scan.unread += [
                _unread_source(path, p) for p in run.problems if _unread_source(path, p)
            ]
        else:
            unsourced = [p for p in run.problems if sourced_file(p) is None]
            why = unsourced[0] if unsourced else "unread"
            where = f" ({run.label})" if run.label else ""
            scan.problem = (
                f"{path} could not be fully read ({why}), so patching is unverified{where}"
            )
            return
    surest: dict[tuple[int, str], PatchHit] = {}
    for hit in found:
        key = (hit.line, hit.rule)
        if key not in surest or (surest[key].why and not hit.why):
            surest[key] = hit
    _split(ctx, path, tuple(surest[key] for key in sorted(surest)), scan)
    scan.scanned.append(path)


def _without_libraries(ctx: JudgeContext, run: ScriptRun) -> ScriptRun:
    """The reading without what a changed shared library it sources runs: those libraries
    are judged on the lines the PR adds to them (below), not on every line already there."""
    lines = {line for line, sourced in run.sourced if ctx.is_library(sourced)}
    if not lines:
        return run
    return run.model_copy(update={
        "commands": tuple(c for c in run.commands if c.line not in lines),
        "heredocs": tuple(h for h in run.heredocs if h.line not in lines),
    })  # fmt: skip


def _unread_source(path: str, problem: str) -> str:
    """`$X/env.sh` (sourced at path:line) for a sourced file that is not a helper next to the
    script (those are read); "" otherwise."""
    target = sourced_file(problem)
    if target is None or helper_scripts(f'source "{target}"\n', path):
        return ""
    return f"`{target}` (sourced at {problem.split(': ', 1)[0]})"


def _variables(ctx: JudgeContext, path: str) -> dict[str, str]:
    """Values of the script's simple variables, to read `sed -i ... "$FILE"` in its source text
    with its target (the words a command runs with are read resolved as well)."""
    facts = ctx.script_facts(path)
    return dict(facts.variables) if facts is not None else {}


def _split(ctx: JudgeContext, path: str, hits: tuple[PatchHit, ...], scan: _Scan) -> None:
    """Hits on lines the PR adds are introduced by it; the others were already there."""
    changed = _changed(ctx, path)
    if changed is None:
        scan.existing += hits
        return
    if changed.status == "added" or changed.patch is None:
        scan.introduced += hits  # no diff to tell old lines from new: the stricter waiver
        return
    added = patch_lines(changed.patch).added_numbers
    for hit in hits:
        (scan.introduced if hit.line in added else scan.existing).append(hit)


def _scanned(scan: _Scan) -> str:
    count = len(scan.scanned)
    return f"{count} reached script(s)/launcher or recipe change(s)" if count else "the PR"


# --- waivers ------------------------------------------------------------------------------------


def _own_waiver(ctx: JudgeContext) -> str:
    return f"{ctx.policy.patches.waiver_dir}/{ctx.evidence.pull_request.number}.md"


def _waived(ctx: JudgeContext, hits: list[PatchHit], own: bool) -> Finding:
    first = hits[0]
    may = f" [may run: {first.why}]" if first.why else ""
    what = f"{first.where} {first.what} (`{first.text}`){may}"
    more = f" and {len(hits) - 1} more" if len(hits) > 1 else ""
    files = sorted({hit.path for hit in hits})
    if own:
        candidates = _own_candidates(ctx)
        missing = f"no {_own_waiver(ctx)} added in this PR"
    else:
        candidates = _default_waivers(ctx)
        missing = f"no waiver on the default branch's {ctx.policy.patches.waiver_dir}/"
    if isinstance(candidates, str):
        return failed(f"{what}{more}: {candidates}")
    covering = [(path, text) for path, text in candidates if _names_all(ctx, text, files)]
    if not covering:
        named = f" names {', '.join(_base(f) for f in files)}"
        return failed(f"{what}{more}: {missing}{named if candidates else ''}")
    return _linked_and_complete(ctx, covering, what + more)


def _own_candidates(ctx: JudgeContext) -> list[tuple[str, str]] | str:
    path = _own_waiver(ctx)
    changed = _changed(ctx, path)
    if changed is None or changed.status != "added":
        return []
    read = ctx.evidence.file(path, "head")
    if read is None or read.state != "ok" or read.text is None:
        return f"{path} could not be read ({ctx.unread(read)})"
    return [(path, read.text)]


def _default_waivers(ctx: JudgeContext) -> list[tuple[str, str]] | str:
    directory = ctx.policy.patches.waiver_dir
    listing = ctx.evidence.listing(directory, "default")
    if listing is None or listing.state == "unavailable":
        why = listing.reason if listing is not None else ctx.unread(None)
        return f"{directory}/ on the default branch could not be listed ({why})"
    found: list[tuple[str, str]] = []
    for name in listing.entries:
        if not (name.endswith(".md") and name[:-3].isdigit()):
            continue
        read = ctx.evidence.file(f"{directory}/{name}", "default")
        if read is None or read.state != "ok" or read.text is None:
            return f"{directory}/{name} could not be read ({ctx.unread(read)})"
        found.append((read.path, read.text))
    return found


def _base(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def _names_all(ctx: JudgeContext, waiver: str, files: list[str]) -> bool:
    """A waiver covers a patch when it names the patched file (or, for a launcher or recipe
    line, one of the config keys the PR changes)."""
    keys = {entry.key for entry in ctx.changed_entries}
    return all(_base(f) in waiver or any(key in waiver for key in keys) for f in files)


def _linked_and_complete(ctx: JudgeContext, covering: list[tuple[str, str]], what: str) -> Finding:
    detail = ctx.signoff.detail
    urls = " ".join(link.url for link in ctx.signoff.links if link.in_detail)
    for path, text in covering:
        if path not in detail and path not in urls:
            continue
        lowered = text.lower()
        absent = [cue for cue in ctx.policy.patches.waiver_sections if cue not in lowered]
        if absent:
            return failed(f"{what}: {path} lacks the waiver section(s) {', '.join(absent)}")
        return passed(f"{what}: covered by {path}, linked in the Additional detail section")
    names = ", ".join(path for path, _ in covering)
    return failed(f"{what}: {names} covers it but is not linked in the Additional detail section")
