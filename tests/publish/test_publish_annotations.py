"""Annotations on the run page: each FAIL row an `::error`, each WARN row a `::warning`, titled
`Check N (name)`, with every value escaped so PR-controlled text cannot inject a command."""

from __future__ import annotations

import typing

import pytest
from pydantic import ValidationError

from signoff.judge.model import CheckResult, Status
from signoff.publish.annotations import check_annotations as annotations
from signoff.publish.annotations import escape_data, escape_property

# The runner's workflow-command syntax: `::name key=value,key=value::message`, one line.
INJECTION = "x\n::add-mask::secret\r\n::set-output name=verdict::PASS 100% done, ok: yes"


def row(status: str, reason: str = "r", number: int = 5, name: str = "latest template") -> object:
    return CheckResult.model_construct(
        number=number, id="latest-template", name=name, status=status, reason=reason
    )


def test_a_fail_row_becomes_an_error_titled_with_its_check_and_the_others_stay_silent() -> None:
    rows = [
        CheckResult(number=0, id="codeowner", name="CODEOWNER", status="PASS", reason="ok"),
        CheckResult(number=3, id="recipe", name="recipe", status="N/A", reason="multi-node"),
        CheckResult(number=5, id="latest-template", name="latest template", status="FAIL",
                    reason="sign-off lacks 1 current item"),
    ]  # fmt: skip
    assert list(annotations(rows)) == [
        "::error title=Check 5 (latest template)::sign-off lacks 1 current item"
    ]


def test_every_status_the_model_allows_today_maps_to_at_most_one_annotation() -> None:
    for status in typing.get_args(Status):
        lines = list(annotations([row(status)]))
        assert len(lines) == (1 if status in ("FAIL", "WARN") else 0), status


def test_a_warn_row_becomes_a_warning() -> None:
    if "WARN" not in typing.get_args(Status):
        pytest.skip("the verdict model has no WARN row status yet")
    try:
        warn = CheckResult(number=2, id="evals", name="evals pass", status="WARN", reason="w")
    except ValidationError:  # pragma: no cover - the model names WARN but refuses it
        pytest.skip("the verdict model refuses WARN rows")
    assert list(annotations([warn])) == ["::warning title=Check 2 (evals pass)::w"]


def test_a_warn_status_is_annotated_by_status_alone_whatever_the_model_says() -> None:
    assert list(annotations([row("WARN", "low")])) == [
        "::warning title=Check 5 (latest template)::low"
    ]


def test_pr_controlled_text_in_a_reason_cannot_end_the_command_or_start_another() -> None:
    (line,) = annotations([row("FAIL", INJECTION, name="a: b, c")])
    assert "\n" not in line and "\r" not in line
    assert line.startswith("::error title=Check 5 (a%3A b%2C c)::")
    message = line.split("::", 2)[2]
    assert "%" not in message.replace("%25", "").replace("%0A", "").replace("%0D", "")
    assert message == escape_data(" ".join(INJECTION.split()))


def test_the_escapes_are_the_runners_percent_encoding_with_percent_first() -> None:
    assert escape_data("100%\r\n") == "100%25%0D%0A"
    assert escape_data("%0A") == "%250A"  # an encoded newline in the text stays text
    assert escape_property("a:b,c%") == "a%3Ab%2Cc%25"
