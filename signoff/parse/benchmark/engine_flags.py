"""Long flags as an engine's argument parser reads them: one spelling for every way to write one.

vLLM and SGLang parse their server flags with argparse: `--flag=value` and `--flag value` are the
same, argparse accepts any unique prefix of a known long flag (`allow_abbrev`, left on by both),
and both engines declare aliases (`-tp`). vLLM's FlexibleArgumentParser also reads `_` as `-` in
a flag's name and folds `--flag.key value` into the JSON value of `--flag`; SGLang's parser does
neither (see the profile's `engines:` table for the sources). A check that compared spellings
would be fooled by any of these, so every check reads flags through this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from signoff.memo import ByIdentity
from signoff.policy import EngineFlags, Policy

_ANY_ENGINE = EngineFlags()  # an unknown engine: every rule on, the most permissive reading


def engine_flags(engine: str, policy: Policy) -> EngineFlags:
    return policy.engines.get(engine, _ANY_ENGINE)


def spelled(flag: str, rules: EngineFlags) -> str:
    """The flag's name: `=value` dropped and, where the parser allows, a `.key` suffix dropped
    (vLLM's `--hf-overrides.key v` sets a key of `--hf-overrides`) and `_` read as `-`."""
    name = flag.split("=", 1)[0]
    if not name.startswith("--"):
        return name
    if rules.dotted_json:
        name = name.split(".", 1)[0]
    if rules.underscores_as_dashes:
        name = "--" + name[2:].replace("_", "-")
    return name


def canonical_flag(flag: str, engine: str, policy: Policy, known: Iterable[str] = ()) -> str:
    """The engine's own name for `flag`: spelling, aliases, then a unique-prefix abbreviation of
    one of the aliases or `known` flags. A flag that is none of these comes back spelled."""
    return _canonical(flag, engine_flags(engine, policy), tuple(known))


@lru_cache(maxsize=64)
def _alias_map(rules: EngineFlags) -> dict[str, str]:
    """Every alias's spelling -> the canonical spelling (read-only: the result is shared)."""
    return {
        spelled(alt, rules): spelled(group[0], rules) for group in rules.aliases for alt in group
    }


# Canonical names by the engine's rules (held by identity: hashing the rules by value cost
# as much as the lookup), then by flag and known flags.
_BY_RULES: ByIdentity[dict[tuple[str, tuple[str, ...]], str]] = ByIdentity(64)
_PER_RULES = 8192  # checks ask about the same few flags for every launch and reading


def _canonical(flag: str, rules: EngineFlags, known: tuple[str, ...]) -> str:
    table = _BY_RULES.get(rules)
    if table is None:
        table = {}
        _BY_RULES.put(rules, table)
    found = table.get((flag, known))
    if found is None:
        if len(table) >= _PER_RULES:
            table.clear()
        found = table[(flag, known)] = _canonical_of(flag, rules, known)
    return found


def _canonical_of(flag: str, rules: EngineFlags, known: tuple[str, ...]) -> str:
    name = spelled(flag, rules)
    aliases = _alias_map(rules)
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
    wanted = _canonical(target, rules, ())
    name = _canonical(flag, rules, (target,))
    if name == wanted:
        return True
    return (
        rules.abbreviations and len(name) > 2 and name.startswith("--") and wanted.startswith(name)
    )
