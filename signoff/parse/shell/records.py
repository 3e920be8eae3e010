"""What the reader records as it evaluates: kinds of record, grouped, with how surely each runs.

The reader itself records the simple commands of the script's own text that run (`Ran`),
heredocs given to running commands and commands that run a script file it does not read. The
layer above it (its `CommandHook`) records what it makes of other programs under kinds of its
own: a `Kind` names a group, and `Records` keeps one list per kind, in the order recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from signoff.parse.shell.values import Scope

# "reached": the command runs for this configuration; "undecided": a condition on its path could
# not be decided from the bound values (both arms were kept). Dead code is dropped, never listed.
Reach = Literal["reached", "undecided"]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class HeredocUse(Frozen):
    """A heredoc given to a command that runs (its body as written, before expansion)."""

    line: int
    delimiter: str
    body: str
    reach: Reach = "reached"
    why: str = ""


class ScriptFileRun(Frozen):
    """A command that runs a script file (`bash x.sh`, `./x.sh`, `"$DIR/x.sh"`): the reader
    does not read that file, so what it runs is unknown."""

    command: str  # the command line as resolved (run-time parts as written)
    word: str  # the word naming the file, as resolved
    name: str  # its base name ("": known only at run time)
    line: int
    reach: Reach = "reached"
    why: str = ""
    # `path:line` of the command in a changed file the script sources, whose code ran it
    # ("": the script's own code, or code read from a string); `line` is then the `source`
    origin: str = ""
    # The directories the path's last `cd`/`pushd` may have gone to, as resolved (none: no `cd`
    # ran), where a relative `word` lies (a clone's `cd tools && bash go.sh`).
    directories: tuple[str, ...] = ()
    # A local install (LOCAL_INSTALLS) of the checkout's root: the files there that count,
    # as globs (the tool's manifests, locks and hooks; none given: a Python build's own files).
    root_files: tuple[str, ...] = ()
    # The variable that puts the directory (or library) where every later program loads code
    # from ahead of what is installed, rather than installing it (`PYTHONPATH`, `LD_PRELOAD`;
    # `sys.path[0]`: a Python's own first path entry, import_paths.FIRST_PATH_ENTRY); "" for an
    # install.
    loaded_by: str = ""
    # The files that count wherever the directory is, as globs relative to it, `!` before one
    # that does not count (none: every file of it; at the root, `root_files`): the modules
    # Python's first path entry holds.
    counted: tuple[str, ...] = ()


class Ran(Frozen):
    """A simple command of the script's own text that runs (or may): where its first word or
    assignment starts, so text-level rules can be held to what runs (dead code is not listed)."""

    offset: int
    line: int
    reach: Reach = "reached"
    why: str = ""


R = TypeVar("R", bound=BaseModel)


@dataclass(frozen=True)
class Kind(Generic[R]):
    """A kind of record: the name of its group. `compared`: forks of one command that record
    the same records of the compared kinds record the same thing (see `Records.content`)."""

    name: str
    compared: bool = True


HEREDOCS: Kind[HeredocUse] = Kind("heredocs")
SCRIPT_FILES: Kind[ScriptFileRun] = Kind("script_files")
# Local projects a package installer builds and installs (`pip install ./pkg`, `cd pkg && pip
# install -e .`): `word` is the directory as written, `directories` where a relative one lies.
LOCAL_INSTALLS: Kind[ScriptFileRun] = Kind("local_installs")
# Containers a docker-style runtime runs a shell or Python in (`docker run IMAGE bash -c ...`):
# `word` is the image (or, for `exec`, the container) as resolved.
CONTAINERS: Kind[ScriptFileRun] = Kind("containers")


class Records:
    """One list of records per kind, each in the order recorded; commands that ran (`Ran`) are
    kept once per place, the surest first seen (`ran`)."""

    def __init__(self) -> None:
        self._groups: dict[Kind[Any], list[Any]] = {}
        self._ran: dict[int, Ran] = {}

    def of(self, kind: Kind[R]) -> list[R]:
        found: list[R] = self._groups.setdefault(kind, [])
        return found

    def note_ran(self, offset: int, line: int, reach: Reach, why: str) -> None:
        """A simple command of the script's text ran here: kept when it is the first seen at
        `offset`, or the first surely reached after ones that only may have run. A loop or a
        function called again runs the same commands: they are not recorded again."""
        if _surer(self._ran.get(offset), reach):
            # built unvalidated: every field is set here, from the reader's own values
            self._ran[offset] = Ran.model_construct(offset=offset, line=line, reach=reach, why=why)

    def _keep_ran(self, record: Ran) -> None:
        if _surer(self._ran.get(record.offset), record.reach):
            self._ran[record.offset] = record

    def ran(self) -> list[Ran]:
        """Each command that ran once, in text order (see `note_ran`)."""
        return [self._ran[offset] for offset in sorted(self._ran)]

    def extend(self, other: Records, *, ran_only: bool = False) -> None:
        if not ran_only:
            for kind, items in other._groups.items():
                self.of(kind).extend(items)
        if not self._ran:
            self._ran = dict(other._ran)
            return
        for record in other._ran.values():
            self._keep_ran(record)

    def content(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """What was recorded, regardless of how surely (to compare the forks of a command);
        not which commands ran on the way."""
        strip = {"reach", "why"}
        return tuple(
            (kind.name, tuple(record.model_dump_json(exclude=strip) for record in items))
            for kind, items in sorted(self._groups.items(), key=lambda group: group[0].name)
            if kind.compared and items
        )

    def with_reach(self, why: str) -> Records:
        update = {"reach": "undecided" if why else "reached", "why": why}
        copy = Records()
        for kind, items in self._groups.items():
            copy._groups[kind] = [record.model_copy(update=update) for record in items]
        copy._ran = {offset: ran.model_copy(update=update) for offset, ran in self._ran.items()}
        return copy


def _surer(known: Ran | None, reach: Reach) -> bool:
    """Whether a command seen running with `reach` replaces what was kept for its place."""
    return known is None or (known.reach == "undecided" and reach == "reached")


def reach_of(scope: Scope) -> tuple[Reach, str]:
    """How surely a command recorded in `scope` runs, and the condition when not surely."""
    why = scope.why()
    return ("undecided", why) if why else ("reached", "")
