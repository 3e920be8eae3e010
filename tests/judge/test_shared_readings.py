"""Readings shared by the contexts of one process (gathering's rounds, then the judge).

A reading is kept with its inputs and the changed files it looked up; a context whose inputs
and looked-up files are the same gets it back without evaluating, charged the same steps, and
the verdict is byte-identical to a cold one. A looked-up file found otherwise is another
reading.
"""

from __future__ import annotations

import pytest
from builders import SCRIPT, SCRIPT_PATH, add_changed_file, build, passing_parts

import signoff.judge.baseline as baseline_module
import signoff.judge.context as context_module
from signoff.judge import judge
from signoff.judge.context import JudgeContext
from signoff.judge.shared_readings import SharedReadings, clear_all
from signoff.standards import resolve_standard

LIB = "benchmarks/benchmark_lib.sh"


@pytest.fixture
def evaluations(monkeypatch) -> list[str]:
    """The path of every script actually evaluated (not served from the shared readings)."""
    made: list[str] = []
    for module in (context_module, baseline_module):
        real = module.evaluate_counted

        def counted(script, *args, _real=real, **kwargs):
            made.append(script.path)
            return _real(script, *args, **kwargs)

        monkeypatch.setattr(module, "evaluate_counted", counted)
    real_unbound = context_module.read_unbound

    def unbound(script, *args, **kwargs):
        made.append(script.path)
        return real_unbound(script, *args, **kwargs)

    monkeypatch.setattr(context_module, "read_unbound", unbound)
    return made


def _sourcing(library: str) -> dict:
    parts = passing_parts()
    add_changed_file(
        parts, SCRIPT_PATH, SCRIPT + 'source "$(dirname "$0")/../../benchmark_lib.sh"\n'
    )
    add_changed_file(parts, LIB, library)
    return parts


def test_a_second_context_reuses_every_reading_and_judges_byte_identically(policy, evaluations):
    evidence = build(_sourcing("tune() { :; }\n"))
    standard = resolve_standard("current", policy)
    cold = judge(evidence, policy, standard).model_dump_json()
    made = len(evaluations)
    assert made > 0
    warm = judge(evidence, policy, standard).model_dump_json()
    assert warm == cold
    assert len(evaluations) == made  # nothing read again


def test_a_looked_up_file_found_otherwise_is_read_again(policy, evaluations):
    standard = resolve_standard("current", policy)
    first = build(_sourcing("tune() { :; }\n"))
    judge(first, policy, standard)
    made = len(evaluations)
    evil = 'vllm() { docker run --rm evil/vllm:patched vllm "$@"; }\n'
    second = build(_sourcing(evil))
    shared = judge(second, policy, standard).model_dump_json()
    assert SCRIPT_PATH in evaluations[made:]  # the script sources the library: read anew
    clear_all()
    assert judge(second, policy, standard).model_dump_json() == shared  # as a cold judge


def test_a_file_no_reading_looked_up_does_not_keep_a_reading_from_being_shared(policy):
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, SCRIPT)
    add_changed_file(parts, "docs/notes.md", "one\n")
    path = SCRIPT_PATH
    first = JudgeContext(build(parts), policy)
    run = first.script_runs_for_path(path)
    add_changed_file(parts, "docs/notes.md", "two\n")
    second = JudgeContext(build(parts), policy)
    assert second.script_runs_for_path(path) == run
    assert second._steps_left == first._steps_left  # charged as if read


def test_shared_readings_keep_the_most_recent_inputs_and_variants():
    store: SharedReadings[str] = SharedReadings(size=2)
    found = {"a.sh": "1"}
    store.put("k1", (("a.sh", "1"),), "one")
    assert store.get("k1", found.get) == "one"
    found["a.sh"] = "2"
    assert store.get("k1", found.get) is None  # the file it looked up is found otherwise
    store.put("k1", (("a.sh", "2"),), "two")
    assert store.get("k1", found.get) == "two"
    found["a.sh"] = "1"
    assert store.get("k1", found.get) == "one"  # both variants kept
    store.put("k2", (), "x")
    store.put("k3", (), "y")  # over the size: the least recently used input goes
    assert store.get("k1", found.get) is None
    assert store.get("k3", found.get) == "y"
