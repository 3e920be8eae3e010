"""The layers hold: gather reads without the judge, publish writes without gather, the pure
layers (judge, parse) import no I/O or entry module, and no modules import each other in a circle.

The import graph is read from the source (every `import` and `from ... import` in
signoff/**/*.py, inside functions and `if TYPE_CHECKING:` blocks too), not from what a run loads.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "signoff"

# layer -> layers it must never import (a layer is a top-level module or subpackage of signoff)
FORBIDDEN: dict[str, frozenset[str]] = {
    "gather": frozenset({"judge", "publish", "audit", "verify", "gate", "cli", "action"}),
    "publish": frozenset({"gather", "audit", "verify", "gate", "cli", "action"}),
    "github": frozenset({"gather", "judge", "parse", "publish", "audit", "verify", "cli"}),
    "audit": frozenset({"verify", "verify_command", "gate", "cli", "action"}),
}
_IO_AND_ENTRY = frozenset(
    {"gather", "publish", "audit", "github", "gate", "cli", "action", "verify", "verify_command"}
)
FORBIDDEN["judge"] = _IO_AND_ENTRY
FORBIDDEN["parse"] = _IO_AND_ENTRY | {"judge"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _known(name: str) -> str:
    """The signoff module an imported name lives in (`a.b.c` -> `a.b` when c is an attribute)."""
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            package = module if MODULES[module].name == "__init__.py" else module.rsplit(".", 1)[0]
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            source = ".".join([*base, *([node.module] if node.module else [])])
        else:
            source = node.module or ""
        names = [f"{source}.{alias.name}" for alias in node.names] or [source]
    for name in names:
        if name.split(".")[0] == "signoff":
            yield _known(name)


def _type_checking_only(tree: ast.Module) -> set[int]:
    """Line numbers of the imports inside `if TYPE_CHECKING:` (for annotations, never run)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            lines.update(n.lineno for stmt in node.body for n in ast.walk(stmt))
    return lines


def import_graph(*, runtime_only: bool = False) -> dict[str, set[str]]:
    """module -> the signoff modules it imports (`runtime_only`: without TYPE_CHECKING ones)."""
    return {module: set(targets) for module, targets in _read_graph(runtime_only).items()}


@functools.cache  # (the source does not change during a run; each test gets its own copy)
def _read_graph(runtime_only: bool) -> dict[str, frozenset[str]]:
    graph: dict[str, frozenset[str]] = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_only(tree) if runtime_only else set()
        graph[module] = frozenset(
            target
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom) and node.lineno not in skip
            for target in _targets(module, node)
            if target != module
        )
    return graph


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "signoff"


def layer_arrows(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """(layer, layer) pairs some module of the first imports a module of the second through."""
    return {
        (layer(a), layer(b))
        for a, targets in graph.items()
        for b in targets
        if layer(a) != layer(b) and layer(b) != "signoff"
    }


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_graph_reader_sees_imports_of_every_kind() -> None:
    # (a guard for the tests below: a reader that saw nothing would pass them all)
    graph = import_graph()
    assert "signoff.gather.stages" in graph["signoff.gather"]  # the lazy one, in a function
    assert "signoff.judge.context" in graph["signoff.judge.script_entries"]  # TYPE_CHECKING
    assert (
        "signoff.judge.context"
        not in import_graph(runtime_only=True)["signoff.judge.script_entries"]
    )
    assert "signoff.github.api" in graph["signoff.gather.files"]
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("source", sorted(FORBIDDEN))
def test_a_layer_imports_none_of_the_layers_above_it(source: str) -> None:
    graph = import_graph()
    crossing = sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        if layer(module) == source
        for target in targets
        if layer(target) in FORBIDDEN[source]
    )
    assert crossing == []


def test_no_two_layers_import_each_other_even_through_other_layers() -> None:
    arrows = layer_arrows(import_graph())
    edges: dict[str, set[str]] = {}
    for a, b in arrows:
        edges.setdefault(a, set()).add(b)
    assert circles(edges) == []


def test_the_policy_profile_and_the_standards_do_not_import_each_other() -> None:
    graph = import_graph()
    assert "signoff.standards" in graph["signoff.policy"]
    assert "signoff.policy" not in graph["signoff.standards"]


def test_no_modules_import_each_other_in_a_circle_at_run_time() -> None:
    assert circles(import_graph(runtime_only=True)) == []


def test_the_shell_reader_imports_nothing_outside_itself() -> None:
    # What is particular to benchmark scripts (launches, clients, the library they source) sits
    # above the reader (parse/benchmark/) and reaches it through its hook, never the reverse.
    graph = import_graph()
    inside = {
        m for m in graph if m == "signoff.parse.shell" or m.startswith("signoff.parse.shell.")
    }
    assert len(inside) > 10
    crossing = sorted(f"{m} -> {t}" for m in inside for t in graph[m] if t not in inside)
    assert crossing == []
