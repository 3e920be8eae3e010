"""Long fuzz run over every parser (not part of the test run): random, not derandomized.

CI's hypothesis tests stay derandomized and short. This command draws fresh random examples for
each parser and checks that it never raises (bad input is a result, not an exception) and keeps
its invariants; it prints examples, time and findings per parser and exits 1 on any finding.

    python tests/fuzz/fuzz_parsers.py [--examples 100000] [--only NAME] [--seed N]

Parsers: sign-off, template, matching, CODEOWNERS (parse and match, checked against a loop over
single rules), master config, master blocks, benchmark script (read unbound and with a sweep
point bound), links, gate payloads, prose (negation), reasons (rendered Markdown stays inert),
upstream recipe documents (Markdown, YAML, cookbook JSX, HTML pages), MODELS.md / golden curves /
changelog patches, and printf in command substitutions.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import random
import re
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cmarkgfm
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from signoff.errors import InputError
from signoff.gate import decide
from signoff.parse.benchmark.script import evaluate, parse_script, read_script
from signoff.parse.comment.checklist_template import parse_template
from signoff.parse.comment.item_matching import match_items
from signoff.parse.comment.links import classify_recipe_link, recipe_links
from signoff.parse.comment.phrases import asserted
from signoff.parse.comment.signoff_comment import parse_signoff
from signoff.parse.inferencex.changelog import new_entries
from signoff.parse.inferencex.codeowners import parse_codeowners
from signoff.parse.inferencex.golden_al import parse_golden
from signoff.parse.inferencex.master_blocks import changed_keys, sparse_text, split_blocks
from signoff.parse.inferencex.master_config import diff_entries, parse_master_config
from signoff.parse.inferencex.models_md import parse_models
from signoff.parse.recipes.readers import read_recipe_file, read_recipe_page
from signoff.parse.shell.printf import printf_output
from signoff.policy import load_policy
from signoff.publish.sanitize import reason_markdown

ROOT = Path(__file__).resolve().parents[2]
POLICY = load_policy(ROOT / "checklists" / "inferencex.yaml")
EVENTS = ROOT / "tests" / "data" / "events"
_TAG = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)")
OPENER = "As a PR reviewer and CODEOWNER, I have reviewed this and have:"

MARKDOWN = [
    OPENER, "- [x] ", "- [X]\t", "- [ ] ", "* [x] ", "1. [x] ", "1) [ ]\t", "  - [x] ", "    ",
    "> ", "[x]", "\u00a0", "\v", "Verified that this PR passes evals.", "n/a", "not applicable",
    "### Additional detail section:", "- insert any additional info here", "Signed: `x`",
    "https://github.com/o/r/actions/runs/1", "[Link](https://x.test/a)", "<https://x.test/b>",
    "```", "~~~", "<!--", "-->", "<div>", "## Template", "\n", "\n\n", "`", "*", "_", "\\",
    "[x]: https://x.test/", "MI300X is not new hardware.", "For agentic workloads",
]  # fmt: skip
SHELL = [
    "vllm serve ", "python3 -m sglang.launch_server ", "trtllm-serve ", "$(", ")", "${", "}",
    "$((", "))", "'", '"', "\\\n", "\n", " --tp ", "--speculative-config=", '{"method": "mtp"}',
    "[[ -n $X ]] && ", "if true; then ", "else ", "fi\n", "case $A in ", "a) ", ";;", "esac\n",
    "<<EOF\n", "EOF\n", "A=(1 2)", "${A[@]}", "X=", "$X", "&", "|", ";", "#", "`", "2>&1 ",
    "run_benchmark_serving ", "--use-chat-template ", "export ", "for i in 1 2; do ", "done\n",
    "true || ", "false && ", "f() { ", "}\n", "--hf_overrides ", "--json-model-override ",
]  # fmt: skip
YAML = [
    "dsv4-fp4-b200-vllm:\n", "  image: ", '"vllm/vllm-openai:v0.11.0"', "nvcr.io#nvidia/x:1",
    "\n", "  framework: vllm\n", "  runner: cluster:b300-nv\n", "  multinode: false\n",
    "  scenarios:\n", "    fixed-seq-len:\n", "      - search-space:\n",
    "          - {tp: 8, spec-decoding: mtp}\n", "&a ", "*a", "<<: *a\n", "- ", ": ", "{", "}",
    "[", "]", "'", '"', "\t", "? ", "!!python/object ", "model-prefix: dsv4\n",
    "precision: fp4\n", "%YAML 1.2\n", "---\n", "...\n", "&b [*b]\n", "![PASS](x)",
]  # fmt: skip
GLOB = ["a", "b", "/", "*", "**", "?", "\\", "#", " ", "@o", "@org/t", "x@y.z", ".", "[", "!"]
LINKS = [
    "https://", "http://", "github.com/", "vllm-project/recipes", "/pull/", "612", "/files",
    "recipes.vllm.ai/", "docs.sglang.io/cookbook/", "#", "?", "sgl-project/sglang#", "12",
    " ", "<", ">", "%", "[", "]", ":", "@", "\u00e9", "..",
]  # fmt: skip
PROSE = ["new", "hardware", "not", "no", "isn't", "rather", "than", ",", ";", "but", "?", "MI300X"]


def texts(pieces: list[str], size: int = 40) -> st.SearchStrategy[str]:
    return st.one_of(
        st.text(max_size=400), st.lists(st.sampled_from(pieces), max_size=size).map("".join)
    )


def _events() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path in sorted(EVENTS.glob("*.json")):
        found.append((path.name.split(".", 1)[0], json.loads(path.read_text(encoding="utf-8"))))
    return found


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


@st.composite
def payloads(draw: st.DrawFn) -> tuple[str, dict[str, Any], str]:
    """A real event payload with random values swapped in at random paths."""
    name, payload = draw(st.sampled_from(_events()))
    payload = copy.deepcopy(payload)
    for _ in range(draw(st.integers(0, 4))):
        node: Any = payload
        while isinstance(node, dict) and node and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(node)))
            if not isinstance(node[key], dict) or draw(st.booleans()):
                node[key] = draw(JSON)
                break
            node = node[key]
    url = draw(st.one_of(st.just(""), texts(LINKS, 12)))
    return name, payload, url


# --- one property per parser: never raises, keeps its invariants -------------------------------


def check_signoff(text: str) -> None:
    parsed = parse_signoff(text, POLICY.signoff)
    assert all(item.parent is None or item.parent < i for i, item in enumerate(parsed.items))


def check_template(text: str) -> None:
    parse_template(text, POLICY.signoff, POLICY.template_items)


def check_matching(pair: tuple[str, str]) -> None:
    template = parse_template(pair[0], POLICY.signoff, POLICY.template_items)
    report = match_items(template, parse_signoff(pair[1], POLICY.signoff), POLICY.template_items)
    assert len(report.matches) == len(template.items)


def check_codeowners(pair: tuple[str, str]) -> None:
    owners = parse_codeowners(pair[0])
    for path in (pair[1], pair[1].strip("/"), "a/" + pair[1]):
        rule = owners.match(path)
        expected = next((r for r in reversed(owners.rules) if r.matches(path)), None)
        assert rule == expected, (path, rule, expected)


def check_master_config(text: str) -> None:
    config = parse_master_config(text, "configs/nvidia-master.yaml", POLICY.images.sku_pattern)
    list(diff_entries(None, config))


def check_master_blocks(pair: tuple[str, str]) -> None:
    blocks = split_blocks(pair[1])
    keys = changed_keys(pair[0], pair[1])
    if blocks is not None:
        sparse_text(pair[1], blocks, set(keys or ()))


SWEEP_POINT = {"TP": "8", "EP_SIZE": "1", "DP_ATTENTION": "true", "SPEC_DECODING": "mtp",
               "CONC": "16", "ISL": "8192", "OSL": "1024", "MODEL": "m/x"}  # fmt: skip


def check_script(text: str) -> None:
    """Read unbound and with one configuration bound: never raises, records in line order."""
    clients = POLICY.spec_decode.client_commands
    facts = parse_script(text, "benchmarks/x.sh", clients)
    run = evaluate(read_script(text, "benchmarks/x.sh"), SWEEP_POINT, clients)
    for records in (facts.launches, facts.clients, run.launches, run.clients):
        lines = [record.line for record in records]
        assert lines == sorted(lines)
    assert run.complete or run.problems


def check_links(pair: tuple[str, str]) -> None:
    classify_recipe_link(pair[0], POLICY.recipe)
    recipe_links([pair[0], pair[1]], pair[1], POLICY.recipe)


def check_gate(drawn: tuple[str, dict[str, Any], str]) -> None:
    name, payload, url = drawn
    with contextlib.suppress(InputError):  # a malformed dispatch request is bad input, by design
        decide(name, payload, POLICY, comment_url=url, repository="SemiAnalysisAI/InferenceX")


def check_prose(text: str) -> None:
    for cue in POLICY.images.exception_cues:
        asserted(text, cue)


def check_reason(text: str) -> None:
    """A reason renders, by GitHub's own renderer, as one paragraph of text and code only."""
    rendered = reason_markdown(text, allowed_mentions=("signer",))
    assert "\n" not in rendered
    html = cmarkgfm.github_flavored_markdown_to_html(f"✅ Check 6 (x): PASS — {rendered}")
    assert {tag.lower() for tag in _TAG.findall(html)} <= {"p", "code"}, html


RECIPE = [
    "# DeepSeek-V4\n", "## B200\n", "### FP4 with MTP\n", "```bash\n", "```\n", "vllm serve ",
    "python3 -m sglang.launch_server ", "--tensor-parallel-size 8 ", "--tp 8 ", "\\\n",
    "--speculative-config '{\"method\": \"mtp\"}' ", "<Tab title=\"MI355X\">", "</Tab>",
    "model: ", "deepseek-ai/DeepSeek-V4-Pro\n", "args:\n", "  - --kv-cache-dtype\n", "  - fp8\n",
    "hardware:\n", "  b200:\n", "export const config = {", "cells: [", "]", "}", "'--tp'", ",",
    "<pre><code>", "</code></pre>", "<h2>", "</h2>", "&gt;", "\n", " ",
]  # fmt: skip
POLICY_TEXT = [
    "## Deprecation Notice\n", "### Monday, August 3, 2026\n", "| Model | Deprecated | Remains |\n",
    "|---|---|---|\n", "| MiniMax-M3 (`minimaxm3`) | Single-turn 8k1k | Agentic coding |\n",
    "## Scenarios\n", "| Scenario | ISL/OSL | Status |\n", "## Model support matrix\n",
    "deepseek-v4-pro:\n", "  thinking_on: {1: 1.71, 3: 2.49}\n", "  thinking_off: {x: y}\n",
    "+- config-keys:\n", "+    - dsv4-fp4-b200-vllm\n", "+  append-only: true\n",
    "+  description:\n", "+    - x\n", "@@ -1,1 +1,4 @@\n", "\n", "|", "- ", ": ",
]  # fmt: skip


def check_recipes(text: str) -> None:
    """Recipe documents of every format (Markdown, YAML, cookbook JSX, a published page)."""
    for path in ("DeepSeek/DeepSeek-V4.md", "models/x/y.yaml", "docs_new/x/config.jsx"):
        read_recipe_file(path, text, "vllm", POLICY.recipe)
    read_recipe_page("https://recipes.vllm.ai/x", text)


def check_policy_texts(text: str) -> None:
    """MODELS.md, golden acceptance curves and changelog patches: read, never raise."""
    parse_models(text)
    parse_golden(text, "golden_al_distribution/x.yaml")
    new_entries(text, "perf-changelog.yaml")


def check_printf(args: list[str]) -> None:
    printed = printf_output(args)
    assert printed is None or len(printed) <= 65_536


PARSERS: dict[str, tuple[Callable[[Any], None], st.SearchStrategy[Any]]] = {
    "signoff": (check_signoff, texts(MARKDOWN)),
    "template": (check_template, texts(MARKDOWN)),
    "matching": (check_matching, st.tuples(texts(MARKDOWN), texts(MARKDOWN))),
    "codeowners": (
        check_codeowners,
        st.tuples(
            texts([*GLOB, "\n", " @o\n"], 60),
            st.lists(st.sampled_from(["a", "b", "/", "ab", "."]), max_size=12).map("".join),
        ),
    ),
    "master_config": (check_master_config, texts(YAML)),
    "master_blocks": (check_master_blocks, st.tuples(texts(YAML), texts(YAML))),
    "script": (check_script, texts(SHELL)),
    "links": (check_links, st.tuples(texts(LINKS, 16), texts(LINKS, 30))),
    "gate": (check_gate, payloads()),
    "prose": (check_prose, texts(PROSE, 30)),
    "reasons": (check_reason, texts([*MARKDOWN, "![PASS](https://x)", "@bob", "www.x.y"])),
    "recipes": (check_recipes, texts(RECIPE)),
    "policy_texts": (check_policy_texts, texts(POLICY_TEXT)),
    "printf": (
        check_printf,
        st.lists(
            texts(["%", "d", "s", ".2f", "%*d", "\\n", "x", "3", "-v", "--", "1e9"], 8), max_size=4
        ),
    ),
}


def run(name: str, examples: int, run_seed: int) -> tuple[int, float, str]:
    """Run one parser's property for `examples` examples: (examples run, seconds, finding)."""
    check, strategy = PARSERS[name]
    count = 0

    @seed(run_seed)
    @settings(
        max_examples=examples,
        derandomize=False,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def prop(value: Any) -> None:
        nonlocal count
        count += 1
        check(value)

    start = time.perf_counter()
    finding = ""
    try:
        prop()
    except Exception:
        finding = traceback.format_exc(limit=3)
    return count, time.perf_counter() - start, finding


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--examples", type=int, default=100_000, help="examples per parser")
    parser.add_argument("--only", action="append", choices=sorted(PARSERS))
    parser.add_argument("--seed", type=int, default=None, help="reproduce a run")
    args = parser.parse_args()
    run_seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"seed {run_seed}; {args.examples} examples per parser", flush=True)
    findings = 0
    for name in args.only or PARSERS:
        count, seconds, finding = run(name, args.examples, run_seed)
        print(
            f"{name:14} {count:>9} examples {seconds:>8.1f} s  {'FINDING' if finding else 'ok'}",
            flush=True,
        )
        if finding:
            findings += 1
            print(finding, flush=True)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
