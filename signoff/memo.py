"""Results kept by the identity of the object they were computed from.

Readings are shared by every context of a process (judge/shared_readings.py): gathering's
rounds and the judge get the same `ScriptRun` objects back, and a few views of a run (the key
that groups equal readings, the commands it runs by plain name) were computed again for every
context. Hashing a run by value costs what the view costs, so these are kept by `id()`, with the
object itself held beside the value: while it is kept, no other object can take its id.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import Generic, TypeVar

_V = TypeVar("_V")
_ALL: list[ByIdentity[object]] = []


class ByIdentity(Generic[_V]):
    """Values by the object they belong to (least recently used dropped past `size`)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[int, tuple[object, _V]] = OrderedDict()
        self._lock = Lock()  # `audit --jobs N` judges PRs on several threads
        _ALL.append(self)  # type: ignore[arg-type]

    def get(self, owner: object) -> _V | None:
        with self._lock:
            found = self._kept.get(id(owner))
            if found is None or found[0] is not owner:
                return None
            self._kept.move_to_end(id(owner))
            return found[1]

    def put(self, owner: object, value: _V) -> None:
        with self._lock:
            self._kept[id(owner)] = (owner, value)
            self._kept.move_to_end(id(owner))
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def cache_clear(self) -> None:
        with self._lock:
            self._kept.clear()


def clear_identity_memos() -> None:
    """Forget every value kept by identity (a new process's start)."""
    for memo in _ALL:
        memo.cache_clear()
