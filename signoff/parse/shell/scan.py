"""Tokenize shell text into words, operators and heredoc markers, in one linear pass.

The tokenizer knows quoting (`'...'`, `"..."`, `$'...'`, backslashes), `$( )`, `$(( ))`, `${ }`,
backticks, `<( )`, arrays glued to an assignment (`A=( ... )`), `(( ))` commands, comments,
redirections (dropped, with their targets) and heredocs (bodies read at the next newline and kept
by index). Inside `[[ ... ]]` the characters `&& || ( ) < >` are test operators, so they come out
as words. Spans of command substitutions are recorded so the parser can read them as scripts.
Nothing here ever raises on untrusted text: oddities become `problems` (line, what).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from signoff.parse.shell.escapes import ansi_c_end

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]\n]*\])?(\+?)=")
# A URL in a command line, up to a blank, quote or shell operator.
URL = re.compile(r"""(?:https?|ftp|file)://[^\s'"`)|;&<>]+""")


def mentions(names: Iterable[str]) -> re.Pattern[str]:
    """Any of `names` as a whole word (`$X`, `${X}`, `X` in arithmetic, or a literal `X`);
    with no names, a pattern that matches nothing."""
    alternatives = "|".join(sorted((re.escape(n) for n in names), key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z0-9_])(?:{alternatives or '(?!)'})(?![A-Za-z0-9_])")


_OPERATORS = (";;&", "&&", "||", ";;", ";&", "|&", ";", "|", "&", "(", ")")
_OPERATOR_START = frozenset(";&|()")
_REDIRECT_START = frozenset("<>&0123456789")
_SPACE = re.compile(r"[ \t\r]+")
_PLAIN = re.compile(r"[^\s;&|<>()'\"`$\\#]+")  # a word with nothing to interpret
_WORD_END = frozenset(" \t\r\n;&|<>)")
_REDIRECT = re.compile(r"&>>?|<<<|<<-?|<>|>>|>\||>&|<&|>|<")
# A redirection's `{NAME}` prefix: bash opens a new descriptor and puts its number in NAME.
_NAMED_FD = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}(?=[<>])")
_DUPLICATE = re.compile(r"\d+-?|-")
# What a redirection does with the word after it: write that file, read it, or read the word.
Target = Literal["out", "in", "string"]
_TARGETS: dict[str, Target] = {
    ">": "out", ">>": "out", ">|": "out", "&>": "out", "&>>": "out", ">&": "out", "<>": "out",
    "<": "in", "<<<": "string",
}  # fmt: skip
_TEST_OPERATORS = ("&&", "||", "(", ")", "<", ">")

# what ends a run of plain text inside double quotes
_DOUBLE_QUOTED_SPECIAL = re.compile(r'[\\"$`]')


@dataclass(frozen=True, slots=True)
class Token:
    # heredoc: `text` is the index into `heredocs`; redirect: a redirection's target that runs
    # commands when bash expands it (`> "$(cmd)"`, `< <(cmd)`), kept so they are read; out, in,
    # string: the file a redirection writes or reads, or a here-string (what a shell reading
    # its standard input runs, and the files a script writes before it runs them); fd: the
    # NAME of a `{NAME}>` redirection, which bash sets to the descriptor it opens
    kind: Literal["word", "op", "heredoc", "redirect", "out", "in", "string", "fd"]
    text: str
    offset: int


@dataclass(slots=True)
class HeredocBody:
    delimiter: str
    quoted: bool  # a quoted delimiter: the body is not expanded
    line: int  # line of the command that opens it
    strip_tabs: bool = False  # `<<-`: leading tabs are removed before comparing lines
    body: str = ""
    closed: bool = False


class LineIndex:
    """Offsets to 1-based line numbers."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [index + 1 for index, char in enumerate(text) if char == "\n"]

    def at(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)


@dataclass
class Scanner:
    """Tokenizes spans of one text; heredocs, substitutions and problems accumulate here."""

    text: str
    lines: LineIndex = field(init=False)
    heredocs: list[HeredocBody] = field(default_factory=list)
    substitutions: list[tuple[int, int]] = field(default_factory=list)  # inner spans of $( ) ``
    problems: list[tuple[int, str]] = field(default_factory=list)
    _pending: list[int] = field(default_factory=list)  # heredocs waiting for their body
    _in_test: bool = False
    _regex_next: bool = False  # the next word of a `[[ ]]` is the regex after `=~`
    _target: Target | None = None  # what the redirection whose target comes next does with it

    def __post_init__(self) -> None:
        self.lines = LineIndex(self.text)

    def problem(self, offset: int, what: str) -> None:
        self.problems.append((self.lines.at(offset), what))

    def tokens(self, start: int, end: int) -> list[Token]:
        """The tokens of `text[start:end]` (a whole script, or a substitution's inside)."""
        out: list[Token] = []
        i, drop_next, self._in_test = start, False, False
        while i < end:
            i, drop_next = self._step(i, end, out, drop_next)
        if self._pending:
            self._heredoc_bodies(end, end)
        return out

    def _step(self, i: int, end: int, out: list[Token], drop_next: bool) -> tuple[int, bool]:
        text, char = self.text, self.text[i]
        if char in " \t\r":
            space = _SPACE.match(text, i)
            return (space.end() if space else i + 1), drop_next
        if char == "\\" and text.startswith("\\\n", i):
            return i + 2, drop_next
        if char == "\n" and self._in_test and out and out[-1].text in ("&&", "||"):
            return i + 1, drop_next  # `[[ a ||` continues on the next line
        if char == "\n":
            out.append(Token("op", "\n", i))
            self._in_test = False
            return self._heredoc_bodies(i + 1, end), drop_next
        if self._in_test and self._regex_next:
            self._regex_next = False
            stop = self._regex_end(i, end)  # `( ) |` are part of a `=~` regex, not operators
            if not drop_next:
                out.append(Token("word", self.text[i:stop], i))
            return stop, False
        if char == "#":
            newline = text.find("\n", i, end)
            return (end if newline < 0 else newline), drop_next
        if self._in_test and (op := _starting(text, i, _TEST_OPERATORS)):
            out.append(Token("word", op, i))
            return i + len(op), False
        if char == "(" and text.startswith("((", i) and not self._in_test:
            stop = self._arithmetic_end(i, end)  # `(( a << b ))`: one word, no redirects
            out.append(Token("word", text[i:stop], i))
            return stop, False
        if char in "<>" and text.startswith(("<(", ">("), i):
            stop = self._balanced(i + 1, end, "(", ")", record=True)
            out.append(Token("redirect" if drop_next else "word", text[i:stop], i))
            if drop_next and self._target is not None:  # `bash < <(cat f)`: what it reads
                out.append(Token(self._target, text[i:stop], i))
            return stop, False
        if char in _REDIRECT_START and not self._in_test and self._is_redirect(i, end):
            return self._redirect(i, end, out)
        if char == "{" and not self._in_test and (named := _NAMED_FD.match(text, i, end)):
            out.append(Token("fd", text[i + 1 : named.end() - 1], i))
            return self._redirect(named.end(), end, out)  # `exec {fd}<<<'...'`: bash picks fd
        if char in _OPERATOR_START and (op := _starting(text, i, _OPERATORS)):
            out.append(Token("op", op, i))
            return i + len(op), False
        return self._word(i, end, out, drop_next), False

    def _word(self, i: int, end: int, out: list[Token], drop_next: bool) -> int:
        plain = _PLAIN.match(self.text, i, end)
        stop = plain.end() if plain is not None else i
        if stop == i or (stop < end and self.text[stop] not in _WORD_END):
            stop = max(self._word_end(i, end), i + 1)  # quotes, expansions, arrays: the long way
        if drop_next and _runs_code(self.text[i:stop]):
            out.append(Token("redirect", self.text[i:stop], i))
        if drop_next and self._target is not None:
            out.append(Token(self._target, self.text[i:stop], i))
        if not drop_next:
            word = self.text[i:stop]
            out.append(Token("word", word, i))
            self._in_test = (self._in_test or word == "[[") and word != "]]"
            self._regex_next = self._in_test and word == "=~"
        return stop

    def _regex_end(self, i: int, end: int) -> int:
        """The end of the regex word after `=~`: bash reads parentheses and `|` in it as part
        of the regex, up to a blank outside quotes and parentheses."""
        depth = 0
        while i < end:
            char = self.text[i]
            if char in " \t\r\n" and depth == 0:
                return i
            if char == ")" and depth == 0:
                return i
            if char in "()":
                depth += 1 if char == "(" else -1
                i += 1
            elif char == "\\":
                i += 2
            elif char == "'":
                i = self._find(i + 1, end, "'")
            elif char == '"':
                i = self._double_quoted(i + 1, end)
            elif self.text.startswith("$(", i):
                i = self._balanced(i + 1, end, "(", ")", record=True)
            elif self.text.startswith("${", i):
                i = self._balanced(i + 1, end, "{", "}")
            else:
                i += 1
        return min(i, end)

    def _arithmetic_end(self, i: int, end: int) -> int:
        """Index just past the `))` closing the arithmetic command opened at `i`."""
        depth, j = 0, i
        while j < end:
            char = self.text[j]
            if char == "\n" and depth <= 1:
                break  # unbalanced: stop at the line end rather than swallow the script
            depth += (char == "(") - (char == ")")
            j += 1
            if depth == 0:
                return j
        self.problem(i, "unterminated (( ))")
        return max(j, i + 1)

    def _is_redirect(self, i: int, end: int) -> bool:
        j = i
        while j < end and self.text[j].isdigit():
            j += 1
        if j < end and self.text[j] in "<>":
            return j == i or not self.text[i:j].isalpha()
        return self.text.startswith("&>", i)

    def _redirect(self, i: int, end: int, out: list[Token]) -> tuple[int, bool]:
        start = i
        while i < end and self.text[i].isdigit():
            i += 1
        descriptor = self.text[start:i]
        match = _REDIRECT.match(self.text, i)
        op = match.group(0) if match else self.text[i]
        i += len(op)
        if op in (">&", "<&") and (dup := _DUPLICATE.match(self.text, i)):
            number = dup.group(0).rstrip("-")
            if op == "<&" and descriptor in ("", "0") and number not in ("", "0"):
                # `bash <&3`: standard input read from another descriptor, as `< /dev/fd/3`
                out.append(Token("in", f"/dev/fd/{number}", start))
            return dup.end(), False
        if op in ("<<", "<<-"):
            return self._heredoc_open(i, end, op == "<<-", out), False
        self._target = _TARGETS.get(op)
        if self._target in ("in", "string") and descriptor not in ("", "0"):
            self._target = None  # `exec 3< F`: another descriptor, not standard input
        return i, True  # the next word is the redirect's target: not an argument

    def _heredoc_open(self, i: int, end: int, strip_tabs: bool, out: list[Token]) -> int:
        while i < end and self.text[i] in " \t":
            i += 1
        stop = self._word_end(i, end)
        word = self.text[i:stop]
        quoted = any(char in word for char in "'\"\\")
        delimiter = word.replace("'", "").replace('"', "").replace("\\", "")
        self.heredocs.append(HeredocBody(delimiter, quoted, self.lines.at(i), strip_tabs))
        self._pending.append(len(self.heredocs) - 1)
        out.append(Token("heredoc", str(len(self.heredocs) - 1), i))
        return stop

    def _heredoc_bodies(self, i: int, end: int) -> int:
        while self._pending:
            doc = self.heredocs[self._pending.pop(0)]
            lines: list[str] = []
            while i < end:
                newline = self.text.find("\n", i, end)
                stop = end if newline < 0 else newline
                line = self.text[i:stop]
                i = stop + 1
                if (line.lstrip("\t") if doc.strip_tabs else line).rstrip("\r") == doc.delimiter:
                    doc.closed = True
                    break
                lines.append(line)
            if not doc.closed:
                self.problems.append((doc.line, f"heredoc {doc.delimiter} is never closed"))
            doc.body = "\n".join(lines)
        return min(i, end)

    def _word_end(self, i: int, end: int) -> int:
        start = i
        while i < end:
            char = self.text[i]
            if char in " \t\r\n;&|<>)":
                return i
            if char == "(":
                if not ASSIGNMENT.fullmatch(self.text[start:i]):
                    return i
                i = self._balanced(i, end, "(", ")", array=True)
            elif char == "\\":
                i += 2
            elif char == "'":
                i = self._find(i + 1, end, "'")
            elif char == '"':
                i = self._double_quoted(i + 1, end)
            elif char == "`":
                i = self._backtick(i + 1, end)
            elif self.text.startswith("$'", i):
                i = self._ansi_c(i + 2, end)
            elif self.text.startswith("$(", i):
                i = self._balanced(i + 1, end, "(", ")", record=True)
            elif self.text.startswith("${", i):
                i = self._balanced(i + 1, end, "{", "}")
            else:
                i += 1
        return min(i, end)

    def _find(self, i: int, end: int, quote: str) -> int:
        stop = self.text.find(quote, i, end)
        if stop < 0:
            self.problem(i - 1, f"unterminated {quote}")
            return end
        return stop + 1

    def _ansi_c(self, i: int, end: int) -> int:
        stop = ansi_c_end(self.text, i, end)
        if stop is None:
            self.problem(i - 2, "unterminated $'")
            return end
        return stop

    def _backtick(self, i: int, end: int) -> int:
        j = i
        while j < end and self.text[j] != "`":
            j += 2 if self.text[j] == "\\" else 1
        if j >= end:
            self.problem(i - 1, "unterminated `")
            return end
        self.substitutions.append((i, j))
        return j + 1

    def _double_quoted(self, i: int, end: int) -> int:
        begin, text = i, self.text
        while i < end:
            special = _DOUBLE_QUOTED_SPECIAL.search(text, i, end)  # skip plain text at once
            if special is None:
                break
            i = special.start()
            char = text[i]
            if char == "\\":
                i += 2
            elif char == '"':
                return i + 1
            elif text.startswith("$(", i):
                i = self._balanced(i + 1, end, "(", ")", record=True)
            elif text.startswith("${", i):
                i = self._balanced(i + 1, end, "{", "}")
            elif char == "`":
                i = self._backtick(i + 1, end)
            else:
                i += 1
        self.problem(begin - 1, "unterminated double quote")
        return end

    def _balanced(
        self, i: int, end: int, open_: str, close: str, *, record: bool = False, array: bool = False
    ) -> int:
        """`i` is at `open_`; returns the index after the matching `close`."""
        depth, j = 0, i
        # `$(( $(date +%s) + 1 ))`: the command substitutions inside an arithmetic expansion run
        arithmetic = record and open_ == "(" and self.text.startswith("((", i)
        while j < end:
            char = self.text[j]
            if char == "\\":
                j += 2
                continue
            if char == "'" and (open_ == "(" or array):
                j = self._find(j + 1, end, "'")
                continue
            if char == '"':
                j = self._double_quoted(j + 1, end)
                continue
            if (open_ == "{" or (arithmetic and j > i + 1)) and self.text.startswith("$(", j):
                j = self._balanced(j + 1, end, "(", ")", record=True)  # `${X:-$(cmd)}`
                continue
            if open_ == "{" and char == "`":
                j = self._backtick(j + 1, end)  # `${X:-`cmd`}`
                continue
            if char == "#" and array and self.text[j - 1] in " \t\n(":
                newline = self.text.find("\n", j, end)  # a comment inside a multi-line array
                j = end if newline < 0 else newline
                continue
            if char == open_:
                depth += 1
            elif char == close:
                depth -= 1
                if depth == 0:
                    if record and not self.text.startswith("((", i):
                        self.substitutions.append((i + 1, j))
                    return j + 1
            j += 1
        self.problem(i, f"unterminated {open_}")
        return end


def expansion_end(text: str, at: int) -> int:
    """Just past the `${...}`, `$(...)` or backquoted command that starts at `at` (its `$` or
    backquote), read as a word is read (quotes and nesting inside); the end of `text` when it
    is not closed."""
    scanner = Scanner(text)
    if text[at] == "`":
        return scanner._backtick(at + 1, len(text))
    close = "}" if text[at + 1] == "{" else ")"
    return scanner._balanced(at + 1, len(text), text[at + 1], close)


# `${NAME:-WORD}` (or `-`, `:=`, `=`) at its start: WORD is what it gives when NAME is unset.
_FALLBACK_START = re.compile(r"\$\{[A-Za-z_]\w*:?[-=]")
_MAX_FALLBACK_DEPTH = 4  # `${A:-${B:-x}}` nested this deep at most


def fallback_words(word: str) -> list[str]:
    """The word as the script spells it when what its fallbacks stand in for is unset:
    `${PKG:-$(dirname "$0")/pkg}` names `$(dirname "$0")/pkg` then (one such word per level
    of nesting)."""
    found: list[str] = []
    for _ in range(_MAX_FALLBACK_DEPTH):
        replaced = _with_fallbacks(word)
        if replaced is None:
            break
        found.append(replaced)
        word = replaced
    return found


def _with_fallbacks(text: str) -> str | None:
    out: list[str] = []
    i, replaced = 0, False
    while i < len(text):
        start = _FALLBACK_START.match(text, i) if text[i] == "$" else None
        if start is not None:
            end = expansion_end(text, i)
            if end > start.end() and text[end - 1] == "}":
                out.append(text[start.end() : end - 1])
                i, replaced = end, True
                continue
        out.append(text[i])
        i += 1
    return "".join(out) if replaced else None


def _runs_code(word: str) -> bool:
    """Whether expanding the word runs commands (a substitution, in or out of quotes)."""
    return "$(" in word or "`" in word or word.startswith(("<(", ">("))


def _starting(text: str, i: int, options: tuple[str, ...]) -> str | None:
    return next((op for op in options if text.startswith(op, i)), None)
