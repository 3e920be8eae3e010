"""The default branch of the audit history through time, and the published verdict rows
of each era."""

from __future__ import annotations

from datetime import UTC, datetime

from .. import ROOT

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


def _t(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _z(instant: datetime) -> str:
    return instant.strftime("%Y-%m-%dT%H:%M:%SZ")
