"""Backslash escapes decoded as bash decodes them: `$'...'`, printf's format, `%b` and `echo -e`.

Each of the four reads escapes its own way (bash 5, checked against bash itself): octal is
`\\NNN` in `$'...'` and printf's format, `\\0NNN` or `\\NNN` in `%b`, only `\\0NNN` in `echo -e`;
`\\'`, `\\"` and `\\?` lose their backslash only in the first two; `\\cX` is a control character
in `$'...'` but stops all output in `%b` and `echo -e`. A flag spelled through escapes
(`$'--hf\\x2doverrides'`) must read as the flag the engine receives, so anything decoded here
either comes out exactly as bash prints it or as None (unknown: the reader then keeps the word
as text known only at run time and fails closed on it).
"""

from __future__ import annotations

from typing import Literal

Mode = Literal["ansi", "format", "b", "echo"]

_SIMPLE = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r",
           "t": "\t", "v": "\v", "\\": "\\"}  # fmt: skip
_QUOTES = frozenset("'\"?")  # decoded in `$'...'` and printf's format only
_HEX = frozenset("0123456789abcdefABCDEF")
_OCTAL = frozenset("01234567")
_UNICODE = {"u": 4, "U": 8}


def decode(text: str, mode: Mode) -> str | None:
    """`text` with its escapes decoded as `mode` reads them; None when bash would stop output
    there (`\\c` in `%b`/`echo -e`), fail (printf's `\\x` without a digit) or emit a NUL."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] != "\\" or i + 1 == len(text):
            out.append(text[i])
            i += 1
            continue
        step = _escape(text, i + 1, mode)
        if step is None:
            return None
        decoded, i = step
        out.append(decoded)
    result = "".join(out)
    return None if "\x00" in result else result


def _escape(text: str, i: int, mode: Mode) -> tuple[str, int] | None:
    """The escape whose letter is at `i`: (what it prints, where the text goes on)."""
    char = text[i]
    if char in _SIMPLE:
        return _SIMPLE[char], i + 1
    if char in _QUOTES:
        return (char if mode in ("ansi", "format") else "\\" + char), i + 1
    if char in _OCTAL:
        return _octal(text, i, mode)
    if char == "x" or char in _UNICODE:
        return _hex(text, i, mode)
    if char == "c":
        return _control(text, i, mode)
    return "\\" + char, i + 1


def _octal(text: str, i: int, mode: Mode) -> tuple[str, int] | None:
    if mode == "echo" and text[i] != "0":
        return "\\" + text[i], i + 1  # echo -e reads octal only after `\0`
    if mode in ("b", "echo") and text[i] == "0":
        i += 1  # `\0NNN`: the zero only opens the number
    digits = _run(text, i, _OCTAL, 3)
    return chr(int(digits or "0", 8) & 0xFF), i + len(digits)


def _hex(text: str, i: int, mode: Mode) -> tuple[str, int] | None:
    width = _UNICODE.get(text[i], 2)
    digits = _run(text, i + 1, _HEX, width)
    if not digits:
        return None if mode in ("format", "b") else ("\\" + text[i], i + 1)  # printf fails
    code = int(digits, 16)
    if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return None  # not a character: bash's output depends on the locale
    return chr(code), i + 1 + len(digits)


def _control(text: str, i: int, mode: Mode) -> tuple[str, int] | None:
    if mode in ("b", "echo"):
        return None  # `\c` stops all further output: what follows is not printed
    if mode == "format" or i + 1 == len(text):
        return "\\c", i + 1
    return chr(ord(text[i + 1].upper()) & 0x1F), i + 2


def _run(text: str, i: int, allowed: frozenset[str], most: int) -> str:
    stop = i
    while stop < len(text) and stop - i < most and text[stop] in allowed:
        stop += 1
    return text[i:stop]


def ansi_c_end(text: str, i: int, end: int) -> int | None:
    """Index after the `'` closing the `$'...'` whose body starts at `i` (`\\'` does not
    close it); None when nothing closes it."""
    while i < end:
        if text[i] == "\\":
            i += 2
        elif text[i] == "'":
            return i + 1
        else:
            i += 1
    return None
