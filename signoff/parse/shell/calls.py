"""Functions, command substitutions and code read from strings: calls with their frames,
`$( )` read for its output, `eval`/`bash -c`/trap text, and `source` of a changed file."""

from __future__ import annotations

from signoff.parse.shell.expand import Expander
from signoff.parse.shell.fields import Field
from signoff.parse.shell.flow import MAX_EVAL_DEPTH, Outcome, Path
from signoff.parse.shell.printf import Parts
from signoff.parse.shell.reader import (
    MAX_CALL_DEPTH,
    MAX_TEXT_CHARS,
    ReaderState,
    _Hooks,
    lone_simple,
    shown_word,
    static_output,
)
from signoff.parse.shell.records import (
    SCRIPT_FILES,
    ScriptFileRun,
    reach_of,
)
from signoff.parse.shell.script_files import known_name
from signoff.parse.shell.sources import MAX_SOURCE_DEPTH
from signoff.parse.shell.syntax import Command, Group, Seq, parse
from signoff.parse.shell.values import (
    Frame,
    FunctionDef,
    Held,
    Option,
    Scope,
    Text,
    names_assigned_in,
    rejoin,
    unknown,
)

# The variable a run-time piece of a string read in part stands as (numbered per piece); a name
# no script writes, so nothing in the string can set or read it by name.
_PIECE = "__signoff_run_time_piece_"


class Calls(ReaderState):
    """Functions, command substitutions and code read from strings (`eval`, `bash -c`, `source`)."""

    def call_function(
        self, name: str, argv: list[Field], scope: Scope, line: int
    ) -> tuple[Scope, Outcome]:
        if self.calls >= MAX_CALL_DEPTH:
            self.problem(line, f"function calls nested deeper than {MAX_CALL_DEPTH}")
            return scope, Outcome(None)
        definitions = scope.function(name)
        args = tuple(f.as_text() for f in argv[1:])
        frame = (name, tuple((a.text, a.known) for a in args))
        if frame in self.call_stack:  # the same call again: it can only do what it does
            self.note(f"recursive call {name} at line {self.at(line)} repeats an outer call")
            return scope, Outcome(None)
        self.call_stack.append(frame)
        try:
            if len(definitions) == 1 and not definitions[0].why:
                return self._call(definitions[0], args, scope)
            paths: list[Path] = []
            for definition in definitions:
                branch = scope.copy()
                branch.reach = branch.why() or definition.why
                paths.append((*self._call(definition, args, branch), definition.why))
            paths.append((scope, Outcome(None), f"{name} may not be defined at line {line}"))
            return self.merge(scope, paths)
        finally:
            self.call_stack.pop()

    def _call(
        self, definition: FunctionDef, args: tuple[Text, ...], scope: Scope
    ) -> tuple[Scope, Outcome]:
        saved, soft = scope.positional, scope.soft
        scope.positional = args
        scope, outcome = self._run_body(definition, scope)
        scope.positional, scope.soft = saved, soft  # an early `return` ends with the function
        if outcome.ctl == "return":
            outcome = Outcome(outcome.status)
        return scope, outcome

    def call_unknown(self, definition: FunctionDef, scope: Scope) -> tuple[Scope, Outcome]:
        """Run a function body with its arguments unknown (a caller the reader does not see)."""
        saved = scope.positional
        scope.positional = None
        scope, outcome = self._run_body(definition, scope)
        scope.positional = saved
        return scope, Outcome(outcome.status) if outcome.ctl == "return" else outcome

    def _run_body(self, definition: FunctionDef, scope: Scope) -> tuple[Scope, Outcome]:
        """A function body in a frame of its own: its locals, its source file, its lines."""
        scope.locals.append({})
        self.calls += 1
        self.sources.append(definition.source or self.sources[-1])
        self.line_base.append(definition.line_base)
        self.frames.append(self.frame("function", definition.body))
        try:
            scope, outcome = self.command(definition.body, scope)
        finally:
            self.calls -= 1
            self.sources.pop()
            self.line_base.pop()
            held = self.frames.pop().held
        scope, outcome = self.release(scope, outcome, held)
        scope.end_function()
        return scope, outcome

    def frame(self, kind: str, code: Command | Seq | None) -> Frame:
        """A frame for `code`: what it may assign is what a path held there keeps."""
        if code is None or kind == "subshell":
            return Frame(kind, [], frozenset())
        if code.assigned is None:  # kept on the node: every reading of the script shares it
            wrapped = code if not isinstance(code, Seq) else Group(0, code, False)
            code.assigned = names_assigned_in(wrapped)
        return Frame(kind, [], code.assigned)

    def frame_for(self, ctl: str) -> Frame | None:
        """Where a path that left by `ctl` is held: its function (or sourced file), its loop
        (a `break` in a function called inside a loop is not followed there), or the subshell
        it ends; None: nothing ends it here (it stays in the merge, read as before)."""
        if ctl not in ("return", "break"):
            return None
        for frame in reversed(self.frames):
            if frame.kind == "subshell" or (ctl == "return") == (frame.kind == "function"):
                return frame
            if ctl == "break":
                return None
        return None

    def release(self, scope: Scope, outcome: Outcome, held: list[Held]) -> tuple[Scope, Outcome]:
        """The end of a function or loop: the paths held there join again. When the path that
        reached the end stopped (`exit`, or a failing `exit 1`), the held paths alone go on."""
        if not held:
            return scope, outcome
        if outcome.ctl not in ("exit", "fail"):
            return rejoin(scope, held), outcome
        rejoin(scope, held, replace=True)
        if outcome.ctl == "exit":
            scope.reach = scope.reach or f"the path may have ended earlier ({outcome.where})"
        return scope, Outcome(None)

    def call_exported(self, name: str, scope: Scope, line: int) -> Scope:
        """`export -f NAME`: every shell the script starts from here may call it, so it runs
        once, undecided, with its arguments unknown (what it runs counts)."""
        why = f"{name} is exported at line {self.at(line)}: a shell the script starts may call it"
        return self._call_once_undecided(name, scope, line, why)

    def call_hook(self, name: str, scope: Scope, line: int) -> Scope:
        """A function bash calls by itself (`command_not_found_handle`, for any command not
        found on the machine): it runs once, undecided, with its arguments unknown."""
        why = f"{name} (line {self.at(line)}) runs for any command the machine does not have"
        return self._call_once_undecided(name, scope, line, why)

    def _call_once_undecided(self, name: str, scope: Scope, line: int, why: str) -> Scope:
        for definition in scope.function(name):
            if self.calls >= MAX_CALL_DEPTH:
                self.problem(line, f"function calls nested deeper than {MAX_CALL_DEPTH}")
                break
            branch = scope.copy()
            branch.reach = branch.why() or why
            self.call_unknown(definition, branch)
        return scope

    def runs_file(self, word: Field, line: int, scope: Scope, command: str) -> None:
        """Record that a name now runs the file `word` names (`hash -p`, `enable -f`,
        `BASH_ENV`): the checks hold it against a PASS when the PR may have written it."""
        reach, why = reach_of(scope)
        self.records.of(SCRIPT_FILES).append(ScriptFileRun(
            command=command, word=word.text, name=known_name(word), line=self.at(line),
            reach=reach, why=why,
        ))  # fmt: skip

    def substitution(
        self,
        offset: int,
        scope: Scope,
        inner: str = "",
        chosen: dict[str, Option] | None = None,
        why: str = "",
    ) -> str | Parts | None:
        """Run the commands of the `$( )` whose inside starts at `offset` (a subshell); what it
        prints when that is certain, wholly or in part (see `static_output`), else None.
        `why`: it may not run at all (what it runs is undecided, and its output unknown)."""
        seq = self.sources[-1].substitutions.get(offset)
        if seq is None:
            self.problem(self.line, "a command substitution could not be read")
            return None
        if why:
            scope = scope.copy()
            scope.reach = scope.why() or why
            self.command_in_subshell(seq, scope)
            return None
        self.command_in_subshell(seq, scope)
        simple = lone_simple(seq, offset, inner)
        if simple is None:
            return None
        exp = Expander(_Hooks(self, scope.copy(), dict(chosen or {})))
        argv = [f for word in simple.words for f in exp.fields(word.raw, word.offset, word.line)]
        return static_output(argv)

    def command_in_subshell(self, seq: Seq, scope: Scope) -> Outcome:
        if self.depth >= MAX_EVAL_DEPTH:
            self.problem(self.line, "command substitutions nested too deeply")
            return Outcome(None)
        self.depth += 1
        self.frames.append(self.frame("subshell", None))
        try:
            _, outcome = self.seq(seq, scope.copy())
        finally:
            self.depth -= 1
            self.frames.pop()
        return Outcome(False) if outcome.ctl == "fail" else Outcome(outcome.status)

    def run_text(
        self, text: str, scope: Scope, line: int, *, subshell: bool, first_line: int = 0
    ) -> tuple[Scope, Outcome]:
        """Code held in a string (`eval`, `bash -c`, `trap`): read it and run it here.
        `first_line`: the text is the script's own lines from there on (a heredoc), so what it
        runs keeps its own line numbers; otherwise it all reports `line`."""
        self.text_chars += len(text)
        if self.text_chars > MAX_TEXT_CHARS:
            self.problem(line, "more code in strings than the reader follows")
            return scope, Outcome(None)
        own_lines = bool(first_line) and not self.line_base[-1]
        code = "\n" * (first_line - 1) + text if own_lines else text
        parsed = self.parsed_texts.get(code)
        if parsed is None:  # a heredoc program run a thousand times is parsed once
            parsed = self.parsed_texts[code] = parse(code)
        for inner_line, what in parsed.problems[:1]:
            self.problem(
                line, f"code in a string could not be read (its line {inner_line}: {what})"
            )
        self.sources.append(parsed)
        self.line_base.append(0 if own_lines else self.at(line))
        try:
            if subshell:
                return scope, self.command_in_subshell(parsed.script, scope)
            return self.seq(parsed.script, scope)
        finally:
            self.sources.pop()
            self.line_base.pop()

    def run_partial_text(self, code: Field, scope: Scope, line: int) -> tuple[Scope, Outcome]:
        """`bash -c` of a text known only in part, read for what its known pieces show (only
        when the reading asked for it; the caller has already made the reading incomplete).
        Each run-time piece stands as one value known only at run time, shown as written,
        where bash would read it as code: so the records are what the text runs as far as
        its known pieces go. A piece inside single quotes, or a text with no known piece that
        could start a command, is not read."""
        inner = scope.copy()
        pieces: list[str] = []
        quoted, escaped = "", False  # what the known text leaves open where a piece starts
        for number, (text, known) in enumerate(code.parts):
            if known:
                quoted, escaped = _open_quote(text, quoted)
                pieces.append(text)
                continue
            if quoted == "'" or escaped:
                return scope, Outcome(None)  # bash would keep its first character literal
            name = f"{_PIECE}{number}"
            inner.put(name, unknown(text))
            pieces.append(f"${{{name}}}")
        if not any(known and text.strip() for text, known in code.parts):
            return scope, Outcome(None)
        _, outcome = self.run_text("".join(pieces), inner, line, subshell=True)
        return scope, outcome

    def source_changed(
        self, target: Field, line: int, scope: Scope
    ) -> tuple[Scope, Outcome] | None:
        """`source` of a file the PR adds or changes: its head text runs here, in this scope
        (what it defines and runs reports the `source` line); the reading names the file when
        it cannot be read completely. None: the word names no changed file."""
        if self.files is None:
            return None
        _, candidates = self.files.resolve(target, self.reading[-1])
        if not candidates:
            return None
        shown = shown_word(target.text)
        if len(candidates) > 1:
            named = ", ".join(candidates[:3]) + (" ..." if len(candidates) > 3 else "")
            self.problem(line, f"sources {shown}, which may be any of the files this PR "
                         f"changes {named}")  # fmt: skip
            return scope, Outcome(None)
        path = candidates[0]
        if path in self.reading or len(self.reading) > MAX_SOURCE_DEPTH:
            self.problem(line, f"sources {path} again inside itself or deeper than "
                         f"{MAX_SOURCE_DEPTH} files")  # fmt: skip
            return scope, Outcome(None)
        sourced = self.files.read(path)
        if sourced.tree is None:
            self.problem(line, f"sources {path}, which this PR changes, and it cannot be read "
                         f"completely ({sourced.reason})")  # fmt: skip
            return scope, Outcome(None)
        for inner, what in sourced.problems[:1]:
            self.problem(line, f"sources {path}, which this PR changes: its line {inner}: {what}")
        self.note(f"line {self.at(line)} reads {path} (this PR changes it) as the script runs it")
        self.sourced.setdefault((self.at(line), path), None)
        if not any(known is sourced.tree for known, _ in self.sourced_trees):
            self.sourced_trees.append((sourced.tree, path))
        self.sources.append(sourced.tree)
        self.line_base.append(self.at(line))
        self.reading.append(path)
        # a `return` there ends the sourced file
        self.frames.append(self.frame("function", sourced.tree.script))
        try:
            scope, outcome = self.seq(sourced.tree.script, scope)
        finally:
            self.sources.pop()
            self.line_base.pop()
            self.reading.pop()
            held = self.frames.pop().held
        scope, outcome = self.release(scope, outcome, held)
        return scope, Outcome(outcome.status) if outcome.ctl == "return" else outcome


def _open_quote(text: str, quoted: str) -> tuple[str, bool]:
    """The quote still open after `text`, read from `quoted` (one already open, or ""), and
    whether its last character is a backslash that escapes what follows."""
    escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\" and quoted != "'":
            escaped = True
        elif quoted and char == quoted:
            quoted = ""
        elif not quoted and char in "'\"":
            quoted = char
    return quoted, escaped
