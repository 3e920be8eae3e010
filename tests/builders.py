"""Small evidence builders shared by the judge tests and the example bundles.

`passing_parts()` describes one realistic InferenceX PR that passes every check: a new
DeepSeek-V4 FP4 B200 vLLM MTP recipe (master-config entry + script + changelog entry), signed off
by a named owner of configs/nvidia-master.yaml. Tests copy the parts, break one thing and build.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

from signoff.evidence import Evidence

DATA = Path(__file__).parent / "data"
REPO = "SemiAnalysisAI/InferenceX"
BASE_SHA = "1" * 40
HEAD_SHA = "c0ffee" + "a" * 34
OLD_SHA = "bead" + "b" * 36
RUN_ID = 28_600_000_123
SIGNER = "ankur-singh"

CODEOWNERS = """\
# Ownership of the benchmark repository. Last matching line wins.
*                          @InferenceX/core
configs/amd-master.yaml    @billishyahao @chunfangamd @seungrokj @yctseng0211 @1am9trash
configs/nvidia-master.yaml @ankur-singh @kedarpotdar-nv @InferenceX/core
MODELS.md                  @ankur-singh @chunfangamd @InferenceX/core
experimental/operatorx/    @hbarclay
"""

THRESHOLDS = """\
# Minimum accuracy per task; models.<prefix> overrides default.
default:
  gsm8k: 0.90
  gpqa_diamond_cot_n_shot: 0.30
models:
  dsv4:
    gsm8k: 0.91
  qwen3.5:
    gsm8k: 0.94
"""

EXISTING_ENTRY = """\
dsv4-fp4-b200-vllm:
  image: vllm/vllm-openai:v0.11.1
  model: deepseek-ai/DeepSeek-V4-Pro
  model-prefix: dsv4
  precision: fp4
  framework: vllm
  runner: b200
  multinode: false
  scenarios:
    fixed-seq-len:
      - isl: 8192
        osl: 1024
        search-space:
          - { tp: 8, ep: 8, dp-attn: true, conc-start: 4, conc-end: 256 }
"""

# The PR's new entry: the MTP sibling of the existing one, with a shorter concurrency sweep.
NEW_ENTRY = EXISTING_ENTRY.replace("dsv4-fp4-b200-vllm:", "dsv4-fp4-b200-vllm-mtp:").replace(
    "dp-attn: true, conc-start: 4, conc-end: 256",
    "dp-attn: true, spec-decoding: mtp, conc-start: 4, conc-end: 128",
)
assert NEW_ENTRY != EXISTING_ENTRY and "spec-decoding: mtp" in NEW_ENTRY

SCRIPT_PATH = "benchmarks/single_node/fixed_seq_len/dsv4_fp4_b200_vllm_mtp.sh"
SCRIPT = """\
#!/usr/bin/env bash
source "$(dirname "$0")/../../benchmark_lib.sh"
check_env_vars MODEL TP EP_SIZE CONC ISL OSL MAX_MODEL_LEN RESULT_FILENAME

hf download "$MODEL"
PORT=${PORT:-8888}

vllm serve "$MODEL" --host 0.0.0.0 --port "$PORT" \\
  --tensor-parallel-size "$TP" \\
  --enable-expert-parallel \\
  --kv-cache-dtype fp8 \\
  --attention-backend FLASHMLA \\
  --speculative-config '{"method": "mtp", "num_speculative_tokens": 3}' \\
  --max-model-len "$MAX_MODEL_LEN" > /workspace/server.log 2>&1 &

wait_for_server_ready --port "$PORT"

run_benchmark_serving \\
  --model "$MODEL" \\
  --port "$PORT" \\
  --input-len "$ISL" \\
  --output-len "$OSL" \\
  --max-concurrency "$CONC" \\
  --result-filename "$RESULT_FILENAME" \\
  --use-chat-template
"""

RECIPE_URL = "https://github.com/vllm-project/recipes/pull/612"
RECIPE_DOC = """\
# DeepSeek-V4-Pro on NVIDIA Blackwell

```bash
vllm serve deepseek-ai/DeepSeek-V4-Pro \\
  --tensor-parallel-size 8 \\
  --enable-expert-parallel \\
  --kv-cache-dtype fp8 \\
  --attention-backend FLASHMLA \\
  --speculative-config '{"method": "mtp", "num_speculative_tokens": 3}'
```
"""


def template_text() -> str:
    return (DATA / "markdown" / "PR_REVIEW_CHECKLIST_v21.md").read_text(encoding="utf-8")


def template_block() -> list[str]:
    """The lines inside the template's fence."""
    lines = template_text().split("## Template", 1)[1].split("```")[1].strip("\n").splitlines()
    return lines


def signoff_body(
    *,
    detail: str | None = None,
    drop: tuple[str, ...] = (),
    uncheck: tuple[str, ...] = (),
) -> str:
    """A filled-in copy of the template: every item checked, links in the detail section.

    `drop` removes items whose text contains any of the phrases; `uncheck` leaves them unchecked.
    """
    if detail is None:
        detail = (
            f"- Validation and eval run: https://github.com/{REPO}/actions/runs/{RUN_ID}\n"
            f"- Upstream recipe (merged): {RECIPE_URL}"
        )
    out: list[str] = []
    for line in template_block():
        stripped = line.strip()
        if stripped.startswith("- [ ]"):
            if any(phrase in line for phrase in drop):
                continue
            if not any(phrase in line for phrase in uncheck):
                line = line.replace("- [ ]", "- [x]", 1)
        if stripped == "- insert any additional info here":
            out.append(detail)
            continue
        if stripped.startswith("Signed:"):
            line = f"Signed: {SIGNER}"
        out.append(line)
    return "\n".join(out) + "\n"


def _patch_for_added(text: str) -> str:
    lines = text.splitlines()
    return f"@@ -0,0 +1,{len(lines)} @@\n" + "\n".join("+" + line for line in lines)


SWEEP_WORKFLOW = ".github/workflows/run-sweep.yml"


def suite_of(run_id: int) -> int:
    """The check suite GitHub made for one workflow run (one suite per run)."""
    return 30_000_000_000 + run_id % 1_000_000


def job_id(run_id: int, job: int) -> int:
    """A job (and its check run) id unique across the builder's runs."""
    return run_id * 1000 + job


def check_run(
    name: str, conclusion: str | None = "success", run_id: int = RUN_ID, job: int = 1
) -> dict[str, Any]:
    status = "completed" if conclusion is not None else "in_progress"
    ident = job_id(run_id, job)
    return {
        "name": name,
        "status": status,
        "conclusion": conclusion,
        "run_id": run_id,
        "details_url": f"https://github.com/{REPO}/actions/runs/{run_id}/job/{ident}",
        "id": ident,
    }


def sweep_run(
    run_id: int = RUN_ID,
    head_sha: str = HEAD_SHA,
    runs: list[dict[str, Any]] | None = None,
    **overrides: Any,
) -> dict[str, Any]:
    """The workflow run of the sweep workflow whose jobs are `runs` (default: `green_runs`)."""
    jobs = runs if runs is not None else green_runs(run_id)
    return {
        "id": run_id,
        "path": SWEEP_WORKFLOW,
        "event": "pull_request",
        "head_sha": head_sha,
        "check_suite_id": suite_of(run_id),
        "status": "completed",
        "conclusion": "success",
        "jobs": [
            {k: job[k] for k in ("id", "name", "status", "conclusion")}
            for job in sorted(jobs, key=lambda r: r["id"])
            if job.get("run_id") == run_id
        ],
        "jobs_complete": True,
        **overrides,
    }


def green_runs(run_id: int = RUN_ID) -> list[dict[str, Any]]:
    prefix = "p1 | dsv4 fp4 b200 vllm TP8/EP8/DPA mtp"
    runs = [
        check_run(f"single-node 8k1k / {prefix} c{c}", run_id=run_id, job=10 + i)
        for i, c in enumerate((4, 8, 16, 32, 64, 128))
    ]
    runs += [
        check_run(f"eval / {prefix} c{c} | eval-only", run_id=run_id, job=30 + i)
        for i, c in enumerate((16, 128))
    ]
    runs.append(check_run("collect-evals / collect", run_id=run_id, job=40))
    runs.append(check_run("single-node 1k1k / none", "skipped", run_id=run_id, job=41))
    return runs


def eval_rows(strict: float = 0.953, flexible: float = 0.958) -> list[dict[str, Any]]:
    return [
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
            "ep": 8,
            "conc": conc,
            "dp_attention": True,
            "task": "gsm8k",
            "em_strict": strict,
            "em_flexible": flexible,
            "n_eff": 1319,
            "score": strict,
            "score_name": "em_strict",
        }
        for conc in (16, 128)
    ]


def never_edited(author: str = SIGNER) -> dict[str, Any]:
    """GraphQL's answer for a comment nobody edited: no editor, no edit history."""
    return {"readable": True, "author": author, "editors": [], "complete": True}


def edited_by(*editors: str, author: str = SIGNER) -> dict[str, Any]:
    """The edit history of a comment `author` wrote and `editors` edited (oldest edit first)."""
    newest_first = [*reversed(editors), author]  # GitHub lists the creation last
    return {
        "readable": True,
        "author": author,
        "last_editor": editors[-1],
        "last_edited_at": "2026-11-20T11:00:00Z",
        "editors": newest_first,
        "complete": True,
    }


def file_read(
    path: str, role: str, text: str | None, sha: str = "", state: str = "ok"
) -> dict[str, Any]:
    return {"path": path, "role": role, "sha": sha, "state": state, "text": text}


def passing_parts() -> dict[str, Any]:
    """Plain-data parts of a passing bundle; copy, change and `build()`."""
    master_base = EXISTING_ENTRY
    master_head = EXISTING_ENTRY + "\n" + NEW_ENTRY
    changelog_patch = (
        "@@ -120,3 +120,8 @@\n context line\n+- config-keys:\n+    - dsv4-fp4-b200-vllm-mtp\n"
        "+  description:\n+    - Add DeepSeek-V4 FP4 B200 vLLM MTP recipe\n+  pr-link: XXX"
    )
    return {
        "repository": {"owner": "SemiAnalysisAI", "name": "InferenceX", "default_branch": "main"},
        "pull_request": {
            "number": 2650,
            "title": "dsv4-fp4-b200-vllm-mtp: DeepSeek-V4 FP4 B200 vLLM MTP recipe",
            "state": "open",
            "draft": False,
            "merged": False,
            "author": "nv-partner-dev",
            "base_ref": "main",
            "base_sha": BASE_SHA,
            "head_ref": "dsv4-b200-mtp",
            "head_sha": HEAD_SHA,
            "url": f"https://github.com/{REPO}/pull/2650",
        },
        "changed_files": [
            {
                "path": "configs/nvidia-master.yaml",
                "status": "modified",
                "patch": "@@ -14,0 +15,14 @@\n"
                + "\n".join("+" + ln for ln in NEW_ENTRY.splitlines()),
            },
            {"path": SCRIPT_PATH, "status": "added", "patch": _patch_for_added(SCRIPT)},
            {"path": "perf-changelog.yaml", "status": "modified", "patch": changelog_patch},
        ],
        "commits": [OLD_SHA, HEAD_SHA],
        "signoff": {
            "kind": "conversation comment",
            "id": 3_100_000_001,
            "url": f"https://github.com/{REPO}/pull/2650#issuecomment-3100000001",
            "author": SIGNER,
            "author_type": "User",
            "author_association": "COLLABORATOR",
            "body": signoff_body(),
            "created_at": "2026-11-20T10:00:00Z",
            "updated_at": "2026-11-20T10:00:00Z",
            "node_id": "IC_kwDOSignoff3100000001",
        },
        "signoff_edits": never_edited(),
        "comments": [
            {
                "id": 3_100_000_000,
                "author": "github-actions[bot]",
                "author_type": "Bot",
                "author_association": "NONE",
                "body": "Thanks for the contribution!",
                "created_at": "2026-11-18T09:00:00Z",
            },
            {
                "id": 3_100_000_001,
                "author": SIGNER,
                "author_type": "User",
                "author_association": "COLLABORATOR",
                "body": signoff_body(),
                "created_at": "2026-11-20T10:00:00Z",
            },
            {
                "id": 3_100_000_002,
                "author": "functionstackx",
                "author_type": "User",
                "author_association": "MEMBER",
                "body": "/reuse-sweep-run",
                "created_at": "2026-11-20T10:30:00Z",
            },
        ],
        "commit_checks": [{"sha": HEAD_SHA, "check_runs": green_runs()}],
        "workflow_runs": [sweep_run()],
        "evals": [{"run_id": RUN_ID, "head_sha": HEAD_SHA, "available": True, "rows": eval_rows()}],
        "files": [
            file_read(".github/CODEOWNERS", "default", CODEOWNERS, "main"),
            file_read("docs/PR_REVIEW_CHECKLIST.md", "default", template_text(), "main"),
            file_read("utils/evals/thresholds.yaml", "default", THRESHOLDS, "main"),
            file_read("configs/nvidia-master.yaml", "base", master_base, BASE_SHA),
            file_read("configs/nvidia-master.yaml", "head", master_head, HEAD_SHA),
            file_read(SCRIPT_PATH, "head", SCRIPT, HEAD_SHA),
        ],
        "memberships": [],
        "upstream": [
            {
                "url": RECIPE_URL,
                "kind": "pull",
                "state": "merged",
                "repo": "vllm-project/recipes",
                "number": 612,
                "merged_at": "2026-11-15T12:00:00Z",
                "files": [{"path": "DeepSeek/DeepSeek-V4.md", "text": RECIPE_DOC}],
            },
        ],
    }


def build(parts: dict[str, Any]) -> Evidence:
    return Evidence.model_validate(copy.deepcopy(parts))


def replace_file(
    parts: dict[str, Any], path: str, role: str, text: str | None, state: str = "ok"
) -> None:
    for read in parts["files"]:
        if read["path"] == path and read["role"] == role:
            read["text"], read["state"] = text, state
            return
    parts["files"].append(file_read(path, role, text, state=state))


def set_head_sweep(parts: dict[str, Any], runs: list[dict[str, Any]]) -> None:
    """The head's check runs are `runs`, and the sweep run's jobs are those of them it ran."""
    parts["commit_checks"] = [{"sha": HEAD_SHA, "check_runs": runs}]
    parts["workflow_runs"] = [sweep_run(runs=runs)]


def swept_older_commit(
    parts: dict[str, Any], later_edit: Callable[[list[dict[str, Any]]], None] | None = None
) -> dict[str, Any]:
    """Move the sweep to OLD_SHA (the head has none); `later_edit` changes the head's files."""
    parts["commit_checks"] = [
        {"sha": HEAD_SHA, "check_runs": []},
        {"sha": OLD_SHA, "check_runs": green_runs()},
    ]
    parts["workflow_runs"] = [sweep_run(head_sha=OLD_SHA)]
    then = copy.deepcopy(parts["changed_files"])
    if later_edit is not None:
        later_edit(parts["changed_files"])
    parts["sweep_diff"] = {"sha": OLD_SHA, "files": then}
    parts["evals"][0]["head_sha"] = OLD_SHA
    for read in list(parts["files"]):
        if read["role"] == "head" and read["path"].startswith("configs/"):
            parts["files"].append({**read, "role": "eval", "sha": OLD_SHA})
    return parts


def set_signoff_body(parts: dict[str, Any], body: str) -> None:
    parts["signoff"]["body"] = body
    for comment in parts["comments"]:
        if comment["id"] == parts["signoff"]["id"]:
            comment["body"] = body
