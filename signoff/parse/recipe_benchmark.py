"""What a multi-node (srt-slurm) recipe tells its benchmark client: the chat-template switch."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from signoff.yamlload import load_yaml

_KEYS = ("use_chat_template", "use-chat-template")
_SELECTOR = re.compile(r"^([\w.-]+?)(?:\[(\d+)\])?$")


def recipe_uses_chat_template(
    text: str, flags: Iterable[str], selector: str = "", defaults: Mapping[str, bool] | None = None
) -> bool:
    """Whether the benchmark srtctl runs from this recipe turns the chat template on: the key
    `use_chat_template` (or `use-chat-template`) set to YAML true in its `benchmark:` section,
    or one of the client's flags (`--use-chat-template`) as a word of a benchmark argument;
    without the key, srtctl's default for the section's benchmark `type` (`defaults`: a type
    not in it has no known default, so it is off).

    A recipe of sections (`base:` and `override_<x>` / `zip_override_<x>` merged over it) is
    read as srtctl builds the run `selector` names (`zip_override_x[1]`: list values take their
    item 1); with no selector, every section it may run must turn it on. Unreadable YAML, a
    quoted "true", a switch outside a `benchmark:` section or an unknown selector is off."""
    try:
        data = load_yaml(text)
    except Exception:  # untrusted text: any reader failure is "not shown to be on"
        return False
    if not isinstance(data, dict):
        return False
    wanted = _Wanted(frozenset(flags), dict(defaults or {}))
    if not isinstance(data.get("base"), dict):
        return _on(_benchmark(data), None, wanted)
    base = _benchmark(data["base"])
    sections = [k for k in data if isinstance(k, str) and re.match(r"(?:zip_)?override_", k)]
    if selector == "base":
        return _merged_on(data, base, None, None, wanted)
    if not selector:  # the base and every section srtctl may run over it
        return all(_merged_on(data, base, name, None, wanted) for name in (None, *sections))
    match = _SELECTOR.match(selector)
    if match is None or match[1] not in sections:
        return False
    index = int(match[2]) if match[2] is not None else None
    return _merged_on(data, base, match[1], index, wanted)


def _merged_on(
    data: dict[object, object], base: dict[object, object] | None, name: str | None,
    index: int | None, wanted: _Wanted,
) -> bool:  # fmt: skip
    override = _benchmark(data[name]) if name is not None and isinstance(data[name], dict) else None
    merged = {**(base or {}), **(override or {})}
    return _on(merged if base is not None or override is not None else None, index, wanted)


def _benchmark(section: object) -> dict[object, object] | None:
    found = section.get("benchmark") if isinstance(section, dict) else None
    return found if isinstance(found, dict) else None


@dataclass(frozen=True)
class _Wanted:
    flags: frozenset[str]  # the client's flags that turn the template on
    defaults: dict[str, bool]  # benchmark type -> srtctl's default without the key


def _on(section: dict[object, object] | None, index: int | None, wanted: _Wanted) -> bool:
    if section is None:
        return False
    values = [_item(section[key], index) for key in _KEYS if key in section]
    if values:
        return all(value is True for value in values)
    if any(wanted.flags & set(word.split()) for word in _strings(section)):
        return True
    kind = _item(section.get("type"), index)
    return isinstance(kind, str) and wanted.defaults.get(kind) is True


def _item(value: object, index: int | None) -> object:
    """A zip override's list value taken at the selected index (a list anywhere else is off)."""
    if isinstance(value, list):
        if index is None:
            return all(v is True for v in value) and bool(value)
        return value[index] if 0 <= index < len(value) else None
    return value


def _strings(value: object, depth: int = 0) -> Iterable[str]:
    if depth > 16:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, depth + 1)
