"""Whether a Python program may reach the network: it imports a module of `NETWORK`
(`urllib`, `requests`, `huggingface_hub`, ...), or imports one whose name is known only at run
time (`__import__(x)`, `importlib.import_module(x)`). Read from its tree (`ast`, never run).
"""

from __future__ import annotations

import ast
from functools import lru_cache

NETWORK = frozenset({
    "urllib", "urllib2", "urllib3", "requests", "httpx", "http", "aiohttp", "socket", "ftplib",
    "pycurl", "wget", "huggingface_hub", "fsspec", "smart_open", "boto3", "botocore",
})  # fmt: skip


def imported(tree: ast.Module) -> set[str]:
    """The top-level modules the program imports by name (`import a.b`, `from a import b`;
    relative imports are its own package's)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    return found


def reaches_network(tree: ast.Module) -> bool:
    if imported(tree) & NETWORK:
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and dynamic_import(node):
            names = _imported_by(node.args[0], tree)
            if names is None or names & NETWORK:
                return True
    return False


def dynamic_import(call: ast.Call) -> bool:
    """`__import__(...)` or `import_module(...)` with an argument."""
    func = call.func
    if isinstance(func, ast.Name):
        name = func.id
    elif isinstance(func, ast.Attribute):
        name = func.attr
    else:
        return False
    return name in ("__import__", "import_module") and bool(call.args)


def _imported_by(argument: ast.expr, tree: ast.Module) -> set[str] | None:
    """The top-level modules a dynamic import may name: a literal, or a loop variable over
    literals (`for m in ("a.b", "c"): import_module(m)`); None: known only at run time."""
    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
        return {argument.value.split(".")[0]}
    listed = _listed_names(tree) if isinstance(argument, ast.Name) else {}
    if isinstance(argument, ast.Name) and argument.id in listed:
        return {value.split(".")[0] for value in listed[argument.id]}
    return None


@lru_cache(maxsize=2)  # a tree is asked once per dynamic import it makes
def _listed_names(tree: ast.Module) -> dict[str, set[str]]:
    """Loop variables that only ever take literal strings (`for m in ["a", "b"]`), and names
    assigned a list or tuple of them (`mods = [...]`, then `for m in mods`)."""
    lists: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, strings = node.targets[0], _strings(node.value)
            if isinstance(target, ast.Name) and strings is not None:
                lists.setdefault(target.id, set()).update(strings)
    loops: dict[str, set[str]] = {}
    spoiled: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Name):
            source = node.iter
            strings = lists.get(source.id) if isinstance(source, ast.Name) else _strings(source)
            if strings is None:
                spoiled.add(node.target.id)
            else:
                loops.setdefault(node.target.id, set()).update(strings)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.NamedExpr)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            spoiled.update(t.id for t in targets if isinstance(t, ast.Name))
    return {name: values for name, values in loops.items() if name not in spoiled}


def _strings(node: ast.expr) -> set[str] | None:
    """The strings of a literal list or tuple of strings (None: anything else)."""
    if not isinstance(node, (ast.List, ast.Tuple)):
        return None
    values = [item.value for item in node.elts if isinstance(item, ast.Constant)]
    if len(values) != len(node.elts) or not all(isinstance(v, str) for v in values):
        return None
    return {v for v in values if isinstance(v, str)}
