"""Benchmark the judge on hostile inputs within GitHub's limits; print time and memory (not a test).

Each case builds one passing bundle from tests/builders.py, replaces one input with a hostile one
and judges it end to end through `signoff.judge.judge`, in a fresh child process (so the peak
RSS is that case's own):

- sign-offs of exactly 65,536 characters (GitHub's comment limit), in several shapes: ten
  thousand task items, the filled template pasted over and over, one item line of filler words,
  GitHub URLs repeated inside one word, deep lists and quotes, emphasis and link soup, a detail
  section of thousands of sentences, one unbroken word;
- CODEOWNERS: a pattern with several `**` against a 4,000-character path that almost matches,
  and a 3 MB file of wildcard rules against 3,000 changed paths;
- a ~200 KB launch script of 6,000 and 12,000 nested `if` blocks;
- a changed master-config entry holding a YAML anchor chain (each anchor a list of nine aliases
  of the one before: ~330 bytes standing for 9^7 or 9^12 nodes);
- files the PR changes that the sweep runs or a launch reads (issue 14): a changed shared
  library of ~565 KB (past the sourced-file bound) or of 2,000 functions with loops calling each
  other, one and forty changed ~11 KB scripts whose loops expand an 8,000-character value a
  thousand times per command (gigabytes of text unless expansion is charged as work), and forty
  whose loops run commands of a thousand one-letter words and double an array of empty items, a chain of 12 changed files sourcing each other in a circle, a `--config` YAML anchor
  bomb (9^12 nodes in ~3.6 KB) and one of 4,000 keys, and 400 `source`s plus 200 launch flags
  naming files under run-time roots among 2,990 changed files sharing one base name;
- handed code: a ~100 KB word a container runs made of fetches' substitutions, and an inline
  Python program handing 5,000 commands to `os.system`, in forty changed scripts each;
- the check right before publishing (which sign-off is the newest) on a PR holding 1,000
  drive-by comments of 65,536 characters of Markdown that is slow to parse, posted after ours.

Target for every case: <= 2 s and <= 300 MB. The script prints the numbers and never asserts.

    python tests/bench/bench_hostile.py [--case NAME]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from builders import (
    CODEOWNERS,
    SCRIPT,
    SCRIPT_PATH,
    build,
    passing_parts,
    replace_file,
    set_signoff_body,
    signoff_body,
)

from signoff.evidence import Evidence, PostedSignoff
from signoff.judge import judge
from signoff.judge.eligibility import superseded
from signoff.judge.shared_readings import clear_all
from signoff.parse.comment.signoff_comment import parse_cache_clear
from signoff.policy import load_policy

LIMIT = 65_536  # GitHub's maximum comment body, in characters
TARGET_SECONDS = 2.0
TARGET_MB = 300
# A case that runs away must not take the machine with it: each child gets at most this much
# address space and wall time, and is reported as missing its target when it hits either.
CHILD_MEMORY_CAP = 4 * 2**30
CHILD_TIMEOUT_SECONDS = 300
OPENER = "As a PR reviewer and CODEOWNER, I have reviewed this and have:\n"
DETAIL = "### Additional detail section:\n"


def fill(head: str, unit: str, tail: str = "") -> str:
    """`head`, then `unit` repeated, then `tail`: exactly LIMIT characters."""
    room = LIMIT - len(head) - len(tail)
    body = (unit * (room // len(unit) + 1))[:room]
    return head + body + tail


def with_signoff(body: str) -> dict[str, Any]:
    parts = passing_parts()
    set_signoff_body(parts, body)
    return parts


SIGNED = "\nSigned: ankur-singh\n"
SIGNOFFS: dict[str, Callable[[], str]] = {
    "signoff-10k-items": lambda: fill(OPENER, "- [x] a\n"),
    "signoff-6k-distinct-items": lambda: fill(
        OPENER, "".join(f"- [x] item {i}\n" for i in range(7_000))
    ),
    "signoff-template-pasted-40x": lambda: fill("", signoff_body()),
    "signoff-filler-words": lambda: fill(OPENER + "- [x] passes evals", " link", " x\n"),
    "signoff-github-urls-in-one-word": lambda: fill(
        OPENER + "- [x] passes evals ", "https://github.com/", "\n"
    ),
    "signoff-nested-lists": lambda: fill(OPENER, "- " * 40 + "[x] a\n"),
    "signoff-nested-quotes": lambda: fill(OPENER, "> " * 60 + "- [x] a\n"),
    "signoff-emphasis-soup": lambda: fill(OPENER + "- [x] ", "*a_`[", "\n"),
    # The slowest shape found so far for markdown-it (image openers never closed).
    "signoff-image-openers": lambda: fill(OPENER + "- [x] ", "![", "\n"),
    "signoff-link-soup": lambda: fill(
        signoff_body().split("Signed:")[0], "[l](https://x.test/a/actions/runs/1) ", SIGNED
    ),
    "signoff-detail-sentences": lambda: fill(
        signoff_body().split("Signed:")[0],
        "MI300X is not new hardware, nor is quantization n/a here; see vllm-project/recipes#1. ",
        SIGNED,
    ),
    "signoff-one-word": lambda: fill(OPENER + "- [x] ", "a", "\n"),
}


def fork_image_with_exception_prose() -> dict[str, Any]:
    """Check 6 must read every detail sentence: a fork image and 64 KB of exception wording."""
    parts = with_signoff(
        fill(
            signoff_body().split("Signed:")[0],
            "H100 is not new hardware, nor is it a new model architecture; rather than that. ",
            ". B200 is new hardware." + SIGNED,
        )
    )
    for read in parts["files"]:
        if read["path"] == "configs/nvidia-master.yaml" and read["role"] == "head":
            read["text"] = read["text"].replace(
                "vllm/vllm-openai:v0.11.1\n  model: deepseek-ai/DeepSeek-V4-Pro\n  model-prefix: dsv4"
                "\n  precision: fp4\n  framework: vllm\n  runner: b200\n  multinode: false\n"
                "  scenarios:\n    fixed-seq-len:\n      - isl: 8192\n        osl: 1024\n"
                "        search-space:\n          - { tp: 8, ep: 8, dp-attn: true, spec",
                "rocm/vllm-dev:nightly\n  model: deepseek-ai/DeepSeek-V4-Pro\n  model-prefix: dsv4"
                "\n  precision: fp4\n  framework: vllm\n  runner: b200\n  multinode: false\n"
                "  scenarios:\n    fixed-seq-len:\n      - isl: 8192\n        osl: 1024\n"
                "        search-space:\n          - { tp: 8, ep: 8, dp-attn: true, spec",
            )
    return parts


def codeowners_double_star() -> dict[str, Any]:
    parts = passing_parts()
    owners = CODEOWNERS + "a/**/**/**/**/**/**/**/**/x @deep\n/**/**/**/**/**/**/q @q\n"
    replace_file(parts, ".github/CODEOWNERS", "default", owners)
    deep = "/".join(["a"] * 2_000) + "/nope.md"
    parts["changed_files"].append({"path": deep, "status": "added", "patch": "@@ -0,0 +1 @@\n+x"})
    return parts


def codeowners_3mb() -> dict[str, Any]:
    parts = passing_parts()
    rules, size, index = [CODEOWNERS], len(CODEOWNERS), 0
    while size < 3_000_000:
        line = f"/area{index}/**/*.py @team{index % 50}/owners @user{index}\n"
        rules.append(line)
        size += len(line)
        index += 1
    replace_file(parts, ".github/CODEOWNERS", "default", "".join(rules))
    parts["changed_files"] += [
        {"path": f"area{i}/pkg/sub/m{i}.py", "status": "modified", "patch": "@@ -1 +1 @@\n-a\n+b"}
        for i in range(0, 30_000, 10)
    ][: 3_000 - len(parts["changed_files"])]
    return parts


def nested_ifs(depth: int, condition: str) -> dict[str, Any]:
    parts = passing_parts()
    script = f"if {condition}; then\n" * depth + SCRIPT + "fi\n" * depth
    replace_file(parts, SCRIPT_PATH, "head", script)
    return parts


def brace_words(word: str, lines: int) -> dict[str, Any]:
    """A script of `lines` commands, each given one brace-expansion word to read."""
    parts = passing_parts()
    replace_file(parts, SCRIPT_PATH, "head", f"echo {word}\n" * lines + SCRIPT)
    return parts


def master_alias_chain(levels: int) -> dict[str, Any]:
    """A changed master-config entry holding an anchor chain of 9^levels nodes (~330 bytes)."""
    parts = passing_parts()
    chain = ["  x0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1]\n"]
    chain += [f"  x{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, levels + 1)]
    for read in parts["files"]:
        if read["path"] == "configs/nvidia-master.yaml" and read["role"] == "head":
            read["text"] = read["text"].replace(
                "dsv4-fp4-b200-vllm-mtp:\n", "dsv4-fp4-b200-vllm-mtp:\n" + "".join(chain)
            )
    return parts


LIB = "benchmarks/benchmark_lib.sh"


def _changed(parts: dict[str, Any], path: str, text: str) -> None:
    """The PR adds `path` with `text`, read at the head (no patch: a file too large for one)."""
    parts["changed_files"].append({"path": path, "status": "added", "patch": None})
    replace_file(parts, path, "head", text)


def library_of_functions(count: int, body: str) -> dict[str, Any]:
    """A changed shared library of `count` functions (each `body`), every one calling the
    next: sourced by the script and read alone (every function may be called)."""
    parts = passing_parts()
    text = "".join(f'f{i}() {{\n{body}\n  f{i + 1} "$@"\n}}\n' for i in range(count))
    _changed(parts, LIB, text + 'run_benchmark_serving() { f0 "$@"; }\n')
    return parts


def library_chain(depth: int) -> dict[str, Any]:
    """Changed files that each source the next, the last one sourcing the first."""
    parts = passing_parts()
    names = [f"benchmarks/lib{i}.sh" for i in range(depth)]
    for i, name in enumerate(names):
        after = names[(i + 1) % depth].rsplit("/", 1)[1]
        _changed(parts, name, f'source "$(dirname "${{BASH_SOURCE[0]}}")/{after}"\nexport A{i}=1\n')
    script = SCRIPT.replace("../../benchmark_lib.sh", "../../lib0.sh")
    replace_file(parts, SCRIPT_PATH, "head", script)
    return parts


ITEMS = " ".join(str(i) for i in range(250))  # a loop's literal items: each one evaluated


def changed_scripts(count: int, prelude: str) -> dict[str, Any]:
    """The PR changes the MTP script and adds `count - 1` more, each `prelude` then the script."""
    parts = passing_parts()
    replace_file(parts, SCRIPT_PATH, "head", prelude + SCRIPT)
    for index in range(1, count):
        _changed(parts, SCRIPT_PATH.replace(".sh", f"_{index}.sh"), prelude + SCRIPT)
    return parts


def expansion_scripts(count: int, per_command: int = 500) -> dict[str, Any]:
    """`count` changed benchmark scripts of ~11 KB, each a loop whose command expands one
    8,000-character value a thousand times (8 MB a command, gigabytes by the loop's end)."""
    words = " ".join(['"$A$A"'] * per_command)
    return changed_scripts(
        count, f'A="{"x" * 8000}"\nfor i in {ITEMS}; do\n  python3 {words}\ndone\n'
    )


def many_words_scripts(count: int) -> dict[str, Any]:
    """`count` changed benchmark scripts of ~4 KB whose nested loops run a command of a
    thousand one-letter words (cheap in text, dear in fields), and the array doubled in a loop."""
    words = " ".join(["$B"] * 1000)
    loops = (
        f"B=x\nfor i in {ITEMS}; do\n  for j in {ITEMS}; do\n    python3 {words}\n  done\ndone\n"
    )
    loops += f'A=("")\nfor i in {ITEMS}; do\n  A=("${{A[@]}}" "${{A[@]}}")\ndone\n'
    return changed_scripts(count, loops)


def busy_scripts(count: int) -> dict[str, Any]:
    """`count` changed benchmark scripts whose loops run ordinary commands (assignments with
    defaults, a launch of twenty words) until every reading stops at its bound: the verdict's
    whole work bound spent at the price of a real step."""
    body = (
        '  X="${A:-a}${B:-b}/$i"\n  Y=$((i * 2))\n'
        '  vllm serve "$X" --tp "$TP" --max-model-len "$Y" --port "${PORT:-8000}"'
        " --gpu-memory-utilization 0.9 --kv-cache-dtype fp8 --trust-remote-code &\n"
    )
    return changed_scripts(
        count, f"for i in {ITEMS}; do\n  for j in {ITEMS}; do\n{body}  done\ndone\n"
    )


def launch_config(text: str) -> dict[str, Any]:
    parts = passing_parts()
    path = "benchmarks/single_node/fixed_seq_len/serve.yaml"
    _changed(parts, path, text)
    script = SCRIPT.replace(
        "--kv-cache-dtype fp8", '--kv-cache-dtype fp8 --config "$(dirname "$0")/serve.yaml"'
    )
    replace_file(parts, SCRIPT_PATH, "head", script)
    return parts


def anchor_bomb(levels: int) -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def many_changed_files_and_run_time_paths(files: int, lines: int) -> dict[str, Any]:
    """3,000 changed files sharing base names, and a script whose `source`s and launch file
    flags name files under run-time roots (each looked up among them)."""
    parts = passing_parts()
    for i in range(files):
        parts["changed_files"].append(
            {"path": f"benchmarks/d{i % 50}/e{i}/lib.sh", "status": "added", "patch": None}
        )
    block = "".join(f'source "$ROOT{i}/e{i}/lib.sh" 2>/dev/null || true\n' for i in range(lines))
    script = SCRIPT.replace(
        "--kv-cache-dtype fp8",
        "--kv-cache-dtype fp8 " + " ".join(f'--x{i} "$R/e{i}/lib.sh"' for i in range(200)),
    )
    replace_file(parts, SCRIPT_PATH, "head", block + script)
    return parts


def python_directories(files: int, runs: int) -> dict[str, Any]:
    """3,000 changed Python modules, and a script running Python from 2,000 directories (each
    a first import path entry held against every changed file)."""
    parts = passing_parts()
    for i in range(files):
        parts["changed_files"].append(
            {"path": f"benchmarks/d{i % 50}/e{i}/m.py", "status": "added", "patch": None}
        )
    block = "".join(f"python3 tools/p{i}/run.py\n" for i in range(runs))
    replace_file(parts, SCRIPT_PATH, "head", block + SCRIPT)
    return parts


CASES: dict[str, Callable[[], dict[str, Any]]] = {
    **{name: (lambda make=make: with_signoff(make())) for name, make in SIGNOFFS.items()},
    "signoff-exception-prose-fork-image": fork_image_with_exception_prose,
    "codeowners-double-star-deep-path": codeowners_double_star,
    "codeowners-3mb-of-wildcard-rules": codeowners_3mb,
    # About 200 KB each: GitHub's files API returns bigger files only as blobs.
    "script-6000-nested-ifs": lambda: nested_ifs(6_000, '[ -n "${TP:-8}" ]'),
    "script-12000-nested-ifs": lambda: nested_ifs(12_000, "true"),
    "script-braces-unmatched": lambda: brace_words("{" * 2_000 + "a,b}", 100),
    "script-braces-1024-fields": lambda: brace_words("{a,b}" * 10, 4_000),
    "master-config-alias-chain-9^7": lambda: master_alias_chain(7),
    "master-config-alias-chain-9^12": lambda: master_alias_chain(12),
    # Files the PR changes that the sweep runs or a launch reads (issue 14)
    "library-500kb-of-functions": lambda: library_of_functions(9_000, "  echo " + "x" * 30),
    "library-functions-with-loops": lambda: library_of_functions(
        2_000, "  for i in $(seq 1 300); do while [[ $# -gt 0 ]]; do shift; done; done"
    ),
    "library-sourcing-chain-of-12": lambda: library_chain(12),
    "script-expansion-of-gigabytes": lambda: expansion_scripts(1),
    "scripts-40-expanding-gigabytes": lambda: expansion_scripts(40),
    "scripts-40-expanding-4mb-per-command": lambda: expansion_scripts(40, 250),
    "scripts-40-of-thousand-word-commands": lambda: many_words_scripts(40),
    "scripts-40-busy-to-the-verdict-bound": lambda: busy_scripts(40),
    "scripts-40-with-a-100kb-python-program": lambda: changed_scripts(
        40, 'python3 -c "import urllib.request\n' + "x = [1, 2, 3]\n" * 7_000 + '"\n'
    ),
    # handed code: a word a container runs, of twenty thousand fetches' substitutions (read by
    # patterns, never by the reader), and Python handing five thousand commands to the shell
    "scripts-40-with-a-handed-word-of-fetches": lambda: changed_scripts(
        40, "docker exec c sh -c '" + "eval $(curl x) " * 7_000 + "'\n"
    ),
    "scripts-40-with-python-running-5000-commands": lambda: changed_scripts(
        40, 'python3 -c "import os\n' + "os.system('vllm serve m --port 1')\n" * 5_000 + '"\n'
    ),
    # files the script writes, then runs: five hundred of each, and a heredoc program run a
    # thousand times (each read as the program it is)
    "scripts-40-writing-and-running-500-files": lambda: changed_scripts(
        40, "".join(f"echo x > /tmp/w{i}.sh\nbash /tmp/w{i}.sh\n" for i in range(500))
    ),
    "scripts-40-running-a-heredoc-program-1000-times": lambda: changed_scripts(
        40, "cat > /tmp/r.sh <<'EOF'\necho hi\nEOF\n" + "bash /tmp/r.sh\n" * 1_000
    ),
    # values bash evaluates where they are used: 60 KB of `[` through arithmetic 500 times,
    # and a program echoed into a shell 500 times
    "scripts-40-with-arithmetic-on-60kb-values": lambda: changed_scripts(
        40, "A='" + "[" * 60_000 + "'\n" + "echo $((A)) $[A]\nlet B=A+1\n" * 500
    ),
    "scripts-40-echoing-a-program-into-bash-500-times": lambda: changed_scripts(
        40, "echo 'echo hi; true' | bash\n" * 500
    ),
    "launch-config-anchor-bomb-9^12": lambda: launch_config(anchor_bomb(13)),
    "launch-config-64kb-of-keys": lambda: launch_config(
        "".join(f"key-{i}: value-{i}\n" for i in range(4_000))[:65_000]
    ),
    "sources-and-launch-files-among-3000-changed": lambda: many_changed_files_and_run_time_paths(
        2_990, 400
    ),
    "python-from-2000-directories-among-3000-changed": lambda: python_directories(2_990, 2_000),
}


def drive_by_comments() -> tuple[Evidence, list[PostedSignoff]]:
    """1,000 comments by accounts with no association, each 64 KB of `![` after the opener."""
    evidence = build(passing_parts())
    signoff = evidence.signoff
    ours = PostedSignoff(
        kind=signoff.kind, id=signoff.id, author=signoff.author, body=signoff.body,
        author_association=signoff.author_association, created_at=signoff.created_at,
    )  # fmt: skip
    body = fill(OPENER + "- [x] ", "![")
    posted = [
        PostedSignoff(
            kind="conversation comment",
            id=signoff.id + 1 + i,
            author=f"drive-by-{i}",
            body=body,
            created_at="2099-01-01T00:00:00Z",
        )
        for i in range(1_000)
    ]
    return evidence, [ours, *posted]


# Cases timed through the check right before publishing instead of the judge.
PUBLISH_CASES: dict[str, Callable[[], tuple[Evidence, list[PostedSignoff]]]] = {
    "publish-1000-drive-by-comments": drive_by_comments,
}


def run_publish_case(name: str) -> dict[str, Any]:
    """Time `superseded` (which sign-off may write) for one case: wall time, then traced peak."""
    policy = load_policy()
    evidence, posted = PUBLISH_CASES[name]()
    start = time.perf_counter()
    why = superseded(posted, evidence, policy)
    elapsed = time.perf_counter() - start
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    parse_cache_clear()
    tracemalloc.start()
    superseded(posted, evidence, policy)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "case": name,
        "input_chars": max(len(p.body) for p in posted),
        "seconds": round(elapsed, 3),
        "traced_mb": round(peak / 2**20, 1),
        "rss_mb": round(rss_mb, 1),
        "verdict": "superseded" if why else "writes",
    }


def run_case(name: str) -> dict[str, Any]:
    """Judge one case in this process: wall time, then traced peak in a second run."""
    if name in PUBLISH_CASES:
        return run_publish_case(name)
    policy = load_policy()
    evidence = build(CASES[name]())
    texts = [evidence.signoff.body, *(f.text or "" for f in evidence.files)]
    size = max(len(text) for text in texts + [f.path for f in evidence.changed_files])
    start = time.perf_counter()
    verdict = judge(evidence, policy)
    elapsed = time.perf_counter() - start
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # before tracing's overhead
    # tracemalloc slows Python several-fold, so it never shares the timed run. The sign-off's
    # reading is memoised, as are the scripts' readings: forget them, so the traced run reads
    # everything again.
    parse_cache_clear()
    clear_all()
    tracemalloc.start()
    judge(evidence, policy)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    statuses = "".join({"PASS": "P", "FAIL": "F", "N/A": "-"}[c.status] for c in verdict.checks)
    return {
        "case": name,
        "input_chars": size,
        "seconds": round(elapsed, 3),
        "traced_mb": round(peak / 2**20, 1),
        "rss_mb": round(rss_mb, 1),
        "verdict": f"{verdict.outcome} {statuses}",
    }


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY_CAP, CHILD_MEMORY_CAP))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--case", choices=sorted({*CASES, *PUBLISH_CASES}), help="run one case in this process"
    )
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case)))
        return
    print(f"{'case':36} {'chars':>9} {'seconds':>8} {'traced MB':>9} {'RSS MB':>7}  verdict")
    missed = []
    for name in [*CASES, *PUBLISH_CASES]:
        try:
            child = subprocess.run(
                [sys.executable, __file__, "--case", name],
                capture_output=True,
                text=True,
                timeout=CHILD_TIMEOUT_SECONDS,
                preexec_fn=_cap_memory,
            )
        except subprocess.TimeoutExpired:
            print(f"{name:36} stopped after {CHILD_TIMEOUT_SECONDS} s")
            missed.append(name)
            continue
        if child.returncode != 0:
            last = (child.stderr.strip().splitlines() or ["no output"])[-1]
            print(f"{name:36} failed (memory cap {CHILD_MEMORY_CAP // 2**30} GiB?): {last}")
            missed.append(name)
            continue
        row = json.loads(child.stdout)
        print(
            f"{name:36} {row['input_chars']:>9} {row['seconds']:>8.3f} {row['traced_mb']:>9.1f} "
            f"{row['rss_mb']:>7.1f}  {row['verdict']}"
        )
        if row["seconds"] > TARGET_SECONDS or row["rss_mb"] > TARGET_MB:
            missed.append(name)
    print(f"target per case: <= {TARGET_SECONDS} s and <= {TARGET_MB} MB")
    print("targets met" if not missed else f"TARGETS MISSED: {', '.join(missed)}")


if __name__ == "__main__":
    main()
