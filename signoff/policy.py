"""The policy profile: every repository-specific parameter of the rules, loaded from typed YAML.

Code holds mechanisms; `checklists/<profile>.yaml` holds what InferenceX (or another repository)
decides: item cues, check-run families, SKUs, image orgs, flags, paths and names. This module
holds the sections several parts of signoff read; a section of one check's own is that check's
(`rules.<id>.config`, its model in signoff/rules/), read here into `rule_configs`.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
    model_validator,
)

from signoff.data_files import Lines, load_data_file
from signoff.errors import PolicyError
from signoff.rules import SECTIONS, required
from signoff.rules.agentic_golden_al import AcceptanceKnob as AcceptanceKnob
from signoff.rules.agentic_golden_al import DraftSetting as DraftSetting
from signoff.rules.agentic_golden_al import GoldenAlPolicy as GoldenAlPolicy
from signoff.rules.base import Decision, Strict
from signoff.rules.engine_patches import PatchPattern as PatchPattern
from signoff.rules.engine_patches import PatchPolicy as PatchPolicy
from signoff.rules.recipe import Hardware as Hardware
from signoff.rules.recipe import RecipePolicy as RecipePolicy
from signoff.rules.recipe import RecipeStrategy as RecipeStrategy
from signoff.rules.shortcuts import C, ConfigShortcuts
from signoff.standards import StandardsBook, load_standards
from signoff.yamlload import line_of

PROFILE_SCHEMA_VERSION = 1
DEFAULT_PROFILE_NAME = "inferencex.yaml"


class TrustedSubmodule(Strict):
    """A submodule the maintainers decided a PR may point at another commit of the repository
    it names: the files in it count for nothing then, unless the PR changes a `url` in
    `.gitmodules` (which repository it is)."""

    path: str = Field(min_length=1)  # as .gitmodules and the PR's file list name it
    repository: str = Field(min_length=1)  # the `url` the base's .gitmodules gives it
    decision: Decision  # the maintainer decision it rests on (URLs)


class Paths(Strict):
    codeowners: str = ".github/CODEOWNERS"
    template: str = "docs/PR_REVIEW_CHECKLIST.md"
    thresholds: str = "utils/evals/thresholds.yaml"
    master_configs: str = "configs/*-master.yaml"  # fnmatch glob, top-level files only
    benchmark_scripts: str = "benchmarks/**/*.sh"
    single_node_scripts: str = "benchmarks/single_node/**"
    multi_node_scripts: str = "benchmarks/multi_node/**"
    # Where the launchers' containers mount the checkout (`-v $GITHUB_WORKSPACE:/workspace/`):
    # an absolute path under one is a checkout path (`pip install /workspace/tools/pkg`).
    checkout_mounts: tuple[str, ...] = ()
    trusted_submodules: tuple[TrustedSubmodule, ...] = ()


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
    # only when the sweep executes it (judge/sweep_definition.py); a test or a document is not.
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


class EngineFlags(Strict):
    """How one engine's argument parser reads a long flag (so every check reads it the same way).

    The defaults are the most permissive reading, used for an engine the profile does not list:
    for a banned flag, a spelling that might reach it counts as reaching it."""

    underscores_as_dashes: bool = True  # `--hf_overrides` is `--hf-overrides`
    abbreviations: bool = True  # argparse's allow_abbrev: a unique prefix selects the flag
    dotted_json: bool = True  # `--hf-overrides.key value` sets one key of `--hf-overrides`
    aliases: tuple[tuple[str, ...], ...] = ()  # spellings of one flag; the first is canonical


class SidecarImage(Strict):
    """A container image that runs beside the engine, which the maintainers decided to run."""

    repository: str = Field(min_length=1)  # `nginx`: any tag or digest of it, on Docker Hub
    decision: Decision  # the maintainer decision it rests on (URLs)


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
    # Images a script or launcher may run beside the sweep's own (judge/script_files,
    # judge/checks/engine_patches/launcher_images); any other image it names in full fails closed.
    sidecars: tuple[SidecarImage, ...] = ()


class SpecDecodePolicy(Strict):
    spec_values: tuple[str, ...] = ("mtp", "draft_model")
    script_flags: tuple[str, ...] = ()
    # Flags of the benchmark client, a shell function that matches each argument exactly
    # (`case $1 in --use-chat-template)`): no other spelling turns the chat template on.
    chat_template_flags: tuple[str, ...] = ("--use-chat-template",)
    client_commands: tuple[str, ...] = ("run_benchmark_serving",)
    # Library scripts the benchmark scripts source, by base name: not read (what they run is the
    # client's), sourcing one defines the client functions (parse/benchmark/commands.py).
    library_scripts: tuple[str, ...] = ("benchmark_lib.sh",)
    # Server flags naming the chat template file the engine renders prompts with: one the PR
    # adds or changes decides the prompt format the draft model sees (Check 8, not Check 7).
    server_chat_template_flags: tuple[str, ...] = ("--chat-template",)
    # What srtctl does when a multi-node recipe's `benchmark:` section has no
    # `use_chat_template` key, per benchmark type (`sa-bench`: on). A type not listed here
    # has no known default, so a recipe without the key is not shown to turn it on.
    recipe_chat_template_defaults: dict[str, bool] = Field(default_factory=dict)
    recipe_chat_template_source: str = ""  # where the defaults were read (required with them)

    @model_validator(mode="after")
    def _defaults_have_a_source(self) -> SpecDecodePolicy:
        if self.recipe_chat_template_defaults and not self.recipe_chat_template_source.strip():
            raise ValueError("recipe_chat_template_defaults needs the source they were read from")
        return self


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


class TrustedFetch(Strict):
    """A program a benchmark script fetches and runs that the maintainers decided to run."""

    url: str = Field(min_length=1)  # compared whole
    decision: Decision  # the maintainer decision it rests on (URLs)


class FetchedCode(Strict):
    """Programs a script fetches from the network when the sweep runs and then runs (`curl URL |
    sh`, a file `curl -o` saved, a `git clone`'s script): their text is whatever the URL serves
    then, which the PR's author chose (judge/fetched_code.py)."""

    # the commands that fetch (first word, or `git clone`), matched against a command's words
    # (a tool's own options, with their values, may stand between its words: `git -C d clone`)
    fetchers: tuple[str, ...] = (
        "curl", "wget", "aria2c", "git clone", "gh repo clone", "hf download",
        "huggingface-cli download",
    )  # fmt: skip
    trusted: tuple[TrustedFetch, ...] = ()
    # a trusted URL counts only as a plain fetch: options that change nothing of where it goes
    # or what it accepts (a regex over one word; saving options are read as such)
    plain_options: str = r"-[LsSfq]+|--(?:location|silent|show-error|fail|quiet|no-verbose)"
    # settings that reconfigure the fetchers from outside their command line (a config file,
    # a CA bundle, TLS checks off): a reading whose text names one trusts no fetch
    reconfigures: str = (
        r"\.curlrc|\bCURL_HOME\b|\bCURL_CA_BUNDLE\b|\bSSL_CERT_(?:FILE|DIR)\b|\.wgetrc|"
        r"\bWGETRC\b|\bGIT_SSL_NO_VERIFY\b|\bsslVerify\b|\bGIT_CONFIG\w*\b"
    )


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
    """Per-profile switches of one check (like zizmor's per-rule config); its own settings, when
    it has any, are `rules.<id>.config`, read by load_policy into `Policy.rule_configs`."""

    disable: bool = False  # a disabled check is left out of every standard


class Policy(Strict, ConfigShortcuts):
    schema_version: int
    name: str
    standards: StandardsBook  # the profile names a file beside it; loaded in load_policy
    rules: dict[str, RuleConfig] = Field(default_factory=dict)  # check id -> settings
    # check id -> its `rules.<id>.config`, validated by its model (signoff/rules/) in load_policy
    rule_configs: dict[str, Strict] = Field(default_factory=dict)
    paths: Paths = Paths()
    signoff: SignoffSyntax
    template_items: tuple[TemplateItemSpec, ...] = Field(min_length=1)
    sweep: SweepPolicy
    images: ImagePolicy
    spec_decode: SpecDecodePolicy = SpecDecodePolicy()
    publish: PublishPolicy = PublishPolicy()
    append_only: AppendOnlyPolicy = AppendOnlyPolicy()
    engines: dict[str, EngineFlags] = Field(default_factory=dict)  # "vllm", "sglang", ...
    sweep_env: SweepEnv = SweepEnv()
    audit: AuditPolicy = AuditPolicy()
    fetched_code: FetchedCode = FetchedCode()

    @field_validator("schema_version")
    @classmethod
    def _supported(cls, value: int) -> int:
        if value != PROFILE_SCHEMA_VERSION:
            raise ValueError(f"unsupported profile schema_version {value}")
        return value

    @property
    def disabled_checks(self) -> tuple[str, ...]:
        return tuple(sorted(check for check, rule in self.rules.items() if rule.disable))

    def config(self, model: type[C]) -> C:
        """The section of the check whose config model is `model` (see signoff/rules/)."""
        for value in self.rule_configs.values():
            if type(value) is model:
                return value
        raise KeyError(f"no check's config is a {model.__name__}")

    def with_config(self, value: Strict) -> Policy:
        """This profile with one check's section replaced (for tests and what-ifs)."""
        (check,) = (k for k, v in self.rule_configs.items() if type(v) is type(value))
        return self.model_copy(update={"rule_configs": {**self.rule_configs, check: value}})


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
        path,
        Policy,
        "policy profile",
        lambda data, lines: _with_check_configs(_with_standards(data, path, lines), path, lines),
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


def _with_check_configs(data: dict[str, object], source: Path, lines: Lines) -> dict[str, object]:
    """The profile with each check's section read into `rule_configs` by the check's model.

    A section is `rules.<id>.config`, or the top-level key older profiles used (`recipe:`); an
    error names the section as the profile wrote it, with its line."""
    if "rule_configs" in data:
        line = line_of(lines, ("rule_configs",))
        raise PolicyError(f"{source}:{line}: rule_configs: Extra inputs are not permitted")
    data = dict(data)
    rules = data.get("rules")
    rules = dict(rules) if isinstance(rules, dict) else rules
    configs: dict[str, Strict] = {}
    for section in SECTIONS:
        entry = rules.get(section.ID) if isinstance(rules, dict) else None
        if isinstance(entry, dict) and "config" in entry:
            if section.LEGACY in data:
                line = line_of(lines, (section.LEGACY,))
                raise PolicyError(
                    f"{source}:{line}: {section.LEGACY}: also given as rules.{section.ID}.config"
                )
            assert isinstance(rules, dict)
            rules[section.ID] = {key: value for key, value in entry.items() if key != "config"}
            written: tuple[str, ...] = ("rules", section.ID, "config")
            value = entry["config"]
        elif section.LEGACY in data:
            written, value = (section.LEGACY,), data.pop(section.LEGACY)
        elif required(section.Config):
            raise PolicyError(f"{source}:{line_of(lines, (section.LEGACY,))}: {section.LEGACY}: "
                              "Field required")  # fmt: skip
        else:
            written, value = (section.LEGACY,), {}
        configs[section.ID] = _validated(section.Config, value, written, source, lines)
    if rules is not None:
        data["rules"] = rules
    return {**data, "rule_configs": configs}


def _validated(
    model: type[Strict], value: object, written: tuple[str, ...], source: Path, lines: Lines
) -> Strict:
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = (*written, *first["loc"])
        where = ".".join(str(part) for part in loc)
        raise PolicyError(f"{source}:{line_of(lines, loc)}: {where}: {first['msg']}") from None
