"""Elements and slices are read as bash reads them: a subscript is arithmetic (a negative one
counts from the end), a string is element 0, and `${A[@]:START:LENGTH}` takes elements, not
characters. A reading that got one wrong would hide the words it gives a launch."""

from __future__ import annotations

import pytest

from signoff.parse.benchmark.script import evaluate, read_script


def _launch_words(text: str) -> list[tuple[str, str | None]]:
    run = evaluate(read_script(text + "\n", "s.sh"), {})
    assert run.complete, run.problems
    (launch,) = run.launches
    return [(arg.flag, arg.value) for arg in launch.args]


ARRAY = "A=(--kv x --hf-overrides y)\n"
FLAG = "F=--hf-overrides\n"


@pytest.mark.parametrize(
    "text",
    [
        FLAG + "vllm serve m ${F[1-1]} y",  # a string is element 0
        FLAG + "N=3\nvllm serve m ${F[N-3]} y",
        FLAG + "vllm serve m ${F[-1]} y",
        FLAG + 'vllm serve m "${F[@]:0:1}" y',
        FLAG + 'vllm serve m "${F[0]:-z}" y',
        ARRAY + 'vllm serve m "${A[@]:2:2}"',
        ARRAY + "vllm serve m ${A[@]:2}",
        ARRAY + "vllm serve m ${A[@]: -2}",
        ARRAY + 'I=2\nvllm serve m "${A[I]:-z}" y',
        ARRAY + 'vllm serve m "${A[-2]}" y',
        'declare -A M\nM[k]=--hf-overrides\nK=k\nvllm serve m "${M[$K]:-}" y',
        'declare -A M\nM[k]=--hf-overrides\nK=k\nvllm serve m "${M[$K]}" y',
        'set -- --kv x --hf-overrides y\nvllm serve m "${@:3}"',
        'set -- --kv x --hf-overrides y\nvllm serve m "${@: -2:2}"',
    ],
)
def test_an_element_or_slice_gives_the_words_bash_gives(text):
    assert ("--hf-overrides", "y") in _launch_words(text)


@pytest.mark.parametrize(
    "text",
    [
        FLAG + "vllm serve m --a ${F[1]:-b}",  # no element 1: the default
        ARRAY + 'vllm serve m "${A[@]:9}" --a b',  # past the end: nothing
        ARRAY + 'vllm serve m "${A[@]: -9}" --a b',
    ],
)
def test_an_element_or_slice_past_the_end_gives_nothing(text):
    assert ("--hf-overrides", "y") not in _launch_words(text)
    assert ("--a", "b") in _launch_words(text)


@pytest.mark.parametrize(
    "word",
    ["${F[$N]}", '"${A[@]:$N}"', '"${@:0}"', '"${A[@]:1:-1}"', '"${M[@]:1}"'],
)
def test_an_element_or_slice_with_a_run_time_bound_is_unknown(word):
    text = f"{FLAG}{ARRAY}mapfile -t M < /tmp/m\nset -- a b\nvllm serve m {word}"
    run = evaluate(read_script(text + "\n", "s.sh"), {})
    (launch,) = run.launches
    assert launch.opaque, launch.args


def test_a_subscript_s_assignment_happens():
    words = _launch_words("X=8\nY=${Z[X=2]}\nvllm serve m --tensor-parallel-size $X")
    assert ("--tensor-parallel-size", "2") in words
