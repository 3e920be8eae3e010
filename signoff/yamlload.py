"""YAML loading with PyYAML's C loader where available, keeping line numbers for error messages."""

from __future__ import annotations

from typing import Any

import yaml

# The libyaml-backed loader is ~10x faster on 300 KB master configs; fall back when PyYAML was
# built without libyaml. Both construct only plain Python types.
SafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

Path = tuple[str | int, ...]

# An alias re-uses a whole subtree, and a chain of them grows it exponentially: 300 bytes can
# stand for millions of nodes that every reader after us walks (a YAML "billion laughs"). Real
# configs use few or no aliases, so what aliases add beyond the document's own nodes is bounded.
MAX_ALIAS_NODES = 20_000


class AliasBombError(yaml.YAMLError):
    """Aliases expand the document past MAX_ALIAS_NODES nodes, or an alias refers to itself."""

    def __init__(self, what: str, mark: yaml.Mark) -> None:
        super().__init__(f"{what} (line {mark.line + 1})")
        self.problem, self.problem_mark = what, mark


def load_yaml(text: str) -> Any:
    """Parse YAML text safely (no tags that build objects), with alias expansion bounded."""
    node = compose_bounded(text)
    return None if node is None else _construct(node)


def compose_bounded(text: str) -> yaml.Node | None:
    """The node graph of one YAML document; AliasBombError when aliases blow it up."""
    node = yaml.compose(text, Loader=SafeLoader)
    # Without an anchor (`&name`) no alias can name a node: the graph is a tree, so nothing is
    # shared, nothing contains itself and nothing expands.
    if node is not None and "&" in text:
        _check_alias_expansion(node)
    return node


def _construct(node: yaml.Node) -> Any:
    """The document's value, as CSafeLoader's constructor builds it from the composed graph
    (so the text is parsed once). Plain maps, lists and the five core scalar types, which is
    all a config holds, are built directly, at about 60% of the constructor's cost; any
    other tag, a merge key (`<<`), a key that is not a scalar or nesting past
    `_DIRECT_DEPTH` is left to the constructor itself, its errors included."""
    constructor = yaml.constructor.SafeConstructor()
    try:
        return _direct(node, constructor, {}, 0)
    except _NotPlain:
        return constructor.construct_document(node)


_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_STR = "tag:yaml.org,2002:str"
_SCALARS: dict[str, Any] = {
    "tag:yaml.org,2002:int": yaml.constructor.SafeConstructor.construct_yaml_int,
    "tag:yaml.org,2002:float": yaml.constructor.SafeConstructor.construct_yaml_float,
    "tag:yaml.org,2002:bool": yaml.constructor.SafeConstructor.construct_yaml_bool,
    "tag:yaml.org,2002:null": yaml.constructor.SafeConstructor.construct_yaml_null,
}
_DIRECT_DEPTH = 200  # deeper documents go to the constructor, which does not recurse


class _NotPlain(Exception):
    """The document holds something `_direct` leaves to PyYAML's constructor."""


def _direct(node: yaml.Node, constructor: Any, built: dict[int, Any], depth: int) -> Any:
    # an alias is the same node object: built once and shared, as the constructor does
    if id(node) in built:
        return built[id(node)]
    tag = node.tag
    if isinstance(node, yaml.ScalarNode):
        if tag == _STR:
            value: Any = node.value
        elif tag in _SCALARS:
            value = _SCALARS[tag](constructor, node)
        else:
            raise _NotPlain
    elif depth > _DIRECT_DEPTH:
        raise _NotPlain
    elif isinstance(node, yaml.MappingNode) and tag == _MAP:
        value = {}
        built[id(node)] = value
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise _NotPlain  # a mapping or list as a key: the constructor says why
            key = _direct(key_node, constructor, built, depth + 1)
            value[key] = _direct(value_node, constructor, built, depth + 1)
    elif isinstance(node, yaml.SequenceNode) and tag == _SEQ:
        value = []
        built[id(node)] = value
        value.extend(_direct(item, constructor, built, depth + 1) for item in node.value)
    else:
        raise _NotPlain
    built[id(node)] = value
    return value


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _check_alias_expansion(root: yaml.Node) -> None:
    """Count the nodes a full walk would visit, memoised per node, without walking them all.

    Depth first, children in order; each frame is [node, children, next child, nodes so far].
    A scalar child is counted where it is met (it has no children, so it can neither contain
    itself nor cross the bound).
    """
    expanded: dict[int, int] = {}  # node id -> nodes in its fully expanded subtree
    open_nodes: set[int] = {id(root)}
    stack: list[list[Any]] = [[root, _children(root), 0, 1]]
    while stack:
        frame = stack[-1]
        node, children, index, total = frame
        if index == len(children):
            stack.pop()
            key = id(node)
            open_nodes.discard(key)
            if total - len(expanded) > MAX_ALIAS_NODES:  # the deepest node that crosses it
                raise AliasBombError(
                    f"aliases expand the document past {MAX_ALIAS_NODES:,} extra nodes",
                    node.start_mark,
                )
            expanded[key] = total
            if stack:
                stack[-1][3] += total
            continue
        frame[2] = index + 1
        child = children[index]
        key = id(child)
        done = expanded.get(key)
        if done is not None:
            frame[3] += done
        elif key in open_nodes:  # an anchor reached again from inside itself
            raise AliasBombError("an alias refers to the node that contains it", child.start_mark)
        elif isinstance(child, yaml.ScalarNode):
            expanded[key] = 1
            frame[3] += 1
        else:
            open_nodes.add(key)
            stack.append([child, _children(child), 0, 1])


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
    node = compose_bounded(text)
    lines: dict[Path, int] = {}
    if node is None:
        return None, lines
    _index_lines(node, (), lines, unique_keys)
    return _construct(node), lines  # after indexing: merge keys are flattened in place


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
