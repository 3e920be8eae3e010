"""Append-only changelog entries only add points to existing same-image curves (E8)."""

from __future__ import annotations

from builders import (
    APPEND_CHANGELOG,
    APPEND_ENTRY,
    EXISTING_ENTRY,
    add_changed_file,
    append_only_parts,
    changelog_patch,
    passing_parts,
)

from signoff.parse.changelog import new_entries
from signoff.parse.sweep_matrix import curves

MASTER = "configs/nvidia-master.yaml"
OTHER = """\
dsr1-fp8-b200-sglang:
  image: lmsysorg/sglang:v0.5.9
  model: deepseek-ai/DeepSeek-R1-0528
  model-prefix: dsr1
  precision: fp8
  framework: sglang
  runner: b200
  multinode: false
  scenarios:
    fixed-seq-len:
      - isl: 8192
        osl: 1024
        search-space:
          - { tp: 8, ep: 1, conc-start: 4, conc-end: 64 }
"""


def test_new_points_on_an_existing_curve_pass(check):
    result = check(append_only_parts(), "append-only")
    assert result.status == "PASS"
    assert "2 new point(s) on existing same-image curves of dsv4-fp4-b200-vllm" in result.reason


def test_a_new_recipe_variant_on_an_existing_visual_curve_passes(check):
    head = EXISTING_ENTRY.replace(
        "          - { tp: 8, ep: 8, dp-attn: true, conc-start: 4, conc-end: 256 }\n",
        "          - { tp: 8, ep: 8, dp-attn: true, conc-start: 4, conc-end: 256 }\n"
        "          - { tp: 4, ep: 4, dp-attn: true, conc-list: [1, 2] }\n",
    )
    assert check(append_only_parts(head), "append-only").status == "PASS"


def test_without_an_append_only_entry_the_check_is_not_applicable(check):
    assert check(passing_parts(), "append-only").status == "N/A"
    parts = passing_parts()
    parts["changed_files"] = [
        f for f in parts["changed_files"] if f["path"] != "perf-changelog.yaml"
    ]
    assert check(parts, "append-only").status == "N/A"


def test_changing_an_existing_points_recipe_fails(check):
    head = APPEND_ENTRY.replace("tp: 8, ep: 8", "tp: 8, ep: 4")
    result = check(append_only_parts(head), "append-only")
    assert result.status == "FAIL" and "an existing recipe was changed or removed" in result.reason
    assert "`ep` was 8, now 4" in result.reason


def test_a_new_image_is_a_changed_recipe_not_an_appended_point(check):
    head = APPEND_ENTRY.replace("v0.11.1", "v0.11.2")
    result = check(append_only_parts(head), "append-only")
    assert result.status == "FAIL" and "existing recipe was changed" in result.reason


def test_removing_an_existing_concurrency_fails(check):
    head = APPEND_ENTRY.replace("conc-start: 4", "conc-start: 8")
    result = check(append_only_parts(head), "append-only")
    assert result.status == "FAIL" and "existing concurrency [4] removed" in result.reason


def test_an_append_only_entry_that_adds_no_point_fails(check):
    head = EXISTING_ENTRY.replace("multinode: false", "multinode: false  # no change")
    result = check(append_only_parts(head), "append-only")
    assert result.status == "FAIL" and "adds no point" in result.reason


def test_mixing_append_only_and_regular_entries_fails(check):
    regular = APPEND_CHANGELOG + APPEND_CHANGELOG.replace("  append-only: true\n", "")
    result = check(append_only_parts(changelog=regular), "append-only")
    assert result.status == "FAIL" and "cannot share a sweep" in result.reason


def test_append_only_with_evals_only_or_the_all_evals_label_fails(check):
    flagged = APPEND_CHANGELOG + "  evals-only: true\n"
    result = check(append_only_parts(changelog=flagged), "append-only")
    assert result.status == "FAIL" and "cannot be combined with evals-only" in result.reason
    parts = append_only_parts()
    parts["pull_request"]["labels"] = ["all-evals", "full-sweep-enabled"]
    result = check(parts, "append-only")
    assert result.status == "FAIL" and "`all-evals` label" in result.reason


def test_a_config_the_entry_does_not_select_may_not_change(check):
    parts = append_only_parts(APPEND_ENTRY + "\n" + OTHER)
    parts["files"] = [
        f for f in parts["files"] if not (f["path"] == MASTER and f["role"] == "base")
    ]
    parts["files"].append(
        {
            "path": MASTER,
            "role": "base",
            "text": EXISTING_ENTRY + "\n" + OTHER.replace("conc-end: 64", "conc-end: 32"),
        }
    )
    result = check(parts, "append-only")
    assert (
        result.status == "FAIL"
        and "dsr1-fp8-b200-sglang changed but no append-only entry" in result.reason
    )


def test_a_new_config_is_out_of_scope_for_append_only(check):
    changelog = APPEND_CHANGELOG.replace(
        "    - dsv4-fp4-b200-vllm\n", "    - dsv4-fp4-b200-vllm\n    - dsr1-fp8-b200-sglang\n"
    )
    result = check(append_only_parts(APPEND_ENTRY + "\n" + OTHER, changelog), "append-only")
    assert result.status == "FAIL" and "dsr1-fp8-b200-sglang is a new config" in result.reason


def test_wildcard_config_keys_select_the_heads_matching_configs(check):
    changelog = APPEND_CHANGELOG.replace("    - dsv4-fp4-b200-vllm\n", "    - dsv4-*-vllm\n")
    assert check(append_only_parts(changelog=changelog), "append-only").status == "PASS"


def test_any_other_benchmark_affecting_change_fails_closed(check):
    parts = append_only_parts()
    add_changed_file(parts, "benchmarks/single_node/fixed_seq_len/dsv4_fp4_b200_vllm.sh",
                     "vllm serve x --max-num-seqs 1024\n", base="vllm serve x\n")  # fmt: skip
    result = check(parts, "append-only")
    assert result.status == "FAIL" and "cannot be proven" in result.reason


def test_deleting_an_existing_changelog_line_fails(check):
    parts = append_only_parts()
    changed = next(f for f in parts["changed_files"] if f["path"] == "perf-changelog.yaml")
    changed["patch"] = changed["patch"].replace(" context line", "-  pr-link: XXX")
    result = check(parts, "append-only")
    assert result.status == "FAIL" and "existing changelog entries are immutable" in result.reason


def test_a_changelog_without_a_patch_or_with_a_fragment_fails_closed(check):
    parts = append_only_parts()
    changed = next(f for f in parts["changed_files"] if f["path"] == "perf-changelog.yaml")
    changed["patch"] = None
    result = check(parts, "append-only")
    assert result.status == "FAIL" and "GitHub sent no patch" in result.reason
    changed["patch"] = changelog_patch("  append-only: true\n")
    result = check(parts, "append-only")
    assert result.status == "FAIL" and "not a list of changelog entries" in result.reason


def test_new_changelog_entries_are_read_with_their_lines_and_flags():
    read = new_entries(
        changelog_patch(APPEND_CHANGELOG + "- config-keys: [a]\n  all-evals: true\n"),
        "perf-changelog.yaml",
    )
    assert read.problems == ()
    assert [(e.line, e.config_keys, e.append_only, e.flags) for e in read.entries] == [
        (121, ("dsv4-fp4-b200-vllm",), True, ()),
        (127, ("a",), False, ("all-evals",)),
    ]


def test_a_concurrency_range_doubles_up_to_and_including_its_end():
    entry = {
        "image": "i",
        "scenarios": {
            "fixed-seq-len": [
                {"isl": 1, "osl": 1, "search-space": [{"tp": 1, "conc-start": 4, "conc-end": 48}]}
            ]
        },
    }
    (curve,) = curves("k", entry, None)
    assert sorted(curve.concs) == [4, 8, 16, 32, 48]
