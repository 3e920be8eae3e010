"""Benchmark the judge on a large bundle and print wall time and peak memory (not a test).

The bundle: 3,000 changed files, 250 commits x 60 check runs (only the oldest commit is green,
so every commit is assessed), 1,000 comments, two ~320 KB master configs at base and head, and
the PR's diff at the swept commit; for the later eras' checks also MODELS.md on the default
branch and the head text of every changed script (1,000 of them, scanned for engine patches and
deprecated models). Every script, the changed entry's too, reads an override hook nothing
exports, so Check 3 reads it differently from Checks 7 and 8 (twice the script readings).
Targets: judge <= 1.0 s and <= 300 MB peak on one core.

    python tests/bench/bench_judge.py [--standard current]   (default: current)
"""

from __future__ import annotations

import copy
import resource
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse

from builders import (
    EXISTING_ENTRY,
    MODELS_MD,
    NEW_ENTRY,
    SCRIPT_PATH,
    build,
    green_runs,
    passing_parts,
)

from signoff.judge import judge
from signoff.judge.shared_readings import clear_all
from signoff.policy import load_policy
from signoff.publish.render import render_markdown
from signoff.standards import resolve_standard

TARGET_SECONDS = 1.0
TARGET_MB = 300


def master_config(vendor: str, size: int = 320_000) -> str:
    """Realistic entries until the text reaches `size` bytes."""
    chunks, total, index = [], 0, 0
    while total < size:
        entry = EXISTING_ENTRY.replace(
            "dsv4-fp4-b200-vllm:", f"{vendor}model{index}-fp4-b200-vllm:"
        )
        entry = entry.replace("model-prefix: dsv4", f"model-prefix: {vendor}model{index}")
        chunks.append(entry)
        total += len(entry) + 1
        index += 1
    return "\n".join(chunks)


def large_parts() -> dict:
    parts = passing_parts()
    heads = {}
    for vendor in ("nvidia", "amd"):
        path = f"configs/{vendor}-master.yaml"
        base = master_config(vendor)
        head = (
            base
            + "\n"
            + NEW_ENTRY.replace("dsv4-fp4-b200-vllm-mtp", f"dsv4-fp4-b200-vllm-mtp-{vendor}")
        )
        heads[path] = head
        parts["files"] = [f for f in parts["files"] if f["path"] != path]
        parts["files"] += [
            {"path": path, "role": "base", "text": base},
            {"path": path, "role": "head", "text": head},
            {"path": path, "role": "eval", "text": head},
        ]
    files = [f for f in parts["changed_files"] if f["path"] != "configs/nvidia-master.yaml"]
    files += [
        {"path": p, "status": "modified", "patch": "@@ -1 +1,2 @@\n+" + NEW_ENTRY} for p in heads
    ]
    files += [
        {
            "path": f"benchmarks/single_node/fixed_seq_len/model{i}_fp8_h200.sh"
            if i % 3 == 0
            else f"docs/results/run{i}.md",
            "status": "modified",
            "patch": f"@@ -1,3 +1,3 @@\n context\n-old value {i}\n+new value {i}",
        }
        for i in range(3_000 - len(files))
    ]
    parts["changed_files"] = files
    commits = [f"{i:040x}" for i in range(1, 251)]
    parts["commits"] = [*commits[:-1], parts["pull_request"]["head_sha"]]
    failing = green_runs()
    failing[0]["conclusion"] = "failure"
    runs_60 = (failing * 6)[:60]
    checks = [
        {"sha": sha, "check_runs": copy.deepcopy(runs_60)} for sha in reversed(parts["commits"][1:])
    ]
    checks.append({"sha": parts["commits"][0], "check_runs": (green_runs() * 6)[:60]})
    parts["commit_checks"] = checks
    parts["sweep_diff"] = {"sha": parts["commits"][0], "files": copy.deepcopy(files)}
    parts["comments"] = [
        {
            "id": i,
            "author": f"user{i % 40}",
            "author_association": "CONTRIBUTOR",
            "body": f"Comment {i}: looks fine, rerunning the flaky job.\n" * 3,
        }
        for i in range(999)
    ] + [{"id": 5000, "author": "lead", "author_association": "MEMBER", "body": "/reuse-sweep-run"}]
    for read in parts["files"]:  # the #2187 shape in the changed entry's script
        if read["path"] == SCRIPT_PATH:
            read["text"] = read["text"].replace(
                'vllm serve "$MODEL"', ENTRY_HOOK + 'vllm serve "$MODEL"'
            )
            read["text"] = read["text"].replace(
                "--kv-cache-dtype fp8 \\\n", '--kv-cache-dtype fp8 "${LINEAR_ARGS[@]}" \\\n'
            )
    parts["files"].append({"path": SCRIPT_PATH, "role": "head", "text": parts["files"][5]["text"]})
    parts["files"].append({"path": "MODELS.md", "role": "default", "text": MODELS_MD})
    # Each script reads an override hook nothing exports, so Check 3 reads it twice over: with
    # the hook unset (its own reading) and unknown (the strict reading of Checks 7 and 8).
    parts["files"] += [
        {"path": f["path"], "role": "head", "text": HOOKED_SCRIPT.format(i=i)}
        for i, f in enumerate(files)
        if f["path"].endswith(".sh")
    ]
    return parts


HOOKED_SCRIPT = """#!/usr/bin/env bash
vllm serve m --tp {i} --max-num-seqs "${{MAX_NUM_SEQS:-256}}"
"""
# The #2187 shape in the changed entry's script, read per swept configuration.
ENTRY_HOOK = """LINEAR_ARGS=()
if [ -n "${LINEAR_BACKEND:-}" ]; then
  [ "$LINEAR_BACKEND" != native ] && LINEAR_ARGS=(--linear-backend "$LINEAR_BACKEND")
fi
"""


def main() -> None:
    parser = argparse.ArgumentParser(description="judge benchmark")
    parser.add_argument("--standard", default="current", help="standard to judge under")
    args = parser.parse_args()
    policy = load_policy()
    standard = resolve_standard(args.standard, policy)
    evidence = build(large_parts())
    start = time.perf_counter()
    verdict = judge(evidence, policy, standard)
    text = render_markdown(verdict, policy)
    elapsed = time.perf_counter() - start
    # Memory in a second run: tracemalloc slows Python several-fold, so it never shares the timing.
    clear_all()  # as cold as the first: nothing read in it is served again
    tracemalloc.start()
    judge(evidence, policy, standard)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"bundle: {len(evidence.changed_files)} files, {len(evidence.commit_checks)} commits x "
        f"{len(evidence.commit_checks[0].check_runs)} check runs, {len(evidence.comments)} comments, "
        f"master configs {[len(f.text or '') for f in evidence.files_at('head') if 'master' in f.path]} bytes"
    )
    print(
        f"standard {standard.label}: {verdict.outcome} "
        f"({', '.join(f'{c.number}:{c.status}' for c in verdict.checks)}), {len(text)} chars"
    )
    print(f"judge wall time: {elapsed:.3f} s (target <= {TARGET_SECONDS} s)")
    print(
        f"judge peak traced allocations: {peak / 2**20:.1f} MB; process peak RSS: {rss_mb:.1f} MB "
        f"(target <= {TARGET_MB} MB)"
    )
    ok = elapsed <= TARGET_SECONDS and rss_mb <= TARGET_MB
    print("targets met" if ok else "TARGETS MISSED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
