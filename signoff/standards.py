"""Standards by era: which checks are in force, their numbers and row names, and the rule switches.

A repository's verifier changes over time. `checklists/<profile>-standards.yaml` holds that history
as data: the eras (the instant each came into force and the checks it numbered and named), a
timeline of rule switches that changed inside eras, and named standards such as signoff's own
`0-8`. `resolve_standard(spec, policy)` turns a user's choice (`0-8`, `current`, `E4`,
`at:2026-07-12T00:00:00Z`) into one `Standard`; the judge runs exactly its checks, keyed on ids.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from signoff.data_files import load_data_file
from signoff.errors import InputError

STANDARDS_SCHEMA_VERSION = 1
_ERA_ID = re.compile(r"^E\d+$", re.IGNORECASE)
_ROW_NAME_FOLD = re.compile(r"[^a-z0-9]+")


class Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Switches(Strict):
    """Rules that changed inside eras; each check reads the ones it needs from its context."""

    # Catch-all CODEOWNERS paths are satisfied by any recognised CODEOWNER (#1904); before, the
    # signer had to own every changed path.
    codeowner_catch_all: bool = True
    # Check 3 compares only the major server args (#1908); before, every launch flag counted.
    recipe_major_args_only: bool = True
    # Check 3 is N/A for exclusively multi-node/disaggregated changes (#2030).
    recipe_multinode_na: bool = True
    # Linked upstream recipe PRs must be merged (#2210). None: as the template's sub-item says.
    recipe_must_be_merged: bool | None = None
    # Master-config glob and thresholds file; None: the profile's `paths` value.
    master_configs: str | None = None
    thresholds: str | None = None
    # Engines whose synthetic-acceptance knob the agentic AL check recognises.
    agentic_al_engines: tuple[str, ...] = ("sglang", "vllm", "trtllm", "atom")
    # Check ids that only warn under the switch (#3368: reuse-command); a slot can say so too.
    warn_only: tuple[str, ...] = ()
    # Check 4 also accepts the profile's `reuse.use_command` (`/use <run_id>`, #3192).
    reuse_use_command: bool = False
    # The architecture-hack check also bans the profile's `arch.banned_settings`
    # (`publish_events_and_metrics: false`) and FAILs when it cannot read the effective value.
    banned_settings: bool = False
    # Check 6(b): every open-source deployment (`images.open_source_frameworks`: dynamo-vllm,
    # sglang-disagg, ...) satisfies engine-first; before, only a plain vLLM/SGLang entry did.
    engine_first_open_source: bool = False
    # A sign-off is needed only when a changed file's effective owner is neither a repository
    # admin nor the profile's core team (#3155); before, every gated PR needed one.
    signoff_scope_owners: bool = False
    # Publishing (signoff/publish/): the profile's `publish:` options default to these.
    footer_commits: bool = False  # footer names the assessed and covered commits (#3164)
    collapse_passing: bool = False  # PASS and N/A rows inside one <details> block
    comment_per_run: bool = False  # a new verdict comment per run (#3338), not one per SHA
    trigger_on_edits: bool = True  # edited sign-offs re-verify (until #3340)
    status_pass: str | None = None  # None: the profile's publish.status_pass
    status_fail: str | None = None
    status_stale: str | None = None  # on a head the verdict does not cover (#3164)


class CheckSlot(Strict):
    """One check as a standard prints it: its number, id and row name, and what it verifies."""

    number: int = Field(ge=0)
    id: str
    name: str
    items: tuple[str, ...] = ()  # template item ids this check verifies under this standard
    aliases: tuple[str, ...] = ()  # other row names seen in published verdicts of the era
    # Warning-only under this standard (E10+: Checks 4, 14, 15): what would FAIL it is a WARN.
    warn_only: bool = False


# How well an instant is known: `instant` (a merge time), `day` (only the UTC day: the instant is
# that day's 00:00:00Z) or `bound` (not known; the instant is the earliest it can have been).
Dated = Literal["instant", "day", "bound"]


class SwitchChange(Strict):
    at: datetime
    dated: Dated = "instant"
    commit: str
    pr: int | None = None
    note: str
    set: dict[str, Any]

    @field_validator("at")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        return _utc(value)

    @field_validator("set")
    @classmethod
    def _known_switches(cls, value: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(value) - set(Switches.model_fields))
        if unknown:
            raise ValueError(f"unknown switch {', '.join(unknown)}")
        Switches.model_validate(value)
        return value


class EraSpec(Strict):
    id: str
    start: datetime = Field(alias="from")
    dated: Dated = "instant"
    commit: str
    pr: int | None = None
    note: str = ""
    checks: tuple[CheckSlot, ...] = Field(min_length=1)

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    @field_validator("start")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        return _utc(value)

    @model_validator(mode="after")
    def _unique_slots(self) -> EraSpec:
        _check_slots(self.checks)
        return self


class NamedSpec(Strict):
    """A standard that is not an era: the latest rules with its own check list and overrides."""

    description: str
    checks: tuple[CheckSlot, ...] = Field(min_length=1)
    switches: dict[str, Any] = Field(default_factory=dict)
    # The timeline is applied up to this instant (None: all of it), so a named standard keeps
    # its rules when later eras change theirs (0-8 stays the mission's PASS/FAIL verdict).
    rules_as_of: datetime | None = None

    @field_validator("rules_as_of")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        return None if value is None else _utc(value)

    @model_validator(mode="after")
    def _valid(self) -> NamedSpec:
        _check_slots(self.checks)
        SwitchChange._known_switches(self.switches)
        return self


class StandardsBook(Strict):
    """The whole history: baseline switches, their timeline, the eras and the named standards."""

    schema_version: int
    default: str
    baseline: Switches = Switches()
    timeline: tuple[SwitchChange, ...] = ()
    eras: tuple[EraSpec, ...] = Field(min_length=1)
    named: dict[str, NamedSpec] = Field(default_factory=dict)

    @field_validator("schema_version")
    @classmethod
    def _supported(cls, value: int) -> int:
        if value != STANDARDS_SCHEMA_VERSION:
            raise ValueError(f"unsupported standards schema_version {value}")
        return value

    @model_validator(mode="after")
    def _ordered(self) -> StandardsBook:
        starts = [era.start for era in self.eras]
        if starts != sorted(starts) or len(set(starts)) != len(starts):
            raise ValueError("eras must start at strictly increasing instants")
        ids = [era.id.upper() for era in self.eras]
        if len(set(ids)) != len(ids) or not all(_ERA_ID.match(i) for i in ids):
            raise ValueError("era ids must be unique and look like E1, E2, ...")
        if [c.at for c in self.timeline] != sorted(c.at for c in self.timeline):
            raise ValueError("timeline changes must be in time order")
        clash = sorted(name for name in self.named if _ERA_ID.match(name) or name == "current")
        if clash:
            raise ValueError(f"named standard {clash[0]!r} would shadow an era or 'current'")
        if self.default not in self.named and self.default != "current":
            raise ValueError(f"default {self.default!r} is not a named standard")
        return self


class StandardRecord(Strict):
    """What an evidence bundle and a verdict record about the standard they were judged under."""

    spec: str  # as asked: "0-8", "current", "E4", "at:2026-07-12T00:00:00Z"
    era: str | None = None  # "E4"; None for a named standard such as 0-8
    instant: str | None = None  # the instant an `at:` spec resolved at


class Standard(Strict):
    """One resolved standard: the checks the judge runs (in order) and the switches they read."""

    spec: str
    label: str  # how to print it: "0-8", "E8", "E5 at 2026-07-10T19:00:00Z"
    era: str | None
    instant: str | None
    checks: tuple[CheckSlot, ...]
    switches: Switches
    applied: tuple[str, ...]  # timeline changes in force ("2026-07-14 #2210: ...")
    disabled: tuple[str, ...] = ()  # check ids the profile disabled

    def slot(self, check_id: str) -> CheckSlot | None:
        return next((slot for slot in self.checks if slot.id == check_id), None)

    def check_for_item(self, item_id: str) -> CheckSlot | None:
        """The check that verifies a template item under this standard (None: no check does)."""
        return next((slot for slot in self.checks if item_id in slot.items), None)

    def check_for_row(self, row_name: str) -> str | None:
        """The check id a published row name refers to (names and aliases, case/punctuation
        folded); None when the name is unknown. Key historical rows on this, never the number."""
        wanted = _fold(row_name)
        for slot in self.checks:
            if wanted in {_fold(name) for name in (slot.name, *slot.aliases)}:
                return slot.id
        return None

    def record(self) -> StandardRecord:
        return StandardRecord(spec=self.spec, era=self.era, instant=self.instant)


_DATED_NOTE = {"instant": "", "day": " (day only)", "bound": " (or later)"}


def _fold(name: str) -> str:
    return _ROW_NAME_FOLD.sub(" ", name.lower()).strip()


def _utc(value: datetime) -> datetime:
    if value.tzinfo is None:
        raise ValueError("instants need a time zone (write Z for UTC)")
    return value.astimezone(UTC)


def _check_slots(slots: tuple[CheckSlot, ...]) -> None:
    numbers = [slot.number for slot in slots]
    ids = [slot.id for slot in slots]
    if len(set(numbers)) != len(numbers) or len(set(ids)) != len(ids):
        raise ValueError("check numbers and ids must be unique within a standard")
    if numbers != sorted(numbers):
        raise ValueError("checks must be listed in number order")


def iso(instant: datetime) -> str:
    return instant.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# --- loading ------------------------------------------------------------------------------------


def load_standards(path: Path) -> StandardsBook:
    """Read and validate a standards file; errors name file:line and the offending key."""
    return load_data_file(path, StandardsBook, "standards file")


# --- resolving a spec ---------------------------------------------------------------------------


def spec_help(book: StandardsBook) -> str:
    names = ", ".join([*sorted(book.named), "current", f"{book.eras[0].id}..{book.eras[-1].id}"])
    return f"use one of {names}, or at:YYYY-MM-DDTHH:MM:SSZ"


def parse_instant(text: str) -> datetime:
    """An ISO-8601 instant with a zone (`Z` or `+HH:MM`); InputError otherwise."""
    try:
        value = datetime.fromisoformat(text.strip().replace("z", "Z"))
    except ValueError:
        raise InputError(f"standard at:{text}: not an ISO-8601 instant") from None
    if value.tzinfo is None:
        raise InputError(f"standard at:{text}: the instant needs a time zone (append Z for UTC)")
    return value.astimezone(UTC)


def resolve_in(book: StandardsBook, spec: str, disabled: tuple[str, ...] = ()) -> Standard:
    """The standard `spec` names in `book` (InputError naming the spec when it names none)."""
    text = spec.strip()
    if not text:
        raise InputError(f"empty standard: {spec_help(book)}")
    if text.lower().startswith("at:"):
        return _at(book, parse_instant(text[3:]), text, disabled)
    if text in book.named:
        return _named(book, text, disabled)
    if text.lower() == "current":
        return _era(book, book.eras[-1], "current", disabled)
    era = next((e for e in book.eras if e.id.upper() == text.upper()), None)
    if era is not None:
        return _era(book, era, era.id, disabled)
    raise InputError(f"unknown standard {text!r}: {spec_help(book)}")


def era_at(book: StandardsBook, instant: datetime) -> EraSpec | None:
    """The era in force at `instant` (None before the first era began)."""
    current = None
    for era in book.eras:
        if era.start <= instant:
            current = era
    return current


def switches_at(
    book: StandardsBook, instant: datetime | None, *, before: bool = False
) -> tuple[Switches, tuple[str, ...]]:
    """The baseline with every timeline change made at or before `instant` (strictly before
    when `before`; None: every change), and one line per change applied."""
    values = book.baseline.model_dump()
    applied: list[str] = []
    for change in book.timeline:
        if instant is None or change.at < instant or (change.at == instant and not before):
            values.update(change.set)
            pr = f" #{change.pr}" if change.pr is not None else ""
            when = change.at.date().isoformat()
            applied.append(f"{when}{pr}{_DATED_NOTE[change.dated]}: {change.note}")
    return Switches.model_validate(values), tuple(applied)


def _at(book: StandardsBook, instant: datetime, spec: str, disabled: tuple[str, ...]) -> Standard:
    era = era_at(book, instant)
    if era is None:
        first = book.eras[0]
        raise InputError(
            f"standard {spec}: no standard was in force before {iso(first.start)} ({first.id})"
        )
    switches, applied = switches_at(book, instant)
    return _standard(
        spec, f"{era.id} at {iso(instant)}", era.id, iso(instant), era.checks, switches,
        applied, disabled,
    )  # fmt: skip


def _era(book: StandardsBook, era: EraSpec, spec: str, disabled: tuple[str, ...]) -> Standard:
    """An era by name means its final form: the switches as they stood when the era ended (a
    change made at the very instant the next era began belongs to that next era)."""
    later = [e.start for e in book.eras if e.start > era.start]
    switches, applied = switches_at(book, min(later) if later else None, before=True)
    return _standard(spec, era.id, era.id, None, era.checks, switches, applied, disabled)


def _named(book: StandardsBook, name: str, disabled: tuple[str, ...]) -> Standard:
    named = book.named[name]
    switches, applied = switches_at(book, named.rules_as_of)
    if named.switches:
        switches = switches.model_copy(update=named.switches)
        applied += (f"{name} overrides: {', '.join(sorted(named.switches))}",)
    return _standard(name, name, None, None, named.checks, switches, applied, disabled)


def _standard(
    spec: str,
    label: str,
    era: str | None,
    instant: str | None,
    checks: tuple[CheckSlot, ...],
    switches: Switches,
    applied: tuple[str, ...],
    disabled: tuple[str, ...],
) -> Standard:
    # A switch may make a check warning-only inside an era (#3368: Check 4).
    kept = tuple(
        slot.model_copy(update={"warn_only": True})
        if slot.id in switches.warn_only and not slot.warn_only
        else slot
        for slot in checks
        if slot.id not in disabled
    )
    gone = tuple(slot.id for slot in checks if slot.id in disabled)
    return Standard(
        spec=spec, label=label, era=era, instant=instant, checks=kept, switches=switches,
        applied=applied, disabled=gone,
    )  # fmt: skip


# --- the API the rest of signoff uses -----------------------------------------------------------


class Profile(Protocol):
    """What choosing a standard reads of the policy profile (signoff/policy.py's `Policy`;
    named by its shape, so the profile imports the standards and not the other way round)."""

    @property
    def standards(self) -> StandardsBook: ...
    @property
    def disabled_checks(self) -> tuple[str, ...]: ...


def resolve_standard(spec: str | None, policy: Profile) -> Standard:
    """The standard `spec` names under `policy` (None: the profile's default), minus the checks
    the profile disables. Bad specs raise InputError naming the spec and the valid choices."""
    book = policy.standards
    return resolve_in(book, book.default if spec is None else spec, policy.disabled_checks)


def standard_at(instant: datetime, policy: Profile) -> Standard:
    """The standard in force at `instant` (for re-judging a past sign-off)."""
    return resolve_standard(f"at:{iso(instant)}", policy)
