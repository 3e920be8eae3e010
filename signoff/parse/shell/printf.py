"""What `printf` and `echo` print, for a command substitution whose arguments are all known.

Benchmark scripts build JSON values this way (`--speculative-config "$(printf '{"a": %d}' "$N")"`),
so reading the output keeps such a value comparable. Only bash's common conversions are read
(`%s %b %c %d %i %u %x %X %o %f %F %e %E %g %G %%`, flags, width and precision, `*` is not); any
other format, or an argument that is not a number where one is needed, gives None: unknown.
"""

from __future__ import annotations

import re

from signoff.parse.shell.escapes import decode

_CONVERSION = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\d*)(?:\.(?P<precision>\d*))?(?P<kind>.)?")
_INTEGER = frozenset("diuxXoc")
_FLOAT = frozenset("fFeEgG")
MAX_OUTPUT = 65_536


def printf_output(args: list[str]) -> str | None:
    """`printf FORMAT [ARGS...]` as bash prints it, or None when it cannot be read."""
    if args[:1] == ["--"]:
        args = args[1:]  # (a format after `--` may start with `-`)
    elif args[:1] and args[0].startswith("-"):
        return None  # `printf -v NAME` assigns instead of printing
    if not args:
        return None
    fmt, rest = decode(args[0], "format"), list(args[1:])
    if fmt is None or fmt.count("%") != args[0].count("%"):
        return None  # bash prints an escaped `%` as itself; never read it as a conversion
    out: list[str] = []
    while True:
        used, text = _format_once(fmt, rest)
        if text is None:
            return None
        out.append(text)
        rest = rest[used:]
        if not rest or used == 0 or sum(map(len, out)) > MAX_OUTPUT:
            return "".join(out)[:MAX_OUTPUT]


Parts = tuple[tuple[str, bool], ...]  # (text, known) pieces of an output known in part
_STAND_IN = "\ue002{}\ue003"  # private-use characters: an argument known only at run time
_STOOD_IN = re.compile("(\ue002\\d+\ue003)")


def printf_parts(args: list[tuple[str, bool]]) -> Parts | None:
    """`printf FORMAT ARGS...` when the format is known and some arguments are not: each
    unknown argument must be printed whole, once, by a `%s` (it stands in the output as
    written); None when a number conversion or a precision reads it, or the format repeats."""
    if not args or not args[0][1] or any("\ue002" in text for text, _ in args):
        return None
    stand_ins = [text if known else _STAND_IN.format(n) for n, (text, known) in enumerate(args)]
    printed = printf_output(stand_ins)
    if printed is None:
        return None
    pieces = _STOOD_IN.split(printed)
    whole = [piece for piece in pieces if _STOOD_IN.fullmatch(piece)]
    unknown = [n for n, (_, known) in enumerate(args) if not known]
    if sorted(int(piece[1:-1]) for piece in whole) != unknown:
        return None  # cut by a precision, or printed twice by a repeated format
    if any("\ue002" in piece or "\ue003" in piece for piece in pieces if piece not in whole):
        return None
    return tuple(
        (args[int(piece[1:-1])][0], False) if piece in whole else (piece, True)
        for piece in pieces
        if piece
    )


def echo_output(args: list[str]) -> str | None:
    """`echo [-n] ARGS...` (bash's default: no escapes unless -e)."""
    newline, escapes = True, False
    while args and re.fullmatch(r"-[neE]+", args[0]):
        newline = newline and "n" not in args[0]
        escapes = "e" in args[0] or (escapes and "E" not in args[0])
        args = args[1:]
    text = " ".join(args)
    printed = decode(text, "echo") if escapes else text
    return None if printed is None else printed + ("\n" if newline else "")


def _format_once(fmt: str, args: list[str]) -> tuple[int, str | None]:
    out: list[str] = []
    used = 0
    i = 0
    while i < len(fmt):
        if fmt[i] != "%":
            out.append(fmt[i])
            i += 1
            continue
        match = _CONVERSION.match(fmt, i)
        kind = match["kind"] if match else None
        if match is None or kind is None:
            return used, None
        i = match.end()
        if kind == "%":
            out.append("%")
            continue
        arg = args[used] if used < len(args) else ""
        used += 1
        piece = _convert(kind, arg, match["flags"], match["width"], match["precision"])
        if piece is None:
            return used, None
        out.append(piece)
    return used, "".join(out)


def _convert(kind: str, arg: str, flags: str, width: str, precision: str | None) -> str | None:
    spec = f"%{flags}{width}" + (f".{precision}" if precision is not None else "")
    if kind in ("s", "b"):
        text = decode(arg, "b") if kind == "b" else arg
        return None if text is None else (spec + "s") % text
    if kind in _INTEGER:
        number = _integer(arg)
        if number is None:
            return None
        if kind == "c":
            return arg[:1]
        return (spec + ("d" if kind in "iu" else kind)) % number
    if kind in _FLOAT:
        try:
            value = float(arg) if arg.strip() else 0.0
        except ValueError:
            return None
        return (spec + kind) % value
    return None


def _integer(arg: str) -> int | None:
    text = arg.strip()
    if not text:
        return 0
    try:
        return int(text, 0) if not re.fullmatch(r"0\d+", text) else int(text, 8)
    except ValueError:
        return None
