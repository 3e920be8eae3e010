"""The agentic golden AL check: where the golden curves are and how a launch pins its acceptance.

Read from the profile's `rules.agentic-golden-al.config`
(or its older top-level key `golden_al:`).
"""

from __future__ import annotations

import re

from pydantic import Field, field_validator, model_validator

from signoff.rules.base import Strict

ID = "agentic-golden-al"  # the check whose section this is
LEGACY = "golden_al"  # the top-level key profiles wrote it under before `rules.<id>.config`


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


class LaunchRole(Strict):
    """How one engine's disaggregated launch names its role: a flag's value, or a key of the
    flag's JSON value; `decode` lists the values that make it a decode server."""

    flag: str
    key: str = ""
    decode: tuple[str, ...]


class ServerChain(Strict):
    """One launcher's multi-node path to the inference servers: the entry's script runs the
    chain's scripts by file, and the server script for the entry's framework starts them."""

    runners: tuple[str, ...]  # the master-config runner labels whose launcher runs this chain
    frameworks: tuple[str, ...]  # the entry frameworks the launcher runs it for
    # The entry's script, from its fields (`{model_prefix}`, `{precision}`, `{framework}`).
    entry_script: str
    files: tuple[str, ...]  # globs: every file of the chain but the entry's script
    scripts: tuple[str, ...] = ("*.sh",)  # which of them are shell scripts (name globs)
    programs: tuple[str, ...] = ("*.py",)  # which are programs of another language (not read)
    server_scripts: dict[str, str]  # framework -> the chain's script that starts its servers
    # What the chain hands the server script for the benchmark job (`{model_name}`: the last
    # part of the entry's model id, as the launcher derives MODEL_NAME); the script is read
    # with these bound, as the benchmark job runs it.
    server_env: dict[str, str] = Field(default_factory=dict)
    # Additional settings of the entry the chain carries to the server script, with the value
    # it has when the entry sets none; the others do not reach it.
    settings: dict[str, str] = Field(default_factory=dict)
    # The setting the server script builds the decode draft length from: the length, when the
    # launch's own flags do not show one and the PR did not change the server script.
    draft: str = ""
    # How a launch names its role, per engine: a launch whose role is known and not a decode
    # role is not held to the knob (acceptance is decided where the decode server verifies
    # drafts); any other launch is.
    roles: dict[str, LaunchRole] = Field(default_factory=dict)
    feeds: tuple[str, ...] = ()  # variables the chain derives `server_env` and `settings` from
    source: str  # where the chain was read (commit and files)

    @model_validator(mode="after")
    def _names_its_fields(self) -> ServerChain:
        if not self.runners or not self.frameworks or not self.source.strip():
            raise ValueError(
                "a server chain names its runners, frameworks and the source it was read from"
            )
        if set(self.frameworks) - set(self.server_scripts):
            raise ValueError("a server chain names the server script of each of its frameworks")
        return self


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
    # multi-node entries that name no recipe and whose launcher runs a known chain of scripts
    # to the servers (AMD amd_utils)
    server_chains: tuple[ServerChain, ...] = ()


Config = GoldenAlPolicy
