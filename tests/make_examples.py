"""Write the example evidence bundles shipped in signoff/examples/ (run from the repo root).

Each bundle is one realistic InferenceX sign-off; together they make every check fail at least
once. `tests/test_examples.py` checks the files are current and judge as their names say.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from builders import (
    NEW_ENTRY,
    RUN_ID,
    SCRIPT,
    SCRIPT_PATH,
    build,
    green_runs,
    passing_parts,
    replace_file,
    set_head_sweep,
    set_signoff_body,
    signoff_body,
)

from signoff.evidence import dump_evidence

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


EXAMPLES: dict[str, Callable[[Parts], None] | None] = {
    "pass.json": None,
    "fail-codeowner.json": wrong_owner,
    "fail-sweep-evals.json": stale_sweep,
    "fail-recipe-open-pr.json": open_recipe_pr,
    "fail-template-reuse.json": stale_template_no_reuse,
    "fail-image-arch-spec.json": fork_image_overrides,
}


def render_examples() -> dict[str, str]:
    texts = {}
    for name, change in EXAMPLES.items():
        parts = passing_parts()
        if change is not None:
            change(parts)
        texts[name] = dump_evidence(build(parts))
    return texts


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text in render_examples().items():
        (OUT / name).write_text(text, encoding="utf-8")
        print(f"wrote {OUT / name}")


if __name__ == "__main__":
    main()
