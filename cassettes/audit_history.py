"""An InferenceX-like history of merged PRs for `signoff audit`, as a ghemu scenario.

    history(count=48)  -> scenario dict (the audit cassettes' 48-PR history)
    history(count=300, mix=True) -> a generated 300-PR history for tests/bench/bench_audit.py

The default branch changes over time the way InferenceX's did (facts §1.3, §2.1, §3.1, §3.3):
the checklist template moves V9 -> V13 -> V18 -> V19 -> V21 at its real instants, CODEOWNERS
drops `@jgangani` from the nvidia line on 2026-07-16, and the dsv4 eval bar rises on 2026-08-01.
Every gated PR bumps the vLLM image of `dsv4-fp4-b200-vllm` and adds a changelog entry; it is
swept green on its head, signed off with the template of the day, verified by `Klaud-Cold`
(verdict rows with the names and numbering of the era in force) and merged. The special PRs
are listed in SPECIAL; each exercises one audit rule. All names and texts are invented.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
REPO = "SemiAnalysisAI/InferenceX"
FIRST_PR = 2101
VERIFIER = "Klaud-Cold"
MARKER = "codeowner-signoff-verify"
RECIPE_URL = "https://github.com/vllm-project/recipes/pull/412"
START = datetime(2026, 7, 5, 10, 0, tzinfo=UTC)
END = datetime(2026, 8, 20, 18, 0, tzinfo=UTC)

# --- the default branch through time ---------------------------------------------------------


def _template(name: str) -> str:
    return (ROOT / "tests" / "data" / "markdown" / name).read_text(encoding="utf-8")


def _fenced(text: str) -> str:
    """Wrap the template block (opener .. Signed line) in a ``` fence, as V11+ pages do."""
    start = text.index("As a PR reviewer and CODEOWNER")
    end = text.index("\n", text.index("Signed:")) + 1
    return text[:start] + "```\n" + text[start:end] + "```\n" + text[end:]


def _drop_item(text: str, cue: str) -> str:
    lines = text.split("\n")
    kept = [line for line in lines if cue not in line]
    assert len(kept) == len(lines) - 1, cue
    return "\n".join(kept)


V21 = _template("PR_REVIEW_CHECKLIST_v21.md")
V19 = _drop_item(V21, "append-only: true")
V18 = _drop_item(V19, "deprecated model")
V13 = _fenced(_template("PR_REVIEW_CHECKLIST_v13.md").replace("/edit/main/", "/blob/main/"))
V9 = _template("PR_REVIEW_CHECKLIST_v13.md")  # unfenced, LATEST linking /edit/main/

CODEOWNERS_E4 = """\
*                          @InferenceX/core
configs/amd-master.yaml    @billishyahao @chunfangamd @seungrokj @yctseng0211 @1am9trash
configs/nvidia-master.yaml @ankur-singh @kedarpotdar-nv @jgangani
"""
CODEOWNERS_0716 = CODEOWNERS_E4.replace("@jgangani", "@InferenceX/core")

THRESHOLDS = """\
# Minimum eval scores; every exact_match,* metric must reach the bar.
default:
  gsm8k: 0.90
  gpqa_diamond_cot_n_shot: 0.30
models:
  dsr1: {{gsm8k: 0.91}}
  dsv4: {{gsm8k: {dsv4}}}
"""

# Until 2026-07-17 the bars lived in thresholds.json (#1947 moved them to thresholds.yaml).
THRESHOLDS_JSON = """\
{
  "default": {"gsm8k": 0.90, "gpqa_diamond_cot_n_shot": 0.30},
  "models": {"dsr1": {"gsm8k": 0.91}, "dsv4": {"gsm8k": 0.91}}
}
"""

MODELS_MD = """\
# Models

## Scenarios

| Scenario | ISL/OSL | Status |
|---|---|---|
| Agentic coding | trace replay | Active. |
| Single-turn 8k1k | 8192 / 1024 | Active. |

## Model support matrix

| Model architecture class | Prefix | Date added | Active scenarios | Deprecated scenarios |
|---|---|---|---|---|
| DeepSeek-V4-Pro | `dsv4` | 2026-04-24 | Single-turn 8k1k, Agentic coding | None |
"""

BENCHMARK_LIB = """\
#!/usr/bin/env bash
# Shared helpers of the benchmark scripts.
wait_for_server_ready() { until curl -sf "http://localhost:$1/health" > /dev/null; do sleep 5; done; }
run_benchmark_serving() { python3 -m utils.bench_serving "$@"; }
"""

MASTER = """\
dsv4-fp4-b200-vllm:
  image: vllm/vllm-openai:{tag}
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
          - {{tp: 8, ep: 1, conc-start: 4, conc-end: 128}}
"""

SCRIPT = """\
#!/usr/bin/env bash
set -euo pipefail
source "$(dirname "$0")/../../benchmark_lib.sh"
vllm serve "$MODEL" --tensor-parallel-size "$TP" --kv-cache-dtype fp8 \\
  --port "$PORT" > "$SERVER_LOG" 2>&1 &
wait_for_server_ready "$PORT"
run_benchmark_serving --model "$MODEL" --port "$PORT" --isl "$ISL" --osl "$OSL" --conc "$CONC"
"""

# The upstream recipe page as merged by vllm-project/recipes#412 (the recipe check reads the page
# at the PR's merge commit and compares launches as structures).
RECIPE_DOC = """# DeepSeek-V4

## B200

Serve DeepSeek-V4-Pro FP4 on 8x B200.

```bash
vllm serve deepseek-ai/DeepSeek-V4-Pro \\
  --tensor-parallel-size 8 \\
  --kv-cache-dtype fp8
```
"""

CHANGELOG_ENTRY = """\
- config-keys:
    - dsv4-fp4-b200-vllm
  description:
    - Bump the vLLM image to {tag}
  pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/{number}
"""

# (instant, files) changes of the default branch that are not PR merges.
MAIN_EVENTS: list[tuple[str, str, dict[str, str | None]]] = [
    (
        "2026-07-04T06:38:56Z",
        "checklist: link the blob page (V13)",
        {"docs/PR_REVIEW_CHECKLIST.md": V13},
    ),
    (
        "2026-07-14T20:03:44Z",
        "checklist: upstream recipe PR must be MERGED (V18)",
        {"docs/PR_REVIEW_CHECKLIST.md": V18},
    ),
    (
        "2026-07-16T15:00:00Z",
        "CODEOWNERS: nvidia-master owned by core",
        {".github/CODEOWNERS": CODEOWNERS_0716},
    ),
    (
        "2026-07-17T00:40:44Z",
        "evals: thresholds.json -> thresholds.yaml",
        {
            "utils/evals/thresholds.json": None,
            "utils/evals/thresholds.yaml": THRESHOLDS.format(dsv4="0.91"),
        },
    ),
    (
        "2026-08-01T12:00:00Z",
        "evals: raise the dsv4 gsm8k bar",
        {"utils/evals/thresholds.yaml": THRESHOLDS.format(dsv4="0.96")},
    ),
    (
        "2026-08-03T23:36:19Z",
        "checklist: deprecated models (V19)",
        {"docs/PR_REVIEW_CHECKLIST.md": V19},
    ),
    ("2026-08-14T23:33:26Z", "checklist: append-only (V21)", {"docs/PR_REVIEW_CHECKLIST.md": V21}),
]

# --- published verdict rows per era (facts §2.1, §2.3, §4.1) ---------------------------------

ERAS = [  # (era, in force from, row names in order)
    (
        "E4",
        "2026-07-04T01:29:22Z",
        [
            "CODEOWNER",
            "sweep on in-PR commit",
            "evals pass",
            "recipe link",
            "reuse command",
            "latest checklist template",
            "upstream image / engine-first",
            "no architecture hacks",
            "spec-decode chat template",
        ],
    ),
    (
        "E5",
        "2026-07-10T18:35:28Z",
        [
            "CODEOWNER",
            "sweep on in-PR commit",
            "evals pass",
            "recipe link",
            "reuse command",
            "latest checklist template",
            "upstream image / engine-first",
            "no architecture hacks",
            "spec-decode chat template",
            "no engine patches without waiver",
        ],
    ),
    (
        "E6",
        "2026-07-10T21:00:14Z",
        [
            "CODEOWNER",
            "passing sweep + evals on in-PR commit",
            "evals pass",
            "recipe link",
            "reuse-sweep-run posted",
            "latest checklist template",
            "upstream image / engine-first",
            "no architecture hacks",
            "spec-decode chat template",
            "no engine patches without waiver",
            "agentic golden synthetic AL",
        ],
    ),
    (
        "E7",
        "2026-08-03T23:36:19Z",
        [
            "CODEOWNER",
            "sweep on in-PR commit",
            "evals pass",
            "recipe link",
            "reuse command",
            "latest checklist template",
            "upstream image / engine-first",
            "deprecated models/scenarios",
            "no architecture hacks",
            "spec-decode chat template",
            "no engine patches without waiver",
            "agentic golden synthetic AL",
        ],
    ),
    (
        "E8",
        "2026-08-14T23:33:26Z",
        [
            "CODEOWNER",
            "sweep on in-PR commit",
            "evals pass",
            "recipe linked, MERGED, complete (single-node only)",
            "reuse command",
            "latest checklist template",
            "upstream image / engine-first",
            "deprecated models/scenarios",
            "no architecture hacks",
            "spec-decode chat template",
            "no engine patches without waiver",
            "agentic golden synthetic AL",
            "append-only additive",
        ],
    ),
]
NOT_APPLICABLE = {
    "spec-decode chat template",
    "no engine patches without waiver",
    "agentic golden synthetic AL",
    "append-only additive",
    "deprecated models/scenarios",
}


def era_at(instant: datetime) -> tuple[str, list[str]]:
    current = ERAS[0]
    for era in ERAS:
        if _t(era[1]) <= instant:
            current = era
    return current[0], current[2]


def verdict_body(head: str, instant: datetime, signer: str, failing: dict[str, str]) -> str:
    """A verdict comment as the verifier wrote them from 2026-07-03 on (emoji header and rows)."""
    _, names = era_at(instant)
    rows = []
    for number, name in enumerate(names):
        if name in failing:
            rows.append(f"❌ Check {number} ({name}): FAIL — {failing[name]}")
        elif name in NOT_APPLICABLE:
            rows.append(f"➖ Check {number} ({name}): N/A — not touched by this PR")
        else:
            rows.append(f"✅ Check {number} ({name}): PASS — verified")
    if failing:
        header = f"## ❌❌❌ **REJECTED** ❌❌❌\n@{signer} {len(failing)} check(s) failed"
    else:
        header = "## ✅✅✅ **Verdict: PASS** ✅✅✅"
    return f"<!-- {MARKER} sha={head} -->\n{header}\n\n" + "\n\n".join(rows) + "\n"


# --- one PR ---------------------------------------------------------------------------------


@dataclass
class Spec:
    """One merged PR of the history; `kind` picks its story (see SPECIAL)."""

    number: int
    at: datetime  # created
    kind: str = "pass"
    signer: str = "kedarpotdar-nv"
    score: float = 0.97
    extra: dict[str, Any] = field(default_factory=dict)


def _t(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _z(instant: datetime) -> str:
    return instant.strftime("%Y-%m-%dT%H:%M:%SZ")


def template_at(instant: datetime) -> str:
    text = V9
    for when, _, files in MAIN_EVENTS:
        page = files.get("docs/PR_REVIEW_CHECKLIST.md")
        if _t(when) <= instant and page is not None:
            text = page
    return text


def signoff_body(template: str, signer: str, run_id: int) -> str:
    """The template block of the day, every box ticked, detail filled in, signed."""
    if "```" in template:
        block = template.split("```", 2)[1].strip("\n")
    else:
        start = template.index("As a PR reviewer and CODEOWNER")
        block = template[start : template.index("\n", template.index("Signed:"))]
    body = block.replace("- [ ]", "- [x]")
    detail = (
        "### Additional detail section:\n"
        f"- PR validation and evals: https://github.com/{REPO}/actions/runs/{run_id}\n"
        f"- Recipe: {RECIPE_URL} (merged)\n"
    )
    body = re.sub(
        r"### Additional detail section:\n- insert any additional info here\n", detail, body
    )
    return body.replace("FILL_IN_GITHUB_USERNAME", signer) + "\n"


def check_runs(run: int, base_id: int) -> list[dict[str, Any]]:
    names = ["setup", "check-changelog"]
    names += [f"single-node 8k1k / p1 | dsv4 fp4 b200 vllm TP8 c{c}" for c in (4, 8, 16, 32, 64)]
    names += [f"eval / p1 | dsv4 fp4 b200 vllm TP8 c{c} | eval-only" for c in (32, 64)]
    names += ["collect-evals"]
    return [
        {"id": base_id + i, "name": name, "conclusion": "success", "run": run}
        for i, name in enumerate(names)
    ]


def agg_rows(score: float) -> list[dict[str, Any]]:
    return [
        {
            "is_multinode": False,
            "model_prefix": "dsv4",
            "model": "deepseek-ai/DeepSeek-V4-Pro",
            "hw": "B200",
            "framework": "vllm",
            "precision": "fp4",
            "spec_decoding": "none",
            "isl": 8192,
            "osl": 1024,
            "tp": 8,
            "ep": 1,
            "conc": conc,
            "dp_attention": False,
            "task": "gsm8k",
            "em_strict": score,
            "em_flexible": round(score + 0.002, 4),
            "n_eff": 1319,
            "score": score,
            "score_name": "em_strict",
        }
        for conc in (32, 64)
    ]


class History:
    """Builds the scenario: main's own commits and each PR's commits, runs, comments, status."""

    def __init__(self) -> None:
        self.main: dict[str, str] = {
            ".github/CODEOWNERS": CODEOWNERS_E4,
            "docs/PR_REVIEW_CHECKLIST.md": V9,
            "utils/evals/thresholds.json": THRESHOLDS_JSON,
            "MODELS.md": MODELS_MD,
            "benchmarks/benchmark_lib.sh": BENCHMARK_LIB,
            "configs/nvidia-master.yaml": MASTER.format(tag="v0.10.0"),
            "benchmarks/single_node/fixed_seq_len/dsv4_fp4_b200_vllm.sh": SCRIPT,
            "perf-changelog.yaml": CHANGELOG_ENTRY.format(tag="v0.10.0", number=2000),
            "README.md": "# InferenceX\n",
        }
        self.commits: list[dict[str, Any]] = [
            {
                "id": "c0",
                "date": "2026-07-01T12:00:00Z",
                "author": "ankur-singh",
                "message": "Initial layout",
                "files": dict(self.main),
            }
        ]
        self.events: list[tuple[datetime, str, dict[str, str | None]]] = [
            (_t(w), m, f) for w, m, f in MAIN_EVENTS
        ]
        self.pulls: list[dict[str, Any]] = []
        self.runs: list[dict[str, Any]] = []
        self.check_runs: dict[str, list[dict[str, Any]]] = {}
        self.statuses: dict[str, list[dict[str, Any]]] = {}
        self.heads: dict[int, str] = {}  # PR number -> head commit label

    def main_until(self, instant: datetime) -> None:
        """Apply the default branch's own changes dated at or before `instant`."""
        while self.events and self.events[0][0] <= instant:
            when, message, files = self.events.pop(0)
            for path, text in files.items():  # None deletes the file
                if text is None:
                    self.main.pop(path, None)
                else:
                    self.main[path] = text
            self.commits.append(
                {
                    "id": f"m{len(self.commits)}",
                    "date": _z(when),
                    "author": "ankur-singh",
                    "message": message,
                    "files": files,
                }
            )

    def merge(self, number: int, at: datetime, files: dict[str, str], title: str) -> None:
        self.main_until(at)
        self.main.update(files)
        self.commits.append(
            {
                "id": f"s{number}",
                "date": _z(at),
                "author": "ankur-singh",
                "message": f"{title} (#{number})",
                "files": files,
            }
        )


def _comment(
    cid: int, user: str, at: datetime, body: str, association: str = "MEMBER", **extra: Any
) -> dict[str, Any]:
    return {
        "id": cid,
        "user": user,
        "author_association": association,
        "created_at": _z(at),
        "body": body,
        **extra,
    }


ASSOCIATION = {
    "kedarpotdar-nv": "MEMBER",
    "ankur-singh": "MEMBER",
    "jgangani": "COLLABORATOR",
    "nv-perf-dev": "CONTRIBUTOR",
    "mallory-x": "NONE",
}


def add_pr(h: History, spec: Spec) -> None:
    """One merged PR; special kinds change one thing of the ordinary gated story."""
    if spec.kind == "docs":
        _add_docs_pr(h, spec)
        return
    n, t = spec.number, spec.at
    h.main_until(t)
    tag = f"v0.{n - 2000}.0"
    files = {
        "configs/nvidia-master.yaml": MASTER.format(tag=tag),
        "perf-changelog.yaml": h.main["perf-changelog.yaml"]
        + CHANGELOG_ENTRY.format(tag=tag, number=n),
    }
    head, run = f"p{n}", 15_100_000_000 + n
    merged = t + timedelta(hours=2)
    signed_at = t + timedelta(hours=1)
    h.heads[n] = head
    h.check_runs[head] = check_runs(run, 41_000_000_000 + n * 100)
    h.runs.append(
        {
            "id": run,
            "name": "Run Sweep",
            "path": ".github/workflows/run-sweep.yml",
            "head_sha": head,
            "event": "pull_request",
            "created_at": _z(t + timedelta(minutes=5)),
            "updated_at": _z(t + timedelta(minutes=40)),
            "run_number": n,
            "actor": "nv-perf-dev",
            "artifacts": [
                {
                    "id": 3_100_000_000 + n,
                    "name": "eval_results_all",
                    "expired": spec.kind == "expired",
                    "files": {"agg_eval_all.json": agg_rows(spec.score)},
                }
            ],
        }
    )
    base_id = 2_500_000_000 + n * 100
    comments = [
        _comment(base_id, "kedarpotdar-nv", t + timedelta(minutes=50), f"/reuse-sweep-run {run}")
    ]
    body = signoff_body(template_at(signed_at), spec.signer, run)
    pull: dict[str, Any] = {
        "number": n,
        "title": f"dsv4 fp4 b200 vllm: image {tag}",
        "user": "nv-perf-dev",
        "body": f"Bumps the vLLM image to {tag}.",
        "created_at": _z(t),
        "merged_at": _z(merged),
        "labels": ["full-sweep-enabled"],
        "head": {"ref": f"nv-perf-dev/pr-{n}"},
        "base": {"ref": "main"},
        "commits": [
            {
                "id": head,
                "date": _z(t - timedelta(minutes=10)),
                "author": "nv-perf-dev",
                "message": f"image {tag}",
                "files": files,
            }
        ],
        "comments": comments,
        "reviews": [],
        "review_comments": [],
    }
    verdict_id = base_id + 9
    published_failing: dict[str, str] = spec.extra.get("published_failing", {})
    STORIES.get(spec.kind, _signed_comment)(h, spec, pull, body, signed_at, merged)
    if spec.kind not in ("no_signoff", "late_signoff", "forged"):
        instant = signed_at + timedelta(minutes=10)
        comments.append(
            _comment(
                verdict_id,
                VERIFIER,
                instant,
                verdict_body(f"@@HEAD:{n}@@", instant, spec.signer, published_failing),
                "CONTRIBUTOR",
            )
        )
        state = "failure" if published_failing else "success"
        h.statuses[head] = [
            {
                "state": state,
                "context": MARKER,
                "creator": "github-actions[bot]",
                "created_at": _z(instant),
                "target_url": f"https://github.com/{REPO}/pull/{n}#issuecomment-{verdict_id}",
                "description": "CODEOWNER sign-off independently verified"
                if state == "success"
                else "Sign-off verification rejected - see verdict comment",
            }
        ]
    h.pulls.append(pull)
    h.merge(n, merged, files, pull["title"])


def _add_docs_pr(h: History, spec: Spec) -> None:
    n, t = spec.number, spec.at
    h.main_until(t)
    files = {
        f"docs/notes/pr-{n}.md": f"Notes for #{n}\n",
        "README.md": h.main["README.md"] + f"- note {n}\n",
    }
    pull = {
        "number": n,
        "title": f"docs: notes {n}",
        "user": "nv-perf-dev",
        "created_at": _z(t),
        "merged_at": _z(t + timedelta(hours=2)),
        "head": {"ref": f"docs/pr-{n}"},
        "base": {"ref": "main"},
        "commits": [
            {
                "id": f"p{n}",
                "date": _z(t - timedelta(minutes=10)),
                "author": "nv-perf-dev",
                "message": "docs",
                "files": files,
            }
        ],
    }
    h.pulls.append(pull)
    h.merge(n, t + timedelta(hours=2), files, pull["title"])


# --- the stories -----------------------------------------------------------------------------


def _signed_comment(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    pull["comments"].append(
        _comment(
            2_500_000_000 + spec.number * 100 + 1, spec.signer, at, body, ASSOCIATION[spec.signer]
        )
    )


def _no_signoff(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    pull["comments"].append(
        _comment(2_500_000_000 + spec.number * 100 + 1, "kedarpotdar-nv", at, "LGTM, merging.")
    )


def _late_signoff(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    """The only sign-off came an hour after the merge: it did not let the PR merge."""
    late = merged + timedelta(hours=1)
    pull["comments"].append(
        _comment(
            2_500_000_000 + spec.number * 100 + 1, spec.signer, late, body, ASSOCIATION[spec.signer]
        )
    )


def _forged(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    """No sign-off; mallory-x posts the verdict marker with **Verdict: PASS** and InferenceX's
    status publisher (which trusted any commenter, facts §6.22) turns the status green."""
    cid = 2_500_000_000 + spec.number * 100 + 7
    forged = f"<!-- {MARKER} sha=@@HEAD:{spec.number}@@ -->\n## ✅✅✅ **Verdict: PASS** ✅✅✅\n\nAll checks passed.\n"
    pull["comments"].append(_comment(cid, "mallory-x", at, forged, "NONE"))
    h.statuses[h.heads[spec.number]] = [
        {
            "state": "success",
            "context": MARKER,
            "creator": "github-actions[bot]",
            "created_at": _z(at + timedelta(minutes=5)),
            "target_url": f"https://github.com/{REPO}/pull/{spec.number}#issuecomment-{cid}",
            "description": "CODEOWNER sign-off independently verified",
        }
    ]


def _stale_template(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    """Signed with the V13 template while V18 was current; the verifier still published PASS."""
    stale = signoff_body(V13, spec.signer, 15_100_000_000 + spec.number)
    pull["comments"].append(
        _comment(
            2_500_000_000 + spec.number * 100 + 1, spec.signer, at, stale, ASSOCIATION[spec.signer]
        )
    )


def _several(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    """A stale sign-off, then a good one, then one by a non-owner, then one after the merge:
    only the good one (the last before the merge by a possible owner) counts."""
    base = 2_500_000_000 + spec.number * 100
    stale = signoff_body(V9, "ankur-singh", 15_100_000_000 + spec.number)
    pull["comments"] += [
        _comment(base + 1, "ankur-singh", at - timedelta(minutes=5), stale),
        _comment(base + 2, "kedarpotdar-nv", at, body),
        _comment(
            base + 3,
            "nv-perf-dev",
            at + timedelta(minutes=20),
            body.replace("kedarpotdar-nv", "nv-perf-dev"),
            "CONTRIBUTOR",
        ),
        _comment(
            base + 4,
            "ankur-singh",
            merged + timedelta(hours=3),
            body.replace("kedarpotdar-nv", "ankur-singh"),
        ),
    ]


def _edited_late(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    """The sign-off is edited a day after the merge (REST shows only the edited text)."""
    edited = body.replace("(merged)", "(merged; recipe page updated later)")
    pull["comments"].append(
        _comment(
            2_500_000_000 + spec.number * 100 + 1,
            spec.signer,
            at,
            body,
            ASSOCIATION[spec.signer],
            edits=[{"editor": spec.signer, "at": _z(merged + timedelta(days=1)), "body": edited}],
        )
    )


def _review(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    pull["reviews"].append(
        {
            "id": 2_900_000_000 + spec.number,
            "user": spec.signer,
            "state": "APPROVED",
            "body": body,
            "submitted_at": _z(at),
            "commit_id": h.heads[spec.number],
            "author_association": ASSOCIATION[spec.signer],
        }
    )


def _inline(
    h: History, spec: Spec, pull: dict[str, Any], body: str, at: datetime, merged: datetime
) -> None:
    pull["review_comments"].append(
        {
            "id": 1_900_000_000 + spec.number,
            "user": spec.signer,
            "path": "configs/nvidia-master.yaml",
            "line": 2,
            "body": body,
            "diff_hunk": "@@ -1,3 +1,3 @@",
            "commit_id": h.heads[spec.number],
            "created_at": _z(at),
            "author_association": ASSOCIATION[spec.signer],
        }
    )


STORIES: dict[str, Callable[..., None]] = {
    "pass": _signed_comment,
    "expired": _signed_comment,
    "no_signoff": _no_signoff,
    "late_signoff": _late_signoff,
    "forged": _forged,
    "stale_template": _stale_template,
    "several": _several,
    "edited_late": _edited_late,
    "review": _review,
    "inline": _inline,
}

# PR offset -> (kind, overrides) in the 48-PR history. Offsets not listed are ordinary PASSes.
SPECIAL: dict[int, tuple[str, dict[str, Any]]] = {
    2: ("pass", {"signer": "jgangani"}),  # listed on the nvidia line then: PASS
    3: ("docs", {}),
    5: ("expired", {}),  # eval artifact expired: UNVERIFIABLE
    6: ("pass", {"at": "2026-07-10T18:40:00Z"}),  # signed during E5
    7: ("no_signoff", {}),
    9: ("review", {}),
    11: ("docs", {}),
    # Signed before thresholds.json became thresholds.yaml (2026-07-17 00:40): a head that
    # predates that move and a sign-off after it would look for a file the head lacks.
    12: ("pass", {"at": "2026-07-16T18:00:00Z"}),
    13: ("several", {}),
    14: (
        "pass",
        {
            "signer": "jgangani",
            "published_failing": {
                "CODEOWNER": "jgangani is not listed for configs/nvidia-master.yaml"
            },
        },
    ),
    15: ("late_signoff", {}),
    17: ("edited_late", {}),
    19: ("docs", {}),
    20: ("stale_template", {}),  # published PASS, wrong by E6's rules (Check 5)
    22: ("forged", {}),
    24: ("inline", {}),
    25: ("pass", {"score": 0.95}),  # before the bar rose: 0.95 >= 0.91
    27: ("docs", {}),
    28: (
        "pass",
        {"published_failing": {"passing sweep + evals on in-PR commit": "no green sweep found"}},
    ),  # published REJECTED wrongly
    30: (
        "pass",
        {"score": 0.95, "published_failing": {"evals pass": "gsm8k 0.950 < 0.96"}},
    ),  # after: 0.95 < 0.96
    35: ("docs", {}),
}


def specs(count: int, mix: bool) -> list[Spec]:
    step = (END - START) / count
    out = []
    for offset in range(count):
        number, at = FIRST_PR + offset, START + step * offset
        kind, extra = ("pass", {})
        if not mix and offset in SPECIAL:
            kind, extra = SPECIAL[offset]
        elif mix:
            kind = (
                "docs",
                "pass",
                "pass",
                "review",
                "pass",
                "no_signoff",
                "pass",
                "inline",
                "pass",
                "docs",
            )[offset % 10]
        extra = dict(extra)
        spec = Spec(number, _t(extra.pop("at")) if "at" in extra else at, kind)
        spec.signer = extra.pop("signer", spec.signer)
        spec.score = extra.pop("score", spec.score)
        spec.extra = extra
        out.append(spec)
    return out


BASE_SCENARIO: dict[str, Any] = {
    "viewer": "signoff-audit[bot]",
    "viewer_permission": "read",
    "html_url": "https://github.com",
    "rate_limit": {"core": 5000, "search": 30},
    "users": {
        "kedarpotdar-nv": {"name": "Kedar P"},
        "ankur-singh": {"name": "Ankur S"},
        "jgangani": {"name": "J Gangani"},
        "nv-perf-dev": {"name": "NV Perf Dev"},
        "mallory-x": {"name": "Mallory"},
        VERIFIER: {"name": "Klaud Cold"},
        "github-actions[bot]": {"type": "Bot"},
    },
    "orgs": {
        "InferenceX": {
            "members": ["kedarpotdar-nv", "ankur-singh"],
            "team_access": "ok",
            "teams": {"core": {"members": ["ankur-singh"], "name": "core"}},
        },
        "SemiAnalysisAI": {"members": ["kedarpotdar-nv", "ankur-singh"]},
    },
}


def history(count: int = 48, *, mix: bool = False) -> dict[str, Any]:
    """The ghemu scenario of `count` merged PRs (plus one merged elsewhere, one closed unmerged)."""
    h = History()
    for spec in specs(count, mix):
        add_pr(h, spec)
    h.main_until(END + timedelta(days=1))
    data = copy.deepcopy(BASE_SCENARIO)
    data["repos"] = {
        REPO: {
            "default_branch": "main",
            "collaborators": {
                "kedarpotdar-nv": "maintain",
                "ankur-singh": "maintain",
                "jgangani": "write",
                "nv-perf-dev": "write",
            },
            "commits": h.commits,
            "branches": {"release": "c0"},
            "pulls": [*h.pulls, *_outsiders(count)],
            "workflow_runs": h.runs,
            "check_runs": h.check_runs,
            "statuses": h.statuses,
        },
        "vllm-project/recipes": {
            "default_branch": "main",
            "files": {"README.md": "# vLLM recipes\n", "DeepSeek/DeepSeek-V4.md": RECIPE_DOC},
            "pulls": [
                {
                    "number": 412,
                    "title": "DeepSeek-V4: B200 FP4 recipe",
                    "user": "recipe-author",
                    "created_at": "2026-06-28T09:00:00Z",
                    "merged_at": "2026-06-30T17:00:00Z",
                    "merged": True,
                    "files": [
                        {
                            "filename": "DeepSeek/DeepSeek-V4.md",
                            "status": "modified",
                            "patch": "@@ -40,3 +40,9 @@ ## B200\n \n+### FP4\n+\n+```bash\n+vllm serve deepseek-ai/DeepSeek-V4-Pro \\\n+  --tensor-parallel-size 8 \\\n+  --kv-cache-dtype fp8\n+```\n",
                        }
                    ],
                }
            ],
        },
    }
    return fill_heads(data)


def _outsiders(count: int) -> list[dict[str, Any]]:
    """A PR merged into a release branch and a PR closed without merging: never audited."""
    n = FIRST_PR + count
    return [
        {
            "number": n,
            "title": "release: backport",
            "user": "nv-perf-dev",
            "created_at": "2026-07-20T10:00:00Z",
            "merged_at": "2026-07-20T12:00:00Z",
            "head": {"ref": "backport"},
            "base": {"ref": "release"},
            "commits": [
                {
                    "id": f"p{n}",
                    "date": "2026-07-20T09:00:00Z",
                    "author": "nv-perf-dev",
                    "branch": "backport",
                    "files": {"configs/nvidia-master.yaml": MASTER.format(tag="v9.9.9")},
                }
            ],
        },
        {
            "number": n + 1,
            "title": "abandoned image bump",
            "user": "nv-perf-dev",
            "created_at": "2026-07-21T10:00:00Z",
            "closed_at": "2026-07-21T12:00:00Z",
            "state": "closed",
            "head": {"ref": "abandoned"},
            "base": {"ref": "main"},
            "commits": [
                {
                    "id": f"p{n + 1}",
                    "date": "2026-07-21T09:00:00Z",
                    "author": "nv-perf-dev",
                    "files": {"configs/nvidia-master.yaml": MASTER.format(tag="v9.9.8")},
                }
            ],
        },
    ]


def fill_heads(data: dict[str, Any]) -> dict[str, Any]:
    """Replace `@@HEAD:n@@` with the SHA the emulator gives PR n's head (SHAs follow content),
    and pin the upstream recipe PR's merge commit."""
    from emulator import require_ghemu

    require_ghemu()
    from ghemu import State

    state = State(copy.deepcopy(data))
    repo = state.repo(*REPO.split("/"))
    heads = {n: str(issue["head"]["sha"]) for n, issue in repo.issues.items() if issue.get("pull")}
    # The merged recipe PR's merge commit is the recipes repo's main head (ghemu keeps the
    # merge_commit_sha it is given).
    recipes = data["repos"]["vllm-project/recipes"]
    recipes["pulls"][0]["merge_commit_sha"] = state.repo("vllm-project", "recipes").heads["main"]
    for pull in data["repos"][REPO]["pulls"]:
        for comment in pull.get("comments") or []:
            comment["body"] = re.sub(r"@@HEAD:(\d+)@@", lambda m: heads[int(m[1])], comment["body"])
    return data
