"""The lines a PR adds to a recipe or a master config, as the script they amount to.

An srt-slurm recipe sets its workers' variables as YAML (`aggregated_environment:`,
`prefill_environment:`, `decode_environment:`: `KEY: VALUE`, or `- KEY=VALUE` items), and
names commands the job runs (a custom benchmark's `command: bash /infmax-workspace/...`, a
`command: |` block); a multi-node master-config entry's `additional-settings` items
(`- "KEY=VALUE"`, or a flow list) are exported into the sweep step's shell before the launcher
runs (benchmark-multinode-tmpl.yml). Each added line of those shapes becomes a line of a script
on the same line number: a variable as `export KEY='VALUE'` (the value literal, as srtctl
hands it on), a command as written. Nothing is executed; the judge reads the script
(judge/recipe_settings.py).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

import yaml

from signoff.parse.diff import DiffLine, patch_lines
from signoff.yamlload import load_yaml

# `KEY: VALUE` or `- KEY=VALUE`: an environment variable's name is upper case by convention,
# which is also what keeps ordinary recipe keys (`model:`, `tensor-parallel-size:`) out.
_SETTING = re.compile(r"\s*(?:-\s+)?([A-Z_][A-Z0-9_]*)\s*(?::\s+|=)(\S.*?)\s*$")
# `- "KEY=VALUE"`: a quoted list item (a master config's `additional-settings`).
_ITEM = re.compile(r"\s*-\s+([\"'])([A-Z_][A-Z0-9_]*)=(.*)\1\s*(?:#.*)?$")
# `key: ["KEY=VALUE", ...]`: the same items as a flow list on one line.
_FLOW = re.compile(r"\s*(?:-\s+)?[\w.-]+:\s*(\[.*\])\s*(?:#.*)?$")
_ASSIGNMENT = re.compile(r"([A-Z_][A-Z0-9_]*)=(.*)", re.DOTALL)
# `command: ...` (srtctl's custom benchmark), `setup_command:`, `pre_cmd:`: a command line.
_COMMAND_KEY = r"(?:[a-z_]+_)?(?:command|cmd)"
_COMMAND = re.compile(rf"\s*{_COMMAND_KEY}:\s+(\S.*?)\s*$")
_BLOCK = re.compile(r"[|>][-+0-9]*")  # a block scalar's indicator: the lines below hold it
MAX_LINES = 256  # added variable and command lines read per recipe (no real recipe has more)


def settings_script(patch: str) -> str:
    """The script the added lines of a recipe's or master config's patch amount to: each
    variable they set as `export KEY='VALUE'` and each command they run as written, on its own
    line number; "" when they set and run nothing."""
    lines: dict[int, str] = {}
    added = patch_lines(patch).added
    for index, one in enumerate(added):
        if len(lines) >= MAX_LINES:
            break
        item = _ITEM.fullmatch(one.text)
        flow = _flow_items(one.text) if item is None else []
        setting = _SETTING.fullmatch(one.text) if item is None and not flow else None
        command = _COMMAND.fullmatch(one.text) if setting is None and item is None else None
        if item is not None:
            lines[one.line] = f"export {item[2]}={shlex.quote(item[3])}"
        elif flow:
            lines[one.line] = "export " + " ".join(f"{k}={shlex.quote(v)}" for k, v in flow)
        elif setting is not None:
            lines[one.line] = f"export {setting[1]}={shlex.quote(_scalar(setting[2]))}"
        elif command is not None and _BLOCK.fullmatch(command[1]):
            lines.update(_block(added[index + 1 :], one, folded=command[1].startswith(">")))
        elif command is not None:
            lines[one.line] = " ".join(_scalar(command[1]).split("\n"))
    if not lines:
        return ""
    return "".join(f"{lines.get(line, '')}\n" for line in range(1, max(lines) + 1))


def _flow_items(text: str) -> list[tuple[str, str]]:
    """The `KEY=VALUE` strings of a flow list on one line (`additional-settings: ["A=1"]`)."""
    found = _FLOW.fullmatch(text)
    if found is None:
        return []
    try:
        items = load_yaml(found[1])  # aliases bounded, as everywhere
    except (yaml.YAMLError, ValueError, RecursionError):
        return []
    pairs = (_ASSIGNMENT.fullmatch(one) for one in items if isinstance(one, str))
    return [(pair[1], pair[2]) for pair in pairs if pair is not None]


def _block(following: Sequence[DiffLine], key: DiffLine, *, folded: bool) -> dict[int, str]:
    """A block scalar's lines (`command: |` and the added lines below it, indented deeper):
    each on its own line, or, folded (`>`), joined into one on the first."""
    indent = len(key.text) - len(key.text.lstrip())
    found: dict[int, str] = {}
    line = key.line
    for one in following:
        deeper = len(one.text) - len(one.text.lstrip()) > indent
        if one.line != line + 1 or not (deeper or not one.text.strip()):
            break
        line = one.line
        if one.text.strip():
            found[one.line] = one.text.strip()
    if folded and found:
        first = min(found)
        return {first: " ".join(found[n] for n in sorted(found))}
    return found


def _scalar(text: str) -> str:
    """A YAML value as the recipe's reader gets it (quotes removed); as written when it is
    not a plain scalar."""
    try:
        value = load_yaml(text)  # aliases bounded, as everywhere
    except (yaml.YAMLError, ValueError, RecursionError):
        return text
    return value if isinstance(value, str) else text


def is_command_key(key: str) -> bool:
    """Whether a recipe key's value is a command line the job runs (read here as one)."""
    return re.fullmatch(_COMMAND_KEY, key) is not None
