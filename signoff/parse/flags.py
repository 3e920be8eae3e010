"""Long flags as an engine's argument parser reads them: one spelling for every way to write one.

vLLM and SGLang parse their server flags with argparse: `--flag=value` and `--flag value` are the
same, vLLM (and SGLang) accept `_` for `-` inside a long flag, argparse accepts any unique prefix of
a known long flag (`allow_abbrev`), and both engines declare aliases (`-tp`). A check that compared
spellings would be fooled by any of these, so every check reads flags through this module.
"""

from __future__ import annotations

from collections.abc import Iterable

from signoff.policy import EngineFlags, Policy

_ANY_ENGINE = EngineFlags()  # an unknown engine: read as permissively as argparse would


def engine_flags(engine: str, policy: Policy) -> EngineFlags:
    return policy.engines.get(engine, _ANY_ENGINE)


def spelled(flag: str, rules: EngineFlags) -> str:
    """The flag with `=value` dropped and, where the parser allows, `_` read as `-`."""
    name = flag.split("=", 1)[0]
    if not rules.underscores_as_dashes or not name.startswith("--"):
        return name
    return "--" + name[2:].replace("_", "-")


def canonical_flag(flag: str, engine: str, policy: Policy, known: Iterable[str] = ()) -> str:
    """The engine's own name for `flag`: spelling, aliases, then a unique-prefix abbreviation of
    one of the aliases or `known` flags. A flag that is none of these comes back spelled."""
    rules = engine_flags(engine, policy)
    name = spelled(flag, rules)
    aliases = {
        spelled(alt, rules): spelled(group[0], rules) for group in rules.aliases for alt in group
    }
    if name in aliases:
        return aliases[name]
    candidates = set(aliases) | {spelled(k, rules) for k in known}
    if name in candidates or not rules.abbreviations or not name.startswith("--"):
        return name
    expansions = {
        aliases.get(c, c) for c in candidates if c.startswith("--") and c.startswith(name)
    }
    return expansions.pop() if len(expansions) == 1 else name


def may_be_flag(flag: str, target: str, engine: str, policy: Policy) -> bool:
    """Whether the engine could read `flag` as `target` (for bans: ambiguity counts as a match).

    True for the same canonical flag, and, where the engine accepts abbreviations, for any
    prefix of the target's spelling that is longer than `--`.
    """
    rules = engine_flags(engine, policy)
    wanted = canonical_flag(target, engine, policy)
    name = canonical_flag(flag, engine, policy, known=(target,))
    if name == wanted:
        return True
    return (
        rules.abbreviations and len(name) > 2 and name.startswith("--") and wanted.startswith(name)
    )
