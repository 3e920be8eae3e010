"""Workflow-command annotations for the run page: one per check row that did not pass, so the
reason shows on the run without opening the comment.

Which rows, and at what level, is data keyed by the row's status (FAIL: `::error`, WARN:
`::warning`), so a status added later needs one entry here, not new code. Every value is
escaped as the runner reads workflow commands: in the message `%`, CR and LF; in a property
also `:` and `,`. A reason quoting PR-controlled text can then neither end the command early
nor start a new one on a line of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from signoff.publish.sanitize import strip_invisible, truncate_words

ANNOTATION_FOR_STATUS = {"FAIL": "error", "WARN": "warning"}
MESSAGE_LIMIT = 1_000  # the run page shows the first lines of an annotation; keep it readable


class Row(Protocol):
    @property
    def number(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def reason(self) -> str: ...


def escape_data(text: str) -> str:
    """A workflow command's message: `%`, CR and LF percent-encoded (`%` first)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value: the message's escapes plus `:` and `,`."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def check_annotations(rows: Iterable[Row]) -> Iterator[str]:
    """`::error title=Check N (name)::reason` for each FAIL row, `::warning ...` for WARN."""
    for row in rows:
        level = ANNOTATION_FOR_STATUS.get(str(row.status))
        if level is None:
            continue
        title = escape_property(f"Check {row.number} ({row.name})")
        message = truncate_words(" ".join(strip_invisible(row.reason).split()), MESSAGE_LIMIT)
        yield f"::{level} title={title}::{escape_data(message)}"
