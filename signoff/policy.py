"""The policy profile: every repository-specific parameter of the rules, loaded from typed YAML.

Code holds mechanisms; `checklists/<profile>.yaml` holds what InferenceX (or another repository)
decides: item cues, check-run families, SKUs, image orgs, flags, paths and names.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

from signoff.data_files import load_data_file
from signoff.errors import PolicyError
from signoff.standards import StandardsBook, load_standards
from signoff.yamlload import line_of

PROFILE_SCHEMA_VERSION = 1
DEFAULT_PROFILE_NAME = "inferencex.yaml"


class Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Paths(Strict):
    codeowners: str = ".github/CODEOWNERS"
    template: str = "docs/PR_REVIEW_CHECKLIST.md"
    thresholds: str = "utils/evals/thresholds.yaml"
    master_configs: str = "configs/*-master.yaml"  # fnmatch glob, top-level files only
    benchmark_scripts: str = "benchmarks/**/*.sh"
    single_node_scripts: str = "benchmarks/single_node/**"
    multi_node_scripts: str = "benchmarks/multi_node/**"


class SignoffSyntax(Strict):
    opener: str  # matched case-insensitively, as GitHub's contains() does
    detail_heading: str  # a heading containing this text starts the detail section
    placeholders: tuple[str, ...] = ()  # template filler that counts as no detail
    explanation_cues: tuple[str, ...] = ()  # detail phrases that explain an unchecked item
    signed_prefix: str = "Signed:"


class TemplateItemSpec(Strict):
    id: str
    cues: tuple[str, ...] = Field(min_length=1)  # lower-case phrases that identify the item
    # Which check verifies an item depends on the standard: see the standards file's `items`.


class CheckRunFamily(Strict):
    name: str
    patterns: tuple[str, ...] = Field(min_length=1)  # fnmatch globs over check-run names
    required: bool = True  # False: only judged when at least one run executed


class SweepScope(Strict):
    families: tuple[CheckRunFamily, ...] = Field(min_length=1)


class SweepProvenance(Strict):
    """Which workflow runs may stand for the sweep, and what the PR must not change for it."""

    workflow: str  # the sweep workflow's file, e.g. .github/workflows/run-sweep.yml
    events: tuple[str, ...] = Field(default=("pull_request",), min_length=1)
    # The sweep workflow, its reusable templates and what they execute: a PR changing any of
    # these had its own definition run (pull_request runs use the PR's merge ref), so its
    # green jobs prove nothing. Globs as in affecting_paths.
    definition_paths: tuple[str, ...] = Field(min_length=1)
    # Where the programs those steps run live: a changed file here is part of the definition
    # only when the sweep executes it (judge/checks/sweep/definition.py); a test or a document
    # is not.
    executed_paths: tuple[str, ...] = ()


class RecipeFileMetadata(Strict):
    """Master-config fields that only label a multi-node point whose workers run a recipe file
    (`CONFIG_FILE=`): the recipe sets what they describe, so changing them runs nothing new."""

    fields: tuple[str, ...] = ()
    decision: str = ""  # the maintainer decision it rests on (required when fields are listed)

    @model_validator(mode="after")
    def _decided(self) -> RecipeFileMetadata:
        if self.fields and not self.decision.strip():
            raise ValueError("recipe_file_metadata.fields needs the decision it rests on")
        return self


class SweepPolicy(Strict):
    scopes: dict[str, SweepScope]
    provenance: SweepProvenance
    default_scope: str
    ignored_check_runs: tuple[str, ...] = ()  # globs never counted (collect-evals ...)
    affecting_paths: tuple[str, ...]  # PR changes here after the sweep invalidate it
    # Changed lines that never matter, per file: regexes keyed by the path glob of the one file
    # where such a line is metadata (the changelog's `pr-link:`); elsewhere it is code.
    ignored_diff_lines: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    recipe_file_metadata: RecipeFileMetadata = RecipeFileMetadata()

    @model_validator(mode="after")
    def _default_scope_exists(self) -> SweepPolicy:
        if self.default_scope not in self.scopes:
            raise ValueError(f"default_scope {self.default_scope!r} is not one of scopes")
        return self


class EvalPolicy(Strict):
    metric_prefix: str = "exact_match,"
    fallback_threshold: float = 0.85
    strict_metric: str = "exact_match,strict-match"  # name given to agg rows' em_strict
    flexible_metric: str = "exact_match,flexible-extract"  # name given to agg rows' em_flexible
    # task -> samples in its full test set; a score on fewer (n_eff) was a limited eval
    full_samples: dict[str, int] = Field(default_factory=dict)


class EngineFlags(Strict):
    """How one engine's argument parser reads a long flag (so every check reads it the same way).

    The defaults are the most permissive reading, used for an engine the profile does not list:
    for a banned flag, a spelling that might reach it counts as reaching it."""

    underscores_as_dashes: bool = True  # `--hf_overrides` is `--hf-overrides`
    abbreviations: bool = True  # argparse's allow_abbrev: a unique prefix selects the flag
    dotted_json: bool = True  # `--hf-overrides.key value` sets one key of `--hf-overrides`
    aliases: tuple[tuple[str, ...], ...] = ()  # spellings of one flag; the first is canonical


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


class ReusePolicy(Strict):
    command: str = "/reuse-sweep-run"
    use_command: str = "/use"  # from #3192 (switch reuse_use_command); its run id is required
    authorized_associations: tuple[str, ...] = ("OWNER", "MEMBER", "COLLABORATOR")


class ImagePolicy(Strict):
    established_skus: tuple[str, ...]
    upstream_orgs: dict[str, tuple[str, ...]]  # framework -> allowed Docker Hub orgs
    # Check 6(b): the frameworks whose entry puts vLLM/SGLang first for a model and SKU (E1-E10)
    engine_first_frameworks: tuple[str, ...] = ("vllm", "sglang")
    # Open-source deployments of vLLM/SGLang (directly, through Dynamo, disaggregated): never
    # ordered themselves; from the later prompt (switch engine_first_open_source) any of them
    # puts vLLM/SGLang first. Every other framework (trt, dynamo-trt, atom, ...) is a vendor's
    # and comes after, an unknown one included (fail closed).
    open_source_frameworks: tuple[str, ...] = ("vllm", "sglang")
    exception_cues: tuple[str, ...] = ()  # detail-section phrases documenting an exception
    sku_pattern: str = r"^(?:cluster:)?([a-z0-9]+?)(?:-|$)"


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
    allowlist: tuple[ArchOverrideAllow, ...] = ()
    banned_settings: tuple[BannedSetting, ...] = ()


class SpecDecodePolicy(Strict):
    spec_values: tuple[str, ...] = ("mtp", "draft_model")
    script_flags: tuple[str, ...] = ()
    # Flags of the benchmark client, a shell function that matches each argument exactly
    # (`case $1 in --use-chat-template)`): no other spelling turns the chat template on.
    chat_template_flags: tuple[str, ...] = ("--use-chat-template",)
    client_commands: tuple[str, ...] = ("run_benchmark_serving",)
    # Server flags naming the chat template file the engine renders prompts with: one the PR
    # adds or changes decides the prompt format the draft model sees (Check 8, not Check 7).
    server_chat_template_flags: tuple[str, ...] = ("--chat-template",)


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


class PatchPattern(Strict):
    id: str
    regex: str  # searched in each command line (continuations joined, comments dropped)
    what: str  # how a reason describes a hit: "applies a patch with git apply"
    engine_path: bool = False  # also needs an installed-engine location on the same line

    @field_validator("regex")
    @classmethod
    def _compiles(cls, value: str) -> str:
        re.compile(value)
        return value


class TrustedRecipeRepo(Strict):
    """A recipe orchestrator repository whose pinned checkout is not patching by itself: what
    it runs patches the engine only through what the launch names (a setup script), which the
    patch patterns read in the PR's own recipe and launcher lines."""

    repo: str  # owner/name on GitHub, compared without case
    decision: str = Field(min_length=1)  # the maintainer decision it rests on (URLs)

    @field_validator("decision")
    @classmethod
    def _cites_a_decision(cls, value: str) -> str:
        if "https://" not in value:
            raise ValueError("decision must cite the maintainer decision it rests on (a URL)")
        return value.strip()


class PatchPolicy(Strict):
    """What counts as patching the serving stack, and what a waiver must look like."""

    waiver_dir: str = "docs/waiver"
    patterns: tuple[PatchPattern, ...] = ()
    engine_paths: tuple[str, ...] = ()  # regexes of installed-engine locations
    harness_cues: tuple[str, ...] = ()  # lines naming these are client/eval tooling: allowed
    external_pins: tuple[PatchPattern, ...] = ()  # added lines fetching recipe code at a pin
    trusted_recipe_repos: tuple[TrustedRecipeRepo, ...] = ()  # pinned checkouts that run no patch
    launcher_paths: tuple[str, ...] = ("runners/**",)  # shared launchers: added lines only
    recipe_paths: tuple[str, ...] = ()  # recipe files (srt-slurm YAML): added lines only
    shared_libraries: tuple[str, ...] = ()  # sourced by every script: added lines only
    waiver_sections: tuple[str, ...] = ()  # lower-case cues a waiver's text must contain


class AcceptanceKnob(Strict):
    """One engine's synthetic-acceptance setting: where a server launch takes it (an exported
    variable, a flag, or a key of a flag's JSON value) and, for recipe text, a regex."""

    engine: str  # vllm, sglang, trtllm, atom (the standard's switch lists those in force)
    name: str
    regex: str  # group `v` is the value: a number, a $VARIABLE or a printf conversion
    offset: float = 0  # added to the value to get the AL (TRT-LLM counts draft tokens: +1)
    rate: bool = False  # the value is (AL - 1) / draft length (ATOM's rate spelling)
    env: str = ""  # the variable the server reads from its environment
    flag: str = ""  # the server flag that carries it
    key: str = ""  # with `flag`: the key of the flag's JSON value
    requires: dict[str, str] = Field(default_factory=dict)  # keys the same JSON must also hold

    @field_validator("regex")
    @classmethod
    def _has_value_group(cls, value: str) -> str:
        if "v" not in re.compile(value).groupindex:
            raise ValueError("regex needs a (?P<v>...) group")
        return value


class DraftSetting(Strict):
    regex: str  # group `v`: the draft length (a number or a $VARIABLE), in recipe text
    offset: int = 0  # `--speculative-num-draft-tokens` is steps + 1: offset -1
    flag: str = ""  # the server flag that sets it (with `key`: a key of its JSON value)
    key: str = ""
    written: bool = False  # set in a config file the script writes (TRT-LLM's max_draft_len)

    @field_validator("regex")
    @classmethod
    def _has_value_group(cls, value: str) -> str:
        if "v" not in re.compile(value).groupindex:
            raise ValueError("regex needs a (?P<v>...) group")
        return value


class GoldenAlPolicy(Strict):
    """Agentic spec-decode acceptance: where the golden curves are and how configs pin them."""

    directory: str = "golden_al_distribution"
    model_keys: dict[str, tuple[str, ...]] = Field(default_factory=dict)  # prefix -> model ids
    default_mode: str = "thinking_on"
    thinking_off: tuple[str, ...] = ()  # regexes that mark a config as thinking off
    knobs: tuple[AcceptanceKnob, ...] = ()
    drafts: tuple[DraftSetting, ...] = ()
    spec_config: str = "speculative[-_]config"  # a spec config; without `synthetic` = real AL
    synthetic_marker: str = "synthetic"
    opt_in: str = "SYNTHETIC_ACCEPTANCE=true"  # master-config setting the runners inject from
    opt_in_length: str = "SYNTHETIC_ACCEPTANCE_LENGTH"
    recipe_dirs: dict[str, str] = Field(default_factory=dict)  # recipe directory -> prefix
    recipe_roots: dict[str, str] = Field(default_factory=dict)  # CONFIG_FILE prefix -> repo dir
    master_vendors: tuple[str, ...] = ("nvidia", "amd")  # fill the master-config glob's `*`
    source_cues: tuple[str, ...] = ()  # detail phrases stating where an AL came from
    exception_cues: tuple[str, ...] = ()  # detail phrases of a sanctioned exception
    tolerance: float = 0.005  # golden values have two decimals
    # which sweep job and scenario of a changed agentic script is held to the golden AL (the
    # benchmark job binds EVAL_ONLY=false; the eval job keeps real acceptance)
    job: str = "benchmark"
    scenario: str = "agentic-coding"


class AppendOnlyPolicy(Strict):
    changelog: str = "perf-changelog.yaml"
    forbidden_labels: tuple[str, ...] = ("all-evals", "evals-only")  # cannot mix with append-only


class PointVariable(Strict):
    """A search-space key and the variable the sweep exports for it."""

    env: str
    default: str | None = None  # exported when the search space omits the key (None: unset)
    field: str = ""  # for a mapping value (`kv-offload-backend: {name: ...}`): the key exported
    label: bool = False  # part of a configuration's name in reasons even when it never varies


class MaxModelLen(Strict):
    env: str = "MAX_MODEL_LEN"
    pad: int = 256  # the sweep exports isl + osl + pad


Identifier = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]


class JobEnvironment(Strict):
    """What else the benchmark job's environment may hold besides the sweep's own variables.

    A variable a script reads only through a fallback form (`${X:-word}`) and that none of these
    names is unset when the job runs the script: Check 3 reads it so (its fallback applies).
    """

    # Names the sweep workflow's job and launch step set, the runner launchers export or pass
    # into the container, and the benchmark library (sourced by every script) assigns.
    exported: tuple[Identifier, ...] = ()
    # Names and name prefixes a shell, the machine, the CI runner, the scheduler or a container
    # image may set on its own: never read as unset.
    platform_names: tuple[Identifier, ...] = ()
    platform_prefixes: tuple[Identifier, ...] = ()
    # Globs of the files `exported` is read from: a PR changing one may export anything, so
    # nothing is read as unset for it.
    exported_by: tuple[str, ...] = Field(min_length=1)

    def may_hold(self, name: str) -> bool:
        """Whether the job's environment may hold `name` (a set of names is faster for many)."""
        return (
            name in self.exported
            or name in self.platform_names
            or name.startswith(self.platform_prefixes)
        )


class SweepEnv(Strict):
    """The environment the sweep gives a single-node benchmark script, per configuration point."""

    entry: dict[str, str] = Field(default_factory=dict)  # variable -> master-config entry field
    point: dict[str, PointVariable] = Field(default_factory=dict)  # search-space key -> variable
    concurrency: str = "CONC"
    isl: str = "ISL"
    osl: str = "OSL"
    max_model_len: MaxModelLen = MaxModelLen()
    booleans: dict[str, str] = Field(default_factory=lambda: {"true": "true", "false": "false"})
    constants: dict[str, str] = Field(default_factory=dict)  # the same for every job
    scenarios: dict[str, dict[str, str]] = Field(default_factory=dict)  # per scenario
    jobs: dict[str, dict[str, str]] = Field(default_factory=dict)  # per job kind
    conc_step: int = Field(default=2, ge=2)  # conc-start..conc-end multiplies by this
    max_points: int = Field(default=512, ge=1)  # configuration points read per entry
    max_evaluations: int = Field(default=256, ge=1)  # distinct environments evaluated per entry
    # None: every variable the sweep does not bind stays unknown, for every check
    environment: JobEnvironment | None = None

    def variables(self) -> frozenset[str]:
        """Every variable the sweep itself exports to a script, at any point of any job."""
        names = {*self.entry, *self.constants, self.concurrency, self.isl, self.osl}
        names |= {variable.env for variable in self.point.values()}
        names |= {name for values in (*self.scenarios.values(), *self.jobs.values())
                  for name in values}  # fmt: skip
        return frozenset({*names, self.max_model_len.env})


# A GitHub login as a mention: the comment renders it as written, so nothing else may pass.
Login = Annotated[str, StringConstraints(pattern=r"^@[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$")]


class PublishPolicy(Strict):
    marker: str = "codeowner-signoff-verify"
    # Besides accounts named in CODEOWNERS (directly or through a team), the associations whose
    # sign-off may replace a head's verdict; anyone else's is skipped, nothing written.
    trusted_associations: tuple[str, ...] = ("OWNER", "MEMBER", "COLLABORATOR")
    status_context: str = "codeowner-signoff-verify"
    # The status descriptions and publishing options below default (null) to the standard's
    # (signoff/publish/style.py): InferenceX changed them in September 2026 (#3164, #3338,
    # #3340). The classic texts are the ones before #3164.
    classic_pass: str = "CODEOWNER sign-off independently verified"
    classic_fail: str = "Sign-off verification rejected - see verdict comment"
    status_pass: str | None = None
    status_warn: str | None = None  # None: the passing text (a WARN publishes `success`)
    status_fail: str | None = None
    status_stale: str | None = None
    footer_commits: bool | None = None
    # Logins the comment mentions above the findings when a check warns (#3300: Check 14's
    # warning asks the core maintainers for an admin exception): check id -> "@login"s.
    escalations: dict[str, tuple[Login, ...]] = Field(default_factory=dict)
    collapse_passing: bool | None = None
    comment_per_run: bool | None = None
    trigger_on_edits: bool | None = None
    status_error: str = "Sign-off could not be verified - see workflow run"


class CodeownersScope(Strict):
    """Who may own a file without a sign-off being needed (#3155, switch signoff_scope_owners)."""

    core_teams: tuple[str, ...] = ()  # "@SemiAnalysisAI/core"
    admins: tuple[str, ...] = ()  # "@login" of verified repository admins (needs `decision`)
    decision: str = ""

    @model_validator(mode="after")
    def _decided(self) -> CodeownersScope:
        if self.admins and not self.decision.strip():
            raise ValueError("admins need the maintainer decision that verified them")
        return self


class AuditPolicy(Strict):
    """How `signoff audit` reads past merges: who published verdicts, what a gated PR touches."""

    verifier_logins: tuple[str, ...] = ()  # accounts whose verdict comments count as published
    gated_paths: tuple[str, ...] = ()  # globs: a merged PR touching one of these needed a sign-off
    verdict_pass: str = "Verdict: PASS"  # header text of a published PASS
    verdict_warn: str = "Verdict: WARN"  # header text of a published WARN (#3300, 2026-09-20)
    verdict_rejected: str = "REJECTED"  # header text of a published rejection
    # Published row names the era's standard does not list (names and aliases come from the
    # standards file first): row name as printed inside "Check N (...)" -> check id.
    verdict_rows: dict[str, str] = Field(default_factory=dict)


class RuleConfig(Strict):
    """Per-profile settings of one check (like zizmor's per-rule config)."""

    disable: bool = False  # a disabled check is left out of every standard


class Policy(Strict):
    schema_version: int
    name: str
    standards: StandardsBook  # the profile names a file beside it; loaded in load_policy
    rules: dict[str, RuleConfig] = Field(default_factory=dict)  # check id -> settings
    paths: Paths = Paths()
    signoff: SignoffSyntax
    template_items: tuple[TemplateItemSpec, ...] = Field(min_length=1)
    sweep: SweepPolicy
    evals: EvalPolicy = EvalPolicy()
    recipe: RecipePolicy
    reuse: ReusePolicy = ReusePolicy()
    images: ImagePolicy
    arch: ArchPolicy
    spec_decode: SpecDecodePolicy = SpecDecodePolicy()
    draft_precision: DraftPrecisionPolicy = DraftPrecisionPolicy()
    publish: PublishPolicy = PublishPolicy()
    codeowners_scope: CodeownersScope = CodeownersScope()
    patches: PatchPolicy = PatchPolicy()
    golden_al: GoldenAlPolicy = GoldenAlPolicy()
    append_only: AppendOnlyPolicy = AppendOnlyPolicy()
    engines: dict[str, EngineFlags] = Field(default_factory=dict)  # "vllm", "sglang", ...
    sweep_env: SweepEnv = SweepEnv()
    audit: AuditPolicy = AuditPolicy()

    @field_validator("schema_version")
    @classmethod
    def _supported(cls, value: int) -> int:
        if value != PROFILE_SCHEMA_VERSION:
            raise ValueError(f"unsupported profile schema_version {value}")
        return value

    @property
    def disabled_checks(self) -> tuple[str, ...]:
        return tuple(sorted(check for check, rule in self.rules.items() if rule.disable))


def default_profile_path() -> Path:
    """`$SIGNOFF_PROFILE`, else the shipped profile: checklists/inferencex.yaml.

    One file, two ways to reach it: an installed wheel carries checklists/ as the package data
    `signoff/checklists/` (pyproject.toml maps it); a source tree or an editable install reads
    it where it lives, beside the package.
    """
    override = os.environ.get("SIGNOFF_PROFILE")
    if override:
        return Path(override)
    here = Path(__file__).resolve().parent
    installed = here / "checklists" / DEFAULT_PROFILE_NAME
    return installed if installed.is_file() else here.parent / "checklists" / DEFAULT_PROFILE_NAME


def load_policy(path: str | Path | None = None) -> Policy:
    """Load and validate a profile; errors name file:line and the offending key."""
    source = Path(path) if path is not None else default_profile_path()
    return _load_policy_cached(str(source))


@lru_cache(maxsize=8)
def _load_policy_cached(source: str) -> Policy:
    path = Path(source)
    return load_data_file(
        path, Policy, "policy profile", lambda data, lines: _with_standards(data, path, lines)
    )


def _with_standards(
    data: dict[str, object], source: Path, lines: dict[Any, int]
) -> dict[str, object]:
    """The profile with its `standards:` file name replaced by the loaded standards book."""
    name = data.get("standards")
    if not isinstance(name, str) or not name.strip():
        line = line_of(lines, ("standards",))
        raise PolicyError(f"{source}:{line}: standards: name the standards file beside the profile")
    book: StandardsBook = load_standards(source.parent / name.strip())
    return {**data, "standards": book}
