"""Splitting master configs into top-level blocks so only touched entries are parsed."""

from __future__ import annotations

from builders import EXISTING_ENTRY, NEW_ENTRY

from signoff.parse.master_blocks import changed_keys, sparse_text, split_blocks
from signoff.parse.master_config import parse_master_config

SKU = r"^(?:cluster:)?([a-z0-9]+?)(?:-|$)"


def test_blocks_are_keyed_by_top_level_entry_with_comments_kept_inside():
    text = "# header\n" + EXISTING_ENTRY + "# about the next one\n" + NEW_ENTRY
    blocks = split_blocks(text)
    assert blocks is not None
    assert list(blocks) == ["dsv4-fp4-b200-vllm", "dsv4-fp4-b200-vllm-mtp"]


def test_anchors_aliases_and_merge_keys_disable_splitting():
    assert split_blocks("a: &base\n  x: 1\nb:\n  <<: *base\n") is None
    assert split_blocks("a:\n  image: foo\nb: *a\n") is None


def test_globs_and_ampersands_inside_values_do_not_disable_splitting():
    assert split_blocks('a:\n  note: "R&D * build"\nb:\n  x: 1\n') is not None


def test_changed_keys_are_the_added_and_edited_entries():
    base = EXISTING_ENTRY
    head = EXISTING_ENTRY.replace("conc-end: 256", "conc-end: 512") + "\n" + NEW_ENTRY
    assert changed_keys(base, head) == {"dsv4-fp4-b200-vllm", "dsv4-fp4-b200-vllm-mtp"}
    assert changed_keys(base, base + "\n") == set()


def test_sparse_parse_keeps_true_line_numbers():
    text = EXISTING_ENTRY + "\n" + NEW_ENTRY
    blocks = split_blocks(text)
    assert blocks is not None
    sparse = sparse_text(text, blocks, {"dsv4-fp4-b200-vllm-mtp"})
    full = parse_master_config(text, "configs/nvidia-master.yaml", SKU)
    part = parse_master_config(sparse, "configs/nvidia-master.yaml", SKU)
    assert list(part.entries) == ["dsv4-fp4-b200-vllm-mtp"]
    assert part.entries["dsv4-fp4-b200-vllm-mtp"] == full.entries["dsv4-fp4-b200-vllm-mtp"]
