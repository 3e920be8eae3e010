"""Variants on the sweep: commits after the green run, look-alike or forged runs, shadowed
jobs, a changed sweep definition."""

from __future__ import annotations

from typing import Any

from ..emulator import require_ghemu

require_ghemu()

from ghemu import Emulator  # noqa: E402

from ..scenario import AGG_ROWS, PR, REPO, SCRIPT, check_runs, skipped_runs  # noqa: E402
from .common import SCRIPT_PATH, _add_commit, _pull, pass_conversation  # noqa: E402


def push_readme_commit(emulator: Emulator) -> None:
    """A commit p3 lands on the PR branch after the pin (what GitHub does on a push)."""
    repo = emulator.state.repo(*REPO.split("/"))
    pull = repo.issues[PR]
    sha = repo.add_commit(
        {
            "id": "p3",
            "date": "2026-08-18T15:30:00Z",
            "author": "nv-perf-dev",
            "message": "docs: readme",
            "files": {"README.md": "# InferenceX\n"},
        },
        branch=pull["head"]["ref"],
    )
    pull["head"]["sha"] = sha
    pull["commit_list"] = [*pull["commit_list"], sha]


def sweep_older_merge(data: dict[str, Any]) -> str:
    """Sweep green on p2; p3 only merges main (a README change), its runs are reuse no-ops."""
    repo = data["repos"][REPO]
    repo["commits"].append(
        {
            "id": "c2",
            "date": "2026-08-18T15:00:00Z",
            "author": "ankur-singh",
            "message": "docs: readme",
            "files": {"README.md": "# InferenceX\n"},
        }
    )
    _pull(data)["commits"].append(
        {
            "id": "p3",
            "date": "2026-08-18T15:30:00Z",
            "author": "nv-perf-dev",
            "message": "Merge branch 'main' into nv-perf-dev/dsv4-mtp",
            "parents": ["p2", "c2"],
            "files": {"README.md": "# InferenceX\n"},
        }
    )
    _pull(data)["base"] = {"ref": "main", "sha": "c2"}
    repo["check_runs"]["p3"] = skipped_runs(15000002702)
    return pass_conversation(data)


def sweep_older_recipe_change(data: dict[str, Any]) -> str:
    """Sweep green on p2; p3 changes the benchmark script (an extra server flag)."""
    changed = SCRIPT.replace("--kv-cache-dtype fp8", "--kv-cache-dtype fp8 --max-num-seqs 256")
    _add_commit(
        data,
        {"benchmarks/single_node/fixed_seq_len/dsv4_fp4_b200_vllm_mtp.sh": changed},
        "script: cap max-num-seqs",
    )
    data["repos"][REPO]["check_runs"]["p3"] = skipped_runs(15000002702)
    return pass_conversation(data)


LOOKALIKE_RUN = 15000002799
LOOKALIKE_WORKFLOW = ".github/workflows/pr-smoke.yml"
LOOKALIKE_YAML = """name: PR smoke
on: pull_request
jobs:
  smoke:
    runs-on: ubuntu-latest
    steps:
      - run: echo ok
"""


def _lookalike_run(data: dict[str, Any], runs: list[dict[str, Any]]) -> None:
    """The PR adds its own `pull_request` workflow; its run on p2 prints `runs` (green jobs
    named like the sweep's) and uploads an eval_results_all artifact with perfect scores."""
    repo = data["repos"][REPO]
    _pull(data)["commits"][0]["files"][LOOKALIKE_WORKFLOW] = LOOKALIKE_YAML
    files = {"agg_eval_all.json": AGG_ROWS}
    artifact = {"id": 3000002799, "name": "eval_results_all", "files": files}
    repo["workflow_runs"].append(
        {
            "id": LOOKALIKE_RUN,
            "name": "PR smoke",
            "path": LOOKALIKE_WORKFLOW,
            "head_sha": "p2",
            "event": "pull_request",
            "created_at": "2026-08-18T10:21:30Z",
            "run_number": 3,
            "actor": "nv-perf-dev",
            "artifacts": [artifact],
        }
    )
    repo["check_runs"]["p2"] = [*repo["check_runs"].get("p2", []), *runs]


def fail_sweep_lookalike(data: dict[str, Any]) -> str:
    """1, 2: no sweep ran; a PR-added workflow printed green jobs with the sweep's names."""
    repo = data["repos"][REPO]
    repo["workflow_runs"] = []  # the sweep workflow never ran (no sweep label, say)
    repo["check_runs"]["p2"] = []
    _lookalike_run(data, check_runs(LOOKALIKE_RUN))
    return pass_conversation(data)


def fail_sweep_forged_details(data: dict[str, Any]) -> str:
    """1, 2: the sweep's evals were skipped; the PR's own workflow prints green `eval /` jobs
    whose details_url names the sweep run's jobs (free text for any App)."""
    repo = data["repos"][REPO]
    repo["check_runs"]["p2"] = [
        {**item, "conclusion": "skipped"} if item["name"].startswith("eval /") else item
        for item in check_runs(15000002701)
    ]
    fakes = [
        {
            **item,
            "run": LOOKALIKE_RUN,
            "id": 40000027950 + index,
            "details_url": f"https://github.com/{REPO}/actions/runs/15000002701/job/"
            f"{40000027950 + index}",
        }
        for index, item in enumerate(check_runs(LOOKALIKE_RUN))
        if item["name"].startswith("eval /")
    ]
    _lookalike_run(data, fakes)
    return pass_conversation(data)


def fail_sweep_shadowed_job(data: dict[str, Any]) -> str:
    """1, 2: a sweep eval job failed; the PR's own workflow later prints a green job with that
    exact name, which hides the failed one in the commit's check-run list (filter=latest)."""
    repo = data["repos"][REPO]
    real = check_runs(15000002701)
    failed = next(item for item in real if item["name"].startswith("eval /"))
    failed["conclusion"] = "failure"
    repo["check_runs"]["p2"] = real
    shadow = {
        **failed,
        "conclusion": "success",
        "run": LOOKALIKE_RUN,
        "id": 40000027990,
        "completed_at": "2026-08-18T13:55:00Z",
    }
    _lookalike_run(data, [shadow])
    return pass_conversation(data)


RUN_SWEEP = ".github/workflows/run-sweep.yml"
RUN_SWEEP_YAML = """name: "Run Sweep"
on:
  pull_request:
    branches: [main]
    paths: ["perf-changelog.yaml"]
jobs:
  sweep-evals:
    uses: ./.github/workflows/benchmark-tmpl.yml
    with: {eval-only: true}
"""


def fail_sweep_definition(data: dict[str, Any]) -> str:
    """1, 2: the PR edits run-sweep.yml, so the green run executed the PR's own definition."""
    main = data["repos"][REPO]["commits"][0]["files"]
    main[RUN_SWEEP] = RUN_SWEEP_YAML
    _pull(data)["commits"][0]["files"][RUN_SWEEP] = RUN_SWEEP_YAML.replace(
        "    with: {eval-only: true}\n", "    with: {eval-only: true, min-score: 0.0}\n"
    )
    return pass_conversation(data)


def sweep_older_metadata_line(data: dict[str, Any]) -> str:
    """Sweep green on p2; p3 adds a `pr-link:` line to the script. That line is metadata only
    in the changelog: in a script it is code, so the head's recipe was not swept."""
    changed = SCRIPT.replace(
        "set -euo pipefail\n",
        "set -euo pipefail\npr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/2700 "
        "|| export VLLM_USE_V1=0\n",
    )
    _add_commit(data, {SCRIPT_PATH: changed}, "script: pr-link")
    data["repos"][REPO]["check_runs"]["p3"] = skipped_runs(15000002702)
    return pass_conversation(data)
