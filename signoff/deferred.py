"""Modules of our dependencies that a token-only run never uses are imported on first use.

Installed by `signoff/__init__.py`, before anything imports PyGithub or requests:

- PyJWT: PyGithub's `github.Auth` imports it (and with it the `cryptography` chain) for GitHub
  App JWTs; signoff authenticates with a token only. (`importlib.util.LazyLoader` does not help:
  on Python 3.11 `import jwt` itself reads the module's `__spec__` and so loads it.)
- PyGithub's package `__init__`: it imports `Auth` and `Github`, and with them PyGithub's whole
  object model (repositories, users, teams, ...: some 220 modules, 6% of a verdict's CPU).
  signoff talks to GitHub through `github.Requester` only, so the package's submodules import
  as usual while its own `__init__` waits until a name only it defines is read (`from github
  import Github` in a test, say); then it runs, in the same module object.
- charset_normalizer's package `__init__` (its encoding detector), the same way.

`tests/cli/test_startup.py` runs a published verification and checks none of them was loaded.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import sys
import threading
import types
from importlib.machinery import ModuleSpec
from typing import Any

_lock = threading.RLock()


class _DeferredModule(types.ModuleType):
    """Stands in for a module until one of its names is read, then imports it and hands over."""

    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        with _lock:
            if sys.modules.get(self.__name__) is self:
                del sys.modules[self.__name__]
            real = importlib.import_module(self.__name__)
        return getattr(real, name)


class _PackageAwaitingInit(types.ModuleType):
    """A package whose submodules import as usual and whose `__init__` runs on first need.

    Reading a name the package does not have yet runs it. So does reading a submodule bound on
    it: a name both a submodule and the `__init__` define (`github.GithubException`, the module
    and the class) is read as the `__init__` binds it. Only the package's own modules, as they
    are imported, read it as they would while a normal `__init__` runs (the submodule, or
    nothing yet).
    """

    def __getattribute__(self, name: str) -> Any:
        value = types.ModuleType.__getattribute__(self, name)
        if (
            isinstance(value, types.ModuleType)
            and value.__name__ == f"{_own(self, '__name__')}.{name}"
            and not _own(self, "_initialised")
            and not _own(self, "_running_here")()
            and not _own(self, "_sibling_importing")()
        ):
            _own(self, "_run_init")()
            value = types.ModuleType.__getattribute__(self, name)
        return value

    def __getattr__(self, name: str) -> object:
        if name.startswith("__") or self._initialised or self._running_here():
            raise AttributeError(name)  # as a package reads while its `__init__` runs
        if self._sibling_importing():
            raise AttributeError(name)  # `from . import X`: the import system then imports X
        self._run_init()
        return types.ModuleType.__getattribute__(self, name)

    _initialised = False
    _logger_set_up = False  # the `__init__`'s own logger set-up was done when it was deferred

    def _sibling_importing(self) -> bool:
        """Whether the reader is one of the package's modules as it is imported (its top level,
        directly or through the import system's `from . import X`)."""
        frame: types.FrameType | None = sys._getframe(2)
        while frame is not None and frame.f_code.co_filename.startswith("<frozen importlib"):
            frame = frame.f_back
        return (
            frame is not None
            and frame.f_code.co_name == "<module>"
            and str(frame.f_globals.get("__name__", "")).startswith(f"{self.__name__}.")
        )

    def _running_here(self) -> bool:
        return self.__dict__.get("_init_thread") == threading.get_ident()

    def _run_init(self) -> None:
        with _lock:
            if self._initialised:
                return
            spec = self.__spec__
            assert spec is not None and spec.loader is not None
            logger = logging.getLogger(self.__name__)
            level, handlers = logger.level, list(logger.handlers)
            self._init_thread = threading.get_ident()
            try:
                spec.loader.exec_module(self)
            finally:
                del self._init_thread
                if self._logger_set_up:  # done when deferring (and maybe changed since)
                    logger.setLevel(level)
                    for handler in [h for h in logger.handlers if h not in handlers]:
                        logger.removeHandler(handler)
            self._initialised = True


def _own(module: types.ModuleType, name: str) -> Any:
    return types.ModuleType.__getattribute__(module, name)


def defer_module(name: str) -> None:
    """`name` is imported when one of its names is first read."""
    if name not in sys.modules and importlib.util.find_spec(name) is not None:
        sys.modules[name] = _DeferredModule(name)


def defer_pygithub_init() -> None:
    """PyGithub's package `__init__` runs when a name only it defines is first read.

    What it does at once that a run can notice is done here now instead: its `github` logger
    at INFO with a stderr handler (signoff's client lowers it to WARNING).
    """
    if _defer_package_init("github") is not None:
        logger = logging.getLogger("github")
        logger.setLevel(logging.INFO)
        logger.addHandler(logging.StreamHandler())
        types.ModuleType.__setattr__(sys.modules["github"], "_logger_set_up", True)


def defer_charset_normalizer_init() -> None:
    """charset_normalizer's package `__init__` (its detector) runs on first use.

    requests imports it at once to guess the encoding of an answer that names none, and reads
    its `__version__` to check compatibility; GitHub's JSON answers name theirs (and zips are
    read as bytes), so a run never guesses. The version is bound now, from the same submodule
    the `__init__` takes it from.
    """
    package = _defer_package_init("charset_normalizer")
    if package is not None:
        version = importlib.import_module("charset_normalizer.version")
        for name in ("__version__", "VERSION"):
            types.ModuleType.__setattr__(package, name, getattr(version, name))


def _defer_package_init(name: str) -> types.ModuleType | None:
    if name in sys.modules:
        return None
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return None
    package = _PackageAwaitingInit(name)
    _describe(package, spec)
    sys.modules[name] = package
    return package


def _describe(module: types.ModuleType, spec: ModuleSpec) -> None:
    """The attributes the import system gives a package before running its `__init__`."""
    for key, value in (
        ("__spec__", spec),
        ("__loader__", spec.loader),
        ("__package__", spec.name),
        ("__path__", list(spec.submodule_search_locations or ())),
        ("__file__", spec.origin),
        ("__cached__", spec.cached),
    ):
        types.ModuleType.__setattr__(module, key, value)
