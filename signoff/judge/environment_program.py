"""An override hook's program, named by the job's environment, is not a file the PR wrote.

    resolve_python() {
        if [[ -n "${PY:-}" ]] && command -v "$PY" >/dev/null; then :
        else PY=""; for c in python python3; do command -v "$c" && { PY="$c"; break; }; done
        fi
    }
    "${PY:-python}" -m tilert.pd_vllm.pd_router ...

runs, on one path, the program the job's environment names, and on the others a literal
candidate (`python`, `python3`: read as those names, and judged by whether the PR adds a file
of that name). The environment is the runner's or the image's. The PR reaches it only through a
changed file other than the files of the reading (the script and the changed files it
sources) that names the variable or assigns a computed name, or through a master config when
it is a sweep variable; with none of those, the environment's program is baseline, as a file
sourced from the image is. Only a hook counts: the script itself gives the variable a literal
value or default on some path (a bare `bash "$SETUP_SCRIPT"` runs whatever the environment
names, which may be a repository file the PR changes). It is never so when the reading's own
files may set the variable
otherwise than to a literal or to an item of a literal `for` list, may assign a computed name
anywhere, or may put a directory of the checkout on PATH (a bare name could then find a file
the PR adds).
"""

from __future__ import annotations

import re

from signoff.judge.baseline import (
    COMPUTED_ASSIGNMENT,
    REPO_PATH,
    CommandTree,
    command_tree,
    unexpanded,
)
from signoff.judge.context import JudgeContext
from signoff.parse.benchmark.launch import ScriptFileRun, ScriptRun

# The word as the reading shows it: expansions of plain names, with a literal default at most
# (`${PY:-python}`, `$PY`, `${PY}`), and nothing else but literal text.
_EXPANSION = re.compile(
    r"\$\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)(?::?[-=](?P<default>[^${}`\\\"'\s]*))?\}"
    r"|\$(?P<plain>[A-Za-z_][A-Za-z0-9_]*)"
)
_LITERAL = r"(?:\"[^$`\"\\]*\"|'[^']*'|[^$`\"'\\\s;&|<>()]*)"
_DECLARE = r"(?:(?:export|local|declare|typeset|readonly)(?:\s+-[A-Za-z]+)*\s+)?"
_BARE = re.compile(
    r"(?:export|local|declare|typeset|readonly)(?:\s+-[A-Za-z]+)*(?:\s+[A-Za-z_][A-Za-z0-9_]*)+"
)
_VALUE = re.compile(r"=(?:\"[^\"]+\"|'[^']+'|[^\s\"']+)")  # a setter giving a value
_LOOP = re.compile(r"^for ([A-Za-z_][A-Za-z0-9_]*) in (.*)$", re.S)
_LOOP_ITEM = re.compile(r"[A-Za-z0-9_.+/-]+")


def environment_program(ctx: JudgeContext, run: ScriptRun, call: ScriptFileRun) -> bool:
    """Whether the run-time word `call` runs is a variable the job's environment holds, which
    the PR does not feed, or a literal the reading's own files set it to (see the module)."""
    if call.name or ctx.evidence.files_truncated:
        return False
    names: set[str] = set()
    literals: list[str] = []

    def take(match: re.Match[str]) -> str:
        names.add(match["braced"] or match["plain"])
        if match["default"]:
            literals.append(match["default"])
        return ""

    rest = _EXPANSION.sub(take, call.word)
    literals.append(rest)
    if not names or any(re.search(r"[$`\\\"'\s*?\[]", text) for text in literals):
        return False
    own = [run.path, *dict.fromkeys(path for _, path in run.sourced)]
    trees = []
    for path in own:
        parsed = ctx.parsed_script(path)
        if parsed is None or parsed.tree is None:
            return False
        if any(COMPUTED_ASSIGNMENT.search(line) for line in parsed.lines):
            return False
        trees.append(command_tree(parsed.tree))
    changed = {f.path.rsplit("/", 1)[-1] for f in ctx.evidence.changed_files}
    if any(REPO_PATH.search(text) or text.rsplit("/", 1)[-1] in changed for text in literals):
        return False  # a default or literal part that may name a file of the checkout
    loops = {c.text for tree in trees for c in tree.order if _LOOP.match(c.text)}
    defaults = {m["braced"] for m in _EXPANSION.finditer(call.word) if m["default"]}
    for name in sorted(names):
        texts = [c.text for tree in trees for c in tree.order if name in c.sets]
        if not all(_literal_setter(name, text, trees, loops) for text in texts):
            return False
        if name not in defaults and not any(_VALUE.search(text) for text in texts):
            return False  # no literal of the script's own: whatever the environment names
        if _fed_by_pr(ctx, name, set(own)):
            return False
    return not _path_into_checkout(trees)


def _literal_setter(name: str, text: str, trees: list[CommandTree], loops: set[str]) -> bool:
    """Whether the command `text` sets `name` to a literal, to an item of a literal `for`
    list (every setter of that loop variable being such a list), or declares it bare."""
    if re.fullmatch(rf"{_DECLARE}{name}={_LITERAL}", text) or re.fullmatch(_BARE, text):
        return True
    loop = _LOOP.match(text)
    if loop is not None and loop[1] == name:
        return text in loops and all(_LOOP_ITEM.fullmatch(item) for item in loop[2].split())
    found = re.fullmatch(rf"{_DECLARE}{name}=\"?\$\{{?([A-Za-z_][A-Za-z0-9_]*)\}}?\"?", text)
    if found is None:
        return False
    variable = found[1]
    setters = [c.text for tree in trees for c in tree.order if variable in c.sets]
    return bool(setters) and all(
        (loop := _LOOP.match(setter)) is not None
        and setter in loops
        and all(_LOOP_ITEM.fullmatch(item) for item in loop[2].split())
        for setter in setters
    )


def _fed_by_pr(ctx: JudgeContext, name: str, own: set[str]) -> bool:
    """Whether a changed file other than the reading's own may set `name` in the job's
    environment: its patch names it other than by reading it, or assigns a computed name (or
    GitHub sent no patch), or it is a sweep variable and the PR changes a master config."""
    if ctx.changed_master_files and name in ctx.policy.sweep_env.variables():
        return True
    quoted = re.escape(name)
    # reading it (`"$PY"`, `${PY:-python}`) sets nothing; any other mention may (`-e PY`,
    # `PY: x`, `${PY:=x}`)
    reads = re.compile(rf"\${quoted}(?!\w)|\$\{{{quoted}(?::?[-+?][^}}]*)?\}}")
    mention = re.compile(rf"(?<![\w]){quoted}(?!\w)")
    for changed in ctx.evidence.changed_files:
        if changed.path in own or changed.status == "removed":
            continue
        if changed.patch is None:
            return True
        for line in changed.patch.splitlines():
            code = line[1:].strip()
            if line[:1] not in "+-" or line.startswith(("+++", "---")) or code[:1] == "#":
                continue
            if mention.search(reads.sub("", code)) or COMPUTED_ASSIGNMENT.search(code):
                return True
    return False


def _path_into_checkout(trees: list[CommandTree]) -> bool:
    """Whether the reading's own files may put a directory of the checkout on PATH (what
    PATH is set from, followed through their assignments)."""
    for tree in trees:
        names = tree.closure({"PATH"})
        if names is None:
            return True
        for command in tree.order:
            if command.sets & names and REPO_PATH.search(unexpanded(command.text)):
                return True
    return False
