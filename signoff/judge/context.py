"""Facts derived once from the evidence and shared by the checks (parsed texts, changed entries)."""

from __future__ import annotations

import re
from functools import cached_property, lru_cache

from signoff.evidence import ChangedFile, Evidence, FileRead
from signoff.parse.bench_script import ScriptFacts, parse_script
from signoff.parse.codeowners import CodeOwners, parse_codeowners
from signoff.parse.links import RecipeLinkRef, recipe_links
from signoff.parse.master_blocks import changed_keys, sparse_text, split_blocks
from signoff.parse.master_config import (
    EntryChange,
    MasterConfig,
    MasterEntry,
    diff_entries,
    parse_master_config,
    script_candidates,
)
from signoff.parse.matching import MatchReport, match_items
from signoff.parse.signoff_comment import ParsedSignoff, parse_signoff
from signoff.parse.template import ParsedTemplate, parse_template
from signoff.policy import Policy
from signoff.standards import Standard, Switches


@lru_cache(maxsize=256)
def _path_regex(pattern: str) -> re.Pattern[str]:
    """`**` spans directories, `*` and `?` stay inside one path segment."""
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def path_matches(path: str, pattern: str) -> bool:
    """Glob match of a repository path (see `_path_regex`)."""
    return _path_regex(pattern).match(path) is not None


class JudgeContext:
    """Lazy, memoised views of one evidence bundle under one policy; pure and network-free."""

    def __init__(self, evidence: Evidence, policy: Policy, standard: Standard) -> None:
        self.evidence = evidence
        self.policy = policy
        self.standard = standard
        self.memo: dict[str, object] = {}  # results one check computes for another (Check 1 -> 2)

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
        blocks = split_blocks(text) if keys is not None else None
        if keys is not None and blocks is not None:
            text = sparse_text(text, blocks, set(keys))
        return parse_master_config(text, path, self.policy.images.sku_pattern)

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
            changes.extend(c for c in diff_entries(base, head) if c.kind != "removed")
        return tuple(changes), tuple(problems)

    @cached_property
    def master_problems(self) -> tuple[str, ...]:
        """Why changed master configs cannot be compared (unread files, parse problems)."""
        return self._master_diff[1]

    @cached_property
    def entry_changes(self) -> tuple[EntryChange, ...]:
        """Master-config entries added or changed by the PR (removed ones are not benchmarked)."""
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
    def script_facts(self, path: str) -> ScriptFacts | None:
        """The head script at `path`, parsed once for all checks (None when it was not read)."""
        if path not in self._scripts:
            read = self.evidence.file(path, "head")
            if read is None or read.state != "ok" or read.text is None:
                self._scripts[path] = None
            else:
                clients = self.policy.spec_decode.client_commands
                self._scripts[path] = parse_script(read.text, path, clients)
        return self._scripts[path]

    @cached_property
    def _scripts(self) -> dict[str, ScriptFacts | None]:
        return {}

    def script_for(self, entry: MasterEntry) -> FileRead | None:
        """The first existing candidate script of a single-node entry, read at the head."""
        for candidate in script_candidates(entry):
            read = self.evidence.file(candidate, "head")
            if read is not None and read.state == "ok":
                return read
        return None
