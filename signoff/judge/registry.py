"""Every check signoff can run, keyed by its stable id: adding a check is one module plus one line.

Which checks run, in which order, numbered and named how, is the standard's choice (the profile's
standards file, signoff/standards.py); this registry only maps ids to the code that judges them.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

_MODULES = (  # one line per check: its module under signoff/judge/checks/
    "codeowner",
    "sweep",
    "evals",
    "recipe",
    "reuse_command",
    "latest_template",
    "upstream_image",
    "no_arch_hacks",
    "spec_chat_template",
    "engine_patches",
    "agentic_golden_al",
    "deprecated_models",
    "append_only",
    "draft_precision",
    "pareto_coverage",
    "pr_description",
)

CHECKS: dict[str, ModuleType] = {
    module.ID: module
    for module in (import_module(f"signoff.judge.checks.{name}") for name in _MODULES)
}
