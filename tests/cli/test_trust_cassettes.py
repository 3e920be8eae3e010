"""Each false-PASS class of issue 14 replays end to end from its cassette: REJECTED, a
`failure` status, and the failing check names what the PR changed."""

from __future__ import annotations

import pytest
from cassette_helpers import replay_verify

REPO = "SemiAnalysisAI/InferenceX"


@pytest.mark.parametrize(
    ("name", "checks", "failing", "evidence"),
    [
        # a sourced library the PR changes runs as the script runs it
        (
            "fail_library_chat_template",
            [8],
            8,
            "calls benchmark_serving.py without --use-chat-template",
        ),
        # a file a launch reads: a --config YAML's keys are flags
        ("fail_launch_config_override", [7], 7, "--hf-overrides"),
        # a command name re-pointed at a file the PR adds runs that file
        (
            "fail_repointed_launcher",
            [7, 8],
            7,
            "which this PR adds (`benchmarks/single_node/bin/vllm`)",
        ),
        # a variable a builtin sets by name (`printf -v`) holds what bash gives it
        ("fail_builtin_assigned_override", [7], 7, "--hf-overrides"),
        # a slice of an array takes elements (`${A[@]: -1}`)
        ("fail_sliced_override", [7], 7, "--hf-overrides"),
        # Python imports from its first path entry before the standard library
        (
            "fail_python_first_entry",
            [7, 8],
            7,
            "whose first import path entry is the checkout's root, holding `json.py`",
        ),
        # a launcher runs the Python program file it is handed
        (
            "fail_launched_program",
            [7, 8],
            7,
            "which this PR adds (`benchmarks/single_node/fixed_seq_len/warmup.py`)",
        ),
        # an environment runner (`uv run`) starts the command it is handed
        (
            "fail_environment_runner",
            [7, 8],
            7,
            "which this PR adds (`benchmarks/single_node/fixed_seq_len/warmup.py`)",
        ),
        # a program signoff has no rule for (a profiler) runs the command it is handed
        (
            "fail_profiled_program",
            [7, 8],
            7,
            "which this PR adds (`benchmarks/single_node/fixed_seq_len/warmup.py`)",
        ),
        # an inline program imports by dotted name from its first path entry
        (
            "fail_inline_import",
            [7, 8],
            7,
            "holding `benchmarks/single_node/fixed_seq_len/warmup.py`, which this PR adds",
        ),
        # a copy of a program the PR adds, run by its name from PATH
        (
            "fail_copy_run_by_name",
            [7, 8],
            7,
            "which this PR adds (`benchmarks/single_node/fixed_seq_len/warmup.py`)",
        ),
        # an inline program's import path entry, handed as its argument
        (
            "fail_import_path",
            [7, 8],
            7,
            "holding `benchmarks/single_node/fixed_seq_len/warmup.py`, which this PR adds",
        ),
        # flock's first operand is its lock file; the command behind it runs
        (
            "fail_wrapped_by_flock",
            [7, 8],
            7,
            "which this PR adds (`benchmarks/single_node/fixed_seq_len/warmup.py`)",
        ),
        # a directory a later install takes packages from, named by a variable
        (
            "fail_package_source",
            [7, 8],
            7,
            "from which a later install builds or takes packages",
        ),
        # a cache directory the engine loads the model's config from
        (
            "fail_model_cache",
            [7, 8],
            7,
            "from which the engine and its libraries load models",
        ),
        # a compiler or tool the engine's kernel builds run, named by a variable
        (
            "fail_kernel_toolchain",
            [7, 8],
            7,
            "from which the engine's just-in-time kernel builds (Triton, torch extensions, "
            "DeepGEMM, FlashInfer) run compilers and tools",
        ),
        # a program inside a submodule the PR points at another commit
        (
            "fail_moved_submodule",
            [7, 8],
            7,
            "inside `utils/trace-replay`, a submodule this PR points at commit `111111111111`",
        ),
        # a recipe's worker environment naming a checkout directory the PR writes (E8):
        # engine-patches reads the assignment, the architecture check the path it names
        ("fail_recipe_environment", [8, 10], 10, "disagg-mtp.yaml:5 sets `PYTHONPATH="),
        # a setting a multi-node entry adds that the sweep step exports (BASH_ENV)
        (
            "fail_master_exported_setting",
            [7],
            7,
            "runs `BASH_ENV=tools/sweep-env.sh`, which this PR adds",
        ),
        # an override a PR adds to a multi-node recipe's server settings
        ("fail_recipe_override", [7], 7, "disagg-mtp.yaml (added line) json-model-override-args"),
        # a GPU runtime's tool hook, loaded into the engine
        (
            "fail_gpu_tool_hook",
            [7, 8],
            7,
            "which has every CUDA or ROCm program started later (the engine too) load native code",
        ),
        # a Perl, Ruby or Node.js module path, or an option variable's -I directory
        (
            "fail_interpreter_module",
            [7, 8],
            7,
            "from which every Perl, Ruby or Node.js program started later loads modules",
        ),
        # a logging configuration vLLM hands dictConfig, by variable
        ("fail_logging_config", [7, 8], 7, "which this PR adds"),
        # a model fetched from another hub than Hugging Face's
        ("fail_model_hub", [3, 7, 8], 7, "signoff cannot tell it is the same model"),
        # the checkout where the launchers' containers mount it
        (
            "fail_mounted_checkout_install",
            [7, 8],
            7,
            "which this PR adds; signoff does not read what a package's build runs",
        ),
        # a changelog metadata line is ignored only in the changelog
        ("sweep_older_metadata_line", [1, 2], 1, "changed after the swept commit"),
    ],
)
def test_a_false_pass_class_is_rejected_with_a_failure_status(
    name: str, checks: list[int], failing: int, evidence: str
) -> None:
    replayed = replay_verify(name)
    assert replayed.all_played
    assert replayed.outcome.result == "REJECTED"
    verdict = replayed.outcome.verdict
    assert verdict is not None
    assert [check.number for check in verdict.failures] == checks
    reason = next(check.reason for check in verdict.failures if check.number == failing)
    assert evidence in reason
    (comment, status) = replayed.writes
    head = replayed.outcome.head_sha
    assert comment[:2] == ("POST", f"/repos/{REPO}/issues/2700/comments")
    assert status[:2] == ("POST", f"/repos/{REPO}/statuses/{head}")
    assert status[2]["state"] == "failure"
