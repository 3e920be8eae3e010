"""Read a benchmark shell script (never run it): server launches, client calls, flags and variables.

Commands come from the scanner in shell_scan.py. (bashlex was dropped: it rejects `[[ ]]`,
`$(( ))`, arrays and `case`, rebuilds its parser tables on every import, and ran without bound
on some hostile inputs.) One interpreter walks the commands in source order: simple assignments
are tracked and expanded (`$X`, `${X}`, `${X:-default}`); unquoted expansions are split like
shell words (shlex), quoted ones stay one argument, so JSON values survive intact. Variables
assigned in several branches of one `if`/`case` keep the first branch's value for expansion and
list every value in `alternatives`.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict

from signoff.parse.launch import Arg, ClientCall, Engine, ServerLaunch
from signoff.parse.shell_scan import (
    ASSIGNMENT,
    NAME,
    Branch,
    Command,
    Heredoc,
    ScannedScript,
    Word,
    scan_commands,
)

_SPECIAL_PARAMS = frozenset("@*#?$!-0123456789")
_PARAM_OPS = (":-", ":=", ":+", ":?", "-", "=", "+", "?")
_DECLARERS = frozenset({"export", "local", "declare", "typeset", "readonly"})
_WRAPPERS = frozenset({"nohup", "exec", "time", "setsid", "env", "stdbuf", "numactl", "taskset"})
_NOT_RUNNING = frozenset(
    {"echo", "printf", "grep", "egrep", "sed", "awk", "cat", "pgrep", "pkill", "kill", "which",
     "command", "type", "test", "[", "[["}
)  # fmt: skip
_PYTHON = re.compile(r"^python(?:3(?:\.\d+)?)?$")
_PY_OPTS_WITH_ARG = frozenset({"-X", "-W", "-Q"})
_MODEL_FLAGS = ("--model", "--model-path", "--model_path")


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ScriptFacts(Frozen):
    path: str
    launches: tuple[ServerLaunch, ...]
    clients: tuple[ClientCall, ...]
    variables: dict[str, str]  # final value of every assigned variable (first branch wins)
    alternatives: dict[str, tuple[str, ...]]  # variables with several candidate values, all listed
    unresolved: tuple[str, ...]  # names referenced but never assigned (the runner's environment)
    flags_anywhere: tuple[Arg, ...]  # every --flag in any command or assigned value, by line
    heredocs: tuple[Heredoc, ...]
    problems: tuple[str, ...]
    complete: bool = True  # False: the script could not be read reliably (checks fail closed)


def parse_script(
    text: str, path: str, client_commands: Sequence[str] = ("run_benchmark_serving",)
) -> ScriptFacts:
    """Everything a check needs from one script; never raises (oddities become `problems`)."""
    try:
        raw = scan_commands(text)
        raw.commands.sort(key=lambda command: command.line)
        return _interpret(raw, path, tuple(client_commands))
    except Exception as exc:  # a reader bug must not crash a check: report it, fail closed
        return _empty(path, f"{path}:1: script could not be read ({type(exc).__name__})")


def _empty(path: str, problem: str) -> ScriptFacts:
    return ScriptFacts(
        path=path, launches=(), clients=(), variables={}, alternatives={},
        unresolved=(), flags_anywhere=(), heredocs=(), problems=(problem,), complete=False,
    )  # fmt: skip


def find_args(facts: ScriptFacts, flags: Sequence[str]) -> tuple[Arg, ...]:
    """Every occurrence of any of `flags` (exact spelling) in the script, sorted by line."""
    wanted = set(flags)
    return tuple(arg for arg in facts.flags_anywhere if arg.flag in wanted)


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
    match = NAME.match(raw, i + 1)
    if match is None:
        special = raw[i + 1 : i + 2]
        consumed = 2 if special in _SPECIAL_PARAMS and special else 1
        return raw[i : i + consumed], i + consumed, False
    return _lookup(match.group(0), raw[i : match.end()], state), match.end(), True


def _braced(whole: str, inner: str, state: _State) -> str:
    match = NAME.match(inner)
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


def _interpret(raw: ScannedScript, path: str, clients: tuple[str, ...]) -> ScriptFacts:
    state, facts = _State(), _Facts()
    for command in raw.commands:
        _run(command, state, facts, clients)
    unresolved = sorted(state.referenced - state.assigned - set(state.values))
    flags = sorted(dict.fromkeys(facts.flags), key=lambda arg: (arg.line, arg.flag))
    return ScriptFacts(
        path=path,
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
        # Any tokenizing problem (an unterminated quote, heredoc or `((`) may hide the rest of
        # the script from the checks, so the facts are incomplete and the checks fail closed.
        complete=raw.complete and not raw.problems,
    )


def _run(command: Command, state: _State, facts: _Facts, clients: tuple[str, ...]) -> None:
    count = next((n for n, w in enumerate(command.words) if not ASSIGNMENT.match(w.raw)), None)
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
        state.assigned.update(word.text for word in argv[1:] if NAME.fullmatch(word.text))
    elif head in clients:
        facts.clients.append(
            ClientCall(command=head, args=tuple(_parse_args(argv[1:])), line=argv[0].line)
        )
    else:
        launch = _launch(argv, {**_exported(state), **prefix})
        if launch is not None:
            facts.launches.append(launch)


def _assignment(word: Word, state: _State) -> tuple[str, str, str]:
    """(name, new value, the text this word contributed) for `NAME=value` or `NAME+=value`."""
    match = ASSIGNMENT.match(word.raw)
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


def _declare(head: str, words: list[Word], branch: Branch, state: _State, facts: _Facts) -> None:
    exporting = head == "export"
    for word in words:
        if word.raw.startswith("-"):
            exporting = exporting or "x" in word.raw
            continue
        name = word.raw
        if ASSIGNMENT.match(word.raw):
            name, value, added = _assignment(word, state)
            facts.flags.extend(_value_flags(added, word.line))
            _assign(name, value, branch, state)
        if exporting and NAME.fullmatch(name):
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
    if nxt == "-m" and _unresolved_interpreter(argv[i].text):
        # `"$SGLANG_PYTHON" -m sglang.launch_server` with SGLANG_PYTHON="$(command -v python3)"
        return _python_module(argv, i, "python")
    return None


def _unresolved_interpreter(word: str) -> bool:
    """An interpreter the script computes at run time: `$PY`, `${PY}`, `$(command -v python3)`."""
    return word.startswith("$") or "python" in word


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
            match = ASSIGNMENT.match(word.text)
            if match:
                env[match.group(1)] = word.text[match.end() :]
    return env


def _basename(word: str) -> str:
    return word.rsplit("/", 1)[-1]
