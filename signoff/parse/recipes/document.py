"""Upstream recipe documents read as structures: the server launch commands they give, by section.

A recipe is read the way its format defines it, never as folded text: Markdown and MDX by
markdown-it-py (code blocks under their headings and tabs), published pages by an HTML parser,
vllm-project/recipes YAML by its own schema (recipe_yaml.py) and SGLang cookbook configs as
JavaScript literals (recipe_jsx.py). Every command keeps its section path (the headings or keys
it sits under), so Check 3 can pick the command for the same model and hardware.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from typing import Literal

from pydantic import BaseModel, ConfigDict

from signoff.parse.benchmark.launch import Arg

RecipeEngine = Literal["vllm", "sglang"]
_DOC_SUFFIXES = (".md", ".mdx", ".yaml", ".yml", ".jsx")
_PYTHONS = re.compile(r"^python(?:3(?:\.\d+)?)?$")
_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_STOP = frozenset({";", "&&", "||", "|", "&", ">", ">>", "<", "2>", ">&", "&>", "(", ")"})
_WRAPPERS = frozenset({"sudo", "nohup", "exec", "env", "time", "numactl", "taskset"})


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RecipeCommand(Frozen):
    """One server launch a recipe gives."""

    source: str  # file path in the upstream repository, or the page URL
    section: tuple[str, ...]  # headings, tab titles or YAML keys above it, outermost first
    engine: RecipeEngine
    model: str | None  # the served checkpoint; None when the command leaves it out
    args: tuple[Arg, ...]
    env: tuple[tuple[str, str], ...] = ()
    line: int = 0
    hardware: tuple[str, ...] = ()  # hardware ids a generated command was generated for


class RecipeDoc(Frozen):
    source: str
    title: str = ""
    commands: tuple[RecipeCommand, ...] = ()
    mentions: tuple[tuple[str, str | None], ...] = ()  # inline `--flag value` spans in prose
    problems: tuple[str, ...] = ()  # "path:line: what" for anything that could not be read


def is_recipe_document(path: str) -> bool:
    """Whether a changed upstream file can hold a recipe (Markdown, MDX, YAML, cookbook config)."""
    return path.lower().endswith(_DOC_SUFFIXES)


def commands_in_shell(
    text: str, *, source: str, section: tuple[str, ...], first_line: int
) -> tuple[list[RecipeCommand], list[str]]:
    """Server launches in a shell code block: continuations joined, comments dropped, `export`
    and `VAR=value` prefixes kept as the command's environment."""
    commands: list[RecipeCommand] = []
    problems: list[str] = []
    exported: dict[str, str] = {}
    carried: tuple[int, str] | None = None
    for line, logical in _logical_lines(text, first_line):
        if carried is not None:  # a quoted value spans lines (`-d '{` ... `}'`)
            line, logical = carried[0], f"{carried[1]}\n{logical}"
        try:
            tokens = _tokens(logical)
        except ValueError:
            carried = (line, logical)
            continue
        carried = None
        if tokens[:1] == ["export"]:
            exported.update(_assignments(tokens[1:]))
            continue
        found = _launch(tokens)
        if found is None:
            continue
        engine, env, rest = found
        model, args = split_args(engine, rest, line)
        commands.append(
            RecipeCommand(
                source=source,
                section=section,
                engine=engine,
                model=model,
                args=args,
                env=tuple(sorted({**exported, **env}.items())),
                line=line,
            )
        )
    if carried is not None and any(_launcher(w)[0] for w in _windows(carried[1].split())):
        # only a would-be launch matters; an unbalanced quote in a log excerpt does not
        problems.append(f"{source}:{carried[0]}: unbalanced quotes in a server launch")
    return commands, problems


def _windows(words: list[str]) -> Iterator[list[str]]:
    return (words[i : i + 3] for i in range(len(words)))


def _logical_lines(text: str, first_line: int) -> Iterator[tuple[int, str]]:
    """(line number, text) of each command line, backslash continuations joined."""
    pending: list[str] = []
    start = first_line
    for offset, raw in enumerate(text.split("\n")):
        if not pending:
            start = first_line + offset
        stripped = raw.rstrip()
        if stripped.endswith("\\") and not stripped.endswith("\\\\"):
            pending.append(stripped[:-1])
            continue
        pending.append(stripped)
        yield start, " ".join(pending)
        pending = []
    if pending:
        yield start, " ".join(pending)


def _tokens(line: str) -> list[str]:
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|<>()")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    return list(lexer)


def _assignments(tokens: list[str]) -> dict[str, str]:
    return dict(t.split("=", 1) for t in tokens if _ENV.match(t))


def _launch(tokens: list[str]) -> tuple[RecipeEngine, dict[str, str], list[str]] | None:
    """(engine, env prefix, tokens after the launcher) of the first server launch on the line."""
    for index in range(len(tokens)):
        head = tokens[index : index + 3]
        engine, used = _launcher(head)
        if engine is None:
            continue
        before = tokens[:index]
        env = _assignments([t for t in before if t not in _WRAPPERS])
        rest = tokens[index + used :]
        for cut, token in enumerate(rest):
            if token in _STOP:
                rest = rest[:cut]
                break
        return engine, env, rest
    return None


def _launcher(head: list[str]) -> tuple[RecipeEngine | None, int]:
    if head[:2] == ["vllm", "serve"]:
        return "vllm", 2
    if head[:2] == ["sglang", "serve"]:
        return "sglang", 2
    if len(head) == 3 and _PYTHONS.match(head[0]) and head[1] == "-m":
        if head[2] == "vllm.entrypoints.openai.api_server":
            return "vllm", 3
        if head[2] == "sglang.launch_server":
            return "sglang", 3
    return None, 0


def split_args(
    engine: RecipeEngine, tokens: list[str], line: int
) -> tuple[str | None, tuple[Arg, ...]]:
    """The positional model (`vllm serve MODEL`) and the flags with their values."""
    model: str | None = None
    args: list[Arg] = []
    index = 0
    if engine == "vllm" and tokens and not tokens[0].startswith("-"):
        model, index = tokens[0], 1
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if not token.startswith("-") or token in ("-", "--"):
            continue  # a stray word (another positional): not an argument of ours
        if "=" in token and token.startswith("--"):
            flag, inline = token.split("=", 1)
            args.append(Arg(flag=flag, value=inline, line=line))
            continue
        value: str | None = None
        if index < len(tokens) and _is_value(tokens[index]):
            value = tokens[index]
            index += 1
        args.append(Arg(flag=token, value=value, line=line))
    for arg in args:
        if arg.flag in ("--model", "--model-path", "--model_path") and arg.value:
            model = arg.value
    return model, tuple(args)


def _is_value(token: str) -> bool:
    return not token.startswith("-") or re.match(r"^-\d", token) is not None
