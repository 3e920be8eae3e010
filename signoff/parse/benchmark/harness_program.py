"""Whether an inline Python program rewrites only the engine package's own benchmark client (pure).

vLLM ships its load generator inside the engine's package (`vllm.benchmarks`). A script may
rewrite it (`open(vllm.benchmarks.serve.__file__, "w")`, to add a client flag an older image
lacks): that edits harness tooling, which the engine-patch rule allows, not the server. The text
is parsed with Python's own parser (`ast`, never run) and held to a narrow form; anything
outside it keeps the program counting as an engine rewrite:

- modules come only from `import a.b as X` / `from a.b import c as X` (no relative imports);
  the only other module allowed is `sys`, for `sys.exit`;
- every file written (`open(target, mode)` with a literal mode holding `w`, `a`, `x` or `+`) is
  `M.__file__`, where `M` is a module under a harness prefix, or a parameter of a local
  function that every call passes such a module;
- a module name is used only as `M.__file__` or passed on that way; nothing assigns to it, to
  an attribute named `__file__`, or reaches another dunder attribute;
- every other free name is a plain builtin (no `exec`, `eval`, `getattr`, `__import__`, ...).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

MAX_PROGRAM = 200_000  # characters; a longer program is not analysed (it counts)

_BUILTINS = frozenset({
    "open", "print", "len", "str", "int", "float", "bool", "dict", "list", "tuple", "set",
    "range", "enumerate", "zip", "isinstance", "any", "all", "min", "max", "sorted", "repr",
    "AssertionError", "ValueError", "RuntimeError", "SystemExit", "Exception", "True", "False",
    "None",
})  # fmt: skip
_WRITES = frozenset("wax+")


def rewrites_only_harness(body: str, harness: Sequence[str]) -> bool:
    """True when `body`, read as Python, writes files and every file it writes is the source of
    a module under one of the `harness` prefixes (dotted: `vllm.benchmarks`)."""
    if not harness or len(body) > MAX_PROGRAM:
        return False
    try:
        tree = ast.parse(body)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    try:
        return _Reading(tree, tuple(harness)).holds()
    except RecursionError:
        return False


class _Reading:
    def __init__(self, tree: ast.Module, harness: tuple[str, ...]) -> None:
        self.tree = tree
        self.functions: set[str] = set()
        self.harness = harness
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node

    def holds(self) -> bool:
        modules = self._modules()
        if modules is None:
            return False
        carriers = {name for name, module in modules.items() if self._under(module)}
        others = {name for name, module in modules.items() if not self._under(module)}
        if others - {"sys"} or any(modules[name] != "sys" for name in others):
            return False
        functions = self._functions()
        if functions is None:
            return False
        params = self._carried_params(functions, carriers)
        if params is None:
            return False
        carried = {p for names in params.values() for p in names}
        for function in functions.values():
            for arg in (*function.args.posonlyargs, *function.args.args):
                if arg.arg in carriers | carried and arg.arg not in params[function.name]:
                    return False  # a parameter named like a module that is not given one
        bound = self._bound_names(functions)
        if bound & (carriers | {"open", "sys"}):
            return False  # a module name (or `open`) rebound
        carriers |= carried
        self.functions = set(functions)
        writes = 0
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Name) and not self._name_ok(node, carriers, others, bound):
                return False
            if isinstance(node, ast.Attribute) and not self._attribute_ok(node, carriers):
                return False
            if isinstance(node, ast.Call) and _is_open(node):
                written = self._open_writes(node, carriers)
                if written is None:
                    return False
                writes += written
        return writes > 0

    def _under(self, module: str) -> bool:
        return any(module == p or module.startswith(p + ".") for p in self.harness)

    def _modules(self) -> dict[str, str] | None:
        """Alias -> dotted module of every import; None for a form outside the narrow one."""
        modules: dict[str, str] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    name = alias.asname or alias.name.split(".", 1)[0]
                    if modules.setdefault(name, alias.name if alias.asname else name) != (
                        alias.name if alias.asname else name
                    ):
                        return None  # one name bound to two modules
            elif isinstance(node, ast.ImportFrom):
                if node.level or node.module is None:
                    return None
                for alias in node.names:
                    module = f"{node.module}.{alias.name}"
                    if (
                        alias.name == "*"
                        or modules.setdefault(alias.asname or alias.name, module) != module
                    ):
                        return None
        return modules

    def _functions(self) -> dict[str, ast.FunctionDef] | None:
        functions: dict[str, ast.FunctionDef] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                return None
            if isinstance(node, (ast.Global, ast.Nonlocal)):
                return None
            if isinstance(node, ast.FunctionDef):
                args = node.args
                if node.decorator_list or args.vararg or args.kwarg or args.kwonlyargs:
                    return None
                if node.name in functions:
                    return None
                functions[node.name] = node
        return functions

    def _carried_params(
        self, functions: dict[str, ast.FunctionDef], carriers: set[str]
    ) -> dict[str, set[str]] | None:
        """Parameters that receive a harness module: at every call of their function the
        argument is one (a parameter that sometimes gets another value is None: no reading)."""
        params: dict[str, set[str]] = {name: set() for name in functions}
        calls = [
            node for node in ast.walk(self.tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in functions
        ]  # fmt: skip
        known = set(carriers)
        for _ in range(len(functions) + 1):  # parameters passed on to other local functions
            for call in calls:
                assert isinstance(call.func, ast.Name)
                function = functions[call.func.id]
                names = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
                for index, arg in enumerate(call.args):
                    if isinstance(arg, ast.Name) and arg.id in known and index < len(names):
                        params[function.name].add(names[index])
            known = set(carriers) | {p for names in params.values() for p in names}
        for call in calls:
            assert isinstance(call.func, ast.Name)
            function = functions[call.func.id]
            names = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
            for index, name in enumerate(names):
                if name not in params[function.name]:
                    continue
                given = call.args[index] if index < len(call.args) else None
                if call.keywords or not isinstance(given, ast.Name) or given.id not in known:
                    return None
        return params

    def _bound_names(self, functions: dict[str, ast.FunctionDef]) -> set[str]:
        bound = set(functions)
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                bound.add(node.id)
            elif isinstance(node, ast.arg):
                bound.add(node.arg)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                bound.add(node.name)
        return bound

    def _name_ok(
        self, node: ast.Name, carriers: set[str], others: set[str], bound: set[str]
    ) -> bool:
        parent = self.parents.get(node)
        if node.id in carriers:
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                return False
            if isinstance(parent, ast.Attribute) and parent.attr == "__file__":
                return True
            return (
                isinstance(parent, ast.Call)
                and isinstance(parent.func, ast.Name)
                and parent.func.id in self.functions
                and node in parent.args
            )
        if node.id in others:  # sys
            return isinstance(parent, ast.Attribute) and parent.attr == "exit"
        return node.id in bound or node.id in _BUILTINS

    def _attribute_ok(self, node: ast.Attribute, carriers: set[str]) -> bool:
        if node.attr == "__file__":
            return (
                isinstance(node.ctx, ast.Load)
                and isinstance(node.value, ast.Name)
                and node.value.id in carriers
            )
        return not node.attr.startswith("__")

    def _open_writes(self, call: ast.Call, carriers: set[str]) -> int | None:
        """1 for a write of a harness module's file, 0 for a read; None otherwise."""
        mode: ast.expr | None = call.args[1] if len(call.args) > 1 else None
        for keyword in call.keywords:
            if keyword.arg == "mode":
                mode = keyword.value
            elif keyword.arg is None:
                return None
        if mode is None:
            return 0
        if not isinstance(mode, ast.Constant) or not isinstance(mode.value, str):
            return None
        if not _WRITES & set(mode.value):
            return 0
        target = call.args[0] if call.args else None
        if (
            isinstance(target, ast.Attribute)
            and target.attr == "__file__"
            and isinstance(target.value, ast.Name)
            and target.value.id in carriers
        ):
            return 1
        return None


def _is_open(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Name) and call.func.id == "open"
