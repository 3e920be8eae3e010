"""Builtins that assign the variable an argument names: `printf -v NAME`, `read NAME`,
`mapfile NAME`, `getopts OPTS NAME`, `wait -p NAME`.

bash sets NAME as surely as `NAME=value` does. A reading that kept NAME's old value would read
every later `$NAME` wrongly (`printf -v ARGS '%s' '--hf-overrides ...'` after `ARGS=--x`), so
each of them gives NAME a value: printf's output when its format and arguments are known (in
part: the run-time arguments it prints whole), `read -r NAME <<< WORD` the here-string's first
line, `mapfile` and `read -a` an array of items known only at run time, anything else a value
known only at run time. (`let` is arithmetic, read where it runs; a `{NAME}>` redirection's
descriptor is the scanner's.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from signoff.parse.shell.fields import Field, Segment, join_segments
from signoff.parse.shell.printf import printf_output, printf_parts
from signoff.parse.shell.scan import NAME
from signoff.parse.shell.values import Text

ASSIGNING_BUILTINS = frozenset({"printf", "read", "mapfile", "readarray", "getopts", "wait"})
_DEFAULT_TARGET = {"mapfile": "MAPFILE", "readarray": "MAPFILE"}
# read's options whose value is the next word (or the rest of the same word).
_READ_VALUED = frozenset("adinNptu")
_MAPFILE_VALUED = frozenset("dnOsuCc")
# read options that change what one target gets from a line (bash's own splitting aside).
_READ_SHAPING = frozenset("adnN")


@dataclass(frozen=True)
class Target:
    """A variable the builtin assigns: the word naming it (maybe known only at run time, or
    with a subscript) and the value it gets (None: known only at run time)."""

    word: Field
    value: Text | None = None
    array: bool = False  # `mapfile`, `read -a`: an array whose items are known only at run time


def named_targets(
    argv: Sequence[Field], here_string: Callable[[], Text | None] = lambda: None
) -> list[Target] | None:
    """What the builtin `argv` assigns by name; None when it assigns nothing that way
    (`printf` without `-v`, `wait` without `-p`). `here_string`: the command's `<<<` word,
    expanded, when it has one and IFS is bash's default (asked only when `read` takes it)."""
    name = argv[0].text if argv and argv[0].known else ""
    if name == "printf":
        return _printf(argv)
    if name == "read":
        return _read(argv, here_string)
    if name in ("mapfile", "readarray"):
        words, _ = _operands(argv, _MAPFILE_VALUED)
        arrays = words[-1:] or [_name(_DEFAULT_TARGET[name], argv)]
        return [Target(word, array=True) for word in arrays]
    if name == "getopts":  # NAME gets the option letter, OPTARG its value, OPTIND moves
        words, _ = _operands(argv, frozenset())
        letter = [Target(word) for word in words[1:2]]
        return letter + [Target(_name(n, argv)) for n in ("OPTARG", "OPTIND")]
    if name == "wait":
        _, options = _operands(argv, frozenset("p"))
        return [Target(word) for option, word in options if option == "p"] or None
    return None


def _printf(argv: Sequence[Field]) -> list[Target] | None:
    words = list(argv[1:])
    target: Field | None = None
    if words and words[0].known and words[0].text.startswith("-v"):
        text = words[0].text
        if len(text) > 2:
            target = Field(text[2:], True, "", words[0].line)
            words = words[1:]
        elif len(words) > 1:
            target, words = words[1], words[2:]
    elif words and not words[0].known and words[0].prefix.startswith("-v"):
        target, words = words[0], []  # `printf "-v$name" ...`: a name known only at run time
    if target is None:
        return None
    return [Target(target, _printed(words))]


def _printed(words: Sequence[Field]) -> Text | None:
    """What `printf FORMAT ARGS` prints, as a value (None: known only at run time)."""
    if not words:
        return None
    if all(word.known for word in words):
        out = printf_output([word.text for word in words])
        return Text(out) if out is not None else None
    parts = printf_parts([(word.text, word.known) for word in words])
    if parts is None:
        return None
    return join_segments([Segment(text, True, known=known) for text, known in parts if text])


def _read(argv: Sequence[Field], here_string: Callable[[], Text | None]) -> list[Target]:
    words, options = _operands(argv, _READ_VALUED)
    named = [Target(word, array=True) for option, word in options if option == "a"]
    flags = {option for option, _ in options} | {
        flag for word in argv[1:] if word.known and word.text.startswith("-") for flag in word.text
    }
    plain = "r" in flags and not flags & _READ_SHAPING  # one line, backslashes as they are
    line = here_string() if plain and not named and len(words) <= 1 else None
    if line is not None:
        return [Target(words[0] if words else _name("REPLY", argv), _first_line(line))]
    return named + [Target(word) for word in words] or [Target(_name("REPLY", argv))]


def _first_line(value: Text) -> Text | None:
    """What `read -r NAME <<< VALUE` puts in NAME: the first line, without the blanks bash's
    default IFS trims at its ends (None when a run-time piece may hold a line break)."""
    pieces = value.parts if not value.known else ((value.text, True),)
    kept: list[tuple[str, bool]] = []
    for text, known in pieces:
        if known and "\n" in text:
            kept.append((text.split("\n", 1)[0], True))
            break
        kept.append((text, known))
    if not kept:
        return Text("")
    if kept[0][1]:
        kept[0] = (kept[0][0].lstrip(" \t"), True)
    if kept[-1][1]:
        kept[-1] = (kept[-1][0].rstrip(" \t"), True)
    return join_segments([Segment(text, True, known=known) for text, known in kept if text])


def _operands(
    argv: Sequence[Field], valued: frozenset[str]
) -> tuple[list[Field], list[tuple[str, Field]]]:
    """A builtin's operands and its options' values (option letter, word), options first:
    `-rd ''` and `-u3` take their value from the same word or the next."""
    operands: list[Field] = []
    options: list[tuple[str, Field]] = []
    i = 1
    while i < len(argv):
        word = argv[i]
        if operands or not word.known or not word.text.startswith("-") or word.text == "-":
            operands.append(word)
        elif word.text == "--":
            operands.extend(argv[i + 1 :])
            break
        else:
            for at, letter in enumerate(word.text[1:], start=2):
                if letter not in valued:
                    continue
                rest = word.text[at:]
                if rest:
                    options.append((letter, Field(rest, True, "", word.line)))
                elif i + 1 < len(argv):
                    i += 1
                    options.append((letter, argv[i]))
                break
        i += 1
    return operands, options


def _name(text: str, argv: Sequence[Field]) -> Field:
    return Field(text, True, "", argv[0].line)


def target_name(word: Field) -> str:
    """The variable a target word names ("" when it is known only at run time or no name:
    `printf -v "$n"`); `a[2]` names `a`."""
    if not word.known:
        return ""
    name = word.text.split("[", 1)[0]
    return name if NAME.fullmatch(name) else ""
