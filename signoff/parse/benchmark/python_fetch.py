"""Whether an inline Python program downloads code and runs it (`exec(urlopen(URL).read())`).

A script's `python3 -c '...'` or a heredoc fed to `python3` is read with Python's own parser
(`ast`, never run). It counts when it can both reach the network and run code it did not carry:

- the network: it imports a module of `NETWORK` (`urllib`, `requests`, `httpx`, ...), or
  imports a module whose name is not a literal (`__import__(x)`, `importlib.import_module(x)`);
- running code: the builtins `exec`, `eval`, `compile` or `__import__`, a module of `RUNNERS`
  (`runpy`, `subprocess`, `importlib`, ...), or `os.system`, `os.popen`, `os.exec*`, `os.spawn*`.

Both in one program is what a fetch-and-run needs; either alone is ordinary (a health check
with `requests`, `importlib.metadata.version`). The URLs it names as literals are given back so
a verdict can name them (none: known only at run time). A program Python cannot parse is not
counted here: Python would not run it either.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache

from signoff.parse.benchmark.harness_program import MAX_PROGRAM
from signoff.parse.shell.python_imports import dynamic_import, imported, reaches_network
from signoff.parse.shell.scan import URL

RUNNERS = frozenset({"runpy", "subprocess", "importlib", "pty", "code", "codeop", "ctypes"})
_RUN_BUILTINS = frozenset({"exec", "eval", "compile", "__import__"})
_OS_RUNS = re.compile(r"system|popen|exec[lv]p?e?|spawn[lv]?p?e?|posix_spawnp?")
# a shell word known only at run time, as the reader writes it (`$X`, `${X:-}`, `$(cmd)`)
_RUN_TIME_WORD = re.compile(r"\$\{[^}]*\}|\$\([^)]*\)|\$[A-Za-z_][A-Za-z0-9_]*")
# a literal that names a file: a path, or a name with an extension (`/tmp/p.sh`, `run.py`)
_PATH = re.compile(r"[^\s]{0,4000}/[^\s/]{1,255}|[\w.-]{0,250}\w\.[A-Za-z0-9]{1,8}")
_WRITERS = frozenset({"urlretrieve", "write_bytes", "write_text", "copyfileobj", "hf_hub_download",
                      "snapshot_download", "download_file", "download"})  # fmt: skip


@lru_cache(maxsize=512)  # each reading of each check asks again: parse a program once
def downloads_to(body: str) -> tuple[tuple[str, ...], frozenset[str]] | None:
    """(the URLs it names, the base names of the files it names) when `body`, read as Python,
    may reach the network and write files (`urlretrieve`, `open(..., "w")`, `write_bytes`):
    a program of those names that runs later may be what it fetched. None otherwise."""
    tree = _parsed(body)
    if tree is None or not reaches_network(tree) or not _writes(tree):
        return None
    paths = [v for v in _strings_in(tree) if _PATH.fullmatch(v) and not URL.fullmatch(v)]
    return _literal_urls(tree), frozenset(path.rstrip("/").rsplit("/", 1)[-1] for path in paths)


@lru_cache(maxsize=512)
def fetches_and_runs(body: str) -> tuple[str, ...] | None:
    """The URLs `body` names when, read as Python, it may download code and run it; None when
    it does not (or is no Python). A program too long to read counts."""
    if len(body) > MAX_PROGRAM:
        return tuple(dict.fromkeys(URL.findall(body[:MAX_PROGRAM])))
    tree = _parsed(body)
    if tree is None or not reaches_network(tree) or not _runs_code(tree):
        return None
    return _literal_urls(tree)


def _parsed(body: str) -> ast.Module | None:
    """The program's tree. A program the shell builds with words known only at run time keeps
    them as written (`$X`, `${X}`, `$(cmd)`); when that text is no Python, it is read again
    without them (they may be empty when the job runs: `"$UNSET import ..."`)."""
    if len(body) > MAX_PROGRAM:
        return None
    for text in (body, _RUN_TIME_WORD.sub("", body).strip()):
        try:
            return ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
    return None


def _runs_code(tree: ast.Module) -> bool:
    """It may run code it does not carry: `exec`/`eval`/`compile`/`__import__`, a module of
    `RUNNERS`, `os.system` and kin, or a dynamic import."""
    if imported(tree) & RUNNERS:
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in _RUN_BUILTINS:
            return True
        elif isinstance(node, ast.Attribute) and _OS_RUNS.fullmatch(node.attr):
            if _on_os(node):
                return True
        elif isinstance(node, ast.Call) and dynamic_import(node):
            return True
    return False


def _strings_in(tree: ast.Module) -> list[str]:
    return [
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def _literal_urls(tree: ast.Module) -> tuple[str, ...]:
    return tuple(dict.fromkeys(url for value in _strings_in(tree) for url in URL.findall(value)))


def _writes(tree: ast.Module) -> bool:
    """It may write a file: `urlretrieve`, `write_bytes`/`write_text`, `copyfileobj`, or
    `open` with a mode that is not a literal read-only one."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if name in _WRITERS:
            return True
        if name == "open":
            mode = node.args[1] if len(node.args) > 1 else None
            mode = next((k.value for k in node.keywords if k.arg == "mode"), mode)
            if mode is not None and not (
                isinstance(mode, ast.Constant) and isinstance(mode.value, str)
                and not set(mode.value) & set("wax+")
            ):  # fmt: skip
                return True
    return False


def _on_os(node: ast.Attribute) -> bool:
    """`os.system(...)` and kin (`os` as imported, or `import os as o` read generously: any
    name before the attribute)."""
    return isinstance(node.value, ast.Name)
