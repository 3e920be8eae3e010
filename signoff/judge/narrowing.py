"""Entry changes that run nothing new: removals and metadata, which are no recipe change.

A changed master-config entry whose head runs only what its base ran (every head recipe, the
entry's fields with one scenario item and search-space point, is a base recipe, with a subset of
its concurrencies) changed nothing that a sweep would measure: a scenario deprecated, an entry's
concurrency points or search-space points removed. Nor does a change of fields that only label
results: for a multi-node point whose workers run a recipe file (`CONFIG_FILE=...` in its
`additional-settings`), the recipe sets what the profile's `sweep.recipe_file_metadata.fields`
describe (InferenceX: the KV offload), so those fields are metadata there (the decision is the
profile's). Such a change is baseline: it needs no throughput changelog entry, and the checks that
read an entry per configuration do not read it. Anything unreadable is a change (fail closed).
"""

from __future__ import annotations

import json
from typing import Any

from signoff.parse.inferencex.sweep_matrix import Curve, curves


def runs_nothing_new(key: str, base: object, head: object, metadata: tuple[str, ...]) -> bool:
    """Whether entry `key` at `head` runs only recipes and concurrencies it ran at `base`."""
    if not isinstance(base, dict) or not isinstance(head, dict):
        return False
    before, after = curves(key, base, None), curves(key, head, None)
    if isinstance(before, str) or isinstance(after, str):
        return False
    ran: dict[str, frozenset[int]] = {}
    for curve in before:
        recipe = _recipe(curve, metadata)
        ran[recipe] = ran.get(recipe, frozenset()) | curve.concs
    return all(curve.concs <= ran.get(_recipe(curve, metadata), frozenset()) for curve in after)


def _recipe(curve: Curve, metadata: tuple[str, ...]) -> str:
    """The curve's recipe, less the metadata fields where a recipe file sets what they label."""
    if not metadata:
        return curve.recipe
    recipe: dict[str, Any] = json.loads(curve.recipe)
    if not _runs_recipe_file(recipe):
        return curve.recipe
    kept = {k: v for k, v in recipe.items() if k not in metadata}
    return json.dumps(kept, sort_keys=True, separators=(",", ":"), default=str)


def _runs_recipe_file(recipe: dict[str, Any]) -> bool:
    """A multi-node point whose workers run a recipe file (the job runs it for every role)."""
    if recipe.get("multinode") is not True:
        return False
    roles = [recipe.get(role) for role in ("prefill", "decode")]
    return any(isinstance(role, dict) and _names_recipe(role) for role in roles)


def _names_recipe(role: dict[str, Any]) -> bool:
    settings = role.get("additional-settings")
    if not isinstance(settings, list):
        return False
    return any(isinstance(s, str) and s.strip().startswith("CONFIG_FILE=") for s in settings)
