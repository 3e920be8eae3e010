"""The builtins the reader follows: `export`/`local`/`declare`, `unset`, `shift`, `set`,
`source`, `eval`, `bash -c` and a heredoc fed to a shell, `trap`, `read`, `alias`, `exit`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from signoff.parse.shell.conditionals import Tri, single_bracket
from signoff.parse.shell.expand import Expander
from signoff.parse.shell.fields import Field
from signoff.parse.shell.flow import Outcome
from signoff.parse.shell.reader import _DECLARERS, shown_word
from signoff.parse.shell.scan import ASSIGNMENT, NAME
from signoff.parse.shell.script_files import (
    INTERPRETERS,
    STDIN,
    basename,
    command_string_at,
    script_file_word,
)
from signoff.parse.shell.syntax import Simple, Word
from signoff.parse.shell.values import (
    FROM_ENVIRONMENT,
    Array,
    Scope,
    Text,
    unknown,
)

if TYPE_CHECKING:
    from signoff.parse.shell.simple import SimpleCommands


# --- builtins ------------------------------------------------------------------------------------

Builtin = Callable[["SimpleCommands", list[Field], Simple, Scope, Expander], tuple[Scope, Outcome]]


def _status(value: bool | None) -> Builtin:
    return lambda runner, argv, node, scope, exp: (scope, Outcome(value))


def _test(
    runner: SimpleCommands, argv: list[Field], node: Simple, scope: Scope, exp: Expander
) -> tuple[Scope, Outcome]:
    args = argv[1:]
    if argv[0].text == "[":
        if not args or args[-1].text != "]":
            return scope, Outcome(None)
        args = args[:-1]
    return scope, Outcome(single_bracket(args, _is_set(runner, scope)))


def _exit_like(
    runner: SimpleCommands, argv: list[Field], node: Simple, scope: Scope, exp: Expander
) -> tuple[Scope, Outcome]:
    name, line = argv[0].text, runner.at(node.line)
    code = _code(argv[1]) if len(argv) > 1 else None
    status = None if code is None else code == 0
    if name == "exit":
        failing = code is not None and code != 0
        return scope, Outcome(status, "fail" if failing else "exit", f"exit at line {line}")
    if name == "return" and not runner.library and not _in_function(runner):
        # outside a function and a sourced file, bash says "can only `return' from a
        # function or sourced script", fails the command and goes on with the next
        return scope, Outcome(False)
    return scope, Outcome(status if name == "return" else None, name, f"{name} at line {line}")


def _in_function(runner: SimpleCommands) -> bool:
    """Whether a function or a sourced file is running (both are a "function" frame)."""
    return any(frame.kind == "function" for frame in runner.frames)


def _declare(
    runner: SimpleCommands, argv: list[Field], node: Simple, scope: Scope, exp: Expander
) -> tuple[Scope, Outcome]:
    head = argv[0].text
    exporting, local = (
        head == "export",
        head == "local" or (head in ("declare", "typeset") and bool(scope.locals)),
    )
    functions = integer = False
    for word in node.words[1:]:
        if word.raw.startswith(("-", "+")):
            exporting |= "x" in word.raw and word.raw.startswith("-")
            functions |= "f" in word.raw and word.raw.startswith("-")
            local &= "g" not in word.raw
            if "n" in word.raw.lstrip("-+"):
                runner.problem(node.line, "name references (declare -n) are not followed")
            if "A" in word.raw.lstrip("-+"):
                _declare_assoc(node.words[1:], scope)
            integer |= "i" in word.raw and word.raw.startswith("-")
            continue
        if integer:  # arithmetic reads what it is given (shell.evaluated)
            named = ASSIGNMENT.match(word.raw) or NAME.fullmatch(word.raw)
            if named is not None:
                runner.integers.add(named.group(1) if named.groups() else named.group(0))
        if functions:  # `export -f NAME`: a shell the script starts may call it
            if exporting:
                for field in exp.fields(word.raw, word.offset, word.line):
                    scope = runner.call_exported(field.text, scope, node.line)
            continue
        name = runner.assign_word(word, exp, scope, local=local)
        if not name:
            for field in exp.fields(word.raw, word.offset, word.line):
                if field.known and NAME.fullmatch(field.text):
                    name = field.text
                    if local:
                        scope.declare_local(name)
                        scope.put(name, None)
                elif "=" in field.text:  # `declare "$x=v"`: the word, once expanded, assigns
                    name = _expanded_assignment(runner, field, scope, local, node.line)
        if exporting and name:
            scope.exported.add(name)
    return scope, Outcome()


def _expanded_assignment(
    runner: SimpleCommands, field: Field, scope: Scope, local: bool, line: int
) -> str:
    """`declare "$x=v"` assigns the name `$x` holds; one known only at run time may be any
    variable (the reading is incomplete)."""
    known = field.text if field.known else field.prefix
    name, equals, _ = known.partition("=")
    if not equals or not NAME.fullmatch(name):
        runner.problem(line, f"{field.text.split('=', 1)[0]}: a variable named only at run time "
                       "is assigned")  # fmt: skip
        return ""
    rest = field.text[len(name) + 1 :]
    value = Text(rest) if field.known else unknown(rest, prefix=known[len(name) + 1 :])
    if local:
        scope.declare_local(name)
    scope.put(name, value)
    return name


def _declare_assoc(words: list[Word], scope: Scope) -> None:
    for word in words:
        match = ASSIGNMENT.match(word.raw) or NAME.fullmatch(word.raw)
        if match is not None and not word.raw.startswith("-"):
            name = match.group(1) if match.groups() else match.group(0)
            current = scope.options(name)[0].value
            if not isinstance(current, Array):
                scope.put(name, Array(assoc=True))


def _unset(
    runner: SimpleCommands, argv: list[Field], node: Simple, scope: Scope, exp: Expander
) -> tuple[Scope, Outcome]:
    functions = any(field.text == "-f" for field in argv[1:])
    for field in argv[1:]:
        if field.known and NAME.fullmatch(field.text):
            if functions:
                scope.define(field.text, ())
            else:
                scope.put(field.text, None)
    return scope, Outcome()


def _shift(
    runner: SimpleCommands, argv: list[Field], node: Simple, scope: Scope, exp: Expander
) -> tuple[Scope, Outcome]:
    count = _code(argv[1]) if len(argv) > 1 else 1
    if scope.positional is not None:
        scope.positional = scope.positional[count:] if count is not None else None
    return scope, Outcome()


def _set(
    runner: SimpleCommands, argv: list[Field], node: Simple, scope: Scope, exp: Expander
) -> tuple[Scope, Outcome]:
    args = argv[1:]
    if args and args[0].text == "--":
        args = args[1:]
    elif not args or args[0].text.startswith(("-", "+")):
        return scope, Outcome()
    if all(field.known for field in args):
        scope.positional = tuple(Text(field.text) for field in args)
    else:
        scope.positional = None
    return scope, Outcome()


def _source(
    runner: SimpleCommands, argv: list[Field], node: Simple, scope: Scope, exp: Expander
) -> tuple[Scope, Outcome]:
    target = argv[1] if len(argv) > 1 else None
    changed = runner.source_changed(target, node.line, scope) if target is not None else None
    if changed is not None:
        return changed
    name = basename(target.text) if target is not None else ""
    functions = runner.hook.library_functions(name) if target is not None else None
    if functions is not None:
        for client in functions:  # the library (re)defines the benchmark client
            scope.define(client, ())
        return scope, Outcome(None)
    shown = shown_word(target.text) if target is not None else "(nothing)"
    runner.problem(node.line, f"sources {shown}, which is not read")
    return scope, Outcome(None)


def _eval(
    runner: SimpleCommands, argv: list[Field], node: Simple, scope: Scope, exp: Expander
) -> tuple[Scope, Outcome]:
    if not all(field.known for field in argv[1:]):
        runner.problem(node.line, "eval of text known only at run time")
        return scope, Outcome(None)
    return runner.run_text(" ".join(f.text for f in argv[1:]), scope, node.line, subshell=False)


# A shell's options naming a file it runs before its own commands (when interactive).
_STARTUP_OPTIONS = frozenset({"--rcfile", "--init-file"})


def _shell(
    runner: SimpleCommands, argv: list[Field], node: Simple, scope: Scope, exp: Expander
) -> tuple[Scope, Outcome]:
    texts = [field.text for field in argv]
    for i, text in enumerate(texts[1:-1], start=1):  # `bash --rcfile F -i`: F runs first
        if text in _STARTUP_OPTIONS and argv[i].known:
            reads = f"{texts[0]} {text} runs"
            runner.file_read_later(argv[i + 1], node.line, scope, " ".join(texts)[:200], reads)
    at = command_string_at(argv)
    if not at:
        heredoc = _heredoc_script(runner, argv, node)
        if heredoc is not None:  # `bash <<'EOF'`: the heredoc is the script it runs
            first, script = heredoc
            return runner.run_text(script, scope, node.line, subshell=True, first_line=first)
        runner.written_program(argv, node, scope, exp, {})  # `bash /tmp/r.sh` it wrote
        runner.hook.external(runner, argv, {}, scope)
        return scope, Outcome(None)
    code = argv[at]
    if not code.known:
        runner.problem(node.line, f"{texts[0]} -c of text known only at run time")
        if runner.partial_strings and code.parts:
            return runner.run_partial_text(code, scope, node.line)
        return scope, Outcome(None)
    return runner.run_text(code.text, scope, node.line, subshell=True)


def _heredoc_script(
    runner: SimpleCommands, argv: list[Field], node: Simple
) -> tuple[int, str] | None:
    """The text of the heredoc a shell reads as its script (its standard input), when known:
    a quoted delimiter or a body with nothing to expand; an expanding body makes the reading
    incomplete (it would be expanded once here and read again by the shell)."""
    word = script_file_word(argv)
    if word is None or word.known or word.text != STDIN or not node.heredocs:
        return None
    doc = runner.sources[-1].heredocs[node.heredocs[-1]]
    if doc.quoted or not any(mark in doc.body for mark in ("$", "`", "\\")):
        return doc.line + 1, doc.body  # the body starts on the line after the command's
    runner.problem(node.line, f"{argv[0].text} runs an expanding heredoc as its script")
    return 0, ""


def _trap(
    runner: SimpleCommands, argv: list[Field], node: Simple, scope: Scope, exp: Expander
) -> tuple[Scope, Outcome]:
    if len(argv) < 3 or argv[1].text.startswith("-"):
        return scope, Outcome(True)
    handler = argv[1]
    if not handler.known:
        runner.problem(node.line, "a trap handler known only at run time")
        return scope, Outcome(True)
    why = f"trap handler set at line {runner.at(node.line)}"
    return runner.fork_one(
        scope, lambda s: runner.run_text(handler.text, s, node.line, subshell=True), why
    )


def _repoint(
    runner: SimpleCommands, argv: list[Field], node: Simple, scope: Scope, exp: Expander
) -> tuple[Scope, Outcome]:
    """`hash -p FILE NAME` (NAME now runs FILE) and `enable -f FILE NAME` (a builtin loaded
    from FILE, whose code runs as it loads): the file is what runs."""
    option = "-p" if argv[0].text == "hash" else "-f"
    texts = [field.text for field in argv]
    if argv[0].text == "enable" and "-n" in texts[1:]:  # the builtin off: PATH finds NAME
        for field in argv[texts.index("-n", 1) + 1 :]:
            runner.runs_file(field, node.line, scope, " ".join(texts)[:200])
    if option in texts[1:] and texts.index(option, 1) + 1 < len(argv):
        target = argv[texts.index(option, 1) + 1]
        makes = f"{argv[0].text} {option} makes a command run"  # the file, written or not
        runner.file_read_later(target, node.line, scope, " ".join(texts)[:200], makes)
    return scope, Outcome(None)


def _alias(
    runner: SimpleCommands, argv: list[Field], node: Simple, scope: Scope, exp: Expander
) -> tuple[Scope, Outcome]:
    if len(argv) > 1:
        runner.problem(node.line, "alias definitions are not read")
    return scope, Outcome(True)


BUILTINS: dict[str, Builtin] = {
    "true": _status(True), ":": _status(True), "false": _status(False),
    "[": _test, "test": _test,
    "exit": _exit_like, "return": _exit_like, "break": _exit_like, "continue": _exit_like,
    **{name: _declare for name in _DECLARERS},
    "unset": _unset, "shift": _shift, "set": _set,
    "source": _source, ".": _source, "eval": _eval,
    **{name: _shell for name in INTERPRETERS}, "trap": _trap,
    "alias": _alias,
    "hash": _repoint, "enable": _repoint,
}  # fmt: skip


def _is_set(runner: SimpleCommands, scope: Scope) -> Callable[[str], Tri]:
    """`-v NAME`: whether NAME is set (a test that, like `${X+word}`, expects it may not be)."""

    def is_set(name: str) -> Tri:
        options = scope.options(name)
        if any(o.value is FROM_ENVIRONMENT for o in options):
            return None
        states = {o.value is not None for o in options}
        if name in runner.unset_hooks:
            runner.read_hook(name, options, guarded=True, decided=len(states) == 1)
        return states.pop() if len(states) == 1 else None

    return is_set


def _code(field: Field) -> int | None:
    text = field.text.strip()
    return int(text) if field.known and text.lstrip("-").isdigit() else None
