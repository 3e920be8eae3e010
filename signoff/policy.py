"""The policy profile: every repository-specific parameter of the rules, loaded from typed YAML.

Code holds mechanisms; `checklists/<profile>.yaml` holds what InferenceX (or another repository)
decides: item cues, check-run families, SKUs, image orgs, flags, paths and names.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from signoff.errors import PolicyError
from signoff.yamlload import line_of, load_yaml_with_lines

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
    check: str | None = None  # the check id this item feeds (None: not machine-verified)


class CheckRunFamily(Strict):
    name: str
    patterns: tuple[str, ...] = Field(min_length=1)  # fnmatch globs over check-run names
    required: bool = True  # False: only judged when at least one run executed


class SweepScope(Strict):
    families: tuple[CheckRunFamily, ...] = Field(min_length=1)


class SweepPolicy(Strict):
    scopes: dict[str, SweepScope]
    default_scope: str
    ignored_check_runs: tuple[str, ...] = ()  # globs never counted (collect-evals ...)
    affecting_paths: tuple[str, ...]  # PR changes here after the sweep invalidate it
    ignored_diff_lines: tuple[str, ...] = ()  # regexes of changed lines that never matter

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


class EngineFlags(Strict):
    """How one engine's argument parser reads a long flag (so every check reads it the same way)."""

    underscores_as_dashes: bool = True  # `--hf_overrides` is `--hf-overrides`
    abbreviations: bool = True  # argparse's allow_abbrev: a unique prefix selects the flag
    aliases: tuple[tuple[str, ...], ...] = ()  # spellings of one flag; the first is canonical


class RecipeSource(Strict):
    kind: str  # "pull" (a PR in an upstream repo) or "page" (published documentation)
    host: str
    repo: str = ""  # owner/name for kind pull
    path_prefix: str = ""  # for pages: the URL path must start with this


class RecipePolicy(Strict):
    sources: tuple[RecipeSource, ...]
    merged_cue: str = "MERGED"  # when the template's recipe sub-item says this, PRs must be merged
    major_args: tuple[str, ...]
    informational_args: tuple[str, ...] = ()
    arg_aliases: tuple[tuple[str, ...], ...] = ()  # spellings of one server argument
    disagg_frameworks: tuple[str, ...] = ()


class ReusePolicy(Strict):
    command: str = "/reuse-sweep-run"
    authorized_associations: tuple[str, ...] = ("OWNER", "MEMBER", "COLLABORATOR")


class ImagePolicy(Strict):
    established_skus: tuple[str, ...]
    upstream_orgs: dict[str, tuple[str, ...]]  # framework -> allowed Docker Hub orgs
    engine_first_frameworks: tuple[str, ...] = ("vllm", "sglang")
    exempt_frameworks: tuple[str, ...] = ()  # variants the literal image rule does not cover
    exception_cues: tuple[str, ...] = ()  # detail-section phrases documenting an exception
    sku_pattern: str = r"^(?:cluster:)?([a-z0-9]+?)(?:-|$)"


class ArchOverrideAllow(Strict):
    model_prefix: str
    flag: str
    contains: str = ""  # the override value must contain this text
    reason: str


class ArchPolicy(Strict):
    flags: tuple[str, ...]  # server flags that override model architecture
    config_keys: tuple[str, ...] = ()  # YAML/JSON keys with the same effect
    edit_patterns: tuple[str, ...] = ()  # regexes of shell lines that edit model config files
    allowlist: tuple[ArchOverrideAllow, ...] = ()


class SpecDecodePolicy(Strict):
    spec_values: tuple[str, ...] = ("mtp", "draft_model")
    script_flags: tuple[str, ...] = ()
    chat_template_flags: tuple[str, ...] = ("--use-chat-template",)
    client_commands: tuple[str, ...] = ("run_benchmark_serving",)


class PublishPolicy(Strict):
    marker: str = "codeowner-signoff-verify"
    status_context: str = "codeowner-signoff-verify"
    status_pass: str = "CODEOWNER sign-off independently verified"
    status_fail: str = "Sign-off verification rejected - see verdict comment"
    status_error: str = "Sign-off could not be verified - see workflow run"


class Policy(Strict):
    schema_version: int
    name: str
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
    publish: PublishPolicy = PublishPolicy()
    engines: dict[str, EngineFlags] = Field(default_factory=dict)  # "vllm", "sglang", ...

    @field_validator("schema_version")
    @classmethod
    def _supported(cls, value: int) -> int:
        if value != PROFILE_SCHEMA_VERSION:
            raise ValueError(f"unsupported profile schema_version {value}")
        return value


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
    try:
        text = Path(source).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise PolicyError(
            f"{source}: not a policy profile (not UTF-8 at byte {exc.start})"
        ) from None
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise PolicyError(f"{source}: cannot read policy profile ({why})") from None
    try:
        data, lines = load_yaml_with_lines(text)
    except Exception as exc:  # yaml.YAMLError carries its own mark
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        raise PolicyError(f"{source}:{line}: profile is not valid YAML") from None
    if not isinstance(data, dict):
        raise PolicyError(f"{source}:1: profile must be a mapping")
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = tuple(first["loc"])
        where = ".".join(str(part) for part in loc) or "(top level)"
        line = line_of(lines, loc)
        raise PolicyError(f"{source}:{line}: {where}: {first['msg']}") from None
