"""A small bounded pool that sends independent reads ahead; one worker means in order, inline.

Only requests run in the pool. Every decision about what to read next, and every result, is
taken in the gathering thread in a fixed order, so the evidence cannot depend on which answer
arrived first: a run with one worker (inline, the order a plain sequential client would use)
and a run with many give the same evidence byte for byte.

The worker threads are the process's, shared by every `Pool` of the same size: each thread keeps
its own requester (`signoff.github.client.Client`) and so its own open connection to GitHub, and the
reads made before writing, after gathering, reuse the connections gathering opened instead of
opening (TLS: two round trips each) new ones. A `Pool` waits only for the reads it started.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any, TypeVar

T = TypeVar("T")

# Forty-eight reads in flight at most. A typical verdict's widest stage is about ten reads (stage
# 2: the master configs, scripts and the sign-off's edit history in one GraphQL query, the
# upstream PR and its files list with the task that then reads its recipe, the head's sweep
# run, its jobs and artifact list), but a PR at GitHub's list caps names some 45 reads at once
# (30 pages of files, 3 of commits, 10 of comments, the first GraphQL query, the token's user)
# and 13 again right before writing: with twelve, those took four rounds and two, with 32 the
# first list took two. Below GitHub's limit of 100 concurrent requests; the threads start only
# as reads need them.
WORKERS = 48

_EXECUTORS: dict[int, ThreadPoolExecutor] = {}
_EXECUTORS_LOCK = threading.Lock()


class Pool:
    """`start(fn, ...)` runs fn now (one worker) or on a worker thread; `close()` waits for all."""

    def __init__(self, workers: int = WORKERS) -> None:
        self.workers = max(1, workers)
        self._started: list[Future[Any]] = []

    def start(self, fn: Callable[..., T], *args: object) -> Future[T]:
        if self.workers == 1:
            return _run_inline(fn, *args)
        future = _executor(self.workers).submit(fn, *args)
        self._started.append(future)
        return future

    def close(self) -> None:
        """Wait until every read started has run (each is bounded by the client's timeout).

        Nothing is dropped, not even after a failure: one worker runs each read when it is
        started, so many workers must make the same requests for the runs to agree.
        """
        wait(self._started)
        self._started.clear()


def _executor(workers: int) -> ThreadPoolExecutor:
    """The process's worker threads for pools of this size (started on first use)."""
    with _EXECUTORS_LOCK:
        if workers not in _EXECUTORS:
            _EXECUTORS[workers] = ThreadPoolExecutor(workers, thread_name_prefix="signoff-read")
        return _EXECUTORS[workers]


def _run_inline(fn: Callable[..., T], *args: object) -> Future[T]:
    future: Future[T] = Future()
    try:
        future.set_result(fn(*args))
    except Exception as exc:  # handed to whoever reads the result, as a worker would
        future.set_exception(exc)
    return future
