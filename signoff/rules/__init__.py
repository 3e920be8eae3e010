"""The profile's per-check sections: `rules.<check-id>.config`, one module per check that has one.

As zizmor reads its rules' settings, a check's settings sit under its id (`rules.recipe.config`),
beside its switches (`rules.recipe.disable`). Each module here is named after the check's module
in judge/checks/ and declares `ID` (the check's id), `LEGACY` (the top-level key older profiles
wrote the section under, still read) and `Config` (the section's model); the check declares the
same model as its `CONFIG`. The models sit here, below parse and gather, because those layers read
some of them (recipe sources, acceptance knobs, patch patterns) and must not import the judge.
"""

from __future__ import annotations

import pkgutil
from importlib import import_module
from types import ModuleType

from pydantic import BaseModel


def _sections() -> tuple[ModuleType, ...]:
    found = (import_module(f"{__name__}.{info.name}") for info in pkgutil.iter_modules(__path__))
    return tuple(sorted((m for m in found if hasattr(m, "Config")), key=lambda m: m.ID))


SECTIONS: tuple[ModuleType, ...] = _sections()  # by check id


def required(config: type[BaseModel]) -> bool:
    """Whether a profile must write the section (some field has no default)."""
    return any(field.is_required() for field in config.model_fields.values())
