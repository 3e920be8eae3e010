"""Flags read as the engines' argument parsers read them."""

from __future__ import annotations

import pytest

from signoff.parse.flags import canonical_flag, may_be_flag
from signoff.policy import load_policy

POLICY = load_policy()


@pytest.mark.parametrize(
    ("written", "engine", "expected"),
    [
        ("--hf_overrides", "vllm", "--hf-overrides"),
        ("--kv_cache_dtype=fp8", "vllm", "--kv-cache-dtype"),
        ("--attention_config.use_fp4_indexer_cache=True", "vllm", "--attention-config"),
        ("--tp_size", "sglang", "--tp_size"),
        ("-tp", "vllm", "--tensor-parallel-size"),
        ("--tp", "sglang", "--tp-size"),
        ("--tensor-parallel-size", "sglang", "--tp-size"),
        ("--model", "sglang", "--model-path"),
        ("--port", "vllm", "--port"),
    ],
)
def test_canonical_flag_reads_spellings_and_aliases(
    written: str, engine: str, expected: str
) -> None:
    assert canonical_flag(written, engine, POLICY) == expected


def test_a_unique_prefix_of_a_known_flag_is_that_flag() -> None:
    known = ("--tensor-parallel-size", "--max-model-len")
    assert canonical_flag("--tensor-par", "vllm", POLICY, known) == "--tensor-parallel-size"


def test_an_ambiguous_prefix_stays_as_written() -> None:
    known = ("--max-model-len", "--max-num-seqs")
    assert canonical_flag("--max", "vllm", POLICY, known) == "--max"


@pytest.mark.parametrize(
    ("written", "target"),
    [
        ("--hf-overrides", "--hf-overrides"),
        ("--hf_overrides", "--hf-overrides"),
        ("--hf-overrides=x", "--hf-overrides"),
        ("--hf-overrides.text_config.use_index_cache", "--hf-overrides"),
        ("--hf_overrides.num_hidden_layers", "--hf-overrides"),
        ("--hf-over", "--hf-overrides"),
        ("--json-model-override", "--json-model-override-args"),
        ("--json_model_override_args", "--json-model-override-args"),
    ],
)
def test_vllm_reads_a_banned_flag_in_every_spelling_its_parser_accepts(
    written: str, target: str
) -> None:
    assert may_be_flag(written, target, "vllm", POLICY)


@pytest.mark.parametrize(
    ("written", "target"),
    [
        ("--json-model-override-args", "--json-model-override-args"),
        ("--json-model-override", "--json-model-override-args"),
        ("--json-model-override-args={}", "--json-model-override-args"),
    ],
)
def test_sglang_reads_prefixes_and_equals_values(written: str, target: str) -> None:
    assert may_be_flag(written, target, "sglang", POLICY)


def test_sglang_does_not_read_underscores_or_dotted_keys_as_its_flags() -> None:
    # sglang's prepare_server_args is a plain argparse.ArgumentParser: `--json_model_override_args`
    # is an unrecognized argument there (the server refuses to start), not the flag
    assert not may_be_flag(
        "--json_model_override_args", "--json-model-override-args", "sglang", POLICY
    )
    assert not may_be_flag("--hf-overrides.x", "--hf-overrides", "sglang", POLICY)


def test_an_engine_the_profile_does_not_know_is_read_most_permissively() -> None:
    for written in ("--hf_overrides", "--hf-overrides.a", "--hf-ov"):
        assert may_be_flag(written, "--hf-overrides", "atom", POLICY)


def test_a_different_flag_is_not_the_banned_one() -> None:
    assert not may_be_flag("--hf-token", "--hf-overrides", "vllm", POLICY)
    assert not may_be_flag("--", "--hf-overrides", "vllm", POLICY)
