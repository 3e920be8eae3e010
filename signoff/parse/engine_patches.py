"""Find where a benchmark file patches the serving stack: patch tools, edits of installed engine
sources, sitecustomize hooks, engine wheels, container setup scripts, pinned external recipes.

Text is read, never run. A script is read command by command: the source lines each command
spans (quotes and continuations followed by the shell scanner, redirects kept), with simple
`$VAR`/`${VAR}` references replaced by the values the script reader found, so
`sed -i '...' "$SGLANG_FILE"` is read with the engine path it edits. Heredoc bodies (inline
Python) count when they both name an engine location and write a file. Recipe and launcher files
are read line by line. The rules (regexes, engine locations, harness exemptions) are profile data.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from posixpath import dirname, join, normpath

from pydantic import BaseModel, ConfigDict

from signoff.parse.script_text import MAX_LINE, command_spans, expand
from signoff.policy import PatchPattern, PatchPolicy

_HELPER = re.compile(
    r"""(?:^|[\s;&|(])(?:bash|sh|source|\.)\s+["']?\$\(\s*dirname\s+["']?\$(?:0|\{0\}|BASH_SOURCE(?:\[0\])?|\{BASH_SOURCE\[0\]\})["']?\s*\)/([A-Za-z0-9_./-]+\.sh)"""
)
_HEREDOC_WRITE = re.compile(
    r"""open\([^)]*['"][wa]\+?b?['"]|\.write_text\(|\.write_bytes\(|shutil\.copy"""
)


class PatchHit(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    path: str
    line: int
    rule: str
    what: str
    text: str  # the offending line, shortened

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


@lru_cache(maxsize=64)
def _compiled(regex: str) -> re.Pattern[str]:
    return re.compile(regex, re.IGNORECASE)


def _engine_located(line: str, policy: PatchPolicy) -> bool:
    return any(_compiled(rx).search(line) for rx in policy.engine_paths)


def _harness(line: str, policy: PatchPolicy) -> bool:
    lowered = line.lower()
    return any(cue in lowered for cue in policy.harness_cues)


def _match(line: str, patterns: Sequence[PatchPattern], policy: PatchPolicy) -> PatchPattern | None:
    for pattern in patterns:
        if not _compiled(pattern.regex).search(line):
            continue
        if pattern.engine_path and not _engine_located(line, policy):
            continue
        return pattern
    return None


def find_patches(
    text: str,
    path: str,
    policy: PatchPolicy,
    variables: Mapping[str, str] | None = None,
    *,
    only_lines: Iterable[int] | None = None,
) -> tuple[PatchHit, ...]:
    """Every patching command in `text` (restricted to `only_lines` when given); never raises."""
    wanted = set(only_lines) if only_lines is not None else None
    hits: list[PatchHit] = []
    for number, last, line in command_spans(text):
        if wanted is not None and wanted.isdisjoint(range(number, last + 1)):
            continue
        read = expand(line, variables or {})
        pattern = _match(read, policy.patterns, policy)
        if pattern is None or _harness(read, policy):
            continue
        hits.append(_hit(path, number, pattern, line))
    hits.extend(_heredoc_hits(text, path, policy, wanted))
    return tuple(sorted(hits, key=lambda hit: (hit.line, hit.rule)))


def find_in_lines(
    lines: Iterable[tuple[int, str]], path: str, policy: PatchPolicy
) -> tuple[PatchHit, ...]:
    """Patching and pinned external code on single lines (the lines a PR adds to a launcher or
    a recipe file): the patch patterns, then the external-pin patterns."""
    hits = []
    for number, line in lines:
        code = line.strip()[:MAX_LINE]
        if not code or code.startswith("#") or _harness(code, policy):
            continue
        pattern = _match(code, policy.patterns, policy) or _match(
            code, policy.external_pins, policy
        )
        if pattern is not None:
            hits.append(_hit(path, number, pattern, code))
    return tuple(hits)


def _hit(path: str, number: int, pattern: PatchPattern, line: str) -> PatchHit:
    shown = line if len(line) <= 100 else line[:97] + "..."
    return PatchHit(path=path, line=number, rule=pattern.id, what=pattern.what, text=shown)


def _heredoc_hits(
    text: str, path: str, policy: PatchPolicy, wanted: set[int] | None
) -> list[PatchHit]:
    """Inline programs (`python3 - <<EOF ... EOF`) that write into an engine location."""
    hits = []
    lines = text.splitlines()
    start: int | None = None
    delimiter = ""
    for number, raw in enumerate(lines, start=1):
        if start is None:
            match = re.search(r"<<-?\s*['\"]?([A-Za-z_][A-Za-z0-9_]*)['\"]?", raw)
            if match and not raw.lstrip().startswith("#"):
                start, delimiter = number, match[1]
            continue
        if raw.strip() != delimiter:
            continue
        body = "\n".join(lines[start : number - 1])
        in_scope = wanted is None or any(n in wanted for n in range(start, number + 1))
        if in_scope and _HEREDOC_WRITE.search(body) and _engine_located(body, policy):
            pattern = PatchPattern(
                id="inline-program", regex=".", what="rewrites installed engine files inline"
            )
            hits.append(_hit(path, start, pattern, lines[start - 1].strip()))
        start = None
    return hits


def helper_scripts(text: str, path: str) -> tuple[str, ...]:
    """Scripts `path` runs or sources next to itself (`bash "$(dirname "$0")/x.sh"`), as
    repository paths; paths leaving the repository are dropped."""
    found: list[str] = []
    for _, _, line in command_spans(text):
        for match in _HELPER.finditer(line):
            target = normpath(join(dirname(path), match[1]))
            if not target.startswith("../") and target not in found and target != path:
                found.append(target)
    return tuple(found)
