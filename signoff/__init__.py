"""signoff: a deterministic CODEOWNER sign-off verifier for benchmark repositories."""

import importlib
import importlib.util
import sys
import threading
import types

__version__ = "0.1.0"


class _DeferredModule(types.ModuleType):
    """Stands in for a module until one of its names is read, then imports it and hands over.

    PyGithub's `github.Auth` imports PyJWT (and with it the `cryptography` chain) for GitHub App
    JWTs; signoff authenticates with a token only, so a run never reads a name of it, yet the
    import costs about a sixth of the start-up. (`importlib.util.LazyLoader` does not help: on
    Python 3.11 `import jwt` itself reads the module's `__spec__` and so loads it.)
    """

    _lock = threading.Lock()

    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        with self._lock:
            if sys.modules.get(self.__name__) is self:
                del sys.modules[self.__name__]
            real = importlib.import_module(self.__name__)
        return getattr(real, name)


def _defer(name: str) -> None:
    if name not in sys.modules and importlib.util.find_spec(name) is not None:
        sys.modules[name] = _DeferredModule(name)


_defer("jwt")
