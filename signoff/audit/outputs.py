"""Where an audit writes: `--out`, `--evidence-dir` and `--cache-dir`, claimed before the first
request, so a path that cannot be written is bad input (exit 2, one line) and not a report lost
after the whole run."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from signoff.errors import GatherError, InputError


def why(exc: OSError) -> str:
    """An OSError as the words a person reads ("No such file or directory")."""
    return exc.strerror or "cannot be written"


@dataclass
class ReportOut:
    """`--out FILE`: created (or proved writable) now; removed again if nothing is written."""

    path: Path
    created: bool

    @classmethod
    def claim(cls, path: str) -> ReportOut:
        if not path.strip():
            raise InputError("--out needs a file path")
        target = Path(path)
        if target.is_dir():
            raise InputError(f"{path}: --out is a folder, not a file")
        created = not target.exists()
        try:
            with target.open("a", encoding="utf-8"):
                pass  # creates it or proves it writable, without touching what it holds
        except OSError as exc:
            raise InputError(f"{path}: cannot write the report there ({why(exc)})") from None
        return cls(target, created)

    def write(self, text: str) -> None:
        try:
            self.path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise GatherError(f"{self.path}: could not write the report ({why(exc)})") from None

    def abandon(self) -> None:
        if self.created:
            self.path.unlink(missing_ok=True)


def claim_folder(path: str, flag: str, mode: int = 0o777) -> Path:
    """A folder the run will write into: created now, and a probe file written and removed."""
    if not path.strip():
        raise InputError(f"{flag} needs a folder path")
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{path}: {flag} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=mode)
        handle, probe = tempfile.mkstemp(dir=folder, prefix=".signoff-probe-")
        os.close(handle)
        os.unlink(probe)
    except OSError as exc:
        raise InputError(f"{path}: cannot write into {flag} ({why(exc)})") from None
    return folder
