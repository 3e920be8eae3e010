"""Benchmarks run the model's real architecture.

Why: cutting model FLOPs (skipping indexer layers, trimming experts) makes numbers incomparable;
making the same computation faster is fair. How it is judged: on what the scripts actually run. A
script the PR changes may run under any configuration, so it is read with nothing bound (every
condition on the sweep's variables undecided); the script of a changed master-config entry that the
PR leaves alone is read per swept configuration (benchmark and eval jobs). Every server launch and
other command that is reached, or whose reachability cannot be decided, is scanned for architecture
overrides (`--hf-overrides`, `--json-model-override-args`, in every spelling the engine's parser
accepts: `--hf_overrides`, unique prefixes, `--hf-overrides.key`; inside any word of another
command, which may hand a command line over as one string: `env -S`, `python3 -c`), for `sed`/`jq`
edits of model config files and for override keys, flags or such edits (`num_hidden_layers` set by
inline Python) in heredocs it writes or feeds to a program; dead branches, `false &&`, `true ||`,
uncalled functions and comments never count. Lines the PR adds to master configs are scanned too. A
file a script sources that the PR adds or changes (the shared library included) runs as the script
runs it, its functions with the head's bodies; a vLLM/SGLang `--config` YAML the PR changes or the
script writes from a heredoc gives the launch its flags; any other file the PR changes that a
launch names (a model-config path, a speculative config, a tokenizer) is not read as the engine
reads it and FAILs. A script run by file (`bash x.sh`, `./x.sh`, `python3 x.py`, a command name
re-pointed by PATH, `hash -p`, `enable -f`, `BASH_ENV`) is not read: a call that may run one the PR
adds or changes, or fetches from a URL the profile does not trust, FAILs (see judge/script_files).
Each hit FAILs with the flag, the whole value and
the line, unless the profile's allowlist names it for that model with the maintainer decision it
rests on (the allowlist ships empty). From the later prompt (E11) it also bans
`publish_events_and_metrics: false`: a disabling value on a line the PR adds FAILs, and every
recipe a changed Dynamo TensorRT-LLM benchmark runs (changed or not) must set it enabled; an
omitted or unreadable value FAILs as "could not be verified" (signoff does not read the image's
default). N/A when no script or master config changed. To satisfy it: drop the override; set
`publish_events_and_metrics: true` in the recipe.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterator
from functools import lru_cache

from signoff.evidence import ChangedFile
from signoff.judge import script_entries, sourced
from signoff.judge.baseline import base_wants, settled
from signoff.judge.checks.no_arch_hacks import banned_settings
from signoff.judge.context import JudgeContext, path_matches
from signoff.judge.model import Finding, Want, failed, not_applicable, passed
from signoff.judge.recipe_settings import unread_settings
from signoff.judge.script_files import in_checkout, unread_script_file
from signoff.parse.benchmark.engine_flags import may_be_flag, spelled
from signoff.parse.benchmark.launch import Arg, ScriptRun
from signoff.parse.benchmark.script_text import Span, command_spans_at
from signoff.parse.diff import patch_lines
from signoff.parse.recipes.added_settings import is_command_key
from signoff.policy import EngineFlags, Policy
from signoff.rules.no_arch_hacks import ArchOverrideAllow, ArchPolicy

ID = "no-arch-hacks"
NAME = "no architecture hacks"
CONFIG = ArchPolicy  # its profile section, rules.<ID>.config


# Commands other than a recognised server read flags their own way; only the spellings every
# argparse-style parser shares are followed there (no abbreviations: `curl --json` is not one).
_OTHER_COMMAND = EngineFlags(abbreviations=False)
# A long flag anywhere in a word (`=value` is cut off by `spelled`).
_FLAG_TOKEN = re.compile(r"(?<![\w-])--[A-Za-z0-9][\w.=-]*")


def evaluate(ctx: JudgeContext) -> Finding:
    masters = [f for f in ctx.evidence.changed_files if f.path in ctx.changed_master_files]
    runs, problem = _runs(ctx)
    banned = banned_settings.problem(ctx)  # E11+: read first, a recipe alone is in scope
    if banned:
        return failed(banned)
    unpatched = next((f.path for f in _changed_recipes(ctx) if f.patch is None), None)
    if unpatched is not None:
        return failed(f"{unpatched}: GitHub sent no patch, so added overrides are unverified")
    recipe_hits = _recipe_hits(ctx)  # a multi-node recipe's server settings are server args
    if recipe_hits:
        return _overriding(recipe_hits)
    read = {f.path for f in ctx.changed_scripts} | {run.path for run, _ in runs}
    for changed in (*_changed_recipes(ctx), *masters):  # the variables and commands they add
        settings = unread_settings(ctx, changed, read)
        if settings:
            return failed(f"{settings}, so overrides there are unverified")
    if not runs and not masters and not problem:
        return not_applicable("no benchmark script or master config is changed")
    if problem:
        return failed(problem)
    hits: list[str] = []
    allowed: list[str] = []
    runs = [(settled(ctx, run), prefix) for run, prefix in runs]
    for run, prefix in runs:
        if not run.complete:
            why = run.problems[0] if run.problems else "unread"
            return failed(
                f"{run.path} could not be fully read ({why}), so overrides are unverified"
            )
        _scan_run(ctx.policy, run, prefix, hits, allowed)
        _scan_writes(ctx, run, hits)
    for changed in masters:
        if changed.patch is None:
            return failed(
                f"{changed.path}: GitHub sent no patch, so added overrides are unverified"
            )
        hits.extend(_scan_added_lines(ctx.policy, changed.path, changed.patch))
    hits = list(dict.fromkeys(hits))
    if hits:
        return _overriding(hits)
    judged = {run.path for run, _ in runs}
    for run, _ in runs:
        unread = unread_script_file(ctx, run, judged)
        if unread:
            return failed(f"{unread}, so overrides there are unverified")
    note = f"; allowed: {'; '.join(dict.fromkeys(allowed))}" if allowed else ""
    scripts = len({run.path for run, _ in runs})
    flags = "/".join(ctx.policy.arch.flags)
    return passed(
        f"no {flags} or model-config edit in what {scripts} script(s) run "
        f"({len(runs)} reading(s)) or in the lines {len(masters)} master config(s) add{note}"
    )


def wants(ctx: JudgeContext) -> Iterator[Want]:
    """The recipes whose banned settings the later prompt reads whole (E11+), changed files
    the scripts source (judge/sourced), the master configs at the head when a changed script no
    changed entry runs (judge/script_entries), and the base texts of changed scripts whose
    reading has gaps (judge/baseline)."""
    yield from banned_settings.wants(ctx)
    yield from sourced.wants(ctx)
    yield from script_entries.wants(ctx)
    yield from base_wants(ctx)


def _runs(ctx: JudgeContext) -> tuple[list[tuple[ScriptRun, str]], str]:
    """(run, model prefix) for every reading to scan, or why the scripts cannot be read."""
    if ctx.master_problems:  # which entries changed, and so what they run, is unknown
        return [], f"the configs the PR runs cannot be determined: {ctx.master_problems[0]}"
    changed = sorted({f.path for f in ctx.changed_scripts})
    out: list[tuple[ScriptRun, str]] = []
    for path in changed:
        if ctx.parsed_script(path) is None:
            return [], f"{path} could not be read at the pinned head, so overrides are unverified"
        out += [(run, _prefix_of(path)) for run in ctx.script_runs_for_path(path)]
    jobs = tuple(ctx.policy.sweep_env.jobs) or ("benchmark",)
    for entry in ctx.changed_entries:
        if entry.multinode:
            continue
        runs = ctx.script_runs(entry, jobs=jobs)
        out += [(run, entry.model_prefix) for run in runs if run.path not in changed]
    return out, ""


def _prefix_of(path: str) -> str:
    return path.rsplit("/", 1)[-1].split("_", 1)[0]


def _scan_run(
    policy: Policy, run: ScriptRun, prefix: str, hits: list[str], allowed: list[str]
) -> None:
    arch = policy.arch
    where = f" ({run.label})" if run.label else ""
    chat = {_dashed(flag) for flag in policy.spec_decode.server_chat_template_flags}
    for launch in run.launches:
        for flag, path in launch.reads:  # a file the PR wrote, read by the engine, not by us
            if _dashed(flag) not in chat:
                hits.append(
                    f"{run.path}:{launch.line} {flag} `{path}` (a file this PR adds or changes, "
                    f"which the engine reads and signoff does not read as it does)"
                    f"{where}{_undecided(launch.why)}"
                )
        for word in launch.opaque:  # a run-time word in a flag's place may hold an override
            hits.append(
                f"{run.path}:{launch.line} {word} (known only at run time, could be an override)"
                f"{where}{_undecided(launch.why)}"
            )
        for arg in launch.args:
            if any(may_be_flag(arg.flag, flag, launch.engine, policy) for flag in arch.flags):
                text = f"{run.path}:{arg.line} {_shown(arg)}{where}{_undecided(launch.why)}"
                rule = _allowed(arch.allowlist, prefix, arg, launch.engine, policy)
                (allowed if rule else hits).append(
                    f"{text} ({rule.reason}; {rule.decision})" if rule else text
                )
    for command in run.commands:
        text = " ".join(command.argv)
        flagged = _flag_in(command.argv, policy)
        if flagged or _edits_model_config(policy, text):
            shown = flagged or text[:120]
            hits.append(f"{run.path}:{command.line} {shown}{where}{_undecided(command.why)}")
    for heredoc in run.heredocs:
        for offset, body_line in enumerate(heredoc.body.splitlines(), start=1):
            if _edits_model_config(policy, body_line) or _flag_in((body_line,), policy):
                at = heredoc.line + offset
                shown = body_line.strip()[:120]
                hits.append(f"{run.path}:{at} {shown}{where}{_undecided(heredoc.why)}")


def _scan_writes(ctx: JudgeContext, run: ScriptRun, hits: list[str]) -> None:
    """Commands of the script's own text that run (or may) and write a model config through
    a redirect (`arch.write_patterns`); a line another rule already named is not named twice."""
    patterns = ctx.policy.arch.write_patterns
    script = ctx.parsed_script(run.path) if patterns and run.ran else None
    writing = _writing_spans(script.text, patterns) if script is not None else ()
    ran = {record.offset: record for record in run.ran} if writing else {}
    where = f" ({run.label})" if run.label else ""
    for span in writing:
        record = ran.get(span.offset)
        if record is None:
            continue
        at = f"{run.path}:{span.first} "
        if not any(hit.startswith(at) for hit in hits):
            hits.append(f"{at}{span.text[:120]}{where}{_undecided(record.why)}")


@lru_cache(maxsize=256)
def _writing_spans(text: str, patterns: tuple[str, ...]) -> tuple[Span, ...]:
    """The commands of `text` whose own text matches a write pattern, found once per script
    (a mass edit reads one script under many configurations); a text no pattern matches
    anywhere, its continuations joined, is not split into commands at all."""
    joined = text.replace("\\\n", " ")
    if not any(re.search(pattern, joined) for pattern in patterns):
        return ()
    return tuple(
        span
        for span in command_spans_at(text)
        if any(re.search(pattern, span.text) for pattern in patterns)
    )


def _dashed(flag: str) -> str:
    return flag.replace("_", "-")


def _shown(arg: Arg) -> str:
    if arg.value is None:
        return arg.flag
    return f"{arg.flag}={arg.value}" if arg.joined else f"{arg.flag} {arg.value}"


def _undecided(why: str) -> str:
    return f" [may run: {why}]" if why else ""


def _allowed(
    allowlist: tuple[ArchOverrideAllow, ...], prefix: str, arg: Arg, engine: str, policy: Policy
) -> ArchOverrideAllow | None:
    for rule in allowlist:
        if (
            rule.model_prefix == prefix
            and may_be_flag(arg.flag, rule.flag, engine, policy)
            and rule.contains in (arg.value or "")
        ):
            return rule
    return None


def _flag_in(argv: tuple[str, ...], policy: Policy) -> str:
    """An override flag passed to a command that is not a recognised server, as a word or
    inside one: a command line handed over as one string (`env -S '...'`, `python3 -c
    'os.system("vllm serve ... --hf-overrides ...")'`, `ssh host '...'`) runs the flag too."""
    for word in argv:
        for token in _FLAG_TOKEN.findall(word) if "--" in word else ():
            if any(_same_flag(token, flag, policy) for flag in policy.arch.flags):
                return word[:120]
    return ""


def _same_flag(word: str, flag: str, policy: Policy) -> bool:
    return spelled(word, _OTHER_COMMAND) == spelled(flag, _OTHER_COMMAND)


def _edits_model_config(policy: Policy, line: str) -> bool:
    return _edits(policy.arch.config_keys, policy.arch.edit_patterns, line)


@lru_cache(maxsize=4096)  # each reading of a script shows the same command texts again
def _edits(keys: tuple[str, ...], edits: tuple[str, ...], line: str) -> bool:
    written, edit = _config_patterns(keys, edits)
    return any(p.search(line) for p in written) or any(p.search(line) for p in edit)


@lru_cache(maxsize=8)
def _config_patterns(
    keys: tuple[str, ...], edits: tuple[str, ...]
) -> tuple[tuple[re.Pattern[str], ...], tuple[re.Pattern[str], ...]]:
    """The profile's config keys (set as `key:` or `key=`) and edit regexes, compiled once:
    every line of every reading is tested."""
    written = tuple(re.compile(rf"[\"']?\b{re.escape(key)}\b[\"']?\s*[:=]") for key in keys)
    return written, tuple(re.compile(pattern) for pattern in edits)


def _overriding(hits: list[str]) -> Finding:
    more = f" (and {len(hits) - 1} more)" if len(hits) > 1 else ""
    return failed(f"{hits[0]}{more}: overrides model architecture without native support")


def _recipe_hits(ctx: JudgeContext) -> list[str]:
    """The lines the PR adds to multi-node recipes (YAML under `paths.multi_node_scripts`)
    that set an override: a flag as a master config would (`--hf-overrides=...` in a list of
    settings), or a server setting under its config key (`hf-overrides:`,
    `json-model-override-args:`), which the recipe's launcher hands on as that flag. A recipe
    GitHub sent no patch for is reported by the checks that read recipes whole."""
    hits: list[str] = []
    for changed in _changed_recipes(ctx):
        if changed.patch is None:
            continue  # reported before any hit
        hits.extend(_scan_added_lines(ctx.policy, changed.path, changed.patch, keys=True))
        hits.extend(_checkout_files_named(ctx, changed.path, changed.patch))
    return list(dict.fromkeys(hits))


def _changed_recipes(ctx: JudgeContext) -> list[ChangedFile]:
    """The multi-node recipes (YAML under `paths.multi_node_scripts`) the PR adds or changes
    (one GitHub sent no patch for is unverified)."""
    return [
        changed
        for changed in ctx.evidence.changed_files
        if changed.status != "removed"
        and changed.path.endswith((".yaml", ".yml"))
        and path_matches(changed.path, ctx.policy.paths.multi_node_scripts)
    ]


# A YAML line setting a key to one scalar (`  tokenizer-path: /infmax-workspace/tools/tok`).
_YAML_SCALAR = re.compile(r"\s*(?:-\s+)?[\"']?([A-Za-z0-9_.-]+)[\"']?\s*:\s+[\"']?([^\s\"'#]+)")


def _checkout_files_named(ctx: JudgeContext, path: str, patch: str) -> list[str]:
    """Added recipe settings naming a file the PR adds or changes where the job's containers
    see the checkout (`paths.checkout_mounts`: `model: path: /infmax-workspace/tools/m`, a
    `tokenizer-path`, `config`, `hf-config-path`): the engine reads it, and signoff does not
    read it as the engine does. A relative value is the orchestrator's or a hub id, not the
    checkout's."""
    scripts = ctx.policy.paths.benchmark_scripts  # read as scripts where they run
    changed = [
        f.path
        for f in ctx.evidence.changed_files
        if f.status != "removed" and not path_matches(f.path, scripts)
    ]
    hits: list[str] = []
    for added in patch_lines(patch).added:
        found = _YAML_SCALAR.match(added.text)
        if found is None or is_command_key(found[1]):
            continue  # a command the job runs is engine-patches' to read
        named = _mounted(found[2], path, ctx.policy.paths.checkout_mounts)
        inside = [f for f in changed if named and (f == named or f.startswith(f"{named}/"))]
        if inside:
            hit = inside[0]
            hits.append(
                f"{path}:{added.line} ({found[1]}) `{hit}` (a file this PR adds or changes, which "
                "the engine reads and signoff does not read as it does)"
            )
    return hits


def _mounted(value: str, recipe: str, mounts: tuple[str, ...]) -> str:
    """The checkout path an absolute value under a checkout mount names ("" for any other
    value: a relative one is the orchestrator's, another absolute one outside)."""
    if not value.startswith("/"):
        return ""
    path = in_checkout(value, recipe, mounts)
    return posixpath.normpath(path) if path and not path.startswith("/") else ""


# A YAML line's key (`  hf-overrides: {...}`, `- "json-model-override-args": ...`).
_YAML_KEY = re.compile(r"\s*(?:-\s+)?[\"']?([A-Za-z0-9_.-]+)[\"']?\s*:(?:\s|$)")


def _scan_added_lines(policy: Policy, path: str, patch: str, *, keys: bool = False) -> list[str]:
    hits = []
    for line in patch.splitlines():
        if not line.startswith("+") or line.startswith("+++"):
            continue
        body = line[1:]
        code = body.split("#", 1)[0] if not body.lstrip().startswith("#") else ""
        named = any(flag in code for flag in policy.arch.flags)
        key = _YAML_KEY.match(code) if keys else None
        named = named or (key is not None and key[1] in policy.arch.config_keys)
        if named or _flag_in(tuple(_words(code)), policy) or _edits_model_config(policy, code):
            hits.append(f"{path} (added line) {body.strip()[:120]}")
    return hits


def _words(text: str) -> list[str]:
    """A YAML line's flag-like words (`additional-settings: ["--hf_overrides={...}"]`)."""
    try:
        words = shlex.split(text.replace(",", " ").replace("[", " ").replace("]", " "))
    except ValueError:
        words = text.split()
    return [word.strip("\"'") for word in words]
