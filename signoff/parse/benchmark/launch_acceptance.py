"""Read how one evaluated server launch sets speculative acceptance: the engine's synthetic
acceptance knob, the draft length and the thinking mode, from what the launch really gets.

The script reader has already evaluated the script for one configuration (benchmark/launch.py): a
launch's `env` holds what the server inherits (exported variables and prefix assignments, values
resolved, printf and `awk 'BEGIN{print ...}'` included), its `args` the flags it is given, and
`env_undecided` the exported variables whose value there depends on a condition the reader could
not decide. A knob is taken only from where the engine reads it (profile data: an environment
variable, a flag, or a key of a flag's JSON value, with the keys that JSON must also hold), so a
knob in dead code, in a comment, in another variable's value or in another flag's value is no knob.
Flags are matched as the engine spells them (`_` for `-` where its parser allows), not abbreviated:
a PASS needs the flag the engine surely reads.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from signoff.parse.benchmark.engine_flags import engine_flags, spelled
from signoff.parse.benchmark.launch import EnvChoice, ServerLaunch
from signoff.parse.recipes.srt_acceptance import plain_number
from signoff.policy import AcceptanceKnob, DraftSetting, Policy


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class KnobSetting(Frozen):
    knob: str  # the profile's name for it
    engine: str
    raw: str  # the value as the server gets it
    values: tuple[float, ...]  # the AL(s) it gives (offset and rate applied); () not a number
    missing: str = ""  # what the setting lacks to take effect: `"rejection_sample_method": ...`
    rate: bool = False  # `values` are rates until the draft lengths turn them into ALs
    line: int = 0  # the flag's line; 0 for an inherited variable (set before the launch)
    source: str = ""  # the flag whose whole value `raw` is, when that value cannot be read


class LaunchAcceptance(Frozen):
    knobs: tuple[KnobSetting, ...] = ()  # knobs of the launch's engine that it surely gets
    undecided: tuple[EnvChoice, ...] = ()  # knob variables whose value here is undecided
    drafts: tuple[int, ...] = ()
    unresolved_drafts: tuple[str, ...] = ()
    thinking_off: bool = False


@lru_cache(maxsize=64)
def _rx(regex: str) -> re.Pattern[str]:
    return re.compile(regex)


def knobs_for(launch: ServerLaunch, knobs: Sequence[AcceptanceKnob]) -> list[AcceptanceKnob]:
    """The knobs the launch's engine reads (every knob for a server the reader cannot name)."""
    if launch.engine == "other":
        return list(knobs)
    return [knob for knob in knobs if knob.engine == launch.engine]


def read_launch_acceptance(
    launch: ServerLaunch,
    policy: Policy,
    knobs: Sequence[AcceptanceKnob],
    files: Sequence[str] = (),
    commands: Sequence[str] = (),
    default_drafts: Sequence[int] = (),
) -> LaunchAcceptance:
    """The launch's knobs (only `knobs`: those in force for its engine), draft lengths and
    thinking mode. `files` is what the run writes (heredoc bodies, such as TRT-LLM's config) and
    `commands` the text of the commands it runs: a config file's draft length is read in both,
    the thinking mode only in the launch and the files. `default_drafts`: the draft lengths of
    a launch that shows none, not even one it cannot read (the caller knows how its script
    builds them). Never raises."""
    golden = policy.golden_al
    settings = [_setting(launch, knob, policy) for knob in knobs]
    drafts, unresolved = _drafts(launch, [*files, *commands], golden.drafts, policy)
    if not drafts and not unresolved:
        drafts = set(default_drafts)
    names = {knob.env for knob in knobs if knob.env}
    pieces = [*_pieces(launch), *files]
    return LaunchAcceptance(
        knobs=tuple(_with_rates([s for s in settings if s is not None], drafts)),
        undecided=tuple(c for c in launch.env_undecided if c.name in names),
        drafts=tuple(sorted(drafts)),
        unresolved_drafts=tuple(dict.fromkeys(unresolved)),
        thinking_off=any(_rx(rx).search(piece) for rx in golden.thinking_off for piece in pieces),
    )


def _setting(launch: ServerLaunch, knob: AcceptanceKnob, policy: Policy) -> KnobSetting | None:
    if knob.env:
        raw = launch.env.get(knob.env)
        return None if raw is None else _knob(knob, raw, "")
    if not knob.flag:
        return None  # a knob only recipe text carries
    found = flag_value(launch, knob.flag, policy)
    if found is None:
        return None
    if not knob.key:
        return _knob(knob, found.text, "", found.line, found.known)
    data, unreadable = json_value(launch, knob.flag, policy, (knob.key, *knob.requires))
    if data is None:  # a value known only at run time may hold the knob: not readable
        return _knob(knob, unreadable, "", found.line, known=False, source=knob.flag)
    if knob.key not in data:
        return None
    absent = [f'"{k}": "{v}"' for k, v in knob.requires.items() if str(data.get(k)) != v]
    return _knob(knob, _text(data[knob.key]), ", ".join(absent), found.line)


def _knob(
    knob: AcceptanceKnob, raw: str, missing: str, line: int = 0, known: bool = True,
    source: str = "",
) -> KnobSetting:  # fmt: skip
    number = plain_number(raw.strip().strip("\"'")) if known else None
    values = () if number is None else (number if knob.rate else round(number + knob.offset, 6),)
    return KnobSetting(knob=knob.name, engine=knob.engine, raw=raw, values=values,
                       missing=missing, rate=knob.rate, line=line, source=source)  # fmt: skip


class FlagValue(NamedTuple):
    text: str
    line: int
    known: bool  # False: the value holds text known only at run time


def flag_value(launch: ServerLaunch, flag: str, policy: Policy) -> FlagValue | None:
    """The value of the last `flag` the launch gets (argparse keeps the last)."""
    rules = engine_flags(launch.engine, policy)
    wanted = spelled(flag, rules)
    found = None
    for arg in launch.args:
        if arg.value is not None and "." not in arg.flag and spelled(arg.flag, rules) == wanted:
            found = FlagValue(arg.value, arg.line, arg.known)
    return found


def json_value(
    launch: ServerLaunch, flag: str, policy: Policy, keys: Sequence[str] = ()
) -> tuple[dict[str, object] | None, str]:
    """The JSON object `flag` carries, with the `--flag.key value` settings of engines that fold
    them into it (vLLM); (None, "") when the launch has no such flag, (None, the value as
    written) when a value is not a JSON object whose `keys` are known before the run."""
    rules = engine_flags(launch.engine, policy)
    wanted = spelled(flag, rules)
    data: dict[str, object] | None = None
    for arg in launch.args:
        if arg.value is None or spelled(arg.flag, rules) != wanted:
            continue
        _, dot, key = arg.flag.partition(".")
        if dot and rules.dotted_json:
            if not arg.known:
                return None, arg.value
            data = {**(data or {}), key: arg.value}
            continue
        parsed = _json_object(arg.value) if arg.known else partial_json(arg.parts, keys)
        if parsed is None:
            return None, arg.value
        data = parsed
    return data, ""


def _json_object(text: str) -> dict[str, object] | None:
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return dict(parsed) if isinstance(parsed, dict) else None


_MARK = "\ue000"  # private-use characters: a run-time part while the JSON is parsed
_HOLE = _MARK + "{}\ue001"


class _Pairs(list[tuple[str, object]]):
    """A JSON object read with its keys in written order (duplicates kept)."""


def partial_json(
    parts: Sequence[tuple[str, bool]], keys: Sequence[str]
) -> dict[str, object] | None:
    """A JSON object written with parts known only at run time (`"model": "$DIR/draft"`),
    when those parts cannot change `keys`: each run-time part sits inside a string, every key
    read is written after the last one (JSON readers keep a key's last value, so whatever a
    run-time part could add is overridden), and no escape follows it (a trailing backslash in
    the run-time text could otherwise re-pair the quotes after it). None otherwise."""
    holes = [index for index, (_, known) in enumerate(parts) if not known]
    texts = [text for text, _ in parts]
    if not holes or any(_MARK in text for text in texts):
        return None
    written = "".join(
        text if known else _hole(parts, index) for index, (text, known) in enumerate(parts)
    )
    if "\\" in "".join(texts[holes[-1] + 1 :]):
        return None
    try:
        pairs = json.loads(written, object_pairs_hook=_Pairs)
    except (ValueError, RecursionError):
        return None
    if not isinstance(pairs, _Pairs):
        return None
    shown = [json.dumps(pair, ensure_ascii=False) for pair in pairs]
    if sum(text.count(_MARK) for text in shown) != len(holes):
        return None  # a run-time part outside every string (or lost while parsing)
    last = max(i for i, text in enumerate(shown) if _MARK in text)
    for key in keys:
        where = [i for i, (name, _) in enumerate(pairs) if name == key]
        if where and where[-1] <= last:
            return None
    return {name: _plain(value) for name, value in pairs if _MARK not in name}


def _hole(parts: Sequence[tuple[str, bool]], index: int) -> str:
    """The stand-in for run-time part `index`: inside a string as it is; standing alone as a
    value (`"n": $N,`) as a string of its own, so the keys around it still read (the value is
    unknown; what it could add is ruled out as for any part, by the keys written after it)."""
    before = "".join(text for text, known in parts[:index] if known)
    after = parts[index + 1][0] if index + 1 < len(parts) and parts[index + 1][1] else ""
    alone = re.search(r"[:\[,]\s*$", before) and re.match(r"\s*[,}\]]", after)
    if alone and "\\" not in before and before.count('"') % 2 == 0:  # outside every string
        return '"' + _HOLE.format(index) + '"'
    return _HOLE.format(index)


def _plain(value: object) -> object:
    """A value read with `_Pairs`, as dicts and lists again."""
    if isinstance(value, _Pairs):
        return {name: _plain(item) for name, item in value}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def _drafts(
    launch: ServerLaunch, written: Sequence[str], drafts: Sequence[DraftSetting], policy: Policy
) -> tuple[set[int], list[str]]:
    found: set[int] = set()
    missing: list[str] = []
    for setting in drafts:
        raws: list[str] = []
        if setting.flag and setting.key:
            data, unreadable = json_value(launch, setting.flag, policy, (setting.key,))
            raws += [_text(data[setting.key])] if data and setting.key in data else []
            missing += [unreadable] if unreadable else []
        elif setting.flag:
            flagged = flag_value(launch, setting.flag, policy)
            raws += [flagged.text] if flagged is not None and flagged.known else []
            missing += [flagged.text] if flagged is not None and not flagged.known else []
        elif setting.written:
            raws += [m["v"] for text in written for m in _rx(setting.regex).finditer(text)]
        for raw in raws:
            number = plain_number(raw.strip().strip("\"'"))
            if number is not None and number == int(number) and number + setting.offset > 0:
                found.add(int(number) + setting.offset)
            else:
                missing.append(raw)
    return found, missing


def _pieces(launch: ServerLaunch) -> list[str]:
    """The launch as the texts the server reads: `NAME=value` and `--flag value`."""
    pieces = [f"{name}={value}" for name, value in sorted(launch.env.items())]
    pieces += [arg.flag if arg.value is None else f"{arg.flag} {arg.value}" for arg in launch.args]
    return pieces


def _with_rates(settings: list[KnobSetting], drafts: set[int]) -> list[KnobSetting]:
    """ATOM's rate spelling: AL = 1 + rate x draft length, for every draft length found."""
    out = []
    for setting in settings:
        if setting.rate:
            values = tuple(sorted({round(1 + r * d, 6) for r in setting.values for d in drafts}))
            setting = setting.model_copy(update={"values": values, "rate": False})
        out.append(setting)
    return out


def _text(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)
