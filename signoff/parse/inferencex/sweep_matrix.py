"""Expand master-config entries into sweep-matrix curves, to compare a PR's base and head.

A curve is one generated recipe: the entry's fields, the scenario item's and the search-space
point's, without the concurrency (which is the curve's set of points). Two curves are the same
recipe iff their canonical JSON is equal. The visual series is what a chart line is keyed by
(model, prefix, precision, framework, runner, disagg, scenario kind, ISL/OSL, offload on/off,
spec decoding, worker hardware); an appended point must land on an existing series with one
image. This follows utils/process_changelog.py's rules on our own expansion of the configs.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict

_CONC_FIELDS = ("conc", "conc-list", "conc-start", "conc-end")
MAX_POINTS = 4096  # a concurrency range is doubled up to its end; more points is not a sweep


class Curve(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    config: str
    scenario: str
    recipe: str  # canonical JSON of the recipe without its concurrency
    concs: frozenset[int]
    series: str  # canonical JSON of the visual-series key
    image: str | None


def curves(key: str, entry: dict[str, Any], scenarios: set[str] | None) -> list[Curve] | str:
    """The entry's curves in the given scenarios (None: all); a string says why it could not."""
    body = entry.get("scenarios")
    if not isinstance(body, dict):
        return f"{key}: no scenarios mapping"
    top = {k: v for k, v in entry.items() if k != "scenarios"}
    found: list[Curve] = []
    for scenario, items in sorted(body.items()):
        if scenarios is not None and scenario not in scenarios:
            continue
        for item in items if isinstance(items, list) else []:
            if not isinstance(item, dict):
                return f"{key}/{scenario}: a scenario item is not a mapping"
            for point in item.get("search-space") or []:
                curve = _curve(key, str(scenario), top, item, point)
                if isinstance(curve, str):
                    return curve
                found.append(curve)
    return found


def _curve(
    key: str, scenario: str, top: dict[str, Any], item: dict[str, Any], point: object
) -> Curve | str:
    if not isinstance(point, dict):
        return f"{key}/{scenario}: a search-space point is not a mapping"
    concs = _concurrencies(point)
    if isinstance(concs, str):
        return f"{key}/{scenario}: {concs}"
    recipe: dict[str, Any] = {**top, "scenario-type": scenario}
    recipe.update((k, v) for k, v in item.items() if k != "search-space")
    recipe.update((k, v) for k, v in point.items() if k not in _CONC_FIELDS)
    return Curve(
        config=key, scenario=scenario, recipe=_canonical(recipe), concs=frozenset(concs),
        series=_canonical(_series(recipe)), image=_image(top.get("image")),
    )  # fmt: skip


def _concurrencies(point: dict[str, Any]) -> list[int] | str:
    listed = point.get("conc-list", point.get("conc"))
    if listed is not None:
        values = listed if isinstance(listed, list) else [listed]
        if not values or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return f"invalid concurrency list {listed!r}"
        return [int(v) for v in values]
    start, end = point.get("conc-start"), point.get("conc-end")
    if not (isinstance(start, int) and isinstance(end, int)) or not 0 < start <= end:
        return "no concurrency (conc-list, or conc-start <= conc-end)"
    values, conc = [], start
    while conc <= end and len(values) < MAX_POINTS:  # doubled, with the end always included
        values.append(conc)
        if conc == end:
            break
        conc = min(conc * 2, end)
    return values


def _series(recipe: dict[str, Any]) -> list[Any]:
    agentic = recipe.get("scenario-type") == "agentic-coding"
    offload = recipe.get("kv-offloading", "none")
    prefill = recipe.get("prefill") if isinstance(recipe.get("prefill"), dict) else {}
    decode = recipe.get("decode") if isinstance(recipe.get("decode"), dict) else {}
    return [
        recipe.get("model"), recipe.get("model-prefix"), recipe.get("precision"),
        recipe.get("framework"), recipe.get("runner"), bool(recipe.get("disagg", False)),
        "agentic" if agentic else "single-turn",
        None if agentic else recipe.get("isl"), None if agentic else recipe.get("osl"),
        "off" if offload in (None, "", "none") else "on",
        "" if agentic else recipe.get("spec-decoding", "none"),
        prefill.get("hardware") if prefill else None, decode.get("hardware") if decode else None,
    ]  # fmt: skip


def _image(value: object) -> str | None:
    return str(value).strip() if value not in (None, "") else None


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
