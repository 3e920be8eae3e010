"""Process start-up: the garbage collector rests while a command's modules are imported.

Importing signoff, PyGithub, pydantic and markdown-it creates some hundred thousand objects that
live as long as the process. Each collection the allocations trigger walks them again, more of
them each time: about a tenth of a verdict's start-up. The console script (`cli.entry`) pauses
the collector before importing anything; once a command's modules are in, `imported()` moves
everything alive into the collector's permanent generation and resumes it, so the run itself is
collected as usual. In a process that did not pause it (tests calling `cli.main`), `imported()`
changes nothing.
"""

from __future__ import annotations

import gc
import sys

# A verification's threads mostly wait for GitHub. Python lets the running thread keep the
# interpreter for 5 ms before another may take it; handing over every 0.5 ms lets a thread whose
# answer arrived send its next request sooner (about 30 ms a verdict, for a few more switches).
WAITING_SWITCH_INTERVAL = 0.0005

_paused = False


def pause() -> None:
    """Stop automatic collections until `imported()` (the console script, first thing)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def imported(*, waiting: bool = False) -> None:
    """The command's modules are imported: freeze them out of later collections and resume.

    `waiting`: the command's threads mostly wait for answers (a verification): hand the
    interpreter over sooner (WAITING_SWITCH_INTERVAL).
    """
    global _paused
    if not _paused:
        return
    gc.freeze()
    gc.enable()
    _paused = False
    if waiting:
        sys.setswitchinterval(WAITING_SWITCH_INTERVAL)
