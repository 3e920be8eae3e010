"""A server's `--config` YAML read as the flags the engine takes from it (nothing is run).

vLLM (`FlexibleArgumentParser`) and SGLang read a YAML mapping whose keys are long option
names without `--`: a scalar value is the flag's value, `true` the bare flag, `false` leaves it
out, a list gives the flag with its items, a mapping its JSON. The command line wins over the
file, so a flag given both ways keeps the command line's. The text is read within bounds: its
size, the nodes visited with every alias expanded (a 330-byte anchor chain expands to
billions) and the options it sets, so a hostile file costs little; past a bound it is not read.
"""

from __future__ import annotations

import json

import yaml

from signoff.parse.benchmark.launch import Arg
from signoff.yamlload import SafeLoader

MAX_CONFIG_CHARS = 65_536  # real launch configs are a few hundred bytes
MAX_CONFIG_NODES = 10_000  # nodes visited, aliases expanded
MAX_CONFIG_OPTIONS = 256  # real launch configs set a few dozen


def config_args(text: str, line: int) -> tuple[tuple[Arg, ...], str]:
    """(the flags the file gives, "") or ((), why it cannot be read); never raises."""
    if len(text) > MAX_CONFIG_CHARS:
        return (), f"too large ({len(text):,} characters; the bound is {MAX_CONFIG_CHARS:,})"
    try:
        node = yaml.compose(text, Loader=SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at its line {mark.line + 1}" if mark is not None else ""
        return (), f"not valid YAML{where}"
    if node is None:
        return (), ""
    if _expanded_size(node) > MAX_CONFIG_NODES:
        return (), f"more than {MAX_CONFIG_NODES:,} nodes with its aliases expanded (bound)"
    try:
        data = yaml.load(text, Loader=SafeLoader)
    except yaml.YAMLError:
        return (), "not valid YAML"
    if not isinstance(data, dict):
        return (), "not a mapping of option names to values"
    if len(data) > MAX_CONFIG_OPTIONS:
        return (), f"more than {MAX_CONFIG_OPTIONS} options (bound)"
    args: list[Arg] = []
    for key, value in data.items():
        if not isinstance(key, str) or not key:
            return (), f"a key that is not an option name ({str(key)[:40]})"
        if key == "config":
            return (), "it names another config file, which is not followed"
        args.extend(_flag(key, value, line))
    return tuple(args), ""


def _flag(key: str, value: object, line: int) -> list[Arg]:
    flag = "--" + key
    if value is True:
        return [Arg(flag=flag, value=None, line=line)]
    if value is False or value is None:
        return []
    if isinstance(value, list):
        return [Arg(flag=flag, value=" ".join(_text(item) for item in value), line=line)]
    return [Arg(flag=flag, value=_text(value), line=line)]


def _text(value: object) -> str:
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True, default=str)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _expanded_size(root: yaml.Node) -> int:
    """Nodes visited with aliases expanded, stopping just past the bound."""
    seen = 0
    stack = [root]
    while stack and seen <= MAX_CONFIG_NODES:
        node = stack.pop()
        seen += 1
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.extend((key, value))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return seen


def merged(command_line: tuple[Arg, ...], from_file: tuple[Arg, ...]) -> tuple[Arg, ...]:
    """The launch's flags: the command line's, then the file's that it does not give."""
    given = {_name(arg.flag) for arg in command_line}
    return command_line + tuple(arg for arg in from_file if _name(arg.flag) not in given)


def _name(flag: str) -> str:
    return flag.split("=", 1)[0].replace("_", "-")
