"""The engine-patches check: what counts as patching the serving stack, and what a waiver is.

Read from the profile's `rules.engine-patches.config`
(or its older top-level key `patches:`).
"""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from signoff.rules.base import Decision, Strict

ID = "engine-patches"  # the check whose section this is
LEGACY = "patches"  # the top-level key profiles wrote it under before `rules.<id>.config`


class PatchPattern(Strict):
    id: str
    regex: str  # searched in each command line (continuations joined, comments dropped)
    what: str  # how a reason describes a hit: "applies a patch with git apply"
    engine_path: bool = False  # also needs an installed-engine location on the same line
    # a harness cue exempts only the words naming it: the command still counts when the line
    # without them matches (`pip install vllm==X aiperf` installs an engine all the same)
    harness_words: bool = False
    # the command of an install (a regex): an operand after it known only at run time in the
    # words a command ran with (`"$PKG"`, `$(cat list)`, or the input `xargs` hands it) may be
    # any package, an engine's fork too, and counts (option values and arrays do not)
    run_time_operands: str = ""
    # also searched in the body of each heredoc given to a command that runs (inline programs:
    # `python3 - <<EOF`); other patterns read shell command lines only
    inline: bool = False
    # a hit is allowed when every URL on its line starts with a `trusted_indexes` entry
    trusted_urls: bool = False

    @field_validator("run_time_operands")
    @classmethod
    def _operands_compile(cls, value: str) -> str:
        re.compile(value)
        return value

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
    decision: Decision  # the maintainer decision it rests on (URLs)


class TrustedIndex(Strict):
    """A package index or links page the maintainers decided installs may use."""

    url: str = Field(min_length=8)  # a URL prefix: the index and everything under it
    decision: Decision  # the maintainer decision it rests on (URLs)


class PatchPolicy(Strict):
    """What counts as patching the serving stack, and what a waiver must look like."""

    waiver_dir: str = "docs/waiver"
    patterns: tuple[PatchPattern, ...] = ()
    engine_paths: tuple[str, ...] = ()  # regexes of installed-engine locations
    harness_cues: tuple[str, ...] = ()  # lines naming these are client/eval tooling: allowed
    # engine subpackages that are the benchmark client (`vllm.benchmarks`): an inline program
    # that writes only their modules' files is harness tooling (parse/benchmark/harness_program)
    harness_modules: tuple[str, ...] = ()
    external_pins: tuple[PatchPattern, ...] = ()  # added lines fetching recipe code at a pin
    trusted_recipe_repos: tuple[TrustedRecipeRepo, ...] = ()  # pinned checkouts that run no patch
    trusted_indexes: tuple[TrustedIndex, ...] = ()  # package indexes a `trusted_urls` hit may use
    launcher_paths: tuple[str, ...] = ("runners/**",)  # shared launchers: added lines only
    recipe_paths: tuple[str, ...] = ()  # recipe files (srt-slurm YAML): added lines only
    shared_libraries: tuple[str, ...] = ()  # sourced by every script: added lines only
    # functions of the shared library that run `pip install` with their arguments: a call is
    # read as that install (the unchanged library itself is not read)
    installer_functions: tuple[str, ...] = ()
    shadow_files: tuple[str, ...] = ()  # globs of files Python imports ahead of the engine
    waiver_sections: tuple[str, ...] = ()  # lower-case cues a waiver's text must contain


Config = PatchPolicy
