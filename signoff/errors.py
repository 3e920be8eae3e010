"""The error hierarchy; only the entry points catch these and map them to exit codes."""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import IntEnum
from typing import Any


class ExitCode(IntEnum):
    """Documented process exit codes."""

    PASS = 0
    REJECTED = 1
    BAD_INPUT = 2
    COULD_NOT_VERIFY = 3


class SignoffError(Exception):
    """Base of every error signoff raises on purpose; the message is one line for the user."""

    exit_code = ExitCode.COULD_NOT_VERIFY


class InputError(SignoffError):
    """A file, argument or event payload given to us is malformed (exit 2)."""

    exit_code = ExitCode.BAD_INPUT


class PolicyError(InputError):
    """The policy profile is invalid; the message names file:line."""


class GatherError(SignoffError):
    """GitHub could not be read well enough to verify (exit 3)."""


class PublishError(SignoffError):
    """The verdict could not be written back to GitHub (exit 3)."""


# --- what is wrong with a file, in words (never Python's exception text) ---------------------


def not_utf8(exc: UnicodeDecodeError) -> str:
    """`not UTF-8 at byte 12`: where the first byte that is no UTF-8 sits (0-based)."""
    return f"not UTF-8 at byte {exc.start}"


def json_problem(text: str, line: int, column: int) -> str:
    """An unparsable JSON text: `empty`, or where parsing stopped."""
    if not text.strip():
        return "empty"
    return f"not JSON (stops at line {line}, column {column})"


def pydantic_json_problem(text: str, error: Mapping[str, Any]) -> str | None:
    """pydantic's `json_invalid` error as `json_problem` words; None for any other error."""
    if error.get("type") != "json_invalid":
        return None
    if not text.strip():
        return "empty"
    found = re.search(r"line (\d+) column (\d+)", str(error.get("msg", "")))
    line, column = (int(found[1]), int(found[2])) if found else (1, 1)
    return json_problem(text, line, column)
