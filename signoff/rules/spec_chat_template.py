"""The spec-decode chat-template check: multi-node paths on which the benchmark client runs in a
repository script the entry's launcher reaches by file.

Read from the profile's `rules.spec-chat-template.config`
(or its older top-level key `spec_chat_template:`).
"""

from __future__ import annotations

from pydantic import Field, model_validator

from signoff.rules.base import Strict

ID = "spec-chat-template"  # the check whose section this is
LEGACY = (
    "spec_chat_template"  # the top-level key profiles wrote it under before `rules.<id>.config`
)


class ClientChain(Strict):
    """One launcher's multi-node path to the benchmark client: the entry's script runs the
    chain's scripts by file, and the client script calls the client."""

    runners: tuple[str, ...]  # the master-config runner labels whose launcher runs this chain
    frameworks: tuple[str, ...]  # the entry frameworks the launcher runs it for
    # The entry's script, from its fields (`{model_prefix}`, `{precision}`, `{framework}`).
    entry_script: str
    files: str  # a glob: every file of the chain but the entry's script
    scripts: tuple[str, ...] = ("*.sh",)  # which of them are shell scripts (name globs)
    programs: tuple[str, ...] = ("*.py",)  # which are programs of another language (not read)
    client_script: str  # the chain's file that calls the client
    # What the chain hands the client script for a spec-decode configuration (`{framework}`:
    # the entry's framework); the client script is read with these bound.
    client_env: dict[str, str] = Field(default_factory=dict)
    feeds: tuple[str, ...] = ()  # variables the chain derives `client_env` from
    source: str  # where the chain was read (commit and files)

    @model_validator(mode="after")
    def _names_its_fields(self) -> ClientChain:
        if not self.runners or not self.frameworks or not self.source.strip():
            raise ValueError(
                "a client chain names its runners, frameworks and the source it was read from"
            )
        return self


class SpecChatTemplatePolicy(Strict):
    """Check 8 (E4-E6; Check 9 from E7): where multi-node clients run outside a recipe."""

    client_chains: tuple[ClientChain, ...] = ()
    # Where a recipe outside the repository comes from: the workflow runs
    # `launcher` (`{node}`: a node name up to its first `_`) for the nodes `runner_labels`
    # lists under the entry's runner label.
    runner_labels: str = ""
    launcher: str = "runners/launch_{node}.sh"


Config = SpecChatTemplatePolicy
