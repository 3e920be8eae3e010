"""vllm-project/recipes YAML read by its schema: the `vllm serve` commands its builder generates.

A model recipe (`models/<org>/<model>.yaml`) is a command generator: `model.base_args`, then per
variant (`variants.<v>.extra_args`, exact-hardware overrides), the serving strategy's parallel
flag and args, `strategy_overrides`, per-generation `hardware_overrides`, then the features (opt-in
ones each as an alternative, a feature's `modes` one at a time), with the last occurrence of a flag
winning, in the order recipes.vllm.ai's command synthesis uses. One command is produced per
(variant, SKU, single-node strategy, optional feature), with that path as its section; the
recipe's `guide` is Markdown and is read as such. A flat `key: value` file (`vllm serve --config`)
is one command. Nothing here runs the site's code; the schema's rules are restated.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import PurePosixPath
from typing import Any

import yaml

from signoff.parse.benchmark.launch import Arg
from signoff.parse.recipes.document import RecipeCommand, RecipeDoc, RecipeEngine
from signoff.parse.recipes.markdown_pages import read_markdown
from signoff.policy import Hardware, RecipeStrategy
from signoff.yamlload import load_yaml_with_lines

_FP4 = frozenset({"nvfp4", "fp4"})  # precisions the builder limits to NVIDIA Blackwell


class _Target:
    """One (variant, SKU) the builder can render, with the lookups its rules need."""

    def __init__(
        self, data: dict[str, Any], key: str, variant: dict[str, Any], hw_id: str, hw: Hardware
    ) -> None:
        self.data, self.key, self.variant, self.hw_id, self.hw = data, key, variant, hw_id, hw

    def keyed(self, table: object) -> dict[str, Any]:
        """A hardware-keyed block: exact SKU, then generation, then brand, then `default`."""
        block = _map(table)
        for name in (self.hw_id, self.hw.generation, self.hw.brand, "default"):
            if name in block:
                return _map(block[name])
        return {}

    def generation_block(self, table: object) -> dict[str, Any]:
        """A per-generation block, with `nvidia:` as the fallback for every NVIDIA GPU."""
        block = _map(table)
        found = block.get(self.hw.generation)
        if found is None and self.hw.brand == "nvidia":
            found = block.get("nvidia")
        return _map(found)


def read_yaml_recipe(
    source: str,
    text: str,
    *,
    engine: RecipeEngine,
    hardware: Mapping[str, Hardware],
    strategies: Mapping[str, RecipeStrategy],
) -> RecipeDoc:
    try:
        data, lines = load_yaml_with_lines(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        return RecipeDoc(source=source, problems=(f"{source}:{line}: not valid YAML",))
    except RecursionError:
        return RecipeDoc(source=source, problems=(f"{source}:1: YAML nested too deeply",))
    if isinstance(data, dict) and isinstance(data.get("model"), dict):
        return _model_recipe(source, data, lines, engine, hardware, strategies)
    if isinstance(data, dict) and data and all(_is_setting(k, v) for k, v in data.items()):
        return _config_file(source, data, lines, engine)
    return RecipeDoc(source=source, problems=(f"{source}:1: not a recipe format signoff reads",))


def _model_recipe(
    source: str,
    data: dict[str, Any],
    lines: dict[tuple[str | int, ...], int],
    engine: RecipeEngine,
    hardware: Mapping[str, Hardware],
    strategies: Mapping[str, RecipeStrategy],
) -> RecipeDoc:
    model = _map(data.get("model"))
    listed = _strings(data.get("compatible_strategies")) or ["single_node_tp"]
    commands: list[RecipeCommand] = []
    for target in _targets(data, hardware):
        line = lines.get(("variants", target.key), lines.get(("model",), 1))
        served = str(target.variant.get("model_id") or model.get("model_id") or "") or None
        for name in (s for s in listed if s in strategies):
            base = _base_args(target, name, strategies[name])
            for label, extra in _feature_choices(target):
                section = (f"variant {target.key}", target.hw_id, name, *label)
                commands.append(
                    RecipeCommand(
                        source=source,
                        section=section,
                        engine=engine,
                        model=served,
                        args=_as_args(_last_wins(base + extra), line),
                        env=_env(target),
                        line=line,
                        hardware=(target.hw_id,),
                    )
                )
    guide = _guide(source, data, lines)
    title = str(_map(data.get("meta")).get("title") or model.get("model_id") or "")
    return RecipeDoc(
        source=source,
        title=title,
        commands=(*commands, *guide.commands),
        mentions=guide.mentions,
        problems=guide.problems,
    )


def _targets(data: dict[str, Any], hardware: Mapping[str, Hardware]) -> Iterator[_Target]:
    """Every (variant, SKU) the builder would render: SKUs the recipe or variant rules out and
    FP4 off Blackwell are skipped."""
    variants = _map(data.get("variants")) or {"default": {}}
    meta_hw = _map(_map(data.get("meta")).get("hardware"))
    for key in sorted(variants, key=str):
        variant = _map(variants[key])
        allowed = _strings(variant.get("supported_hardware"))
        for hw_id in sorted(hardware):
            hw = hardware[hw_id]
            if meta_hw.get(hw_id) == "unsupported" or (allowed and hw_id not in allowed):
                continue
            if not _precision_fits(variant, hw):
                continue
            yield _Target(data, str(key), variant, hw_id, hw)


def _precision_fits(variant: dict[str, Any], hw: Hardware) -> bool:
    rule = _map(variant.get("precision_hardware"))
    if not rule and str(variant.get("precision") or "").lower() in _FP4:
        rule = {"brand": "nvidia", "generation": "blackwell"}
    brand = str(rule.get("brand") or "").lower()
    generation = str(rule.get("generation") or "").lower()
    return (not brand or brand == hw.brand) and (not generation or generation == hw.generation)


def _base_args(target: _Target, name: str, strategy: RecipeStrategy) -> list[str]:
    """Steps 1-5 of the builder: base, variant, strategy, strategy overrides, hardware."""
    data, variant = target.data, target.variant
    args = _strings(_map(data.get("model")).get("base_args"))
    args += _strings(variant.get("extra_args"))
    args += _strings(
        _map(_map(variant.get("hardware_overrides")).get(target.hw_id)).get("extra_args")
    )
    args += [*strategy.args, strategy.parallel_flag, str(_parallel_size(target, name))]
    override = _map(_map(data.get("strategy_overrides")).get(name))
    args += _strings(override.get("extra_args")) + _strings(override.get("vllm_args"))
    replaced = target.generation_block(override.get("hardware_overrides"))
    if replaced:  # a strategy's own generation block replaces the recipe's and the variant's
        args += _strings(replaced.get("extra_args"))
    else:
        args += _strings(target.generation_block(data.get("hardware_overrides")).get("extra_args"))
        args += _strings(
            target.generation_block(variant.get("hardware_overrides")).get("extra_args")
        )
    exact = _map(_map(override.get("hardware_overrides")).get(target.hw_id))
    return args + _strings(exact.get("extra_args"))


def _parallel_size(target: _Target, name: str) -> int:
    """TP for single_node_tp: the variant's `tp`, the strategy override's, else one GPU when the
    weights fit on it, else the whole node; the other strategies span the node."""
    gpus = target.hw.gpus
    if name != "single_node_tp":
        return gpus
    for raw in (
        target.variant.get("tp"),
        _map(_map(target.data.get("strategy_overrides")).get(name)).get("tp"),
    ):
        declared = _keyed_int(raw, target) if isinstance(raw, dict) else raw
        if isinstance(declared, int) and not isinstance(declared, bool) and declared > 0:
            return min(declared, gpus)
    need = target.variant.get("vram_minimum_gb")
    per_gpu = target.hw.vram_gb / gpus if gpus else 0
    if isinstance(need, int | float) and need and per_gpu:
        return 1 if need <= per_gpu else gpus
    return gpus


def _keyed_int(table: dict[str, Any], target: _Target) -> int | None:
    for name in (target.hw_id, target.hw.generation, target.hw.brand, "default"):
        value = table.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _feature_choices(target: _Target) -> Iterator[tuple[tuple[str, ...], list[str]]]:
    """(label, args) for the default feature set, then each opt-in feature (or mode) added."""
    features = _map(target.data.get("features"))
    opt_in = set(_strings(target.data.get("opt_in_features")))
    defaults: list[str] = []
    for name in sorted(f for f in features if f not in opt_in):
        defaults += _feature_args(_map(features[name]), target, None)
    yield (), defaults
    for name in sorted(f for f in features if f in opt_in):
        feature = _map(features[name])
        modes = _map(feature.get("modes"))
        for mode in sorted(modes) if modes else [None]:
            label = f"{name}: {mode}" if mode else name
            yield (label,), defaults + _feature_args(feature, target, mode)


def _feature_args(feature: dict[str, Any], target: _Target, mode: str | None) -> list[str]:
    modes = _map(feature.get("modes"))
    if modes:
        chosen = mode or str(feature.get("default_mode") or sorted(modes)[0])
        spec = _map(modes.get(chosen))
        allowed = _strings(spec.get("variants"))
        if allowed and target.key not in allowed:
            return []
        override = target.keyed(spec.get("hardware_overrides"))
        return _strings(override.get("args")) if "args" in override else _strings(spec.get("args"))
    override = target.generation_block(feature.get("hardware_overrides"))
    return _strings(override.get("args")) if "args" in override else _strings(feature.get("args"))


def _env(target: _Target) -> tuple[tuple[str, str], ...]:
    env: dict[str, str] = {}
    blocks = (
        _map(target.data.get("model")).get("base_env"),
        target.variant.get("extra_env"),
        target.generation_block(target.data.get("hardware_overrides")).get("extra_env"),
        target.generation_block(target.variant.get("hardware_overrides")).get("extra_env"),
        _map(_map(target.variant.get("hardware_overrides")).get(target.hw_id)).get("extra_env"),
    )
    for block in blocks:
        env.update({str(k): str(v) for k, v in _map(block).items()})
    return tuple(sorted(env.items()))


def _guide(source: str, data: dict[str, Any], lines: dict[tuple[str | int, ...], int]) -> RecipeDoc:
    guide = data.get("guide")
    if not isinstance(guide, str):
        return RecipeDoc(source=source)
    doc = read_markdown(source, guide, prefix=("guide",))
    offset = lines.get(("guide",), 1)  # a block scalar starts on the line after its key
    shifted = tuple(c.model_copy(update={"line": c.line + offset}) for c in doc.commands)
    return doc.model_copy(update={"commands": shifted})


def _config_file(
    source: str, data: dict[str, Any], lines: dict[tuple[str | int, ...], int], engine: RecipeEngine
) -> RecipeDoc:
    """A `vllm serve --config` file: every key is a flag (`true`: a switch; `false`: left out)."""
    args: list[Arg] = []
    for key, value in data.items():
        if value is None or value is False:
            continue
        flag = f"--{key}"
        text = None if value is True else _scalar_text(value)
        args.append(Arg(flag=flag, value=text, line=lines.get((key,), 1)))
    stem = PurePosixPath(source).stem
    command = RecipeCommand(
        source=source, section=(stem,), engine=engine, model=None, args=tuple(args), line=1
    )
    return RecipeDoc(source=source, title=stem, commands=(command,))


def _is_setting(key: object, value: object) -> bool:
    return isinstance(key, str) and (value is None or isinstance(value, str | int | float | bool))


def _scalar_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _last_wins(args: list[str]) -> list[str]:
    """The builder's dedupe: for a flag given twice, only its last occurrence (with its value)."""
    units: list[tuple[str, str | None]] = []
    index = 0
    while index < len(args):
        token = args[index]
        value = None
        if index + 1 < len(args) and not args[index + 1].startswith("-"):
            value = args[index + 1]
            index += 1
        units.append((token, value))
        index += 1
    last = {flag: i for i, (flag, _) in enumerate(units)}
    out: list[str] = []
    for i, (flag, value) in enumerate(units):
        if last[flag] == i:
            out += [flag] if value is None else [flag, value]
    return out


def _as_args(tokens: list[str], line: int) -> tuple[Arg, ...]:
    args: list[Arg] = []
    index = 0
    while index < len(tokens):
        flag = tokens[index]
        value = None
        if index + 1 < len(tokens) and not tokens[index + 1].startswith("-"):
            value = tokens[index + 1]
            index += 1
        index += 1
        if flag.startswith("-"):
            args.append(Arg(flag=flag, value=value, line=line))
    return tuple(args)


def _map(value: object) -> dict[str, Any]:
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else {}


def _strings(value: object) -> list[str]:
    """A YAML list of arguments as strings (numbers and booleans as written)."""
    if not isinstance(value, list):
        return []
    return [_scalar_text(item) for item in value if isinstance(item, str | int | float | bool)]
