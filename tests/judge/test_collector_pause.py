"""The judge pauses the cycle collector (signoff/collector) and leaves no cycle behind.

With the collector paused, a reference cycle would keep a whole verdict's caches alive until a
later full collection: a long audit would grow by a verdict's worth of memory per PR. The
context's script readers hold bound methods of it, a cycle `judge` breaks when it is done.
"""

from __future__ import annotations

import gc
import threading

import pytest
from builders import SCRIPT, SCRIPT_PATH, add_changed_file, build, passing_parts, replace_file

from signoff.collector import paused
from signoff.judge import judge
from signoff.policy import load_policy

LIB = "benchmarks/benchmark_lib.sh"
LIBRARY = '#!/usr/bin/env bash\nrun_it() {\n    echo "$1" >&2\n}\n'


def _sourcing_pr() -> dict:
    """A PR whose script sources a library it changes: the reader that follows `source`
    is built and cached, the path that made the cycle."""
    parts = passing_parts()
    add_changed_file(parts, LIB, LIBRARY + "# changed\n", base=LIBRARY)
    replace_file(parts, LIB, "base", LIBRARY)
    script = SCRIPT + 'source "$(dirname "$0")/../benchmark_lib.sh"\nrun_it done\n'
    add_changed_file(parts, SCRIPT_PATH, script, base=SCRIPT)
    return parts


def test_a_verdict_leaves_no_cyclic_garbage() -> None:
    evidence, policy = build(_sourcing_pr()), load_policy()
    gc.collect()
    before = len(gc.garbage)
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        judge(evidence, policy)
        found = gc.collect()
    finally:
        gc.set_debug(0)
        del gc.garbage[before:]
    assert found == 0


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_left_as_it_was(enabled: bool) -> None:
    evidence, policy = build(_sourcing_pr()), load_policy()
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        judge(evidence, policy)
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def test_a_pause_nests_and_survives_an_exception() -> None:
    assert gc.isenabled()
    with pytest.raises(RuntimeError), paused():
        with paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer pause still holds
        raise RuntimeError("a check crashed")
    assert gc.isenabled()


def test_pauses_overlapping_in_threads_resume_the_collector_once_all_close() -> None:
    """Thread A opens, B opens, A closes (B still inside: still paused), B closes: running."""
    steps = [threading.Event() for _ in range(4)]
    seen: list[bool] = []

    def first() -> None:
        with paused():
            steps[0].set()
            steps[1].wait(5)
        steps[2].set()

    def second() -> None:
        steps[0].wait(5)
        with paused():
            steps[1].set()
            steps[2].wait(5)
            seen.append(gc.isenabled())  # A has closed its pause by now
        steps[3].set()

    assert gc.isenabled()
    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert steps[3].is_set()
    assert seen == [False]
    assert gc.isenabled()
