"""Which run-time command words judge/computed_command calls the script's own computation."""

from __future__ import annotations

from typing import Any

import pytest

from signoff.judge.computed_command import computed_command
from signoff.parse.benchmark.launch import ScriptFileRun, ScriptRun


class _NoFiles:
    """A context whose reading has no files to look for `read`/`mapfile` setters in."""

    def parsed_script(self, path: str) -> Any:
        return None


def _computed(word: str, rest: str = " --go") -> str:
    call = ScriptFileRun(command=word + rest, word=word, name="", line=1)
    return computed_command(_NoFiles(), ScriptRun(path="s.sh"), call)  # type: ignore[arg-type]


@pytest.mark.parametrize("word", ["$(cat /tmp/c)", "`cat /tmp/c`", "x$(echo y)", "$( (id) )"])
def test_a_command_word_holding_a_command_s_output_is_computed(word):
    assert _computed(word) == "the output of a command"


@pytest.mark.parametrize(
    "word",
    [
        "$(command -v python3)",  # the program found on PATH under that name
        "$(which python3)",
        # arithmetic is no command's output (a command line InferenceX's agentic scripts build)
        "${AIPERF_VENV:-/tmp/venv}/bin/aiperf profile --url http://localhost:$((PORT + 1))/m",
        "$RUNNER",
    ],
)
def test_a_path_lookup_arithmetic_or_a_plain_variable_is_not(word):
    assert _computed(word) == ""


def test_a_file_an_interpreter_runs_is_left_to_the_file_rules():
    call = ScriptFileRun(command="bash $(ls *.sh)", word="$(ls *.sh)", name="", line=1)
    assert computed_command(_NoFiles(), ScriptRun(path="s.sh"), call) == ""  # type: ignore[arg-type]
