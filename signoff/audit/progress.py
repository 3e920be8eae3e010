"""Progress on stderr while an audit runs (a terminal only): PRs done of total, requests spent,
rate limit remaining, time left, and the countdown while waiting for a rate-limit reset.

rich draws it (a well-kept terminal library already built on markdown-it-py, which we use):
it handles redraws, terminal width and the ETA; without a TTY, or with --no-progress, nothing
is drawn.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Protocol

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)

from signoff.audit.budget import Meter


class Reporter(Protocol):
    def __enter__(self) -> Reporter: ...
    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None: ...
    def advance(self) -> None: ...
    def waiting(self, seconds: float) -> None: ...


class Silent:
    """No terminal, or --no-progress: draw nothing."""

    def __enter__(self) -> Silent:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None

    def advance(self) -> None:
        return None

    def waiting(self, seconds: float) -> None:
        return None


class Bar:
    """A rich progress bar on stderr."""

    def __init__(self, total: int, meter: Meter, console: Console | None = None) -> None:
        self.meter = meter
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("PRs · {task.fields[spent]} requests · rate limit {task.fields[left]}"),
            TimeRemainingColumn(),
            console=console or Console(stderr=True),
            transient=True,
        )
        self._task: TaskID = self._progress.add_task("auditing", total=total, spent=0, left="?")

    def __enter__(self) -> Bar:
        self._progress.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._progress.stop()

    def _left(self) -> str:
        left = self.meter.remaining
        return "?" if left is None else str(left)

    def advance(self) -> None:
        spent = self.meter.total().counted
        self._progress.update(
            self._task, advance=1, description="auditing", spent=spent, left=self._left()
        )

    def waiting(self, seconds: float) -> None:
        minutes, secs = divmod(int(seconds + 0.999), 60)
        text = f"rate limit: resuming in {minutes}:{secs:02d}" if seconds > 0 else "auditing"
        spent = self.meter.total().counted
        self._progress.update(self._task, description=text, spent=spent, left=self._left())


def reporter(total: int, meter: Meter, *, enabled: bool) -> Reporter:
    if enabled and sys.stderr.isatty():
        return Bar(total, meter)
    return Silent()
