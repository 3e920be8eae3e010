"""Master-config parsing, image normalisation, SKU derivation, diffing and script mapping."""

from __future__ import annotations

from pathlib import Path

import pytest

from signoff.parse.inferencex.master_config import (
    MasterConfig,
    diff_entries,
    image_org,
    normalise_image,
    parse_master_config,
    script_candidates,
    sku_of,
)
from signoff.policy import ImagePolicy

DATA = Path(__file__).parents[1] / "data" / "configs"
SKU_PATTERN = ImagePolicy.model_fields["sku_pattern"].default
DIGEST = "4f9c0a6e3b2d1c8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e"


def load(name: str, file: str = "configs/nvidia-master.yaml") -> MasterConfig:
    return parse_master_config((DATA / name).read_text(encoding="utf-8"), file, SKU_PATTERN)


@pytest.fixture(scope="module")
def base() -> MasterConfig:
    return load("nvidia-master.base.yaml")


@pytest.fixture(scope="module")
def head() -> MasterConfig:
    return load("nvidia-master.head.yaml")


@pytest.mark.parametrize(
    ("raw", "image", "org"),
    [
        ("vllm/vllm-openai:v0.11.0", "vllm/vllm-openai:v0.11.0", "vllm"),
        ('"lmsysorg/sglang:v0.5.5-cu129"', "lmsysorg/sglang:v0.5.5-cu129", "lmsysorg"),
        ("'lmsysorg/sglang-rocm:v0.5.5'", "lmsysorg/sglang-rocm:v0.5.5", "lmsysorg"),
        ("docker.io/vllm/vllm-openai:v0.11.1", "vllm/vllm-openai:v0.11.1", "vllm"),
        (
            "nvcr.io#nvidia/tensorrt-llm/release:1.2.0",
            "nvcr.io/nvidia/tensorrt-llm/release:1.2.0",
            "nvcr.io/nvidia",
        ),
        (
            "ghcr.io#semianalysisai/trtllm-deepseek-v4:latest",
            "ghcr.io/semianalysisai/trtllm-deepseek-v4:latest",
            "ghcr.io/semianalysisai",
        ),
        (f"vllm/vllm-openai@sha256:{DIGEST}", f"vllm/vllm-openai@sha256:{DIGEST}", "vllm"),
        ("rocm/sgl-dev:v0.5.5-rocm700", "rocm/sgl-dev:v0.5.5-rocm700", "rocm"),
        (
            "localhost:5000/vllm/vllm-openai:dev",
            "localhost:5000/vllm/vllm-openai:dev",
            "localhost:5000/vllm",
        ),
        ("ubuntu:24.04", "ubuntu:24.04", "library"),
    ],
)
def test_images_are_normalised_and_their_org_never_confuses_registries(
    raw: str, image: str, org: str
) -> None:
    assert normalise_image(raw) == image
    assert image_org(normalise_image(raw)) == org


def test_quoted_hash_separated_image_in_a_config_is_read_with_a_slash(head: MasterConfig) -> None:
    entry = head.entries["dsr1-fp4-b200-trt-mtp"]
    assert entry.image_raw == "nvcr.io#nvidia/tensorrt-llm/release:1.2.0"
    assert entry.image == "nvcr.io/nvidia/tensorrt-llm/release:1.2.0"
    assert entry.image_repo == "nvcr.io/nvidia/tensorrt-llm/release"


def test_digest_pinned_image_keeps_its_digest_and_repository(head: MasterConfig) -> None:
    entry = head.entries["dsv4-fp4-b200-vllm-mtp"]
    assert entry.image.endswith(f"@sha256:{DIGEST}")
    assert entry.image_repo == "vllm/vllm-openai"
    assert entry.image_org == "vllm"


@pytest.mark.parametrize(
    ("runner", "sku"),
    [
        ("cluster:b300-nv", "b300"),
        ("mi355x-disagg", "mi355x"),
        ("b200-dsv4", "b200"),
        ("rtx6000pro-lat", "rtx6000pro"),
        ("h200", "h200"),
        ("h200-dgxc", "h200"),
        ("gb300-nv", "gb300"),
        ("cluster:mi325x-tw", "mi325x"),
        ("b200-multinode", "b200"),
        ("", None),
        ("-weird", None),
    ],
)
def test_sku_is_derived_from_runner_labels_even_unknown_ones(runner: str, sku: str | None) -> None:
    assert sku_of(runner, SKU_PATTERN) == sku


def test_an_invalid_sku_pattern_yields_no_sku_instead_of_raising() -> None:
    assert sku_of("b200", "([") is None


def test_entries_keep_their_line_and_merge_keys_are_resolved(head: MasterConfig) -> None:
    entry = head.entries["dsv4-fp4-b200-vllm"]
    assert entry.line == 16
    assert (entry.model, entry.model_prefix, entry.precision) == (
        "deepseek-ai/DeepSeek-V4",
        "dsv4",
        "fp4",
    )
    assert entry.runner == "b200-dsv4" and entry.sku == "b200"
    assert entry.search_space_args.tp == (8,) and entry.search_space_args.dp_attn == (True,)


def test_anchor_templates_with_a_dot_prefix_are_not_entries(head: MasterConfig) -> None:
    assert not any(key.startswith(".") for key in head.entries)
    assert not any(".dsv4" in problem for problem in head.problems)


def test_entries_missing_required_fields_or_not_mappings_are_problems_and_excluded(
    head: MasterConfig,
) -> None:
    assert "glm5.2-fp8-h200-sglang-broken" not in head.entries
    assert "glm5.2-fp8-b200-sglang-notamap" not in head.entries
    assert head.problems == (
        "configs/nvidia-master.yaml:148: glm5.2-fp8-h200-sglang-broken: missing image",
        "configs/nvidia-master.yaml:156: glm5.2-fp8-b200-sglang-notamap: entry is not a mapping",
    )


def test_malformed_yaml_gives_no_entries_and_a_located_problem() -> None:
    config = load("amd-master.malformed.yaml", "configs/amd-master.yaml")
    assert config.entries == {}
    assert config.problems == ("configs/amd-master.yaml:5: not valid YAML",)


def test_a_top_level_list_is_a_problem_not_a_crash() -> None:
    config = parse_master_config("- a\n- b\n", "configs/x-master.yaml", SKU_PATTERN)
    assert config.problems == ("configs/x-master.yaml:1: top level is not a mapping",)


def test_an_empty_file_has_no_entries_and_no_problems() -> None:
    assert parse_master_config("", "c.yaml", SKU_PATTERN) == MasterConfig(
        file="c.yaml", entries={}, problems=()
    )


def test_missing_multinode_and_non_boolean_flags_are_reported() -> None:
    text = (
        "dsv4-fp4-b200-vllm:\n  image: vllm/vllm-openai:v0.11.0\n  model: m\n  model-prefix: dsv4\n"
        "  precision: fp4\n  framework: vllm\n  runner: b200\n  disagg: 'yes'\n"
    )
    config = parse_master_config(text, "c.yaml", SKU_PATTERN)
    assert config.entries["dsv4-fp4-b200-vllm"].disagg is True
    assert config.problems == (
        "c.yaml:1: dsv4-fp4-b200-vllm: missing multinode",
        "c.yaml:1: dsv4-fp4-b200-vllm: disagg must be true or false, not 'yes'",
    )


def test_wildcard_keys_are_reported() -> None:
    text = "dsv4-*:\n  image: a/b:1\n  framework: vllm\n  runner: b200\n  multinode: false\n"
    problems = parse_master_config(text, "c.yaml", SKU_PATTERN).problems
    assert "c.yaml:1: dsv4-*: entry keys may not contain '*'" in problems


def test_diff_reports_added_changed_and_removed_entries_but_ignores_unchanged_ones(
    base: MasterConfig, head: MasterConfig
) -> None:
    changes = diff_entries(base, head)
    kinds = {change.key: change.kind for change in changes}
    assert kinds == {
        "dsv4-fp4-b200-vllm-mtp": "changed",
        "dsv4-fp4-gb200-dynamo-trt": "added",
        "dsr1-fp8-mi355x-sglang-disagg": "added",
        "dsv4-fp4-mi355x-atom-mtp": "added",
        "gptoss-fp4-h100-vllm": "removed",
        "kimik3-fp4-rtx6000pro-vllm": "added",
        "minimaxm3-fp4-b300-vllm-agentic": "added",
    }
    assert [change.key for change in changes] == sorted(kinds)
    changed = next(change for change in changes if change.kind == "changed")
    assert changed.base is not None and changed.head is not None
    assert changed.base.image != changed.head.image


def test_an_entry_rewritten_with_merge_keys_but_same_content_is_unchanged(
    base: MasterConfig, head: MasterConfig
) -> None:
    assert (
        base.entries["dsv4-fp4-b200-vllm"].fingerprint
        == head.entries["dsv4-fp4-b200-vllm"].fingerprint
    )


def test_without_a_base_every_entry_is_added(head: MasterConfig) -> None:
    changes = diff_entries(None, head)
    assert {change.kind for change in changes} == {"added"}
    assert len(changes) == len(head.entries)


def test_agentic_multinode_disagg_and_spec_decoding_are_detected(head: MasterConfig) -> None:
    agentic = head.entries["minimaxm3-fp4-b300-vllm-agentic"]
    assert agentic.is_agentic and agentic.scenarios == ("agentic-coding",)
    assert agentic.spec_decoding == ("draft_model",) and agentic.spec_modes == (
        "draft_model",
        "none",
    )
    assert agentic.sku == "b300"
    dynamo = head.entries["dsv4-fp4-gb200-dynamo-trt"]
    assert dynamo.multinode and dynamo.disagg and dynamo.spec_decoding == ("mtp",)
    assert dynamo.search_space_args.tp == (4, 16)
    plain = head.entries["qwen3.5-fp8-h200-sglang"]
    assert not plain.is_agentic and not plain.multinode and plain.spec_decoding == ()


def test_legacy_seq_len_configs_count_as_fixed_seq_len() -> None:
    text = (
        "dsr1-fp8-h200-sglang:\n  image: lmsysorg/sglang:v0.4.9\n  model: deepseek-ai/DeepSeek-R1\n"
        "  model-prefix: dsr1\n  precision: fp8\n  framework: sglang\n  runner: h200\n"
        "  multinode: false\n  seq-len-configs:\n    - isl: 1024\n      osl: 1024\n"
        "      search-space:\n        - {tp: 8, conc-start: 4, conc-end: 64}\n"
    )
    entry = parse_master_config(text, "c.yaml", SKU_PATTERN).entries["dsr1-fp8-h200-sglang"]
    assert entry.scenarios == ("fixed-seq-len",)
    assert entry.search_space_args.tp == (8,)


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        (
            "dsr1-fp4-b200-trt-mtp",
            (
                "benchmarks/single_node/fixed_seq_len/dsr1_fp4_b200_trt_mtp.sh",
                "benchmarks/single_node/fixed_seq_len/dsr1_fp4_b200_mtp.sh",
            ),
        ),
        (
            "dsv4-fp4-mi355x-atom-mtp",
            (
                "benchmarks/single_node/fixed_seq_len/dsv4_fp4_mi355x_atom_mtp.sh",
                "benchmarks/single_node/fixed_seq_len/dsv4_fp4_mi355x_mtp.sh",
            ),
        ),
        (
            "qwen3.5-fp8-h200-sglang",
            (
                "benchmarks/single_node/fixed_seq_len/qwen3.5_fp8_h200_sglang.sh",
                "benchmarks/single_node/fixed_seq_len/qwen3.5_fp8_h200.sh",
            ),
        ),
        (
            "minimaxm3-fp4-b300-vllm-agentic",
            (
                "benchmarks/single_node/agentic/minimaxm3_fp4_b300_vllm.sh",
                "benchmarks/single_node/agentic/minimaxm3_fp4_b300.sh",
            ),
        ),
        (
            "kimik3-fp4-rtx6000pro-vllm",
            (
                "benchmarks/single_node/fixed_seq_len/kimik3_fp4_rtx6000pro_vllm.sh",
                "benchmarks/single_node/fixed_seq_len/kimik3_fp4_rtx6000pro.sh",
            ),
        ),
        ("dsv4-fp4-gb200-dynamo-trt", ()),
        ("dsr1-fp8-mi355x-sglang-disagg", ()),
    ],
)
def test_script_candidates_follow_the_launcher_naming_rules(
    head: MasterConfig, key: str, expected: tuple[str, ...]
) -> None:
    assert script_candidates(head.entries[key]) == expected


def test_draft_model_gets_no_mtp_suffix_and_mixed_modes_list_both(head: MasterConfig) -> None:
    entry = head.entries["minimaxm3-fp4-b300-vllm-agentic"]
    assert not any("_mtp" in path for path in script_candidates(entry))
    mixed = entry.model_copy(update={"spec_modes": ("mtp", "none"), "spec_decoding": ("mtp",)})
    assert script_candidates(mixed)[:2] == (
        "benchmarks/single_node/agentic/minimaxm3_fp4_b300_vllm_mtp.sh",
        "benchmarks/single_node/agentic/minimaxm3_fp4_b300_mtp.sh",
    )
    assert len(script_candidates(mixed)) == 4


def test_a_320_kb_master_config_parses_every_entry_with_its_line() -> None:
    template = (DATA / "nvidia-master.head.yaml").read_text(encoding="utf-8")
    body = template.split("\ndsr1-fp4-b200-trt-mtp:", 1)[1].split("\nqwen3.5", 1)[0]
    count = 320_000 // len(body) + 1
    text = "".join(f"dsr1-fp4-b200-trt-mtp-{index}:{body}\n" for index in range(count))
    assert len(text) > 320_000
    config = parse_master_config(text, "configs/nvidia-master.yaml", SKU_PATTERN)
    assert len(config.entries) == count and config.problems == ()
    assert config.entries[f"dsr1-fp4-b200-trt-mtp-{count - 1}"].line > 1
    # Its cost is measured in tests/bench/bench_judge.py (timed unit tests are flaky), not here.


def test_multi_node_additional_settings_are_read_prefill_first_then_decode_per_item() -> None:
    text = (
        "dsv4-fp4-mi355x-sglang-disagg-mtp:\n  image: lmsysorg/sglang-rocm:v1\n"
        "  model: deepseek-ai/DeepSeek-V4-Pro\n  model-prefix: dsv4\n  precision: fp4\n"
        "  framework: sglang-disagg\n  runner: mi355x-disagg\n  multinode: true\n"
        "  scenarios:\n    agentic-coding:\n      - search-space:\n"
        "        - spec-decoding: mtp\n"
        '          prefill: {tp: 8, additional-settings: ["PREFILL_NODES=1", "X=a=b"]}\n'
        '          decode: {tp: 8, additional-settings: ["DECODE_MTP_SIZE=3", "X=c", "--f", 4]}\n'
        "        - spec-decoding: mtp\n          decode: {tp: 8}\n"
    )
    entry = parse_master_config(text, "configs/amd-master.yaml", SKU_PATTERN).entries[
        "dsv4-fp4-mi355x-sglang-disagg-mtp"
    ]
    first, second = entry.spaces
    assert first.additional == (
        ("PREFILL_NODES", "1"), ("X", "a=b"), ("DECODE_MTP_SIZE", "3"), ("X", "c"),
    )  # fmt: skip
    assert second.additional == ()
