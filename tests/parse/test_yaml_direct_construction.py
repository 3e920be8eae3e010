"""`load_yaml` builds plain documents itself and gives exactly what PyYAML's safe constructor
gives: the same values of the same types, aliases shared, and anything else (tags, merge keys,
non-scalar keys, deep nesting) left to the constructor, errors included."""

from __future__ import annotations

import math
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from signoff.yamlload import SafeLoader, load_yaml


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (`1 == 1.0 == True` is not enough)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return (
            list(map(type, a)) == list(map(type, b))
            and list(a) == list(b)
            and all(_same(a[k], b[k]) for k in a)
        )
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


DOCUMENTS = [
    "a: 1\nb: 1.5\nc: true\nd: ~\ne: text\nf: '1'\n",
    "ints: [0x1F, 0o17, 017, 1_000, +3, -4, '5', 1:30]\n",
    "floats: [.inf, -.inf, .nan, 1e3, 6.8523015e+5, 1_0.5]\n",
    "bools: [yes, No, on, OFF, y, n, True]\n",  # YAML 1.1 spellings PyYAML resolves
    "nulls: [null, Null, ~, '']\nempty:\n",
    "a: 1\na: 2\n",  # a duplicate key: the last one wins, as PyYAML has it
    "1: one\n2.5: two\ntrue: three\n~: four\n",
    "when: 2026-08-21\nstamp: 2026-08-21T10:00:00Z\n",  # timestamps: the constructor's
    "bin: !!binary aGVsbG8=\n",
    "s: !!set {a, b}\no: !!omap [{a: 1}, {b: 2}]\np: !!pairs [{a: 1}]\n",
    "base: &b {x: 1, y: 2}\nderived:\n  <<: *b\n  y: 3\n",  # a merge key
    "? [a, b]\n: value\n",  # a list as a key: the constructor's error
    "= : equals\n",  # the `value` tag
    "x: !custom 1\n",  # an unknown tag: the constructor's error
    "- !!str 1\n- !!int '2'\n- !!float '3'\n",
    "plain\n",
    "",
    "top: " + "[" * 300 + "1" + "]" * 300 + "\n",  # deeper than the direct builder goes
]


def _pyyaml(text: str) -> tuple[Any, str]:
    try:
        return yaml.load(text, Loader=SafeLoader), ""  # the C safe loader, as signoff uses
    except yaml.YAMLError as exc:
        return None, f"{type(exc).__name__}: {exc}"


def _ours(text: str) -> tuple[Any, str]:
    try:
        return load_yaml(text), ""
    except yaml.YAMLError as exc:
        return None, f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("text", DOCUMENTS)
def test_the_same_value_or_the_same_error_as_the_safe_constructor(text: str) -> None:
    (want, want_error), (got, got_error) = _pyyaml(text), _ours(text)
    assert got_error == want_error
    if not want_error:
        assert _same(got, want) or (isinstance(want, set) and got == want)


def test_an_alias_is_one_shared_object_as_pyyaml_builds_it() -> None:
    data = load_yaml("a: &x {k: [1, 2]}\nb: *x\nc: [*x, *x]\n")
    assert data["a"] is data["b"] is data["c"][0] is data["c"][1]


_SCALARS = st.one_of(
    st.integers(-(10**12), 10**12).map(str),
    st.floats(allow_nan=False).map(repr),
    st.sampled_from(["yes", "no", "~", "null", "0x1f", "0o7", "1_0", ".5", "-.inf", "1:2"]),
    st.text("abc-_ .:", max_size=6),
)


@st.composite
def _documents(draw: st.DrawFn) -> str:
    keys = draw(st.lists(_SCALARS, min_size=1, max_size=5))
    lines = []
    for key in keys:
        values = draw(st.lists(_SCALARS, max_size=3))
        flow = ", ".join(f'"{v}"' if draw(st.booleans()) else v for v in values)
        lines.append(f"'{key}': [{flow}]" if draw(st.booleans()) else f"'{key}': {flow or '~'}")
    return "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None)
@given(_documents())
def test_generated_documents_read_alike(text: str) -> None:
    (want, want_error), (got, got_error) = _pyyaml(text), _ours(text)
    assert got_error == want_error
    if not want_error:
        assert _same(got, want)
