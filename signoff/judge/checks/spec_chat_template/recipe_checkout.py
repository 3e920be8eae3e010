"""Where a multi-node recipe that is not in the repository comes from: the launcher's checkout.

Launchers clone an orchestrator repository (NVIDIA/srt-slurm) and check it out at a ref before
`srtctl apply -f "$CONFIG_FILE"`; a `CONFIG_FILE=recipes/...` that the repository's recipe tree
does not hold is then the checkout's own file. Which launcher runs an entry is the workflow's
`runners/launch_${RUNNER_NAME%%_*}.sh` over the nodes `configs/runners.yaml` lists for the
entry's runner label; each is read with the entry's spec-decode configuration bound, and the
`git checkout <ref>` it may run after a `git clone` of a GitHub repository is what supplies the
recipe. A branch moves, so what the sweep ran cannot be read back; a commit could be, but
signoff reads no other repository, so either way the check fails closed, and says which.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from signoff.judge.context import JudgeContext
from signoff.judge.model import Want, want_file
from signoff.parse.benchmark.launch import ScriptRun
from signoff.parse.inferencex.master_config import MasterEntry
from signoff.rules.spec_chat_template import SpecChatTemplatePolicy
from signoff.yamlload import load_yaml

_SHA = re.compile(r"^[0-9a-f]{40}$")
_GITHUB = re.compile(r"^https://github\.com/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+?)(?:\.git)?/?$")


def wants(ctx: JudgeContext, entries: list[MasterEntry]) -> Iterator[Want]:
    """The runner-label file, then the launchers of the entries' runners, at the head."""
    policy = ctx.policy.config(SpecChatTemplatePolicy)
    if not entries or not policy.runner_labels:
        return
    if ctx.evidence.file(policy.runner_labels, "head") is None:
        yield want_file(policy.runner_labels, "head")
        return
    for entry in entries:
        for path in _launchers(ctx, entry):
            if ctx.evidence.file(path, "head") is None:
                yield want_file(path, "head")


def external_reason(ctx: JudgeContext, entry: MasterEntry, recipe: str) -> str:
    """Why the recipe (`recipes/...` as the entry names it) is not read when a launcher's
    checkout supplies it ("" when no launcher read shows a checkout). A branch any launcher
    may check out is named first: it is the weaker pin."""
    found = [
        (launcher, *checkout)
        for launcher in _launchers(ctx, entry)
        if (run := _reading(ctx, entry, launcher)) is not None
        for checkout in _checkouts(run)
    ]
    found.sort(key=lambda item: (bool(_SHA.match(item[3])), item[0], item[2]))
    if not found:
        return ""
    launcher, repo, line, ref = found[0]
    at = f"`{recipe}` comes from {launcher}:{line}, which checks out {repo} at `{ref}`"
    if _SHA.match(ref):
        return f"{at}, a commit of another repository, which signoff does not read"
    return f"{at}, a branch, which moves: the recipe the sweep ran cannot be read back"


def _launchers(ctx: JudgeContext, entry: MasterEntry) -> list[str]:
    """The launchers the workflow may run for the entry's runner label (sorted)."""
    policy = ctx.policy.config(SpecChatTemplatePolicy)
    read = ctx.evidence.file(policy.runner_labels, "head")
    if read is None or read.state != "ok" or read.text is None:
        return []
    try:
        data = load_yaml(read.text)
    except Exception:  # an unreadable label file names no launcher; the caller fails closed
        return []
    labels = data.get("labels") if isinstance(data, dict) else None
    if not isinstance(labels, dict):
        return []
    nodes = labels.get(entry.runner)
    if not isinstance(nodes, list):  # a runner named after its nodes (`gb300-nv`: gb300-nv_0)
        every = [str(n) for group in labels.values() if isinstance(group, list) for n in group]
        nodes = [n for n in every if n.startswith(f"{entry.runner}_")][:1]
    names = {str(node).split("_", 1)[0] for node in nodes}
    return sorted(policy.launcher.format(node=name) for name in names)


def _reading(ctx: JudgeContext, entry: MasterEntry, launcher: str) -> ScriptRun | None:
    """The launcher read with what the sweep exports for the entry's fixed-seq-len jobs (the
    entry's fields, constants, scenario and benchmark job; search-space values stay unknown,
    so a checkout they decide is kept with the others)."""
    sweep = ctx.policy.sweep_env
    fields = {"model": entry.model, "model-prefix": entry.model_prefix,
              "precision": entry.precision, "framework": entry.framework,
              "image": entry.image_raw}  # fmt: skip
    env = dict(sweep.constants)
    env.update({name: fields[field] for name, field in sweep.entry.items() if field in fields})
    env.update(sweep.scenarios.get("fixed-seq-len", {}))
    env.update(sweep.jobs.get("benchmark", {}))
    return ctx.script_run_with(launcher, env)


def _checkouts(run: ScriptRun) -> list[tuple[str, int, str]]:
    """(repository, line, ref) of every `git checkout <ref>` the reading may run after a
    `git clone` of a GitHub repository, in the order it ran them."""
    found: list[tuple[str, int, str]] = []
    repo = ""
    for command in run.commands:
        words = list(command.argv[1:]) if command.argv[:1] == ("git",) else []
        if words[:1] == ["clone"]:
            operands = [w for w in words[1:] if not w.startswith("-")]
            match = _GITHUB.match(operands[0]) if operands else None
            repo = match[1] if match else ""
        elif words[:1] == ["checkout"] and repo and len(words) == 2:
            found.append((repo, command.line, words[1]))
    return found
