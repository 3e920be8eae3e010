"""The repository files an inline Python program (`python3 -c`, a heredoc on standard input)
may run besides the commands it hands the system: the modules it imports by a dotted name
(`import tools.x`, `from tools.x import y`), found from the working directory, Python's first
path entry, as a namespace package too (`tools/x.py` with no `tools/__init__.py`), and the
program files its strings name (`runpy.run_path("tools/x.py")`, `exec(open("tools/x.py")
.read())`). Read from its tree (`ast`), never run.

A one-part name (`import x`) and a standard library module are left to the first path
entry's own rule, which counts every module file there.
"""

from __future__ import annotations

import ast
import sys
from functools import lru_cache

from signoff.parse.shell.python_commands import MAX_PROGRAM
from signoff.parse.shell.script_files import CODE_SUFFIXES, not_a_path

_STANDARD_LIBRARY = frozenset(sys.stdlib_module_names)


@lru_cache(maxsize=512)
def inline_program_files(program: str) -> tuple[str, ...]:
    """The relative or absolute paths of the files `program` may import or run, in order
    (none when it is no Python this reader can parse)."""
    if len(program) > MAX_PROGRAM:
        return ()
    try:
        tree = ast.parse(program)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    found: dict[str, None] = {}
    for node in ast.walk(tree):
        for name in _dotted_imports(node):
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
