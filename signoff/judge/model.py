"""The judge's output records: one result per check and the verdict over them."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Status = Literal["PASS", "FAIL", "N/A"]
Outcome = Literal["PASS", "REJECTED"]


class CheckResult(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int
    id: str
    name: str
    status: Status
    reason: str


class Finding(BaseModel):
    """What a check module returns: a status and one actionable line."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    status: Status
    reason: str


def passed(reason: str) -> Finding:
    return Finding(status="PASS", reason=reason)


def failed(reason: str) -> Finding:
    return Finding(status="FAIL", reason=reason)


def not_applicable(reason: str) -> Finding:
    return Finding(status="N/A", reason=reason)


class Verdict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    outcome: Outcome
    repository: str
    pr: int
    head_sha: str
    head_moved_to: str | None = None
    signoff_author: str
    signoff_kind: str
    signoff_url: str
    checks: tuple[CheckResult, ...]

    @property
    def failures(self) -> tuple[CheckResult, ...]:
        return tuple(check for check in self.checks if check.status == "FAIL")
