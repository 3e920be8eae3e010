"""Per-check failures of Checks 0-8: each breaks exactly one rule of the PASS scenario."""

from __future__ import annotations

import copy
from typing import Any

from ..scenario import AGG_ROWS, RECIPE_DOC, REPO, check_runs, set_recipe, skipped_runs
from .common import (
    SCRIPT_PATH,
    _edit_pr_file,
    _edit_signoff,
    _pull,
    _select_in_changelog,
    pass_conversation,
)
from .eras import _main_files


def fail_codeowner(data: dict[str, Any]) -> str:
    """0: an AMD owner (listed only on configs/amd-master.yaml) signs an nvidia-master change."""
    data["users"]["chunfangamd"] = {"name": "Chunfang AMD"}
    data["repos"][REPO]["collaborators"]["chunfangamd"] = "maintain"
    comment = _pull(data)["comments"][-1]
    comment["user"], comment["author_association"] = "chunfangamd", "COLLABORATOR"
    _edit_signoff(data, "Signed: `kedarpotdar-nv`", "Signed: `chunfangamd`")
    return pass_conversation(data)


def fail_sweep(data: dict[str, Any]) -> str:
    """1: the eval jobs were skipped on every commit of the PR (benchmarks ran)."""
    repo = data["repos"][REPO]
    runs = [
        {**item, "conclusion": "skipped"} if item["name"].startswith("eval /") else item
        for item in check_runs(15000002701)
    ]
    repo["check_runs"]["p2"] = runs
    repo["check_runs"]["p1"] = [
        {**item, "id": item["id"] + 50} for item in skipped_runs(15000002700)
    ]
    return pass_conversation(data)


def fail_evals(data: dict[str, Any]) -> str:
    """2: gsm8k 0.905 at conc 64, below the dsv4 bar of 0.91."""
    rows = copy.deepcopy(AGG_ROWS)
    rows[1].update(em_strict=0.905, em_flexible=0.912, score=0.905)
    data["repos"][REPO]["workflow_runs"][0]["artifacts"][0]["files"]["agg_eval_all.json"] = rows
    return pass_conversation(data)


def fail_recipe(data: dict[str, Any]) -> str:
    """3: the linked upstream recipe PR vllm-project/recipes#412 is still open."""
    recipe = data["repos"]["vllm-project/recipes"]["pulls"][0]
    for key in ("merged", "merged_at"):
        recipe.pop(key, None)
    recipe["state"] = "open"
    _edit_signoff(data, "recipes/pull/412 (merged)", "recipes/pull/412")
    return pass_conversation(data)


def recipe_args_in_context(data: dict[str, Any]) -> str:
    """3: the upstream PR edited an existing page: it only added the MTP line, so TP and the
    kv-cache dtype sit in unchanged context lines of its patch; the merged file has them."""
    recipe = data["repos"]["vllm-project/recipes"]["pulls"][0]
    recipe["files"][0]["patch"] = (
        "@@ -16,6 +16,7 @@ ### FP4 with MTP\n"
        " ```bash\n"
        " vllm serve deepseek-ai/DeepSeek-V4-Pro \\\n"
        "   --tensor-parallel-size 8 \\\n"
        "-  --kv-cache-dtype fp8\n"
        "+  --kv-cache-dtype fp8 \\\n"
        '+  --speculative-config \'{"method": "mtp", "num_speculative_tokens": 3}\'\n'
        " ```\n"
    )
    return pass_conversation(data)


def fail_recipe_missing_arg(data: dict[str, Any]) -> str:
    """3: the merged recipe really lacks a major arg of the launch (`--kv-cache-dtype fp8`)."""
    text = RECIPE_DOC.replace("  --kv-cache-dtype fp8 \\\n", "").replace(
        " --kv-cache-dtype fp8", ""
    )
    assert "kv-cache-dtype" not in text
    set_recipe(data, text)
    return pass_conversation(data)


def fail_reuse_command(data: dict[str, Any]) -> str:
    """4: nobody posted /reuse-sweep-run."""
    comments = _pull(data)["comments"]
    comments[:] = [c for c in comments if not str(c["body"]).startswith("/reuse-sweep-run")]
    return pass_conversation(data)


def fail_latest_template(data: dict[str, Any]) -> str:
    """5: the sign-off lacks the APPEND_ONLY item (entries marked append-only: true)."""
    comment = _pull(data)["comments"][-1]
    lines = comment["body"].split("\n")
    kept = [line for line in lines if "append-only: true" not in line]
    assert len(kept) == len(lines) - 1
    comment["body"] = "\n".join(kept)
    return pass_conversation(data)


# The PR's new entry from its image to its first search-space point (one place in the file).
_NEW_ENTRY_TAIL = (
    "image: $IMAGE\n  model: deepseek-ai/DeepSeek-V4-Pro\n"
    "  model-prefix: dsv4\n  precision: fp4\n  framework: vllm\n  runner: b200-dsv4\n"
    "  multinode: false\n  scenarios:\n    fixed-seq-len:\n      - isl: 8192\n"
    "        osl: 1024\n        search-space:\n          - {tp: 8, ep: 1, spec"
)


def fail_upstream_image(data: dict[str, Any]) -> str:
    """6: a vllm entry on b200 runs rocm/vllm-dev instead of a vllm/ image."""
    _edit_pr_file(
        data,
        "configs/nvidia-master.yaml",
        _NEW_ENTRY_TAIL.replace("$IMAGE", "vllm/vllm-openai:v0.11.2"),
        _NEW_ENTRY_TAIL.replace("$IMAGE", "rocm/vllm-dev:nightly"),
    )
    return pass_conversation(data)


def fail_image_reference(data: dict[str, Any]) -> str:
    """6: the vllm entry's image starts with the vllm/ org but carries a second word, which the
    runner's container tool would read as another argument (`--container-image=...`)."""
    _edit_pr_file(
        data,
        "configs/nvidia-master.yaml",
        _NEW_ENTRY_TAIL.replace("$IMAGE", "vllm/vllm-openai:v0.11.2"),
        _NEW_ENTRY_TAIL.replace(
            "$IMAGE", "vllm/vllm-openai:v0.11.2 --container-image=evilorg/vllm-openai"
        ),
    )
    return pass_conversation(data)


def fail_no_arch_hacks(data: dict[str, Any]) -> str:
    """7: the script passes --hf-overrides to the server."""
    return _override_through(data, "", "--hf-overrides")


_SOURCE_LINE = 'source "$(dirname "$0")/../../benchmark_lib.sh"\n'
_LAUNCH_LINE = "--kv-cache-dtype fp8 \\\n"


def _override_through(data: dict[str, Any], setup: str, word: str) -> str:
    """The script runs `setup` right after it sources the library, and its launch passes
    `word` before an override's JSON."""
    if setup:
        _edit_pr_file(data, SCRIPT_PATH, _SOURCE_LINE, _SOURCE_LINE + setup)
    override = f"  {word} '{{\"num_hidden_layers\": 40}}' \\\n"
    _edit_pr_file(data, SCRIPT_PATH, _LAUNCH_LINE, _LAUNCH_LINE + override)
    return pass_conversation(data)


def fail_spec_chat_template(data: dict[str, Any]) -> str:
    """8: the MTP script benchmarks without --use-chat-template."""
    _edit_pr_file(
        data, SCRIPT_PATH, ' \\\n  --conc "$CONC" --use-chat-template\n', ' \\\n  --conc "$CONC"\n'
    )
    return pass_conversation(data)


HELPER_PATH = "benchmarks/single_node/helper.sh"
# The benchmark call a PR would rather not show: no --use-chat-template.
HELPER_SCRIPT = """\
#!/usr/bin/env bash
# Shared client invocation for the MTP recipes.
run_benchmark_serving --model "$MODEL" --port "$PORT" --isl "$ISL" --osl "$OSL" --conc "$CONC"
"""


def fail_spec_subscript(data: dict[str, Any]) -> str:
    """8: the recipe's own call is clean; a helper the PR adds, run by file, holds the flagless
    one (signoff does not read scripts run by file)."""
    _edit_pr_file(
        data,
        SCRIPT_PATH,
        'run_benchmark_serving --model "$MODEL" --port "$PORT" --isl "$ISL" --osl "$OSL" \\\n'
        '  --conc "$CONC" --use-chat-template\n',
        'run_benchmark_serving --model "$MODEL" --port "$PORT" --isl "$ISL" --osl "$OSL" \\\n'
        '  --conc "$CONC" --use-chat-template\n'
        f"bash {HELPER_PATH}\n",
    )
    _pull(data)["commits"][0]["files"][HELPER_PATH] = HELPER_SCRIPT
    return pass_conversation(data)


# The shared library on main, as the scenario's script calls it (a benchmark-client function
# that forwards its flags to the benchmark program).
LIBRARY_PATH = "benchmarks/benchmark_lib.sh"
LIBRARY = """#!/usr/bin/env bash
export PORT="${PORT:-8888}"

wait_for_server_ready() {
    sleep 5
}

run_benchmark_serving() {
    local chat=false args=()
    while [[ $# -gt 0 ]]; do
        case $1 in
            --use-chat-template) chat=true; shift ;;
            *) args+=("$1" "$2"); shift 2 ;;
        esac
    done
    local cmd=(python3 utils/bench_serving/benchmark_serving.py "${args[@]}")
    if [[ "$chat" == true ]]; then
        cmd+=(--use-chat-template)
    fi
    "${cmd[@]}"
}
"""


def fail_library_chat_template(data: dict[str, Any]) -> str:
    """8: the script asks for the chat template; the PR also changes the shared library so
    that the benchmark client never passes it on (the library is code the sweep runs)."""
    _main_files(data)[LIBRARY_PATH] = LIBRARY
    dropped = LIBRARY.replace("cmd+=(--use-chat-template)", "cmd+=()")
    _pull(data)["commits"][0]["files"][LIBRARY_PATH] = dropped
    return pass_conversation(data)


FAKE_LAUNCHER_PATH = "benchmarks/single_node/bin/vllm"
FAKE_LAUNCHER = """#!/usr/bin/env bash
exec /usr/local/bin/vllm "$@" --hf-overrides '{"num_hidden_layers": 30}'
"""


def fail_repointed_launcher(data: dict[str, Any]) -> str:
    """7, 8: the script puts a directory of the PR's on PATH, where the PR adds a file named
    `vllm`: the launch runs that file, which signoff does not read."""
    _edit_pr_file(
        data,
        SCRIPT_PATH,
        'source "$(dirname "$0")/../../benchmark_lib.sh"\n',
        'source "$(dirname "$0")/../../benchmark_lib.sh"\n'
        'export PATH="$(dirname "$0")/../bin:$PATH"\n',
    )
    _pull(data)["commits"][0]["files"][FAKE_LAUNCHER_PATH] = FAKE_LAUNCHER
    return pass_conversation(data)


LAUNCH_CONFIG_PATH = "benchmarks/single_node/fixed_seq_len/dsv4_fp4_b200_vllm_mtp.yaml"
LAUNCH_CONFIG = """# serving options for dsv4-fp4-b200-vllm-mtp
max-num-seqs: 256
hf-overrides:
  num_hidden_layers: 30
"""


def fail_launch_config_override(data: dict[str, Any]) -> str:
    """7: the launch reads its options from a `--config` YAML the PR adds, whose keys are
    flags: `hf-overrides` there is `--hf-overrides` on the command line."""
    _edit_pr_file(
        data,
        SCRIPT_PATH,
        "--kv-cache-dtype fp8 \\\n",
        '--kv-cache-dtype fp8 --config "$(dirname "$0")/dsv4_fp4_b200_vllm_mtp.yaml" \\\n',
    )
    _pull(data)["commits"][0]["files"][LAUNCH_CONFIG_PATH] = LAUNCH_CONFIG
    return pass_conversation(data)


def fail_launch_config_after_cd(data: dict[str, Any]) -> str:
    """7: the script changes into its own directory, then the launch names the `--config`
    YAML the PR adds by a relative path: read from a directory signoff does not know, it may
    be that file, whose `hf-overrides` key is `--hf-overrides`."""
    _edit_pr_file(
        data,
        SCRIPT_PATH,
        "--kv-cache-dtype fp8 \\\n",
        "--kv-cache-dtype fp8 --config dsv4_fp4_b200_vllm_mtp.yaml \\\n",
    )
    _edit_pr_file(
        data,
        SCRIPT_PATH,
        'source "$(dirname "$0")/../../benchmark_lib.sh"\n',
        'source "$(dirname "$0")/../../benchmark_lib.sh"\ncd "$(dirname "$0")"\n',
    )
    _pull(data)["commits"][0]["files"][LAUNCH_CONFIG_PATH] = LAUNCH_CONFIG
    return pass_conversation(data)


def fail_arch_underscore(data: dict[str, Any]) -> str:
    """7: `--hf_overrides`, which vLLM's parser reads as `--hf-overrides`."""
    return _override_through(data, "", "--hf_overrides")


def fail_builtin_assigned_override(data: dict[str, Any]) -> str:
    """7: a variable the script sets to a harmless flag, then `printf -v` sets to
    `--hf-overrides`, stands before an override's JSON on the launch line."""
    setup = "EXTRA=--enforce-eager\nprintf -v EXTRA -- '--hf-%s' overrides\n"
    return _override_through(data, setup, '"$EXTRA"')


def fail_sliced_override(data: dict[str, Any]) -> str:
    """7: the last element of an array, `${A[@]: -1}`, is `--hf-overrides` (a slice takes
    elements, not characters)."""
    return _override_through(data, "OPTS=(--enforce-eager --hf-overrides)\n", '"${OPTS[@]: -1}"')


SHADOWING_MODULE_PATH = "json.py"


def fail_python_first_entry(data: dict[str, Any]) -> str:
    """7, 8: the script runs `python3 -c` at the checkout's root, where the PR adds `json.py`:
    Python imports it in place of the standard library's."""
    runs = "python3 -c 'import json, vllm; print(json.dumps(vllm.__version__))'\n"
    _edit_pr_file(data, SCRIPT_PATH, _SOURCE_LINE, _SOURCE_LINE + runs)
    _pull(data)["commits"][0]["files"][SHADOWING_MODULE_PATH] = "import os  # patched\n"
    return pass_conversation(data)


LAUNCHED_PROGRAM_PATH = "benchmarks/single_node/fixed_seq_len/warmup.py"


def _runs_added_program(data: dict[str, Any], runs: str) -> str:
    """The script runs `runs` right after it sources the library; the PR adds the program."""
    _edit_pr_file(data, SCRIPT_PATH, _SOURCE_LINE, _SOURCE_LINE + runs)
    _pull(data)["commits"][0]["files"][LAUNCHED_PROGRAM_PATH] = "import os  # anything\n"
    return pass_conversation(data)


def fail_launched_program(data: dict[str, Any]) -> str:
    """7, 8: the script has `accelerate launch` run a Python program the PR adds beside it."""
    return _runs_added_program(
        data, 'accelerate launch --num_processes 1 "$(dirname "$0")/warmup.py"\n'
    )


def fail_profiled_program(data: dict[str, Any]) -> str:
    """7, 8: the script runs a Python program the PR adds beside it under a profiler
    (`nsys profile`), a program signoff has no rule for that runs the command it is handed."""
    return _runs_added_program(
        data, 'nsys profile -o /tmp/warmup --trace cuda python3 "$(dirname "$0")/warmup.py"\n'
    )


def fail_inline_import(data: dict[str, Any]) -> str:
    """7, 8: an inline Python program imports the program the PR adds by its dotted name,
    through directories with no `__init__.py` (namespace packages from the checkout's root)."""
    return _runs_added_program(
        data, "python3 -c 'import benchmarks.single_node.fixed_seq_len.warmup'\n"
    )


def fail_environment_runner(data: dict[str, Any]) -> str:
    """7, 8: the script has `uv run` start a Python program the PR adds beside it."""
    return _runs_added_program(
        data, 'uv run --no-project --with pyyaml --python 3.12 "$(dirname "$0")/warmup.py"\n'
    )


def fail_copy_run_by_name(data: dict[str, Any]) -> str:
    """7, 8: the script copies the program the PR adds onto PATH and runs it by its name."""
    return _runs_added_program(
        data, 'cp "$(dirname "$0")/warmup.py" /usr/local/bin/warmup && warmup --steps 3\n'
    )


def fail_import_path(data: dict[str, Any]) -> str:
    """7, 8: an inline Python program puts the script's directory on its import path and
    imports the program the PR adds there by its one-part name."""
    return _runs_added_program(
        data,
        "python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import warmup' "
        '"$(dirname "$0")"\n',
    )


def fail_wrapped_by_flock(data: dict[str, Any]) -> str:
    """7, 8: `flock LOCKFILE CMD` runs the program the PR adds (the lock file is flock's)."""
    return _runs_added_program(data, 'flock /tmp/warmup.lock python3 "$(dirname "$0")/warmup.py"\n')


def fail_package_source(data: dict[str, Any]) -> str:
    """7, 8: `PIP_FIND_LINKS` has pip take packages from the script's directory, which holds
    a file the PR adds."""
    return _runs_added_program(
        data, 'PIP_FIND_LINKS="$(dirname "$0")" pip install --no-index aiperf\n'
    )


def fail_mounted_checkout_install(data: dict[str, Any]) -> str:
    """7, 8: `pip install -e` of the script's directory, spelled where the launchers'
    containers mount the checkout (`/workspace`)."""
    return _runs_added_program(
        data, "pip install -e /workspace/benchmarks/single_node/fixed_seq_len\n"
    )


MODEL_CACHE_CONFIG = (
    "benchmarks/single_node/fixed_seq_len/hub/models--deepseek-ai--DeepSeek-V4-Pro/snapshots/"
    "0123abcd/config.json"
)


def _script_line_and_file(data: dict[str, Any], line: str, path: str, text: str) -> str:
    """The PR's script runs `line` once it has sourced the library, and the PR adds `path`."""
    _edit_pr_file(data, SCRIPT_PATH, _SOURCE_LINE, _SOURCE_LINE + line)
    _pull(data)["commits"][0]["files"][path] = text
    return pass_conversation(data)


def fail_model_cache(data: dict[str, Any]) -> str:
    """7, 8: the script points the Hugging Face cache into its directory, where the PR adds
    the model's config.json (a trimmed model the engine would serve)."""
    runs = 'export HF_HUB_CACHE="$(dirname "$0")/hub"\n'
    return _script_line_and_file(data, runs, MODEL_CACHE_CONFIG, '{"num_hidden_layers": 2}\n')


TOOLCHAIN_PTXAS = "benchmarks/single_node/fixed_seq_len/ptxas"


def fail_kernel_toolchain(data: dict[str, Any]) -> str:
    """7, 8: the script points Triton's ptxas at its directory, where the PR adds a `ptxas`
    (a program every kernel Triton compiles while the engine serves runs)."""
    runs = 'export TRITON_PTXAS_PATH="$(dirname "$0")/ptxas"\n'
    ptxas = '#!/bin/sh\nexec /usr/local/cuda/bin/ptxas "$@"\n'
    return _script_line_and_file(data, runs, TOOLCHAIN_PTXAS, ptxas)


SUBMODULE_PATH = "utils/trace-replay"


def fail_moved_submodule(data: dict[str, Any]) -> str:
    """7, 8: the PR points the `utils/trace-replay` submodule at another commit, and the script
    runs a program inside it (GitHub lists the submodule as a changed file whose patch is the
    commit it points at)."""
    runs = "python3 /workspace/utils/trace-replay/tools/warmup.py --port 8888\n"
    _edit_pr_file(data, SCRIPT_PATH, _SOURCE_LINE, _SOURCE_LINE + runs)
    before = "Subproject commit 754356e9a39acc6cc6afb242d123bb57c3fb6f75\n"
    data["repos"][REPO]["commits"][0]["files"][SUBMODULE_PATH] = before
    after = "Subproject commit 1111111111111111111111111111111111111111\n"
    _pull(data)["commits"][0]["files"][SUBMODULE_PATH] = after
    return pass_conversation(data)


OVERRIDING_RECIPE = (
    "benchmarks/multi_node/srt-slurm-recipes/sglang/deepseek-v4/8k1k/disagg-mtp.yaml"
)


def fail_recipe_override(data: dict[str, Any]) -> str:
    """7: the PR adds a multi-node recipe whose decode workers' settings trim the model
    (`json-model-override-args`), which srt-slurm hands SGLang as that flag."""
    _pull(data)["commits"][0]["files"][OVERRIDING_RECIPE] = (
        "name: dsv4-disagg-mtp\n"
        "sglang_config:\n"
        "  decode:\n"
        "    tensor-parallel-size: 8\n"
        "    json-model-override-args: '{\"num_hidden_layers\": 30}'\n"
    )
    return pass_conversation(data)


PERL_MODULE = "benchmarks/single_node/fixed_seq_len/perl/Trim.pm"


def fail_interpreter_module(data: dict[str, Any]) -> str:
    """7, 8: the script puts its directory's perl/ on Perl's module path and has every perl
    started later load Trim from there first (PERL5OPT), where the PR adds Trim.pm."""
    runs = 'export PERL5OPT="-I$(dirname "$0")/perl -MTrim"\n'
    module = "package Trim;\nsystem('sh', '-c', 'true');\n1;\n"
    return _script_line_and_file(data, runs, PERL_MODULE, module)


INJECTION_LIBRARY = "benchmarks/single_node/fixed_seq_len/lib/libtrace.so"


def fail_gpu_tool_hook(data: dict[str, Any]) -> str:
    """7, 8: the script points CUDA's injection hook at its directory's lib/libtrace.so, which
    the PR adds: CUDA's driver loads it into every process that initialises CUDA, the engine's."""
    runs = 'export CUDA_INJECTION64_PATH="$(dirname "$0")/lib/libtrace.so"\n'
    return _script_line_and_file(data, runs, INJECTION_LIBRARY, "\x7fELF (a shared object)\n")


LOGGING_CONFIG = "benchmarks/single_node/fixed_seq_len/logging.json"


def fail_logging_config(data: dict[str, Any]) -> str:
    """7, 8: the script points vLLM's logging configuration at a JSON file the PR adds, whose
    handler dictConfig builds by calling `os.system` inside the engine."""
    runs = 'export VLLM_LOGGING_CONFIG_PATH="$(dirname "$0")/logging.json"\n'
    config = '{"version": 1, "handlers": {"h": {"()": "os.system", "command": "true"}}}\n'
    return _script_line_and_file(data, runs, LOGGING_CONFIG, config)


def fail_model_hub(data: dict[str, Any]) -> str:
    """3, 7, 8: the script has the model fetched from another hub than Hugging Face's."""
    runs = "export HF_ENDPOINT=https://hf-mirror.example.com\n"
    _edit_pr_file(data, SCRIPT_PATH, _SOURCE_LINE, _SOURCE_LINE + runs)
    return pass_conversation(data)


AMD_BENCH_PATH = "benchmarks/multi_node/amd_utils/bench.sh"
# The shape of amd_utils/bench.sh: ENGINE and IS_MTP (handed down the chain from submit.sh and
# server_<engine>.sh) pick the client's extra flags; the concurrencies come from the caller.
AMD_BENCH = """#!/bin/bash
ENGINE="${ENGINE:-sglang-disagg}"
concurrency_list=${10:-"512x1"}
IFS='x' read -r -a concs <<< "$concurrency_list"
source "$(dirname "$0")/../../benchmark_lib.sh"
for conc in "${concs[@]}"; do
    extra_flags=""
    if [[ "$ENGINE" == "vllm-disagg" ]]; then
        extra_flags="--trust-remote-code"
    elif [ "$IS_MTP" = "true" ]; then
        if [[ "$MODEL_NAME" == "DeepSeek-V4-Pro" ]]; then
            extra_flags="--dsv4"
        else
            extra_flags="--use-chat-template"
        fi
    fi
    run_benchmark_serving --model "$MODEL_PATH" --max-concurrency "$conc" $extra_flags
done
"""
AMD_MTP_KEY = "dsv4-fp4-mi355x-sglang-disagg-mtp"
AMD_MTP_ENTRY = f"""
{AMD_MTP_KEY}:
  image: lmsysorg/sglang-rocm:v0.5.15-rocm720-mi35x-20260713
  model: deepseek-ai/DeepSeek-V4-Pro
  model-prefix: dsv4
  precision: fp4
  framework: sglang-disagg
  runner: mi355x-disagg
  multinode: true
  disagg: true
  kv-p2p-transfer: mori
  scenarios:
    fixed-seq-len:
      - isl: 8192
        osl: 1024
        search-space:
          - spec-decoding: mtp
            conc-list: [32, 64]
            prefill: {{num-worker: 1, tp: 8, ep: 1, dp-attn: false}}
            decode:
              num-worker: 1
              tp: 8
              ep: 1
              dp-attn: false
              additional-settings: ["DECODE_MTP_SIZE=2"]
"""


def _multi_node_runs(run: int) -> list[dict[str, Any]]:
    """The sweep's green multi-node jobs for the AMD entry (benchmark and eval)."""
    names = [f"multi-node 8k1k / dsv4 fp4 mi355x sglang-disagg 1P1D mtp c{c}" for c in (32, 64)]
    names.append("multi-node eval / dsv4 fp4 mi355x sglang-disagg 1P1D mtp c64 | eval-only")
    return [
        {"name": name, "conclusion": "success", "run": run, "id": 40000027500 + index,
         "started_at": "2026-08-18T10:25:00Z", "completed_at": "2026-08-18T13:30:00Z"}
        for index, name in enumerate(names)
    ]  # fmt: skip


def amd_chain_client(data: dict[str, Any]) -> str:
    """8: the PR also adds an AMD multi-node MTP entry naming no recipe; its launcher's chain
    runs amd_utils/bench.sh (on main), which passes the chat template for ENGINE=sglang-disagg
    and IS_MTP=true."""
    _main_files(data)[AMD_BENCH_PATH] = AMD_BENCH
    files = _pull(data)["commits"][0]["files"]
    files["configs/nvidia-master.yaml"] += AMD_MTP_ENTRY
    _select_in_changelog(data, AMD_MTP_KEY)
    data["repos"][REPO]["check_runs"]["p2"] += _multi_node_runs(15000002701)
    return pass_conversation(data)


def fail_master_exported_setting(data: dict[str, Any]) -> str:
    """7: the AMD multi-node entry the PR adds also exports `BASH_ENV=tools/sweep-env.sh`
    through its `additional-settings` (the sweep step exports them before the launcher's bash
    starts), a file the PR adds, which every later bash runs first."""
    url = amd_chain_client(data)
    files = _pull(data)["commits"][0]["files"]
    old = 'additional-settings: ["DECODE_MTP_SIZE=2"]'
    exported = 'additional-settings: ["DECODE_MTP_SIZE=2", "BASH_ENV=tools/sweep-env.sh"]'
    assert old in files["configs/nvidia-master.yaml"]
    files["configs/nvidia-master.yaml"] = files["configs/nvidia-master.yaml"].replace(old, exported)
    files["tools/sweep-env.sh"] = "export VLLM_USE_V1=0  # anything\n"
    return url


def fail_amd_chain_client(data: dict[str, Any]) -> str:
    """8: the same, and the PR changes bench.sh so that the MTP branch passes no chat template."""
    url = amd_chain_client(data)
    dropped = AMD_BENCH.replace('extra_flags="--use-chat-template"', 'extra_flags=""')
    _pull(data)["commits"][0]["files"][AMD_BENCH_PATH] = dropped
    return url
