"""SGLang cookbook configs (`docs_new/src/snippets/configs/...jsx`) read as JavaScript literals.

The cookbook page renders its launch command from `export const config = {...}`: one `cells[]`
entry per (hw, variant, quant, strategy, nodes) with flat `flags` and `env` lists, `{{MODEL_NAME}}`
resolved from `modelNames` (`hw|variant|quant`, then `variant|quant`). The file is parsed with
tree-sitter's JavaScript grammar (JSX included) and only literal values are read: anything
computed (a call, a spread, an identifier, a template with substitutions) is reported as a
problem, never evaluated. Older pages that assemble their commands in component code yield no
commands and say so.
"""

from __future__ import annotations

import posixpath
import shlex
from functools import cache
from typing import TYPE_CHECKING, Any

from signoff.parse.benchmark.launch import Arg
from signoff.parse.recipes.document import RecipeCommand, RecipeDoc, split_args

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

_NOT_LITERAL = object()  # a value the page computes: read as nothing, reported


@cache
def _parser() -> Parser:
    """The JavaScript parser, built on first use: most verdicts read no cookbook page, and
    loading the grammar is about a hundredth of a verdict's start-up."""
    import tree_sitter_javascript
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_javascript.language()))


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_SKIPPED = frozenset({"comment", ",", "{", "}", "[", "]", "(", ")"})
MAX_DEPTH = 40  # nesting of a literal the reader follows


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
    tree = _parser().parse(line.encode("utf-8"))
    if tree.root_node.has_error:
        return None
    for node in tree.root_node.named_children:
        source = node.child_by_field_name("source") if node.type == "import_statement" else None
        if source is not None:
            value = _literal(source, depth=0)
            return value if isinstance(value, str) else None
    return None


def _config_literal(source: str, text: str) -> tuple[dict[str, Any] | None, str]:
    tree = _parser().parse(text.encode("utf-8"))
    if tree.root_node.has_error:
        return None, f"{source}:1: not a JavaScript module signoff can parse"
    for node in tree.root_node.named_children:
        declaration = node.child_by_field_name("declaration")
        if node.type != "export_statement" or declaration is None:
            continue
        for item in declaration.named_children:
            name, value = item.child_by_field_name("name"), item.child_by_field_name("value")
            if item.type == "variable_declarator" and _text(name) == "config" and value:
                found = _literal(value, depth=0)
                if isinstance(found, dict):
                    return found, ""
    return None, f"{source}:1: no `export const config = {{...}}` literal (commands built in code)"


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def _literal(node: Node, depth: int) -> Any:
    """The Python value of a literal expression; `_NOT_LITERAL` for anything computed."""
    if depth > MAX_DEPTH:
        return _NOT_LITERAL
    kind = node.type
    if kind == "string":
        return _string(node)
    if kind == "template_string":
        parts = node.named_children
        return (
            _string(node)
            if all(p.type != "template_substitution" for p in parts)
            else (_NOT_LITERAL)
        )
    if kind in ("true", "false", "null"):
        return {"true": True, "false": False, "null": None}[kind]
    if kind == "number":
        return _number(_text(node))
    if kind == "unary_expression" and _text(node.child_by_field_name("operator")) == "-":
        argument = node.child_by_field_name("argument")
        value = (
            _number(_text(argument)) if argument is not None and argument.type == "number" else None
        )
        return -value if isinstance(value, int | float) else _NOT_LITERAL
    if kind == "array":
        return [_literal(e, depth + 1) for e in node.children if e.type not in _SKIPPED]
    if kind == "object":
        return _object(node, depth)
    return _NOT_LITERAL


def _string(node: Node) -> str:
    """A string's characters: fragments as written, escape sequences decoded."""
    out: list[str] = []
    for part in node.named_children:
        if part.type == "string_fragment":
            out.append(_text(part))
        elif part.type == "escape_sequence":
            out.append(_escape(_text(part)))
    return "".join(out)


def _escape(sequence: str) -> str:
    """`\\n`, `\\u0041`, `\\x41`, `\\"`: the character it stands for."""
    body = sequence[1:]
    if body[:1] in ("u", "x") and len(body) > 1:
        digits = body[1:].strip("{}")
        try:
            return chr(int(digits, 16))
        except ValueError:
            return body
    if body[:1] in _ESCAPES:
        return _ESCAPES[body[:1]].encode().decode("unicode_escape")
    return body  # `\\"`, `\\'`, `\\\\` and unknown escapes: the character itself


def _number(text: str) -> int | float | None:
    try:
        return (
            int(text, 0)
            if text.isdigit() or text[:2].lower() in ("0x", "0o", "0b")
            else float(text)
        )
    except ValueError:
        return None


def _object(node: Node, depth: int) -> dict[str, Any] | object:
    out: dict[str, Any] = {}
    for prop in node.children:
        if prop.type in _SKIPPED:
            continue
        key_node = prop.child_by_field_name("key") if prop.type == "pair" else None
        value_node = prop.child_by_field_name("value") if prop.type == "pair" else None
        if key_node is None or value_node is None or key_node.type == "computed_property_name":
            return _NOT_LITERAL  # a spread, a shorthand, a method or a computed key
        key = _string(key_node) if key_node.type == "string" else _text(key_node)
        out[key] = _literal(value_node, depth + 1)
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
