"""Parse shell tokens into a small syntax tree, iteratively (nesting depth is attacker-chosen).

The tree has what the evaluator needs: lists with `&&`/`||` and `&`, pipelines, simple commands
(assignments, words, heredocs), `if/elif/else`, `case`, `for`/`select`/`while`/`until`, function
definitions, `{ }` groups and `( )` subshells. Command substitutions are parsed once, by the
offset of their inside, so the evaluator can run them where a word uses them. Words keep their
source text and offset; nothing is expanded or executed here. A construct that is never closed,
a keyword in the wrong place or nesting deeper than `MAX_DEPTH` becomes a problem (line, what).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from signoff.parse.shell.scan import ASSIGNMENT, HeredocBody, Scanner, Target, Token

MAX_DEPTH = 100  # nested compound commands; deeper scripts are not read (fail closed)
SUBSTITUTION_BUDGET_FACTOR = 8  # characters re-scanned for nested $( ), as a multiple of the text
_SEPARATORS = frozenset({";", "\n", "&"})


@dataclass(slots=True)
class Word:
    raw: str  # source text, quotes included
    offset: int
    line: int
    items: list[Word] | None = None  # `A=( ... )` / `A+=( ... )`: the array's item words


@dataclass(slots=True)
class Simple:
    line: int
    assigns: list[Word] = field(default_factory=list)
    words: list[Word] = field(default_factory=list)
    heredocs: list[int] = field(default_factory=list)  # indexes into Parsed.heredocs
    redirects: list[Word] = field(default_factory=list)  # targets that run code when expanded
    # the files its redirections write ("out") or read ("in"), and its here-strings ("string")
    streams: list[tuple[Target, Word]] = field(default_factory=list)
    fds: list[str] = field(default_factory=list)  # `{NAME}>F`: the NAMEs bash sets
    # the names its words may read, sorted (found once, when first asked: shell.simple)
    names: tuple[str, ...] | None = field(default=None, compare=False, repr=False)
    assigned: frozenset[str] | None = field(default=None, compare=False, repr=False)  # calls.frame
    # per word, whether it is its own text (nothing to expand: shell.simple, found once)
    literal: tuple[bool, ...] | None = field(default=None, compare=False, repr=False)


@dataclass(slots=True)
class Seq:
    items: list[AndOr] = field(default_factory=list)
    assigned: frozenset[str] | None = field(default=None, compare=False, repr=False)  # calls.frame


@dataclass(slots=True)
class If:
    line: int
    arms: list[tuple[Seq, Seq]] = field(default_factory=list)  # (condition, body)
    orelse: Seq | None = None
    assigned: frozenset[str] | None = field(default=None, compare=False, repr=False)  # calls.frame


@dataclass(slots=True)
class CaseArm:
    patterns: list[Word]
    body: Seq
    terminator: str  # ";;" stop, ";&" run the next body, ";;&" test the next patterns


@dataclass(slots=True)
class Case:
    line: int
    subject: Word | None = None
    arms: list[CaseArm] = field(default_factory=list)
    assigned: frozenset[str] | None = field(default=None, compare=False, repr=False)  # calls.frame


@dataclass(slots=True)
class Loop:
    line: int
    kind: str  # "for", "select", "arith-for", "while", "until"
    name: str = ""
    items: list[Word] | None = None  # for/select: None means `"$@"`
    cond: Seq | None = None  # while/until
    body: Seq = field(default_factory=Seq)
    assigned: frozenset[str] | None = field(default=None, compare=False, repr=False)  # calls.frame


@dataclass(slots=True)
class Group:
    line: int
    body: Seq
    subshell: bool
    assigned: frozenset[str] | None = field(default=None, compare=False, repr=False)  # calls.frame


@dataclass(slots=True)
class Func:
    line: int
    name: str
    body: Command
    assigned: frozenset[str] | None = field(default=None, compare=False, repr=False)  # calls.frame


Command = Simple | If | Case | Loop | Group | Func


@dataclass(slots=True)
class Pipeline:
    line: int
    commands: list[Command]
    negated: bool = False


@dataclass(slots=True)
class AndOr:
    first: Pipeline
    rest: list[tuple[str, Pipeline]] = field(default_factory=list)  # ("&&" | "||", pipeline)
    background: bool = False


@dataclass
class Parsed:
    """One script read into a tree; `substitutions` maps an inner span's offset to its tree."""

    script: Seq
    substitutions: dict[int, Seq]
    heredocs: list[HeredocBody]
    problems: list[tuple[int, str]]
    text: str
    # the names its text could assign anywhere (found once, when first asked: shell.evaluator)
    assigns: frozenset[str] | None = field(default=None, compare=False, repr=False)


def every_command(roots: list[Seq]) -> list[Command]:
    """Every command in the trees, compound ones and what they hold, functions' bodies too
    (walked iteratively: depth is the script author's choice)."""
    return commands_and_lists(roots)[0]


def commands_and_lists(roots: list[Seq]) -> tuple[list[Command], list[AndOr]]:
    """`every_command`, and every `&&`/`||` list the trees hold (one per item of a sequence)."""
    found: list[Command] = []
    lists: list[AndOr] = []
    stack: list[object] = list(roots)
    while stack:
        node = stack.pop()
        if isinstance(node, Seq):
            stack.extend(node.items)
        elif isinstance(node, AndOr):
            lists.append(node)
            stack.extend(node.first.commands)
            stack.extend(cmd for _, pipe in node.rest for cmd in pipe.commands)
            continue
        if not isinstance(node, Simple | If | Case | Loop | Group | Func):
            continue
        found.append(node)
        if isinstance(node, If):
            stack.extend(part for arm in node.arms for part in arm)
            if node.orelse is not None:
                stack.append(node.orelse)
        elif isinstance(node, Case):
            stack.extend(arm.body for arm in node.arms)
        elif isinstance(node, Loop):
            stack.append(node.body)
            if node.cond is not None:
                stack.append(node.cond)
        elif isinstance(node, Group | Func):
            stack.append(node.body)
    return found, lists


# --- list builder -----------------------------------------------------------------------------


@dataclass(slots=True)
class _List:
    items: list[AndOr] = field(default_factory=list)
    pipes: list[Pipeline] = field(default_factory=list)
    ops: list[str] = field(default_factory=list)
    cmds: list[Command] = field(default_factory=list)
    negated: bool = False
    simple: Simple | None = None
    pending: bool = False  # after `&&`, `||` or `|`: a newline continues the command
    closed: bool = False  # a compound command just ended: only an operator may follow

    def in_command_position(self) -> bool:
        return self.simple is None and not self.closed

    def add_command(self, node: Command) -> None:
        self.end_simple()
        self.cmds.append(node)
        self.pending, self.closed = False, not isinstance(node, Simple)

    def end_simple(self) -> None:
        if self.simple is not None:
            simple, self.simple = self.simple, None
            self.add_command(simple)

    def end_pipeline(self) -> None:
        self.end_simple()
        if self.cmds:
            self.pipes.append(Pipeline(_line_of(self.cmds[0]), self.cmds, self.negated))
        self.cmds, self.negated, self.closed = [], False, False

    def connect(self, op: str) -> None:
        self.end_pipeline()
        if self.pipes:
            self.ops.append(op)
        self.pending = True

    def pipe(self) -> None:
        self.end_simple()
        self.pending, self.closed = True, False

    def separate(self, background: bool) -> None:
        self.end_pipeline()
        if self.pipes:
            rest = list(zip(self.ops, self.pipes[1:], strict=False))
            self.items.append(AndOr(self.pipes[0], rest, background))
        self.pipes, self.ops, self.pending = [], [], False

    def finish(self) -> Seq:
        self.separate(False)
        return Seq(self.items)


def _line_of(node: Command) -> int:
    return node.line


@dataclass(slots=True)
class _Frame:
    kind: str  # top, if, loop, for, case, group, subshell, func
    line: int
    body: _List = field(default_factory=_List)
    phase: str = ""
    node: Command | None = None
    name: str = ""  # func: the function's name
    patterns: list[Word] = field(default_factory=list)  # case: the arm being read


# --- parser -----------------------------------------------------------------------------------


class _Parser:
    def __init__(self, scanner: Scanner, tokens: list[Token]) -> None:
        self.scanner, self.tokens = scanner, tokens
        self.stack = [_Frame("top", 1)]
        self.deep = False

    def problem(self, offset: int, what: str) -> None:
        self.scanner.problem(offset, what)

    def run(self) -> Seq:
        index = 0
        while index < len(self.tokens):
            index = self._token(index)
        while len(self.stack) > 1:
            frame = self.stack.pop()
            self.scanner.problems.append((frame.line, f"{_opener(frame)} is never closed"))
        return self.stack[0].body.finish()

    def _token(self, index: int) -> int:
        token, top = self.tokens[index], self.stack[-1]
        if top.kind == "case" and top.phase != "body":
            self._case_header(token, top)
        elif top.kind == "for" and top.phase in ("name", "items", "do"):
            self._for_header(token, top)
        elif top.kind == "func" and top.phase == "name":
            return self._function_name(index, top)
        elif token.kind == "heredoc":
            self._heredoc(token, top.body)
        elif token.kind == "redirect":
            self._redirect(token, top.body)
        elif token.kind == "out" or token.kind == "in" or token.kind == "string":
            self._stream(token.kind, token, top.body)
        elif token.kind == "fd":
            self._fd(token, top.body)
        elif token.kind == "op":
            return self._operator(index, top)
        else:
            self._word(token, top)
        return index + 1

    # words and keywords

    def _word(self, token: Token, top: _Frame) -> None:
        body = top.body
        if body.in_command_position() and self._keyword(token, top):
            return
        if body.closed:
            self.problem(token.offset, f"unexpected word {token.text[:40]!r} after a command")
            body.separate(False)
        word = self._make_word(token)
        if body.simple is None:
            body.simple = Simple(word.line)
        simple = body.simple
        if not simple.words and ASSIGNMENT.match(word.raw):
            simple.assigns.append(word)
        else:
            simple.words.append(word)
        body.pending = False

    def _keyword(self, token: Token, top: _Frame) -> bool:
        text, line = token.text, self.scanner.lines.at(token.offset)
        if text in _OPENERS:
            kind, phase = _OPENERS[text]
            frame = _Frame(kind, line, phase=phase, node=_new_node(text, line))
            self._push(frame, token.offset)
            return True
        if text == "!" and not top.body.cmds:
            top.body.negated = not top.body.negated
            return True
        if text in ("then", "elif", "else", "fi", "do", "done", "esac", "}"):
            self._closer(text, token.offset, top)
            return True
        return False

    def _push(self, frame: _Frame, offset: int) -> None:
        self.stack.append(frame)
        if len(self.stack) > MAX_DEPTH and not self.deep:
            self.deep = True
            self.problem(offset, f"commands nested deeper than {MAX_DEPTH} levels")

    def _closer(self, text: str, offset: int, top: _Frame) -> None:
        node = top.node
        if isinstance(node, If) and self._if_keyword(text, top, node):
            return
        if isinstance(node, Loop) and self._loop_keyword(text, top, node):
            return
        if isinstance(node, Case) and text == "esac" and top.phase == "body":
            self._case_arm(top, node, ";;")
            self._complete(node)
            return
        if top.kind == "group" and text == "}":
            self._complete(Group(top.line, top.body.finish(), subshell=False))
            return
        self.problem(offset, f"unexpected {text}")

    def _if_keyword(self, text: str, top: _Frame, node: If) -> bool:
        if text == "then" and top.phase == "cond":
            top.node, top.phase = node, "then"
            node.arms.append((top.body.finish(), Seq()))
        elif text in ("elif", "else", "fi") and top.phase == "then":
            node.arms[-1] = (node.arms[-1][0], top.body.finish())
            top.phase = {"elif": "cond", "else": "else"}.get(text, "")
        elif text == "fi" and top.phase == "else":
            node.orelse = top.body.finish()
        else:
            return False
        top.body = _List()
        if text == "fi":
            self._complete(node)
        return True

    def _loop_keyword(self, text: str, top: _Frame, node: Loop) -> bool:
        if text == "do" and top.phase == "cond":
            node.cond, top.phase, top.body = top.body.finish(), "body", _List()
        elif text == "done" and top.phase == "body":
            node.body = top.body.finish()
            self._complete(node)
        else:
            return False
        return True

    def _complete(self, node: Command) -> None:
        """Close the top frame; its node becomes a command of the frame below."""
        self.stack.pop()
        while self.stack[-1].kind == "func" and self.stack[-1].phase == "body":
            frame = self.stack.pop()
            node = Func(frame.line, frame.name, node)
        self.stack[-1].body.add_command(node)

    # operators

    def _operator(self, index: int, top: _Frame) -> int:
        token, body = self.tokens[index], top.body
        op = token.text
        if op == "\n" and (body.pending or top.kind == "func"):
            return index + 1
        if op in _SEPARATORS:
            body.separate(op == "&")
        elif op in ("&&", "||"):
            body.connect(op)
        elif op in ("|", "|&"):
            body.pipe()
        elif op == "(":
            return self._open_paren(index, top)
        elif op == ")" and top.kind == "subshell":
            self._complete(Group(top.line, top.body.finish(), subshell=True))
        elif op in (";;", ";&", ";;&") and isinstance(top.node, Case) and top.phase == "body":
            self._case_arm(top, top.node, op)
            top.phase = "pattern"
        else:
            self.problem(token.offset, f"unexpected {op!r}")
        return index + 1

    def _open_paren(self, index: int, top: _Frame) -> int:
        body, token = top.body, self.tokens[index]
        simple = body.simple
        nxt = self.tokens[index + 1] if index + 1 < len(self.tokens) else None
        if simple is not None and _is_function_header(simple, nxt):  # NAME () compound-command
            body.simple = None
            frame = _Frame("func", simple.line, phase="body", name=simple.words[0].raw)
            self._push(frame, token.offset)
            return index + 2
        if body.in_command_position():
            self._push(_Frame("subshell", self.scanner.lines.at(token.offset)), token.offset)
        else:
            self.problem(token.offset, "unexpected '('")
        return index + 1

    # heredocs, function names

    def _heredoc(self, token: Token, body: _List) -> None:
        if body.simple is None and body.closed:
            return  # `done <<EOF`: data for a compound command, which no check reads
        if body.simple is None:
            body.simple = Simple(self.scanner.lines.at(token.offset))
        body.simple.heredocs.append(int(token.text))

    def _redirect(self, token: Token, body: _List) -> None:
        """A redirection target that runs commands when expanded: part of its simple command;
        on a compound command (`done < <(cmd)`) it is expanded before the compound runs, so
        it becomes a command of its own, grouped just ahead of the compound."""
        word = self._make_word(token)
        self._attach(body, word.line, lambda simple: simple.redirects.append(word))

    def _stream(self, kind: Target, token: Token, body: _List) -> None:
        """A file a redirection writes or reads, or a here-string: kept with its simple command
        (on a compound command, `done > f`, with a command of its own just ahead of it)."""
        word = self._make_word(token)
        self._attach(body, word.line, lambda simple: simple.streams.append((kind, word)))

    def _fd(self, token: Token, body: _List) -> None:
        """`{NAME}>F`: bash sets NAME to the descriptor it opens (as `_stream` keeps it)."""
        line = self.scanner.lines.at(token.offset)
        self._attach(body, line, lambda simple: simple.fds.append(token.text))

    def _attach(self, body: _List, line: int, add: Callable[[Simple], None]) -> None:
        """A redirection's part, added to its simple command; on a compound command, to a
        command of its own grouped just ahead of the compound."""
        if body.simple is not None or not body.closed or not body.cmds:
            if body.simple is None:
                body.simple = Simple(line)
            add(body.simple)
            return
        compound = body.cmds[-1]
        ahead = Simple(line)
        add(ahead)
        body.cmds[-1] = Group(
            _line_of(compound),
            Seq([AndOr(Pipeline(line, [ahead])), AndOr(Pipeline(compound.line, [compound]))]),
            subshell=False,
        )

    def _function_name(self, index: int, top: _Frame) -> int:
        token = self.tokens[index]
        if token.kind != "word":
            self.problem(token.offset, "function keyword without a name")
            self.stack.pop()
            return index + 1
        top.name, top.phase = token.text, "body"
        nxt = self.tokens[index + 1 : index + 3]
        if [t.text for t in nxt] == ["(", ")"] and all(t.kind == "op" for t in nxt):
            return index + 3
        return index + 1

    # for / select headers

    def _for_header(self, token: Token, top: _Frame) -> None:
        node = top.node
        assert isinstance(node, Loop)
        if top.phase == "name":
            self._for_name(token, top, node)
        elif top.phase == "items":
            if token.kind == "word":
                assert node.items is not None
                node.items.append(self._make_word(token))
            elif token.text in (";", "\n"):
                top.phase = "do"
        elif token.kind == "word" and token.text == "do":
            top.phase = "body"
        elif token.kind == "word" and token.text == "in" and node.items is None:
            node.items, top.phase = [], "items"
        elif token.text not in (";", "\n"):
            self.problem(token.offset, f"expected do, found {token.text[:40]!r}")

    def _for_name(self, token: Token, top: _Frame, node: Loop) -> None:
        if token.kind != "word":
            self.problem(token.offset, "for without a variable name")
            top.phase = "do"
        elif token.text.startswith("(("):
            node.kind, node.name, top.phase = "arith-for", token.text, "do"
        else:
            node.name, top.phase = token.text, "do"

    # case

    def _case_header(self, token: Token, top: _Frame) -> None:
        node = top.node
        assert isinstance(node, Case)
        if top.phase == "subject" and token.kind == "word":
            node.subject, top.phase = self._make_word(token), "in"
        elif top.phase == "in" and token.kind == "word" and token.text == "in":
            top.phase, top.patterns = "pattern", []
        elif top.phase == "pattern":
            self._case_pattern(token, top, node)
        elif token.text != "\n":
            self.problem(token.offset, f"unexpected {token.text[:40]!r} in case")

    def _case_pattern(self, token: Token, top: _Frame, node: Case) -> None:
        patterns = top.patterns
        if token.kind == "word" and token.text == "esac" and not patterns:
            self._complete(node)
        elif token.kind == "word":
            patterns.append(self._make_word(token))
        elif token.text == ")" and patterns:
            top.phase, top.body = "body", _List()
        elif token.text not in ("\n", ";", "|", "("):
            self.problem(token.offset, f"unexpected {token.text!r} in a case pattern")

    def _case_arm(self, top: _Frame, node: Case, terminator: str) -> None:
        node.arms.append(CaseArm(list(top.patterns), top.body.finish(), terminator))
        top.patterns, top.body = [], _List()

    # words

    def _make_word(self, token: Token) -> Word:
        word = Word(token.text, token.offset, self.scanner.lines.at(token.offset))
        match = ASSIGNMENT.match(token.text)
        if match and token.text.startswith("(", match.end()) and token.text.endswith(")"):
            start = token.offset + match.end() + 1
            inner = self.scanner.tokens(start, token.offset + len(token.text) - 1)
            word.items = [self._make_word(t) for t in inner if t.kind == "word"]
        return word


_OPENERS = {
    "if": ("if", "cond"),
    "while": ("loop", "cond"),
    "until": ("loop", "cond"),
    "for": ("for", "name"),
    "select": ("for", "name"),
    "case": ("case", "subject"),
    "{": ("group", ""),
    "function": ("func", "name"),
}


def _new_node(keyword: str, line: int) -> Command | None:
    if keyword == "if":
        return If(line)
    if keyword == "case":
        return Case(line)
    if keyword in ("while", "until", "for", "select"):
        return Loop(line, keyword)
    return None


def _is_function_header(simple: Simple, nxt: Token | None) -> bool:
    return (
        len(simple.words) == 1
        and not simple.assigns
        and nxt is not None
        and nxt.kind == "op"
        and nxt.text == ")"
    )


def _opener(frame: _Frame) -> str:
    names = {"if": "if", "loop": "loop", "for": "for", "case": "case", "group": "{"}
    return f"{names.get(frame.kind, frame.kind)} (line {frame.line})"


def parse(text: str) -> Parsed:
    """Read a whole script; never raises on untrusted text (see `problems`)."""
    scanner = Scanner(text)
    script = _Parser(scanner, scanner.tokens(0, len(text))).run()
    substitutions: dict[int, Seq] = {}
    budget = SUBSTITUTION_BUDGET_FACTOR * len(text) + 10_000
    done = 0
    while done < len(scanner.substitutions):  # found while scanning, nested ones included
        start, stop = scanner.substitutions[done]
        done += 1
        budget -= stop - start
        if budget < 0:
            scanner.problem(start, "command substitutions nested too deeply")
            break
        if start not in substitutions:
            substitutions[start] = _Parser(scanner, scanner.tokens(start, stop)).run()
    return Parsed(script, substitutions, scanner.heredocs, scanner.problems, text)


def parse_text(text: str) -> tuple[Seq, dict[int, Seq], list[tuple[int, str]]]:
    """A string run as code (`eval`, `bash -c`, `trap`): its tree, substitutions and problems."""
    parsed = parse(text)
    return parsed.script, parsed.substitutions, parsed.problems
