"""What a multi-node (srt-slurm) recipe tells its benchmark client: the chat-template switch."""

from __future__ import annotations

from collections.abc import Iterable

from signoff.yamlload import load_yaml


def recipe_uses_chat_template(text: str, flags: Iterable[str]) -> bool:
    """Whether the recipe's `benchmark:` section turns the chat template on: the key
    `use_chat_template` (or `use-chat-template`) set to YAML true, or one of the client's flags
    (`--use-chat-template`) as a word of a benchmark argument. Unreadable YAML, a quoted "true"
    or a switch outside the top-level `benchmark:` section is off."""
    try:
        data = load_yaml(text)
    except Exception:  # untrusted text: any reader failure is "not shown to be on"
        return False
    section = data.get("benchmark") if isinstance(data, dict) else None
    if not isinstance(section, dict):
        return False
    values = [section[key] for key in ("use_chat_template", "use-chat-template") if key in section]
    if values:
        return all(value is True for value in values)
    wanted = set(flags)
    return any(wanted & set(word.split()) for word in _strings(section))


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
