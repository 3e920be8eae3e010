"""A word the script computes when it runs: what it names is the script's doing.

`c=$(cat /tmp/cmd); $c` runs whatever the file holds, split into a command line (`docker run
other/image vllm serve`); `read -r IMG < f; docker run "$IMG"` runs whatever image the file
names. Such a value comes from the script's own text, which the PR may change, not from the
runner's environment (a hook the job's environment names is judge/environment_program's), so a
reading the base does not share cannot pass with one (judge/script_files). `$(command -v
python3)` and `$(which python3)` are the program found under that name, as the plain name is. A
file an interpreter runs (`bash "$(ls *.sh)"`) is left to the rules on files run by name.
"""

from __future__ import annotations

import re

from signoff.judge.baseline import READS_INTO, command_tree
from signoff.judge.context import JudgeContext
from signoff.judge.quote import code
from signoff.parse.benchmark.launch import ScriptFileRun, ScriptRun
from signoff.parse.shell.script_files import LOOKED_UP, STDIN

# Builtins that give a variable a value read when the script runs (`printf -v` too).
_READERS = READS_INTO | {"printf"}
_NAME = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
# A command's output: `$(...)` or backticks, not the arithmetic `$((...))`.
_SUBSTITUTION = re.compile(r"\$\((?!\()|`")


def computed_command(ctx: JudgeContext, run: ScriptRun, call: ScriptFileRun) -> str:
    """How the script computes the command `call` runs, when its first word is known only at
    run time ("" when it is not computed, or the word is a file an interpreter runs, which the
    file rules judge): the output of a command, or what `filled_at_run_time` finds."""
    word = call.word
    if call.name or word == STDIN or not call.command.startswith(word):
        return ""
    if call.command[len(word) : len(word) + 1] not in ("", " "):
        return ""
    rest = LOOKED_UP.sub("", word)
    if _SUBSTITUTION.search(rest):
        return "the output of a command"
    return filled_at_run_time(ctx, run, rest)


def filled_at_run_time(ctx: JudgeContext, run: ScriptRun, word: str) -> str:
    """Where a variable in `word` gets a value read when the script runs (`read`, `mapfile`,
    `printf -v` in the reading's own files), "" when none does."""
    names = set(_NAME.findall(word))
    if not names:
        return ""
    for path in (run.path, *dict.fromkeys(path for _, path in run.sourced)):
        parsed = ctx.parsed_script(path)
        if parsed is None or parsed.tree is None:
            continue
        for command in command_tree(parsed.tree).order:
            if command.sets & names and command.argv and command.argv[0] in _READERS:
                return f"what {code(command.argv[0])} gives it at {path}:{command.line}"
    return ""
