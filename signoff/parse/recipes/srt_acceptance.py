"""Read how a multi-node recipe (srt-slurm YAML, read as text) sets speculative acceptance:
synthetic-acceptance knobs (per engine), draft lengths, real (unsimulated) spec configs and
thinking mode.

Recipes are data, not code: every line counts except comments. Values are usually literal; a
`$NAME` resolves to the value given in `variables` (none by default), a printf `%.2f` to the
argument that fills it, `$(awk "BEGIN{print (A-1)/B}")` to its arithmetic. What cannot be
resolved stays a string the check reports. Benchmark scripts are not read here: the checks hold
what their evaluated launches get (benchmark/launch_acceptance.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from pydantic import BaseModel, ConfigDict

from signoff.parse.shell.awk import arithmetic
from signoff.policy import GoldenAlPolicy

_REF = re.compile(r"^\$\{?([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}?$")
_PRINTF_FORMAT = re.compile(r"printf\s+(?:-v\s+\S+\s+)?'([^']*)'(.*)$", re.DOTALL)
_CONVERSION = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?[sdifg]")
_ARG = re.compile(r'"([^"]*)"|\'([^\']*)\'|(\S+)')
_AWK_PRINT = re.compile(r"""\$\(\s*awk\s+["']BEGIN\s*\{\s*print\s+([^}]{1,200})\}["']\s*\)""")
_VAR_IN_EXPR = re.compile(r"\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)")


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AlSetting(Frozen):
    engine: str
    knob: str
    line: int
    raw: str  # as written
    values: tuple[float, ...]  # every AL it can take (offset and rate applied); () unresolved
    rate: bool = False


class AcceptanceReading(Frozen):
    settings: tuple[AlSetting, ...] = ()
    drafts: tuple[int, ...] = ()  # every draft length the text can set
    unresolved_drafts: tuple[str, ...] = ()
    real_spec_lines: tuple[int, ...] = ()  # spec configs without the synthetic marker
    thinking_off: bool = False


@lru_cache(maxsize=64)
def _rx(regex: str) -> re.Pattern[str]:
    return re.compile(regex)


def read_acceptance(
    text: str,
    policy: GoldenAlPolicy,
    engines: Sequence[str],
    variables: Mapping[str, str] | None = None,
) -> AcceptanceReading:
    """Every acceptance setting in a recipe's lines for the engines in force; never raises."""
    values = _Resolver(variables or {}, {})
    settings: list[AlSetting] = []
    drafts: set[int] = set()
    unresolved: list[str] = []
    real: list[int] = []
    for first, _, written in _plain_lines(text):
        span = written.replace('\\"', '"')  # JSON inside a double-quoted string
        settings += _settings(span, first, policy, engines, values)
        found, missing = _drafts(span, policy, values)
        drafts |= found
        unresolved += missing
        if _rx(policy.spec_config).search(span) and policy.synthetic_marker not in span:
            real.append(first)
    return AcceptanceReading(
        settings=tuple(_with_rates(settings, drafts)),
        drafts=tuple(sorted(drafts)),
        unresolved_drafts=tuple(dict.fromkeys(unresolved)),
        real_spec_lines=tuple(real),
        thinking_off=any(_rx(rx).search(text) for rx in policy.thinking_off),
    )


def _plain_lines(text: str) -> list[tuple[int, int, str]]:
    return [
        (n, n, line)
        for n, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]


class _Resolver:
    def __init__(
        self, variables: Mapping[str, str], alternatives: Mapping[str, Sequence[str]]
    ) -> None:
        self.variables, self.alternatives = variables, alternatives

    def numbers(self, raw: str, span: str, at: int) -> tuple[float, ...]:
        """The numbers `raw` can stand for (a literal, a variable, or a printf conversion)."""
        token = raw.strip().strip("\"'")
        if _CONVERSION.fullmatch(token):
            token = _printf_argument(span, at) or token
        ref = _REF.match(token)
        if ref is None:
            number = plain_number(token)
            return () if number is None else (number,)
        name, default = ref[1], ref[2]
        candidates = list(self.alternatives.get(name, ())) or [self.variables.get(name, "")]
        if not any(candidates) and default:
            candidates = [default]
        found = [self._value(c.strip().strip("\"'")) for c in candidates]
        return tuple(sorted({n for n in found if n is not None}))

    def _value(self, text: str) -> float | None:
        """A literal, or `$(awk "BEGIN{print (A-1)/B}")` over literals and known variables."""
        number = plain_number(text)
        if number is not None:
            return number
        awk = _AWK_PRINT.fullmatch(text)
        if awk is None:
            return None
        expression = _VAR_IN_EXPR.sub(lambda m: self.variables.get(m[1] or m[2], "x"), awk[1])
        return arithmetic(expression)


def plain_number(text: str) -> float | None:
    """A finite, sane decimal (no NaN, nothing past a million), or None."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value == value and abs(value) < 1e6 else None  # no NaN or absurd values


def _printf_argument(span: str, at: int) -> str | None:
    """The printf argument that fills the conversion at offset `at` of the span."""
    match = _PRINTF_FORMAT.search(span)
    if match is None or not (match.start(1) <= at < match.end(1)):
        return None
    before = _CONVERSION.findall(match[1][: at - match.start(1)])
    args = [next(g for g in m.groups() if g is not None) for m in _ARG.finditer(match[2])]
    args = [a.rstrip(")") for a in args if a not in ("\\", ")")]
    index = len(before)
    return args[index] if index < len(args) else None


def _settings(
    span: str, line: int, policy: GoldenAlPolicy, engines: Sequence[str], values: _Resolver
) -> list[AlSetting]:
    out = []
    for knob in policy.knobs:
        if knob.engine not in engines:
            continue
        for match in _rx(knob.regex).finditer(span):
            raw = match["v"]
            numbers = values.numbers(raw, span, match.start("v"))
            # a rate becomes ALs once the draft lengths are known (_with_rates)
            shifted = numbers if knob.rate else tuple(round(n + knob.offset, 6) for n in numbers)
            setting = AlSetting(
                engine=knob.engine, knob=knob.name, line=line, raw=raw, values=shifted,
                rate=knob.rate,
            )  # fmt: skip
            out.append(setting)
    return out


def _drafts(span: str, policy: GoldenAlPolicy, values: _Resolver) -> tuple[set[int], list[str]]:
    found: set[int] = set()
    missing: list[str] = []
    for setting in policy.drafts:
        for match in _rx(setting.regex).finditer(span):
            numbers = values.numbers(match["v"], span, match.start("v"))
            ints = {int(n) + setting.offset for n in numbers if n == int(n) and n > 0}
            if ints:
                found |= ints
            else:
                missing.append(match["v"])
    return found, missing


def _with_rates(settings: list[AlSetting], drafts: set[int]) -> list[AlSetting]:
    """ATOM's rate spelling: AL = 1 + rate x draft length, for every draft length found."""
    out = []
    for setting in settings:
        if setting.rate:
            values = tuple(sorted({round(1 + r * d, 6) for r in setting.values for d in drafts}))
            setting = setting.model_copy(update={"values": values})
        out.append(setting)
    return out
