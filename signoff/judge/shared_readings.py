"""Script readings shared by the contexts of one process.

Gathering asks the checks what to read next several times, each time through a new context
(signoff/judge/reading.py), and the judge then builds its own: a mass edit's scripts were read
once per round and once more to judge (InferenceX #1947: six rounds of ~10 s before a 10 s
verdict). A reading is a pure function of what it is given: the script's text and path, the
bound environment, job and hooks, the step budget, the profile's names, the files the PR
changed, and the text (or why there is none) of each changed file the reading looked up
through `source` or a launch. Kept with the files it looked up, one reading serves every
context whose inputs and looked-up files are the same; the steps it cost are charged to each
as if it had read it, so every bound holds as before and the verdict stays byte-identical.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock
from typing import Generic, Protocol, TypeVar

from signoff.memo import clear_identity_memos

_V = TypeVar("_V")
_C = TypeVar("_C", bound="Clearable")
_KEPT: list[Clearable] = []  # every process-wide store of readings, parses and configs

# Inputs kept at once: a mass edit's rounds ask for a few hundred readings of a few ten KB.
MAX_READINGS = 1024
# Readings kept for one set of inputs, told apart by the files they looked up.
MAX_VARIANTS = 4

Looked = tuple[tuple[str, Hashable], ...]  # each file looked up, with what was found


class Clearable(Protocol):
    def cache_clear(self) -> None: ...


def kept(store: _C) -> _C:
    """`store` is one of the process's shared stores (`clear_all` empties it)."""
    _KEPT.append(store)
    return store


def clear_all() -> None:
    """Forget every shared reading, parse and config, as a new process would start (the
    history replay judges each PR cold, as `verify` does)."""
    for store in _KEPT:
        store.cache_clear()
    clear_identity_memos()


class SharedReadings(Generic[_V]):
    """Readings by their inputs and the files they looked up (least recently used dropped)."""

    def __init__(self, size: int = MAX_READINGS) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, list[tuple[Looked, _V]]] = OrderedDict()
        self._lock = Lock()  # `audit --jobs N` judges PRs on several threads
        kept(self)

    def get(self, key: Hashable, now: Callable[[str], Hashable]) -> _V | None:
        """The reading of `key` whose looked-up files are all found the same `now`."""
        with self._lock:
            variants = list(self._kept.get(key, ()))
            if variants:
                self._kept.move_to_end(key)
        for looked, value in variants:
            if all(now(path) == found for path, found in looked):
                return value
        return None

    def put(self, key: Hashable, looked: Looked, value: _V) -> None:
        with self._lock:
            variants = [(looked, value), *self._kept.get(key, ())][:MAX_VARIANTS]
            self._kept[key] = variants
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def cache_clear(self) -> None:
        with self._lock:
            self._kept.clear()
