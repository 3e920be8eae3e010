"""SGLang cookbook configs (`docs_new/src/snippets/configs/...jsx`) read as JavaScript literals.

The cookbook page renders its launch command from `export const config = {...}`: one `cells[]`
entry per (hw, variant, quant, strategy, nodes) with flat `flags` and `env` lists, `{{MODEL_NAME}}`
resolved from `modelNames` (`hw|variant|quant`, then `variant|quant`). The file is parsed with
esprima (a real ECMAScript parser) and only literal values are read: anything computed (a call, a
spread, an identifier) is reported as a problem, never evaluated. Older pages that assemble
their commands in component code yield no commands and say so.
"""

from __future__ import annotations

import posixpath
import shlex
from typing import Any

import esprima

from signoff.parse.launch import Arg
from signoff.parse.recipe_doc import RecipeCommand, RecipeDoc, split_args

_NOT_LITERAL = object()  # a value the page computes: read as nothing, reported


def read_cookbook_config(source: str, text: str) -> RecipeDoc:
    """One `sglang serve` command per single-node cell of the config."""
    config, problem = _config_literal(source, text)
    if config is None:
        return RecipeDoc(source=source, problems=(problem,))
    commands: list[RecipeCommand] = []
    problems: list[str] = []
    cells = config.get("cells")
    for index, cell in enumerate(cells if isinstance(cells, list) else []):
        command = _cell_command(source, config, cell, index, problems)
        if command is not None:
            commands.append(command)
    if not commands:
        problems.append(f"{source}:1: no single-node cell with literal flags")
    title = config.get("modelName")
    return RecipeDoc(
        source=source,
        title=title if isinstance(title, str) else "",
        commands=tuple(commands),
        problems=tuple(problems),
    )


def imported_configs(path: str, text: str) -> tuple[str, ...]:
    """Cookbook configs an MDX page imports (`import { config } from "/src/snippets/..."`), as
    repository paths: Mintlify resolves a leading `/` against the docs root, the folder that
    holds `cookbook/`. Each import line is parsed as an ECMAScript module statement."""
    if not path.endswith(".mdx") or "/cookbook/" not in f"/{path}":
        return ()
    root = f"/{path}".split("/cookbook/", 1)[0].lstrip("/")
    found: set[str] = set()
    for line in text.split("\n"):
        if not line.startswith("import "):
            continue
        target = _import_source(line)
        if target and "/configs/" in target and not target.endswith("-benchmarks.jsx"):
            found.add(posixpath.normpath(posixpath.join(root, target.lstrip("/"))))
    return tuple(sorted(found))


def _import_source(line: str) -> str | None:
    try:
        module = esprima.parseModule(line)
    except Exception:  # esprima raises its own Error type on any syntax error
        return None
    for node in module.body:
        if node.type == "ImportDeclaration" and isinstance(node.source.value, str):
            return str(node.source.value)
    return None


def _config_literal(source: str, text: str) -> tuple[dict[str, Any] | None, str]:
    try:
        module = esprima.parseModule(text, {"jsx": True, "loc": True})
    except Exception:  # esprima raises its own Error type on any syntax error
        return None, f"{source}:1: not a JavaScript module signoff can parse"
    for node in module.body:
        declaration = getattr(node, "declaration", None)
        for item in getattr(declaration, "declarations", None) or ():
            if getattr(item.id, "name", "") == "config" and item.init is not None:
                value = _literal(item.init, depth=0)
                if isinstance(value, dict):
                    return value, ""
    return None, f"{source}:1: no `export const config = {{...}}` literal (commands built in code)"


def _literal(node: Any, depth: int) -> Any:
    """The Python value of a literal expression; `_NOT_LITERAL` for anything computed."""
    if depth > 40:
        return _NOT_LITERAL
    kind = node.type
    if kind == "Literal":
        return node.value
    if kind == "TemplateLiteral" and not node.expressions:
        return "".join(q.value.cooked for q in node.quasis)
    if kind == "UnaryExpression" and node.operator == "-" and node.argument.type == "Literal":
        value = node.argument.value
        return -value if isinstance(value, int | float) else _NOT_LITERAL
    if kind == "ArrayExpression":
        return [_literal(e, depth + 1) if e is not None else None for e in node.elements]
    if kind == "ObjectExpression":
        return _object(node, depth)
    return _NOT_LITERAL


def _object(node: Any, depth: int) -> dict[str, Any] | object:
    out: dict[str, Any] = {}
    for prop in node.properties:
        if prop.type != "Property" or prop.computed:
            return _NOT_LITERAL
        key = prop.key.name if prop.key.type == "Identifier" else prop.key.value
        out[str(key)] = _literal(prop.value, depth + 1)
    return out


def _cell_command(
    source: str, config: dict[str, Any], cell: object, index: int, problems: list[str]
) -> RecipeCommand | None:
    if not isinstance(cell, dict) or not isinstance(cell.get("match"), dict):
        problems.append(f"{source}: cells[{index}] is not a literal cell")
        return None
    match = {k: str(v) for k, v in cell["match"].items() if isinstance(v, str)}
    if match.get("nodes", "single") != "single":
        return None  # multi-node cells are not single-node recipes
    flags, env = cell.get("flags"), cell.get("env")
    if not isinstance(flags, list) or not _all_strings(flags) or not _all_strings(env or []):
        problems.append(f"{source}: cells[{index}] has computed flags or env")
        return None
    model = _model_name(config, match)
    words = " ".join(f.replace("{{MODEL_NAME}}", model or "{{MODEL_NAME}}") for f in flags)
    try:
        tokens = shlex.split(words)
    except ValueError:
        problems.append(f"{source}: cells[{index}] has unbalanced quotes")
        return None
    found_model, args = split_args("sglang", tokens, 0)
    keys = ("hw", "variant", "quant", "strategy")
    return RecipeCommand(
        source=source,
        section=tuple(f"{k} {match[k]}" for k in keys if k in match),
        engine="sglang",
        model=found_model,
        args=tuple(Arg(flag=a.flag, value=a.value, line=index) for a in args),
        env=tuple(sorted(_env_pairs(env or []))),
        line=0,
        hardware=(match["hw"],) if "hw" in match else (),
    )


def _model_name(config: dict[str, Any], match: dict[str, str]) -> str | None:
    names = config.get("modelNames")
    if not isinstance(names, dict):
        return None
    for key in (
        f"{match.get('hw')}|{match.get('variant')}|{match.get('quant')}",
        f"{match.get('variant')}|{match.get('quant')}",
    ):
        value = names.get(key)
        if isinstance(value, str):
            return value
    return None


def _all_strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _env_pairs(items: list[str]) -> list[tuple[str, str]]:
    return [tuple(item.split("=", 1)) for item in items if "=" in item]  # type: ignore[misc]
