"""Runner files: the job summary ($GITHUB_STEP_SUMMARY), step outputs ($GITHUB_OUTPUT), evidence.

These are local files, not GitHub API writes; the action writes them even when publishing to the
PR is switched off. Each path is checked before anything is verified (`unwritable`), so a path
that cannot be written is bad input before a verdict is published, never a traceback after.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path

from signoff.evidence import Evidence, dump_evidence

MAX_SUMMARY_BYTES = 1024 * 1024 - 1024  # GitHub refuses a step summary of 1 MiB or more
TRUNCATION_NOTE = (
    "\n\n_(summary truncated; the full verdict is in the PR comment and the evidence bundle)_\n"
)


def write_step_summary(path: str | Path, markdown: str) -> None:
    """Append `markdown` to the step summary file, cut to stay under GitHub's 1 MiB limit."""
    with Path(path).open("a", encoding="utf-8") as out:
        out.write(fit_bytes(markdown, MAX_SUMMARY_BYTES))


def fit_bytes(text: str, limit: int) -> str:
    """`text` if its UTF-8 fits in `limit` bytes, else a prefix (cut between characters) + note."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    room = limit - len(TRUNCATION_NOTE.encode("utf-8"))
    return data[: max(room, 0)].decode("utf-8", errors="ignore") + TRUNCATION_NOTE


def format_outputs(outputs: Mapping[str, str]) -> str:
    """`name<<DELIM\\nvalue\\nDELIM` records: safe for values with newlines (GitHub's heredoc form).

    The delimiter is random and checked against the value, so a value cannot end the record early
    and inject another output.
    """
    records = []
    for name, value in outputs.items():
        delimiter = _delimiter(value)
        records.append(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")
    return "".join(records)


def _delimiter(value: str) -> str:
    while True:
        candidate = f"ghadelimiter_{secrets.token_hex(16)}"
        if candidate not in value:
            return candidate


def write_outputs(path: str | Path, outputs: Mapping[str, str]) -> None:
    """Append step outputs to the $GITHUB_OUTPUT file."""
    with Path(path).open("a", encoding="utf-8") as out:
        out.write(format_outputs(outputs))


def unwritable(path: str | Path, *, directory: bool = False) -> str:
    """Why a file (or, `directory`, a folder for files) cannot be written there; "" if it can.

    Nothing is created: a missing file is judged by the nearest existing folder above it, which
    `write_evidence` would create the rest of.
    """
    target = Path(path)
    if target.is_dir() and not directory:
        return "is a directory"
    if target.exists() and not directory and not target.is_file():
        return "is not a regular file"
    if target.exists():
        return "" if os.access(target, os.W_OK) else "is not writable"
    parent = target.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        return f"{parent} is not a directory"
    return "" if os.access(parent, os.W_OK | os.X_OK) else f"{parent} is not writable"


def evidence_path_for(sha: str, *, configured: str = "", runner_temp: str = "") -> Path:
    """The input `evidence-path`, else `$RUNNER_TEMP/signoff-evidence-<sha>.json` (else cwd)."""
    if configured.strip():
        return Path(configured.strip())
    base = Path(runner_temp) if runner_temp else Path.cwd()
    return base / f"signoff-evidence-{sha}.json"


def write_evidence(path: Path, evidence: Evidence) -> Path:
    """Save the evidence bundle (canonical JSON) for the audit trail / artifact upload."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump_evidence(evidence), encoding="utf-8")
    return path
