"""Tokenize a shell script into simple commands without running it.

A forgiving scanner for the scripts under benchmarks/: quotes, `$( )`, `$(( ))`, `${ }`,
backticks, heredocs (quoted delimiters too), arrays, `case` arms and backslash continuations.
Each command keeps its source line and the `if`/`case`/`for` branch it sits in, so the
interpreter in bench_script.py can tell alternatives from reassignments. Untrusted input never
raises here by design of the callers (they catch and report), and the scan is linear in the text.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(\+?)=")
_KEYWORDS = frozenset({"then", "do", "done", "fi", "esac", "else", "elif", "{", "}", "!", "in"})


class Heredoc(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    line: int  # line of the command that opens it
    delimiter: str
    body: str


# --- commands -------------------------------------------------------------------------------

Branch = tuple[tuple[int, int], ...]  # (if/case/for frame id, branch index), outermost first


@dataclass(frozen=True)
class Word:
    raw: str  # source text, quotes included
    line: int


@dataclass(frozen=True)
class Command:
    words: tuple[Word, ...]
    line: int
    branch: Branch


@dataclass
class ScannedScript:
    commands: list[Command] = field(default_factory=list)
    heredocs: list[Heredoc] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)  # (line, what)
    frames: int = 0
    complete: bool = True  # False when part of the script was not read (nesting budget)

    def new_frame(self) -> int:
        self.frames += 1
        return self.frames


class LineIndex:
    def __init__(self, text: str) -> None:
        self.starts = [0] + [index + 1 for index, char in enumerate(text) if char == "\n"]

    def at(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)


# --- scanner ---------------------------------------------------------------------------

_OPERATORS = ("&&", "||", ";;", ";&", "|&", ";", "|", "&", "(", ")")


@dataclass
class _Token:
    kind: Literal["word", "op"]
    text: str
    offset: int


class _Scanner:
    """A forgiving shell tokenizer: quotes, `$( )`, `${ }`, backticks, heredocs, continuations."""

    def __init__(self, text: str, raw: ScannedScript, lines: LineIndex) -> None:
        self.text, self.raw, self.lines = text, raw, lines
        self.pending_heredocs: list[tuple[str, bool, int]] = []
        self.substitutions: list[tuple[int, int]] = []

    def tokens(self, start: int, end: int) -> list[_Token]:
        out: list[_Token] = []
        i, drop_next = start, False
        while i < end:
            char = self.text[i]
            if char in " \t\r":
                i += 1
            elif self.text.startswith("\\\n", i):
                i += 2
            elif char == "\n":
                out.append(_Token("op", "\n", i))
                i = self._heredoc_bodies(i + 1, end)
            elif char == "#":
                newline = self.text.find("\n", i, end)
                i = end if newline < 0 else newline
            elif self.text.startswith("((", i):
                # `(( a << b ))` is arithmetic: one word, no redirects or heredocs inside.
                stop = self._arithmetic_end(i, end)
                out.append(_Token("word", self.text[i:stop], i))
                i = stop
            elif self._is_redirect(i, end):
                i, drop_next = self._redirect(i, end)
            elif op := next((op for op in _OPERATORS if self.text.startswith(op, i)), None):
                out.append(_Token("op", op, i))
                i += len(op)
            else:
                stop = max(self._word_end(i, end), i + 1)
                if not drop_next:
                    out.append(_Token("word", self.text[i:stop], i))
                i, drop_next = stop, False
        return out

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
        self.raw.problems.append((self.lines.at(i), "unterminated (( ))"))
        return max(j, i + 1)

    def _is_redirect(self, i: int, end: int) -> bool:
        j = i
        while j < end and self.text[j].isdigit():
            j += 1
        if j < end and self.text[j] in "<>":
            return j == i or not self.text[i:j].isalpha()
        return self.text.startswith("&>", i)

    def _redirect(self, i: int, end: int) -> tuple[int, bool]:
        while i < end and self.text[i].isdigit():
            i += 1
        match = re.compile(r"&>>?|<<<|<<-?|<>|>>|>\||>&|<&|>|<").match(self.text, i)
        op = match.group(0) if match else self.text[i]
        i += len(op)
        if op in (">&", "<&"):
            dup = re.compile(r"\d+-?|-").match(self.text, i)
            if dup:
                return dup.end(), False
        if op in ("<<", "<<-"):
            while i < end and self.text[i] in " \t":
                i += 1
            stop = self._word_end(i, end)
            word = self.text[i:stop]
            self.pending_heredocs.append((_unquote_plain(word), op == "<<-", i))
            return stop, False
        return i, True

    def _heredoc_bodies(self, i: int, end: int) -> int:
        while self.pending_heredocs:
            delimiter, strip_tabs, opened = self.pending_heredocs.pop(0)
            body: list[str] = []
            while True:
                if i >= end:
                    self.raw.problems.append(
                        (self.lines.at(opened), f"heredoc {delimiter} is never closed")
                    )
                    break
                newline = self.text.find("\n", i, end)
                stop = end if newline < 0 else newline
                line = self.text[i:stop]
                i = stop + 1
                if (line.lstrip("\t") if strip_tabs else line).rstrip("\r") == delimiter:
                    break
                body.append(line)
            line_no = self.lines.at(opened)
            self.raw.heredocs.append(
                Heredoc(line=line_no, delimiter=delimiter, body="\n".join(body))
            )
        return i

    def _word_end(self, i: int, end: int) -> int:
        start = i
        while i < end:
            char = self.text[i]
            if char in " \t\r\n;&|<>)":
                return i
            if char == "(":
                if not self._array_open(start, i):
                    return i
                i = self._balanced(i, end, "(", ")")
            elif char == "\\":
                i += 2
            elif char == "'":
                i = self._find(i + 1, end, "'")
            elif char == '"':
                i = self._double_quoted(i + 1, end)
            elif char == "`":
                i = self._find(i + 1, end, "`")
            elif self.text.startswith("$(", i):
                i = self._balanced(i + 1, end, "(", ")", record=True)
            elif self.text.startswith("${", i):
                i = self._balanced(i + 1, end, "{", "}")
            else:
                i += 1
        return min(i, end)

    def _array_open(self, start: int, i: int) -> bool:
        """`A=(x y)` arrays and `$((...))`-free parentheses glued to an assignment."""
        return bool(ASSIGNMENT.fullmatch(self.text[start:i]))

    def _find(self, i: int, end: int, quote: str) -> int:
        stop = self.text.find(quote, i, end)
        if stop < 0:
            self.raw.problems.append((self.lines.at(i - 1), f"unterminated {quote}"))
            return end
        return stop + 1

    def _double_quoted(self, i: int, end: int) -> int:
        begin = i
        while i < end:
            char = self.text[i]
            if char == "\\":
                i += 2
            elif char == '"':
                return i + 1
            elif self.text.startswith("$(", i):
                i = self._balanced(i + 1, end, "(", ")", record=True)
            elif char == "`":
                i = self._find(i + 1, end, "`")
            else:
                i += 1
        self.raw.problems.append((self.lines.at(begin - 1), "unterminated double quote"))
        return end

    def _balanced(self, i: int, end: int, open_: str, close: str, *, record: bool = False) -> int:
        """`i` is at `open_`; returns the index after the matching `close`."""
        depth, j = 0, i
        while j < end:
            char = self.text[j]
            if char == "\\":
                j += 2
                continue
            if char == "'" and open_ == "(":
                j = self._find(j + 1, end, "'")
                continue
            if char == '"':
                j = self._double_quoted(j + 1, end)
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
        self.raw.problems.append((self.lines.at(i), f"unterminated {open_}"))
        return end


# Nested `$( )` are re-scanned once per level; this budget (in characters, a multiple of the
# script's size) keeps hostile nesting linear instead of quadratic.
RESCAN_BUDGET_FACTOR = 8


def scan_commands(text: str) -> ScannedScript:
    """Every simple command of the script, including those inside `$( ... )`."""
    raw = ScannedScript()
    lines = LineIndex(text)
    scanner = _Scanner(text, raw, lines)
    _group(scanner.tokens(0, len(text)), raw, lines)
    budget = RESCAN_BUDGET_FACTOR * len(text) + 10_000
    done = 0
    while done < len(scanner.substitutions):  # commands inside $( ... ), found while scanning
        start, stop = scanner.substitutions[done]
        done += 1
        budget -= stop - start
        if budget < 0:
            raw.problems.append((lines.at(start), "command substitutions nested too deeply"))
            raw.complete = False
            break
        _group(scanner.tokens(start, stop), raw, lines)
    return raw


@dataclass
class _Frame:
    id: int
    branch: int = 0
    case: bool = False
    header: bool = False  # case: still reading `case WORD in`
    pattern: bool = False  # case: reading an arm pattern up to `)`


def _group(tokens: list[_Token], raw: ScannedScript, lines: LineIndex) -> None:
    """Split tokens into simple commands, tracking `if`/`case`/`for` branches."""
    stack: list[_Frame] = []
    current: list[_Token] = []
    for token in tokens:
        top = stack[-1] if stack else None
        if top is not None and top.case and (top.header or top.pattern):
            _case_header(token, top, stack)
        elif token.kind == "word" and not current and token.text == "case":
            stack.append(_Frame(raw.new_frame(), case=True, header=True))
        elif token.kind == "op" and token.text in (";;", ";&") and top is not None and top.case:
            _flush(current, stack, raw, lines)
            top.branch, top.pattern = top.branch + 1, True
        elif token.kind == "op":
            _flush(current, stack, raw, lines)
        else:
            current.append(token)
    _flush(current, stack, raw, lines)


def _case_header(token: _Token, frame: _Frame, stack: list[_Frame]) -> None:
    if frame.header:
        frame.header = not (token.kind == "word" and token.text == "in")
        frame.pattern = not frame.header
    elif token.kind == "word" and token.text == "esac":
        stack.pop()
    elif token.kind == "op" and token.text == ")":
        frame.pattern = False


def _flush(
    current: list[_Token], stack: list[_Frame], raw: ScannedScript, lines: LineIndex
) -> None:
    words = _strip_keywords(current, stack, raw)
    current.clear()
    if not words:
        return
    branch = tuple((frame.id, frame.branch) for frame in stack)
    built = tuple(Word(token.text, lines.at(token.offset)) for token in words)
    if built[0].raw == "for" and len(built) > 1:
        items = [word for word in built[2:] if word.raw != "in"]
        _loop_assignments(built[1].raw, items, built[0].line, raw, branch)
    else:
        raw.commands.append(Command(built, built[0].line, branch))


def _strip_keywords(tokens: list[_Token], stack: list[_Frame], raw: ScannedScript) -> list[_Token]:
    words = list(tokens)
    while words:
        head = words[0].text
        if head == "if":
            stack.append(_Frame(raw.new_frame()))
        elif head in ("elif", "else") and stack and not stack[-1].case:
            stack[-1].branch += 1
        elif head in ("fi", "esac") and stack:
            stack.pop()
        elif head not in _KEYWORDS and head not in ("while", "until", "function"):
            return words
        words = words[1:]
    return words


def _loop_assignments(
    name: str, items: list[Word], line: int, raw: ScannedScript, branch: Branch
) -> None:
    """`for X in a b` assigns X once per item: recorded as alternatives of one frame."""
    if not NAME.fullmatch(name):
        return
    frame = raw.new_frame()
    for index, item in enumerate(items or [Word("", line)]):
        word = Word(f"{name}={item.raw}", item.line)
        raw.commands.append(Command((word,), line, (*branch, (frame, index))))


def _unquote_plain(text: str) -> str:
    return text.replace("'", "").replace('"', "").replace("\\", "").lstrip("-")
