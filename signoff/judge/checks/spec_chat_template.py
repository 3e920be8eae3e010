"""Speculative decoding is benchmarked through a chat template.

Why: draft acceptance depends on the prompt format; raw completions inflate acceptance length
far beyond real-world use. How it is judged: every spec-decode config the PR adds or changes
(search-space `spec-decoding: mtp|draft_model`, a `-mtp` key, an `_mtp.sh` script, or
speculative flags in a changed script) must call the benchmark client with `--use-chat-template`
(or `--dsv4`, which implies it); a multi-node spec-decode entry needs a changed multi-node recipe
that turns the chat template on. Agentic replay always goes through chat completions. N/A when
no spec-decode config changes. To satisfy it: pass `--use-chat-template` to run_benchmark_serving.
"""

from __future__ import annotations

from signoff.judge.context import JudgeContext
from signoff.judge.model import Finding, failed, not_applicable, passed
from signoff.parse.bench_script import find_args

ID = "spec-chat-template"
NAME = "spec-decode chat template"


def evaluate(ctx: JudgeContext) -> Finding:
    if ctx.master_problems:
        return failed(f"spec-decode configs cannot be determined: {ctx.master_problems[0]}")
    targets, agentic, multi_node = _spec_targets(ctx)
    if not targets and not agentic and not multi_node:
        return not_applicable("no speculative-decoding config is added or changed")
    if multi_node and not _multi_node_chat_template(ctx):
        return failed(
            f"{', '.join(sorted(multi_node))}: no changed multi-node recipe enables the chat "
            "template (use-chat-template), so realistic acceptance is unverified"
        )
    checked: list[str] = [f"{key} (multi-node recipe)" for key in sorted(multi_node)]
    for label, path in sorted(targets.items()):
        if path is None:
            return failed(f"{label}: its benchmark script could not be found or read at the head")
        problem = _chat_template_problem(ctx, path)
        if problem:
            return failed(f"{label}: {problem}")
        checked.append(path.rsplit("/", 1)[-1])
    parts = []
    if checked:
        flags = "/".join(ctx.policy.spec_decode.chat_template_flags)
        parts.append(f"{', '.join(checked)} benchmark with {flags}")
    if agentic:
        parts.append(f"{', '.join(sorted(agentic))} replay through chat completions (agentic)")
    return passed("; ".join(parts))


def _spec_targets(ctx: JudgeContext) -> tuple[dict[str, str | None], set[str], set[str]]:
    """{label: script path or None} for single-node fixed-seq spec configs, and the keys of
    agentic and of multi-node spec entries."""
    spec = ctx.policy.spec_decode
    targets: dict[str, str | None] = {}
    agentic: set[str] = set()
    multi_node: set[str] = set()
    for entry in ctx.changed_entries:
        if not (set(entry.spec_decoding) & set(spec.spec_values) or entry.key.endswith("-mtp")):
            continue
        if entry.is_agentic and "fixed-seq-len" not in entry.scenarios:
            agentic.add(entry.key)
            continue
        if entry.multinode:
            multi_node.add(entry.key)
            continue
        read = ctx.script_for(entry)
        targets[entry.key] = read.path if read is not None else None
    for changed in ctx.changed_scripts:
        if "/agentic/" in changed.path or changed.path in targets.values():
            continue
        read = ctx.evidence.file(changed.path, "head")
        if read is None or read.state != "ok" or read.text is None:
            if changed.path.endswith("_mtp.sh"):
                targets[changed.path] = None
            continue
        facts = ctx.script_facts(changed.path)
        if facts is None:
            continue
        if changed.path.endswith("_mtp.sh") or find_args(facts, spec.script_flags):
            targets[changed.path] = changed.path
    return targets, agentic, multi_node


def _multi_node_chat_template(ctx: JudgeContext) -> bool:
    """A line the PR adds to a multi-node recipe turns the chat template on (srt-slurm recipes
    spell it `use-chat-template` / `use_chat_template: true`, or pass the client flag)."""
    spec = ctx.policy.spec_decode
    for changed in ctx.changed_matching(ctx.policy.paths.multi_node_scripts):
        for line in (changed.patch or "").splitlines():
            if not line.startswith("+") or line.startswith("+++"):
                continue
            text = line[1:].lower().replace("_", "-")
            if any(flag in text for flag in spec.chat_template_flags) or (
                "use-chat-template" in text and "false" not in text
            ):
                return True
    return False


def _chat_template_problem(ctx: JudgeContext, path: str) -> str:
    spec = ctx.policy.spec_decode
    read = ctx.evidence.file(path, "head")
    if read is None or read.state != "ok" or read.text is None:
        return f"{path} could not be read at the pinned head"
    facts = ctx.script_facts(path)
    if facts is None or not facts.complete:
        why = facts.problems[0] if facts is not None and facts.problems else "unread"
        return f"{path} could not be fully read ({why})"
    if not facts.clients:
        clients = "/".join(spec.client_commands)
        return f"{path} has no {clients} call, so the chat template is unverified"
    for call in facts.clients:
        if any(arg.flag in spec.chat_template_flags for arg in call.args):
            return ""
    first = facts.clients[0]
    return (
        f"{path}:{first.line} calls {first.command} without {' or '.join(spec.chat_template_flags)}"
    )
