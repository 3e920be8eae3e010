"""The error hierarchy; only the entry points catch these and map them to exit codes."""

from __future__ import annotations

from enum import IntEnum


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
