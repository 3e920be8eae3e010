"""The draft-precision check: the leads that lower a draft's precision.

Read from the profile's `rules.draft-precision.config`
(or its older top-level key `draft_precision:`).
"""

from __future__ import annotations

from pydantic import Field

from signoff.rules.base import Strict

ID = "draft-precision"  # the check whose section this is
LEGACY = "draft_precision"  # the top-level key profiles wrote it under before `rules.<id>.config`


class DraftPrecisionPolicy(Strict):
    """Check 13 (E9+): the leads that lower a draft's precision, and how evidence reads."""

    flags: tuple[str, ...] = ("--speculative-draft-model-quantization",)
    config_flags: tuple[str, ...] = ("--speculative-config",)  # JSON; `config_keys` inside
    config_keys: tuple[str, ...] = ("quantization", "dtype", "draft_dtype")
    lead_env: dict[str, str] = Field(default_factory=dict)  # name -> the value that quantizes
    prohibited_env: tuple[str, ...] = ()  # must not be enabled at all
    online_quant_flags: tuple[str, ...] = ()  # ATOM --online_quant_config (JSON)
    # Draft module names per model prefix, for online-quant exclude lists (fnmatch patterns).
    draft_modules: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    draft_words: tuple[str, ...] = ("draft", "mtp", "nextn", "eagle", "eagle3", "dspark", "head")
    precision_words: tuple[str, ...] = ("bf16", "fp8", "fp4", "nvfp4", "mxfp4", "fp16", "int4")


Config = DraftPrecisionPolicy
