"""The serving engine runs as shipped: no engine patches without a waiver.

Why: the community must be able to reproduce a number from the released image; a patched engine
measures something nobody can download. How it is judged: the benchmark scripts a PR reaches
(those it changes, those its changed master-config entries run, and the helper scripts they run
or source next to themselves) are read command by command, and the lines it adds to shared
launchers, multi-node recipe files and the shared benchmark library line by line, for
patching: `git apply`/`patch`, patch files, edits of installed engine sources (`sed -i`,
redirects, copies into site-packages, /sgl-workspace or a `find_spec` location), inline programs
that rewrite engine files,
sitecustomize hooks, engine wheels installed over the image, container setup scripts, and
recipe code fetched from another repository at a pinned commit or pull-request ref (what runs
then is outside the PR). Harness and eval tooling is allowed. Patching the PR adds needs
`docs/waiver/<this PR>.md` added in this PR; patching that was already there needs the original
PR's waiver on the default branch. Either way the waiver must name the patched file, have the
sections (what is patched, why, upstream links, removal plan) and be linked in the Additional
detail section. N/A when no benchmark script, launcher, recipe or master config changes.
To satisfy it: run the image as shipped, or file and link the waiver.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from signoff.evidence import ChangedFile
from signoff.judge.context import JudgeContext, path_matches
from signoff.judge.model import Finding, Want, failed, not_applicable, passed, want_dir, want_file
from signoff.parse.diff import patch_lines
from signoff.parse.engine_patches import PatchHit, find_in_lines, find_patches, helper_scripts

ID = "engine-patches"
NAME = "no engine patches without waiver"

IGNORED = "**/deprecated/**"  # retired scripts moved aside by a retirement PR are not run


@dataclass
class _Scan:
    introduced: list[PatchHit] = field(default_factory=list)  # on lines this PR adds
    existing: list[PatchHit] = field(default_factory=list)  # already on the default branch
    scanned: list[str] = field(default_factory=list)
    problem: str = ""


def wants(ctx: JudgeContext) -> Iterator[Want]:
    """Helper scripts of the reached scripts; then the waivers the hits need."""
    for path in _reached_scripts(ctx):
        if ctx.evidence.file(path, "head") is None:
            yield want_file(path, "head")
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
    if not scan.introduced and not scan.existing:
        return passed(f"no engine patching in {_scanned(scan)}")
    notes: list[str] = []
    for hits, own in ((scan.introduced, True), (scan.existing, False)):
        if hits:
            verdict = _waived(ctx, hits, own)
            if verdict.status == "FAIL":
                return verdict
            notes.append(verdict.reason)
    return passed("; ".join(notes))


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
    if "engine-patches.changed" not in ctx.memo:
        ctx.memo["engine-patches.changed"] = {f.path: f for f in ctx.evidence.changed_files}
    index = ctx.memo["engine-patches.changed"]
    assert isinstance(index, dict)
    found = index.get(path)
    return found if isinstance(found, ChangedFile) else None


def _reached_scripts(ctx: JudgeContext) -> list[str]:
    """Changed scripts, the scripts changed entries run, and helpers they call (transitively,
    as far as the helpers have been read)."""
    shared = ctx.policy.patches.shared_libraries
    found: list[str] = [f.path for f in ctx.changed_scripts]
    for entry in ctx.changed_entries:
        read = ctx.script_for(entry)
        if read is not None:
            found.append(read.path)
    queue = [p for p in dict.fromkeys(found) if not path_matches(p, IGNORED) and p not in shared]
    seen: list[str] = []
    while queue:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.append(path)
        read = ctx.evidence.file(path, "head")
        if read is not None and read.state == "ok" and read.text is not None:
            queue += [h for h in helper_scripts(read.text, path) if h not in shared]
    return seen


# --- scanning -----------------------------------------------------------------------------------


def _scan(ctx: JudgeContext) -> _Scan:
    if "engine-patches.scan" not in ctx.memo:
        ctx.memo["engine-patches.scan"] = _scan_all(ctx)
    scan = ctx.memo["engine-patches.scan"]
    assert isinstance(scan, _Scan)
    return scan


def _scan_all(ctx: JudgeContext) -> _Scan:
    scan = _Scan()
    for path in _reached_scripts(ctx):
        read = ctx.evidence.file(path, "head")
        if read is None or read.state != "ok" or read.text is None:
            scan.problem = f"{path} could not be read at the pinned head ({ctx.unread(read)})"
            return scan
        hits = find_patches(read.text, path, ctx.policy.patches, _variables(ctx, path))
        _split(ctx, path, hits, scan)
        scan.scanned.append(path)
    patches = ctx.policy.patches
    shared = (*patches.launcher_paths, *patches.recipe_paths, *patches.shared_libraries)
    for changed in ctx.evidence.changed_files:
        if changed.status == "removed" or not _matches_any(changed.path, shared):
            continue
        if changed.patch is None:
            scan.problem = f"{changed.path}: GitHub sent no patch, so added patching is unverified"
            return scan
        added = ((line.line, line.text) for line in patch_lines(changed.patch).added)
        scan.introduced += find_in_lines(added, changed.path, patches)
        scan.scanned.append(changed.path)
    return scan


def _variables(ctx: JudgeContext, path: str) -> dict[str, str]:
    """Values of the script's simple variables, to read `sed -i ... "$FILE"` with its target.
    (Switches to per-configuration script runs once the shell reader offers them.)"""
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
    what = f"{first.where} {first.what} (`{first.text}`)"
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
