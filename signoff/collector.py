"""Pausing Python's cycle collector around work that makes many short-lived objects.

Parsed scripts, readings, YAML node graphs and a verdict's caches are acyclic: reference
counting frees them. The cycle collector finds nothing in them, yet each collection their
allocations trigger walks every live object again, the evidence and the caches included: about
a fifth of a mass edit's verdict, and more of a YAML compose. Pauses nest and may overlap
across threads (the audit judges in several): the collector rests while any pause is open and
comes back, if it ran before the first one, when the last one closes.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_open = 0  # pauses open, in every thread
_resume = False  # whether the collector ran when the first of them opened


@contextmanager
def paused() -> Iterator[None]:
    """No automatic cycle collection inside; as before once every pause has closed."""
    global _open, _resume
    with _lock:
        if _open == 0:
            _resume = gc.isenabled()
            gc.disable()
        _open += 1
    try:
        yield
    finally:
        with _lock:
            _open -= 1
            if _open == 0 and _resume:
                gc.enable()
