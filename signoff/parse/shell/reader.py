"""The state the shell reader keeps while it evaluates a script, and what word expansion asks
of it (values, positional parameters, command substitutions, the work bound)."""

from __future__ import annotations

import re

from signoff.parse.shell.awk import awk_output
from signoff.parse.shell.expand import Expander
from signoff.parse.shell.fields import Field
from signoff.parse.shell.flow import Outcome, Path, Runner
from signoff.parse.shell.hooks import CommandHook
from signoff.parse.shell.printf import Parts, echo_output, printf_output, printf_parts
from signoff.parse.shell.records import (
    Records,
)
from signoff.parse.shell.sources import Sources
from signoff.parse.shell.syntax import Command, Parsed, Seq, Simple
from signoff.parse.shell.values import (
    FROM_ENVIRONMENT,
    Frame,
    Mark,
    Option,
    Scope,
    Text,
    Value,
)

MAX_VARIANTS = 32  # combinations of alternative values evaluated for one command
MAX_CANDIDATES = 4096  # combinations examined to find the consistent ones
MAX_CALL_DEPTH = 16
MAX_TEXT_CHARS = 200_000  # code read from strings (eval, bash -c, trap) per evaluation
# Characters of expanded words counted as one step of work (real scripts expand a few
# hundred characters per command, well under one step's worth)
CHARS_PER_STEP = 1024
SHOWN_CHARS = 80  # a sourced word a problem names is shown up to this many characters
CUT = " … "  # marks the middle a longer one leaves out
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# A heredoc written to a file: `cat > F <<EOF`, `cat <<EOF > F`, `tee F <<EOF`.
WRITES_HEREDOC = re.compile(r"""\b(?:cat\b[^|;&]*?>|tee\s+(?:-a\s+)?)\s*["']?([\w./-]+)""")
_SILENT = frozenset(
    {"echo", "printf", "cd", "pushd", "popd", "wait", "sleep", "shopt", "umask", "ulimit", "hash",
     "jobs", "disown", "kill", "pwd", "getopts", "let", "caller", "help", "history"}
)  # fmt: skip
_DECLARERS = frozenset({"export", "local", "declare", "typeset", "readonly"})
_ENV_FUNCTION = "BASH_FUNC_"  # an environment entry bash imports as a function
# Programs the reader does not record as commands that PATH finds as files (`sleep`, `grep`).
# Functions bash calls by itself: for a command it cannot find on the machine.
HOOK_FUNCTIONS = frozenset({"command_not_found_handle"})
EXTERNAL = frozenset({"sleep", "grep", "egrep", "awk", "pgrep", "pkill", "which", "logger"})


class _Hooks:
    """What word expansion needs from the evaluation: values, positional parameters, effects."""

    def __init__(self, runner: ReaderState, scope: Scope, chosen: dict[str, Option]) -> None:
        self.runner, self.scope, self.chosen = runner, scope, chosen

    def lookup(self, name: str, *, guarded: bool = False) -> Value | None:
        option = self.chosen.get(name)
        if option is None:
            options = self.scope.options(name)
            if len(options) != 1:
                if name in self.runner.unset_hooks:
                    self.runner.read_hook(name, options, guarded=guarded, decided=False)
                return FROM_ENVIRONMENT  # several values, none chosen here: unknown
            option = options[0]
        if name in self.runner.unset_hooks:
            self.runner.read_hook(name, (option,), guarded=guarded, decided=True)
        return option.value

    def positional(self) -> tuple[Text, ...] | None:
        return self.scope.positional

    def assign(self, name: str, value: Text) -> None:
        self.scope.put(name, value)
        self.chosen.pop(name, None)

    def substitute(self, offset: int, inner: str, why: str = "") -> str | Parts | None:
        return self.runner.substitution(offset, self.scope, inner, self.chosen, why)

    def problem(self, what: str) -> None:
        self.runner.problem(self.runner.line, what)

    def charge(self, steps: int) -> None:
        self.runner.tick(self.runner.line, steps)

    def produced(self, chars: int) -> None:
        """Text an expansion built is work too: a step per `CHARS_PER_STEP` characters, counted
        over the reading (a 12 KB script whose words expand 8 KB values a thousand times over
        built gigabytes in a few hundred steps)."""
        runner = self.runner
        runner.expanded += chars
        due = runner.expanded // CHARS_PER_STEP - runner.expanded_charged
        if due > 0:
            runner.expanded_charged += due
            runner.tick(runner.line, due)


def lone_simple(seq: Seq, offset: int, inner: str) -> Simple | None:
    """The substitution's only command when it is one plain simple command whose words cover
    its whole text: nothing but blanks between them, so no redirection (the scanner drops
    those) can send its output elsewhere, no pipe, no second command, and no substitution of
    its own (its words are expanded once more to read the output: that must stay cheap)."""
    if len(seq.items) != 1:
        return None
    item = seq.items[0]
    if item.rest or item.background or item.first.negated or len(item.first.commands) != 1:
        return None
    node = item.first.commands[0]
    if not isinstance(node, Simple) or node.assigns or node.heredocs or node.redirects:
        return None
    if not node.words:
        return None  # nothing but assignments or redirections: it prints nothing
    if any("$(" in word.raw or "`" in word.raw for word in node.words):
        return None  # a nested substitution: expanding it again here would repeat its work
    position = 0
    for word in node.words:
        start = word.offset - offset
        if start < position or inner[position:start].replace("\\\n", "").strip():
            return None
        position = start + len(word.raw)
    return node if not inner[position:].replace("\\\n", "").strip() else None


def static_output(argv: list[Field]) -> str | Parts | None:
    """What `printf`/`echo` (or `awk 'BEGIN{print 1+2}'`) with these fields prints, when every
    field is known; a printf whose format is known and whose other unknown arguments are each
    printed whole by `%s` prints text known in part."""
    if not argv:
        return None
    if any(not field.known for field in argv):
        if argv[0].known and argv[0].text == "printf":
            return printf_parts([(field.text, field.known) for field in argv[1:]])
        return None
    words = [field.text for field in argv]
    if words[0] == "printf":
        return printf_output(words[1:])
    if words[0] == "echo":
        return echo_output(words[1:])
    if words[0] == "awk":
        return awk_output(words[1:])
    return None


class ReaderState:
    """The reader's state while it evaluates, and what the parts of the evaluator ask of each
    other (each implemented further down: `Calls`, `ReaderState`, `Evaluator`)."""

    records: Records
    depth: int

    def __init__(self, parsed: Parsed, hook: CommandHook, files: Sources | None = None) -> None:
        self.parsed, self.hook = parsed, hook
        self.library = False  # the text is sourced by others (a `return` at its top ends it)
        self.sources: list[Parsed] = [parsed]  # the script, or code read from a string
        # What `source` may read (None: nothing the PR changed is known), and the stack of
        # files being read: the script, then the changed files it sources.
        self.files = files
        self.reading: list[str] = [files.script if files is not None else ""]
        self.sourced: dict[tuple[int, str], None] = {}  # (script line, path) read by `source`
        self.sourced_trees: list[tuple[Parsed, str]] = []  # each changed file read, its path
        self.written: dict[str, str] = {}  # files the script writes from a heredoc, by name
        # every file the reading may write (a redirection, `tee`, `cp`...), and the heredocs
        # written to one: (body, first line, whether it expands), by written_files.file_key
        self.writes: dict[str, int] = {}
        self.written_docs: dict[str, tuple[str, int, bool]] = {}
        self.copies: dict[str, Field] = {}  # files copied from one the script did not write
        # what BASH_ENV or ENV names (or `ssh -F`), where, and which program reads it
        self.startup_files: dict[str, tuple[int, str]] = {}
        self.ran_unwritten: dict[str, int] = {}  # files run before the script wrote any such
        self.exec_stdin = 0  # the line of an `exec < F` / `exec <<< S` that replaced stdin
        self.written_names: set[str] = set()  # the base names of the files in `writes`
        self.integers: set[str] = set()  # names declared `-i`: arithmetic reads what they get
        self.lastpipe = False  # `shopt -s lastpipe`: a pipeline's last command runs in the shell
        # a written file the last simple command printed (`cat f`), and the one a pipeline
        # feeds the command it is evaluating on its standard input
        self.feeding: str | None = None
        self.stdin_from: str | None = None
        # `echo '...' | bash`: what the simple command printing into a pipe prints: the text
        # echo/printf print, "" (not all of it known), or None (a file's text, `cat f`, or a
        # fetch's: followed where it runs); a pipeline's next part reads it as `stdin_text`,
        # "" when any other command printed it (a function's body, a compound command).
        self.printing: tuple[Simple, str | None] | None = None
        self.stdin_text: str | None = None
        # a `cd`/`pushd` has run: relative paths are read from a directory not known here
        self.moved = False
        self.line_base: list[int] = [0]
        self.notes: dict[str, None] = {}
        self.problems: dict[tuple[int, str], None] = {}
        self.line = 1
        self.calls = 0
        self.call_stack: list[tuple[str, tuple[tuple[str, bool], ...]]] = []
        # What ends a `return` or `break` ("function", "loop", "subshell"), innermost last,
        # with the paths that left by one while others went on (shell.evaluator.merge holds them)
        self.frames: list[Frame] = []
        self.text_chars = 0
        self.parsed_texts: dict[str, Parsed] = {}  # code in strings, parsed once per reading
        self.expanded = 0  # characters word expansion has built (see _Hooks.produced)
        self.expanded_charged = 0  # of those, the steps already counted
        # Variables bound as unset at the start (the script's own override hooks, Check 3's
        # reading): which of them were read while unset, plainly or through a fallback form.
        self.unset_hooks: frozenset[str] = frozenset()
        self.read_plainly: set[str] = set()
        self.read_unset: set[str] = set()
        # `bash -c` of text known only in part is read for its known pieces (calls.Calls.
        # run_partial_text); the reading stays incomplete either way
        self.partial_strings = False

    # implemented by Calls
    def substitution(
        self,
        offset: int,
        scope: Scope,
        inner: str = "",
        chosen: dict[str, Option] | None = None,
        why: str = "",
    ) -> str | Parts | None:
        raise NotImplementedError

    # implemented by the evaluator
    def seq(self, seq: Seq, scope: Scope) -> tuple[Scope, Outcome]:
        raise NotImplementedError

    def command(self, node: Command, scope: Scope) -> tuple[Scope, Outcome]:
        raise NotImplementedError

    def merge(
        self,
        base: Scope,
        paths: list[Path],
        decision: str = "",
        inherited: list[tuple[Mark, ...]] | None = None,
    ) -> tuple[Scope, Outcome]:
        raise NotImplementedError

    def fork_one(self, scope: Scope, run: Runner, why: str) -> tuple[Scope, Outcome]:
        raise NotImplementedError

    def tick(self, line: int, steps: int = 1) -> None:
        raise NotImplementedError

    def read_hook(
        self, name: str, options: tuple[Option, ...], *, guarded: bool, decided: bool
    ) -> None:
        """Note a read of a variable bound as unset: a plain `$X` while it may still be unset
        withdraws the assumption (benchmark.script.evaluate_counted); a fallback read it decided
        is what the reading says it assumed."""
        if all(option.value is not None for option in options):
            return  # the script has set it by now: its own value is read
        if not guarded:
            self.read_plainly.add(name)
        elif decided:
            self.read_unset.add(name)

    # --- notes and problems -----------------------------------------------------------------

    def at(self, line: int) -> int:
        """A line of the script (code read from a string reports the string's line)."""
        return self.line_base[-1] or line

    def origin(self, line: int) -> str:
        """`path:line` of a command of a changed sourced file being read ("" for the script's
        own code and for code read from a string)."""
        tree = self.sources[-1]
        path = next((path for known, path in self.sourced_trees if known is tree), "")
        return f"{path}:{line}" if path else ""

    def note(self, what: str) -> None:
        self.notes.setdefault(what, None)

    def problem(self, line: int, what: str) -> None:
        self.problems.setdefault((self.at(line), what), None)

    def expander(self, scope: Scope, chosen: dict[str, Option] | None = None) -> Expander:
        return Expander(_Hooks(self, scope, chosen if chosen is not None else {}))


def shown_word(text: str) -> str:
    """A sourced word as a problem shows it: whole up to SHOWN_CHARS, else its start and its
    end around CUT, so the file's own name (what the baseline rule keys on) stays readable."""
    if len(text) <= SHOWN_CHARS:
        return text
    half = (SHOWN_CHARS - len(CUT)) // 2
    return text[:half] + CUT + text[-half:]
