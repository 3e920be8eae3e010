"""What the lines a PR adds to a recipe or a master config set and run in the job, judged.

The parse layer turns the added lines into the script they amount to
(parse/recipes/added_settings.py); here it is read as a benchmark script is, so a variable that
makes the engine load code, packages, models or compilers from a file or directory the PR
writes (`PYTHONPATH: /infmax-workspace/tools/pp`, `HF_HUB_CACHE: ...`, `TRITON_PTXAS_PATH:
...`), or a command running a file the PR adds, counts as it does in a script.
"""

from __future__ import annotations

from signoff.evidence import ChangedFile
from signoff.judge.context import JudgeContext
from signoff.judge.script_files import unread_script_file
from signoff.parse.benchmark.script import evaluate, read_script
from signoff.parse.recipes.added_settings import settings_script


def unread_settings(ctx: JudgeContext, changed: ChangedFile, judged: set[str]) -> str:
    """Why a variable the added lines set, or a command they run, cannot pass ("" when none):
    its reason as a script doing the same would give. `judged`: the files the check reads
    itself (a benchmark script a command runs is read there)."""
    text = settings_script(changed.patch) if changed.patch is not None else ""
    if not text:
        return ""
    run = evaluate(read_script(text, changed.path), {})
    return unread_script_file(ctx, run, judged)
