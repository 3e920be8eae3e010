"""Compare one server launch with an upstream recipe the way an engineer reads both (pure).

Both sides become {canonical flag: value}: flags read through the engine's parser rules
(parse/benchmark/engine_flags.py: aliases, `_`, abbreviations), `--flag=value` and `--flag value`
alike, vLLM's dotted form (`--attention-config.backend X`) folded into the JSON value it
abbreviates, JSON values parsed, values equal to the engine's default dropped, and the profile's
declared equivalences applied (flag equivalences and environment equivalences alike on both sides:
a launch that gets `VLLM_ROCM_USE_AITER=1` exported runs `--moe-backend aiter`). The recipe command
is the one for the same model and, where the recipe distinguishes, the same SKU; among several, the
closest. A major arg differs when one side lacks it or the values disagree; for a JSON value the
recipe's settings must be present with equal values in the script's (extra script keys are
InferenceX's own). Values the sweep fills in (`$TP`) are bound from the configuration point; one
that stays unbound cannot agree, except a parallel size the sweep sets (`--tp "$TP"`, `--dp "$TP"`
under SGLang DP attention), which is compared by mode.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from signoff.parse.benchmark.engine_flags import canonical_flag
from signoff.parse.benchmark.launch import Arg, ServerLaunch
from signoff.parse.recipes.document import RecipeCommand, RecipeDoc
from signoff.policy import Policy
from signoff.rules.recipe import MajorArg, RecipeEngineRules

Value = object  # parsed: bool, int, float, lower-cased str, dict or list (JSON)
DiffKind = Literal["missing", "extra", "differs", "unbound", "unreadable"]
_VAR = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")
# Checkpoint-name suffixes that are not the model family: size, active size, precision, tuning.
_SIZE = re.compile(
    r"^(?:\d+(?:\.\d+)?[bmk]|a\d+(?:\.\d+)?b|fp\d+|nvfp4|mxfp\d|bf16|int\d|w\d+a\d+"
    r"|awq|gptq|instruct|it|chat|base|\d{4})$"
)


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ArgDiff(Frozen):
    flag: str
    kind: DiffKind  # missing: only the recipe has it; extra: only the script; differs;
    # unbound: the script's value depends on a variable the configuration does not bind;
    # unreadable: a JSON-valued arg whose script value is not a JSON object
    script: str | None = None  # as written (None: absent, "" a switch)
    recipe: str | None = None


class CommandResult(Frozen):
    command: RecipeCommand
    diffs: tuple[ArgDiff, ...]
    compared: tuple[str, ...]  # major flags present on either side
    informational: tuple[str, ...]  # other script flags the command lacks (InferenceX tuning)
    decisions: tuple[str, ...]  # maintainer decisions (equivalences) that were applied


class LaunchComparison(Frozen):
    looked_for: str  # "`amd/MiniMax-M3-MXFP4` (vllm) on mi355x"
    best: CommandResult | None  # None: no recipe command for this model and hardware


class _Side:
    """One command read into canonical flags with parsed values."""

    def __init__(self) -> None:
        self.values: dict[str, Value] = {}
        self.shown: dict[str, str] = {}
        self.decisions: list[str] = []
        self.swept: frozenset[int] = frozenset()  # the sizes its configuration point sweeps


def compare_launch(
    launch: ServerLaunch,
    config: dict[str, str],
    docs: Sequence[RecipeDoc],
    *,
    model: str,
    sku: str | None,
    policy: Policy,
    every_flag: bool = False,
) -> LaunchComparison:
    """The recipe command closest to the launch for its model and SKU, with what differs.

    `every_flag`: every flag of the launch must agree, not only the major ones (the rule before
    InferenceX#1908).
    """
    engine = launch.engine
    served = _served_model(launch, config) or model
    looked_for = f"`{served}` ({engine})" + (f" on {sku}" if sku else "")
    rules = policy.recipe.engines.get(engine)
    candidates = _candidates(docs, engine, served, sku, policy)
    if rules is None or not candidates:
        return LaunchComparison(looked_for=looked_for, best=None)
    script = _read_side(launch.args, engine, policy, rules, config)
    # the environment the launch gets documents flags on the script's side as on the recipe's
    _apply_env_equivalences(script, tuple(sorted(launch.env.items())), engine, policy, rules)
    script.swept = _swept_values(rules, config)
    if every_flag:
        listed = {m.flag for m in rules.major_args()}
        extra = tuple(sorted(flag for flag in script.values if flag not in listed))
        rules = rules.model_copy(update={"major": (*rules.major, *extra)})
    mentions = _mentions(docs, engine, policy, rules)
    results = [_compare(script, c, engine, policy, rules, mentions) for c in candidates]
    best = min(
        enumerate(results), key=lambda pair: (len(pair[1].diffs), -_shared(pair[1]), pair[0])
    )[1]
    return LaunchComparison(looked_for=looked_for, best=best)


def _shared(result: CommandResult) -> int:
    """Major args present on both sides: among equally close commands, the one that documents
    what the script sets (an opt-in feature's command over the bare one)."""
    one_sided = sum(1 for d in result.diffs if d.kind in ("missing", "extra"))
    return len(result.compared) - one_sided


# --- which recipe command -------------------------------------------------------------------


def _served_model(launch: ServerLaunch, config: dict[str, str]) -> str | None:
    if launch.model is None:
        return None
    value = _bind(launch.model.strip("'\""), config)
    return None if "$" in value or not value else value


def _candidates(
    docs: Sequence[RecipeDoc], engine: str, model: str, sku: str | None, policy: Policy
) -> list[RecipeCommand]:
    """Commands for the model on this SKU; the SKU-less sections when none names the SKU."""
    serving = [
        command
        for doc in docs
        for command in doc.commands
        if command.engine == engine and _serves(command, model, doc.title)
    ]
    tagged = [(c, hardware_of(c, policy)) for c in serving]
    if sku is not None:
        exact = [c for c, tags in tagged if sku in tags]
        if exact:
            return exact
    return [c for c, tags in tagged if not tags]


def _serves(command: RecipeCommand, model: str, title: str) -> bool:
    """A concrete model must be the same checkpoint; a placeholder (`$MODEL`, `{{MODEL_NAME}}`)
    or missing one counts only when the section or document names the model's family."""
    wanted = _name(model)
    given = command.model
    if given and not any(mark in given for mark in ("$", "{{", "<")):
        return _name(given) == wanted
    text = " ".join((title, *command.section, command.source.rsplit("/", 1)[-1]))
    return names_family(text, model)


def _name(model: str) -> str:
    return model.strip("'\"").rstrip("/").rsplit("/", 1)[-1].lower()


def family(model: str) -> str:
    """`gpt-oss-120b` -> `gpt-oss`, `MiniMax-M3-MXFP4` -> `minimax-m3`: size and precision
    suffixes dropped, so a recipe page about the family names this checkpoint."""
    parts = re.split(r"[-_]", _name(model))
    while len(parts) > 1 and _SIZE.match(parts[-1]):
        parts.pop()
    return "-".join(parts)


def names_family(text: str, model: str) -> bool:
    """Whether text names the model's family as a whole word (`qwen3` is not `qwen3.5`)."""
    norm = re.sub(r"[\s_]+", "-", text.lower())
    pattern = rf"(?<![a-z0-9.]){re.escape(family(model))}(?![a-z0-9]|\.\d)"
    return re.search(pattern, norm) is not None


def hardware_of(command: RecipeCommand, policy: Policy) -> frozenset[str]:
    """The SKUs a command is for: its generated hardware, else the SKUs its section names
    (a SKU or its alias, else a generation such as Blackwell, else a brand such as AMD)."""
    if command.hardware:
        return frozenset(command.hardware)
    # "8x H200" / "8×H200" name the SKU; the count in front is not part of the word
    text = re.sub(r"(?<![a-z0-9])\d+\s*[x×]\s*", " ", " ".join(command.section).lower())
    words = set(re.findall(r"[a-z0-9]+", text))
    table = policy.recipe.hardware
    named = {sku for sku, hw in table.items() if sku in words or words & set(hw.aliases)}
    if named:
        return frozenset(named)
    by_generation = {sku for sku, hw in table.items() if hw.generation in words}
    if by_generation:
        return frozenset(by_generation)
    brands = {"amd": {"amd", "rocm", "instinct"}, "nvidia": {"nvidia", "cuda"}}
    return frozenset(sku for sku, hw in table.items() if words & brands.get(hw.brand, set()))


# --- reading one side -----------------------------------------------------------------------


def _read_side(
    args: Iterable[Arg], engine: str, policy: Policy, rules: RecipeEngineRules,
    config: dict[str, str],
) -> _Side:  # fmt: skip
    side = _Side()
    known = [m.flag for m in rules.major_args()]
    for arg in args:
        name, value_text = _split_inline(arg)
        base, _, path = name.partition(".") if name.startswith("--") else (name, "", "")
        flag = canonical_flag(base, engine, policy, known)
        raw = None if value_text is None else _bind(value_text, config)
        value = _parse(raw)
        if path:
            value = _merge(side.values.get(flag), path.split("."), value)
        side.values[flag] = value
        side.shown[flag] = name + ("" if raw is None else f" {raw}")
    _apply_equivalences(side, engine, policy, rules, config)
    for flag, default in rules.defaults.items():
        if flag in side.values and side.values[flag] == _parse(default):
            del side.values[flag]
    return side


def _split_inline(arg: Arg) -> tuple[str, str | None]:
    """`--flag=value` written as one word (YAML list items often are) into flag and value."""
    if arg.flag.startswith("--") and "=" in arg.flag and arg.value is None:
        flag, value = arg.flag.split("=", 1)
        return flag, value
    return arg.flag, arg.value


def _bind(value: str, config: dict[str, str]) -> str:
    """`$TP` / `${TP}` replaced by the configuration's value where it binds one."""
    return _VAR.sub(lambda m: config.get(m.group(1), m.group(0)), value)


def _parse(raw: str | None) -> Value:
    if raw is None:
        return True
    text = raw.strip().strip("'\"") if raw.strip()[:1] in "'\"" else raw.strip()
    if text[:1] in "{[":
        try:
            return _lower(json.loads(text))
        except ValueError:
            return text.lower()
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        number = float(lowered)
    except ValueError:
        return lowered
    return int(number) if number.is_integer() else number


def _lower(value: object) -> Value:
    if isinstance(value, dict):
        return {str(k): _lower(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_lower(v) for v in value]
    return value.lower() if isinstance(value, str) else value


def _merge(current: Value, path: list[str], value: Value) -> Value:
    """`--attention-config.backend X` is `--attention-config '{"backend": "X"}'`, merged."""
    out = dict(current) if isinstance(current, dict) else {}
    if len(path) == 1:
        out[path[0]] = value
    else:
        out[path[0]] = _merge(out.get(path[0]), path[1:], value)
    return out


def _apply_equivalences(
    side: _Side, engine: str, policy: Policy, rules: RecipeEngineRules, config: dict[str, str]
) -> None:
    for rule in policy.recipe.equivalences:
        if rule.engine != engine:
            continue
        wanted = _pairs(rule.args, engine, policy, rules)
        if all(side.values.get(f) == v for f, v in wanted):
            for flag, _ in wanted:
                side.values.pop(flag, None)
            for flag, value in _pairs(rule.same_as, engine, policy, rules):
                side.values[flag] = value
            side.decisions.append(rule.decision)


def _apply_env_equivalences(
    side: _Side, env: tuple[tuple[str, str], ...], engine: str, policy: Policy,
    rules: RecipeEngineRules,
) -> None:  # fmt: skip
    """The recipe's environment documents the flags it is the explicit form of (a flag the
    recipe sets itself keeps its own value)."""
    given = {f"{name}={value}" for name, value in env}
    for rule in policy.recipe.env_equivalences:
        if rule.engine != engine or not set(rule.env) <= given:
            continue
        for flag, value in _pairs(rule.args, engine, policy, rules):
            if flag not in side.values:
                side.values[flag] = value
                side.shown[flag] = f"{' '.join(rule.env)} (as {flag})"
                side.decisions.append(rule.decision)


def _pairs(
    items: Iterable[str], engine: str, policy: Policy, rules: RecipeEngineRules
) -> list[tuple[str, Value]]:
    known = [m.flag for m in rules.major_args()]
    out: list[tuple[str, Value]] = []
    for item in items:
        flag, _, value = item.replace("=", " ", 1).partition(" ")
        out.append((canonical_flag(flag, engine, policy, known), _parse(value or None)))
    return out


def _mentions(
    docs: Sequence[RecipeDoc], engine: str, policy: Policy, rules: RecipeEngineRules
) -> set[tuple[str, str]]:
    """`--flag value` options the recipes document in prose, as (flag, canonical value)."""
    known = [m.flag for m in rules.major_args()]
    found: set[tuple[str, str]] = set()
    for doc in docs:
        for flag, value in doc.mentions:
            found.add((canonical_flag(flag, engine, policy, known), _key(_parse(value))))
    return found


def _key(value: Value) -> str:
    return json.dumps(value, sort_keys=True)


# --- comparing ------------------------------------------------------------------------------


def _compare(
    script: _Side, command: RecipeCommand, engine: str, policy: Policy,
    rules: RecipeEngineRules, mentions: set[tuple[str, str]],
) -> CommandResult:  # fmt: skip
    recipe = _read_side(command.args, engine, policy, rules, {})
    _apply_env_equivalences(recipe, command.env, engine, policy, rules)
    diffs: list[ArgDiff] = []
    compared: list[str] = []
    for major in rules.major_args():
        flag = major.flag
        mine, theirs = (
            _project(script.values.get(flag), major),
            _project(recipe.values.get(flag), major),
        )
        if mine is None and theirs is None:
            continue
        compared.append(flag)
        swept_ref = _swept_reference(mine, rules)
        if _swept_agrees(flag, mine, theirs, rules, script.swept) or (
            swept_ref and _swept_mode_agrees(flag, theirs, rules)
        ):
            script.decisions.append(rules.swept_sizes.decision if rules.swept_sizes else "")
            continue
        diff = _diff(major, mine, theirs, script, recipe, mentions, swept=swept_ref)
        if diff is not None:
            diffs.append(diff)
    return CommandResult(
        command=command,
        diffs=tuple(diffs),
        compared=tuple(compared),
        informational=_informational(script, recipe, rules),
        decisions=tuple(sorted(set(script.decisions + recipe.decisions))),
    )


def _swept_values(rules: RecipeEngineRules, config: dict[str, str]) -> frozenset[int]:
    """The parallel sizes the configuration point sets (`TP=4` -> 4); none without a point."""
    sizes = rules.swept_sizes
    if sizes is None:
        return frozenset()
    values = (config.get(name, "") for name in sizes.vars)
    return frozenset(int(v) for v in values if v.isdigit())


def _swept_agrees(
    flag: str, mine: Value | None, theirs: Value | None, rules: RecipeEngineRules,
    swept: frozenset[int],
) -> bool:  # fmt: skip
    """A size the sweep chose (the launch's value is its point's own TP/EP_SIZE; 1 is the
    dropped default) agrees with the recipe's other size of the same mode: a `size` flag is not
    compared, a `mode` flag must be on in both. A hard-coded other size is compared as written."""
    sizes = rules.swept_sizes
    value = 1 if mine is None else mine
    if sizes is None or isinstance(value, bool) or not isinstance(value, int):
        return False
    if value not in swept or mine == theirs:  # equal sizes agree without the rule
        return False
    if flag in sizes.size:
        return True
    return flag in sizes.mode and mine is not None and theirs is not None


def _swept_reference(value: Value | None, rules: RecipeEngineRules) -> bool:
    """The launch's value is a sweep size variable no configuration binds (`--tp "$TP"` in a
    script read on its own): a size the sweep sets, whatever it is."""
    sizes = rules.swept_sizes
    if sizes is None or not isinstance(value, str):
        return False
    match = _VAR.fullmatch(value)
    return match is not None and match[1].upper() in {v.upper() for v in sizes.vars}


def _swept_mode_agrees(flag: str, theirs: Value | None, rules: RecipeEngineRules) -> bool:
    """A swept size agrees by mode: a `size` flag is not compared, a `mode` flag is on in both
    (the swept value is the mode's size, as SGLang's DP attention runs `--dp "$TP"`)."""
    sizes = rules.swept_sizes
    assert sizes is not None
    return flag in sizes.size or (flag in sizes.mode and theirs is not None)


def _project(value: Value | None, major: MajorArg) -> Value | None:
    """Only the major keys of a JSON value (none left: as if absent)."""
    if value is None or not major.keys or not isinstance(value, dict):
        return value
    kept = {k: value[k] for k in major.keys if k in value}
    return kept or None


def _diff(
    major: MajorArg, mine: Value | None, theirs: Value | None, script: _Side, recipe: _Side,
    mentions: set[tuple[str, str]], *, swept: bool = False,
) -> ArgDiff | None:  # fmt: skip
    """What differs on one major arg; `swept`: the script's value is a sweep size variable
    (a mode the recipe lacks is extra, not unbound)."""
    flag = major.flag
    shown_s, shown_r = script.shown.get(flag), recipe.shown.get(flag)
    json_valued = bool(major.keys) or isinstance(theirs, dict)
    if mine is not None and json_valued and not isinstance(mine, dict):
        return ArgDiff(flag=flag, kind="unreadable", script=shown_s, recipe=shown_r)
    if mine is not None and "$" in _key(mine) and not swept:
        return ArgDiff(flag=flag, kind="unbound", script=shown_s, recipe=shown_r)
    if theirs is None:
        if (flag, _key(mine)) in mentions:
            return None  # an option the recipe documents in its prose
        return ArgDiff(flag=flag, kind="extra", script=shown_s)
    if mine is None:
        return ArgDiff(flag=flag, kind="missing", recipe=shown_r)
    if _agrees(_as_checkpoints(theirs, major), _as_checkpoints(mine, major)):
        return None
    return ArgDiff(flag=flag, kind="differs", script=shown_s, recipe=shown_r)


def _as_checkpoints(value: Value, major: MajorArg) -> Value:
    """A JSON value with its checkpoint keys reduced to the checkpoint name (`_name`)."""
    if not major.checkpoints or not isinstance(value, dict):
        return value
    return {
        k: _name(v) if k in major.checkpoints and isinstance(v, str) else v
        for k, v in value.items()
    }


def _agrees(recipe: Value, script: Value) -> bool:
    """The recipe's setting holds in the script's: every recipe key present and equal."""
    if isinstance(recipe, dict):
        return isinstance(script, dict) and all(
            key in script and _agrees(value, script[key]) for key, value in recipe.items()
        )
    if isinstance(recipe, list):
        return (
            isinstance(script, list)
            and len(recipe) == len(script)
            and all(_agrees(a, b) for a, b in zip(recipe, script, strict=True))
        )
    return recipe == script


def _informational(script: _Side, recipe: _Side, rules: RecipeEngineRules) -> tuple[str, ...]:
    major = {m.flag for m in rules.major_args()}
    return tuple(
        sorted(
            flag
            for flag, value in script.values.items()
            if flag not in major and recipe.values.get(flag) != value
        )
    )
