"""The no-arch-hacks check: the overrides that alter a model's architecture, and banned settings.

Read from the profile's `rules.no-arch-hacks.config`
(or its older top-level key `arch:`).
"""

from __future__ import annotations

from pydantic import Field, field_validator, model_validator

from signoff.rules.base import Strict

ID = "no-arch-hacks"  # the check whose section this is
LEGACY = "arch"  # the top-level key profiles wrote it under before `rules.<id>.config`


class ArchOverrideAllow(Strict):
    """One override a maintainer decided is native support for one model, not a FLOP cut."""

    model_prefix: str
    flag: str
    contains: str = ""  # the override value must contain this text
    reason: str
    decision: str = Field(min_length=1)  # the maintainer decision it rests on (a PR or comment URL)

    @field_validator("decision")
    @classmethod
    def _cites_a_decision(cls, value: str) -> str:
        if not value.strip().startswith("https://"):
            raise ValueError("decision must be the URL of the maintainer decision it rests on")
        return value.strip()


class BannedSetting(Strict):
    """A setting Check 8 bans when disabled (switch `banned_settings`, the later prompt)."""

    key: str  # publish_events_and_metrics
    disabled: tuple[str, ...] = ("false", "0", "no", "off")  # values that disable it (folded)
    paths: tuple[str, ...] = ("benchmarks/**", "configs/**")  # added lines read there
    frameworks: tuple[str, ...] = ()  # engines that have it: their recipes must enable it
    recipes: tuple[str, ...] = ()  # globs of those engines' recipe files
    default_enabled: bool = False  # an omitted setting is fine: needs `decision`
    decision: str = ""

    @model_validator(mode="after")
    def _decided(self) -> BannedSetting:
        if self.default_enabled and not self.decision.strip():
            raise ValueError("default_enabled needs the maintainer decision it rests on")
        return self


class ArchPolicy(Strict):
    flags: tuple[str, ...]  # server flags that override model architecture
    config_keys: tuple[str, ...] = ()  # YAML/JSON keys with the same effect
    edit_patterns: tuple[str, ...] = ()  # regexes of shell lines that edit model config files
    # regexes of a command's own source text (its redirects kept) that write a model config
    # file: `echo ... > config.json` (a redirect is not among the words the command runs)
    write_patterns: tuple[str, ...] = ()
    allowlist: tuple[ArchOverrideAllow, ...] = ()
    banned_settings: tuple[BannedSetting, ...] = ()


Config = ArchPolicy
