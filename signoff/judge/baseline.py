"""What a script's reading cannot see, held against a PR only when the PR changed it.

The reader leaves some things unread: a file sourced from outside what signoff reads, `eval` or
`bash -c` of text known only at run time, a script run through a run-time word
(`"${ROUTER_CMD[@]}"`, `"$AIPERF_PYTHON"`). The base branch was reviewed when it merged, so such
a gap counts against a PASS only when the PR may have changed what it stands for:

- A sourced file whose base name is known (`/etc/os-release`, `$WS/setup_deps.sh`,
  `/config/x.env`) comes from the image, the runner or the repository: it counts only when the
  PR adds or changes a file of that base name, the PR's file list is incomplete, or a line of
  the script names that file where it may write it or keep it for a later write.
- A gap of a known kind (`_GAPS`; never a parse problem, a bound or a substitution the reader
  could not follow) is baseline when the base had the same one: the script existed at the base
  (a rename's old path; a script the PR adds has no base), the base read the same way (same
  configuration, job and unset hooks) has a gap of the same kind on a command of the same
  source text (line numbers may shift; dead code at the base proves nothing), and nothing
  feeding it changed:
  - the variables its text reads (for a script run through a run-time word: that word; its
    arguments are data to that program, read where known), closed over the script's own
    assignments, are set by the same commands in the same source order around it, with the
    calls of functions that set them, the calls of the functions it sits in and every copy of
    the command itself (a second copy, a moved assignment, an earlier call are new);
  - positional parameters are fed by the calls of the function they belong to: they are
    baseline when that function's body and its calls are the base's, no command the PR changed
    may call it (by name, by a computed name, through a wrapper or a function that runs its
    parameters), no other changed file names it, and what feeds each call's words is
    unchanged (compared as above). The script's own (outside any function, `$0`) never are;
    in a shared library read alone every function runs for an unknown caller at base and head
    alike (the scripts that call them are read apart; its own calls are compared as above);
  - an `eval` of a parameter every call hands as one plain external command with arguments
    (`"python3 $WS/sync.py barrier --node-ips ${IPADDRS}"`, values taken as data) sets
    nothing: later changes count only when they may read any variable, as for an inline
    program's known assignments;
  - a variable the script never sets comes from the job's environment: it counts as changed
    when another changed file's patch names it or assigns a computed name (or has no patch),
    or, for a sweep variable the reading left unbound, when the PR changes a master config;
  - a gap whose text or feeding assignments may reach into the checkout (a glob, a listing,
    the script's directory, a workspace or relative path) is new while the PR adds or changes
    any file there but the script and the data signoff reads itself;
  - a gap that may change the shell's own state (`eval`, `source`, `alias`, `declare -n`,
    `trap`) is new when the PR changes any command it may reach: those after it, every
    function body, and the whole script when it sits in a loop.
- The base reading sources the base text of each changed file the script sources (the head
  reading runs the head's). A run through a run-time word by that file's code (reported at
  the `source` line) is compared in that file: the base made it at a command of the same text
  there, fed the same in that file; what the file reads but never sets is fed by the script
  as above; arguments of the functions around it are the script's calls of them, which are
  the base's. A state gap of that file's code is never baseline (its line there is unknown).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cached_property, lru_cache

from signoff.judge.context import LIBRARY_BUDGET, JudgeContext
from signoff.judge.model import Want, want_file
from signoff.judge.shared_readings import SharedReadings
from signoff.judge.shared_readings import kept as kept_per_process
from signoff.parse.benchmark.engine_patches import sourced_file
from signoff.parse.benchmark.eval_argument import plain_command
from signoff.parse.benchmark.eval_assignments import DATA_FILE as _DATA_FILE
from signoff.parse.benchmark.eval_assignments import EvalAssignments, eval_assignments
from signoff.parse.benchmark.launch import ScriptFileRun, ScriptRun
from signoff.parse.benchmark.script import (
    DEFAULT_BUDGET,
    ParsedScript,
    evaluate_counted,
    read_script,
)
from signoff.parse.shell.reader import CUT
from signoff.parse.shell.scan import mentions
from signoff.parse.shell.script_files import STDIN
from signoff.parse.shell.syntax import (
    Case,
    Command,
    Func,
    Group,
    If,
    Loop,
    Parsed,
    Pipeline,
    Seq,
    Simple,
)

# The gaps a base can share with the head, and whether each may change the shell's own state
# (variables, functions, aliases the later commands see). Any other problem (a parse error, a
# bound, a substitution the reader could not follow) is never baseline: the reading around it
# is not known to be the base's.
_GAPS: tuple[tuple[re.Pattern[str], bool], ...] = (
    (re.compile(r"^eval of text known only at run time$"), True),
    (re.compile(r"^sources .*, which is not read$", re.S), True),
    (re.compile(r"^alias definitions are not read$"), True),
    (re.compile(r"^name references \(declare -n\) are not followed$"), True),
    (re.compile(r"^a trap handler known only at run time$"), True),
    (re.compile(r"^\S+ -c of text known only at run time$"), False),
    (re.compile(r"^\S+ runs an expanding heredoc as its script$"), False),
)
_MAX_GAPS = 64  # gaps per reading compared with the base; beyond, the reading stays as it is
# Base readings shared by every context of the process (judge/shared_readings.py).
_BASE_READINGS: SharedReadings[tuple[ScriptRun, int]] = SharedReadings()
_PROBLEM = re.compile(r"^(?P<path>.*?):(?P<line>\d+): (?P<what>.*)$", re.S)
_SOURCED = re.compile(r"^sources (.*), which is not read$", re.S)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_REFERENCE = re.compile(r"\$\{?[#!]?([A-Za-z_][A-Za-z0-9_]*|[0-9@*#])")
_ARITH = re.compile(r"\$?\(\((.*?)\)\)", re.S)
_ASSIGNED = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\+?=")
_DECLARES = frozenset({"export", "local", "declare", "typeset", "readonly"})
_READS_INTO = frozenset({"read", "mapfile", "readarray"})
# A patch line that assigns a name it computes (`export "${P}CMD=x"`, `printf -v "$n"`,
# `declare -n`, `eval "$a=b"`): it may set any variable, so every one counts as changed.
_COMPUTED = re.compile(
    r"\$\{?\w+\}?\w*\+?=|printf\s+-v\s+\S*\$|declare\s+-\w*n|(?:^|[;&|(`]\s*)eval\s"
    r"|--env-file|(?:^|[;&|]\s*)set\s+-a\b"
)
# A line that may write a file it names, or keep its name for a later write.
_WRITES = re.compile(
    r">|\b(?:tee|cp|mv|install|ln|dd|rsync|curl|wget|sed|perl|awk|touch|mktemp|python3?)\b"
    r"|^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=|\b(?:export|local|declare|readonly)\s"
)
# Text that may build a path into the repository checkout rather than the image.
_REPO_PATH = re.compile(
    r"[*?]|\[[^\]]*\]|\b(?:ls|find|locate|compgen|realpath|readlink|dirname|pwd)\b|\$\{?0\b"
    r"|BASH_SOURCE|\bPWD\b|GITHUB_WORKSPACE|[Ww]ork[Ss]pace|(?:^|[\s\"'=(:])\.{1,2}/"
    r"|\b(?:benchmarks|runners|utils|configs|experimental)/"
)
_EXPANSION = re.compile(r"\$\{[^}]*\}")
_PLAIN_VARIABLE = re.compile(r"\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})")
_POSITIONAL = frozenset("0123456789@*#")
_LINE_REF = re.compile(r"\(line \d+\)|\bline \d+\b|:\d+\b")


def base_wants(ctx: JudgeContext) -> Iterator[Want]:
    """The base texts the comparison needs: each script the PR modifies or renames whose
    reading has a gap (read with nothing bound, which leaves the most gaps), and the base of
    each changed file such a reading sources (the base reading sources it there)."""
    for changed in ctx.changed_scripts:
        if changed.status == "added" or ctx.parsed_script(changed.path) is None:
            continue
        runs = ctx.script_runs_for_path(changed.path)
        gaps = [r for r in runs if not r.complete or any(not c.name for c in r.script_files)]
        if gaps:
            yield want_file(changed.previous_path or changed.path, "base")
        for path in sorted({path for run in gaps for _, path in run.sourced}):
            if _base_path(ctx, path) != path or _status(ctx, path) not in ("added", "removed"):
                yield want_file(_base_path(ctx, path), "base")


def settled(ctx: JudgeContext, run: ScriptRun, *, keep_sources: bool = False) -> ScriptRun:
    """`run` without the gaps the PR did not change (they move to its notes). `keep_sources`:
    unread sourced files stay (engine-patches then reads the whole script and names them)."""
    if run.complete or len(run.problems) > _MAX_GAPS:
        return run  # a reading with that many gaps is not compared (bounded work)
    kept = tuple(
        p
        for p in run.problems
        if (keep_sources and sourced_file(p) is not None) or not _unchanged_problem(ctx, run, p)
    )
    if len(kept) == len(run.problems):
        return run
    dropped = tuple(f"baseline: {p}" for p in run.problems if p not in kept)
    return run.model_copy(
        update={"problems": kept, "complete": not kept, "notes": (*run.notes, *dropped)}
    )


def unknown(ctx: JudgeContext, runs: Iterable[ScriptRun]) -> bool:
    """Some reading has a gap the PR made or the work bound left (not one the base had): what
    the script runs there, a speculative launch or a knob, is unknown, so a check that picks
    scripts by what they run keeps it and fails closed on that gap."""
    return any(not settled(ctx, run).complete for run in runs)


def _gaps_over(calls: Iterable[ScriptFileRun]) -> bool:
    """More than `_MAX_GAPS` of `calls` run a file through a run-time word (counted no
    further: each call of a reading asks, and a reading may run thousands)."""
    gaps = 0
    for call in calls:
        gaps += not call.name
        if gaps > _MAX_GAPS:
            return True
    return False


def unchanged_call(ctx: JudgeContext, run: ScriptRun, call: ScriptFileRun) -> bool:
    """A run of a script file through a run-time word that the base made the same way, with
    the same word fed by the same text (its arguments are data to that program, read where
    known)."""
    if call.name or _gaps_over(run.script_files):
        return False  # a known name is judged by whether the PR wrote that file
    if call.origin or any(line == call.line for line, _ in run.sourced):
        return _unchanged_sourced_call(ctx, run, call)
    base = _base_reading(ctx, run)
    head = ctx.parsed_script(run.path)
    if base is None or head is None or head.tree is None:
        return False
    run_base, parsed_base = base
    texts = _texts_at(head.tree, call.line)
    if not texts:
        return False
    assert parsed_base.tree is not None
    # a program run as a split variable: its value as shown holds the arguments, compared
    # below where they can change the program (its own assignments), not here
    data, pieces, variable = _arguments(head.tree, call.line)
    same = any(
        (other.word == call.word or pieces is not None)
        and not other.name
        and _texts_at(parsed_base.tree, other.line) == texts
        and _strip_lines(other.why) == _strip_lines(call.why)
        for other in run_base.script_files
    )
    words: tuple[str, ...] = (call.word,)
    if call.word == STDIN:  # what runs is what the pipeline feeds it: that text, unchanged
        fed = stdin_feed(head, call.line)
        if fed is None or not _stdin_feed_at_base(head, parsed_base, run_base, call, fed):
            return False
        words = (fed,)
    if variable:  # the variable as written, whose own assignments hold the program
        words = (*words, f"${variable}")
    if not same or _may_reach_pr_files(ctx, run, head.tree, words):
        return False  # judged as before: it counts when the PR adds or changes other files
    return _feeds_unchanged(ctx, run, head, parsed_base, call.line, words, data=data, pieces=pieces)


def _unchanged_sourced_call(ctx: JudgeContext, run: ScriptRun, call: ScriptFileRun) -> bool:
    """A run through a run-time word by code of a changed file the script sources (reported
    at the `source` line): the base reading, which sources that file's base text, made it at
    a command of the same text there, fed the same in that file (`unchanged_call`'s rules,
    read in it); what the file reads but does not set is fed by the script as the script's
    own gaps are, and, when arguments of the functions around it feed it, the script's calls
    of those functions are the base's. Code read from a string has no origin: never."""
    path, _, at = call.origin.rpartition(":")
    head = ctx.parsed_script(run.path)
    library = ctx.parsed_script(path) if path else None
    base_path = _base_path(ctx, path) if path else ""
    library_base = ctx.base_parsed_script(base_path) if path else None
    base = _base_reading(ctx, run)
    if head is None or head.tree is None or library is None or library.tree is None:
        return False
    if library_base is None or library_base.tree is None or base is None:
        return False
    run_base, parsed_base = base
    assert parsed_base.tree is not None
    line = int(at)
    texts = _texts_at(library.tree, line)
    if not texts:
        return False
    sourcing = _texts_at(head.tree, call.line)
    data, pieces, variable = _arguments_memo(ctx, library, line)
    found = [
        (other, int(other.origin.rpartition(":")[2]))
        for other in run_base.script_files
        if other.origin.rpartition(":")[0] == base_path
        and (other.word == call.word or pieces is not None)
        and not other.name
        and _texts_at(parsed_base.tree, other.line) == sourcing
        and _strip_lines(other.why) == _strip_lines(call.why)
    ]
    same = any(_texts_at(library_base.tree, there) == texts for _, there in found)
    words: tuple[str, ...] = (call.word,)
    if call.word == STDIN:  # what runs is what the pipeline feeds it: that text, unchanged
        fed = stdin_feed(library, line)
        inside = _functions_at(library.tree, line)
        body = _bodies(library.tree, inside)
        same = fed is not None and any(
            stdin_feed(library_base, there) == fed
            and _functions_at(library_base.tree, there) == inside
            and _bodies(library_base.tree, inside) == body
            for _, there in found
        )
        words = (fed,) if fed is not None else words
    if variable:  # the variable as written, whose own assignments hold the program
        words = (*words, f"${variable}")
    if not same:
        return False
    bound = tuple(sorted(name for name, _ in run.environment))  # all the feeds ask of it
    key = f"baseline.sourced:{run.path}:{path}:{line}:{call.line}:{words!r}:{bound!r}"
    return ctx.memoized(key, lambda: _sourced_feeds_unchanged(
        ctx, run, (head, parsed_base), (library, library_base), line, call.line, words,
        (data, pieces),
    ))  # fmt: skip


def _arguments_memo(
    ctx: JudgeContext, parsed: ParsedScript, line: int
) -> tuple[frozenset[str], re.Pattern[str] | None, str]:
    """`_arguments`, once per command of a file (it runs for many configurations)."""
    assert parsed.tree is not None
    key = f"baseline.arguments:{parsed.path}:{line}"
    found = ctx.memo.get(key)
    if not isinstance(found, tuple):
        found = _arguments(parsed.tree, line)
        ctx.memo[key] = found
    return found


def _sourced_feeds_unchanged(
    ctx: JudgeContext,
    run: ScriptRun,
    script: tuple[ParsedScript, ParsedScript],
    file: tuple[ParsedScript, ParsedScript],
    line: int,
    sourced_at: int,
    words: tuple[str, ...],
    arguments: tuple[frozenset[str], re.Pattern[str] | None],
) -> bool:
    """`_unchanged_sourced_call`'s feeds: the sourced file's (head, base) at its `line`, then
    the script's (head, base) at the `source` line `sourced_at`."""
    head, parsed_base = script
    library, library_base = file
    data, pieces = arguments
    assert head.tree is not None and parsed_base.tree is not None and library.tree is not None
    in_library = run.model_copy(update={"path": library.path})  # its own patch skipped
    if _may_reach_pr_files(ctx, in_library, library.tree, words):
        return False
    if not _feeds_unchanged(
        ctx, in_library, library, library_base, line, words, data=data, pieces=pieces
    ):
        return False
    at_library = _tree(library.tree)
    names = at_library.closure(_referenced(words))
    if names is None:
        return False
    names = names - data
    if names & _POSITIONAL and not _library_calls_unchanged(head, parsed_base, at_library, line):
        return False
    # the script feeds what the file reads and never sets, and what both of them set
    script_sets = _tree(head.tree).assigned | _tree(parsed_base.tree).assigned
    outside = sorted(names - (at_library.assigned - script_sets) - _POSITIONAL)
    if not outside:
        return True
    return _feeds_unchanged(
        ctx, run, head, parsed_base, sourced_at, tuple(f"${{{name}}}" for name in outside)
    )


def _library_calls_unchanged(
    head: ParsedScript, base: ParsedScript, library: _Tree, line: int
) -> bool:
    """Whether the script calls the sourced file's functions that (transitively) run the
    command at its `line` with the same command texts, in the same order, at base and head:
    their arguments are the positional parameters that feed it."""
    assert head.tree is not None and base.tree is not None
    around = {name for c in library.at_line(line) for name in c.inside}
    while True:
        more = {f for c in library.order if c.calls in around for f in c.inside} - around
        if not more:
            break
        around |= more

    def calls(tree: Parsed) -> list[str]:
        return [c.text for c in _tree(tree).order if c.text.split(" ", 1)[0] in around]

    return bool(around) and calls(head.tree) == calls(base.tree)


def _may_reach_pr_files(
    ctx: JudgeContext, run: ScriptRun, tree: Parsed, words: Iterable[str]
) -> bool:
    """Whether the gap's text, or an assignment feeding it, builds a path that may reach into
    the checkout (a glob, a listing, the script's own directory, a relative or workspace path)
    while the PR adds or changes a file there other than the script and the data signoff
    reads itself: that file could be what runs or what is read."""
    data = {ctx.policy.append_only.changelog, *ctx.changed_master_files, run.path}
    if not ctx.evidence.files_truncated and not any(
        f.status != "removed" and f.path not in data for f in ctx.evidence.changed_files
    ):
        return False
    at_head = _tree(tree)
    names = at_head.closure(_referenced(words))
    if names is None:
        return True
    texts = [*words, *(c.text for c in at_head.order if c.sets & names)]
    if _names_changed_file(ctx, texts, data):
        return True
    # `${CMD[@]}`, `${X:-y}`, `$((A*B))` are expansions, not globs: read with them taken out
    return any(_builds_checkout_path(text) for text in texts)


@kept_per_process
@lru_cache(maxsize=4096)
def _builds_checkout_path(text: str) -> bool:
    """Whether a command's text may build a path into the checkout, once per text (a gap's
    feeding commands are asked again for every call and in every round of gathering: #2601
    scanned 7,580 texts a round)."""
    return _REPO_PATH.search(_unexpanded(_globbed(text))) is not None


def _globbed(text: str) -> str:
    """What of a command's text bash may glob: a single-quoted word is handed to its program
    as it is (`sed 's/\\x1b\\[[0-9;]*m//'`), so its `*`, `?` and `[...]` are no pattern (any
    other path in it still counts); in an assignment's value (`X='tools/*'`) they stay, since
    the value may be expanded unquoted later."""

    def unglobbed(part: str, word: str) -> str:
        return part if _ASSIGNMENT_WORD.match(word) else _GLOB_CHARS.sub("_", part)

    return _single_quoted(text, unglobbed)


def _unexpanded(text: str) -> str:
    """The text with expansions and array-element subscripts (`URLS[$i]=`) taken out: their
    brackets are no pattern."""
    text = _ELEMENT_TARGET.sub(r"\g<1>\g<2>", text)
    return _EXPANSION.sub("$X", _ARITH_EXPANSION.sub("$X", text))


_ASSIGNMENT_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=")
_WORD_BREAKS = frozenset(" \t\n;&|()<>")
_GLOB_CHARS = re.compile(r"[*?\[\]]")
# A command assigning an array element (`URLS[$i]=`, `local A[0]+=`): its target, subscript apart
_ELEMENT_TARGET = re.compile(
    r"^(\s*(?:(?:export|local|declare|typeset|readonly)(?:\s+-\w+)*\s+)?)"
    r"([A-Za-z_][A-Za-z0-9_]*)\[[\w${}#+*%-]*\](?=\+?=)"  # a subscript of names and numbers
)
_ARITH_EXPANSION = re.compile(r"\$\(\((?:[^()]|\([^()]*\))*\)\)")
_FILE_NAME = re.compile(r"[\w.-]+\.(?:sh|bash|py|ya?ml|json|toml|txt|env|cfg|ini|csv|jinja)\b")


def _names_changed_file(ctx: JudgeContext, texts: Iterable[str], data: set[str]) -> bool:
    """Whether the gap's text, or an assignment feeding it, names by base name a file the PR
    adds or changes (`bash $DIR/bench.sh` run through an eval): that file may be what runs."""
    named = {m for text in texts for m in _FILE_NAME.findall(text)}
    return any(
        f.status != "removed" and f.path not in data and f.path.rsplit("/", 1)[-1] in named
        for f in ctx.evidence.changed_files
    )


# --- a shell reading its script from a pipe ------------------------------------------------


def base_run(ctx: JudgeContext, run: ScriptRun) -> ScriptRun | None:
    """The base script read as `run` was (None: no base, or it could not be read whole)."""
    found = _base_reading(ctx, run)
    return found[0] if found is not None else None


def stdin_feed(parsed: ParsedScript, line: int) -> str | None:
    """The source text of the pipeline whose later command, at `line`, reads its script from
    standard input (`curl -LsSf URL | sh`), from the pipeline's first line to `line`; None
    when no pipe feeds it, or a redirect or heredoc may (`sh < x`, `sh <<EOF`): those lines
    are compared whole, so a changed URL, producer or option is a changed feed."""
    assert parsed.tree is not None
    start = _tree(parsed.tree).piped_from(line)
    if start is None:
        return None
    lines = parsed.lines[start - 1 : line]
    text = "\n".join(" ".join(code.split()) for code in lines)
    return None if "<" in text or not text else text


def _stdin_feed_at_base(
    head: ParsedScript, base: ParsedScript, run_base: ScriptRun, call: ScriptFileRun, fed: str
) -> bool:
    """Whether the base ran a shell from standard input fed by the same pipeline text, inside
    functions whose bodies are the head's (a changed function that runs it is new)."""
    assert head.tree is not None and base.tree is not None
    inside = _functions_at(head.tree, call.line)
    body = _bodies(head.tree, inside)
    return any(
        other.word == STDIN
        and stdin_feed(base, other.line) == fed
        and _functions_at(base.tree, other.line) == inside
        and _bodies(base.tree, inside) == body
        for other in run_base.script_files
    )


def _functions_at(tree: Parsed, line: int) -> tuple[str, ...]:
    found = {c.inside for c in _tree(tree).at_line(line)}
    return found.pop() if len(found) == 1 else ("",)  # none or several: never the same


def _bodies(tree: Parsed, functions: tuple[str, ...]) -> tuple[str, ...]:
    """The command texts, in source order, of every definition of `functions`."""
    names = set(functions)
    return tuple(c.text for c in _tree(tree).order if names & set(c.inside))


def _pipelines(tree: Parsed) -> Iterator[Pipeline]:
    todo: list[Seq] = [tree.script, *tree.substitutions.values()]
    while todo:
        seq = todo.pop()
        for item in seq.items:
            for pipeline in (item.first, *(p for _, p in item.rest)):
                yield pipeline
                for command in pipeline.commands:
                    todo += _inner(command)


def _inner(command: Command) -> list[Seq]:
    if isinstance(command, If):
        inner = [seq for arm in command.arms for seq in arm]
        return inner + ([command.orelse] if command.orelse is not None else [])
    if isinstance(command, Case):
        return [arm.body for arm in command.arms]
    if isinstance(command, Loop):
        return [command.body] + ([command.cond] if command.cond is not None else [])
    if isinstance(command, Group):
        return [command.body]
    if isinstance(command, Func):
        return _inner(command.body) if not isinstance(command.body, Simple) else []
    return []


# --- a command line built by appending ----------------------------------------------------


def _arguments(tree: Parsed, line: int) -> tuple[frozenset[str], re.Pattern[str] | None, str]:
    """For the program at `line` run as one variable's word-split value (`$REPLAY_CMD` as
    written, however the reading shows its value): the names that feed only pieces appended
    after a blank (`CMD+=" --model $MODEL"`), the pattern of those appends, and the variable.
    A piece that starts a new field never changes the first field, the file that runs, while
    every other assignment of the variable (`CMD="$CLI profile"`) leaves a literal word in
    it. Nothing when an assignment, declaration or `unset` may leave it blank, `IFS` is set
    (fields split elsewhere), or the program is written otherwise."""
    at = _tree(tree)
    written = {c.text.split(" ", 1)[0] for c in at.at_line(line)}
    matches = [m for word in written if (m := _PLAIN_VARIABLE.fullmatch(word))]
    if len(matches) != 1:  # several run-time programs there: which one this is is unknown
        return frozenset(), None, ""
    name = matches[0][1] or matches[0][2]  # unquoted: it is split into fields
    piece = re.compile(rf"^{name}\+=([\"'])\s")
    start = re.compile(rf"^(?:(?:export|local|declare|typeset)\s+)?{name}=(.*)$", re.S)
    pieces: list[str] = []
    program: set[str] = set()
    for command in at.order:
        if re.match(rf"^unset\b.*\b{name}\b", command.text) or _splits_elsewhere(command):
            return frozenset(), None, ""  # blank again, or fields split elsewhere
        if name not in command.sets:
            continue
        if piece.match(command.text):
            pieces.append(command.text)
            continue
        value = start.match(command.text)
        literal = _EXPANSION.sub("", value[1]) if value is not None else ""
        literal = re.sub(r"\$[A-Za-z_][A-Za-z0-9_]*|[\"']", "", literal)
        if value is None or not literal.strip() or "$" in literal or "`" in literal:
            return frozenset(), None, ""
        program |= _referenced([command.text])
    held = at.closure(program)
    fed = at.closure(_referenced(pieces))
    if held is None or fed is None:
        return frozenset(), None, ""
    return frozenset(fed - held), piece, name


def _splits_elsewhere(command: _Cmd) -> bool:
    """Whether the command sets `IFS` for what follows (not only for itself, as the prefix
    of `IFS=, read -r -a x` does)."""
    if "IFS" not in command.sets:
        return False
    words = command.text.split(" ")
    prefix = words[0].startswith("IFS=") and len(words) > 1
    return not prefix or all(_ASSIGNED.match(word) for word in words[1:])


def _without(texts: tuple[str, ...], pieces: re.Pattern[str] | None) -> tuple[str, ...]:
    return texts if pieces is None else tuple(t for t in texts if not pieces.match(t))


# --- problems ------------------------------------------------------------------------------------


def _unchanged_problem(ctx: JudgeContext, run: ScriptRun, problem: str) -> bool:
    match = _PROBLEM.match(problem)
    if match is None or match["path"] != run.path:
        return False
    line, what = int(match["line"]), match["what"]
    sourced = _SOURCED.match(what)
    if sourced is not None and _outside_source(ctx, run, sourced[1]):
        return True
    if any(at == line for at, _ in run.sourced):
        return False  # a changed sourced file's own gap: its line there is not known
    kinds = [state for pattern, state in _GAPS if pattern.match(what)]
    if not kinds:
        return False
    head = ctx.parsed_script(run.path)
    base = _base_reading(ctx, run)
    if head is None or head.tree is None or base is None:
        return False
    run_base, parsed_base = base
    assert parsed_base.tree is not None
    texts = _texts_at(head.tree, line)
    if not texts:
        return False
    same = False
    for other in run_base.problems:
        found = _PROBLEM.match(other)
        if found is None or found["what"] != what:
            continue
        if _texts_at(parsed_base.tree, int(found["line"])) == texts:
            same = True
            break
    if not same or _may_reach_pr_files(ctx, run, head.tree, _scanned_for_paths(texts)):
        return False
    return _feeds_unchanged(ctx, run, head, parsed_base, line, texts, state=kinds[0])


def _outside_source(ctx: JudgeContext, run: ScriptRun, shown: str) -> bool:
    """A sourced file of known base name that the PR did not write (see the module doc)."""
    if ctx.evidence.files_truncated:
        return False
    if shown.strip("\"'").startswith(("/dev/", "/proc/")):
        return False  # standard input or a descriptor: what the script feeds it, not a file
    if CUT in shown:  # a long word shown by its ends: its name is known when its end has a /
        shown = shown.rsplit(CUT, 1)[1]
        if "/" not in shown:
            return False
    name = shown.strip("\"'").rsplit("/", 1)[-1]
    if not name or any(mark in name for mark in "$`(){}*?[]\\\"' "):
        return False
    if ctx.submodule_holding(shown):  # a file in a submodule the PR moves is the PR's
        return False
    for changed in ctx.evidence.changed_files:
        if changed.status != "removed" and changed.path.rsplit("/", 1)[-1] == name:
            return False
    parsed = ctx.parsed_script(run.path)
    if parsed is None:
        return False
    return not any(_may_write(line, name) for line in parsed.lines)


def _may_write(line: str, name: str) -> bool:
    """Whether a line names the file other than by sourcing it, where it may be written or
    kept for a later write (a redirect, a copy, an assignment): the script may write it first."""
    code = line.strip()
    if code.startswith("#") or name not in code:
        return False
    sourced = rf"(?:\bsource|(?:^|(?<=[\s;&|(]))\.)\s+[\"']?[^\s;&|)\"']*{re.escape(name)}[\"']?"
    rest = _DESCRIPTOR.sub(" ", re.sub(sourced, " ", code))  # `>&2` writes no file
    return name in rest and bool(_WRITES.search(rest))


# A redirect that duplicates or closes a descriptor (`>&2`, `2>&1`, `<&-`): it names no file.
_DESCRIPTOR = re.compile(r"\d*[<>]&(?:\d+|-)(?![\w./$-])")


# --- the base reading ----------------------------------------------------------------------------


def _base_text(ctx: JudgeContext, path: str) -> str | None:
    """The script's text at the base: itself when the PR leaves it alone, its base read when
    the PR modifies or renames it, None when the PR adds it or the base was not read."""
    changed = next((f for f in ctx.evidence.changed_files if f.path == path), None)
    head = ctx.evidence.file(path, "head")
    if changed is None:
        return head.text if head is not None and head.state == "ok" else None
    if changed.status == "added":
        return None
    read = ctx.evidence.file(changed.previous_path or path, "base")
    return read.text if read is not None and read.state == "ok" else None


def _base_script(ctx: JudgeContext, path: str) -> ParsedScript | None:
    """`_base_text` parsed, once per verdict (each configuration's base reading reads it; an
    unchanged script's is the head's own parse)."""
    key = f"baseline.parsed:{path}"
    if key not in ctx.memo:
        text = _base_text(ctx, path)
        head = ctx.parsed_script(path)
        same = head is not None and text is not None and head.text == text
        if same or text is None:
            ctx.memo[key] = head if same else None
        else:  # a modified script's base is the one the sourced-file readers parse too
            shared = ctx.base_parsed_script(path) if _base_path(ctx, path) == path else None
            reuse = shared is not None and shared.text == text
            ctx.memo[key] = shared if reuse else read_script(text, path)
    found = ctx.memo[key]
    return found if isinstance(found, ParsedScript) else None


def _status(ctx: JudgeContext, path: str) -> str:
    return next((f.status for f in ctx.evidence.changed_files if f.path == path), "")


def _base_path(ctx: JudgeContext, path: str) -> str:
    """Where the script sat at the base (a rename's old path): its `$0` there."""
    changed = next((f for f in ctx.evidence.changed_files if f.path == path), None)
    return changed.previous_path or path if changed is not None else path


def _base_reading(ctx: JudgeContext, run: ScriptRun) -> tuple[ScriptRun, ParsedScript] | None:
    """The base script read as `run` was (same bound environment and job), memoised."""
    env = ctx.reading_environment(run)  # points read alike at the head share one
    key = f"baseline.run:{run.path}:{run.job}:{env!r}:{run.unset!r}"
    if key not in ctx.memo:
        ctx.memo[key] = _read_base(ctx, run, env)
    found = ctx.memo[key]
    return found if isinstance(found, tuple) else None


def _read_base(
    ctx: JudgeContext, run: ScriptRun, env: dict[str, str] | None
) -> tuple[ScriptRun, ParsedScript] | None:
    parsed = _base_script(ctx, run.path)
    if parsed is None or parsed.tree is None:
        return None
    clients = ctx.policy.spec_decode.client_commands
    library = ctx.is_library(run.path)  # read alone, as the head was: every function runs
    # the changed files it sources are read at their base texts, as the head reads its own
    budget = ctx.take_steps(LIBRARY_BUDGET if library or run.sourced else DEFAULT_BUDGET)
    if budget <= 0:
        return None
    unset = frozenset(run.unset)  # Check 3's reading: the same hooks read as unset
    libraries = ctx.policy.spec_decode.library_scripts
    where = _base_path(ctx, run.path)  # `$0` at the base
    key = ("base", *ctx.reading_inputs(parsed, env, run.job, unset, base=True), where, budget)
    base_run, steps = ctx.shared(
        _BASE_READINGS, key, lambda: evaluate_counted(
            parsed, env, clients, budget=budget, job=run.job, unset=unset, library=library,
            libraries=libraries, files=ctx.base_sources_for(where),
        ), base=True,
    )  # fmt: skip
    ctx.return_steps(budget - steps)
    if any("work bound" in p for p in base_run.problems):
        return None
    return base_run, parsed


# --- what feeds a command -----------------------------------------------------------------------


def _feeds_unchanged(
    ctx: JudgeContext,
    run: ScriptRun,
    head: ParsedScript,
    base: ParsedScript,
    line: int,
    words: tuple[str, ...],
    *,
    state: bool = False,
    data: frozenset[str] = frozenset(),
    pieces: re.Pattern[str] | None = None,
) -> bool:
    """Whether nothing feeding the command at head `line` changed: the variables `words` read,
    closed over the script's own assignments, are assigned by the same commands in the same
    order around the command at the base (calls of functions that assign them, and of the
    functions the command sits in, included); the rest is not fed by the PR's other files.
    `state`: the gap may change what later commands see (`eval`, `source`), so every command
    it may reach (those after it, every function body; all, inside a loop) is the base's too.
    `data`, `pieces`: the names that feed only the program's arguments and the appends that
    hold them (`_arguments`): data to that program, neither fed from outside nor compared."""
    assert head.tree is not None and base.tree is not None
    at_head, at_base = _tree(head.tree), _tree(base.tree)
    here = at_head.at_line(line)
    there = [c for c in at_base.order if c.text in {h.text for h in here}]
    if not here or not there:
        return False
    names = at_head.closure(_referenced(words))
    names = names - data if names is not None else None
    if names is None:
        return False
    callers = None
    if names & _POSITIONAL and not ctx.is_library(run.path):
        # the callers feed positional parameters: their calls are compared as feeds (a
        # library read alone has no caller of its own: any script may call its functions,
        # with arguments unknown at base and head alike, and its own calls are compared)
        callers = at_head.through_calls(words, here)
        if callers is None or not _calls_unchanged(ctx, run, head.tree, at_base, callers):
            return False
        names = callers.names - data
    bound = dict(run.environment)
    for name in sorted(names - at_head.assigned - _POSITIONAL):  # arguments: no environment
        if name not in bound and _fed_from_outside(ctx, run.path, name):
            return False
    if _without(at_head.context(names, here), pieces) != _without(
        at_base.context(names, there), pieces
    ):
        return False
    known = _known_eval(here)
    if known is None and callers is not None:
        known = _eval_of_arguments(ctx, at_head, here, callers)
    if known is not None and not _eval_feeds_unchanged(ctx, at_head, known, names):
        return False
    if not state or at_head.reached_after(here) == at_base.reached_after(there):
        return True
    return known is not None and _changes_miss_eval_names(at_head, at_base, here, there, known)


def _fed_from_outside(ctx: JudgeContext, script: str, name: str) -> bool:
    """Whether the PR may have changed what the job's environment holds for `name` (each
    name's patches scanned once per verdict: many readings ask)."""
    key = f"baseline.outside:{script}:{name}"
    return ctx.memoized(key, lambda: _scanned_from_outside(ctx, script, name))


def _scanned_from_outside(ctx: JudgeContext, script: str, name: str) -> bool:
    if ctx.evidence.files_truncated:
        return True
    if ctx.changed_master_files and name in ctx.policy.sweep_env.variables():
        return True
    mention = re.compile(rf"(?<![\w$]){re.escape(name)}(?!\w)|\$\{{?{re.escape(name)}\b")
    for path, code, computes in ctx.memoized("baseline.patch_code", lambda: _patch_code(ctx)):
        if path == script:
            continue
        if code is None or computes or mention.search(code):
            return True
    return False


def _patch_code(ctx: JudgeContext) -> tuple[tuple[str, str | None, bool], ...]:
    """Each changed file's changed code lines, joined (None: no patch), and whether one of them
    computes the name it assigns; made once per verdict, as every (script, name) asks."""
    found: list[tuple[str, str | None, bool]] = []
    for changed in ctx.evidence.changed_files:
        if changed.status == "removed":
            continue
        if changed.patch is None:
            found.append((changed.path, None, True))
            continue
        lines = []
        for line in changed.patch.splitlines():
            code = line[1:].strip()
            if line[:1] not in "+-" or line.startswith(("+++", "---")) or code[:1] == "#":
                continue
            lines.append(code)
        joined = "\n".join(lines)
        found.append((changed.path, joined, any(_COMPUTED.search(code) for code in lines)))
    return tuple(found)


# --- positional parameters, fed by the calls -----------------------------------------------------


@dataclass(frozen=True)
class _Callers:
    """What feeds a command that reads positional parameters: the names read, closed over the
    assignments and over the calls of the functions whose parameters they are; those
    functions."""

    names: frozenset[str]
    functions: frozenset[str]


def _calls_unchanged(
    ctx: JudgeContext, run: ScriptRun, head: Parsed, at_base: _Tree, callers: _Callers
) -> bool:
    """Whether every call that reaches the functions whose parameters feed a gap is the base's:
    their bodies and their calls (texts, in order) are the base's, no command the PR changed
    may call one (`_may_call`), no other changed file names one or may call by a computed name,
    and the calls' words reach no file the PR adds or changes (`_may_reach_pr_files`)."""
    at_head = _tree(head)
    functions = sorted(callers.functions)
    for function in functions:
        if at_head.bodies(function) != at_base.bodies(function):
            return False
        if at_head.calls_of(function) != at_base.calls_of(function):
            return False
    targets = at_head.callers_of(callers.functions)
    runners = at_head.runners()
    if any(_may_call(c, targets, runners) for c in _changed_commands(at_head, at_base)):
        return False
    if _called_elsewhere(ctx, run.path, targets):
        return False
    texts = [text for function in functions for text in at_head.calls_of(function)]
    return not _may_reach_pr_files(ctx, run, head, texts)


# Commands that run their arguments (or hand them to a shell that may call a function).
_RUNS_ARGUMENTS = frozenset(
    {"eval", "exec", "command", "builtin", "source", ".", "trap", "xargs", "env", "nohup",
     "timeout", "sudo", "time", "nice", "setsid", "stdbuf", "taskset", "numactl", "flock",
     "coproc", "srun", "parallel", "chrt", "ionice"}
)  # fmt: skip
# A word that builds a name from an expansion and text (`${f}_or_die`, `run_$x`).
_GLUED = re.compile(r"\$\{\w+\}\w|\w\$\{?\w|^\s*\"?\$")


def _may_call(command: _Cmd, targets: frozenset[str], runners: frozenset[str]) -> bool:
    """Whether a command the PR changed may call one of `targets`: it names one, its command
    name is known only at run time, or it hands a run-time word to a command that runs its
    arguments (a wrapper, or a function of the script that runs one of its parameters)."""
    if mentions(targets).search(command.text):
        return True
    argv = command.argv
    if not argv:
        return False  # an assignment or a loop header: it calls nothing
    if "$" in argv[0] or "`" in argv[0]:
        return True
    runs = argv[0] in _RUNS_ARGUMENTS or argv[0] in runners
    return runs and any("$" in word or "`" in word for word in argv[1:])


def _called_elsewhere(ctx: JudgeContext, script: str, targets: frozenset[str]) -> bool:
    """Whether another file the PR changes (a sourced library, a runner) may call one of
    `targets`: a patch line names one or builds a command name from an expansion."""
    if ctx.evidence.files_truncated:
        return True
    mention = mentions(targets)
    for changed in ctx.evidence.changed_files:
        if changed.path == script or changed.status == "removed":
            continue
        if changed.patch is None:
            return True
        for line in changed.patch.splitlines():
            code = line[1:]
            if line[:1] not in "+-" or line.startswith(("+++", "---")):
                continue
            if mention.search(code) or _GLUED.search(code):
                return True
    return False


def _changed_commands(at_head: _Tree, at_base: _Tree) -> list[_Cmd]:
    """The head's commands the PR added or changed (in source order, by text)."""
    texts = ([c.text for c in at_base.order], [c.text for c in at_head.order])
    matcher = SequenceMatcher(None, *texts, autojunk=False)
    return [
        c
        for op, _, _, h1, h2 in matcher.get_opcodes()
        if op != "equal"
        for c in at_head.order[h1:h2]
    ]


def _eval_of_arguments(
    ctx: JudgeContext, at_head: _Tree, here: list[_Cmd], callers: _Callers
) -> EvalAssignments | None:
    """What the one `eval` among `here` of its function's parameter (`eval "$cmd"` with
    `local cmd="$2"`, or `eval "$2"`) can set, read from what every call hands it
    (`plain_command`), a program the PR leaves alone; None when that is not known."""
    evals = [c for c in here if c.argv[:1] == ("eval",)]
    if len(evals) != 1 or len(evals[0].argv) != 2 or not evals[0].inside:
        return None
    function = evals[0].inside[-1]
    index = _parameter(at_head, evals[0].argv[1], function)
    calls = at_head.calls(function)
    if callers.functions != {function} or index is None or not calls:
        return None
    if any(len(c.argv) <= index or not all(map(_one_field, c.argv[1:index])) for c in calls):
        return None  # a word before it may expand to no word or several: which one is it?
    read = [plain_command(c.argv[index], at_head.functions) for c in calls]
    commands = [r for r in read if r is not None]
    if len(commands) != len(read) or not all(_program_untouched(ctx, c.program) for c in commands):
        return None
    files = frozenset(f for c in commands for f in c.files)
    return EvalAssignments(frozenset(), frozenset(), files, ())


def _program_untouched(ctx: JudgeContext, program: str) -> bool:
    """Whether the PR leaves alone what a program name runs: no file it adds or changes has
    that base name (a script may put its directory on PATH), and no changed file's patch
    defines a function or alias of that name (a changed library read as the script runs it)."""
    if ctx.evidence.files_truncated:
        return False
    name = re.escape(program.rsplit("/", 1)[-1])
    defines = re.compile(rf"(?:^|[\s;&|(]){name}\s*\(\s*\)|\bfunction\s+{name}\b|\balias\s+{name}=")
    for changed in ctx.evidence.changed_files:
        if changed.status == "removed":
            continue
        if changed.path.rsplit("/", 1)[-1] == program.rsplit("/", 1)[-1] or changed.patch is None:
            return False
        for line in changed.patch.splitlines():
            if (
                line[:1] in "+-"
                and not line.startswith(("+++", "---"))
                and defines.search(line[1:])
            ):
                return False
    return True


# A word that is always one field: a literal, or double-quoted text with no `$@`/`${x[@]}`.
_ONE_FIELD = re.compile(r'[A-Za-z0-9_./:=+-]+|"(?:[^"\\@`]|\\.)*"')


def _one_field(word: str) -> bool:
    return _ONE_FIELD.fullmatch(word) is not None


_PARAMETER = re.compile(r'"?\$\{?([1-9]|[A-Za-z_][A-Za-z0-9_]*)\}?"?')


def _parameter(tree: _Tree, word: str, function: str) -> int | None:
    """Which of `function`'s parameters the eval's word is: `"$2"` itself, or a variable that
    only `function` assigns, each time from that one parameter (`local cmd="$2"`), in a body
    that never shifts or resets its parameters."""
    found = _PARAMETER.fullmatch(word)
    if found is None:
        return None
    if any(c.argv[:1] in {("shift",), ("set",)} for c in tree.order if function in c.inside):
        return None
    if found[1].isdigit():
        return int(found[1])
    name = found[1]
    value = re.compile(rf'{re.escape(name)}=("?)\$\{{?([1-9])\}}?\1')
    indexes = set()
    setters = tree.setters(name)
    inside = [c for c in setters if c.inside[-1:] == (function,)]
    for setter in setters:
        if setter.inside[-1:] != (function,):
            if not (_declares_local(setter) and all(_declares_local(c) for c in inside)):
                return None  # another function's own local is another variable
            continue
        matched = [m for word in setter.text.split(" ") if (m := value.fullmatch(word))]
        if len(matched) != 1:
            return None
        indexes.add(int(matched[0][2]))
    return indexes.pop() if len(indexes) == 1 else None


def _declares_local(command: _Cmd) -> bool:
    return bool(command.inside) and command.argv[:1] in {("local",), ("declare",), ("typeset",)}


def _outside_single_quotes(text: str) -> str:
    """`text` without its single-quoted parts (`'{print $7}'`, `$'...'`), where bash
    expands nothing."""
    return _single_quoted(text, lambda _part, _word: "")


def _single_quoted(text: str, mapped: Callable[[str, str], str]) -> str:
    """`text` with each single-quoted part (quotes included) replaced by `mapped(part, the
    word before it)`; a quote inside double quotes or escaped is a character, and a command
    substitution starts its own quoting (`"$(awk '{print $1}')"`). Unbalanced: `text` whole."""
    out: list[str] = []
    word = 0  # where in `out` the current word starts
    array = ""  # inside `NAME=( ... )`: that assignment's word, which each item belongs to
    quoted = False  # inside double quotes
    outer: list[bool] = []  # the quoting around each open `$(`
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\":
            out.append(text[index : index + 2])
            index += 2
            continue
        if char == '"':
            quoted = not quoted
        elif char == "(" and (text[index - 1 : index] == "$" or (outer and not quoted)):
            outer.append(quoted)
            quoted = False
        elif char == ")" and outer and not quoted:
            quoted = outer.pop()
        elif char == "(" and not quoted and _ASSIGNMENT_WORD.fullmatch("".join(out[word:])):
            array = "".join(out[word:])
        elif char == ")" and array and not quoted:
            array = ""
        elif char == "'" and not quoted:
            end = text.find("'", index + 1)
            if end < 0:
                return text
            out.append(mapped(text[index : end + 1], array or "".join(out[word:])))
            index = end + 1
            continue
        if not quoted and char in _WORD_BREAKS:
            word = len(out) + 1
        out.append(char)
        index += 1
    return "".join(out)


def _referenced(texts: Iterable[str]) -> set[str]:
    names: set[str] = set()
    for text in texts:
        names.update(_REFERENCE.findall(text))
        for inside in _ARITH.findall(text):
            names.update(_NAME.findall(inside))
    return names


# --- an eval whose names are known --------------------------------------------------------------


def _known_eval(here: list[_Cmd]) -> EvalAssignments | None:
    """The assignments of the one `eval "$(python3 -c …)"` among `here`, when known."""
    evals = [c for c in here if c.text.startswith("eval ")]
    return eval_assignments(evals[0].text) if len(evals) == 1 else None


def _eval_feeds_unchanged(
    ctx: JudgeContext, at_head: _Tree, known: EvalAssignments, names: frozenset[str]
) -> bool:
    """Whether the PR left alone what an inline-program eval reads: the data files named in
    it or in the assignments feeding it (`names`), each file it opens being named so, and the
    modules it imports, all by base name (added, changed, removed or renamed); an incomplete
    file list leaves it unknown."""
    if ctx.evidence.files_truncated:
        return False
    feeds = set(known.files)
    for c in at_head.order:
        if c.sets & names:
            feeds.update(_DATA_FILE.findall(c.text))
    for path in known.opens:  # each file it opens is named, here or where its path is set
        refs = at_head.closure(_referenced([path]))
        if refs is None:
            return False
        named = _DATA_FILE.findall(path)
        named += [f for c in at_head.order if c.sets & refs for f in _DATA_FILE.findall(c.text)]
        if not named:
            return False
    modules = {f"{m}.py" for m in known.modules}
    for changed in ctx.evidence.changed_files:
        for path in {changed.path, changed.previous_path or changed.path}:
            parts = path.split("/")
            if parts[-1] in feeds | modules or set(parts[:-1]) & known.modules:
                return False
    return True


def _changes_miss_eval_names(
    at_head: _Tree, at_base: _Tree, here: list[_Cmd], there: list[_Cmd], known: EvalAssignments
) -> bool:
    """Whether the commands the PR changed after an unchanged, unchanged-fed
    `eval "$(python3 -c …)"` read nothing it may set. Its inline program prints only
    assignments of known names, so what it sets is the base's; a changed (added, removed,
    moved) command counts only when it names one of them or a name or function computed from
    them, or may read any variable (`${!x}`, `eval`, `source`, `declare -p`)."""
    base_cmds, head_cmds = at_base.reached(there), at_head.reached(here)
    texts = ([c.text for c in base_cmds], [c.text for c in head_cmds])
    matcher = SequenceMatcher(None, *texts, autojunk=False)
    head_taint, base_taint = _taint(at_head, known.names), _taint(at_base, known.names)
    for op, b1, b2, h1, h2 in matcher.get_opcodes():
        if op == "equal":
            continue
        if any(_reads_state(c, *head_taint) for c in head_cmds[h1:h2]):
            return False
        if any(_reads_state(c, *base_taint) for c in base_cmds[b1:b2]):
            return False
    return True


def _scanned_for_paths(texts: tuple[str, ...]) -> tuple[str, ...]:
    """What of a gap's texts may build a path into the checkout. An eval of an inline program
    whose output is known assignments (`eval_assignments`) reaches files only by what it opens,
    judged with its feeds (`_changes_miss_eval_names`): its `[`, `*` are Python, not globs, so
    only its shell expansions are scanned."""
    if sum(eval_assignments(t) is not None for t in texts) != 1:
        return texts
    return tuple(" ".join(_EXPANSION.findall(t)) for t in texts)


# A command that may read any variable, whatever it names.
_READS_ANY = re.compile(
    r"\$\{!|^(?:eval|source|\.|set|compgen)(?:\s|$)|^(?:declare|typeset)\s+-\w*p"
)


def _taint(tree: _Tree, names: frozenset[str]) -> tuple[re.Pattern[str], frozenset[str]]:
    """A pattern for the names `names` reach through the script's assignments, and the
    functions whose bodies (or the functions they call) mention one of them."""
    tainted = set(names)
    while True:
        mention = mentions(tainted)
        more = {n for c in tree.order if mention.search(c.text) for n in c.sets} - tainted
        if not more:
            break
        tainted |= more
    functions = {f for c in tree.order if mention.search(c.text) for f in c.inside}
    while True:
        more = {f for c in tree.order if c.calls in functions for f in c.inside} - functions
        if not more:
            break
        functions |= more
    return mention, frozenset(functions)


def _reads_state(command: _Cmd, mention: re.Pattern[str], functions: frozenset[str]) -> bool:
    return bool(
        mention.search(command.text)
        or (command.calls and command.calls in functions)
        or _READS_ANY.search(command.text)
    )


# --- the syntax tree ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Cmd:
    """One simple command or `for` header of the script, in source order."""

    position: tuple[int, int]  # (line, offset): source order
    text: str  # its words as written, blanks normalised
    line: int
    sets: frozenset[str]  # names it assigns
    calls: str  # the function name it calls ("" for none)
    inside: tuple[str, ...]  # the functions it is defined in, outermost first
    loop: bool = False  # it sits inside a loop body (or condition)
    argv: tuple[str, ...] = ()  # its command words as written (assignments left out)


class _Tree:
    """A script's commands with what each assigns and calls, for order-sensitive comparison."""

    def __init__(self, tree: Parsed) -> None:
        self.tree = tree
        found: list[_Cmd] = []
        for seq in (tree.script, *tree.substitutions.values()):
            found += _in_seq(seq, ())
        self.order = sorted(found, key=lambda c: c.position)
        functions = {name for c in self.order for name in c.inside}
        self.order = [
            c if c.calls in functions or not c.calls else _with_call(c, "") for c in self.order
        ]
        self.assigned = frozenset(n for c in self.order for n in c.sets)
        self._sets_in: dict[str, set[str]] = {}
        for c in self.order:
            for name in c.inside:
                self._sets_in.setdefault(name, set()).update(c.sets)
        self._calls_in: dict[str, set[str]] = {}
        for c in self.order:
            for name in c.inside:
                if c.calls:
                    self._calls_in.setdefault(name, set()).add(c.calls)

    def piped_from(self, line: int) -> int | None:
        """The first line of the first pipeline (in `_pipelines`' order) that has a later
        simple command at `line`; None: none has. Indexed once per tree (a script running a
        shell from a pipe a thousand times asks a thousand times)."""
        if not hasattr(self, "_piped"):
            self._piped: dict[int, int] = {}
            for pipeline in _pipelines(self.tree):
                for command in pipeline.commands[1:]:
                    if isinstance(command, Simple):
                        self._piped.setdefault(command.line, pipeline.line)
        return self._piped.get(line)

    def at_line(self, line: int) -> list[_Cmd]:
        if not hasattr(self, "_by_line"):
            self._by_line: dict[int, list[_Cmd]] = {}
            for c in self.order:
                self._by_line.setdefault(c.line, []).append(c)
        return self._by_line.get(line, [])

    def closure(self, names: set[str]) -> frozenset[str] | None:
        """`names` with every name the script's assignments to them read, transitively."""
        todo, seen = set(names), set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            if len(seen) > 512:
                return None  # bounded: a script that deep is not compared
            todo |= self._feeding(name) - seen
        return frozenset(seen)

    def _feeding(self, name: str) -> frozenset[str]:
        """The names the script's assignments to `name` read (once per name: every closure
        of a verdict walks the same assignments)."""
        if name not in self._fed_by:
            self._fed_by[name] = frozenset(
                _referenced(c.text for c in self.order if name in c.sets)
            )
        return self._fed_by[name]

    @cached_property
    def _fed_by(self) -> dict[str, frozenset[str]]:
        return {}

    def context(self, names: frozenset[str], command: list[_Cmd]) -> tuple[str, ...]:
        """The texts, in source order, of the commands that assign `names`, of the calls of
        functions that (transitively) do, of the command itself (every copy) and of the calls
        of the functions it is defined in."""
        setters = {f for f in self._sets_in if self._sets_transitively(f) & names}
        around = {name for c in command for name in c.inside}
        same = {c.text for c in command}  # every copy of the command counts: a copy is new
        keep = [
            c
            for c in self.order
            if c.sets & names or c.text in same or (c.calls and c.calls in setters | around)
        ]
        return tuple(c.text for c in keep)

    @cached_property
    def functions(self) -> frozenset[str]:
        return frozenset(name for c in self.order for name in c.inside)

    def setters(self, name: str) -> list[_Cmd]:
        """The commands that assign `name`, in source order."""
        if not hasattr(self, "_setters"):
            self._setters: dict[str, list[_Cmd]] = {}
            for c in self.order:
                for set_name in c.sets:
                    self._setters.setdefault(set_name, []).append(c)
        return self._setters.get(name, [])

    def calls(self, function: str) -> list[_Cmd]:
        """The direct calls of `function`, in source order."""
        return [c for c in self.order if c.calls == function]

    def calls_of(self, function: str) -> tuple[str, ...]:
        return tuple(c.text for c in self.calls(function))

    def bodies(self, function: str) -> tuple[str, ...]:
        """The command texts, in source order, of every definition of `function`."""
        return tuple(c.text for c in self.order if function in c.inside)

    def callers_of(self, functions: frozenset[str]) -> frozenset[str]:
        """`functions` with every function whose body calls one of them, transitively."""
        found = set(functions)
        while True:
            more = {f for c in self.order if c.calls in found for f in c.inside} - found
            if not more:
                return frozenset(found)
            found |= more

    def runners(self) -> frozenset[str]:
        """The functions that run one of their parameters as a command (`"$@"`, `eval "$1"`,
        `local c="$1"; eval "$c"`, a call of such a function with them), transitively."""
        held = self._parameter_names()
        found: set[str] = set()
        while True:
            more = {
                c.inside[-1]
                for c in self.order
                if c.inside and c.argv and c.inside[-1] not in found
                and _runs_parameter(c, found, held.get(c.inside[-1], frozenset()))
            }  # fmt: skip
            if not more:
                return frozenset(found)
            found |= more

    def _parameter_names(self) -> dict[str, frozenset[str]]:
        """For each function, the names its own commands assign from its parameters or from
        such names (`local cmd="$2"`; `full="$cmd --x"`)."""
        held: dict[str, set[str]] = {}
        for _ in range(8):  # a short chain of copies; a longer one is not followed
            grew = False
            for c in self.order:
                if not c.inside or not c.sets:
                    continue
                own = held.setdefault(c.inside[-1], set())
                reads = _referenced([_outside_single_quotes(c.text)])
                if (reads & _POSITIONAL or reads & own) and not c.sets <= own:
                    own |= c.sets
                    grew = True
            if not grew:
                break
        return {name: frozenset(names) for name, names in held.items()}

    def through_calls(self, words: Iterable[str], command: list[_Cmd]) -> _Callers | None:
        """What feeds `words` (the text of `command`, which reads positional parameters): the
        names read, closed over the script's assignments and, for each positional parameter,
        over the calls of the function it belongs to (their words feed it). None when one is
        the script's own (outside any function, `$0`), the command sits in several places or
        the walk is too long. Parameters inside single quotes (`awk '{print $7}'`) are text."""
        insides = {c.inside for c in command}
        if len(insides) != 1:
            return None
        inside = insides.pop()
        todo = [(text, inside) for text in words]
        names: set[str] = set()
        functions: set[str] = set()
        while todo:
            text, inside = todo.pop()
            if len(names) + len(functions) > 512:
                return None  # bounded: a script that deep is not compared
            positional = _referenced([_outside_single_quotes(text)]) & _POSITIONAL
            if positional and ("0" in positional or not inside):
                return None
            if positional and inside[-1] not in functions:
                functions.add(inside[-1])
                todo += [(c.text, c.inside) for c in self.calls(inside[-1])]
            for name in sorted(_referenced([text]) - _POSITIONAL - names):
                names.add(name)
                todo += [(c.text, c.inside) for c in self.setters(name)]
        return _Callers(frozenset(names), frozenset(functions))

    def reached_after(self, command: list[_Cmd]) -> tuple[str, ...] | None:
        """The texts of every command a state change at `command` may reach: those after it,
        every function body, and all of them when it sits inside a loop."""
        return tuple(c.text for c in self.reached(command))

    def reached(self, command: list[_Cmd]) -> list[_Cmd]:
        first = min(c.position for c in command)
        if any(c.loop for c in command):
            return list(self.order)
        return [c for c in self.order if c.position > first or c.inside]

    def _sets_transitively(self, function: str) -> set[str]:
        out: set[str] = set()
        todo, seen = [function], set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            out |= self._sets_in.get(name, set())
            todo += sorted(self._calls_in.get(name, set()))
        return out


def _runs_parameter(command: _Cmd, runners: set[str], held: frozenset[str]) -> bool:
    """Whether the command runs a positional parameter (or a name `held` from one): as its
    name, through a wrapper, or handed to a function that runs one of its own."""
    first, rest = command.argv[0], command.argv[1:]
    fed = _POSITIONAL | held
    if _referenced([_outside_single_quotes(first)]) & fed:
        return True
    runs = first in _RUNS_ARGUMENTS or first in runners
    return runs and bool(_referenced([_outside_single_quotes(" ".join(rest))]) & fed)


def _with_call(command: _Cmd, calls: str) -> _Cmd:
    return _Cmd(
        command.position, command.text, command.line, command.sets, calls, command.inside,
        command.loop, command.argv,
    )  # fmt: skip


def _in_seq(seq: Seq, inside: tuple[str, ...]) -> list[_Cmd]:
    out: list[_Cmd] = []
    for item in seq.items:
        for pipeline in (item.first, *(p for _, p in item.rest)):
            for command in pipeline.commands:
                out += _in_command(command, inside)
    return out


def _in_command(command: Command, inside: tuple[str, ...]) -> list[_Cmd]:
    if isinstance(command, Simple):
        return [_simple(command, inside)]
    out: list[_Cmd] = []
    if isinstance(command, If):
        for cond, body in command.arms:
            out += _in_seq(cond, inside) + _in_seq(body, inside)
        if command.orelse is not None:
            out += _in_seq(command.orelse, inside)
    elif isinstance(command, Case):
        for arm in command.arms:
            out += _in_seq(arm.body, inside)
    elif isinstance(command, Loop):
        if command.name:
            items = " ".join(" ".join(w.raw.split()) for w in command.items or ())
            text = f"{command.kind} {command.name} in {items}"
            out.append(_Cmd((command.line, -1), text, command.line, frozenset({command.name}),
                            "", inside))  # fmt: skip
        inner = _in_seq(command.cond, inside) if command.cond is not None else []
        inner += _in_seq(command.body, inside)
        out += [_in_loop(c) for c in inner]
    elif isinstance(command, Group):
        out += _in_seq(command.body, inside)
    elif isinstance(command, Func):
        out += _in_command(command.body, (*inside, command.name))
    return out


def _in_loop(command: _Cmd) -> _Cmd:
    return _Cmd(
        command.position, command.text, command.line, command.sets, command.calls,
        command.inside, True, command.argv,
    )  # fmt: skip


def _simple(simple: Simple, inside: tuple[str, ...]) -> _Cmd:
    words = (*simple.assigns, *simple.words, *simple.redirects)
    offset = min((w.offset for w in words), default=0)
    first = simple.words[0].raw if simple.words else ""
    return _Cmd((simple.line, offset), _text(simple), simple.line,
                frozenset(_names_set_by(simple)), first, inside, False,
                tuple(w.raw for w in simple.words))  # fmt: skip


def _texts_at(tree: Parsed, line: int) -> tuple[str, ...]:
    """The source texts of the simple commands that start on `line`, sorted."""
    return tuple(sorted(c.text for c in _tree(tree).at_line(line)))


_TREES: dict[int, tuple[Parsed, _Tree]] = {}


def _tree(parsed: Parsed) -> _Tree:
    """One `_Tree` per parsed script (kept with the tree it reads, so an id is never reused
    for another one while cached); the cache holds the last few scripts only."""
    found = _TREES.get(id(parsed))
    if found is not None and found[0] is parsed:
        return found[1]
    if len(_TREES) >= 16:
        _TREES.clear()
    built = _Tree(parsed)
    _TREES[id(parsed)] = (parsed, built)
    return built


def _text(simple: Simple) -> str:
    words = (*simple.assigns, *simple.words, *simple.redirects)
    return " ".join(" ".join(w.raw.split()) for w in words)


def _names_set_by(simple: Simple) -> set[str]:
    names = {m[1] for w in simple.assigns if (m := _ASSIGNED.match(w.raw))}
    words = [w.raw for w in simple.words]
    if not words:
        return names
    first = words[0]
    rest = [w for w in words[1:] if not w.startswith(("-", "+"))]
    if first in _DECLARES:
        names |= {m[1] for w in rest if (m := _ASSIGNED.match(w)) or (m := _bare(w))}
    elif first in _READS_INTO or first == "getopts":
        names |= {m[1] for w in rest if (m := _bare(w))}
    elif first == "printf" and "-v" in words[1:-1]:
        target = words[words.index("-v", 1) + 1]
        if _bare(target):
            names.add(target)
    return names


def _bare(word: str) -> re.Match[str] | None:
    return re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)", word)


def _strip_lines(text: str) -> str:
    return _LINE_REF.sub("", text)


# What judge/environment_program.py reads the same way.
COMPUTED_ASSIGNMENT, REPO_PATH, READS_INTO = _COMPUTED, _REPO_PATH, _READS_INTO
command_tree, unexpanded = _tree, _unexpanded
CommandTree = _Tree
