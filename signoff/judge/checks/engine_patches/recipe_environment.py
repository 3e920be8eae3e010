"""The environment a multi-node recipe's added lines give the engine's workers, read as a script.

An srt-slurm recipe sets its workers' variables as YAML (`aggregated_environment:`,
`prefill_environment:`, `decode_environment:`: `KEY: VALUE`, or `- KEY=VALUE` items). Each
added line of that shape is read as the assignment `export KEY='VALUE'` on the same line of a
script, so a variable that makes the engine load code, packages, models or compilers from a
file or directory the PR writes (`PYTHONPATH: /workspace/benchmarks/pp`, `HF_HUB_CACHE: ...`,
`TRITON_PTXAS_PATH: ...`) counts as it does in a benchmark script. Any other line is left to
the patch patterns. Nothing is executed; the value is taken literally, as srtctl hands it on.
"""

from __future__ import annotations

import re
import shlex

import yaml

from signoff.evidence import ChangedFile
from signoff.judge.context import JudgeContext
from signoff.judge.script_files import unread_script_file
from signoff.parse.benchmark.script import evaluate, read_script
from signoff.parse.diff import patch_lines
from signoff.yamlload import load_yaml

# `KEY: VALUE` or `- KEY=VALUE`: an environment variable's name is upper case by convention,
# which is also what keeps ordinary recipe keys (`model:`, `tensor-parallel-size:`) out.
_SETTING = re.compile(r"\s*(?:-\s+)?([A-Z_][A-Z0-9_]*)\s*(?::\s+|=)(\S.*?)\s*$")
MAX_SETTINGS = 256  # added variable lines read per recipe (no real recipe sets that many)


def unread_environment(ctx: JudgeContext, changed: ChangedFile) -> str:
    """Why a variable the recipe's added lines set cannot pass ("" when none): its reason as
    a script setting it would give."""
    if changed.patch is None:
        return ""
    settings: dict[int, str] = {}
    for added in patch_lines(changed.patch).added:
        found = _SETTING.fullmatch(added.text)
        if found is not None and len(settings) < MAX_SETTINGS:
            settings[added.line] = f"export {found[1]}={shlex.quote(_scalar(found[2]))}"
    if not settings:
        return ""
    text = "".join(f"{settings.get(line, '')}\n" for line in range(1, max(settings) + 1))
    run = evaluate(read_script(text, changed.path), {})
    return unread_script_file(ctx, run, ())


def _scalar(text: str) -> str:
    """A YAML value as the recipe's reader gets it (quotes removed); as written when it is
    not a plain scalar."""
    try:
        value = load_yaml(text)  # aliases bounded, as everywhere
    except (yaml.YAMLError, ValueError, RecursionError):
        return text
    return value if isinstance(value, str) else text
