"""The PASS scenario every verify cassette starts from: ghemu state for PR #2700 (a DeepSeek-V4
MTP launch), its texts, check runs and eval artifacts; variants patch a copy of it."""

from __future__ import annotations

import copy
import datetime as dt
import re
from typing import Any

import yaml

from .emulator import require_ghemu

require_ghemu()

from ghemu import State  # noqa: E402

from . import CASSETTES  # noqa: E402

REPO = "SemiAnalysisAI/InferenceX"
PR = 2700


SIGNOFF_COMMENT_ID = 2400027003
# The emulator's clock while recording: writes (comment, status) are stamped with it.
FROZEN_NOW = dt.datetime(2026, 8, 18, 14, 10, tzinfo=dt.UTC)

# --- scenario texts ------------------------------------------------------------------------

MASTER_HEAD_ENTRY = """
dsv4-fp4-b200-vllm-mtp:
  image: vllm/vllm-openai:v0.11.2
  model: deepseek-ai/DeepSeek-V4-Pro
  model-prefix: dsv4
  precision: fp4
  framework: vllm
  runner: b200-dsv4
  multinode: false
  scenarios:
    fixed-seq-len:
      - isl: 8192
        osl: 1024
        search-space:
          - {tp: 8, ep: 1, spec-decoding: mtp, conc-start: 4, conc-end: 64}
"""

SCRIPT = """#!/usr/bin/env bash
set -euo pipefail
source "$(dirname "$0")/../../benchmark_lib.sh"
vllm serve "$MODEL" --tensor-parallel-size "$TP" --kv-cache-dtype fp8 \\
  --speculative-config '{"method": "mtp", "num_speculative_tokens": 3}' \\
  --port "$PORT" > "$SERVER_LOG" 2>&1 &
wait_for_server_ready "$PORT"
run_benchmark_serving --model "$MODEL" --port "$PORT" --isl "$ISL" --osl "$OSL" \\
  --conc "$CONC" --use-chat-template
"""

CHANGELOG_ENTRY = """
- config-keys:
    - dsv4-fp4-b200-vllm-mtp
  description:
    - Add DeepSeek-V4 FP4 B200 vLLM with MTP (3 draft tokens)
  pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/XXX
"""

# The upstream recipe as merged (vllm-project/recipes#412 added the "FP4 with MTP" block to an
# existing page): the launch args sit partly in lines the PR did not touch.
RECIPE_DOC = """# DeepSeek-V4

## Hopper

Serve DeepSeek-V4-Pro FP8 on 8x H200.

```bash
vllm serve deepseek-ai/DeepSeek-V4-Pro --tensor-parallel-size 8
```

## B200

Serve DeepSeek-V4-Pro FP4 on 8x B200.

```bash
vllm serve deepseek-ai/DeepSeek-V4-Pro --tensor-parallel-size 8 --kv-cache-dtype fp8
```

### FP4 with MTP

```bash
vllm serve deepseek-ai/DeepSeek-V4-Pro \\
  --tensor-parallel-size 8 \\
  --kv-cache-dtype fp8 \\
  --speculative-config '{"method": "mtp", "num_speculative_tokens": 3}'
```

Benchmarks through the chat template.
"""

DETAIL = """### Additional detail section:
- PR validation: https://github.com/SemiAnalysisAI/InferenceX/actions/runs/15000002701
- Evals: https://github.com/SemiAnalysisAI/InferenceX/actions/runs/15000002701 (gsm8k 0.95 / 0.95)
- Recipe: https://github.com/vllm-project/recipes/pull/412 (merged)
"""


def signoff_body(checklist: str, signer: str) -> str:
    """The V21 template block from the checklist page, every box ticked, detail filled in."""
    block = checklist.split("```", 2)[1].strip("\n")
    body = block.replace("- [ ]", "- [x]")
    body = re.sub(
        r"### Additional detail section:\n- insert any additional info here\n", DETAIL, body
    )
    return body.replace("FILL_IN_GITHUB_USERNAME", signer) + "\n"


def check_runs(run: int, conclusion: str = "success") -> list[dict[str, Any]]:
    runs: list[dict[str, Any]] = []
    for name in ("setup", "check-changelog"):
        runs.append({"name": name, "conclusion": "success", "run": run})
    for conc in (4, 8, 16, 32, 64):
        runs.append(
            {
                "name": f"single-node 8k1k / p1 | dsv4 fp4 b200 vllm TP8 mtp c{conc}",
                "conclusion": conclusion,
                "run": run,
            }
        )
    for conc in (32, 64):
        runs.append(
            {
                "name": f"eval / p1 | dsv4 fp4 b200 vllm TP8 mtp c{conc} | eval-only",
                "conclusion": conclusion,
                "run": run,
            }
        )
    runs.append({"name": "collect-evals", "conclusion": "success", "run": run})
    for index, item in enumerate(runs):
        item["id"] = 40000027000 + run % 100 * 100 + index
        item["started_at"] = "2026-08-18T10:25:00Z"
        item["completed_at"] = "2026-08-18T13:30:00Z"
    return runs


def skipped_runs(run: int) -> list[dict[str, Any]]:
    """A `/reuse-sweep-run` no-op: setup and every benchmark/eval job skipped, run still green."""
    return [
        {**item, "conclusion": "skipped" if item["name"] != "check-changelog" else "success"}
        for item in check_runs(run)
    ]


AGG_ROWS = [
    {
        "is_multinode": False,
        "model_prefix": "dsv4",
        "model": "deepseek-ai/DeepSeek-V4-Pro",
        "hw": "B200",
        "framework": "vllm",
        "precision": "fp4",
        "spec_decoding": "mtp",
        "isl": 8192,
        "osl": 1024,
        "tp": 8,
        "ep": 1,
        "conc": conc,
        "dp_attention": False,
        "task": "gsm8k",
        "em_strict": strict,
        "em_strict_se": 0.006,
        "em_flexible": flexible,
        "em_flexible_se": 0.006,
        "n_eff": 1319,
        "source": f"eval_dsv4_8k1k_conc{conc}",
        "score": strict,
        "score_name": "em_strict",
        "score_se": 0.006,
    }
    for conc, strict, flexible in ((32, 0.9507, 0.9522), (64, 0.9484, 0.9500))
]


def base_scenario() -> dict[str, Any]:
    """scenarios/base.yaml with its placeholders filled; the PASS conversation-comment case."""
    data = yaml.safe_load((CASSETTES / "scenarios" / "base.yaml").read_text(encoding="utf-8"))
    checklist = (CASSETTES / "scenarios" / "checklist_v21.md").read_text(encoding="utf-8")
    repo = data["repos"][REPO]
    main = repo["commits"][0]["files"]
    main["docs/PR_REVIEW_CHECKLIST.md"] = checklist
    pull = repo["pulls"][0]
    p1, p2 = pull["commits"]
    p1["files"]["configs/nvidia-master.yaml"] = (
        main["configs/nvidia-master.yaml"] + MASTER_HEAD_ENTRY
    )
    p1["files"]["benchmarks/single_node/fixed_seq_len/dsv4_fp4_b200_vllm_mtp.sh"] = SCRIPT
    p2["files"]["perf-changelog.yaml"] = main["perf-changelog.yaml"] + CHANGELOG_ENTRY
    repo["workflow_runs"][0]["artifacts"][0]["files"]["agg_eval_all.json"] = AGG_ROWS
    repo["check_runs"]["p2"] = check_runs(15000002701)
    pull["comments"] = [
        {
            "id": 2400027001,
            "user": "github-actions[bot]",
            "user_type": "Bot",
            "author_association": "NONE",
            "created_at": "2026-08-18T09:01:00Z",
            "body": "<!-- recipe-reminder -->\nReminder: link the upstream recipe in your sign-off.",
        },
        {
            "id": 2400027002,
            "user": "kedarpotdar-nv",
            "author_association": "MEMBER",
            "created_at": "2026-08-18T13:45:00Z",
            "body": "/reuse-sweep-run 15000002701",
        },
        {
            "id": SIGNOFF_COMMENT_ID,
            "user": "kedarpotdar-nv",
            "author_association": "MEMBER",
            "created_at": "2026-08-18T14:00:00Z",
            "updated_at": "2026-08-18T14:00:00Z",
            "body": signoff_body(checklist, "kedarpotdar-nv"),
        },
    ]
    set_recipe(data, RECIPE_DOC)
    return data


def set_recipe(data: dict[str, Any], text: str) -> None:
    """The recipe page as merged: on the recipes repo's main branch (see pin_merge_commit)."""
    data["repos"]["vllm-project/recipes"]["files"]["DeepSeek/DeepSeek-V4.md"] = text


def pin_merge_commit(data: dict[str, Any]) -> None:
    """The merged recipe PR's merge commit is the recipes repo's main head. ghemu keeps
    `merge_commit_sha` as given and derives commit SHAs from the whole scenario, so this runs
    last, on the final scenario."""
    recipes = data["repos"]["vllm-project/recipes"]
    head = State(copy.deepcopy(data)).repo("vllm-project", "recipes").heads["main"]
    recipes["pulls"][0]["merge_commit_sha"] = head
