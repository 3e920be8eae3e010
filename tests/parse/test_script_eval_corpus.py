"""The script-evaluation corpus: each script read under its environment gives what it says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from signoff.parse.bench_script import evaluate, read_script
from signoff.parse.launch import Arg, ScriptRun

CORPUS = yaml.safe_load(
    (Path(__file__).parents[1] / "data" / "script_eval_corpus.yaml").read_text(encoding="utf-8")
)


def run_case(case: dict[str, Any]) -> ScriptRun:
    script = read_script(case["script"], "s.sh")
    return evaluate(script, case["env"])


def values(args: tuple[Arg, ...]) -> dict[str, str | None]:
    return {arg.flag: arg.value for arg in args}


def check_records(found: list[Any], wanted: list[dict[str, Any]], kind: str) -> None:
    assert len(found) == len(wanted), f"{kind}: {[(r.line, r.reach, r.why) for r in found]}"
    for record, expected in zip(found, wanted, strict=True):
        assert (record.line, record.reach) == (expected["line"], expected["reach"])
        assert expected.get("why", "") in record.why
        args = values(record.args) if hasattr(record, "args") else {}
        for flag, value in expected.get("args", {}).items():
            assert flag in args and args[flag] == value, (flag, args)
        for flag in expected.get("flags", []):
            assert flag in args, (flag, args)
        for flag in expected.get("absent", []):
            assert flag not in args, (flag, args)
        if "opaque" in expected:
            assert list(record.opaque) == expected["opaque"]
        for word in expected.get("words", []):
            assert word in record.argv


@pytest.mark.parametrize("case", CORPUS, ids=[case["name"] for case in CORPUS])
def test_script_evaluation_corpus(case: dict[str, Any]) -> None:
    run = run_case(case)
    assert run.complete == case.get("complete", True), run.problems
    for problem in case.get("problems", []):
        assert any(problem in found for found in run.problems), run.problems
    for note in case.get("notes", []):
        assert any(note in found for found in run.notes), run.notes
    if "launches" in case:
        check_records(list(run.launches), case["launches"], "launches")
    if case.get("no_launch"):
        assert run.launches == ()
    if "clients" in case:
        check_records(list(run.clients), case["clients"], "clients")
    if case.get("no_client"):
        assert run.clients == ()
    for expected in case.get("commands", []):
        matching = [c for c in run.commands if c.line == expected["line"]]
        assert matching, [(c.line, c.argv) for c in run.commands]
        check_records(matching[:1], [expected], "commands")


def test_the_corpus_is_large_enough_to_mean_something() -> None:
    assert len(CORPUS) >= 25
    assert len({case["name"] for case in CORPUS}) == len(CORPUS)
