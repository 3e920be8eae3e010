"""Check 8's scope: a multi-node spec-decode entry is judged by the whole recipes it runs at the
head (whatever lines the PR touched), and a script no sweep configuration runs (a reference
collector outside the scenario directories, a script under `deprecated/`) benchmarks nothing."""

from __future__ import annotations

import pytest
from builders import (
    EXISTING_ENTRY,
    SCRIPT,
    SCRIPT_PATH,
    add_changed_file,
    passing_parts,
    replace_file,
)

RECIPE = "benchmarks/multi_node/srt-slurm-recipes/vllm/example/b300/mtp/1p1d.yaml"
OTHER_RECIPE = "benchmarks/multi_node/srt-slurm-recipes/vllm/example/b300/mtp/1p2d.yaml"


def _entry(*recipes: str) -> str:
    points = "".join(
        "          - spec-decoding: mtp\n            conc-list: [64]\n"
        "            prefill:\n              num-worker: 1\n              tp: 2\n"
        f'              additional-settings:\n              - "CONFIG_FILE={r}"\n'
        "            decode: { num-worker: 1, tp: 4 }\n"
        for r in recipes
    )
    return (
        "minimaxm3-fp4-b300-dynamo-vllm-mtp:\n  image: vllm/vllm-openai:nightly-5e35a6f\n"
        "  model: nvidia/MiniMax-M3-NVFP4\n  model-prefix: minimaxm3\n  precision: fp4\n"
        "  framework: dynamo-vllm\n  runner: b300\n  multinode: true\n  disagg: true\n"
        "  scenarios:\n    fixed-seq-len:\n      - isl: 8192\n        osl: 1024\n"
        "        search-space:\n" + points
    )


def _recipe(chat: str) -> str:
    return f"name: example\nbackend:\n  type: vllm\nbenchmark:\n  type: sa-bench\n{chat}"


def _multi_node(recipes: dict[str, str | None], *, changed: str = "") -> dict:
    """A PR that bumps a multi-node MTP entry's image (its recipes unchanged, read at the head;
    None: not readable); `changed`: a recipe the PR also edits, with its new line."""
    parts = passing_parts()
    launched = [p.replace("benchmarks/multi_node/srt-slurm-", "") for p in recipes]
    entry = _entry(*launched)
    replace_file(parts, "configs/nvidia-master.yaml", "head", EXISTING_ENTRY + "\n" + entry)
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != SCRIPT_PATH]
    for f in parts["changed_files"]:
        if f["path"] == "configs/nvidia-master.yaml":
            f["patch"] = "@@ -14,0 +15,3 @@\n" + "\n".join("+" + ln for ln in entry.splitlines())
    for path, text in recipes.items():
        if text is None:
            replace_file(parts, path, "head", None, state="unavailable")
        else:
            replace_file(parts, path, "head", text)
    if changed:
        parts["changed_files"].append(
            {
                "path": RECIPE,
                "status": "modified",
                "patch": f"@@ -1,1 +1,2 @@\n name: x\n+{changed}",
            }
        )
    return parts


def test_a_multi_node_entry_whose_unchanged_recipe_enables_the_chat_template_passes(check):
    result = check(
        _multi_node({RECIPE: _recipe("  use_chat_template: true\n")}), "spec-chat-template"
    )
    assert result.status == "PASS", result.reason


def test_a_multi_node_entry_is_judged_by_every_recipe_it_runs(check):
    recipes = {
        RECIPE: _recipe("  use_chat_template: true\n"),
        OTHER_RECIPE: _recipe("  use_chat_template: false\n"),
    }
    result = check(_multi_node(recipes), "spec-chat-template")
    assert result.status == "FAIL" and OTHER_RECIPE in result.reason


@pytest.mark.parametrize(
    "chat",
    ["  use_chat_template: false\n", '  use_chat_template: "true"\n',
     "  use-chat-template: no\n"],
)  # fmt: skip
def test_a_recipe_that_does_not_switch_the_chat_template_on_fails(check, chat):
    result = check(_multi_node({RECIPE: _recipe(chat)}), "spec-chat-template")
    assert result.status == "FAIL" and "does not enable the chat template" in result.reason


@pytest.mark.parametrize("chat", ["", "  # use_chat_template: false\n"])
def test_a_recipe_without_the_switch_runs_the_tools_default_which_is_on_for_sa_bench(check, chat):
    result = check(_multi_node({RECIPE: _recipe(chat)}), "spec-chat-template")
    assert result.status == "PASS", result.reason


@pytest.mark.parametrize(
    "kind", ["  type: mooncake-router\n", "  type: [sa-bench]\n", '  type: "custom"\n', ""]
)
def test_a_recipe_without_the_switch_whose_benchmark_type_has_no_known_default_fails(check, kind):
    text = f"name: example\nbackend:\n  type: vllm\nbenchmark:\n{kind}  isl: 1024\n"
    result = check(_multi_node({RECIPE: text}), "spec-chat-template")
    assert result.status == "FAIL" and "does not enable the chat template" in result.reason


def test_a_zip_override_without_the_switch_runs_the_default_of_the_merged_benchmark_type(check):
    text = (
        "base:\n  benchmark:\n    type: sa-bench\n"
        "zip_override_a:\n  benchmark:\n    type: [sa-bench, mooncake-router]\n"
    )
    parts = _multi_node({RECIPE: text})
    for changed in parts["files"]:
        if changed["path"] == "configs/nvidia-master.yaml" and changed["role"] == "head":
            changed["text"] = changed["text"].replace("1p1d.yaml", "1p1d.yaml:zip_override_a[1]")
    result = check(parts, "spec-chat-template")
    assert result.status == "FAIL", result.reason
    for changed in parts["files"]:
        if changed["path"] == "configs/nvidia-master.yaml" and changed["role"] == "head":
            changed["text"] = changed["text"].replace("_a[1]", "_a[0]")
    assert check(parts, "spec-chat-template").status == "PASS"


def test_a_chat_template_line_outside_the_benchmark_section_does_not_count(check):
    text = "use_chat_template: true\nbenchmark:\n  type: mooncake-router\n"
    result = check(_multi_node({RECIPE: text}), "spec-chat-template")
    assert result.status == "FAIL"


def test_an_added_line_does_not_outvote_the_recipe_the_entry_runs(check):
    # the PR adds `use_chat_template: true` under another key; the recipe read whole is off
    parts = _multi_node({RECIPE: _recipe("  use_chat_template: false\n")},
                        changed="  use_chat_template: true")  # fmt: skip
    result = check(parts, "spec-chat-template")
    assert result.status == "FAIL"


def test_a_recipe_that_cannot_be_read_fails_closed_naming_it(check):
    result = check(_multi_node({RECIPE: None}), "spec-chat-template")
    assert (
        result.status == "FAIL" and RECIPE in result.reason and "could not be read" in result.reason
    )


@pytest.mark.parametrize(
    "path",
    [
        "benchmarks/single_node/speedbench/dsv4_fp4_b300_vllm_mtp.sh",
        "benchmarks/single_node/fixed_seq_len/deprecated/dsv4_fp4_b300_vllm_mtp.sh",
        "benchmarks/multi_node/deprecated/dsv4_fp4_b300_vllm_mtp.sh",
    ],
)
def test_a_spec_script_no_sweep_configuration_runs_is_out_of_scope(check, path):
    parts = passing_parts()  # drop the entry: only the script changes
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] == SCRIPT_PATH]
    add_changed_file(parts, path, SCRIPT.replace("  --use-chat-template\n", "  --port 1\n"))
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != SCRIPT_PATH]
    result = check(parts, "spec-chat-template")
    assert result.status == "N/A", result.reason


def test_a_flagless_spec_script_in_a_scenario_directory_still_fails(check):
    parts = passing_parts()
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] == SCRIPT_PATH]
    add_changed_file(parts, SCRIPT_PATH, SCRIPT.replace("  --use-chat-template\n", "  --port 1\n"))
    result = check(parts, "spec-chat-template")
    assert result.status == "FAIL" and "without --use-chat-template" in result.reason


def test_a_spec_script_without_any_client_call_in_a_scenario_directory_still_fails(check):
    parts = passing_parts()
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] == SCRIPT_PATH]
    text = SCRIPT.split("run_benchmark_serving")[0] + "python3 my_client.py\n"
    add_changed_file(parts, SCRIPT_PATH, text)
    result = check(parts, "spec-chat-template")
    assert result.status == "FAIL" and "runs no" in result.reason


ZIP_RECIPE = """\
base:
  name: example
  benchmark:
    type: sa-bench
    use_chat_template: true
zip_override_mtp_hightpt:
  name: [a, b]
  benchmark:
    concurrencies: [[64], [128]]
zip_override_mtp_lowlat:
  name: [c, d]
  benchmark:
    use_chat_template: [true, false]
"""


@pytest.mark.parametrize(
    ("selector", "status"),
    [
        ("zip_override_mtp_hightpt[1]", "PASS"),  # the base's switch holds under the override
        ("zip_override_mtp_lowlat[0]", "PASS"),
        ("zip_override_mtp_lowlat[1]", "FAIL"),  # this run of the zip turns it off
        ("zip_override_mtp_missing[0]", "FAIL"),  # no such section: nothing is shown to run
    ],
)
def test_a_recipe_of_sections_is_read_as_the_selected_run(check, selector, status):
    parts = _multi_node({RECIPE: ZIP_RECIPE})
    for changed in parts["files"]:
        if changed["path"] == "configs/nvidia-master.yaml" and changed["role"] == "head":
            changed["text"] = changed["text"].replace("1p1d.yaml", f"1p1d.yaml:{selector}")
    result = check(parts, "spec-chat-template")
    assert result.status == status, result.reason


def test_a_recipe_of_sections_without_a_selector_needs_every_section_on(check):
    result = check(_multi_node({RECIPE: ZIP_RECIPE}), "spec-chat-template")
    assert result.status == "FAIL" and "does not enable the chat template" in result.reason
