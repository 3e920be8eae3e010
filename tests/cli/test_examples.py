"""The shipped example bundles are current and judge as make_examples.py declares."""

from __future__ import annotations

import json

import pytest
from make_examples import EXAMPLES, OUT, render_examples

from signoff.cli import main
from signoff.judge.registry import CHECKS


def test_example_files_match_their_builders():
    for name, text in render_examples().items():
        assert (OUT / name).read_text(encoding="utf-8") == text, (
            f"rerun tests/make_examples.py ({name})"
        )


def test_examples_make_every_registered_check_fail_or_warn_at_least_once():
    failing = set().union(*(example.fails | example.warns for example in EXAMPLES.values()))
    assert failing == set(CHECKS)
    assert sorted(path.name for path in OUT.glob("*.json")) == sorted(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_bundle_judges_as_declared_under_its_recorded_standard(name, capsys):
    code = main(["judge", str(OUT / name), "--format", "json"])
    document = json.loads(capsys.readouterr().out)
    failed = {c["id"] for c in document["checks"] if c["status"] == "FAIL"}
    warned = {c["id"] for c in document["checks"] if c["status"] == "WARN"}
    assert (failed, warned) == (EXAMPLES[name].fails, EXAMPLES[name].warns)
    assert document["standard"] == EXAMPLES[name].standard
    assert code == (0 if not failed else 1)  # a WARN does not block
    expected = "REJECTED" if failed else "WARN" if warned else "PASS"
    assert document["verdict"] == expected
