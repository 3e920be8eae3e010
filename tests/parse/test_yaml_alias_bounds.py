"""YAML aliases are bounded in every reader: a short anchor chain cannot stand for millions of nodes.

A 330-byte chain of anchors, each a list of nine aliases of the one before, stands for 9^7 nodes;
PyYAML shares them, but every reader after it (fingerprints, diffs, JSON dumps) walked them all.
"""

from __future__ import annotations

import pytest
import yaml
from builders import build, passing_parts

from signoff.errors import PolicyError
from signoff.judge import judge
from signoff.policy import Policy, load_policy
from signoff.yamlload import MAX_ALIAS_NODES, AliasBombError, load_yaml, load_yaml_with_lines

MASTER = "configs/nvidia-master.yaml"


def laughs(levels: int, indent: str = "") -> str:
    """An anchor chain: level i is a list of nine aliases of level i-1."""
    lines = [f"{indent}x0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    lines += [
        f"{indent}x{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels + 1)
    ]
    return "\n".join(lines) + "\n"


def test_an_anchor_chain_that_expands_past_the_bound_is_refused_with_its_line() -> None:
    text = "top: 1\n" + laughs(7)
    with pytest.raises(AliasBombError) as raised:
        load_yaml(text)
    assert raised.value.problem_mark.line + 1 > 1  # the line of the node that crossed the bound
    assert f"{MAX_ALIAS_NODES:,}" in str(raised.value)


def test_an_alias_inside_the_node_it_names_is_refused() -> None:
    with pytest.raises(AliasBombError, match="refers to the node that contains it"):
        load_yaml("a: &loop\n  - *loop\n")


def test_ordinary_anchors_and_merge_keys_load_as_pyyaml_loads_them() -> None:
    text = (
        "defaults: &d {tp: 8, ep: 8}\n"
        "one: {<<: *d, conc: 4}\n"
        "two: {<<: *d, tp: 4}\n"
        "list: &l [a, b]\n"
        "again: *l\n" + laughs(3)
    )
    assert load_yaml(text) == yaml.safe_load(text)
    data, lines = load_yaml_with_lines(text)
    assert data == yaml.safe_load(text)
    assert lines[("two",)] == 3


def test_a_document_without_aliases_is_never_refused_for_its_size() -> None:
    text = "".join(f"k{i}: [1, 2, 3]\n" for i in range(3 * MAX_ALIAS_NODES // 4))
    assert len(load_yaml(text)) == 3 * MAX_ALIAS_NODES // 4


def test_an_alias_bomb_in_a_changed_master_entry_fails_every_check_that_reads_it(
    policy: Policy,
) -> None:
    parts = passing_parts()
    bomb = laughs(7, indent="  ")
    for read in parts["files"]:
        if read["path"] == MASTER and read["role"] == "head":
            read["text"] = read["text"].replace(
                "dsv4-fp4-b200-vllm-mtp:\n", "dsv4-fp4-b200-vllm-mtp:\n" + bomb
            )
    verdict = judge(build(parts), policy)
    assert verdict.outcome == "REJECTED"
    reasons = {c.id: c for c in verdict.checks}
    for check_id in ("sweep", "evals", "recipe", "upstream-image", "no-arch-hacks"):
        assert reasons[check_id].status == "FAIL", check_id
    assert "aliases expand the document past" in reasons["upstream-image"].reason
    assert f"{MASTER}:" in reasons["upstream-image"].reason


def test_an_alias_bomb_in_the_profile_is_a_policy_error_naming_the_line(tmp_path) -> None:
    path = tmp_path / "profile.yaml"
    path.write_text(laughs(7))
    with pytest.raises(PolicyError, match=r"profile\.yaml:\d+"):
        load_policy(path)


def test_an_alias_without_an_anchor_is_no_document_so_only_anchored_ones_are_walked() -> None:
    # compose_bounded walks only texts holding an `&`: an alias must name an anchor first.
    with pytest.raises(yaml.YAMLError, match="undefined alias"):
        load_yaml("a: *x\nb: [*x, *x]\n")


def test_aliases_repeated_in_one_list_count_once_per_use() -> None:
    # 9 uses of a 10-node list: 90 nodes the walk stands for, of 1 + 1 + 10 distinct ones.
    text = "a: &l [" + ", ".join(["1"] * 9) + "]\nb: [" + ", ".join(["*l"] * 9) + "]\n"
    assert load_yaml(text)["b"] == [[1] * 9] * 9
    many = "a: &l [" + ", ".join(["1"] * 99) + "]\nb: [" + ", ".join(["*l"] * 250) + "]\n"
    with pytest.raises(AliasBombError):
        load_yaml(many)  # 250 uses of 100 nodes: past 20,000 extra
