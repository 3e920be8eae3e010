"""Which files the sweep job executes: the workflow files, what their steps run, what that imports.

A `pull_request` run executes the PR's own version of the sweep workflow, its reusable templates
and the programs their steps call, so a PR that changes one of them measured itself with its own
rules. The workflow files are the profile's `definition_paths`. A changed file under the
profile's `executed_paths` (InferenceX: `utils/**`) is part of the definition only when the sweep
executes it: a step of a definition file names it (`python3 utils/x.py`, `python3 -m
utils.a.b`, `from utils.a import b` in an inline program), or an executed Python file imports it
(`import`/`from ... import`, resolved against the file's own directory and each directory above
it, as `sys.path` may hold any of them; a package's `__init__.py` runs with it) or names it as a
program (a string that is a path such as `"x.py"` or `"a/x.sh"`: a relative one may resolve
anywhere, so every changed file ending so counts), or an executed shell file names it. A test
file or a document nothing executes is not. Everything is read at the pinned head, as the run
read it (an older swept commit's programs are not followed: every such change counts there).

Fail closed: a definition or executed file that cannot be read, a directory that cannot be
listed, a Python file that does not parse (or is over MAX_PYTHON_CHARS), an import whose
module is named at run time (`importlib.import_module(name)`, `__import__`, `runpy`), or more
than MAX_FILES executed files leave the set undecided, and then every changed file under
`executed_paths` counts.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from signoff.judge.context import JudgeContext, path_matches
from signoff.judge.model import Want, want_dir, want_file
from signoff.judge.shared_readings import kept

MEMO_KEY = "sweep.definition"
MAX_FILES = 200  # executed files followed; beyond it the set is undecided
MAX_PYTHON_CHARS = 400_000  # a program larger than this is not parsed (the set is undecided)

# A program path under a top directory, as a step or a program names it (after any prefix such
# as `${GITHUB_WORKSPACE}/` or `./`).
_PROGRAM = re.compile(r"(?:^|[^\w.-])(?P<path>[\w.-]+(?:/[\w.-]+)*\.(?:py|sh))\b")
_PROGRAM_WORD = re.compile(r"[\w./-]+\.(?:py|sh)")
_MODULE_FLAG = re.compile(r"-m\s+(?P<module>[A-Za-z_][\w.]*)")
_INLINE_IMPORT = re.compile(
    r"\b(?:from\s+(?P<from>[A-Za-z_][\w.]*)\s+import|import\s+(?P<import>[A-Za-z_][\w.]*))"
)
# A job that calls a reusable workflow of the same repository (`uses: ./.github/workflows/x.yml`).
_REUSABLE = re.compile(r"\buses:\s*[\"']?\./(?P<path>\.github/workflows/[\w.-]+\.ya?ml)")
_DYNAMIC = ("import_module", "__import__", "runpy", "exec_module", "SourceFileLoader")


@dataclass
class Executed:
    """The executed files found so far, the reads still needed, and why the set is undecided."""

    files: set[str] = field(default_factory=set)
    wants: list[Want] = field(default_factory=list)
    problem: str = ""

    @property
    def complete(self) -> bool:
        return not self.wants and not self.problem


def candidates(ctx: JudgeContext, paths: tuple[str, ...]) -> list[str]:
    """Changed paths that are part of the definition only if the sweep executes them."""
    provenance = ctx.policy.sweep.provenance
    return [
        path
        for path in paths
        if any(path_matches(path, p) for p in provenance.executed_paths)
        and not any(path_matches(path, p) for p in provenance.definition_paths)
    ]


def workflow_candidates(ctx: JudgeContext, paths: tuple[str, ...]) -> list[str]:
    """Changed workflow files beside the definition's own (`.github/workflows/claude.yml`):
    part of the definition only if a definition workflow calls them (`uses: ./...`)."""
    provenance = ctx.policy.sweep.provenance
    directories = {p.rsplit("/", 1)[0] for p in provenance.definition_paths if "/" in p}
    return [
        path
        for path in paths
        if "/" in path
        and path.rsplit("/", 1)[0] in directories
        and path.endswith((".yml", ".yaml"))
        and not any(path_matches(path, p) for p in provenance.definition_paths)
    ]


def is_not_executed(ctx: JudgeContext, path: str) -> bool:
    """The sweep is known not to execute this changed file: it lies where the definition's
    programs or workflows live, and the complete walk of the definition does not reach it.
    An undecided walk decides nothing (False)."""
    paths = (path,)
    if not candidates(ctx, paths) and not workflow_candidates(ctx, paths):
        return False
    found = executed_files(ctx)
    return found.complete and path not in found.files


def wants(ctx: JudgeContext) -> Iterator[Want]:
    """The definition's files and the directories its imports resolve in, when a changed file
    under `executed_paths`, or a workflow beside the definition's, needs deciding."""
    paths = ctx.changed_paths
    if candidates(ctx, paths) or workflow_candidates(ctx, paths):
        yield from executed_files(ctx).wants


def executed_files(ctx: JudgeContext) -> Executed:
    """The files the sweep executes at the pinned head (memoised)."""
    return ctx.memoized(MEMO_KEY, lambda: _Walk(ctx).run())


class _Walk:
    def __init__(self, ctx: JudgeContext) -> None:
        self.ctx = ctx
        self.found = Executed()
        patterns = ctx.policy.sweep.provenance.executed_paths
        self.tops = tuple(sorted({p.split("/", 1)[0] for p in patterns if "/" in p}))
        self.queue: list[str] = []

    def run(self) -> Executed:
        definition = self.ctx.policy.sweep.provenance.definition_paths
        for path in definition:
            if not any(ch in path for ch in "*?["):
                self._visit(path, workflow=True)
        while self.queue and not self.found.problem:
            path = self.queue.pop(0)
            self._visit(path, workflow=path.endswith((".yml", ".yaml")))
        return self.found

    def _text(self, path: str) -> str | None:
        read = self.ctx.evidence.file(path, "head")
        if read is None:
            self.found.wants.append(want_file(path, "head"))
            return None
        if read.state == "missing":
            return None
        if read.state != "ok" or read.text is None:
            self.found.problem = f"{path} could not be read at the head ({self.ctx.unread(read)})"
            return None
        return read.text

    def _visit(self, path: str, *, workflow: bool) -> None:
        text = self._text(path)
        if text is None:
            return
        directory = path.rsplit("/", 1)[0] if "/" in path and not workflow else ""
        if path.endswith(".py") and not workflow:
            self._python(path, directory, text)
            return
        self._programs(text, directory)
        if workflow:
            for match in _REUSABLE.finditer(text):
                self._add(match["path"])  # a reusable workflow runs as part of this one
        for match in _MODULE_FLAG.finditer(text):
            self._module("", match["module"].split("."), ())
        for match in _INLINE_IMPORT.finditer(text):
            self._module("", (match["from"] or match["import"]).split("."), ())

    def _add(self, path: str) -> None:
        if path in self.found.files:
            return
        if len(self.found.files) >= MAX_FILES:
            self.found.problem = f"the sweep executes more than {MAX_FILES} files (bound)"
            return
        self.found.files.add(path)
        self.queue.append(path)

    def _programs(self, text: str, directory: str) -> None:
        """Program paths a step or program names: under a top directory of `executed_paths`
        (`utils/x.py`, `${GITHUB_WORKSPACE}/utils/x.py`), or relative (`x.py`, `a/x.py`), which
        may be resolved against any directory: every changed candidate ending so counts."""
        for match in _PROGRAM.finditer(text):
            name = match["path"].removeprefix("./")
            rooted = next((t for t in self.tops if name.startswith(f"{t}/")), None)
            if rooted is not None:
                self._file_if_listed(name)
            else:
                for path in candidates(self.ctx, self.ctx.changed_paths):
                    if path == f"{directory}/{name}" or path.endswith(f"/{name}"):
                        self._add(path)

    def _file_if_listed(self, path: str) -> None:
        directory, name = path.rsplit("/", 1)
        entries = self._listing(directory)
        if entries is not None and name in entries:
            self._add(path)

    def _listing(self, directory: str) -> frozenset[str] | None:
        """A directory's names at the head (None: not listed yet, or absent)."""
        listing = self.ctx.evidence.listing(directory, "head")
        if listing is None:
            want = want_dir(directory, "head")
            if want not in self.found.wants:
                self.found.wants.append(want)
            return None
        if listing.state == "missing":
            return frozenset()
        if listing.state != "ok":
            self.found.problem = f"{directory}/ could not be listed at the head ({listing.reason})"
            return None
        return frozenset(listing.entries)

    def _python(self, path: str, directory: str, text: str) -> None:
        for step in _python_steps(path, directory, text):
            if step[0] == "problem":
                self.found.problem = step[1]
                return
            if step[0] == "module":
                _, root, parts, names = step
                self._module(root, list(parts), names)
            else:
                self._programs(step[1], directory)

    def _module(self, root: str, parts: list[str], names: tuple[str, ...]) -> None:
        """The files `import a.b` (or `from a.b import names`) runs, found through listings."""
        if not root and (not parts or parts[0] not in self.tops):
            return  # the repository root: only a top directory of executed_paths is followed
        directory = root
        for index, part in enumerate(parts):
            entries = self._listing(directory) if directory else frozenset({f"{parts[0]}/"})
            if entries is None:
                return
            prefix = f"{directory}/" if directory else ""
            if f"{part}/" in entries:
                directory = f"{prefix}{part}"
                self._init(directory)
            elif f"{part}.py" in entries:
                self._add(f"{prefix}{part}.py")
                return
            else:
                return
            if index == len(parts) - 1:
                break
        if directory and names:
            entries = self._listing(directory)
            for name in names:
                if entries is not None and f"{name}.py" in entries:
                    self._add(f"{directory}/{name}.py")
                elif entries is not None and f"{name}/" in entries:
                    self._init(f"{directory}/{name}")

    def _init(self, package: str) -> None:
        entries = self._listing(package)
        if entries is not None and "__init__.py" in entries:
            self._add(f"{package}/__init__.py")


# What an executed Python file asks the walk to follow, in the order the walk meets it.
_Step = (
    tuple[Literal["problem"], str]
    | tuple[Literal["module"], str, tuple[str, ...], tuple[str, ...]]
    | tuple[Literal["programs"], str]
)


@kept
@functools.lru_cache(maxsize=64)
def _python_steps(path: str, directory: str, text: str) -> tuple[_Step, ...]:
    """What `path`'s imports and program strings ask to follow; a problem ends it. Kept by
    text: gathering asks the checks what to read in several rounds, and each walks the sweep's
    definition again (InferenceX #2309: 42 parses of seven files took 1.0 s of 5.6 s)."""
    if len(text) > MAX_PYTHON_CHARS:
        return (("problem", f"{path} is over {MAX_PYTHON_CHARS:,} characters (bound)"),)
    try:
        tree = ast.parse(text, filename=path)
    except Exception:  # untrusted text: a syntax error or a parser limit
        return (("problem", f"{path} does not parse as Python, so its imports are unknown"),)
    roots = _ancestors(directory)
    steps: list[_Step] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                steps += [("module", root, tuple(alias.name.split(".")), ()) for root in roots]
        elif isinstance(node, ast.ImportFrom):
            names = tuple(alias.name for alias in node.names)
            module = tuple((node.module or "").split(".")) if node.module else ()
            if node.level:
                parts = directory.split("/")
                top = "/".join(parts[: max(0, len(parts) - node.level + 1)])
                steps.append(("module", top, module, names))
            else:
                steps += [("module", root, module, names) for root in roots]
        elif isinstance(node, ast.Name | ast.Attribute) and _name(node) in _DYNAMIC:
            steps.append((
                "problem",
                f"{path}:{node.lineno} imports a module named at run time "
                f"(`{_name(node)}`), so what the sweep executes is unknown",
            ))  # fmt: skip
            break
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and _PROGRAM_WORD.fullmatch(node.value)  # a path, not prose that names one
        ):
            steps.append(("programs", node.value))
    return tuple(steps)


def _ancestors(directory: str) -> list[str]:
    """`a/b/c` -> [`a/b/c`, `a/b`, `a`] (the repository root is reached through `tops`)."""
    parts = directory.split("/") if directory else []
    return ["/".join(parts[:n]) for n in range(len(parts), 0, -1)] + [""]


def _name(node: ast.Name | ast.Attribute) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr
