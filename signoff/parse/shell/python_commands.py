"""The command lines an inline Python program hands to the system (`python3 -c
"import os; os.system('docker run IMAGE ...')"`), read with Python's own parser (`ast`, never run).

A shell reads them as `sh -c` would: `os.system(S)`, `os.popen(S)`, `subprocess.getoutput(S)` and
`getstatusoutput(S)` run S through a shell; `subprocess.run`, `call`, `check_call`,
`check_output` and `Popen` run a list of words (here quoted back into one line) or, with
`shell=True`, a string (a string without it names the program alone, read the same way). Only
literals are known: a command built at run time (a variable, an f-string, a join) is reported,
so a reading that holds one is incomplete. The names are matched on any object, and on names
imported from `os` or `subprocess` (`from subprocess import run as r`), so an alias is not a
way out; `run` and `call`, common method names elsewhere (`asyncio.run(main())`), only on the
`subprocess` module by any name it is imported as. A literal program given to `exec`, `eval`
or `compile` is read the same way (four levels deep); one known only at run time is not
(InferenceX's AMD server script evaluates formulas from its models file), and `os.exec*`/
`os.spawn*` make the reading incomplete. A program Python cannot parse runs nothing: it is not
read here.
"""

from __future__ import annotations

import ast
import re
import shlex
from functools import lru_cache
from typing import NamedTuple

from signoff.parse.shell.python_imports import reaches_network

# Longer inline programs are not parsed (a shell word this long is no hand-written command).
MAX_PROGRAM = 200_000
# Command lines read per program: more make the reading incomplete (real programs hand one or
# two; each is read as a script of its own).
MAX_COMMANDS = 64
_SHELL_RUNNERS = frozenset(
    {"system", "popen", "getoutput", "getstatusoutput", "create_subprocess_shell"}
)
_ARGV_RUNNERS = frozenset({"run", "call", "check_call", "check_output", "Popen"})
_MODULES = frozenset({"os", "subprocess"})
# Builtins that run Python code given as text: a literal is read for commands too.
_CODE_RUNNERS = frozenset({"exec", "eval", "compile"})
# os functions that replace or fork the process with a program: read as run-time commands.
_OS_PROGRAMS = re.compile(r"exec[lv]p?e?|spawn[lv]p?e?|posix_spawnp?")
_NESTING = 4  # literal programs inside literal programs read
# Words a program must hold to hand anything to the system (cheaper than parsing it).
_MARKS = (
    *_SHELL_RUNNERS,
    *_ARGV_RUNNERS,
    *_CODE_RUNNERS,
    "exec",
    "spawn",
    "open",
    "write_",
    "shutil",
    "rename",
    "replace",
    "getattr",
    "vars",
    "__dict__",
    "create_subprocess",
)
# `open(PATH, MODE)` with a mode that writes, and `Path(PATH).write_text(...)`.
_WRITE_MODES = frozenset("wax+")
_PATH_WRITERS = frozenset({"write_text", "write_bytes"})
# Module functions that write the file they are given (`open`) or their second argument.
_COPIERS = ("copy", "copy2", "copyfile", "move")
_FILE_MODULES = {
    "open": ("io", "codecs"),
    **{name: ("shutil",) for name in _COPIERS},
    "rename": ("os",),
    "replace": ("os",),
}
_COMMON_NAMES = frozenset({"run", "call"})  # counted on the subprocess module only
# Modules whose functions run programs: used other than by calling a function by its name
# (`s = os.system`, `getattr(os, name)`, `vars(subprocess)`), they may run any.
_COMMAND_MODULES = frozenset({"os", "subprocess", "pty", "posix", "asyncio"})
# `asyncio.create_subprocess_exec(PROGRAM, *ARGS)`, `pty.spawn(ARGV)`: a program and its words.
_SPREAD_RUNNERS = frozenset({"create_subprocess_exec"})
_ALL_RUNNERS = _SHELL_RUNNERS | _ARGV_RUNNERS | _SPREAD_RUNNERS
# What a program holds when it may use a runner other than by calling it: a lookup by name, a
# dunder attribute, or a runner's name not followed by its call.
_INDIRECT_HINT = re.compile(
    r"\b(?:getattr|vars)\s*\(|\.__\w+__|\b(?:system|popen|getoutput|getstatusoutput|run|call"
    r"|check_call|check_output|Popen|spawn\w*|exec[lv]\w*|posix_spawnp?"
    r"|create_subprocess_\w+)\b(?!\s*\()"
)


class PythonCommands(NamedTuple):
    """The command lines a program runs, as shell text, and whether it runs any other command
    (one known only at run time, or one past MAX_COMMANDS)."""

    lines: tuple[str, ...]
    unknown: bool
    writes: tuple[str, ...] = ()  # literal paths it may write (a download's: judge/fetched_code)


@lru_cache(maxsize=4)
def program_tree(program: str) -> ast.Module | None:
    """An inline program's syntax tree (None: too long, or no Python this reader can parse).
    Its commands and the files it imports (python_files) are read right after each other from
    the one tree; a tree is many times its text, so few are kept."""
    if len(program) > MAX_PROGRAM:
        return None
    try:
        return ast.parse(program)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


@lru_cache(maxsize=256)  # a script's programs are read once per configuration point
def python_commands(program: str) -> PythonCommands:
    """The command lines `program` hands to the system (none: nothing, or not Python)."""
    return _commands(program, _NESTING)


def _commands(program: str, nesting: int) -> PythonCommands:
    if not any(n in program for n in _MARKS):
        return PythonCommands((), False)
    tree = program_tree(program)
    if tree is None:
        return PythonCommands((), False)
    imported = _imported_names(tree)
    modules = _subprocess_names(tree)
    lines: list[str] = []
    writes: list[str] = []
    unknown = _runners_used_indirectly(program, tree, imported)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        written = _written_path(node)
        if written is not None:
            writes.append(written)
            continue
        name = _called_name(node.func, imported, modules)
        if name in _SHELL_RUNNERS or name in _ARGV_RUNNERS or name in _SPREAD_RUNNERS:
            line = _spread_line(node) if name in _SPREAD_RUNNERS else _command_line(node)
            if line is None or len(lines) == MAX_COMMANDS:
                unknown = True
            elif line:
                lines.append(line)
        elif isinstance(node.func, ast.Attribute) and _OS_PROGRAMS.fullmatch(node.func.attr):
            unknown = True  # `os.execvp(...)`, `os.spawnl(...)`: not followed
        elif isinstance(node.func, ast.Name) and node.func.id in _CODE_RUNNERS:
            code = node.args[0] if node.args else None
            if not (isinstance(code, ast.Constant) and isinstance(code.value, str)):
                continue  # evaluating data (`eval(formula, {...})`), as python_fetch reads it
            if not nesting:
                unknown = True
                continue
            inner = _commands(code.value, nesting - 1)
            room = MAX_COMMANDS - len(lines)
            lines.extend(inner.lines[:room])
            writes.extend(inner.writes)
            unknown |= inner.unknown or len(inner.lines) > room
    if writes and reaches_network(tree):  # a download's: judge/fetched_code names its URL
        writes.clear()
    return PythonCommands(tuple(lines), unknown, tuple(writes))


def _runners_used_indirectly(program: str, tree: ast.Module, imported: dict[str, str]) -> bool:
    """A command module, or one of its runners, used other than by calling it by name: bound
    to another name (`s = os.system`), or looked up by a name (`getattr(os, n)`, `vars(os)`,
    `os.__dict__`). (A module imported by a name known only at run time is not held against
    the program: InferenceX's scripts import lists of modules to check that they load.)"""
    if not imported and not _INDIRECT_HINT.search(program):
        return False  # nearly every program: each runner it names is called where it stands
    modules: set[str] = set()
    called: set[int] = set()
    found: list[ast.AST] = []  # attributes, names and lookups to decide once all calls are known
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {a.asname or a.name for a in node.names if a.name in _COMMAND_MODULES}
        elif isinstance(node, ast.Call):
            called.add(id(node.func))
            if isinstance(node.func, ast.Name) and node.func.id in ("getattr", "vars"):
                found.append(node)
        elif _may_be_indirect(node, imported):
            found.append(node)
    return any(_indirect(node, modules, called) for node in found)


def _may_be_indirect(node: ast.AST, imported: dict[str, str]) -> bool:
    """An attribute of a plain name (`os.system`), or a name imported as a runner."""
    if isinstance(node, ast.Attribute):
        return isinstance(node.value, ast.Name)
    return isinstance(node, ast.Name) and node.id in imported


def _indirect(node: ast.AST, modules: set[str], called: set[int]) -> bool:
    if isinstance(node, ast.Name):
        return id(node) not in called  # `from os import system as s; f = s`
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.value.id not in modules:
            return False
        if node.attr.startswith("__"):
            return True  # `os.__dict__[...]`
        runner = node.attr in _ALL_RUNNERS or _OS_PROGRAMS.fullmatch(node.attr)
        return bool(runner) and id(node) not in called  # `s = os.system`
    if isinstance(node, ast.Call):
        given = node.args[0] if node.args else None
        on_module = (isinstance(given, ast.Name) and given.id in modules) or (
            isinstance(given, ast.Call) and _imports_a_command_module(given)
        )
        return on_module and not _harmless_lookup(node)  # `getattr(os, n)`, `vars(os)`
    return False


def _imports_a_command_module(call: ast.Call) -> bool:
    """`__import__("os")`, `importlib.import_module("subprocess")` in place."""
    return any(isinstance(a, ast.Constant) and a.value in _COMMAND_MODULES for a in call.args)


def _harmless_lookup(call: ast.Call) -> bool:
    """`getattr(os, "environ")`: a literal name that runs nothing."""
    if len(call.args) < 2 or not isinstance(call.func, ast.Name) or call.func.id != "getattr":
        return False
    name = _literal(call.args[1])
    return name is not None and name not in _ALL_RUNNERS and not _OS_PROGRAMS.fullmatch(name)


def _spread_line(call: ast.Call) -> str | None:
    """`create_subprocess_exec("docker", "run", ...)`: its words as one line."""
    words = [_word(arg) for arg in call.args]
    return shlex.join(w for w in words if w is not None) if None not in words else None


def _written_path(call: ast.Call) -> str | None:
    """The literal path `call` may write, else None: `open(P, MODE)` (also `io.`/`codecs.`, and
    `Path(P).open(MODE)`) with a mode that is not a literal read-only one,
    `Path(P).write_text(...)`/`write_bytes`, and the target of `shutil.copy*`/`move` or
    `os.rename`/`replace`."""
    func = call.func
    if isinstance(func, ast.Name):
        return _opened(call, call.args[:1], 1) if func.id == "open" else None
    if not isinstance(func, ast.Attribute):
        return None
    owner, attr = func.value, func.attr
    if isinstance(owner, ast.Name) and owner.id in _FILE_MODULES.get(attr, ()):
        if attr == "open":
            return _opened(call, call.args[:1], 1)
        return _literal(call.args[1]) if len(call.args) > 1 else None
    path = _path_of(owner)
    if path is None:
        return None
    if attr in _PATH_WRITERS:
        return _literal(path)
    return _opened(call, [path], 0) if attr == "open" else None


def _opened(call: ast.Call, path: list[ast.expr], mode_at: int) -> str | None:
    """The literal path an `open` call writes: any mode but a literal read-only one."""
    if not path:
        return None
    mode = call.args[mode_at] if len(call.args) > mode_at else None
    mode = next((k.value for k in call.keywords if k.arg == "mode"), mode)
    text = "r" if mode is None else _literal(mode)
    return _literal(path[0]) if text is None or _WRITE_MODES & set(text) else None


def _path_of(node: ast.expr) -> ast.expr | None:
    """P of `Path(P)` / `pathlib.Path(P)`, else None."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    named = node.func
    path_class = (isinstance(named, ast.Name) and named.id == "Path") or (
        isinstance(named, ast.Attribute) and named.attr == "Path"
    )
    return node.args[0] if path_class else None


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _imported_names(tree: ast.Module) -> dict[str, str]:
    """Names bound by `from os import system`, `from subprocess import run as r`: -> runner."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in _MODULES:
            if any(alias.name == "*" for alias in node.names):  # `from os import *`
                names.update({runner: runner for runner in _SHELL_RUNNERS | _ARGV_RUNNERS})
            for alias in node.names:
                if alias.name in _SHELL_RUNNERS | _ARGV_RUNNERS:
                    names[alias.asname or alias.name] = alias.name
    return names


def _subprocess_names(tree: ast.Module) -> set[str]:
    """The names the subprocess module is bound to (`import subprocess as sp`)."""
    names = {"subprocess"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.asname or a.name for a in node.names if a.name == "subprocess"}
    return names


def _called_name(func: ast.expr, imported: dict[str, str], modules: set[str]) -> str:
    """The runner a call names: `x.system(...)` on any object (`subprocess.run` on the module),
    or a name imported as one."""
    if isinstance(func, ast.Attribute):
        if func.attr == "spawn":  # `pty.spawn(ARGV)` (a method of that name elsewhere)
            on_pty = isinstance(func.value, ast.Name) and func.value.id == "pty"
            return "run" if on_pty else ""
        if func.attr in _COMMON_NAMES:
            on_module = isinstance(func.value, ast.Name) and func.value.id in modules
            return func.attr if on_module or _imports_subprocess(func.value) else ""
        return func.attr
    if isinstance(func, ast.Name):
        return imported.get(func.id, "")
    return ""


def _imports_subprocess(value: ast.expr) -> bool:
    """`__import__("subprocess")` or `importlib.import_module("subprocess")` in place."""
    return isinstance(value, ast.Call) and any(
        isinstance(a, ast.Constant) and a.value == "subprocess" for a in value.args
    )


def _command_line(call: ast.Call) -> str | None:
    """The call's command as shell text; "" when it gives none; None when known only at run
    time."""
    given = (
        call.args[0]
        if call.args
        else next((k.value for k in call.keywords if k.arg in ("args", "cmd", "command")), None)
    )
    if given is None:
        return ""
    if isinstance(given, ast.Constant) and isinstance(given.value, str):
        return given.value
    if isinstance(given, (ast.List, ast.Tuple)):
        words = [_word(e) for e in given.elts]
        return shlex.join(w for w in words if w is not None) if None not in words else None
    return None


def _word(element: ast.expr) -> str | None:
    """A literal word of an argument list; `sys.executable` is the Python running the program."""
    if isinstance(element, ast.Constant) and isinstance(element.value, str):
        return element.value
    if (
        isinstance(element, ast.Attribute)
        and element.attr == "executable"
        and isinstance(element.value, ast.Name)
        and element.value.id == "sys"
    ):
        return "python3"
    return None
