"""Changed files the benchmark scripts source or give a launch as `--config`: gather reads them.

A script's `source`/`.` of a file the PR adds or changes runs that file's head text
(parse/shell/sources), and a vLLM/SGLang `--config` YAML gives the launch its flags
(parse/benchmark/launch_config). Changed `benchmarks/**/*.sh` files are read anyway; any other
changed file a script (or a file it sources) names there is asked for here, so the reader finds its
text; one that still is not read fails the checks that need it, naming it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from signoff.judge.context import JudgeContext
from signoff.judge.model import Want, want_file
from signoff.judge.shared_readings import kept
from signoff.parse.inferencex.master_config import script_candidates
from signoff.parse.shell.script_files import basename

# What follows `source` or `.` at the start of a command, or a launch's `--config`, to the
# end of the command.
_SOURCE_WORD = re.compile(
    r"(?:(?:^|[\s;&|(])(?:source|\.)\s+|\s--config(?:=|\s+))([^;&|\n]+)", re.M
)


def wants(ctx: JudgeContext) -> Iterator[Want]:
    """Head reads of changed files whose base name a `source` command of a read script
    names (and that the evidence does not hold yet)."""
    names = {name for text in _read_texts(ctx) for name in _named(text)}
    for path in sorted(ctx.changed_readable):
        if basename(path) in names and ctx.evidence.file(path, "head") is None:
            yield want_file(path, "head")


@kept
@functools.lru_cache(maxsize=256)
def _named(text: str) -> frozenset[str]:
    """The base names `text` sources or gives as `--config`: the last path component of what
    follows, to its first blank (`x.env arg` names x.env). Kept by text: every round of
    gathering asks again of the same scripts (InferenceX #2309: 0.4 s of regex searching)."""
    rests = _SOURCE_WORD.findall(text)
    return frozenset((basename(rest).split() or [""])[0].strip("\"'") for rest in rests)


def _read_texts(ctx: JudgeContext) -> Iterator[str]:
    paths = {changed.path for changed in ctx.changed_scripts}
    for entry in ctx.changed_entries:
        paths.update(script_candidates(entry))
    paths.update(ctx.changed_readable)
    for path in sorted(paths):
        read = ctx.evidence.file(path, "head")
        if read is not None and read.state == "ok" and read.text is not None:
            yield read.text
