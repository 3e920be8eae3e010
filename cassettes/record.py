"""Record signoff's GitHub cassettes from the ghemu emulator.

    python cassettes/record.py [--only NAME] [--list]

For each scenario variant: start ghemu in-process on the scenario (scenarios/base.yaml plus a
small patch defined below), run the real pipeline `signoff.verify.verify` (pin, gather, judge and,
for publishing variants, write) through `signoff.github.client.connect(mode="test")` under vcrpy, so that
`signoff verify <signoff_url> --replay <NAME>.yaml [--publish]` replays it exactly. Then rewrite
the recording so it looks like GitHub: the emulator base URL becomes https://api.github.com (URIs,
bodies, Link and Location headers), artifact blob redirects become
pipelines.actions.githubusercontent.com URLs without a query string, Authorization and volatile
headers (Date, rate-limit reset) are removed or frozen. Writes `<NAME>.yaml` (the cassette) and
`<NAME>.json` (sign-off URL, pinned head, publish, verdict, request count). The verdict each
variant must give is declared with it; recording stops when the run disagrees. Re-recording yields
identical files.
"""

from __future__ import annotations

import argparse
import copy
import datetime as dt
import hashlib
import json
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import vcr
import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from emulator import require_ghemu  # noqa: E402

require_ghemu()

import ghemu.util  # noqa: E402
from ghemu import Emulator, State  # noqa: E402

import signoff.github.pool  # noqa: E402
import signoff.verify  # noqa: E402
from signoff.github.client import connect  # noqa: E402
from signoff.policy import load_policy  # noqa: E402
from signoff.refs import parse_signoff_url  # noqa: E402
from signoff.standards import resolve_standard  # noqa: E402
from signoff.verify import verify  # noqa: E402

# Record one read at a time, in the order a sequential client asks: the cassette's interaction
# order is then the same on every recording (replay matches answers whatever order they go in).
signoff.github.pool.WORKERS = 1

REPO = "SemiAnalysisAI/InferenceX"
PR = 2700
GITHUB_API = "https://api.github.com"
BLOB_HOST = "https://pipelines.actions.githubusercontent.com"
RAW_HOST = "https://raw.githubusercontent.com"
FROZEN_RESET = "1787400000"
DROP_RESPONSE_HEADERS = {"date", "server", "connection", "keep-alive"}
MATCH_ON = ["method", "scheme", "host", "port", "path", "query"]
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
    data = yaml.safe_load((HERE / "scenarios" / "base.yaml").read_text(encoding="utf-8"))
    checklist = (HERE / "scenarios" / "checklist_v21.md").read_text(encoding="utf-8")
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


# --- variants ------------------------------------------------------------------------------

BOT = "github-actions[bot]"  # who an installation token's comments are by (GET /user is 403)
MARKER = "codeowner-signoff-verify"


class Variant:
    """One recording: a scenario patch (returns the sign-off URL) and how verify runs on it.

    `publish`: run verify with publish=True (records GET /user, the comment write and the status).
    `after_pin`: called with the live emulator right after verify pinned the head (head moves).
    `expect`: (verdict, failing check numbers); recording stops if the run disagrees.
    `standard`: the standard to verify under (None: the profile's default, Checks 0-8); the
    numbers in `expect` are that standard's. A run that cannot verify expects ("ERROR", ()) and
    names a piece of its error in `error`.
    """

    def __init__(
        self,
        name: str,
        note: str,
        patch: Callable[[dict[str, Any]], str] | None = None,
        *,
        publish: bool = False,
        after_pin: Callable[[Emulator], None] | None = None,
        expect: tuple[str, tuple[int, ...]] = ("PASS", ()),
        standard: str | None = None,
        error: str = "",
        warns: tuple[int, ...] = (),
    ) -> None:
        self.name, self.note, self.patch = name, note, patch
        self.publish, self.after_pin, self.expect = publish, after_pin, expect
        self.standard = standard
        self.warns = warns  # check numbers that must WARN (warning-only checks, E10+)
        self.error = error  # text the run's could-not-verify (or publish) error must contain


def _pull(data: dict[str, Any]) -> dict[str, Any]:
    return data["repos"][REPO]["pulls"][0]


def _signoff_comment(data: dict[str, Any]) -> dict[str, Any]:
    return _pull(data)["comments"].pop()


def _url(anchor: str) -> str:
    return f"https://github.com/{REPO}/pull/{PR}#{anchor}"


def _head_of(data: dict[str, Any]) -> str:
    """The SHA the emulator will give the PR head (commit SHAs are derived from content)."""
    repo = State(copy.deepcopy(data)).repo(*REPO.split("/"))
    return str(repo.issues[PR]["head"]["sha"])


def pass_conversation(data: dict[str, Any]) -> str:
    return _url(f"issuecomment-{SIGNOFF_COMMENT_ID}")


def review_summary(data: dict[str, Any]) -> str:
    comment = _signoff_comment(data)
    _pull(data)["reviews"] = [
        {
            "id": 2900027001,
            "user": "kedarpotdar-nv",
            "state": "APPROVED",
            "body": comment["body"],
            "submitted_at": "2026-08-18T14:00:00Z",
            "commit_id": "p2",
            "author_association": "MEMBER",
        }
    ]
    return _url("pullrequestreview-2900027001")


def inline_review_comment(data: dict[str, Any]) -> str:
    comment = _signoff_comment(data)
    _pull(data)["review_comments"] = [
        {
            "id": 1900027001,
            "user": "kedarpotdar-nv",
            "path": "configs/nvidia-master.yaml",
            "line": 30,
            "body": comment["body"],
            "diff_hunk": "@@ -28,3 +28,18 @@",
            "commit_id": "p2",
            "created_at": "2026-08-18T14:00:00Z",
            "author_association": "MEMBER",
        }
    ]
    return _url("discussion_r1900027001")


def many_comments_and_files(data: dict[str, Any]) -> str:
    pull = _pull(data)
    notes = {f"docs/notes/dsv4_mtp_{i:03d}.md": f"note {i}\n" for i in range(120)}
    pull["commits"][1]["files"].update(notes)
    signoff = pull["comments"].pop()
    chatter = [
        {
            "id": 2400028000 + i,
            "user": "nv-perf-dev" if i % 2 else "ankur-singh",
            "author_association": "COLLABORATOR" if i % 2 else "MEMBER",
            "created_at": f"2026-08-18T{10 + i // 60:02d}:{i % 60:02d}:30Z",
            "body": f"status update {i}",
        }
        for i in range(127)
    ]
    pull["comments"].extend([*chatter, signoff])
    return pass_conversation(data)


def team_403(data: dict[str, Any]) -> str:
    data["orgs"]["InferenceX"]["team_access"] = "forbidden"
    comment = _pull(data)["comments"][-1]
    comment["user"] = "core-reviewer"
    comment["body"] = comment["body"].replace("Signed: `kedarpotdar-nv`", "Signed: `core-reviewer`")
    return pass_conversation(data)


def flaky_5xx(data: dict[str, Any]) -> str:
    data["faults"] = [
        {
            "method": "GET",
            "path": rf"^/repos/{REPO}/pulls/{PR}/files$",
            "effect": "status",
            "status": 502,
            "count": 1,
        },
        {  # (a REST read every verdict makes: the head's check runs come from GraphQL)
            "method": "GET",
            "path": r"/actions/runs/\d+/artifacts$",
            "effect": "status",
            "status": 503,
            "count": 1,
        },
    ]
    return pass_conversation(data)


def secondary_rate_limit(data: dict[str, Any]) -> str:
    data["faults"] = [
        {
            "method": "GET",
            "path": rf"^/repos/{REPO}/pulls/{PR}/files$",  # (the comments come from GraphQL)
            "effect": "secondary_rate_limit",
            "retry_after": 1,
            "count": 1,
        },
    ]
    return pass_conversation(data)


def expired_artifact(data: dict[str, Any]) -> str:
    data["repos"][REPO]["workflow_runs"][0]["artifacts"][0]["expired"] = True
    return pass_conversation(data)


def artifact_gone_410(data: dict[str, Any]) -> str:
    """Listed as not expired, but the download answers 410 (expired between list and download)."""
    data["faults"] = [
        {
            "method": "GET",
            "path": r"/actions/artifacts/\d+/zip$",
            "effect": "status",
            "status": 410,
            "count": 1,
        },
    ]
    return pass_conversation(data)


def _add_commit(data: dict[str, Any], files: dict[str, str], message: str) -> None:
    _pull(data)["commits"].append(
        {
            "id": "p3",
            "date": "2026-08-18T15:30:00Z",
            "author": "nv-perf-dev",
            "message": message,
            "files": files,
        }
    )


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


# Per-check failures: each breaks exactly one rule of the PASS scenario.

SCRIPT_PATH = "benchmarks/single_node/fixed_seq_len/dsv4_fp4_b200_vllm_mtp.sh"


def _edit_signoff(data: dict[str, Any], old: str, new: str) -> None:
    comment = _pull(data)["comments"][-1]
    assert old in comment["body"], old
    comment["body"] = comment["body"].replace(old, new)


def _edit_pr_file(data: dict[str, Any], path: str, old: str, new: str) -> None:
    files = _pull(data)["commits"][0]["files"]
    assert old in files[path], (path, old)
    files[path] = files[path].replace(old, new)


def _select_in_changelog(data: dict[str, Any], key: str) -> None:
    """The PR's changelog entry (added in p2) also selects `key`, so the sweep benchmarks it."""
    files = _pull(data)["commits"][1]["files"]
    selected = "    - dsv4-fp4-b200-vllm-mtp\n"
    assert selected in files["perf-changelog.yaml"]
    files["perf-changelog.yaml"] = files["perf-changelog.yaml"].replace(
        selected, f"{selected}    - {key}\n"
    )


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


def fail_upstream_image(data: dict[str, Any]) -> str:
    """6: a vllm entry on b200 runs rocm/vllm-dev instead of a vllm/ image."""
    _edit_pr_file(
        data,
        "configs/nvidia-master.yaml",
        "image: vllm/vllm-openai:v0.11.2\n  model: deepseek-ai/DeepSeek-V4-Pro\n"
        "  model-prefix: dsv4\n  precision: fp4\n  framework: vllm\n  runner: b200-dsv4\n"
        "  multinode: false\n  scenarios:\n    fixed-seq-len:\n      - isl: 8192\n"
        "        osl: 1024\n        search-space:\n          - {tp: 8, ep: 1, spec",
        "image: rocm/vllm-dev:nightly\n  model: deepseek-ai/DeepSeek-V4-Pro\n"
        "  model-prefix: dsv4\n  precision: fp4\n  framework: vllm\n  runner: b200-dsv4\n"
        "  multinode: false\n  scenarios:\n    fixed-seq-len:\n      - isl: 8192\n"
        "        osl: 1024\n        search-space:\n          - {tp: 8, ep: 1, spec",
    )
    return pass_conversation(data)


def fail_no_arch_hacks(data: dict[str, Any]) -> str:
    """7: the script passes --hf-overrides to the server."""
    _edit_pr_file(
        data,
        SCRIPT_PATH,
        "--kv-cache-dtype fp8 \\\n",
        "--kv-cache-dtype fp8 \\\n  --hf-overrides '{\"num_hidden_layers\": 40}' \\\n",
    )
    return pass_conversation(data)


def fail_spec_chat_template(data: dict[str, Any]) -> str:
    """8: the MTP script benchmarks without --use-chat-template."""
    _edit_pr_file(
        data, SCRIPT_PATH, ' \\\n  --conc "$CONC" --use-chat-template\n', ' \\\n  --conc "$CONC"\n'
    )
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


# Hostile text (issue 6 items 4, 5, 10; issue 7 item 5): each edits what a PR author or
# reviewer controls and records the verdict, the status and the comment as published.


def negated_exception(data: dict[str, Any]) -> str:
    """6: a rocm/vllm-dev image on b200, "excused" only by negated exception wording."""
    fail_upstream_image(data)
    _edit_signoff(
        data,
        "- Recipe: https://github.com/vllm-project/recipes/pull/412 (merged)\n",
        "- Recipe: https://github.com/vllm-project/recipes/pull/412 (merged)\n"
        "- Image: B200 is not new hardware, and DeepSeek-V4 isn't a new model architecture.\n",
    )
    return pass_conversation(data)


def fail_spec_true_or(data: dict[str, Any]) -> str:
    """8: `true || run_benchmark_serving --use-chat-template` beside the real call without it."""
    _edit_pr_file(
        data,
        SCRIPT_PATH,
        'run_benchmark_serving --model "$MODEL" --port "$PORT" --isl "$ISL" --osl "$OSL" \\\n'
        '  --conc "$CONC" --use-chat-template\n',
        'true || run_benchmark_serving --model "$MODEL" --use-chat-template\n'
        'run_benchmark_serving --model "$MODEL" --port "$PORT" --isl "$ISL" --osl "$OSL" \\\n'
        '  --conc "$CONC"\n',
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


def fail_arch_underscore(data: dict[str, Any]) -> str:
    """7: `--hf_overrides`, which vLLM's parser reads as `--hf-overrides`."""
    _edit_pr_file(
        data,
        SCRIPT_PATH,
        "--kv-cache-dtype fp8 \\\n",
        "--kv-cache-dtype fp8 \\\n  --hf_overrides '{\"num_hidden_layers\": 40}' \\\n",
    )
    return pass_conversation(data)


def one_na_all_unchecked(data: dict[str, Any]) -> str:
    """5: every box unchecked; one "quantization n/a" and a configuration/api link below."""
    comment = _pull(data)["comments"][-1]
    comment["body"] = (
        comment["body"]
        .replace("- [x]", "- [ ]")
        .replace(
            "- Recipe: https://github.com/vllm-project/recipes/pull/412 (merged)\n",
            "- Recipe: https://github.com/vllm-project/recipes/pull/412 (merged)\n"
            "- quantization n/a\n"
            "- Flags: https://docs.vllm.ai/en/latest/configuration/api.html\n",
        )
    )
    return pass_conversation(data)


def tab_after_box(data: dict[str, Any]) -> str:
    """A sign-off typed with a tab after every box: GitHub ticks each item; so must we."""
    comment = _pull(data)["comments"][-1]
    assert comment["body"].count("- [x] ") >= 15
    comment["body"] = comment["body"].replace("- [x] ", "- [x]\t")
    return pass_conversation(data)


MARKDOWN_IMAGE = "![PASS](https://img.shields.io/badge/verdict-PASS-brightgreen)"


def image_markdown(data: dict[str, Any]) -> str:
    """6: the entry's image: value is Markdown for a green PASS badge."""
    _edit_pr_file(
        data,
        "configs/nvidia-master.yaml",
        "image: vllm/vllm-openai:v0.11.2\n  model: deepseek-ai/DeepSeek-V4-Pro",
        f'image: "{MARKDOWN_IMAGE}"\n  model: deepseek-ai/DeepSeek-V4-Pro',
    )
    _select_in_changelog(data, "dsv4-fp4-b200-vllm")
    return pass_conversation(data)


def forged_verdict(data: dict[str, Any]) -> str:
    """A user posted our marker for the head with **Verdict: PASS**; it must be left alone."""
    marker = f"<!-- {MARKER} sha={_head_of(data)} -->"
    _pull(data)["comments"].insert(
        2,
        {
            "id": 2400027101,
            "user": "mallory-x",
            "author_association": "NONE",
            "created_at": "2026-08-18T13:50:00Z",
            "body": f"{marker}\n## ✅✅✅ **Verdict: PASS** ✅✅✅\n\nAll checks passed.\n",
        },
    )
    return pass_conversation(data)


def edited_by_collaborator(data: dict[str, Any]) -> str:
    """0: the PR's author (a write collaborator) ticked the owner's unticked box by editing the
    owner's comment; REST shows the owner as author and the ticked text."""
    comment = _pull(data)["comments"][-1]
    ticked = comment["body"]
    comment["body"] = ticked.replace(
        "- [x] Copied the latest version", "- [ ] Copied the latest version"
    )
    assert comment["body"] != ticked
    comment["edits"] = [{"editor": "nv-perf-dev", "at": "2026-08-18T14:05:00Z", "body": ticked}]
    return pass_conversation(data)


MALLORY_ID = 2400027201


def _verdict_of_ours(data: dict[str, Any], verdict: str = "PASS") -> int:
    """Our earlier verdict comment for the head (posted by the workflow's token), and its id."""
    marker = f"<!-- {MARKER} sha={_head_of(data)} -->"
    header = (
        "## ✅✅✅ **Verdict: PASS** ✅✅✅"
        if verdict == "PASS"
        else "## ❌❌❌ **REJECTED** ❌❌❌"
    )
    _pull(data)["comments"].append(
        {
            "id": 2400027100,
            "user": BOT,
            "user_type": "Bot",
            "author_association": "NONE",
            "created_at": "2026-08-18T14:02:00Z",
            "body": f"{marker}\n{header}\n\nverified earlier\n",
        }
    )
    return 2400027100


def nonowner_after_pass(data: dict[str, Any]) -> str:
    """After the owner's PASS, an account with no association posts a copy of the sign-off."""
    _verdict_of_ours(data)
    owner = _pull(data)["comments"][2]
    _pull(data)["comments"].append(
        {
            "id": MALLORY_ID,
            "user": "mallory-x",
            "author_association": "NONE",
            "created_at": "2026-08-18T15:00:00Z",
            "body": owner["body"].replace("`kedarpotdar-nv`", "`mallory-x`"),
        }
    )
    return _url(f"issuecomment-{MALLORY_ID}")


def not_signoff_our_verdict(data: dict[str, Any]) -> str:
    """`verify --publish` on our own verdict comment (it quotes no opener, carries the marker)."""
    return _url(f"issuecomment-{_verdict_of_ours(data)}")


def not_signoff_bot(data: dict[str, Any]) -> str:
    """`verify --publish` on a bot's comment (the recipe reminder)."""
    _verdict_of_ours(data)
    return _url("issuecomment-2400027001")


def not_signoff_remark(data: dict[str, Any]) -> str:
    """`verify --publish` on a plain remark by an owner (no opener)."""
    _verdict_of_ours(data)
    _pull(data)["comments"].append(
        {
            "id": 2400027202,
            "user": "ankur-singh",
            "author_association": "MEMBER",
            "created_at": "2026-08-18T15:10:00Z",
            "body": "Looks good to me; the MTP numbers match what we saw internally.",
        }
    )
    return _url("issuecomment-2400027202")


def superseded_signoff(data: dict[str, Any]) -> str:
    """Two owners signed off; the older sign-off's verification must not overwrite the newer's."""
    owner = _pull(data)["comments"][2]
    _pull(data)["comments"].append(
        {
            "id": 2400027203,
            "user": "ankur-singh",
            "author_association": "MEMBER",
            "created_at": "2026-08-18T14:30:00Z",
            "body": owner["body"].replace("`kedarpotdar-nv`", "`ankur-singh`"),
        }
    )
    return pass_conversation(data)


# A PR at GitHub's list caps: 3,000 files (30 pages), 250 commits (3 pages), 1,000 comments.
LARGE_FILES, LARGE_COMMITS, LARGE_COMMENTS = 3000, 250, 1000


def large_pr(data: dict[str, Any]) -> str:
    """2,997 one-line notes over 248 commits before p1/p2, 997 chatter comments before ours."""
    pull = _pull(data)
    extra_commits = LARGE_COMMITS - len(pull["commits"])
    extra_files = LARGE_FILES - 3  # p1/p2 change the master config, the script, the changelog
    commits: list[dict[str, Any]] = []
    for index in range(extra_commits):
        minute = 8 * 60 + index * 3  # 2026-08-17 08:00 onwards, three minutes apart
        commits.append(
            {
                "id": f"n{index + 1}",
                "date": f"2026-08-17T{minute // 60:02d}:{minute % 60:02d}:00Z",
                "author": "nv-perf-dev",
                "message": f"notes batch {index + 1}",
                "files": {
                    f"docs/notes/n{i:04d}.md": f"n{i}\n"
                    for i in range(extra_files)
                    if i % extra_commits == index
                },
            }
        )
    pull["commits"] = [*commits, *pull["commits"]]
    comments = pull["comments"]
    chatter = [
        {
            "id": 2400030000 + i,
            "user": "nv-perf-dev" if i % 2 else "ankur-singh",
            "author_association": "COLLABORATOR" if i % 2 else "MEMBER",
            "created_at": f"2026-08-18T{9 + (120 + i * 15) // 3600:02d}:"
            f"{(120 + i * 15) % 3600 // 60:02d}:{(120 + i * 15) % 60:02d}Z",
            "body": f"sweep status {i}",
        }
        for i in range(LARGE_COMMENTS - len(comments))
    ]
    pull["comments"] = [comments[0], *chatter, *comments[1:]]
    return pass_conversation(data)


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


def _job_artifact(index: int, strict: float) -> dict[str, Any]:
    """One eval job's artifact: its meta_env.json and lm-eval results (gsm8k)."""
    results = {
        "lm_eval_version": "0.4.9",
        "results": {
            "gsm8k": {"exact_match,strict-match": strict, "exact_match,flexible-extract": strict}
        },
        "n-samples": {"gsm8k": {"original": 1319, "effective": 1319}},
    }
    meta = {"infmax_model_prefix": "dsv4", "framework": "vllm", "precision": "fp4", "hw": "b200"}
    return {
        "id": 3000002710 + index,
        "name": f"eval_dsv4_8k1k_fp4_vllm_tp8-ep1_conc64_b200-nv_{index}",
        "files": {"meta_env.json": meta, "results_2026.json": results},
    }


def eval_jobs_past_eight(data: dict[str, Any]) -> str:
    """2: no aggregate; nine eval-job artifacts, the last by name below the bar (0.5): reading
    only the first eight by name judged the run on part of its evals."""
    run = data["repos"][REPO]["workflow_runs"][0]
    jobs = [_job_artifact(i, 0.95) for i in range(8)] + [_job_artifact(8, 0.5)]
    run["artifacts"] = [*jobs, *run["artifacts"][1:]]  # the server-logs artifact stays
    return pass_conversation(data)


def eval_jobs_past_the_bound(data: dict[str, Any]) -> str:
    """2: no aggregate; 17 eval-job artifacts, one more than is read: none is read."""
    run = data["repos"][REPO]["workflow_runs"][0]
    run["artifacts"] = [_job_artifact(i, 0.95) for i in range(17)]
    return pass_conversation(data)


def eval_json_bomb(data: dict[str, Any]) -> str:
    """2: agg_eval_all.json is the real rows and 9,000 copies (4.3 MB of text, ~40 KB zipped)."""
    rows = [*AGG_ROWS, *([AGG_ROWS[0]] * 9_000)]
    text = "[" + ",".join(json.dumps(row) for row in rows) + "]\n"
    data["repos"][REPO]["workflow_runs"][0]["artifacts"][0]["files"]["agg_eval_all.json"] = text
    return pass_conversation(data)


def eval_job_number_too_wide(data: dict[str, Any]) -> str:
    """2: no aggregate; the eval job's lm-eval results give gsm8k a 401-digit integer score."""
    artifact = data["repos"][REPO]["workflow_runs"][0]["artifacts"][0]
    score = "1" + "0" * 400  # float() of it raises OverflowError
    results = (
        '{"lm_eval_version": "0.4.9", "results": {"gsm8k": {"alias": "gsm8k", '
        f'"exact_match,strict-match": {score}, "exact_match,flexible-extract": 0.95}}}}, '
        '"n-samples": {"gsm8k": {"original": 1319, "effective": 1319}}}\n'
    )
    meta = {"infmax_model_prefix": "dsv4", "framework": "vllm", "precision": "fp4", "hw": "b200"}
    artifact["name"] = "eval_dsv4_8k1k_fp4_vllm_tp8-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_conc64"
    artifact["files"] = {"meta_env.json": {**meta, "conc": 64}, "results_2026.json": results}
    return pass_conversation(data)


FILES_LIST = rf"^/repos/{REPO}/pulls/{PR}/files$"


def _fault(data: dict[str, Any], **rule: Any) -> None:
    data.setdefault("faults", []).append(rule)


def truncated_json_once(data: dict[str, Any]) -> str:
    """The files list answers 200 with half its body once; the read is asked again."""
    _fault(data, method="GET", path=FILES_LIST, effect="truncated_json", count=1)
    return pass_conversation(data)


def truncated_json(data: dict[str, Any]) -> str:
    """The files list answers 200 with half its body every time: could not verify."""
    _fault(data, method="GET", path=FILES_LIST, effect="truncated_json", count=-1)
    return pass_conversation(data)


def html_answer(data: dict[str, Any]) -> str:
    """GraphQL answers 200 with an HTML error page every time (the first query carries the
    policy texts, the commits and the head's check runs)."""
    _fault(data, method="POST", path=r"/graphql$", effect="invalid_json", count=-1)
    return pass_conversation(data)


def comment_answer_truncated(data: dict[str, Any]) -> str:
    """The verdict comment POST lands but its answer is cut short: not repeated, exit 3."""
    _fault(data, method="POST", path=rf"/issues/{PR}/comments$", effect="truncated_json")
    return pass_conversation(data)


# Past the caps: 3,200 files over 260 commits (GitHub lists 3,000 files and 250 commits).
BEYOND_FILES, BEYOND_COMMITS = 3200, 260


def beyond_caps(data: dict[str, Any]) -> str:
    """3,197 one-line notes over 258 commits before p1/p2 (the three comments of the base)."""
    pull = _pull(data)
    extra_commits = BEYOND_COMMITS - len(pull["commits"])
    extra_files = BEYOND_FILES - 3
    commits = []
    for index in range(extra_commits):
        minute = 6 * 60 + index * 2  # 2026-08-17 06:00 onwards, two minutes apart
        commits.append(
            {
                "id": f"b{index + 1}",
                "date": f"2026-08-17T{minute // 60:02d}:{minute % 60:02d}:00Z",
                "author": "nv-perf-dev",
                "message": f"notes batch {index + 1}",
                "files": {
                    f"docs/notes/b{i:04d}.md": f"b{i}\n"
                    for i in range(extra_files)
                    if i % extra_commits == index
                },
            }
        )
    pull["commits"] = [*commits, *pull["commits"]]
    return pass_conversation(data)


VARIANTS = [
    Variant(
        "pass_conversation",
        "PASS: conversation-comment sign-off by a directly listed owner",
        pass_conversation,
    ),
    Variant(
        "demo",
        "README Quick start: PASS, verdict comment and status published",
        pass_conversation,
        publish=True,
    ),
    Variant(
        "review_summary", "sign-off as a review summary (pulls/{n}/reviews/{id})", review_summary
    ),
    Variant(
        "inline_review_comment",
        "sign-off as an inline review comment (pulls/comments/{id})",
        inline_review_comment,
    ),
    Variant(
        "many_comments_and_files",
        "130 comments and 123 files: two pages each",
        many_comments_and_files,
    ),
    Variant(
        "team_403",
        "signer only via @InferenceX/core; team reads answer 403",
        team_403,
        expect=("REJECTED", (0,)),
    ),
    Variant(
        "flaky_5xx", "502 on the files list and 503 on the artifact list, then success", flaky_5xx
    ),
    Variant(
        "secondary_rate_limit",
        "secondary rate limit (403 + Retry-After) on the files list",
        secondary_rate_limit,
    ),
    Variant(
        "expired_artifact",
        "eval_results_all listed as expired",
        expired_artifact,
        expect=("REJECTED", (2,)),
    ),
    Variant(
        "artifact_gone_410",
        "eval_results_all download answers 410",
        artifact_gone_410,
        expect=("REJECTED", (2,)),
    ),
    Variant(
        "unswept_entry",
        "the PR changes an existing entry its changelog entry does not select",
        unswept_entry,
        expect=("REJECTED", (1, 2)),
    ),
    Variant(
        "eval_jobs_past_eight",
        "no aggregate; 9 eval-job artifacts, the 9th by name below the bar",
        eval_jobs_past_eight,
        expect=("REJECTED", (2,)),
    ),
    Variant(
        "eval_jobs_past_the_bound",
        "no aggregate; 17 eval-job artifacts, past the 16 read",
        eval_jobs_past_the_bound,
        expect=("REJECTED", (2,)),
    ),
    Variant(
        "eval_json_bomb",
        "agg_eval_all.json is 4.3 MB of rows (~40 KB zipped)",
        eval_json_bomb,
        expect=("REJECTED", (2,)),
    ),
    Variant(
        "eval_job_number_too_wide",
        "a per-job lm-eval score is a 401-digit integer",
        eval_job_number_too_wide,
        expect=("REJECTED", (2,)),
    ),
    Variant(
        "head_moved",
        "pinned head p2; p3 pushed right after the pin",
        pass_conversation,
        after_pin=push_readme_commit,
    ),
    Variant("sweep_older_merge", "green sweep on p2; p3 merges main only", sweep_older_merge),
    Variant(
        "sweep_older_recipe_change",
        "green sweep on p2; p3 changes the script: the evals are of another recipe",
        sweep_older_recipe_change,
        expect=("REJECTED", (1, 2)),
    ),
    Variant(
        "fail_codeowner",
        "check 0: an AMD-only owner signs an nvidia-master change",
        fail_codeowner,
        expect=("REJECTED", (0,)),
    ),
    Variant(
        "fail_sweep",
        "check 1: eval jobs skipped on every in-PR commit",
        fail_sweep,
        expect=("REJECTED", (1, 2)),
    ),
    Variant(
        "fail_sweep_lookalike",
        "checks 1, 2: a PR-added workflow prints green jobs with the sweep's names",
        fail_sweep_lookalike,
        expect=("REJECTED", (1, 2)),
    ),
    Variant(
        "fail_sweep_forged_details",
        "checks 1, 2: evals skipped; lookalike green eval jobs point details_url at the sweep",
        fail_sweep_forged_details,
        expect=("REJECTED", (1, 2)),
    ),
    Variant(
        "fail_sweep_shadowed_job",
        "checks 1, 2: a later green lookalike with a failed sweep job's name hides it",
        fail_sweep_shadowed_job,
        expect=("REJECTED", (1, 2)),
    ),
    Variant(
        "fail_sweep_definition",
        "checks 1, 2: the PR changes run-sweep.yml, so the sweep ran the PR's own definition",
        fail_sweep_definition,
        expect=("REJECTED", (1, 2)),
    ),
    Variant(
        "fail_evals",
        "check 2: gsm8k 0.905 below the dsv4 bar 0.91",
        fail_evals,
        expect=("REJECTED", (2,)),
    ),
    Variant(
        "fail_recipe",
        "check 3: upstream recipe PR still open",
        fail_recipe,
        expect=("REJECTED", (3,)),
    ),
    Variant(
        "recipe_args_in_context",
        "check 3: upstream PR edits an existing recipe; args in unchanged context lines",
        recipe_args_in_context,
    ),
    Variant(
        "fail_recipe_missing_arg",
        "check 3: the merged recipe lacks --kv-cache-dtype fp8",
        fail_recipe_missing_arg,
        expect=("REJECTED", (3,)),
    ),
    Variant(
        "fail_reuse_command",
        "check 4: no /reuse-sweep-run comment",
        fail_reuse_command,
        expect=("REJECTED", (4,)),
    ),
    Variant(
        "fail_latest_template",
        "check 5: sign-off lacks the APPEND_ONLY item",
        fail_latest_template,
        expect=("REJECTED", (5,)),
    ),
    Variant(
        "fail_upstream_image",
        "check 6: rocm/vllm-dev image for a vllm entry on b200",
        fail_upstream_image,
        expect=("REJECTED", (6,)),
    ),
    Variant(
        "fail_no_arch_hacks",
        "check 7: --hf-overrides in the benchmark script",
        fail_no_arch_hacks,
        expect=("REJECTED", (7,)),
    ),
    Variant(
        "fail_spec_chat_template",
        "check 8: MTP script without --use-chat-template",
        fail_spec_chat_template,
        expect=("REJECTED", (8,)),
    ),
    Variant(
        "edited_by_collaborator",
        "check 0: a collaborator edited (ticked) the owner's sign-off",
        edited_by_collaborator,
        expect=("REJECTED", (0,)),
    ),
    Variant(
        "fail_spec_true_or",
        "check 8: `true || ... --use-chat-template` beside the real call without it",
        fail_spec_true_or,
        expect=("REJECTED", (8,)),
    ),
    Variant(
        "fail_spec_subscript",
        "check 8: a clean recipe call, and a helper the PR adds run by file with the flagless one",
        fail_spec_subscript,
        expect=("REJECTED", (8,)),
    ),
    Variant(
        "fail_library_chat_template",
        "check 8: the PR's change to benchmark_lib.sh drops the chat template the script asks for",
        fail_library_chat_template,
        publish=True,
        expect=("REJECTED", (8,)),
    ),
    Variant(
        "sweep_older_metadata_line",
        "green sweep on p2; p3 adds a `pr-link:` line to the script (metadata only in the changelog)",
        sweep_older_metadata_line,
        publish=True,
        expect=("REJECTED", (1, 2)),
    ),
    Variant(
        "fail_repointed_launcher",
        "checks 7, 8: PATH puts the PR's bin/ first, where it adds a file named vllm",
        fail_repointed_launcher,
        publish=True,
        expect=("REJECTED", (7, 8)),
    ),
    Variant(
        "fail_launch_config_override",
        "check 7: `hf-overrides` in a --config YAML the PR adds (its keys are the launch's flags)",
        fail_launch_config_override,
        publish=True,
        expect=("REJECTED", (7,)),
    ),
    Variant(
        "fail_arch_underscore",
        "check 7: `--hf_overrides`, read by vLLM as --hf-overrides",
        fail_arch_underscore,
        expect=("REJECTED", (7,)),
    ),
    Variant(
        "negated_exception",
        "check 6: fork image on b200 with only a negated new-hardware/architecture exception",
        negated_exception,
        publish=True,
        expect=("REJECTED", (6,)),
    ),
    Variant(
        "one_na_all_unchecked",
        "check 5: every box unchecked, one 'quantization n/a' and a configuration/api link",
        one_na_all_unchecked,
        publish=True,
        expect=("REJECTED", (5,)),
    ),
    Variant(
        "tab_after_box",
        "issue 7.5: a tab after every task box; items parse as ticked and the sign-off passes",
        tab_after_box,
        publish=True,
    ),
    Variant(
        "image_markdown",
        "check 6: image: value is Markdown for a PASS badge; the comment shows it as code",
        image_markdown,
        publish=True,
        expect=("REJECTED", (6,)),
    ),
    Variant(
        "forged_verdict",
        "a user's comment carries our marker and Verdict: PASS; ours is created, theirs untouched",
        forged_verdict,
        publish=True,
    ),
    Variant(
        "nonowner_after_pass",
        "--publish: after a PASS, a NONE account's sign-off copy is skipped, nothing written",
        nonowner_after_pass,
        publish=True,
        expect=("SKIPPED", (0,)),
    ),
    Variant(
        "not_signoff_our_verdict",
        "--publish on our own verdict comment: not a sign-off, exit 2, nothing written",
        not_signoff_our_verdict,
        publish=True,
        expect=("ERROR", ()),  # stopped beside the pin: nothing judged
    ),
    Variant(
        "not_signoff_bot",
        "--publish on a bot's comment: not a sign-off, exit 2, nothing written",
        not_signoff_bot,
        publish=True,
        expect=("ERROR", ()),  # stopped beside the pin: nothing judged
    ),
    Variant(
        "not_signoff_remark",
        "--publish on a plain remark: not a sign-off, exit 2, nothing written",
        not_signoff_remark,
        publish=True,
        expect=("ERROR", ()),  # stopped beside the pin: nothing judged
    ),
    Variant(
        "superseded_signoff",
        "--publish on the older of two owners' sign-offs: skipped, the newer one's run writes",
        superseded_signoff,
        publish=True,
        expect=("SKIPPED", ()),
    ),
    Variant(
        "fail_deprecated_models",
        "check 7 (E8): the new config sweeps single-turn 1k1k, deprecated for all models",
        fail_deprecated_models,
        expect=("REJECTED", (7,)),
        standard="E8",
    ),
    Variant(
        "fail_engine_patches",
        "check 10 (E8): the script git-applies a patch to installed vLLM without a waiver",
        fail_engine_patches,
        expect=("REJECTED", (10,)),
        standard="E8",
    ),
    Variant(
        "pass_baseline_gap",
        "checks 3, 8-10 (E8): an unreadable eval the script already had on main is no new finding",
        pass_baseline_gap,
        expect=("PASS", ()),
        standard="E8",
    ),
    Variant(
        "fail_new_gap",
        "checks 3, 8-10 (E8): the same unreadable eval, added by the PR, fails closed",
        fail_new_gap,
        expect=("REJECTED", (3, 8, 9, 10)),
        standard="E8",
    ),
    Variant(
        "fail_agentic_golden_al",
        "check 11 (E8): an agentic MTP config pins AL 2.60 instead of the golden 2.49",
        fail_agentic_golden_al,
        expect=("REJECTED", (11,)),
        standard="E8",
    ),
    Variant(
        "fail_agentic_dead_knob",
        "check 11 (E8): the golden AL is set only in a function called behind `false &&`",
        fail_agentic_dead_knob,
        expect=("REJECTED", (11,)),
        standard="E8",
    ),
    Variant(
        "fail_append_only",
        "check 12 (E8): an append-only entry also changes the existing curve's ep",
        fail_append_only,
        expect=("REJECTED", (12,)),
        standard="E8",
    ),
    Variant(
        "fail_draft_precision",
        "check 13 (E9): the MTP draft is quantized (`quantization: fp8` in --speculative-config)",
        fail_draft_precision,
        expect=("REJECTED", (13,)),
        standard="E9",
    ),
    Variant(
        "warn_pareto_coverage",
        "check 14 (E10): 3 measured frontier points of the new curve (results_bmk): WARN",
        warn_pareto_coverage,
        expect=("WARN", ()),
        warns=(14,),
        standard="E10",
    ),
    Variant(
        "warn_pr_description",
        "check 15 (E11), --publish: the description names neither the key nor the image; a "
        "new comment with the WARN header and collapsed rows, a `success` status",
        warn_pr_description,
        publish=True,
        expect=("WARN", ()),
        warns=(15,),
        standard="E11",
    ),
    Variant(
        "large_pr",
        "3,000 files, 250 commits, 1,000 comments (GitHub's list caps; complete as declared)",
        large_pr,
    ),
    Variant(
        "beyond_caps",
        "3,200 files, 260 commits: commits from compare pages, files completed from git trees",
        beyond_caps,
    ),
    Variant(
        "fail_evals_no_prefix",
        "check 2: gsm8k 0.905 in a row without model_prefix, below the dsv4 bar 0.91",
        fail_evals_no_prefix,
        expect=("REJECTED", (2,)),
    ),
    Variant(
        "truncated_json_once",
        "the files list answers half its JSON once, then in full (asked again)",
        truncated_json_once,
    ),
    Variant(
        "truncated_json",
        "the files list always answers half its JSON: could not verify, nothing written",
        truncated_json,
        expect=("ERROR", ()),
        error="JSON body cut short",
    ),
    Variant(
        "truncated_json_publish",
        "as truncated_json with --publish: only an `error` status on the pinned head",
        truncated_json,
        publish=True,
        expect=("ERROR", ()),
        error="JSON body cut short",
    ),
    Variant(
        "html_answer",
        "GraphQL always answers 200 with an HTML page: could not verify",
        html_answer,
        expect=("ERROR", ()),
        error="not JSON",
    ),
    Variant(
        "comment_answer_truncated",
        "--publish: the comment POST's answer is cut short; no repeat, status still set",
        comment_answer_truncated,
        publish=True,
        expect=("ERROR", ()),
        error="could not write the verdict comment",
    ),
]

# --- recording -----------------------------------------------------------------------------


def record(variant: Variant) -> None:
    """Run the real pipeline, `signoff.verify.verify`, against ghemu under vcrpy."""
    data = base_scenario()
    signoff_url = variant.patch(data) if variant.patch else ""
    if variant.publish:
        data["viewer"] = BOT  # the workflow's GITHUB_TOKEN: GET /user is 403, comments by BOT
    pin_merge_commit(data)
    policy = load_policy()
    standard = resolve_standard(variant.standard, policy)
    ref = parse_signoff_url(signoff_url)
    original_pin, original_now = signoff.verify.pin_pull, ghemu.util.now
    ghemu.util.now = lambda: FROZEN_NOW  # deterministic created_at/updated_at on writes
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.yaml"
        emulator = Emulator(data)
        url = emulator.start()
        try:
            if variant.after_pin is not None:
                hook = variant.after_pin

                def pin_then_move(*args: Any, **kwargs: Any) -> str:
                    sha = original_pin(*args, **kwargs)
                    hook(emulator)
                    return sha

                vars(signoff.verify)["pin_pull"] = pin_then_move
            recorder = vcr.VCR(
                record_mode="all", match_on=MATCH_ON, decode_compressed_response=False
            )
            with recorder.use_cassette(str(raw)):
                gh = connect("ghemu-test-token", url, mode="test")
                outcome = verify(
                    gh,
                    ref,
                    policy,
                    publish=variant.publish,
                    identity=None,
                    standard=standard,
                    reviewed_at=FROZEN_NOW,
                )
        finally:
            vars(signoff.verify)["pin_pull"] = original_pin
            ghemu.util.now = original_now
            emulator.stop()
        text = rewrite(raw.read_text(encoding="utf-8"), url)
    verdict = outcome.verdict
    failing = tuple(c.number for c in verdict.failures) if verdict else ()
    warned = tuple(c.number for c in verdict.warnings) if verdict else ()
    got = (outcome.result, failing)
    error_ok = variant.error in outcome.error if variant.error else not outcome.error
    if got != variant.expect or warned != variant.warns or not error_ok:
        reasons = [f"{c.number}: {c.reason}" for c in verdict.failures] if verdict else []
        raise SystemExit(
            f"{variant.name}: expected {variant.expect}, got {got} {outcome.error} {reasons}"
        )
    (HERE / f"{variant.name}.yaml").write_text(text, encoding="utf-8")
    interactions = yaml.load(text, Loader=yaml.CSafeLoader)["interactions"]
    writes = [
        f"{i['request']['method']} {i['request']['uri'].removeprefix(GITHUB_API)}"
        for i in interactions
        if i["request"]["method"] != "GET" and not i["request"]["uri"].endswith("/graphql")
    ]
    info = {
        "name": variant.name,
        "note": variant.note,
        "signoff_url": signoff_url,
        "pinned_head": outcome.head_sha,
        "api_url": GITHUB_API,
        "publish": variant.publish,
        "command": f'signoff verify "{signoff_url}" --replay cassettes/{variant.name}.yaml'
        + (" --publish" if variant.publish else "")
        + (f" --standard {variant.standard}" if variant.standard else ""),
        "verdict": outcome.result,
        "exit_code": int(outcome.exit_code),
        "refused": outcome.not_signoff or outcome.skipped,
        "failed_checks": list(failing),
        "error": outcome.error,
        "head_moved_to": verdict.head_moved_to if verdict else None,
        "comment_action": outcome.comment_action,
        "status_state": outcome.status_state,
        "writes": writes,
        "requests": len(interactions),
        "recorded_by": "cassettes/record.py: signoff.verify.verify against ghemu "
        "(scenarios/base.yaml + variant)",
    }
    if variant.standard:  # only then: the 0-8 sidecars stay as they were
        info["standard"] = variant.standard
    if warned:
        info["warned_checks"] = list(warned)
    (HERE / f"{variant.name}.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    size = (HERE / f"{variant.name}.yaml").stat().st_size
    print(
        f"{variant.name}: {outcome.result} {list(failing)}, {len(interactions)} requests, "
        f"{size / 1e6:.2f} MB"
    )


def rewrite(text: str, base: str) -> str:
    """Make a recording against the emulator look like one against GitHub."""
    cassette = yaml.safe_load(text)
    for index, interaction in enumerate(cassette["interactions"]):
        request, response = interaction["request"], interaction["response"]
        request["uri"] = _github_urls(request["uri"], base)
        request["headers"] = {
            k: v
            for k, v in request["headers"].items()
            if k.lower() not in {"authorization", "user-agent"}
        }
        headers: dict[str, list[str]] = {}
        for key, values in response["headers"].items():
            lower = key.lower()
            if lower in DROP_RESPONSE_HEADERS:
                continue
            if lower == "x-ratelimit-reset":
                values = [FROZEN_RESET]
            elif lower == "x-github-request-id":
                values = [f"0000:0000:{index:06X}:SIGNOFF"]
            elif lower in {"link", "location"}:
                values = [_github_urls(value, base) for value in values]
            headers[key] = values
        body = response["body"].get("string")
        new_body = _rewrite_body(body, base)
        if new_body is not body:
            response["body"]["string"] = new_body
            for key in headers:
                if key.lower() == "content-length":
                    size = len(new_body.encode() if isinstance(new_body, str) else new_body)
                    headers[key] = [str(size)]
        for key in headers:
            if key.lower() == "etag":  # the emulator's ETag hashed the body before the rewrite
                raw_body = response["body"].get("string") or b""
                data = raw_body.encode() if isinstance(raw_body, str) else raw_body
                headers[key] = [f'W/"{hashlib.md5(data).hexdigest()}"']
        response["headers"] = headers
    return yaml.safe_dump(cassette, sort_keys=True, allow_unicode=True, width=100)


def _rewrite_body(body: Any, base: str) -> Any:
    if isinstance(body, bytes):
        try:
            decoded = body.decode("utf-8")
        except UnicodeDecodeError:
            return body  # a zip blob
        replaced = _github_urls(decoded, base)
        return replaced if replaced != decoded else body
    if isinstance(body, str):
        replaced = _github_urls(body, base)
        return replaced if replaced != body else body
    return body


def _github_urls(text: str, base: str) -> str:
    text = re.sub(r"request ID [0-9A-F]{8,}", "request ID 0000000000000000", text)
    text = re.sub(
        re.escape(base) + r"/_ghemu/blobs/([^\s\"?]*)(\?[^\s\"]*)?", BLOB_HOST + r"/\1", text
    )
    text = re.sub(re.escape(base) + r"/_ghemu/raw/", RAW_HOST + "/", text)
    return text.replace(base, GITHUB_API)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="record only this variant (repeatable)")
    parser.add_argument("--list", action="store_true", help="list variants and exit")
    args = parser.parse_args(argv)
    if args.list:
        for variant in VARIANTS:
            print(f"{variant.name:28} {variant.note}")
        return 0
    chosen = [v for v in VARIANTS if not args.only or v.name in args.only]
    if args.only and len(chosen) != len(set(args.only)):
        parser.error(f"unknown variant in {args.only}")
    for variant in chosen:
        record(variant)
    return 0


if __name__ == "__main__":
    sys.exit(main())
