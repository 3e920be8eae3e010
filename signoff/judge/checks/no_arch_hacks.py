"""Benchmarks run the model's real architecture.

Why: cutting model FLOPs (skipping indexer layers, trimming experts) makes numbers incomparable;
making the same computation faster is fair. How it is judged: the benchmark scripts the PR adds or
changes (and those its changed master-config entries run) and the lines it adds to master configs
are scanned for architecture overrides (`--hf-overrides`, `--json-model-override-args`,
`hf_overrides` keys) and model-config edits. Each one FAILs with the flag, value and line, unless
the profile lists it as natively supported for that model. N/A when no script or master config
changed. To satisfy it: drop the override, or get native support recognised in the profile.
"""

from __future__ import annotations

import re

from signoff.judge.context import JudgeContext
from signoff.judge.model import Finding, failed, not_applicable, passed
from signoff.parse.bench_script import ScriptFacts, find_args

ID = "no-arch-hacks"
NAME = "no architecture hacks"


def evaluate(ctx: JudgeContext) -> Finding:
    scripts = _scripts(ctx)
    masters = [f for f in ctx.evidence.changed_files if f.path in ctx.changed_master_files]
    if not scripts and not masters:
        return not_applicable("no benchmark script or master config is changed")
    hits: list[str] = []
    allowed: list[str] = []
    for path in scripts:
        read = ctx.evidence.file(path, "head")
        if read is None or read.state != "ok" or read.text is None:
            return failed(
                f"{path} could not be read at the pinned head, so overrides are unverified"
            )
        facts = ctx.script_facts(path)
        if facts is None or not facts.complete:
            why = facts.problems[0] if facts is not None and facts.problems else "unread"
            return failed(f"{path} could not be fully read ({why}), so overrides are unverified")
        found, ok = _scan_script(ctx, facts, read.text)
        hits.extend(found)
        allowed.extend(ok)
    for changed in masters:
        if changed.patch is None:
            return failed(
                f"{changed.path}: GitHub sent no patch, so added overrides are unverified"
            )
        hits.extend(_scan_added_lines(ctx, changed.path, changed.patch))
    if hits:
        more = f" (and {len(hits) - 1} more)" if len(hits) > 1 else ""
        return failed(f"{hits[0]}{more}: overrides model architecture without native support")
    note = f"; allowed: {'; '.join(allowed)}" if allowed else ""
    flags = "/".join(ctx.policy.arch.flags)
    return passed(
        f"no {flags} or model-config edits in {len(scripts)} script(s) "
        f"and {len(masters)} master config(s){note}"
    )


def _scripts(ctx: JudgeContext) -> list[str]:
    paths = {f.path for f in ctx.changed_scripts}
    for entry in ctx.changed_entries:
        read = ctx.script_for(entry)
        if read is not None:
            paths.add(read.path)
    return sorted(paths)


def _prefix_of(path: str) -> str:
    return path.rsplit("/", 1)[-1].split("_", 1)[0]


def _scan_script(ctx: JudgeContext, facts: ScriptFacts, text: str) -> tuple[list[str], list[str]]:
    arch = ctx.policy.arch
    path = facts.path
    hits: list[str] = []
    allowed: list[str] = []
    prefix = _prefix_of(path)
    for arg in find_args(facts, arch.flags):
        where = f"{path}:{arg.line} {arg.flag} {arg.value or ''}".rstrip()
        rule = next(
            (
                a
                for a in arch.allowlist
                if a.model_prefix == prefix
                and a.flag == arg.flag
                and a.contains in (arg.value or "")
            ),
            None,
        )
        (allowed if rule else hits).append(f"{where} ({rule.reason})" if rule else where)
    flagged = {arg.line for arg in find_args(facts, arch.flags)}
    for number, line in enumerate(text.splitlines(), start=1):
        if number not in flagged and _is_override_line(ctx, line):
            hits.append(f"{path}:{number} {line.strip()[:120]}")
    return hits, allowed


def _is_override_line(ctx: JudgeContext, line: str) -> bool:
    code = line.split("#", 1)[0] if not line.lstrip().startswith("#") else ""
    if not code.strip():
        return False
    arch = ctx.policy.arch
    if any(
        re.search(rf"[\"']?\b{re.escape(key)}\b[\"']?\s*[:=]", code) for key in arch.config_keys
    ):
        return True
    return any(re.search(pattern, code) for pattern in arch.edit_patterns)


def _scan_added_lines(ctx: JudgeContext, path: str, patch: str) -> list[str]:
    hits = []
    for line in patch.splitlines():
        if not line.startswith("+") or line.startswith("+++"):
            continue
        body = line[1:]
        if any(flag in body for flag in ctx.policy.arch.flags) or _is_override_line(ctx, body):
            hits.append(f"{path} (added line) {body.strip()[:120]}")
    return hits
