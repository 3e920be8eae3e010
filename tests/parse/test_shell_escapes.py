"""Backslash escapes decode exactly as bash 5 prints them (each expectation below was printed by
bash itself), or not at all: a flag spelled through escapes must read as the flag the engine gets.
"""

from __future__ import annotations

import pytest

from signoff.parse.shell_escapes import Mode, ansi_c_end, decode

# (escape, $'...', printf FORMAT, printf %b, echo -e); None: bash fails, stops output or emits NUL
AS_BASH_PRINTS: list[tuple[str, str | None, str | None, str | None, str | None]] = [
    (r"\101", "A", "A", "A", r"\101"),
    (r"\0101", "\b1", "\b1", "A", "A"),
    (r"\x2d", "-", "-", "-", "-"),
    (r"\x2dd", "-d", "-d", "-d", "-d"),
    (r"\x", r"\x", None, None, r"\x"),
    (r"\xg", r"\xg", None, None, r"\xg"),
    (r"\u002d", "-", "-", "-", "-"),
    (r"\u", r"\u", None, None, r"\u"),
    (r"\U0000002d", "-", "-", "-", "-"),
    (r"\cA", "\x01", r"\cA", None, None),
    (r"\c", r"\c", r"\c", None, None),
    (r"\'", "'", "'", r"\'", r"\'"),
    (r"\"", '"', '"', r"\"", r"\""),
    (r"\?", "?", "?", r"\?", r"\?"),
    (r"\q", r"\q", r"\q", r"\q", r"\q"),
    (r"\E", "\x1b", "\x1b", "\x1b", "\x1b"),
    (r"\8", r"\8", r"\8", r"\8", r"\8"),
    (r"\1234", "S4", "S4", "S4", r"\1234"),
    (r"\0", None, None, None, None),
]
MODES: tuple[Mode, ...] = ("ansi", "format", "b", "echo")


@pytest.mark.parametrize(("mode", "index"), [(mode, n) for n, mode in enumerate(MODES, 1)])
@pytest.mark.parametrize("row", AS_BASH_PRINTS, ids=[row[0] for row in AS_BASH_PRINTS])
def test_each_escape_decodes_as_bash_prints_it_in_each_context(
    row: tuple[str | None, ...], mode: Mode, index: int
) -> None:
    assert decode(str(row[0]), mode) == row[index]


@pytest.mark.parametrize("mode", MODES)
def test_a_flag_spelled_with_hex_octal_or_unicode_escapes_reads_as_the_flag(mode: Mode) -> None:
    assert decode(r"\x2d-hf\x2doverrides", mode) == "--hf-overrides"
    assert decode(r"--hf\u002doverrides", mode) == "--hf-overrides"
    octal = r"--hf\0055overrides" if mode == "echo" else r"--hf\055overrides"
    assert decode(octal, mode) == "--hf-overrides"


def test_an_escaped_quote_does_not_close_ansi_c_quoting() -> None:
    text = r"$'a\'b' rest"
    assert ansi_c_end(text, 2, len(text)) == text.index(" ")
    assert ansi_c_end(r"$'open\'", 2, 8) is None
