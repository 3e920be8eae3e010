"""Our own typed YAML data files (the policy profile, the standards): read, parse, validate.

Every problem is one PolicyError naming `file:line` and the key: unreadable or non-UTF-8 text,
invalid YAML, a key written twice, or a value the pydantic model refuses.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from signoff.errors import PolicyError
from signoff.yamlload import DuplicateKeyError, line_of, load_yaml_with_lines

Model = TypeVar("Model", bound=BaseModel)
Lines = dict[tuple[str | int, ...], int]
Prepare = Callable[[dict[str, Any], Lines], dict[str, Any]]


def load_data_file(
    path: Path, model: type[Model], what: str, prepare: Prepare | None = None
) -> Model:
    """`path` read as `what` ("policy profile", "standards file") into `model`.

    `prepare` may rewrite the mapping before validation (the profile loads the standards file
    it names); it raises PolicyError itself when it must.
    """
    data, lines = _mapping(path, _text(path, what), what)
    if prepare is not None:
        data = prepare(data, lines)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = tuple(first["loc"])
        where = ".".join(str(part) for part in loc) or "(top level)"
        raise PolicyError(f"{path}:{line_of(lines, loc)}: {where}: {first['msg']}") from None


def _text(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise PolicyError(f"{path}: not a {what} (not UTF-8 at byte {exc.start})") from None
    except OSError as exc:
        why = exc.strerror or "unreadable"
        raise PolicyError(f"{path}: cannot read {what} ({why})") from None


def _mapping(path: Path, text: str, what: str) -> tuple[dict[str, Any], Lines]:
    try:
        data, lines = load_yaml_with_lines(text, unique_keys=True)
    except DuplicateKeyError as exc:
        raise PolicyError(f"{path}:{exc.line}: {what} names the key {exc.key!r} twice") from None
    except Exception as exc:  # yaml.YAMLError carries its own mark
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        raise PolicyError(f"{path}:{line}: {what} is not valid YAML") from None
    if not isinstance(data, dict):
        raise PolicyError(f"{path}:1: {what} must be a mapping")
    return data, lines
