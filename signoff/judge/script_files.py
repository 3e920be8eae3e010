"""Scripts a benchmark script runs by file: which of them the PR may have written, and why.

signoff reads the scripts it judges, never a script one of them runs by file (`bash x.sh`,
`./x.sh`). An unchanged repository file was reviewed when it landed; a file the PR adds or
changes was not, so a call that may run one counts against a PASS: its base name is that of a
file the PR adds or changes (a path match is a base-name match too; so is a command's plain
name, since a script may put its own directory on PATH), or its name is known only
at run time and the PR adds or changes a shell file other than the scripts being judged. When
the PR's file list is incomplete, every such call counts. Dead paths were never recorded.
"""

from __future__ import annotations

from collections.abc import Iterable

from signoff.evidence import ChangedFile
from signoff.judge.context import JudgeContext
from signoff.judge.quote import code
from signoff.parse.launch import ScriptFileRun, ScriptRun
from signoff.parse.launch_read import basename

UNREAD = "signoff does not read scripts run by file"
# Files a shell may run as a script: these suffixes, or none at all (`./setup`).
_SHELL_SUFFIXES = (".sh", ".bash", ".zsh", ".ksh", ".dash")


def unread_script_file(ctx: JudgeContext, run: ScriptRun, judged: Iterable[str]) -> str:
    """Why `run` cannot pass: the first call it makes to a script file the PR may have written
    ("" when there is none). `judged`: the files the check reads itself (a call to one of them
    is read there)."""
    skip = set(judged)
    for call in (*run.script_files, *_by_plain_name(run)):
        written = _written_by_pr(ctx, call, skip, run.path)
        if written:
            where = f" ({run.label})" if run.label else ""
            may = f" [may run: {call.why}]" if call.why else ""
            return (
                f"{run.path}:{call.line} runs {code(call.command)}, {written}; {UNREAD}{where}{may}"
            )
    return ""


def _by_plain_name(run: ScriptRun) -> list[ScriptFileRun]:
    """Other commands, as runs of the file their plain name finds on PATH (a script may put
    its own directory there: `helper` then runs a file the PR adds)."""
    return [
        ScriptFileRun(command=" ".join(command.argv), word=command.argv[0],
                      name=command.argv[0], line=command.line, reach=command.reach,
                      why=command.why)
        for command in run.commands
        if command.argv and command.argv[0] and "/" not in command.argv[0]
    ]  # fmt: skip


def _written_by_pr(ctx: JudgeContext, call: ScriptFileRun, skip: set[str], script: str) -> str:
    """How the PR may have written the file `call` runs ("" when it cannot have)."""
    if ctx.evidence.files_truncated:
        return "and the PR's file list is incomplete (GitHub lists at most 3,000 files)"
    changed = [f for f in ctx.evidence.changed_files if f.status != "removed"]
    if call.name:
        same = [f for f in changed if basename(f.path) == call.name and f.path not in skip]
        if same:
            verb = "adds" if same[0].status == "added" else "changes"
            return f"which this PR {verb} ({code(same[0].path)})"
        return ""
    shells = [f.path for f in changed if _is_shell(f) and f.path not in skip | {script}]
    if shells:
        more = f" and {len(shells) - 1} more" if len(shells) > 1 else ""
        return (
            f"a file known only at run time ({code(call.word)}), and this PR adds or changes "
            f"the shell file {code(shells[0])}{more}"
        )
    return ""


def _is_shell(changed: ChangedFile) -> bool:
    name = basename(changed.path)
    return name.endswith(_SHELL_SUFFIXES) or "." not in name
