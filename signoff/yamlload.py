"""YAML loading with PyYAML's C loader where available, keeping line numbers for error messages."""

from __future__ import annotations

from typing import Any

import yaml

# The libyaml-backed loader is ~10x faster on 300 KB master configs; fall back when PyYAML was
# built without libyaml. Both construct only plain Python types.
SafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

Path = tuple[str | int, ...]


def load_yaml(text: str) -> Any:
    """Parse YAML text safely (no tags that build objects)."""
    return yaml.load(text, Loader=SafeLoader)


class DuplicateKeyError(ValueError):
    """A mapping names the same key twice (YAML keeps the last one silently)."""

    def __init__(self, key: str, line: int) -> None:
        super().__init__(f"duplicate key {key!r}")
        self.key, self.line = key, line


def load_yaml_with_lines(text: str, *, unique_keys: bool = False) -> tuple[Any, dict[Path, int]]:
    """Parse YAML and return (data, {path: 1-based line}) for every mapping key and list item.

    `unique_keys`: a key written twice in one mapping is a DuplicateKeyError (for our own data
    files, where the second spelling silently winning hides a mistake).
    """
    node = yaml.compose(text, Loader=SafeLoader)
    lines: dict[Path, int] = {}
    if node is None:
        return None, lines
    _index_lines(node, (), lines, unique_keys)
    return load_yaml(text), lines


def _index_lines(node: yaml.Node, path: Path, lines: dict[Path, int], unique: bool) -> None:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node)
            child = (*path, key)
            if unique and child in lines:
                raise DuplicateKeyError(key, key_node.start_mark.line + 1)
            _index_lines(value_node, child, lines, unique)
            lines[child] = key_node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _index_lines(item, (*path, index), lines, unique)


def line_of(lines: dict[Path, int], path: Path) -> int:
    """The line of the deepest known prefix of `path` (1 when nothing is known)."""
    for end in range(len(path), -1, -1):
        found = lines.get(tuple(path[:end]))
        if found is not None:
            return found
    return 1
