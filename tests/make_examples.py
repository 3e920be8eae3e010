"""Write the example evidence bundles shipped in signoff/examples/ (run from the repo root).

Each bundle is one realistic InferenceX sign-off judged under the standard it records; together
they make every registered check fail at least once. `tests/cli/test_examples.py` checks the files
are current and judge as declared here. Adding a check adds one example; the others stay as they
are, because each records its own standard.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).parent))

from builders import (
    AGENTIC_SGLANG,
    APPEND_ENTRY,
    NEW_ENTRY,
    PR_BODY,
    RUN_ID,
    SCRIPT,
    SCRIPT_PATH,
    add_changed_file,
    agentic_parts,
    append_only_parts,
    build,
    current_parts,
    green_runs,
    measured_curve,
    passing_parts,
    replace_file,
    set_head_sweep,
    set_signoff_body,
    signoff_body,
    with_models_md,
)

from signoff.evidence import dump_evidence

MASTER = "configs/nvidia-master.yaml"
OUT = Path(__file__).resolve().parent.parent / "signoff" / "examples"
Parts = dict[str, Any]


def wrong_owner(parts: Parts) -> None:
    """An AMD CODEOWNER signs a change to the NVIDIA master config (Check 0)."""
    parts["signoff"]["author"] = "chunfangamd"
    set_signoff_body(parts, signoff_body().replace("Signed: ankur-singh", "Signed: chunfangamd"))


def stale_sweep(parts: Parts) -> None:
    """Evals skipped on the head and a recipe edit after the last green sweep (Checks 1, 2)."""
    runs = green_runs()
    for run in runs:
        if run["name"].startswith("eval /"):
            run["conclusion"] = "skipped"
    set_head_sweep(parts, runs)
    parts["evals"] = [
        {
            "run_id": RUN_ID,
            "available": False,
            "reason": "artifact eval_results_all expired on 2026-11-19",
        }
    ]


def open_recipe_pr(parts: Parts) -> None:
    """The upstream recipe PR is still open although the template demands MERGED (Check 3)."""
    parts["upstream"][0].update(state="open", merged_at=None)


def stale_template_no_reuse(parts: Parts) -> None:
    """A copy without the newest item, and no /reuse-sweep-run on record (Checks 4, 5)."""
    set_signoff_body(parts, signoff_body(drop=("append-only: true",)))
    parts["comments"] = [c for c in parts["comments"] if "/reuse-sweep-run" not in c["body"]]


def fork_image_overrides(parts: Parts) -> None:
    """A fork image, an architecture override and raw completions for MTP (Checks 6, 7, 8)."""
    entry = NEW_ENTRY.replace("vllm/vllm-openai:v0.11.1", "rocm/vllm-dev:nightly-20261118")
    head = next(
        r for r in parts["files"] if r["role"] == "head" and r["path"].startswith("configs")
    )
    head["text"] = head["text"].replace(NEW_ENTRY, entry)
    script = SCRIPT.replace(
        "  --kv-cache-dtype fp8 \\\n",
        "  --kv-cache-dtype fp8 \\\n  --hf-overrides '{\"index_topk_freq\": 4}' \\\n",
    ).replace(
        '  --result-filename "$RESULT_FILENAME" \\\n  --use-chat-template\n',
        '  --result-filename "$RESULT_FILENAME"\n',
    )
    replace_file(parts, SCRIPT_PATH, "head", script)


def engine_patch_e5(parts: Parts) -> None:
    """An E5-era sign-off (thresholds.json then): the script edits the installed vLLM package
    before serving and no waiver was filed (engine-patches)."""
    patched = SCRIPT.replace(
        'hf download "$MODEL"\n',
        'hf download "$MODEL"\n'
        "sed -i 's/max_batch = 64/max_batch = 512/' "
        "/usr/local/lib/python3.12/dist-packages/vllm/config.py\n",
    )
    add_changed_file(parts, SCRIPT_PATH, patched)
    json_bars = '{"default": {"gsm8k": 0.90}, "models": {"dsv4": {"gsm8k": 0.91}}}'
    replace_file(parts, "utils/evals/thresholds.json", "default", json_bars)


def agentic_wrong_al(parts: Parts) -> None:
    """An agentic Qwen3.5 MTP config pins an acceptance length of its own instead of the
    golden 3.39 for three draft tokens (agentic-golden-al)."""
    parts.clear()
    parts.update(agentic_parts(AGENTIC_SGLANG.replace("=3.39", "=3.80")))


def deprecated_scenario(parts: Parts) -> None:
    """The new MTP config sweeps single-turn 1k1k, deprecated for every model since 2026-07-17
    (deprecated-models)."""
    with_models_md(parts)
    head = next(r for r in parts["files"] if r["role"] == "head" and r["path"] == MASTER)
    short = NEW_ENTRY.replace("isl: 8192", "isl: 1024")
    head["text"] = head["text"].replace(NEW_ENTRY, short)
    changed = next(f for f in parts["changed_files"] if f["path"] == MASTER)
    changed["patch"] = changed["patch"].replace("isl: 8192", "isl: 1024")


def append_only_rerun(parts: Parts) -> None:
    """An append-only entry whose config also changes an existing point's expert parallelism:
    a published point would be re-measured under another recipe (append-only)."""
    parts.clear()
    parts.update(append_only_parts(APPEND_ENTRY.replace("tp: 8, ep: 8", "tp: 8, ep: 4")))


def quantized_draft_e9(parts: Parts) -> None:
    """An E9 sign-off: the MTP draft is quantized through vLLM's speculative config (Check 13)."""
    parts.clear()
    parts.update(current_parts())
    quantized = SCRIPT.replace(
        '"num_speculative_tokens": 3}', '"num_speculative_tokens": 3, "quantization": "fp8"}'
    )
    add_changed_file(parts, SCRIPT_PATH, quantized)


def three_points_e10(parts: Parts) -> None:
    """An E10 sign-off: the new curve has only 3 measured frontier points (Check 14 warns)."""
    parts.clear()
    parts.update(current_parts())
    parts["throughput"]["rows"] = measured_curve(3)


def stale_description_e11(parts: Parts) -> None:
    """An E11 sign-off: the description still names an older image tag (Check 15 warns)."""
    parts.clear()
    parts.update(current_parts())
    parts["pull_request"]["body"] = PR_BODY.replace("v0.11.1", "v0.10.2")


class Example(NamedTuple):
    change: Callable[[Parts], None] | None
    standard: str  # recorded in the bundle: `signoff judge` re-judges under it by default
    fails: frozenset[str]  # ids of the checks that must FAIL (the rest PASS, WARN or are N/A)
    warns: frozenset[str] = frozenset()  # ids of the checks that must WARN


EXAMPLES: dict[str, Example] = {
    "pass.json": Example(None, "0-8", frozenset()),
    "fail-codeowner.json": Example(wrong_owner, "0-8", frozenset({"codeowner"})),
    "fail-sweep-evals.json": Example(stale_sweep, "0-8", frozenset({"sweep", "evals"})),
    "fail-recipe-open-pr.json": Example(open_recipe_pr, "0-8", frozenset({"recipe"})),
    "fail-template-reuse.json": Example(
        stale_template_no_reuse, "0-8", frozenset({"reuse-command", "latest-template"})
    ),
    "fail-image-arch-spec.json": Example(
        fork_image_overrides,
        "0-8",
        frozenset({"upstream-image", "no-arch-hacks", "spec-chat-template"}),
    ),
    "fail-engine-patch.json": Example(engine_patch_e5, "E5", frozenset({"engine-patches"})),
    "fail-agentic-al.json": Example(agentic_wrong_al, "E6", frozenset({"agentic-golden-al"})),
    "fail-deprecated-model.json": Example(
        deprecated_scenario, "E7", frozenset({"deprecated-models"})
    ),
    "fail-append-only.json": Example(append_only_rerun, "E8", frozenset({"append-only"})),
    "fail-draft-precision.json": Example(quantized_draft_e9, "E9", frozenset({"draft-precision"})),
    "warn-pareto-coverage.json": Example(
        three_points_e10, "E10", frozenset(), frozenset({"pareto-coverage"})
    ),
    "warn-pr-description.json": Example(
        stale_description_e11, "E11", frozenset(), frozenset({"pr-description"})
    ),
}


def render_examples() -> dict[str, str]:
    texts = {}
    for name, example in EXAMPLES.items():
        parts = passing_parts()
        if example.change is not None:
            example.change(parts)
        parts["standard"] = {"spec": example.standard}
        texts[name] = dump_evidence(build(parts))
    return texts


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text in render_examples().items():
        (OUT / name).write_text(text, encoding="utf-8")
        print(f"wrote {OUT / name}")


if __name__ == "__main__":
    main()
