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
        "reviewed_at": "2026-11-20T10:05:00Z",
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


# The head of a multi-node (srt-slurm) entry: what comes after it is the test's own.
MULTI_NODE_HEAD = """\
dsv4-fp4-gb300-dynamo-trt:
  image: nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.0.0
  model: deepseek-ai/DeepSeek-V4-Pro
  model-prefix: dsv4
  precision: fp4
  framework: dynamo-trt
  runner: gb300
  multinode: true
  disagg: true
  scenarios:
"""


def with_new_entry(
    parts: dict[str, Any], entry: str, *, script_changed: bool = True
) -> dict[str, Any]:
    """The PR adds `entry` after the existing one in configs/nvidia-master.yaml (its patch adds
    the entry's lines); `script_changed=False`: it leaves the benchmark script alone."""
    replace_file(parts, "configs/nvidia-master.yaml", "head", EXISTING_ENTRY + "\n" + entry)
    if not script_changed:
        parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != SCRIPT_PATH]
    lines = entry.splitlines()
    for changed in parts["changed_files"]:
        if changed["path"] == "configs/nvidia-master.yaml":
            changed["patch"] = f"@@ -14,0 +15,{len(lines)} @@\n" + "\n".join(
                "+" + line for line in lines
            )
    return parts


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


def unified_patch(old: str, new: str) -> str:
    """GitHub's `patch` for a file changed from `old` to `new` (hunks only, no file headers)."""
    import difflib

    lines = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=3)
    return "\n".join(line for line in lines if not line.startswith(("---", "+++")))


def add_changed_file(
    parts: dict[str, Any], path: str, text: str, *, base: str | None = None, read: bool = True
) -> None:
    """The PR adds `path` (or, with `base`, changes it from `base`); its head text is read."""
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != path]
    if base is None:
        parts["changed_files"].append(
            {"path": path, "status": "added", "patch": _patch_for_added(text)}
        )
    else:
        patch = unified_patch(base, text)
        parts["changed_files"].append({"path": path, "status": "modified", "patch": patch})
    if read:
        replace_file(parts, path, "head", text)


def modified_script(base: str, head: str) -> dict[str, Any]:
    """The passing PR, but its script already existed at the base as `base` and is `head`."""
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, head, base=base)
    replace_file(parts, SCRIPT_PATH, "base", base)
    return parts


def add_listing(parts: dict[str, Any], path: str, role: str, entries: list[str]) -> None:
    parts.setdefault("listings", []).append(
        {"path": path, "role": role, "entries": sorted(entries)}
    )


def set_detail(parts: dict[str, Any], extra: str) -> None:
    """Append a bullet to the sign-off's Additional detail section."""
    detail = (
        f"- Validation and eval run: https://github.com/{REPO}/actions/runs/{RUN_ID}\n"
        f"- Upstream recipe (merged): {RECIPE_URL}\n{extra}"
    )
    set_signoff_body(parts, signoff_body(detail=detail))


# An agentic spec-decode PR: a new SGLang MTP agentic entry and its script (Qwen3.5 FP8 H200).
AGENTIC_ENTRY = """\
qwen3.5-fp8-h200-sglang-agentic-mtp:
  image: lmsysorg/sglang:v0.5.9-cu129
  model: Qwen/Qwen3.5-397B-A17B-FP8
  model-prefix: qwen3.5
  precision: fp8
  framework: sglang
  runner: cluster:h200-cw
  multinode: false
  scenarios:
    agentic-coding:
      - search-space:
          - { tp: 8, ep: 1, spec-decoding: mtp, kv-offloading: none, conc-list: [4, 8] }
"""
AGENTIC_SCRIPT = "benchmarks/single_node/agentic/qwen3.5_fp8_h200_sglang_mtp.sh"
AGENTIC_SGLANG = """\
#!/usr/bin/env bash
source "$(dirname "$0")/../../benchmark_lib.sh"
if [ "${EVAL_ONLY:-false}" != "true" ]; then
    export SGLANG_SIMULATE_ACC_LEN=3.39
    export SGLANG_SIMULATE_ACC_METHOD=match-expected
fi
python3 -m sglang.launch_server --model-path "$MODEL" --tp "$TP" \\
    --speculative-algorithm EAGLE --speculative-num-steps 3 \\
    --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 &
run_agentic_replay_and_write_outputs "$RESULT_DIR"
"""
GOLDEN_QWEN = "golden_al_distribution/qwen3.5_mtp.yaml"
GOLDEN_QWEN_CURVE = """\
# Source GitHub Actions run: https://github.com/SemiAnalysisAI/InferenceX/actions/runs/1
qwen3.5-397b-a17b-nvfp4:
  thinking_on: {1: 1.93, 2: 2.73, 3: 3.39, 4: 3.97}
  thinking_off: {1: 1.92, 2: 2.70, 3: 3.33, 4: 3.83}
"""


AGENTIC_RECIPE_URL = "https://docs.sglang.io/cookbook/qwen3.5"
AGENTIC_RECIPE_PAGE = """\
<html><body>
<h1>Qwen3.5</h1>
<h2>Qwen3.5-397B-A17B-FP8 with MTP on H200</h2>
<pre><code>python3 -m sglang.launch_server --model-path Qwen/Qwen3.5-397B-A17B-FP8 --tp 8 \\
  --speculative-algorithm EAGLE --speculative-num-steps 3 \\
  --speculative-eagle-topk 1 --speculative-num-draft-tokens 4
</code></pre>
</body></html>
"""


def _keys(entries: str) -> list[str]:
    """The top-level keys of master-config entry text."""
    return [line.split(":", 1)[0] for line in entries.splitlines() if line[:1].isalnum()]


def agentic_parts(
    script: str = AGENTIC_SGLANG, entry: str = AGENTIC_ENTRY, golden: bool = True
) -> dict[str, Any]:
    """The passing PR plus an agentic MTP entry, its script, its green agentic runs and evals,
    its SGLang cookbook page; the golden curves are on the default branch."""
    parts = passing_parts()
    master = next(f for f in parts["files"] if f["path"] == "configs/nvidia-master.yaml"
                  and f["role"] == "head")  # fmt: skip
    base = next(f["text"] for f in parts["files"] if f["path"] == master["path"]
                and f["role"] == "base")  # fmt: skip
    head = master["text"] + "\n" + entry
    master["text"] = head
    changed = next(f for f in parts["changed_files"] if f["path"] == master["path"])
    changed["patch"] = unified_patch(base, head)
    add_changed_file(parts, AGENTIC_SCRIPT, script)
    select_in_changelog(parts, "dsv4-fp4-b200-vllm-mtp", *_keys(entry))
    runs = parts["commit_checks"][0]["check_runs"]
    runs += [
        check_run(f"agentic / p1 | qwen3.5 fp8 h200 sgl TP8 mtp c{c}", job=60 + i)
        for i, c in enumerate((4, 8))
    ]
    set_head_sweep(parts, runs)
    rows = parts["evals"][0]["rows"]
    rows += [dict(rows[0], model_prefix="qwen3.5", model="Qwen/Qwen3.5-397B-A17B-FP8", hw="H200",
                  framework="sglang", precision="fp8", em_strict=0.951, em_flexible=0.955)]  # fmt: skip
    parts["upstream"].append(
        {
            "url": AGENTIC_RECIPE_URL,
            "kind": "page",
            "state": "published",
            "page_text": AGENTIC_RECIPE_PAGE,
        }
    )
    set_signoff_body(
        parts,
        signoff_body(
            detail=f"- Validation and eval run: https://github.com/{REPO}/actions/runs/{RUN_ID}\n"
            f"- Upstream recipe (merged): {RECIPE_URL}\n- SGLang cookbook: {AGENTIC_RECIPE_URL}"
        ),
    )
    if golden:
        add_listing(parts, "golden_al_distribution", "default", ["README.md", "qwen3.5_mtp.yaml"])
        replace_file(parts, GOLDEN_QWEN, "default", GOLDEN_QWEN_CURVE)
    return parts


# MODELS.md in the shape InferenceX uses (facts from its history; our own sentences).
MODELS_MD = """\
# Models

## Deprecation Notice

### Monday, August 3, 2026

**Monday, August 3, 2026** is the final day for the items below.

| Model | Deprecated | Remains |
|---|---|---|
| MiniMax-M3 (`minimaxm3`) | Single-turn 8k1k | Agentic coding |
| Kimi-K2.5 (`kimik2.5`) | Agentic coding | Single-turn 8k1k until August 6 |
| Qwen3.5 (`qwen3.5`) | All **bf16** recipes, in every scenario | fp8 and fp4 |

Spec-decode A/B pairs keep only the spec-decode arm:

| Model | Deprecated arm | Published arm |
|---|---|---|
| DeepSeek-V4-Pro (`dsv4`) | Agentic coding, non-MTP | Agentic coding, MTP |
| Kimi-K3 (`kimik3`) | Agentic coding, non-DSpark | Agentic coding, DSpark |

**Status: not yet enacted.** The non-spec arms keep running for now.

## Scenarios

| Scenario | ISL/OSL | Status |
|---|---|---|
| Agentic coding | trace replay | Active. |
| Single-turn 8k1k | 8192 / 1024 | Active. |
| Single-turn 1k1k | 1024 / 1024 | **Deprecated for all models** since 2026-07-17 ([#2263](https://github.com/SemiAnalysisAI/InferenceX/pull/2263)). |

## Model support matrix

| Model architecture class | Prefix | Date added | Active scenarios | Deprecated scenarios |
|---|---|---|---|---|
| DeepSeek-V4-Pro | `dsv4` | 2026-04-24 | Single-turn 8k1k, Agentic coding | Single-turn 1k1k |
| Kimi-K2.5 | `kimik2.5` | 2026-02-17 | None (fully retired 2026-08-07, [#2527](https://github.com/SemiAnalysisAI/InferenceX/pull/2527)) | Single-turn 1k1k, Agentic coding (removed 2026-08-04) |
| GLM-5 / GLM-5.1 | `glm5`, `glm5.1` | 2026-03-06 | None (retired 2026-07-18, [#2276](https://github.com/SemiAnalysisAI/InferenceX/pull/2276)) | Single-turn 8k1k |
| Qwen3.5 | `qwen3.5` | 2026-02-16 | Single-turn 8k1k (fp8/fp4) | all bf16 recipes (removed 2026-08-04) |
"""


def with_models_md(parts: dict[str, Any], text: str = MODELS_MD) -> dict[str, Any]:
    replace_file(parts, "MODELS.md", "default", text)
    return parts


# An append-only PR: two more concurrency points on the existing dsv4 vLLM curve.
APPEND_ENTRY = EXISTING_ENTRY.replace("conc-end: 256", "conc-end: 1024")
BASE_SCRIPT_PATH = "benchmarks/single_node/fixed_seq_len/dsv4_fp4_b200_vllm.sh"
APPEND_CHANGELOG = """\
- config-keys:
    - dsv4-fp4-b200-vllm
  description:
    - Append concurrency 512 and 1024 to the DeepSeek-V4 FP4 B200 vLLM curve
  pr-link: XXX
  append-only: true
"""


def changelog_patch(added: str, at: int = 120) -> str:
    lines = added.rstrip("\n").split("\n")
    return f"@@ -{at},1 +{at},{len(lines) + 1} @@\n context line\n" + "\n".join(
        "+" + line for line in lines
    )


def select_in_changelog(parts: dict[str, Any], *keys: str) -> dict[str, Any]:
    """The PR's new perf-changelog.yaml entry selects `keys` (run-sweep.yml benchmarks those)."""
    items = "".join(f"    - {key}\n" for key in keys)
    added = f"- config-keys:\n{items}  description:\n    - Sweep {keys[0]}\n  pr-link: XXX\n"
    changed = next(f for f in parts["changed_files"] if f["path"] == "perf-changelog.yaml")
    changed["patch"] = changelog_patch(added)
    return parts


def append_only_parts(
    head_entry: str = APPEND_ENTRY, changelog: str = APPEND_CHANGELOG
) -> dict[str, Any]:
    """The passing PR turned into an append-only one: the existing config gains points."""
    parts = passing_parts()
    master = "configs/nvidia-master.yaml"
    parts["changed_files"] = [
        {"path": master, "status": "modified", "patch": unified_patch(EXISTING_ENTRY, head_entry)},
        {"path": "perf-changelog.yaml", "status": "modified", "patch": changelog_patch(changelog)},
    ]
    replace_file(parts, master, "base", EXISTING_ENTRY)
    replace_file(parts, master, "head", head_entry)
    parts["files"] = [f for f in parts["files"] if f["path"] != SCRIPT_PATH]
    plain = SCRIPT.replace(
        '  --speculative-config \'{"method": "mtp", "num_speculative_tokens": 3}\' \\\n', ""
    )
    replace_file(parts, BASE_SCRIPT_PATH, "head", plain)
    # The recipe page documents the plain (no MTP) launch too: Check 3 compares with that one.
    upstream_file = parts["upstream"][0]["files"][0]
    upstream_file["text"] += PLAIN_RECIPE_SECTION
    return with_models_md(parts)


PLAIN_RECIPE_SECTION = """
## Without speculative decoding

```bash
vllm serve deepseek-ai/DeepSeek-V4-Pro \\
  --tensor-parallel-size 8 \\
  --enable-expert-parallel \\
  --kv-cache-dtype fp8 \\
  --attention-backend FLASHMLA
```
"""


# --- today's standard (E9-E11, after 2026-08-21) -------------------------------------------------

DRAFT_EVIDENCE = (
    "- Draft precision: the MTP head ships in FP8 inside the deepseek-ai/DeepSeek-V4-Pro "
    "checkpoint; vLLM loads it as stored, so the draft serves in FP8."
)
PR_BODY = (
    "Adds `dsv4-fp4-b200-vllm-mtp`: DeepSeek-V4 FP4 on B200 with vLLM MTP, on "
    "`vllm/vllm-openai:v0.11.1`."
)


def throughput_row(conc: int, e2el: float, tput: float, **extra: Any) -> dict[str, Any]:
    """One measured point of `agg_bmk.json` for the PR's new dsv4 MTP entry."""
    row: dict[str, Any] = {
        "infmax_model_prefix": "dsv4", "hw": "b200", "framework": "vllm", "precision": "fp4",
        "spec_decoding": "mtp", "isl": 8192, "osl": 1024, "conc": conc,
        "image": "vllm/vllm-openai:v0.11.1", "tput_per_gpu": tput, "median_e2el": e2el,
    }  # fmt: skip
    return {**row, **extra}


def measured_curve(points: int) -> list[dict[str, Any]]:
    """`points` frontier points: more concurrency, more latency and more throughput."""
    return [throughput_row(4 * 2**i, 2.0 + i, 500.0 + 300 * i) for i in range(points)]


def current_parts() -> dict[str, Any]:
    """The passing PR as today's standard (E11, Checks 0-15) wants it: MODELS.md read, the
    draft's precision in the detail section, five measured frontier points, and a description
    naming the new config key and its image."""
    parts = with_models_md(passing_parts())
    set_detail(parts, DRAFT_EVIDENCE)
    parts["throughput"] = {"run_id": RUN_ID, "available": True, "rows": measured_curve(5)}
    parts["pull_request"]["body"] = PR_BODY
    return parts
