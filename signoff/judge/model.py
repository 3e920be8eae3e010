"""The judge's output records: one result per check and the verdict over them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict

from signoff.evidence import Want as Want
from signoff.evidence import WantRole as WantRole
from signoff.evidence import want_dir as want_dir
from signoff.evidence import want_file as want_file
from signoff.standards import StandardRecord

# WARN (from E10): a check the standard marks warning-only reports what would have failed it;
# the verdict is then WARN when nothing FAILs, published as a success.
Status = Literal["PASS", "FAIL", "WARN", "N/A"]
Outcome = Literal["PASS", "WARN", "REJECTED"]


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


def warned(reason: str) -> Finding:
    return Finding(status="WARN", reason=reason)


def outcome_of(statuses: Iterable[Status]) -> Outcome:
    """REJECTED when a check FAILs, else WARN when one warns, else PASS (N/A passes)."""
    seen = set(statuses)
    if "FAIL" in seen:
        return "REJECTED"
    return "WARN" if "WARN" in seen else "PASS"


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
    standard: StandardRecord | None = None  # the standard the checks were judged under
    standard_label: str = ""  # how to print it: "0-8", "E8", "E5 at 2026-07-10T19:00:00Z"
    default_standard: bool = True  # judged under the profile's default standard
    checks: tuple[CheckResult, ...]

    @property
    def failures(self) -> tuple[CheckResult, ...]:
        return tuple(check for check in self.checks if check.status == "FAIL")

    @property
    def warnings(self) -> tuple[CheckResult, ...]:
        return tuple(check for check in self.checks if check.status == "WARN")
