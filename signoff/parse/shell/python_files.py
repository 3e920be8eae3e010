"""The repository files an inline Python program (`python3 -c`, a heredoc on standard input)
may run besides the commands it hands the system: the modules it imports by a dotted name
(`import tools.x`, `from tools.x import y`), found from the working directory, Python's first
path entry, as a namespace package too (`tools/x.py` with no `tools/__init__.py`), and the
program files its strings name (`runpy.run_path("tools/x.py")`, `exec(open("tools/x.py")
.read())`), the modules it imports by a name in a string (`importlib.import_module("tools.x")`,
`__import__("tools.x")`), and the directories it puts on its import path
(`sys.path.insert(0, "tools")`, `site.addsitedir(sys.argv[1])`). Read from its tree (`ast`),
never run.

A one-part name (`import x`) and a standard library module are left to the first path
entry's own rule, which counts every module file there.
"""

from __future__ import annotations

import ast
import sys
from functools import lru_cache

from signoff.parse.shell.python_commands import program_tree
from signoff.parse.shell.script_files import CODE_SUFFIXES, not_a_path

_STANDARD_LIBRARY = frozenset(sys.stdlib_module_names)


@lru_cache(maxsize=512)
def inline_program_files(program: str) -> tuple[str, ...]:
    """The relative or absolute paths of the files `program` may import or run, in order
    (none when it is no Python this reader can parse)."""
    tree = program_tree(program)
    if tree is None:
        return ()
    found: dict[str, None] = {}
    for node in ast.walk(tree):
        for name in _dotted_imports(node) + _imported_by_name(node):
            for path in _namespace_files(name):
                found.setdefault(path, None)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            if text.endswith(CODE_SUFFIXES) and not not_a_path(text):
                found.setdefault(text, None)
    return tuple(found)


def _dotted_imports(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.module and not node.level:
        return [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return []


def _namespace_files(name: str) -> list[str]:
    """`a.b.c` -> `a/b.py`, `a/b/__init__.py`, `a/b/c.py`, `a/b/c/__init__.py`: each module
    a dotted name of two parts or more may be, its top package perhaps a plain directory."""
    parts = name.split(".")
    if len(parts) < 2 or parts[0] in _STANDARD_LIBRARY or "*" in parts:
        return []
    stems = ["/".join(parts[: k + 1]) for k in range(1, len(parts))]
    return [f"{stem}{tail}" for stem in stems for tail in (".py", "/__init__.py")]


# Calls that import the module a string names, by the name they are called by.
_IMPORT_CALLS = frozenset({"import_module", "__import__"})
# `sys.path`'s methods that add entries; `site.addsitedir` adds one and runs its `.pth` files.
_PATH_METHODS = frozenset({"insert", "append", "extend"})


def _imported_by_name(node: ast.AST) -> list[str]:
    """`importlib.import_module("tools.x")`, `__import__("tools.x")`: the literal name."""
    if not isinstance(node, ast.Call) or not node.args or _called(node) not in _IMPORT_CALLS:
        return []
    first = node.args[0]
    return [first.value] if isinstance(first, ast.Constant) and isinstance(first.value, str) else []


def _called(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


@lru_cache(maxsize=512)
def inline_path_entries(program: str) -> tuple[str | int, ...]:
    """The directories an inline program adds to its import path, in order: a literal string,
    or `sys.argv[N]` as the number N (the caller knows the program's arguments). An entry it
    computes otherwise is not followed (a site-packages directory it looks up, say)."""
    tree = program_tree(program)
    if tree is None:
        return ()
    found: dict[str | int, None] = {}
    for node in ast.walk(tree):
        for value in _path_values(node):
            parts = value.elts if isinstance(value, ast.List | ast.Tuple) else [value]
            for part in parts:
                entry = _entry(part)
                if entry is not None:
                    found.setdefault(entry, None)
    return tuple(found)


def _path_values(node: ast.AST) -> list[ast.AST]:
    """What a statement adds to `sys.path`: a method's or `addsitedir`'s arguments, or the
    value assigned to it or to a slice of it (`sys.path[:0] = [...]`, `sys.path += [...]`)."""
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _PATH_METHODS and _sys_path(func.value):
            return list(node.args)
        return list(node.args[:1]) if _called(node) == "addsitedir" else []
    if isinstance(node, ast.Assign) and any(_sys_path(t) for t in node.targets):
        return [node.value]
    if isinstance(node, ast.AugAssign) and _sys_path(node.target):
        return [node.value]
    return []


def _sys_path(node: ast.AST) -> bool:
    if isinstance(node, ast.Subscript):
        node = node.value
    return (
        isinstance(node, ast.Attribute) and node.attr == "path"
        and isinstance(node.value, ast.Name) and node.value.id == "sys"
    )  # fmt: skip


def _entry(node: ast.AST) -> str | int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if (
        isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
        and type(node.slice.value) is int and node.slice.value >= 1
        and isinstance(node.value, ast.Attribute) and node.value.attr == "argv"
        and isinstance(node.value.value, ast.Name) and node.value.value.id == "sys"
    ):  # fmt: skip
        return node.slice.value
    return None
