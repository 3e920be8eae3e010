"""Read a golden acceptance-length curve (`golden_al_distribution/*.yaml`).

Shape: one top-level key, the model id the curve was measured on (`qwen3.5-397b-a17b-nvfp4`), then
thinking modes (`thinking_on`, `thinking_off`), then draft length (`num_speculative_tokens`, an
int) -> acceptance length (a float). Anything else is reported as a problem, never guessed.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from signoff.yamlload import load_yaml


class GoldenCurve(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    file: str
    key: str  # the model id
    modes: dict[str, dict[int, float]]  # thinking mode -> draft length -> golden AL

    def value(self, mode: str, draft: int) -> float | None:
        return self.modes.get(mode, {}).get(draft)


def parse_golden(text: str, file: str) -> tuple[tuple[GoldenCurve, ...], tuple[str, ...]]:
    """The curves in one golden YAML and the problems found; never raises."""
    try:
        data = load_yaml(text)
    except Exception:  # yaml.YAMLError, RecursionError: unreadable either way
        return (), (f"{file} is not valid YAML",)
    if not isinstance(data, dict) or not data:
        return (), (f"{file} holds no model curve",)
    curves: list[GoldenCurve] = []
    problems: list[str] = []
    for key, modes in data.items():
        read = _modes(modes)
        if read is None:
            problems.append(f"{file}: {key}: expected thinking modes of draft length -> AL")
            continue
        curves.append(GoldenCurve(file=file, key=str(key).strip().lower(), modes=read))
    return tuple(curves), tuple(problems)


def _modes(value: object) -> dict[str, dict[int, float]] | None:
    if not isinstance(value, dict):
        return None
    modes: dict[str, dict[int, float]] = {}
    for mode, points in value.items():
        if not isinstance(points, dict):
            return None
        curve: dict[int, float] = {}
        for draft, al in points.items():
            if isinstance(draft, bool) or not isinstance(draft, int):
                return None
            if isinstance(al, bool) or not isinstance(al, int | float):
                return None
            curve[draft] = float(al)
        modes[str(mode)] = curve
    return modes
