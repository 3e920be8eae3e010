"""Find where a benchmark file patches the serving stack: patch tools, edits of installed engine
sources, sitecustomize hooks, engine wheels, container setup scripts, pinned external recipes.

Text is read, never run. A script is held to what runs: the script reader's evaluation says which
of its commands run (or may: `why` names the condition it could not decide), and each such
command is read as its own source text (redirects kept, continuations joined) with simple
`$VAR`/`${VAR}` references replaced by the values the reader found, and as the words it runs
with (values resolved), so `sed -i '...' "$SGLANG_FILE"` is read with the engine path it edits.
Dead code (`false && ...`, `true || ...`, a dead branch, an uncalled function, a comment) is not
read. Heredoc bodies given to commands that run (inline Python) count when they both name an
engine location and write a file. When a script cannot be evaluated, every command in its text
counts (`find_patches`). Recipe and launcher files are read line by line. A line naming harness
tooling (aiperf, lm-eval) is exempt only as far as those words go: read without them, it still
counts when it names an engine location or, for an install, still installs an engine package;
an install whose package is known only at run time in the words it ran with counts too. The
rules (regexes, engine locations, harness cues) are profile data.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from posixpath import dirname, join, normpath

from pydantic import BaseModel, ConfigDict

from signoff.parse.benchmark.harness_program import rewrites_only_harness
from signoff.parse.benchmark.launch import ScriptRun
from signoff.parse.benchmark.script_text import MAX_LINE, command_spans, command_spans_at, expand
from signoff.parse.shell.scan import URL
from signoff.policy import PatchPattern, PatchPolicy

_HELPER = re.compile(
    r"""(?:^|[\s;&|(])(bash|sh|source|\.)\s+["']?\$\(\s*dirname\s+["']?\$(?:0|\{0\}|BASH_SOURCE(?:\[0\])?|\{BASH_SOURCE\[0\]\})["']?\s*\)/([A-Za-z0-9_./-]+\.sh)"""
)
_SOURCED = re.compile(r"sources (.*), which is not read$")
_HEREDOC_WRITE = re.compile(
    # open() in any mode that writes (`r+` too), its path holding calls of its own or not; the
    # first `open(` of a line is taken whole (atomic), so a line is searched once, not per call
    r"""(?:^|\n)(?>[^\n]*?\bopen\()[^\n]*?['"][rbt]*[wax+][rwabxt+]*['"]"""
    r"""|\.write_text\(|\.write_bytes\(|shutil\.copy"""
)
_SHELLS = frozenset({"bash", "sh", "dash", "zsh", "ksh", "source", "."})
_INLINE = PatchPattern(
    id="inline-program", regex=".", what="rewrites installed engine files inline"
)


class PatchHit(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    path: str
    line: int
    rule: str
    what: str
    text: str  # the offending line, shortened
    why: str = ""  # "": it runs; else the condition the reader could not decide

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


@lru_cache(maxsize=64)
def _compiled(regex: str) -> re.Pattern[str]:
    return re.compile(regex, re.IGNORECASE)


def _engine_located(line: str, policy: PatchPolicy) -> bool:
    return any(_compiled(rx).search(line) for rx in policy.engine_paths)


def _rewrites_engine(body: str, policy: PatchPolicy) -> bool:
    """An inline program that writes a file and names an engine location, unless all it
    writes is the engine package's own benchmark client (harness tooling)."""
    return (
        _HEREDOC_WRITE.search(body) is not None
        and _engine_located(body, policy)
        and not rewrites_only_harness(body, policy.harness_modules)
    )


def _harness(line: str, policy: PatchPolicy) -> bool:
    lowered = line.lower()
    return any(cue in lowered for cue in policy.harness_cues)


_SPACE = re.compile(r"(\s+)")
_NAME_END = re.compile(r"[@#?]")  # a URL's ref, fragment or query: not the name it gives
_DOT_SEGMENT = re.compile(r"/\.\.?(?:/|$)|%2e", re.I)  # a path that may leave its prefix


def _names_harness(word: str, policy: PatchPolicy) -> bool:
    """Whether what the word names is harness tooling: its last path component (of a URL, before
    its ref, fragment or query) names a harness (`.../lm-evaluation-harness.git@ref`,
    `"$AIPERF_DIR"`), not merely a ref or a directory on the way (`.../vllm@aiperf`)."""
    text = word.strip("\"'")
    if "://" in text:
        text = _NAME_END.split(text.split("://", 1)[1], maxsplit=1)[0]
    return _harness(text.rstrip("/").rsplit("/", 1)[-1], policy)


def _without_harness_words(line: str, policy: PatchPolicy) -> str:
    """The line less each word naming harness tooling and the option word taking it as its
    value (`-e "$AIPERF_DIR"`, `--python "$AIPERF_PYTHON"`); the spacing between words kept."""
    kept: list[str] = []  # words and the spaces before them, alternately
    for token in _SPACE.split(line):
        if not token or token.isspace() or not _names_harness(token, policy):
            kept.append(token)
            continue
        while kept and (not kept[-1] or kept[-1].isspace()):
            kept.pop()
        if kept and kept[-1].startswith("-") and "=" not in kept[-1]:
            kept.pop()
    return "".join(kept)


def _allowed(
    line: str, pattern: PatchPattern, policy: PatchPolicy, *, operands: bool = False
) -> bool:
    """A hit the profile allows: harness tooling, or only indexes it trusts."""
    return _trusted_urls(line, pattern, policy) or _harness_tooling(
        line, pattern, policy, operands=operands
    )


def _trusted_urls(line: str, pattern: PatchPattern, policy: PatchPolicy) -> bool:
    """A `trusted_urls` hit whose every URL starts with a `trusted_indexes` entry. A line with
    a word known only at run time (another index may hide there), or a URL that climbs out of
    its prefix (`/../`, percent-encoded dots), is never trusted."""
    if not pattern.trusted_urls or _RUN_TIME_WORD.search(line):
        return False
    urls = URL.findall(line)
    prefixes = tuple(entry.url for entry in policy.trusted_indexes)
    return (
        bool(urls)
        and bool(prefixes)
        and all(url.startswith(prefixes) and not _DOT_SEGMENT.search(url) for url in urls)
    )


def _harness_tooling(
    line: str, pattern: PatchPattern, policy: PatchPolicy, *, operands: bool = False
) -> bool:
    """Whether a hit of `pattern` is harness tooling (client, evals): the line names a
    harness, and read without the words naming one it names no installed-engine location,
    nor (a `harness_words` pattern: what an install installs) still matches (`operands` as for
    `_match`). A harness name put beside an engine edit or an engine package exempts nothing."""
    if not _harness(line, policy):
        return False
    rest = _without_harness_words(line, policy)
    if _engine_located(rest, policy):
        return False
    again = _match(rest, (pattern,), policy, operands=operands) if pattern.harness_words else None
    return again is None


def _match(
    line: str, patterns: Sequence[PatchPattern], policy: PatchPolicy, *, operands: bool = False
) -> PatchPattern | None:
    """The first pattern the line matches; `operands`: the line is the words a command ran with
    (values resolved), so an install's operand still known only at run time counts
    (`PatchPattern.run_time_operands`). Raw text keeps every parameter unresolved, so it is
    not held to that."""
    for pattern in patterns:
        if not _compiled(pattern.regex).search(line):
            if operands and pattern.run_time_operands and _runtime_install(line, pattern):
                return pattern
            continue
        if pattern.engine_path and not _engine_located(line, policy):
            continue
        return pattern
    return None


# pip's (and uv pip's) install options that take a value: the value names no package to install
_VALUE_OPTIONS = frozenset({
    "-r", "--requirement", "-c", "--constraint", "-t", "--target", "--prefix", "--root",
    "--python", "-p", "-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--src",
    "--cache-dir", "--upgrade-strategy", "--platform", "--python-version", "--python-platform",
    "--implementation", "--abi", "--log", "--trusted-host", "--proxy", "--timeout", "--retries",
    "--progress-bar", "-C", "--config-settings", "--global-option", "--report", "--only-binary",
    "--no-binary", "--exists-action", "--root-user-action",
})  # fmt: skip
_RUN_TIME_WORD = re.compile(r"\$|`.")  # an expansion, a substitution (a lone backquote: prose)
_ARRAY_WORD = re.compile(r"\$(?:[@*]|\{[@*]\}|\{\w+\[[@*]\]\})")
_COMMAND_END = re.compile(r"\s(?:&&|\|\||\||;)(?:\s|$)|;")


def _runtime_install(line: str, pattern: PatchPattern) -> bool:
    """An install whose package operands include one known only at run time: a word starting
    with `$` or a backquote (quoted or not), or any when `xargs` runs the install. An array's
    expansion (`"${ARGS[@]}"`, `"$@"`) is left out: it is where scripts keep pip's options."""
    found = _compiled(pattern.run_time_operands).search(line)
    if found is None:
        return False
    head = line[: found.start()].split()
    if "xargs" in (word.rsplit("/", 1)[-1] for word in head):
        return True
    words = _COMMAND_END.split(line[found.end() :], maxsplit=1)[0].split()
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word in _VALUE_OPTIONS
        elif _RUN_TIME_WORD.match(word.lstrip("\"'")) and not _ARRAY_WORD.match(word.lstrip("\"'")):
            return True
    return False


def find_patches(
    text: str, path: str, policy: PatchPolicy, variables: Mapping[str, str] | None = None,
    why: str = "",
) -> tuple[PatchHit, ...]:  # fmt: skip
    """Every patching command in `text`, run or not (for a script the reader could not
    evaluate: `why` says so); never raises."""
    hits: list[PatchHit] = []
    for number, _, line in command_spans(text):
        pattern = _scan(expand(line, variables or {}), policy)
        if pattern is not None:
            hits.append(_hit(path, number, pattern, line, why))
    hits.extend(_heredoc_hits(text, path, policy, why))
    return tuple(sorted(hits, key=lambda hit: (hit.line, hit.rule)))


def find_in_run(
    text: str, path: str, run: ScriptRun, policy: PatchPolicy, variables: Mapping[str, str]
) -> tuple[PatchHit, ...]:
    """The patching commands of one evaluated reading of the script `text`: commands that run
    or may run (their source text and the words they run with) and the heredocs given to
    them; never raises."""
    ran = {record.offset: record for record in run.ran}
    hits: list[PatchHit] = []
    shells: set[int] = set()  # lines of commands that run a shell on their heredoc
    for span in command_spans_at(text):
        record = ran.get(span.offset)
        if record is None:
            continue
        if span.text.split(" ", 1)[0].rsplit("/", 1)[-1] in _SHELLS:
            shells.add(span.first)
        pattern = _scan(expand(span.text, variables), policy)
        if pattern is not None:
            hits.append(_hit(path, span.first, pattern, span.text, record.why))
    for command in run.commands:  # also code read from strings (eval, bash -c), words resolved
        words = " ".join(command.argv)[:MAX_LINE]
        # the values each run had (the source text keeps a loop's `$p`): these alone say
        # whether an install's operand is known only at run time
        pattern = _scan(words, policy, operands=True)
        if pattern is not None:
            hits.append(_hit(path, command.line, pattern, words, command.why))
    inline = tuple(pattern for pattern in policy.patterns if pattern.inline)
    for doc in run.heredocs:
        if _rewrites_engine(doc.body, policy):
            first = text.splitlines()[doc.line - 1].strip() if doc.line else doc.delimiter
            hits.append(_hit(path, doc.line, _INLINE, first, doc.why))
        for number, body_line in enumerate(doc.body.splitlines() if inline else (), start=1):
            pattern = _inline_hit(body_line[:MAX_LINE], inline, policy)
            if pattern is not None:
                hits.append(_hit(path, doc.line + number, pattern, body_line.strip(), doc.why))
        if doc.line in shells:  # `bash <<EOF ... EOF`: the body is a script that runs
            for hit in find_patches(doc.body, path, policy, variables, doc.why):
                hits.append(hit.model_copy(update={"line": doc.line + hit.line}))
    return tuple(sorted(hits, key=lambda hit: (hit.line, hit.rule, hit.why)))


def _inline_hit(
    line: str, inline: Sequence[PatchPattern], policy: PatchPolicy
) -> PatchPattern | None:
    """The `inline` pattern a line of an inline program matches (None: none, or harness)."""
    pattern = _match(line, inline, policy)
    return None if pattern is None or _allowed(line, pattern, policy) else pattern


def as_pip(line: str, installers: tuple[str, ...]) -> str:
    """The line with each call of an installer function of the shared library (profile
    `installer_functions`, which run `pip install` with their arguments) spelled `pip install`."""
    if not installers or not any(name in line for name in installers):
        return line
    return _installer_pattern(installers).sub("pip install", line)


@lru_cache(maxsize=4)
def _installer_pattern(installers: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"(?<![\w.-])(?:" + "|".join(map(re.escape, installers)) + r")(?![\w.-])")


def _scan(line: str, policy: PatchPolicy, *, operands: bool = False) -> PatchPattern | None:
    """The patch pattern a command line matches (None: none, or harness tooling); `operands`
    as for `_match`. A verdict scans the same lines in every reading of a script (hundreds on
    a mass edit): a short line is matched once per policy object (the audit judges in threads:
    dict reads and writes only, each policy its own table)."""
    entry = _SCANNED.get(id(policy))
    if entry is None or entry[0] is not policy:  # held, so its identity is not reused
        if len(_SCANNED) >= 4:
            _SCANNED.clear()
        entry = _SCANNED[id(policy)] = (policy, {})
    found = entry[1]
    key = (line, operands)
    if key in found:
        return found[key]
    line = as_pip(line, policy.installer_functions)
    pattern = _match(line, policy.patterns, policy, operands=operands)
    exempt = pattern is not None and _allowed(line, pattern, policy, operands=operands)
    result = None if exempt else pattern
    if len(line) <= MAX_LINE and len(found) < 2_500:  # at most 10 MB of lines remembered
        found[key] = result
    return result


_SCANNED: dict[int, tuple[PatchPolicy, dict[tuple[str, bool], PatchPattern | None]]] = {}


def find_in_lines(
    lines: Iterable[tuple[int, str]], path: str, policy: PatchPolicy
) -> tuple[PatchHit, ...]:
    """Patching and pinned external code on single lines (the lines a PR adds to a launcher or
    a recipe file): the patch patterns, then the external-pin patterns."""
    hits = []
    for number, line in lines:
        code = as_pip(line.strip()[:MAX_LINE], policy.installer_functions)
        if not code or code.startswith("#"):
            continue
        pattern = _match(code, policy.patterns, policy) or _match(
            code, policy.external_pins, policy
        )
        if pattern is not None and not _allowed(code, pattern, policy):
            hits.append(_hit(path, number, pattern, code))
    return tuple(hits)


def _hit(path: str, number: int, pattern: PatchPattern, line: str, why: str = "") -> PatchHit:
    shown = line if len(line) <= 100 else line[:97] + "..."
    return PatchHit(path=path, line=number, rule=pattern.id, what=pattern.what, text=shown, why=why)


def _heredoc_hits(text: str, path: str, policy: PatchPolicy, why: str) -> list[PatchHit]:
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
        if _rewrites_engine(body, policy):
            hits.append(_hit(path, start, _INLINE, lines[start - 1].strip(), why))
        start = None
    return hits


class Helper(BaseModel):
    """A script another one runs (`bash x.sh`: a process of its own) or sources (`source x.sh`:
    its functions and variables become the caller's)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: str
    sourced: bool


def helper_scripts(
    text: str, path: str, offsets: Iterable[int] | None = None
) -> tuple[Helper, ...]:
    """Scripts `path` runs or sources next to itself (`bash "$(dirname "$0")/x.sh"`), as
    repository paths, from the commands at `offsets` (every command when None); paths leaving
    the repository are dropped."""
    wanted = set(offsets) if offsets is not None else None
    found: dict[str, bool] = {}
    for span in command_spans_at(text):
        if wanted is not None and span.offset not in wanted:
            continue
        for match in _HELPER.finditer(span.text):
            target = normpath(join(dirname(path), match[2]))
            if not target.startswith("../") and target != path:
                found[target] = found.get(target, False) or match[1] in ("source", ".")
    return tuple(Helper(path=p, sourced=sourced) for p, sourced in found.items())


def sourced_file(problem: str) -> str | None:
    """The file a reading problem says was sourced and not read (`sources $X/env.sh, which is
    not read`, as written); None for any other problem."""
    match = _SOURCED.search(problem)
    return match[1] if match is not None else None
