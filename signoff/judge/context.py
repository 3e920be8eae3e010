"""Facts derived once from the evidence and shared by the checks (parsed texts, changed entries)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cached_property, lru_cache
from typing import TypeVar, cast

from signoff.evidence import ChangedFile, Evidence, FileRead
from signoff.judge import script_entries
from signoff.judge.narrowing import runs_nothing_new
from signoff.judge.paths import path_matches as path_matches  # (checks import it from here)
from signoff.judge.quote import code
from signoff.judge.shared_readings import SharedReadings, kept
from signoff.memo import ByIdentity
from signoff.parse.benchmark.engine_flags import may_be_flag
from signoff.parse.benchmark.launch import ScriptRun
from signoff.parse.benchmark.script import (
    DEFAULT_BUDGET,
    ParsedScript,
    ScriptFacts,
    evaluate_counted,
    read_script,
    read_unbound,
)
from signoff.parse.comment.checklist_template import ParsedTemplate, parse_template
from signoff.parse.comment.item_matching import MatchReport, match_items
from signoff.parse.comment.links import RecipeLinkRef, recipe_links
from signoff.parse.comment.signoff_comment import ParsedSignoff, parse_signoff
from signoff.parse.diff import gitlink_target, patch_lines
from signoff.parse.inferencex.codeowners import CodeOwners, parse_codeowners
from signoff.parse.inferencex.config_points import (
    ConfigPoint,
    config_points,
    group_runs,
    point_scripts,
)
from signoff.parse.inferencex.master_blocks import (
    block_text,
    changed_keys,
    sparse_keys,
    split_blocks,
)
from signoff.parse.inferencex.master_config import (
    EntryChange,
    MasterConfig,
    MasterEntry,
    diff_entries,
    parse_master_config,
    script_candidates,
)
from signoff.parse.shell.data_only import data_only
from signoff.parse.shell.scan import mentions
from signoff.parse.shell.sources import SourcedText, Sources, read_problem
from signoff.policy import Policy
from signoff.standards import Standard, Switches, resolve_standard
from signoff.yamlload import load_yaml

# Evaluation steps for every script reading of one verdict together, base readings included (a
# quarter at most). Real PRs of InferenceX 2026-07-04..08-22: the median verdict takes ~1,000;
# the mass edits #2096 and #2566 a few ten thousand; #1947 (23 agentic scripts and the library)
# 104,362, the most. About 65 us a step today: a hostile bundle that spends it all takes ~8 s
# (tests/bench/bench_hostile).
SCRIPT_STEPS_PER_JUDGE = 120_000
# Evaluation steps for one reading when the PR changes the shared library: InferenceX's
# benchmark_lib.sh read with nothing bound takes a median 5,800 steps (p90 6,200) per script.
LIBRARY_BUDGET = 12_000
# Concurrency curves (configurations less their concurrency, per job) a changed script no
# changed entry runs is read under (script-only PRs; judge/script_entries.py), per verdict: a
# PR changing scripts that many configurations run has the rest read with nothing bound, as
# strictly (the work stays near a single reading's).
SCRIPT_ENTRY_READINGS = 16
# The operand of `source`/`.` (a file whose change changes what an unchanged script does).
_SOURCED = re.compile(r"(?:^|[\s;&|(])(?:source|\.)\s+([^;&|\n]+)", re.M)
_T = TypeVar("_T")
_CONFIGS_KEPT = 32  # master-config texts kept parsed (whole or as a PR's changed blocks)
# Readings shared by every context of the process (gathering's rounds, then the judge).
kept(read_script)  # its parses too (parse/benchmark/script.py keeps them)
for _store in (split_blocks, sparse_keys, block_text, changed_keys):  # master_blocks' splits
    kept(_store)
_READINGS: SharedReadings[tuple[ScriptRun, int]] = SharedReadings()
_FACTS: SharedReadings[tuple[ScriptFacts, ScriptRun, int]] = SharedReadings()
# Whether a reading's launches may pass a spec-decode flag, under one policy.
_SPECULATES: ByIdentity[tuple[Policy, bool]] = ByIdentity(1024)
# An entry version's configuration points under one sweep environment (they look up no file).
_POINTS: SharedReadings[tuple[tuple[ConfigPoint, ...], str]] = SharedReadings(4096)


@kept
@lru_cache(maxsize=_CONFIGS_KEPT)
def _yaml_once(text: str) -> tuple[object, Exception | None]:
    """A master config's YAML read once per process (every context of gathering's rounds and
    the judge read the same texts; the data is only read, never changed)."""
    try:
        return load_yaml(text), None
    except Exception as exc:  # handed to the caller, which reports it
        return None, exc


def _load_once(text: str) -> object:
    data, error = _yaml_once(text)
    if error is not None:
        raise error
    return data


@kept
@lru_cache(maxsize=256)
def _sourced_names(text: str) -> frozenset[str]:
    """The base names a script's `source`/`.` commands name, once per text (a mass edit asks
    for every candidate script of every changed entry: #2096, 2,691 searches, 0.7 s)."""
    return frozenset(basename(w).strip("\"' ") for w in _SOURCED.findall(text))


@kept
@lru_cache(maxsize=_CONFIGS_KEPT)
def _narrowed_once(
    base: str, head: str, keys: tuple[str, ...], metadata: tuple[str, ...]
) -> frozenset[str]:
    """Which of `keys` run nothing new from the `base` text to the `head` text, once per
    process (a mass edit's rounds each asked again: #2096, 2.0 s of its 12 s)."""
    before, after = _raw_entries(base), _raw_entries(head)
    return frozenset(
        key for key in keys if runs_nothing_new(key, before.get(key), after.get(key), metadata)
    )


def _raw_entries(text: str) -> dict[str, object]:
    """A master config's entries as plain data ({} when it cannot be read)."""
    try:
        data = _load_once(text)
    except Exception:  # the entry parser reports it; unreadable is no narrowing
        return {}
    return {str(k): v for k, v in data.items()} if isinstance(data, dict) else {}


@kept
@lru_cache(maxsize=_CONFIGS_KEPT)
def _master_once(text: str, path: str, sku_pattern: str) -> MasterConfig:
    """A master config's entries parsed once per process (frozen, shared as within a context)."""
    return parse_master_config(text, path, sku_pattern, _load_once)


_QUOTES = "\"'"  # quotes around a word as a reason shows it
_URL_SETTING = re.compile(r"\s*url\s*=", re.IGNORECASE)  # a submodule's url in .gitmodules


class JudgeContext:
    """Lazy, memoised views of one evidence bundle under one policy; pure and network-free."""

    def __init__(
        self, evidence: Evidence, policy: Policy, standard: Standard | None = None
    ) -> None:
        """`standard` None: the one the bundle records, else the profile's default."""
        self.evidence = evidence
        self.policy = policy
        if standard is None:
            recorded = evidence.standard.spec if evidence.standard is not None else None
            standard = resolve_standard(recorded, policy)
        self.standard = standard
        self.memo: dict[str, object] = {}  # results one check computes for another (Check 1 -> 2)
        # evaluation steps left for every script of this bundle together (hostile scripts)
        self._steps_left = SCRIPT_STEPS_PER_JUDGE
        # of those, what base readings may take (judge/baseline): they never starve the head's
        self._base_steps_left = SCRIPT_STEPS_PER_JUDGE // 4
        # entries a changed script no changed entry runs is read under, per verdict: past it
        # such a script is read with nothing bound (as strict; the work stays bounded)
        self._entry_readings_left = SCRIPT_ENTRY_READINGS
        # the changed files the reading being made looks up (see `shared`)
        self._looked_up: list[str] | None = None

    def memoized(self, key: str, build: Callable[[], _T]) -> _T:
        """What `build` gives, computed once per verdict under `key` (one check's result
        another reads, or a view several readings ask for)."""
        if key not in self.memo:
            self.memo[key] = build()
        return cast(_T, self.memo[key])

    def release(self) -> None:
        """Drop what the verdict cached. Its script readers hold bound methods of this context
        (`sources_for`), a reference cycle: released here, the caches are freed at once rather
        than at a later full collection (the judge pauses the collector, signoff/collector)."""
        self.__dict__.clear()

    # --- the standard ------------------------------------------------------------------------
    @property
    def switches(self) -> Switches:
        """The rule switches of the standard being judged (checks read theirs from here)."""
        return self.standard.switches

    @property
    def master_configs_glob(self) -> str:
        return self.switches.master_configs or self.policy.paths.master_configs

    @property
    def thresholds_path(self) -> str:
        return self.switches.thresholds or self.policy.paths.thresholds

    def unread(self, read: FileRead | None) -> str:
        """Why a file's text is not in the evidence, for a fail-closed reason."""
        if read is not None:
            return read.reason or read.state
        gathered = self.evidence.standard
        if gathered is not None and gathered.spec != self.standard.spec:
            return f"not in the bundle, which was gathered under standard {gathered.spec}"
        return "not read"

    # --- the sign-off and the template -------------------------------------------------------
    @cached_property
    def signoff(self) -> ParsedSignoff:
        return parse_signoff(self.evidence.signoff.body, self.policy.signoff)

    @cached_property
    def recipe_links(self) -> tuple[RecipeLinkRef, ...]:
        """Upstream recipe references in the sign-off's Additional detail section."""
        urls = [link.url for link in self.signoff.links if link.in_detail]
        return recipe_links(urls, self.signoff.detail, self.policy.recipe)

    @cached_property
    def template_read(self) -> FileRead | None:
        return self.evidence.file(self.policy.paths.template, "default")

    @cached_property
    def template(self) -> ParsedTemplate | None:
        read = self.template_read
        if read is None or read.state != "ok" or read.text is None:
            return None
        return parse_template(read.text, self.policy.signoff, self.policy.template_items)

    @cached_property
    def matches(self) -> MatchReport | None:
        if self.template is None:
            return None
        return match_items(self.template, self.signoff, self.policy.template_items)

    # --- ownership ---------------------------------------------------------------------------
    @cached_property
    def codeowners_read(self) -> FileRead | None:
        return self.evidence.file(self.policy.paths.codeowners, "default")

    @cached_property
    def codeowners(self) -> CodeOwners | None:
        read = self.codeowners_read
        if read is None or read.state != "ok" or read.text is None:
            return None
        return parse_codeowners(read.text)

    # --- changed files -----------------------------------------------------------------------
    @cached_property
    def changed_paths(self) -> tuple[str, ...]:
        """Every path the PR touches; a rename contributes its old and new path."""
        paths: set[str] = set()
        for changed in self.evidence.changed_files:
            paths.add(changed.path)
            if changed.previous_path:
                paths.add(changed.previous_path)
        return tuple(sorted(paths))

    @cached_property
    def moved_submodules(self) -> dict[str, str]:
        """Submodules the PR adds or points at another commit, with that commit: every file
        inside one is the PR's to choose, and signoff reads none of them."""
        trusted = set() if self._submodule_urls_changed else {
            one.path for one in self.policy.paths.trusted_submodules
        }  # fmt: skip
        return {path: commit for path, commit in self.gitlinks.items() if path not in trusted}

    @cached_property
    def gitlinks(self) -> dict[str, str]:
        """Every submodule the PR adds or points at another commit, with that commit, trusted
        or not: a directory of files, not a file a command runs or an install reads."""
        found: dict[str, str] = {}
        for changed in self.evidence.changed_files:
            target = gitlink_target(changed.patch) if changed.status != "removed" else None
            if target:
                found[changed.path] = target
        return found

    @cached_property
    def _submodule_urls_changed(self) -> bool:
        """The PR changes which repository a submodule is (a `url` line of `.gitmodules`), or
        its `.gitmodules` patch cannot be read: no submodule is trusted then."""
        changed = next((f for f in self.evidence.changed_files if f.path == ".gitmodules"), None)
        if changed is None:
            return False
        if changed.patch is None:
            return True
        lines = patch_lines(changed.patch)
        edited = (*lines.added, *lines.removed)
        return not lines.complete or any(_URL_SETTING.match(one.text) for one in edited)

    def submodule_holding(self, path: str, *, anchored: bool = False) -> str:
        """The moved submodule a path lies in ("" for none): from the checkout's root
        (`anchored`), or wherever the path starts (`/workspace/utils/aiperf/env.sh`,
        `$ROOT/utils/aiperf`: its text holds the submodule's path)."""
        path = path.strip(_QUOTES)
        for submodule in self.moved_submodules:
            if anchored and (path == submodule or path.startswith(f"{submodule}/")):
                return submodule
            if not anchored and f"/{submodule}/" in f"/{path}/":
                return submodule
        return ""

    def changed_matching(self, pattern: str) -> tuple[ChangedFile, ...]:
        return tuple(
            changed
            for changed in self.evidence.changed_files
            if path_matches(changed.path, pattern)
        )

    @cached_property
    def changed_master_files(self) -> tuple[str, ...]:
        pattern = self.master_configs_glob
        return tuple(
            sorted({f.path for f in self.changed_matching(pattern) if f.status != "removed"})
        )

    @cached_property
    def changed_scripts(self) -> tuple[ChangedFile, ...]:
        return tuple(
            f
            for f in self.changed_matching(self.policy.paths.benchmark_scripts)
            if f.status != "removed"
        )

    # --- master configs ----------------------------------------------------------------------
    def master_text(self, path: str, role: str) -> str | None:
        read = self.evidence.file(path, role)  # type: ignore[arg-type]
        if read is None or read.state != "ok" or read.text is None:
            return None
        return read.text

    def master_config(
        self, path: str, role: str, keys: frozenset[str] | None = None
    ) -> MasterConfig | None:
        """The parsed master config at a role (only `keys` when given), None when unread."""
        cache_key = (path, role, keys)
        if cache_key not in self._master_cache:
            self._master_cache[cache_key] = self._parse_master(path, role, keys)
        return self._master_cache[cache_key]

    def _parse_master(
        self, path: str, role: str, keys: frozenset[str] | None
    ) -> MasterConfig | None:
        text = self.master_text(path, role)
        if text is None:
            return None
        return _master_once(self._sparse(path, role, keys), path, self.policy.images.sku_pattern)

    def _sparse(self, path: str, role: str, keys: frozenset[str] | None) -> str:
        """The master config's text at `role`, only `keys`' blocks when given (and splittable)."""
        text = self.master_text(path, role) or ""
        return sparse_keys(text, keys) if keys is not None else text

    @cached_property
    def _master_cache(self) -> dict[tuple[str, str, frozenset[str] | None], MasterConfig | None]:
        return {}

    @cached_property
    def _master_diff(self) -> tuple[tuple[EntryChange, ...], tuple[str, ...]]:
        """Entries added or changed by the PR, and why some configs could not be compared."""
        changes: list[EntryChange] = []
        problems: list[str] = []
        for path in self.changed_master_files:
            head_text = self.master_text(path, "head")
            base_read = self.evidence.file(path, "base")
            if head_text is None:
                problems.append(f"{path} could not be read at the pinned head")
                continue
            if base_read is None or base_read.state == "unavailable":
                problems.append(f"{path} could not be read at the base commit")
                continue
            base_text = self.master_text(path, "base")
            keys = changed_keys(base_text, head_text) if base_text is not None else None
            subset = frozenset(keys) if keys is not None else None
            head = self.master_config(path, "head", subset)
            base = self.master_config(path, "base", subset) if base_text is not None else None
            assert head is not None
            problems.extend(head.problems)
            found = [c for c in diff_entries(base, head) if c.kind != "removed"]
            narrowed = self._narrowed(path, subset, [c for c in found if c.base])
            changes.extend(c for c in found if c.key not in narrowed and not self._reads_as_base(c))
        return tuple(changes), tuple(problems)

    def _narrowed(
        self, path: str, subset: frozenset[str] | None, changed: list[EntryChange]
    ) -> set[str]:
        """Keys of changed entries that run nothing new (judge/narrowing.py): baseline."""
        if not changed:
            return set()
        keys = tuple(sorted({c.key for c in changed}))
        metadata = tuple(self.policy.sweep.recipe_file_metadata.fields)
        base, head = self._sparse(path, "base", subset), self._sparse(path, "head", subset)
        return set(_narrowed_once(base, head, keys, metadata))

    def _reads_as_base(self, change: EntryChange) -> bool:
        """A changed single-node entry every configuration of which the sweep already ran: each
        head point gets the environment a base point got, from the same candidate scripts,
        none of which the PR changes nor anything they source (base names), on the same image
        and model; and the PR changes nothing that runs or feeds them (the launchers, the
        benchmark library: profile `sweep_env.environment.exported_by`, less the workflows,
        whose new exports a strict reading leaves unknown at base and head alike). Its readings
        are the base's, so no check reads it again (the work stays proportional to the PR)."""
        base, head = change.base, change.head
        if base is None or head is None or base.multinode or head.multinode:
            return False
        if _identity(base) != _identity(head) or self._reading_inputs_changed:
            return False
        jobs = tuple(self.policy.sweep_env.jobs)
        (before, late), (after, far) = self.points(base, jobs), self.points(head, jobs)
        if late or far:
            return False
        ran = {(point_scripts(base, p), p.env, p.job, p.scenario, p.spec) for p in before}
        changed = {basename(path) for path in self.changed_paths}
        for point in after:
            scripts = point_scripts(head, point)
            if (scripts, point.env, point.job, point.scenario, point.spec) not in ran:
                return False
            if not scripts or not self._unchanged_scripts(scripts, changed):
                return False
        return True

    def _unchanged_scripts(self, scripts: tuple[str, ...], changed: set[str]) -> bool:
        """The candidates up to the first that exists (the one the launcher runs) are unchanged
        and it sources no file named like one the PR changes."""
        for path in scripts:
            if path in self.changed_paths:
                return False
            read = self.evidence.file(path, "head")
            if read is None or read.state == "unavailable":
                return False
            if read.state == "ok" and read.text is not None:
                sourced = _sourced_names(read.text)
                # a name known only at run time may be any file the PR changes
                return not sourced & changed and not any("$" in n or "`" in n for n in sourced)
        return True  # no candidate exists at the head (nor, unchanged, at the base)

    @cached_property
    def _reading_inputs_changed(self) -> bool:
        if self.evidence.files_truncated:
            return True
        environment = self.policy.sweep_env.environment
        feeds = environment.exported_by if environment is not None else ("runners/**",)
        globs = [g for g in feeds if not g.startswith(".github/")]
        return any(path_matches(path, glob) for path in self.changed_paths for glob in globs)

    @cached_property
    def master_problems(self) -> tuple[str, ...]:
        """Why changed master configs cannot be compared (unread files, parse problems)."""
        return self._master_diff[1]

    @cached_property
    def entry_changes(self) -> tuple[EntryChange, ...]:
        """Master-config entries added or changed by the PR (removed ones are not benchmarked,
        and neither are changes that run nothing new: judge/narrowing.py)."""
        return self._master_diff[0]

    @cached_property
    def changed_entries(self) -> tuple[MasterEntry, ...]:
        return tuple(change.head for change in self.entry_changes if change.head is not None)

    def head_entries_mentioning(self, needles: set[str]) -> tuple[MasterEntry, ...]:
        """Head entries of the changed master configs whose text mentions any needle
        (a cheap pre-filter for engine-first lookups; unsplittable files are parsed whole)."""
        entries: list[MasterEntry] = []
        for path in self.changed_master_files:
            text = self.master_text(path, "head")
            if text is None:
                continue
            blocks = split_blocks(text)
            keys = None
            if blocks is not None:
                lines = text.split("\n")
                keys = frozenset(
                    key
                    for key, (a, b) in blocks.items()
                    if any(n in line for line in lines[a:b] for n in needles)
                )
            config = self.master_config(path, "head", keys)
            if config is not None:
                entries.extend(config.entries.values())
        return tuple(entries)

    def entry_at(self, entry: MasterEntry, role: str) -> tuple[bool, MasterEntry | None]:
        """(readable, the same key's entry) in the entry's master config at another role."""
        config = self.master_config(entry.file, role, frozenset({entry.key}))
        if config is None:
            return False, None
        return True, config.entries.get(entry.key)

    # --- scope -------------------------------------------------------------------------------
    @cached_property
    def sweep_scopes(self) -> tuple[str, ...]:
        """Which check-run scopes the head's recipe needs (single/multi-node x fixed/agentic)."""
        scopes: set[str] = set()
        for entry in self.changed_entries:
            node = "multi-node" if entry.multinode else "single-node"
            if entry.is_agentic:
                scopes.add(f"{node}-agentic")
            if not entry.is_agentic or "fixed-seq-len" in entry.scenarios:
                scopes.add(f"{node}-fixed")
        for changed in self.changed_scripts:
            scopes.update(self._script_scopes(changed.path))
        known = {scope for scope in scopes if scope in self.policy.sweep.scopes}
        return tuple(sorted(known)) or (self.policy.sweep.default_scope,)

    def _script_scopes(self, path: str) -> set[str]:
        paths = self.policy.paths
        agentic = "/agentic/" in path or "agentic" in path.rsplit("/", 1)[-1]
        if path_matches(path, paths.multi_node_scripts):
            return {"multi-node-agentic" if agentic else "multi-node-fixed"}
        if path_matches(path, paths.single_node_scripts):
            return {"single-node-agentic" if agentic else "single-node-fixed"}
        return set()

    # --- scripts -----------------------------------------------------------------------------
    def parsed_script(self, path: str) -> ParsedScript | None:
        """The head script at `path`, parsed once for all checks (None when it was not read)."""
        if path not in self._parsed:
            read = self.evidence.file(path, "head")
            text = read.text if read is not None and read.state == "ok" else None
            self._parsed[path] = read_script(text, path) if text is not None else None
        return self._parsed[path]

    @cached_property
    def _parsed(self) -> dict[str, ParsedScript | None]:
        return {}

    def script_facts(self, path: str) -> ScriptFacts | None:
        """Every launch the head script at `path` may run, nothing bound (Check 3's reading)."""
        if path not in self._facts:
            parsed = self.parsed_script(path)
            if parsed is None:
                self._facts[path] = None
            else:
                clients = self.policy.spec_decode.client_commands
                libraries = self.policy.spec_decode.library_scripts
                budget = max(min(DEFAULT_BUDGET, self._steps_left), 0)  # the verdict's bound
                key = ("facts", *self.reading_inputs(parsed, None, "", frozenset()), budget)
                facts, run, steps = self.shared(
                    _FACTS, key, lambda: read_unbound(
                        parsed, clients, self.sources_for(path), self.is_library(path),
                        libraries, budget=budget,
                    ),
                )  # fmt: skip
                self._steps_left -= steps
                self._facts[path] = facts
                self._unbound[path] = (run, steps)  # the same reading as a run, for later
        return self._facts[path]

    @cached_property
    def _unbound(self) -> dict[str, tuple[ScriptRun, int]]:
        return {}

    @cached_property
    def _facts(self) -> dict[str, ScriptFacts | None]:
        return {}

    # --- files a script sources -------------------------------------------------------------
    @cached_property
    def changed_readable(self) -> frozenset[str]:
        """Paths the PR adds or changes (what `source` reads of them is the head's text)."""
        return frozenset(f.path for f in self.evidence.changed_files if f.status != "removed")

    def sources_for(self, path: str) -> Sources:
        """What `source` in the script at `path` may read of the files the PR changed (one
        per script, so its path indexes are built once)."""
        if path not in self._sources:
            self._sources[path] = Sources(
                script=path, changed=self.changed_readable, read=self._head_read,
                text=self._head_text,
            )  # fmt: skip
        return self._sources[path]

    @cached_property
    def _sources(self) -> dict[str, Sources]:
        return {}

    def changed_text(self, path: str) -> tuple[str | None, str]:
        """A changed file's head text as data (a launch's `--config`), or why it is not read."""
        read = self.evidence.file(path, "head")
        text = read.text if read is not None and read.state == "ok" else None
        why = read_problem(path, text, self.unread(read))
        return (text, "") if not why else (None, why)

    @cached_property
    def library_changed(self) -> bool:
        """The PR changes a shared library: every reading that sources it runs its functions
        (a real one costs ~6,000 steps with nothing bound), so each gets LIBRARY_BUDGET."""
        return any(self.is_library(path) for path in self.changed_readable)

    def is_library(self, path: str) -> bool:
        """A shared library other scripts source (any of its functions may be called)."""
        return any(path_matches(path, glob) for glob in self.policy.patches.shared_libraries)

    def sourced_text(self, path: str) -> SourcedText:
        """A changed file as `source` reads it: its head text parsed, or why it cannot be."""
        if path not in self._sourced:
            read = self.evidence.file(path, "head")
            text = read.text if read is not None and read.state == "ok" else None
            why = read_problem(path, text, self.unread(read))
            parsed = self.parsed_script(path) if not why else None
            if parsed is not None and parsed.tree is None:
                why = parsed.problems[0] if parsed.problems else "could not be parsed"
            tree = parsed.tree if parsed is not None else None
            problems = tuple(tree.problems) if tree is not None else ()
            self._sourced[path] = SourcedText(path, tree, why, tuple(sorted(set(problems))))
        return self._sourced[path]

    @cached_property
    def _sourced(self) -> dict[str, SourcedText]:
        return {}

    def base_sources_for(self, path: str) -> Sources:
        """What `source` in the base script at `path` read of the files the PR changed: each
        one it modifies or renames at its base text (by its base path); one it adds was not
        there and one it removes is read at neither side, so both keep their baseline reading.
        The base reading of a script that sources a changed library is then the base's own."""
        if path not in self._base_sources:
            self._base_sources[path] = Sources(
                script=path, changed=self._base_changed, read=self._base_read,
                text=self._base_text,
            )  # fmt: skip
        return self._base_sources[path]

    @cached_property
    def _base_changed(self) -> frozenset[str]:
        """The base paths of the files the PR modifies or renames."""
        return frozenset(
            f.previous_path or f.path
            for f in self.evidence.changed_files
            if f.status not in ("added", "removed")
        )

    @cached_property
    def _base_sources(self) -> dict[str, Sources]:
        return {}

    def base_sourced_text(self, path: str) -> SourcedText:
        """A changed file's base text as `source` read it at the base (`path`: its base path),
        or why it cannot be read: a base not gathered is not the base's reading."""
        if path not in self._base_sourced:
            text, why = self._base_changed_text(path)
            parsed = self.base_parsed_script(path) if text is not None else None
            if parsed is not None and parsed.tree is None:
                why = parsed.problems[0] if parsed.problems else "could not be parsed"
            tree = parsed.tree if parsed is not None else None
            problems = tuple(tree.problems) if tree is not None else ()
            self._base_sourced[path] = SourcedText(path, tree, why, tuple(sorted(set(problems))))
        return self._base_sourced[path]

    @cached_property
    def _base_sourced(self) -> dict[str, SourcedText]:
        return {}

    def base_parsed_script(self, path: str) -> ParsedScript | None:
        """The base text at `path` of a file the PR changed, parsed once (None: not read)."""
        if path not in self._base_parsed:
            text, _ = self._base_changed_text(path)
            self._base_parsed[path] = read_script(text, path) if text is not None else None
        return self._base_parsed[path]

    @cached_property
    def _base_parsed(self) -> dict[str, ParsedScript | None]:
        return {}

    def _base_changed_text(self, path: str) -> tuple[str | None, str]:
        read = self.evidence.file(path, "base")
        text = read.text if read is not None and read.state == "ok" else None
        why = read_problem(path, text, self.unread(read))
        return (text, "") if not why else (None, why)

    # --- override hooks read as unset (Check 3's reading) -----------------------------------
    @cached_property
    def hooks_withheld(self) -> str:
        """Why override hooks are not read as unset for this PR although the profile lists
        what the benchmark job exports ("" when they are): the PR may change what it exports."""
        environment = self.policy.sweep_env.environment
        if environment is None:
            return ""  # the profile does not say: nothing is ever read as unset (unset_hooks)
        if self.evidence.files_truncated:
            return "the PR's file list is truncated (it may change what the job exports)"
        for path in self.changed_paths:
            if any(path_matches(path, glob) for glob in environment.exported_by):
                return f"the PR changes {code(path)}, which may export them"
        return ""

    @cached_property
    def _held_names(self) -> tuple[frozenset[str], tuple[str, ...]]:
        """Names (and name prefixes) the benchmark job's environment may hold."""
        sweep = self.policy.sweep_env
        environment = sweep.environment
        assert environment is not None  # only asked for when the profile lists it
        names = sweep.variables() | set(environment.exported) | set(environment.platform_names)
        return frozenset(names), environment.platform_prefixes

    def unset_hooks(self, parsed: ParsedScript) -> frozenset[str]:
        """The script's override hooks that nothing exports: names it reads through a fallback
        form that neither the sweep, the job's exports, nor the platform may set. The reader
        still drops any it finds read plainly (benchmark.script.evaluate_counted)."""
        if self.policy.sweep_env.environment is None or self.hooks_withheld:
            return frozenset()
        names, prefixes = self._held_names
        return frozenset(
            name
            for name in parsed.fallback_names
            if name not in names and not name.startswith(prefixes)
        )

    # --- per-configuration runs --------------------------------------------------------------
    def points(
        self, entry: MasterEntry, jobs: tuple[str, ...]
    ) -> tuple[tuple[ConfigPoint, ...], str]:
        """`config_points` under the profile's sweep, once per entry version and jobs (a mass
        edit asks again for the same entries from every script they may run)."""
        key = (entry.file, entry.key, entry.fingerprint, entry.multinode, jobs, self._sweep_env)
        found = _POINTS.get(key, lambda path: None)
        if found is None:
            found = config_points(entry, self.policy.sweep_env, jobs)
            _POINTS.put(key, (), found)
        return found

    @cached_property
    def _sweep_env(self) -> str:
        """The profile's sweep environment as a key (the points are shared by process)."""
        return self.policy.sweep_env.model_dump_json()

    def script_runs(
        self,
        entry: MasterEntry,
        *,
        jobs: tuple[str, ...] = ("benchmark",),
        spec: tuple[str, ...] | None = None,
        scenario: str | None = None,
        hooks_unset: bool = False,
    ) -> tuple[ScriptRun, ...]:
        """What the entry's script runs for each configuration point it sweeps (only points
        whose spec-decoding is in `spec` and of `scenario`, when given), points that read the
        same grouped; a point whose script cannot be read is an incomplete run. `hooks_unset`:
        the script's override hooks nothing exports are read as unset (only for the checks that
        compare values, Check 3 and the golden AL's draft length: a wrong "unset" would let an
        author hide code paths from what Checks 7 and 8 look for)."""
        key = (entry.file, entry.key, entry.fingerprint, jobs, spec, scenario, hooks_unset)
        if key not in self._entry_runs:
            self._entry_runs[key] = self._runs_of(entry, jobs, spec, scenario, hooks_unset)
        return self._entry_runs[key]

    @cached_property
    def _entry_runs(self) -> dict[tuple[object, ...], tuple[ScriptRun, ...]]:
        return {}

    def script_runs_for_path(
        self, path: str, *, hooks_unset: bool = False, jobs: tuple[str, ...] | None = None
    ) -> tuple[ScriptRun, ...]:
        """A changed script as the sweep runs it: per swept configuration of every head entry
        whose job runs it (judge/script_entries.py; `jobs`: those jobs, default all), or, when
        which entries run it is unknown or none does, read with nothing bound: every condition
        on the sweep's variables stays undecided (`hooks_unset` as for `script_runs`). A
        reading with nothing bound that decides no condition stands for every configuration
        (Checks 7 to 11 read no value the configuration gives; Check 3 compares values, so
        its reading, `hooks_unset`, is always per configuration)."""
        parsed = self.parsed_script(path)
        if parsed is None:
            return (_unread(path),)
        unset = self.unset_hooks(parsed) if hooks_unset else frozenset()
        unbound = self._evaluate(parsed, None, "", unset)
        if not hooks_unset and unbound.complete and not unbound.notes:
            return (unbound,)  # nothing to decide: every configuration reads the same way
        entries = script_entries.entries_running(self, path)
        if entries and self._grant_entry_readings(path, entries):
            chosen = jobs or tuple(self.policy.sweep_env.jobs) or ("benchmark",)
            runs = tuple(
                run
                for entry in entries
                for run in self.script_runs(entry, jobs=chosen, hooks_unset=hooks_unset)
                if run.path == path or not run.complete
            )
            if hooks_unset or not any(_stopped(run) for run in runs):
                return runs
            # the readings per configuration ran out of work: the reading with nothing bound
            # (every condition undecided) stands for all of them, as when no entry is known
        return (unbound,)

    def _grant_entry_readings(self, path: str, entries: tuple[MasterEntry, ...]) -> bool:
        """Whether `path` is read under the configurations of `entries` (charged once per
        script, by the entries' concurrency curves: what the readings cost)."""
        if path in self._granted:
            return self._granted[path]
        sweep = self.policy.sweep_env
        jobs = tuple(sweep.jobs) or ("benchmark",)
        count = len(
            {
                (entry.key, tuple(kv for kv in point.env if kv[0] != sweep.concurrency), point.job)
                for entry in entries
                for point in self.points(entry, jobs)[0]
            }
        )
        granted = count <= self._entry_readings_left
        self._entry_readings_left -= count if granted else 0
        self._granted[path] = granted
        return granted

    @cached_property
    def _granted(self) -> dict[str, bool]:
        return {}

    def script_run_with(
        self, path: str, env: dict[str, str], *, partial: bool = False
    ) -> ScriptRun | None:
        """The head script at `path` read as the benchmark job runs it with `env` bound, for a
        script a chain of others runs by file (None when it was not read). `partial`: `bash -c`
        of text known only in part is read for its known pieces too (the reading stays
        incomplete; only a caller holding the whole file as baseline may use those records)."""
        parsed = self.parsed_script(path)
        if parsed is None:
            return None
        bound = {name: value for name, value in env.items() if name in parsed.reads(env)}
        return self._evaluate(parsed, bound, "benchmark", frozenset(), partial=partial)

    def speculates(self, run: ScriptRun) -> bool:
        """Some launch in the reading may pass one of the profile's spec-decode flags."""
        found = _SPECULATES.get(run.launches)  # the same launches in every round's copies
        if found is not None and found[0] is self.policy:
            return found[1]
        flags = self.policy.spec_decode.script_flags
        speculates = any(
            may_be_flag(arg.flag, flag, launch.engine, self.policy)
            for launch in run.launches
            for arg in launch.args
            for flag in flags
        )
        _SPECULATES.put(run.launches, (self.policy, speculates))
        return speculates

    def script_runs_for_job(self, path: str, job: str, scenario: str) -> tuple[ScriptRun, ...]:
        """A changed script read as one sweep job runs it under any configuration: what the
        sweep exports for every point of the job and scenario is bound (the benchmark job's
        `EVAL_ONLY=false`), the search space is not (conditions on it stay undecided)."""
        parsed = self.parsed_script(path)
        if parsed is None:
            return (_unread(path),)
        sweep = self.policy.sweep_env
        env = {**sweep.constants, **sweep.scenarios.get(scenario, {}), **sweep.jobs.get(job, {})}
        read = parsed.reads(env)
        bound = {n: v for n, v in env.items() if n in read}
        return (self._evaluate(parsed, bound, job, frozenset()),)

    def _runs_of(
        self,
        entry: MasterEntry,
        jobs: tuple[str, ...],
        spec: tuple[str, ...] | None,
        scenario: str | None,
        hooks_unset: bool,
    ) -> tuple[ScriptRun, ...]:
        if entry.multinode:
            return ()
        sweep = self.policy.sweep_env
        points, bound = self.points(entry, jobs)
        points = tuple(
            point
            for point in points
            if (spec is None or point.spec in spec)
            and (scenario is None or point.scenario == scenario)
        )
        items: list[tuple[ConfigPoint, ScriptRun]] = []
        environments: set[tuple[str, tuple[tuple[str, str], ...]]] = set()
        for point in points:
            run = self._run_for_point(entry, point, environments, hooks_unset)
            items.append((point, run))
        runs = group_runs(items, sweep)
        if bound:
            path = runs[0].path if runs else entry.file
            runs += (ScriptRun(path=path, problems=(f"{entry.file}: {bound}",), complete=False),)
        return runs

    def _run_for_point(
        self,
        entry: MasterEntry,
        point: ConfigPoint,
        environments: set[tuple[str, tuple[tuple[str, str], ...]]],
        hooks_unset: bool,
    ) -> ScriptRun:
        candidates = point_scripts(entry, point)
        path = next((c for c in candidates if self.parsed_script(c) is not None), None)
        if path is None and self._runs_no_script(candidates):
            note = (
                f"the benchmark script of {entry.key} is missing at the pinned head "
                f"({', '.join(candidates)}): its jobs run no script, and cannot be swept green"
            )
            return ScriptRun(path=candidates[0], notes=(note,), job=point.job)
        if path is None:
            tried = ", ".join(candidates) or "no candidate script"
            why = (
                f"the benchmark script of {entry.key} could not be read at the pinned head "
                f"({tried})"
            )
            return ScriptRun(path=candidates[0] if candidates else entry.file,
                             problems=(why,), complete=False, job=point.job)  # fmt: skip
        parsed = self.parsed_script(path)
        assert parsed is not None
        env = dict(point.env)
        read = parsed.reads(env)
        bound = {name: value for name, value in env.items() if name in read}
        environments.add((path, tuple(sorted(bound.items()))))
        limit = self.policy.sweep_env.max_evaluations
        if len(environments) > limit:
            why = f"{entry.file}: {entry.key} gives more than {limit} distinct environments (bound)"
            return ScriptRun(path=path, problems=(why,), complete=False, job=point.job)
        unset = self.unset_hooks(parsed) if hooks_unset else frozenset()
        return self._evaluate_point(parsed, bound, point.job, unset)

    def _runs_no_script(self, candidates: tuple[str, ...]) -> bool:
        """Every script the launcher may run for a point is absent at the head (a definite
        404, not an unread file), and the PR changes no launcher that could pick another."""
        if not candidates or self.evidence.files_truncated:
            return False
        launchers = self.policy.patches.launcher_paths
        if any(path_matches(f.path, g) for f in self.evidence.changed_files for g in launchers):
            return False
        reads = [self.evidence.file(path, "head") for path in candidates]
        return all(read is not None and read.state == "missing" for read in reads)

    def _evaluate_point(
        self, parsed: ParsedScript, bound: dict[str, str], job: str, unset: frozenset[str]
    ) -> ScriptRun:
        """One configuration's reading. Points of one curve differ only in their concurrency,
        which scripts nearly always just pass on: the script is read once with it unknown, and
        that reading stands for every point of the curve when it decides nothing the known
        value decided (the same undecided conditions, problems and completeness as the first
        point's own reading). An unknown value only keeps both arms and leaves the value
        unknown, which every check counts against, so the shared reading is never the laxer
        one; otherwise each point is read with its own value."""
        name = self.policy.sweep_env.concurrency
        if name not in bound:
            return self._evaluate(parsed, bound, job, unset)
        free = {k: v for k, v in bound.items() if k != name}
        key = (parsed.path, tuple(sorted(free.items())), job, tuple(sorted(unset)))
        if key not in self._conc_free:
            passes, clamped = self._passes_on_only(parsed, name)
            if passes:  # nothing to decide: no reading of a point
                symbolic = self._evaluate(parsed, free, job, unset)
                # it read only the text judged, and the reader did not fork on a clamp
                forked = clamped is not None and any(clamped.search(n) for n in symbolic.notes)
                if symbolic.complete and not symbolic.sourced and not forked:
                    self._conc_free[key] = symbolic
                    return symbolic
            concrete = self._evaluate(parsed, bound, job, unset)
            symbolic = self._evaluate(parsed, free, job, unset)
            decided = (concrete.notes, concrete.problems, concrete.complete)
            same = decided == (symbolic.notes, symbolic.problems, symbolic.complete)
            self._conc_free[key] = symbolic if same else None
            return symbolic if same else concrete
        shared = self._conc_free[key]
        return shared if shared is not None else self._evaluate(parsed, bound, job, unset)

    def _passes_on_only(
        self, parsed: ParsedScript, name: str
    ) -> tuple[bool, re.Pattern[str] | None]:
        """The script's text uses the concurrency as data only (parse/shell/data_only), and the
        variables its clamps test, as whole words (None: it has none)."""
        if parsed.path not in self._data_only:
            tree = parsed.tree
            passes, clamped = data_only(tree, name) if tree is not None else (False, frozenset())
            self._data_only[parsed.path] = (passes, mentions(clamped) if clamped else None)
        return self._data_only[parsed.path]

    @cached_property
    def _data_only(self) -> dict[str, tuple[bool, re.Pattern[str] | None]]:
        return {}

    def reading_environment(self, run: ScriptRun) -> dict[str, str] | None:
        """What the head reading `run` was evaluated with (None: nothing bound): a point's
        environment less what the script's own text does not read (a name only a sourced
        library reads stays unknown), less the concurrency when its curve shared one reading
        (`_evaluate_point`). A base reading binds the same, or its gaps read otherwise."""
        if not run.environment and not run.job:
            return None
        env = dict(run.environment)
        parsed = self.parsed_script(run.path)
        if parsed is None:
            return env
        bound = {name: value for name, value in env.items() if name in parsed.reads(env)}
        name = self.policy.sweep_env.concurrency
        free = {k: v for k, v in bound.items() if k != name}
        # the curve's key names the hooks it read as unset; the run, those it relied on
        hooks = {tuple(sorted(run.unset)), tuple(sorted(self.unset_hooks(parsed)))}
        curve = (run.path, tuple(sorted(free.items())), run.job)
        keys = [(*curve, unset) for unset in (sorted(hooks) if run.unset else [()])]
        shared = any(self._conc_free.get(key) is not None for key in keys)
        return free if name in bound and shared else bound

    @cached_property
    def _conc_free(self) -> dict[tuple[object, ...], ScriptRun | None]:
        """Per curve (the environment less the concurrency): the reading all its points share,
        or None when the concurrency decides something and each point is read on its own."""
        return {}

    def _evaluate(
        self,
        parsed: ParsedScript,
        env: dict[str, str] | None,
        job: str,
        unset: frozenset[str],
        *,
        partial: bool = False,
    ) -> ScriptRun:
        """One reading, memoised: a script without override hooks reads the same either way,
        so Check 3 then shares the strict reading with Checks 7 and 8."""
        environment = tuple(sorted(env.items())) if env is not None else None
        key = (parsed.path, environment, job, tuple(sorted(unset)), partial)
        if key not in self._evaluations:
            self._evaluations[key] = self._evaluate_once(parsed, env, job, unset, partial)
        return self._evaluations[key]

    def _evaluate_once(
        self,
        parsed: ParsedScript,
        env: dict[str, str] | None,
        job: str,
        unset: frozenset[str],
        partial: bool = False,
    ) -> ScriptRun:
        if parsed.path in self._over_budget:  # one configuration used the whole work bound
            return self._over_budget[parsed.path].model_copy(update={"job": job})
        if self._steps_left <= 0:
            why = (
                f"{parsed.path}: not read, the work bound for reading scripts in one verdict "
                f"({SCRIPT_STEPS_PER_JUDGE} steps) is used up"
            )
            return ScriptRun(path=parsed.path, problems=(why,), complete=False, job=job)
        per_reading = LIBRARY_BUDGET if self.library_changed else DEFAULT_BUDGET
        budget = min(per_reading, self._steps_left)
        unbound = env is None and not job and not unset
        if unbound and not partial:  # one evaluation gives this run and Check 3's facts
            self.script_facts(parsed.path)
        done = self._unbound.get(parsed.path) if unbound else None
        if done is not None and not _stopped(done[0]):  # `script_facts` read it (and counted it)
            return done[0]  # a reading that ended within its bound is the same under any bound
        clients = self.policy.spec_decode.client_commands
        key = ("run", *self.reading_inputs(parsed, env, job, unset), partial, budget)
        run, steps = self.shared(
            _READINGS, key, lambda: evaluate_counted(
                parsed, env, clients, budget=budget, job=job, unset=unset,
                files=self.sources_for(parsed.path), library=self.is_library(parsed.path),
                libraries=self.policy.spec_decode.library_scripts, partial=partial,
            ),
        )  # fmt: skip
        self._steps_left -= steps
        if any("work bound" in problem for problem in run.problems):
            self._over_budget[parsed.path] = run
        return run

    def reading_inputs(
        self,
        parsed: ParsedScript,
        env: dict[str, str] | None,
        job: str,
        unset: frozenset[str],
        *,
        base: bool = False,
    ) -> tuple[object, ...]:
        """What a reading of `parsed` depends on besides its budget and the changed files it
        looks up (`shared`): the script, the environment, job and hooks, the profile's client
        and library names, and which files the PR changed (at the head, or at the base)."""
        spec = self.policy.spec_decode
        environment = tuple(sorted(env.items())) if env is not None else None
        changed = self._base_changed if base else self.changed_readable
        return (
            parsed.path, parsed.text, environment, job, tuple(sorted(unset)),
            tuple(spec.client_commands), tuple(spec.library_scripts),
            self.is_library(parsed.path), base, changed,
        )  # fmt: skip

    def shared(
        self,
        cache: SharedReadings[_T],
        key: tuple[object, ...],
        read: Callable[[], _T],
        *,
        base: bool = False,
    ) -> _T:
        """The reading `read` gives for `key`, shared with every context whose changed files
        that reading looked up (at the head, or at the `base`) are found the same
        (judge/shared_readings.py)."""
        found_now = self._base_changed_text if base else self.changed_text
        found = cache.get(key, found_now)
        if found is not None:
            return found
        outer, self._looked_up = self._looked_up, []
        try:
            value = read()
            looked = tuple(dict.fromkeys(self._looked_up))
        finally:
            self._looked_up = outer
        if outer is not None:  # a reading made inside another: what it looked up counts there
            outer.extend(looked)
        cache.put(key, tuple((path, found_now(path)) for path in looked), value)
        return value

    def _look_up(self, path: str) -> None:
        if self._looked_up is not None:
            self._looked_up.append(path)

    def _head_read(self, path: str) -> SourcedText:
        self._look_up(path)
        return self.sourced_text(path)

    def _head_text(self, path: str) -> tuple[str | None, str]:
        self._look_up(path)
        return self.changed_text(path)

    def _base_read(self, path: str) -> SourcedText:
        self._look_up(path)
        return self.base_sourced_text(path)

    def _base_text(self, path: str) -> tuple[str | None, str]:
        self._look_up(path)
        return self._base_changed_text(path)

    def take_steps(self, most: int = DEFAULT_BUDGET) -> int:
        """Evaluation steps for one base reading (judge/baseline), at most `most` (a shared
        library read alone gets LIBRARY_BUDGET, as its head reading does), from the verdict's
        bound and at most a quarter of it for all base readings together; `return_steps` gives
        back what it did not use."""
        budget = max(min(most, self._steps_left, self._base_steps_left), 0)
        self._steps_left -= budget
        self._base_steps_left -= budget
        return budget

    def return_steps(self, steps: int) -> None:
        self._steps_left += max(steps, 0)
        self._base_steps_left += max(steps, 0)

    @cached_property
    def _evaluations(
        self,
    ) -> dict[
        tuple[str, tuple[tuple[str, str], ...] | None, str, tuple[str, ...], bool], ScriptRun
    ]:
        return {}

    @cached_property
    def _over_budget(self) -> dict[str, ScriptRun]:
        return {}

    def script_for(self, entry: MasterEntry) -> FileRead | None:
        """The first existing candidate script of a single-node entry, read at the head."""
        for candidate in script_candidates(entry):
            read = self.evidence.file(candidate, "head")
            if read is not None and read.state == "ok":
                return read
        return None


def _identity(entry: MasterEntry) -> tuple[str, ...]:
    """What a reading's checks say about an entry besides its script's reading."""
    return (entry.image, entry.model, entry.model_prefix, entry.precision, entry.engine,
            entry.runner)  # fmt: skip


def basename(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def _stopped(run: ScriptRun) -> bool:
    """The reading stopped at the work bound (not a gap of the script's own)."""
    return any("work bound" in problem for problem in run.problems)


def _unread(path: str) -> ScriptRun:
    return ScriptRun(
        path=path, problems=(f"{path} could not be read at the pinned head",), complete=False
    )
