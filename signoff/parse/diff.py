"""Read a unified-diff patch (GitHub's `patch` field): which lines it adds and removes, where."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
HUNK_HEADER = _HUNK  # groups: old start, old count, new start, new count


class DiffLine(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    line: int  # in the new file for an added line, in the old file for a removed one
    text: str
    hunk: int  # index of the hunk it belongs to (consecutive added lines share a hunk)


class PatchLines(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    added: tuple[DiffLine, ...] = ()
    removed: tuple[DiffLine, ...] = ()
    complete: bool = True  # False: a hunk header could not be read; line numbers are unknown

    @property
    def added_numbers(self) -> frozenset[int]:
        return frozenset(item.line for item in self.added)


def patch_lines(patch: str) -> PatchLines:
    """The added and removed lines of one file's patch, numbered; never raises."""
    added: list[DiffLine] = []
    removed: list[DiffLine] = []
    old = new = 0
    hunk = -1
    complete = True
    for raw in patch.split("\n"):
        header = _HUNK.match(raw)
        if header is not None:
            old, new, hunk = int(header[1]), int(header[3]), hunk + 1
        elif raw.startswith("\\"):  # "\ No newline at end of file"
            continue
        elif hunk < 0:
            complete = complete and not raw.strip()
        elif raw.startswith("+"):
            added.append(DiffLine(line=new, text=raw[1:], hunk=hunk))
            new += 1
        elif raw.startswith("-"):
            removed.append(DiffLine(line=old, text=raw[1:], hunk=hunk))
            old += 1
        else:
            old, new = old + 1, new + 1
    return PatchLines(added=tuple(added), removed=tuple(removed), complete=complete)


# A submodule's entry (a gitlink): its patch is the commit it points at, one line a side.
_GITLINK_LINE = re.compile(r"[-+]Subproject commit [0-9a-f]{40}(?:-dirty)?")


def gitlink_target(patch: str | None) -> str | None:
    """The commit a submodule's patch points the submodule at ("" when the patch removes it);
    None when the patch is not a submodule's (GitHub lists a moved submodule as a changed file
    at its path, with this patch)."""
    if not patch:
        return None
    lines = [
        line
        for line in patch.split("\n")
        if line and not _HUNK.match(line) and not line.startswith("\\")  # "\ No newline ..."
    ]
    if not lines or not all(_GITLINK_LINE.fullmatch(line) for line in lines):
        return None
    added = [line for line in lines if line.startswith("+")]
    return added[-1].split()[-1].removesuffix("-dirty") if added else ""
