"""The audit report as JSON (schema_version 3, documented in docs/audit.md), and back."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from signoff.audit.model import AuditReport
from signoff.errors import InputError, not_utf8, pydantic_json_problem


def render_json(report: AuditReport) -> str:
    """Canonical text: field order as documented, two-space indent, trailing newline."""
    return json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"


def load_report(path: str) -> AuditReport:
    """A report written by `signoff audit --format json`; anything else is bad input naming it."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not an audit JSON report ({not_utf8(exc)})") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, not an audit JSON report") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or 'unreadable'})") from None
    try:
        return AuditReport.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        problem = pydantic_json_problem(text, first)
        if problem is not None:
            raise InputError(f"{path}: not an audit JSON report ({problem})") from None
        where = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise InputError(f"{path}: not an audit JSON report ({where}: {first['msg']})") from None
