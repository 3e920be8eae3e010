"""A small bounded pool that sends independent reads ahead; one worker means in order, inline.

Only requests run in the pool. Every decision about what to read next, and every result, is
taken in the gathering thread in a fixed order, so the evidence cannot depend on which answer
arrived first: a run with one worker (inline, the order a plain sequential client would use)
and a run with many give the same evidence byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

# Twelve reads in flight at most: a typical verdict's widest stage fits in one round trip. That is
# stage 2 (master configs at base and head, the upstream PR and its files list with the task that
# then reads its recipe, the GraphQL edit history, the head's sweep run, its jobs and artifact
# list: ten workers for the demo), far below GitHub's limit of 100 concurrent requests. More
# workers would only add connections on a 2-core runner.
WORKERS = 12


class Pool:
    """`start(fn, ...)` runs fn now (one worker) or on a worker thread; `close()` waits for all."""

    def __init__(self, workers: int = WORKERS) -> None:
        self.workers = max(1, workers)
        self._executor: ThreadPoolExecutor | None = None

    def start(self, fn: Callable[..., T], *args: object) -> Future[T]:
        if self.workers == 1:
            return _run_inline(fn, *args)
        if self._executor is None:
            self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="signoff-read")
        return self._executor.submit(fn, *args)

    def close(self) -> None:
        """Wait until every read started has run (each is bounded by the client's timeout).

        Nothing is dropped, not even after a failure: one worker runs each read when it is
        started, so many workers must make the same requests for the runs to agree.
        """
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None


def _run_inline(fn: Callable[..., T], *args: object) -> Future[T]:
    future: Future[T] = Future()
    try:
        future.set_result(fn(*args))
    except Exception as exc:  # handed to whoever reads the result, as a worker would
        future.set_exception(exc)
    return future
