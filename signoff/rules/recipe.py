"""The recipe check (Check 3): where recipes are published and how a launch is compared with one.

Read from the profile's `rules.recipe.config`
(or its older top-level key `recipe:`).
"""

from __future__ import annotations

from pydantic import Field

from signoff.rules.base import Strict

ID = "recipe"  # the check whose section this is
LEGACY = "recipe"  # the top-level key profiles wrote it under before `rules.<id>.config`


class RecipeSource(Strict):
    kind: str  # "pull" (a PR in an upstream repo) or "page" (published documentation)
    host: str
    repo: str = ""  # owner/name for kind pull
    path_prefix: str = ""  # for pages: the URL path must start with this
    engine: str = ""  # the engine its recipes are for ("vllm", "sglang")
    # for pages rendered in the browser: the repository file the page is generated from, with
    # `{0}`, `{1}`... the URL's path segments after `path_prefix` (read at the repo's head)
    source_repo: str = ""
    source_path: str = ""


class MajorArg(Strict):
    """A server argument that must agree with the recipe; for a JSON value, only `keys` (all keys
    when empty) are compared, and the recipe's settings must be present with equal values."""

    flag: str
    keys: tuple[str, ...] = ()
    # JSON keys that name a checkpoint: equal when the checkpoint names agree, as the served model
    # is compared (a local copy `/data/models/X-EAGLE3` is `org/X-EAGLE3`)
    checkpoints: tuple[str, ...] = ()


class Equivalence(Strict):
    """Arguments a maintainer decided are the same as others (or as absence, `same_as: []`)."""

    engine: str
    args: tuple[str, ...] = Field(min_length=1)  # "--flag value" / "--flag"
    same_as: tuple[str, ...] = ()
    decision: str = Field(min_length=1)  # the maintainer decision it rests on (PR, comment)


class SweptSizes(Strict):
    """Parallel sizes the sweep chooses: a launch whose size is its configuration's own swept
    value agrees with a recipe of another size in the same parallel mode (`mode` flags: on in
    both or in neither; `size` flags: not compared). The decision is the real verdicts' rule."""

    vars: tuple[str, ...] = Field(min_length=1)  # the point's variables that carry sizes (TP)
    size: tuple[str, ...] = ()
    mode: tuple[str, ...] = ()
    decision: str = Field(min_length=1)


class EnvEquivalence(Strict):
    """A recipe command whose environment sets `env` documents `args` too (the flag is the
    explicit form of the path the variable selects)."""

    engine: str
    env: tuple[str, ...] = Field(min_length=1)  # "NAME=value", all must be set
    args: tuple[str, ...] = Field(min_length=1)  # "--flag value"
    decision: str = Field(min_length=1)


class RecipeEngineRules(Strict):
    """How one engine's launch is compared with a recipe."""

    major: tuple[MajorArg | str, ...]
    defaults: dict[str, str] = Field(default_factory=dict)  # value equal to leaving the flag out
    informational: tuple[str, ...] = ()  # reported, never judged (InferenceX tuning)
    swept_sizes: SweptSizes | None = None

    def major_args(self) -> tuple[MajorArg, ...]:
        return tuple(m if isinstance(m, MajorArg) else MajorArg(flag=m) for m in self.major)


class Hardware(Strict):
    """A GPU SKU as recipes name it: its brand and generation words, and one node's size."""

    brand: str  # "nvidia", "amd"
    generation: str  # "hopper", "blackwell", "amd" (the vLLM recipes' generation keys)
    gpus: int = 8
    vram_gb: int = 0  # the whole node's
    aliases: tuple[str, ...] = ()  # other words that name exactly this SKU ("mi35x")


class RecipeStrategy(Strict):
    """A vLLM recipes single-node serving strategy: the parallel flag it sets and its extra args."""

    parallel_flag: str
    args: tuple[str, ...] = ()


class RecipePolicy(Strict):
    sources: tuple[RecipeSource, ...]
    merged_cue: str = "MERGED"  # when the template's recipe sub-item says this, PRs must be merged
    engines: dict[str, RecipeEngineRules] = Field(default_factory=dict)  # "vllm", "sglang"
    equivalences: tuple[Equivalence, ...] = ()
    env_equivalences: tuple[EnvEquivalence, ...] = ()
    hardware: dict[str, Hardware] = Field(default_factory=dict)  # SKU id -> how recipes name it
    strategies: dict[str, RecipeStrategy] = Field(default_factory=dict)  # vLLM recipes YAML
    disagg_frameworks: tuple[str, ...] = ()


Config = RecipePolicy
