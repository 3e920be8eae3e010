"""The front-end differential harness (tests/bench/diff_shell_front_end.py) on tiny scripts.

The full run reads the InferenceX mirror and thousands of fuzz texts and stays out of CI; these
check that its three readers (bash, tree-sitter-bash, ours) and its tally work and still find
the divergences the full run reported.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("tree_sitter_bash")
if shutil.which("bash") is None:
    pytest.skip("no bash to compare against", allow_module_level=True)

HARNESS = Path(__file__).resolve().parents[1] / "bench" / "diff_shell_front_end.py"


def _harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location("diff_shell_front_end", HARNESS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _divergences(text: str, tmp_path: Path) -> dict[str, int]:
    harness = _harness()
    tally = harness.Tally()
    harness.compare("t.sh", text, str(tmp_path), tally)
    return {kind: n for kind, n in tally.counts.items() if kind.startswith("(")}


def test_a_script_all_three_read_alike_shows_no_divergence_and_bash_prints_its_functions(
    tmp_path: Path,
) -> None:
    text = (
        "start() {\n  A=1 vllm serve m --tp 8 | tee log &\n  [[ -n $X ]] && wait\n}\n"
        'case "$1" in a) start ;; *) echo "$(date)" ;; esac\n'
    )
    harness = _harness()
    printed = harness.bash_printed(text, str(tmp_path))
    assert printed is not None
    truth = harness.printed_reading(printed)
    assert truth.functions == [("start", 0, ["vllm", "tee", "[[", "wait"])]
    assert truth.names == ["vllm", "tee", "[[", "wait", "start", "echo"]
    assert _divergences(text, tmp_path) == {}


def test_a_stray_fi_is_rejected_by_bash_and_ours_but_tree_sitter_reads_it_as_a_command(
    tmp_path: Path,
) -> None:
    assert _divergences("echo a\nfi\n", tmp_path) == {
        "(a) tree-sitter accepts, bash does not (near `fi')": 1,
        "(c) ours and tree-sitter differ on accept/reject": 1,
    }


def test_an_assignment_continued_over_a_backslash_newline_is_one_word_to_bash_and_ours(
    tmp_path: Path,
) -> None:
    # InferenceX's 70b_fp8_b200_docker.sh builds a JSON flag this way; tree-sitter-bash ends
    # the assignment at the line break and runs the rest as a command, with no ERROR node.
    text = "F='{'\\\n'\"a\": 1}'\nvllm serve m --compilation-config \"$F\"\n"
    assert _divergences(text, tmp_path) == {
        "(b) tree-sitter: script command names differ from bash's": 1,
        "(c) ours and tree-sitter differ on command names": 1,
    }
