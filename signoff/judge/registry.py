"""The ordered registry of checks: adding a check is one module plus one line here."""

from __future__ import annotations

from types import ModuleType

from signoff.judge.checks import (
    codeowner,
    evals,
    latest_template,
    no_arch_hacks,
    recipe,
    reuse_command,
    spec_chat_template,
    sweep,
    upstream_image,
)

CHECKS: tuple[ModuleType, ...] = (
    codeowner,
    sweep,
    evals,
    recipe,
    reuse_command,
    latest_template,
    upstream_image,
    no_arch_hacks,
    spec_chat_template,
)
