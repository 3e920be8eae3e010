"""Read a benchmark shell script (never run it): server launches, client calls, flags and variables.

Commands come from bashlex when it can parse the whole script, else from a quote-aware line
scanner (bashlex rejects `[[ ]]`, `$(( ))`, arrays and `case`). Both produce the same raw words,
which one interpreter walks in source order: simple assignments are tracked and expanded
(`$X`, `${X}`, `${X:-default}`); unquoted expansions are split like shell words (shlex), quoted
ones stay one argument, so JSON values survive intact. Variables assigned in several branches of one
`if`/`case` keep the first branch's value for expansion and list every value in `alternatives`.
"""

from __future__ import annotations

import bisect
import re
import shlex
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

Engine = Literal["vllm", "sglang", "trtllm", "atom", "other"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(\+?)=")
_SPECIAL_PARAMS = frozenset("@*#?$!-0123456789")
_PARAM_OPS = (":-", ":=", ":+", ":?", "-", "=", "+", "?")
_DECLARERS = frozenset({"export", "local", "declare", "typeset", "readonly"})
_WRAPPERS = frozenset({"nohup", "exec", "time", "setsid", "env", "stdbuf", "numactl", "taskset"})
_NOT_RUNNING = frozenset(
    {"echo", "printf", "grep", "egrep", "sed", "awk", "cat", "pgrep", "pkill", "kill", "which",
     "command", "type", "test", "[", "[["}
)  # fmt: skip
_KEYWORDS = frozenset({"then", "do", "done", "fi", "esac", "else", "elif", "{", "}", "!", "in"})
_PYTHON = re.compile(r"^python(?:3(?:\.\d+)?)?$")
_PY_OPTS_WITH_ARG = frozenset({"-X", "-W", "-Q"})
_MODEL_FLAGS = ("--model", "--model-path", "--model_path")


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Arg(Frozen):
    flag: str  # as written: "--tensor-parallel-size" ("--tp=8" gives flag "--tp", value "8")
    value: str | None  # None for boolean flags; unresolved variables stay as "$NAME"
    line: int


class ServerLaunch(Frozen):
    engine: Engine
    command: str  # "vllm serve", "python3 -m sglang.launch_server", "trtllm-serve serve"
    model: str | None  # positional model (`vllm serve MODEL`) or the --model/--model-path value
    args: tuple[Arg, ...]
    line: int
    env: dict[str, str]  # assignments prefixed on the command plus variables exported before it


class ClientCall(Frozen):
    command: str
    args: tuple[Arg, ...]
    line: int


class Heredoc(Frozen):
    line: int  # line of the command that opens it
    delimiter: str
    body: str


class ScriptFacts(Frozen):
    path: str
    parser: Literal["bashlex", "fallback"]
    launches: tuple[ServerLaunch, ...]
    clients: tuple[ClientCall, ...]
    variables: dict[str, str]  # final value of every assigned variable (first branch wins)
    alternatives: dict[str, tuple[str, ...]]  # variables with several candidate values, all listed
    unresolved: tuple[str, ...]  # names referenced but never assigned (the runner's environment)
    flags_anywhere: tuple[Arg, ...]  # every --flag in any command or assigned value, by line
    heredocs: tuple[Heredoc, ...]
    problems: tuple[str, ...]


# --- raw commands -------------------------------------------------------------------------------

Branch = tuple[tuple[int, int], ...]  # (if/case/for frame id, branch index), outermost first


@dataclass(frozen=True)
class _Word:
    raw: str  # source text, quotes included
    line: int


@dataclass(frozen=True)
class _Command:
    words: tuple[_Word, ...]
    line: int
    branch: Branch


@dataclass
class _Raw:
    commands: list[_Command] = field(default_factory=list)
    heredocs: list[Heredoc] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)  # (line, what)
    frames: int = 0

    def new_frame(self) -> int:
        self.frames += 1
        return self.frames


class _Lines:
    def __init__(self, text: str) -> None:
        self.starts = [0] + [index + 1 for index, char in enumerate(text) if char == "\n"]

    def at(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)


def parse_script(
    text: str, path: str, client_commands: Sequence[str] = ("run_benchmark_serving",)
) -> ScriptFacts:
    """Everything a check needs from one script; never raises (oddities become `problems`)."""
    parser: Literal["bashlex", "fallback"] = "bashlex"
    try:
        raw = _bashlex_commands(text)
    except Exception:  # bashlex raises ParsingError, NotImplementedError, IndexError, ...
        parser = "fallback"
    try:
        if parser == "fallback":
            raw = _scan_commands(text)
        raw.commands.sort(key=lambda command: command.line)
        return _interpret(raw, path, parser, tuple(client_commands))
    except Exception as exc:  # a reader bug must not crash a check: report it, fail closed
        return _empty(path, parser, f"{path}:1: script could not be read ({type(exc).__name__})")


def _empty(path: str, parser: Literal["bashlex", "fallback"], problem: str) -> ScriptFacts:
    return ScriptFacts(
        path=path, parser=parser, launches=(), clients=(), variables={}, alternatives={},
        unresolved=(), flags_anywhere=(), heredocs=(), problems=(problem,),
    )  # fmt: skip


def find_args(facts: ScriptFacts, flags: Sequence[str]) -> tuple[Arg, ...]:
    """Every occurrence of any of `flags` (exact spelling) in the script, sorted by line."""
    wanted = set(flags)
    return tuple(arg for arg in facts.flags_anywhere if arg.flag in wanted)


# --- bashlex path -------------------------------------------------------------------------------


def _bashlex_commands(text: str) -> _Raw:
    import bashlex  # imported lazily: only this path needs it

    raw = _Raw()
    lines = _Lines(text)
    for node in bashlex.parse(text):
        _visit(node, text, lines, raw, ())
    return raw


def _visit(node: Any, text: str, lines: _Lines, raw: _Raw, branch: Branch) -> None:
    kind = getattr(node, "kind", "")
    if kind == "command":
        _visit_command(node, text, lines, raw, branch)
    elif kind == "if":
        frame, index = raw.new_frame(), 0
        for part in node.parts:
            if part.kind == "reservedword" and part.word in ("elif", "else"):
                index += 1
            _visit(part, text, lines, raw, (*branch, (frame, index)))
    elif kind == "for":
        _visit_for(node, text, lines, raw, branch)
    else:
        for child in _children(node):
            _visit(child, text, lines, raw, branch)


def _children(node: Any) -> list[Any]:
    children: list[Any] = list(getattr(node, "parts", None) or [])
    children += list(getattr(node, "list", None) or [])
    command = getattr(node, "command", None)
    return [*children, command] if command is not None else children


def _visit_command(node: Any, text: str, lines: _Lines, raw: _Raw, branch: Branch) -> None:
    words: list[_Word] = []
    for part in node.parts:
        for sub in _substitutions(part):
            _visit(sub, text, lines, raw, branch)
        if part.kind in ("word", "assignment"):
            words.append(_Word(text[part.pos[0] : part.pos[1]], lines.at(part.pos[0])))
        elif part.kind == "redirect" and getattr(part, "heredoc", None) is not None:
            delimiter = _unquote_plain(text[part.output.pos[0] : part.output.pos[1]])
            body = part.heredoc.value.rsplit("\n", 1)[0] if "\n" in part.heredoc.value else ""
            raw.heredocs.append(Heredoc(line=lines.at(node.pos[0]), delimiter=delimiter, body=body))
    if words:
        raw.commands.append(_Command(tuple(words), words[0].line, branch))


def _substitutions(node: Any) -> Iterator[Any]:
    for child in getattr(node, "parts", None) or []:
        if getattr(child, "kind", "") in ("commandsubstitution", "processsubstitution"):
            yield child.command
        else:
            yield from _substitutions(child)


def _visit_for(node: Any, text: str, lines: _Lines, raw: _Raw, branch: Branch) -> None:
    words = [part for part in node.parts if part.kind == "word"]
    body = [part for part in node.parts if part.kind not in ("word", "reservedword")]
    if words:
        name = text[words[0].pos[0] : words[0].pos[1]]
        items = [_Word(text[w.pos[0] : w.pos[1]], lines.at(w.pos[0])) for w in words[1:]]
        _loop_assignments(name, items, lines.at(node.pos[0]), raw, branch)
    for part in body:
        _visit(part, text, lines, raw, branch)


def _loop_assignments(name: str, items: list[_Word], line: int, raw: _Raw, branch: Branch) -> None:
    """`for X in a b` assigns X once per item: recorded as alternatives of one frame."""
    if not _NAME.fullmatch(name):
        return
    frame = raw.new_frame()
    for index, item in enumerate(items or [_Word("", line)]):
        word = _Word(f"{name}={item.raw}", item.line)
        raw.commands.append(_Command((word,), line, (*branch, (frame, index))))


def _unquote_plain(text: str) -> str:
    return text.replace("'", "").replace('"', "").replace("\\", "").lstrip("-")


# --- fallback scanner ---------------------------------------------------------------------------

_OPERATORS = ("&&", "||", ";;", ";&", "|&", ";", "|", "&", "(", ")")


@dataclass
class _Token:
    kind: Literal["word", "op"]
    text: str
    offset: int


class _Scanner:
    """A forgiving shell tokenizer: quotes, `$( )`, `${ }`, backticks, heredocs, continuations."""

    def __init__(self, text: str, raw: _Raw, lines: _Lines) -> None:
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
        return bool(_ASSIGNMENT.fullmatch(self.text[start:i]))

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


def _scan_commands(text: str) -> _Raw:
    raw = _Raw()
    lines = _Lines(text)
    scanner = _Scanner(text, raw, lines)
    _group(scanner.tokens(0, len(text)), raw, lines)
    done = 0
    while done < len(scanner.substitutions):  # commands inside $( ... ), found while scanning
        start, stop = scanner.substitutions[done]
        done += 1
        _group(scanner.tokens(start, stop), raw, lines)
    return raw


@dataclass
class _Frame:
    id: int
    branch: int = 0
    case: bool = False
    header: bool = False  # case: still reading `case WORD in`
    pattern: bool = False  # case: reading an arm pattern up to `)`


def _group(tokens: list[_Token], raw: _Raw, lines: _Lines) -> None:
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


def _flush(current: list[_Token], stack: list[_Frame], raw: _Raw, lines: _Lines) -> None:
    words = _strip_keywords(current, stack, raw)
    current.clear()
    if not words:
        return
    branch = tuple((frame.id, frame.branch) for frame in stack)
    built = tuple(_Word(token.text, lines.at(token.offset)) for token in words)
    if built[0].raw == "for" and len(built) > 1:
        items = [word for word in built[2:] if word.raw != "in"]
        _loop_assignments(built[1].raw, items, built[0].line, raw, branch)
    else:
        raw.commands.append(_Command(built, built[0].line, branch))


def _strip_keywords(tokens: list[_Token], stack: list[_Frame], raw: _Raw) -> list[_Token]:
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


# --- expansion ----------------------------------------------------------------------------------


@dataclass
class _State:
    values: dict[str, str] = field(default_factory=dict)
    exported: set[str] = field(default_factory=set)
    assigned: set[str] = field(default_factory=set)
    referenced: set[str] = field(default_factory=set)
    where: dict[str, Branch] = field(default_factory=dict)
    alternatives: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class _Piece:
    text: str
    split: bool  # an unquoted expansion: subject to word splitting


def _expand(raw: str, state: _State) -> list[_Piece]:
    pieces: list[_Piece] = []
    literal: list[str] = []
    i, quoted = 0, False

    def emit(text: str, split: bool) -> None:
        if literal:
            pieces.append(_Piece("".join(literal), False))
            literal.clear()
        pieces.append(_Piece(text, split))

    while i < len(raw):
        char = raw[i]
        if char == "\\" and i + 1 < len(raw):
            nxt = raw[i + 1]
            if nxt == "\n":
                pass
            elif not quoted or nxt in '"\\$`':
                literal.append(nxt)
            else:
                literal.append(char + nxt)
            i += 2
        elif char == "'" and not quoted:
            stop = raw.find("'", i + 1)
            stop = len(raw) if stop < 0 else stop
            literal.append(raw[i + 1 : stop])
            i = stop + 1
        elif char == '"':
            quoted = not quoted
            i += 1
        elif char == "$" and raw.startswith("$'", i) and not quoted:
            stop = raw.find("'", i + 2)
            stop = len(raw) if stop < 0 else stop
            literal.append(raw[i + 2 : stop])
            i = stop + 1
        elif char == "$":
            text, i, is_value = _parameter(raw, i, state)
            if is_value:
                emit(text, not quoted or raw.startswith("[@]}", i - 4))  # "${A[@]}": one per item
            else:
                literal.append(text)
        elif char == "`":
            stop = raw.find("`", i + 1)
            stop = len(raw) if stop < 0 else stop
            literal.append(raw[i : stop + 1])
            i = stop + 1
        else:
            literal.append(char)
            i += 1
    if literal or not pieces:
        pieces.append(_Piece("".join(literal), False))
    return pieces


def _parameter(raw: str, i: int, state: _State) -> tuple[str, int, bool]:
    """Expand the `$...` at `i`: (text, next index, whether text is a variable's value)."""
    if raw.startswith("$(", i):
        stop = _matching(raw, i + 1, "(", ")")
        return raw[i:stop], stop, False
    if raw.startswith("${", i):
        stop = _matching(raw, i + 1, "{", "}")
        return _braced(raw[i:stop], raw[i + 2 : stop - 1], state), stop, True
    match = _NAME.match(raw, i + 1)
    if match is None:
        special = raw[i + 1 : i + 2]
        consumed = 2 if special in _SPECIAL_PARAMS and special else 1
        return raw[i : i + consumed], i + consumed, False
    return _lookup(match.group(0), raw[i : match.end()], state), match.end(), True


def _braced(whole: str, inner: str, state: _State) -> str:
    match = _NAME.match(inner)
    if match is None or inner.startswith("#"):
        return whole
    name, rest = match.group(0), inner[match.end() :]
    if rest in ("", "[@]", "[*]"):  # arrays are stored as their items joined by spaces
        return _lookup(name, whole, state)
    op = next((op for op in _PARAM_OPS if rest.startswith(op)), None)
    if op is None:
        state.referenced.add(name)
        return whole  # ${X%%...}, ${X/a/b}, ${X:0:3}: kept as written
    word = _join(_expand(rest[len(op) :], state))
    value = state.values.get(name)
    set_ = value is not None and (value != "" or ":" not in op)
    if op in (":-", "-", ":=", "="):
        if op in (":=", "=") and not set_:
            state.assigned.add(name)
            state.values[name] = word
        if not set_:
            return word
        state.referenced.add(name)
        return value or ""
    if op in (":+", "+"):
        return word if set_ else ""
    return _lookup(name, whole, state)


def _lookup(name: str, written: str, state: _State) -> str:
    state.referenced.add(name)
    value = state.values.get(name)
    return written if value is None else value


def _matching(raw: str, i: int, open_: str, close: str) -> int:
    depth = 0
    for j in range(i, len(raw)):
        if raw[j] == open_:
            depth += 1
        elif raw[j] == close:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(raw)


def _join(pieces: list[_Piece]) -> str:
    return "".join(piece.text for piece in pieces)


def _fields(pieces: list[_Piece]) -> list[str]:
    """Word-split the unquoted expansions (shlex, so quoted JSON inside a value stays whole)."""
    fields: list[str] = []
    current: str | None = None
    for piece in pieces:
        if not piece.split:
            current = (current or "") + piece.text
            continue
        parts = _split(piece.text)
        if not parts:
            continue
        if current is not None and not piece.text[:1].isspace():
            parts[0] = current + parts[0]
        elif current is not None:
            fields.append(current)
        fields.extend(parts[:-1])
        current = parts[-1]
        if piece.text[-1:].isspace():
            fields.append(current)
            current = None
    if current is not None:
        fields.append(current)
    return fields


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text, posix=True)
    except ValueError:
        return text.split()


# --- interpretation -----------------------------------------------------------------------------


@dataclass
class _Field:
    text: str
    line: int


@dataclass
class _Facts:
    launches: list[ServerLaunch] = field(default_factory=list)
    clients: list[ClientCall] = field(default_factory=list)
    flags: list[Arg] = field(default_factory=list)


def _interpret(
    raw: _Raw, path: str, parser: Literal["bashlex", "fallback"], clients: tuple[str, ...]
) -> ScriptFacts:
    state, facts = _State(), _Facts()
    for command in raw.commands:
        _run(command, state, facts, clients)
    unresolved = sorted(state.referenced - state.assigned - set(state.values))
    flags = sorted(dict.fromkeys(facts.flags), key=lambda arg: (arg.line, arg.flag))
    return ScriptFacts(
        path=path,
        parser=parser,
        launches=tuple(facts.launches),
        clients=tuple(facts.clients),
        variables=dict(sorted(state.values.items())),
        alternatives={
            name: tuple(values)
            for name, values in sorted(state.alternatives.items())
            if len(values) > 1
        },
        unresolved=tuple(unresolved),
        flags_anywhere=tuple(flags),
        heredocs=tuple(sorted(raw.heredocs, key=lambda doc: doc.line)),
        problems=tuple(f"{path}:{line}: {what}" for line, what in sorted(set(raw.problems))),
    )


def _run(command: _Command, state: _State, facts: _Facts, clients: tuple[str, ...]) -> None:
    count = next((n for n, w in enumerate(command.words) if not _ASSIGNMENT.match(w.raw)), None)
    assignments = command.words if count is None else command.words[:count]
    words = [] if count is None else list(command.words[count:])
    prefix: dict[str, str] = {}
    for word in assignments:
        name, value, added = _assignment(word, state)
        if not _is_substitution(word.raw):  # commands inside $( ) are read on their own
            facts.flags.extend(_value_flags(added, word.line))
        if words:
            prefix[name] = value  # `A=1 cmd`: only cmd's environment, not the script's
            state.assigned.add(name)
        else:
            _assign(name, value, command.branch, state)
    argv = [_Field(text, word.line) for word in words for text in _fields(_expand(word.raw, state))]
    if not argv:
        return
    facts.flags.extend(_parse_args(argv))
    head = argv[0].text
    if head in _DECLARERS:
        _declare(head, words[1:], command.branch, state, facts)
    elif head in ("read", "mapfile", "readarray"):
        state.assigned.update(word.text for word in argv[1:] if _NAME.fullmatch(word.text))
    elif head in clients:
        facts.clients.append(
            ClientCall(command=head, args=tuple(_parse_args(argv[1:])), line=argv[0].line)
        )
    else:
        launch = _launch(argv, {**_exported(state), **prefix})
        if launch is not None:
            facts.launches.append(launch)


def _assignment(word: _Word, state: _State) -> tuple[str, str, str]:
    """(name, new value, the text this word contributed) for `NAME=value` or `NAME+=value`."""
    match = _ASSIGNMENT.match(word.raw)
    if match is None:  # callers check first; kept total for safety
        return "", "", ""
    name, append, value_raw = match.group(1), match.group(2), word.raw[match.end() :]
    if value_raw.startswith("(") and value_raw.endswith(")"):  # array: keep the items' text
        added = " ".join(_fields(_expand(value_raw[1:-1].replace("\n", " "), state)))
    else:
        added = _join(_expand(value_raw, state))
    if append:
        return name, state.values.get(name, "") + added, added
    return name, added, added


def _assign(name: str, value: str, branch: Branch, state: _State) -> None:
    state.assigned.add(name)
    previous = state.where.get(name)
    if previous is not None and _sibling_branches(previous, branch):
        seen = state.alternatives.setdefault(name, [state.values.get(name, "")])
        if value not in seen:
            seen.append(value)  # an else/elif/later-case value: the first branch's value stays
        return
    state.values[name] = value
    state.where[name] = branch
    state.alternatives.pop(name, None)  # a plain reassignment replaces the history


def _sibling_branches(earlier: Branch, later: Branch) -> bool:
    frames = dict(earlier)
    return any(frame in frames and frames[frame] != index for frame, index in later)


def _declare(head: str, words: list[_Word], branch: Branch, state: _State, facts: _Facts) -> None:
    exporting = head == "export"
    for word in words:
        if word.raw.startswith("-"):
            exporting = exporting or "x" in word.raw
            continue
        name = word.raw
        if _ASSIGNMENT.match(word.raw):
            name, value, added = _assignment(word, state)
            facts.flags.extend(_value_flags(added, word.line))
            _assign(name, value, branch, state)
        if exporting and _NAME.fullmatch(name):
            state.exported.add(name)


def _exported(state: _State) -> dict[str, str]:
    return {name: state.values[name] for name in sorted(state.exported) if name in state.values}


def _is_substitution(assignment: str) -> bool:
    value = assignment.split("=", 1)[-1].lstrip('"')
    return value.startswith(("$(", "`")) and not value.startswith("$((")


def _value_flags(value: str, line: int) -> list[Arg]:
    """Flags written inside an assigned value (`SPEC_ARGS="--speculative-config ..."`)."""
    if "--" not in value:
        return []
    return _parse_args([_Field(text, line) for text in _split(value)])


def _parse_args(argv: Sequence[_Field]) -> list[Arg]:
    args: list[Arg] = []
    i = 0
    while i < len(argv):
        text = argv[i].text
        if not text.startswith("--") or len(text) < 3 or not text[2].isalnum():
            i += 1
            continue
        flag, eq, value = text.partition("=")
        if eq:
            args.append(Arg(flag=flag, value=value, line=argv[i].line))
        elif i + 1 < len(argv) and _is_value(argv[i + 1].text):
            args.append(Arg(flag=flag, value=argv[i + 1].text, line=argv[i].line))
            i += 1
        else:
            args.append(Arg(flag=flag, value=None, line=argv[i].line))
        i += 1
    return args


def _is_value(text: str) -> bool:
    return not text.startswith("-") or bool(re.fullmatch(r"-\d[\d.eE+-]*", text)) or text == "-"


# --- launch recognition -------------------------------------------------------------------------


def _launch(argv: list[_Field], env: dict[str, str]) -> ServerLaunch | None:
    if _basename(argv[0].text) in _NOT_RUNNING:
        return None
    for i in range(len(argv)):
        found = _launcher_at(argv, i)
        if found is None:
            continue
        engine, command, rest, positional_model = found
        args = _parse_args(argv[rest:])
        model = argv[rest].text if positional_model and rest < len(argv) else None
        if model is not None and model.startswith("-"):
            model = None
        if model is None:
            model = next((arg.value for arg in args if arg.flag in _MODEL_FLAGS), None)
        wrapped_env = _wrapper_env(argv[:i])
        return ServerLaunch(
            engine=engine, command=command, model=model, args=tuple(args),
            line=argv[i].line, env={**env, **wrapped_env},
        )  # fmt: skip
    return None


def _launcher_at(argv: list[_Field], i: int) -> tuple[Engine, str, int, bool] | None:
    name = _basename(argv[i].text)
    nxt = argv[i + 1].text if i + 1 < len(argv) else ""
    if name in ("vllm", "sglang") and nxt == "serve":
        return ("vllm" if name == "vllm" else "sglang"), f"{name} serve", i + 2, True
    if name == "trtllm-serve":
        if nxt == "serve":
            return "trtllm", "trtllm-serve serve", i + 2, True
        return "trtllm", "trtllm-serve", i + 1, True
    if _PYTHON.match(name):
        return _python_module(argv, i, name)
    return None


def _python_module(argv: list[_Field], i: int, python: str) -> tuple[Engine, str, int, bool] | None:
    j = i + 1
    while j < len(argv) and argv[j].text != "-m" and argv[j].text.startswith("-"):
        j += 2 if argv[j].text in _PY_OPTS_WITH_ARG else 1
    if j + 1 >= len(argv) or argv[j].text != "-m":
        return None
    module = argv[j + 1].text
    command = f"{python} -m {module}"
    root = module.split(".", 1)[0]
    engines: dict[str, Engine] = {"vllm": "vllm", "sglang": "sglang", "atom": "atom",
                                  "tensorrt_llm": "trtllm"}  # fmt: skip
    if root in engines and (root == "atom" or "serve" in module or "server" in module):
        return engines[root], command, j + 2, False
    if re.search(r"(?:launch_server|api_server|serve|server)$", module):
        return "other", command, j + 2, False
    return None


def _wrapper_env(before: list[_Field]) -> dict[str, str]:
    """`env A=1 vllm serve`: assignments given to an `env` wrapper."""
    env: dict[str, str] = {}
    if before and _basename(before[0].text) in _WRAPPERS:
        for word in before[1:]:
            match = _ASSIGNMENT.match(word.text)
            if match:
                env[match.group(1)] = word.text[match.end() :]
    return env


def _basename(word: str) -> str:
    return word.rsplit("/", 1)[-1]
