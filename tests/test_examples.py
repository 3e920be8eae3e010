"""The shipped example bundles are current and judge as their names say."""

from __future__ import annotations

import json

import pytest
from make_examples import EXAMPLES, OUT, render_examples

from signoff.cli import main

EXPECTED_FAILS = {
    "pass.json": set(),
    "fail-codeowner.json": {0},
    "fail-sweep-evals.json": {1, 2},
    "fail-recipe-open-pr.json": {3},
    "fail-template-reuse.json": {4, 5},
    "fail-image-arch-spec.json": {6, 7, 8},
}


def test_example_files_match_their_builders():
    for name, text in render_examples().items():
        assert (OUT / name).read_text(encoding="utf-8") == text, (
            f"rerun tests/make_examples.py ({name})"
        )


def test_examples_make_every_check_fail_at_least_once():
    assert set().union(*EXPECTED_FAILS.values()) == set(range(9))
    assert set(EXPECTED_FAILS) == set(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXPECTED_FAILS))
def test_example_bundle_judges_as_named(name, capsys):
    code = main(["judge", str(OUT / name), "--format", "json"])
    document = json.loads(capsys.readouterr().out)
    failed = {c["number"] for c in document["checks"] if c["status"] == "FAIL"}
    assert failed == EXPECTED_FAILS[name]
    assert code == (0 if not failed else 1)
    assert document["verdict"] == ("PASS" if not failed else "REJECTED")
