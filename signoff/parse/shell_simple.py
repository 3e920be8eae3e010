"""Evaluate simple commands: expand, assign, run builtins and functions, record what runs.

A command whose words use a variable with several values (set in arms the reader could not
decide) is evaluated once per consistent combination of those values; when the combinations
record the same thing the command does not depend on them. Builtins that change the shell's
state are followed (`export`, `local`, `declare`, `unset`, `shift`, `set --`, `read`, `source`
of a file the PR adds or changes (its head text runs here, see shell_source) and of the
unchanged benchmark library (its clients are external), `eval` and `bash -c` of known text, a
quoted heredoc fed to `bash`/`sh`, `trap` handlers); `source` of any other file, `alias` and an
expanding heredoc fed to a shell are not read and make the reading incomplete. Server launches,
client calls (a client command, or a client program run by python: the benchmark process a
library function starts), other commands and heredocs are recorded with how surely they run.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator

from signoff.parse import shell_glob
from signoff.parse.launch import (
    Arg,
    ClientCall,
    EnvChoice,
    HeredocUse,
    Ran,
    Reach,
    ScriptFileRun,
    ServerLaunch,
    ShellCommand,
)
from signoff.parse.launch_config import config_args, merged
from signoff.parse.launch_read import (
    NOT_RUNNING,
    after_prefix,
    basename,
    launcher_word,
    read_args,
    read_launch,
)
from signoff.parse.script_files import STDIN, known_name, package_list_files, script_file_word
from signoff.parse.shell_ast import Command, Group, Loop, Parsed, Seq, Simple, Word, parse
from signoff.parse.shell_awk import awk_output
from signoff.parse.shell_expand import Expander, Field
from signoff.parse.shell_flow import MAX_EVAL_DEPTH, Outcome, Path, Records, Runner
from signoff.parse.shell_printf import Parts, echo_output, printf_output, printf_parts
from signoff.parse.shell_scan import ASSIGNMENT, NAME
from signoff.parse.shell_source import MAX_SOURCE_DEPTH, Sources
from signoff.parse.shell_test import DoubleBracket, Tri, either, single_bracket
from signoff.parse.shell_values import (
    FROM_ENVIRONMENT,
    Array,
    Frame,
    FunctionDef,
    Held,
    Mark,
    Option,
    Scope,
    Text,
    Value,
    consistent,
    names_assigned_in,
    rejoin,
    unknown,
)

MAX_VARIANTS = 32  # combinations of alternative values evaluated for one command
MAX_CANDIDATES = 4096  # combinations examined to find the consistent ones
MAX_CALL_DEPTH = 16
MAX_TEXT_CHARS = 200_000  # code read from strings (eval, bash -c, trap) per evaluation
SHOWN_CHARS = 80  # a sourced word a problem names is shown up to this many characters
CUT = " … "  # marks the middle a longer one leaves out
LIBRARY = "benchmark_lib.sh"  # sourced by every benchmark script; its functions are external
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PYTHON = re.compile(r"python(?:3(?:\.\d+)?)?")
# vLLM's and SGLang's flags-from-YAML option, and the prefixes argparse may take for it
_CONFIG_FLAG = re.compile(r"--conf(?:i|ig)?")
_CONFIG_USE = re.compile(r"--conf(?:i|ig)?(?:=|\s+)\S+")
# A heredoc written to a file: `cat > F <<EOF`, `cat <<EOF > F`, `tee F <<EOF`.
_WRITES_HEREDOC = re.compile(r"""\b(?:cat\b[^|;&]*?>|tee\s+(?:-a\s+)?)\s*["']?([\w./-]+)""")
_SILENT = frozenset(
    {"echo", "printf", "cd", "pushd", "popd", "wait", "sleep", "shopt", "umask", "ulimit", "hash",
     "jobs", "disown", "kill", "pwd", "getopts", "let", "caller", "help", "history"}
)  # fmt: skip
_DECLARERS = frozenset({"export", "local", "declare", "typeset", "readonly"})
_FILE_EXTENSION = re.compile(r"[^./]\.[A-Za-z][A-Za-z0-9]{0,7}$")  # `t.jinja`, `s.yaml`
# Variables naming a file every shell started later runs first (bash: BASH_ENV; sh: ENV).
_STARTUP_FILES = frozenset({"BASH_ENV", "ENV"})
_ENV_FUNCTION = "BASH_FUNC_"  # an environment entry bash imports as a function
# Programs the reader does not record as commands that PATH finds as files (`sleep`, `grep`).
# Functions bash calls by itself: for a command it cannot find on the machine.
HOOK_FUNCTIONS = frozenset({"command_not_found_handle"})
_EXTERNAL = frozenset({"sleep", "grep", "egrep", "awk", "pgrep", "pkill", "which", "logger"})


class _Hooks:
    """What word expansion needs from the evaluation: values, positional parameters, effects."""

    def __init__(self, runner: SimpleCommands, scope: Scope, chosen: dict[str, Option]) -> None:
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


class SimpleCommands:
    """The simple-command half of the evaluator (see shell_eval.Evaluator)."""

    records: Records
    depth: int

    def __init__(
        self, parsed: Parsed, clients: frozenset[str], files: Sources | None = None
    ) -> None:
        self.parsed, self.clients = parsed, clients
        self.sources: list[Parsed] = [parsed]  # the script, or code read from a string
        # What `source` may read (None: nothing the PR changed is known), and the stack of
        # files being read: the script, then the changed files it sources.
        self.files = files
        self.reading: list[str] = [files.script if files is not None else ""]
        self.sourced: dict[tuple[int, str], None] = {}  # (script line, path) read by `source`
        self.written: dict[str, str] = {}  # files the script writes from a heredoc, by name
        # a `cd`/`pushd` has run: relative paths are read from a directory not known here
        self.moved = False
        self.line_base: list[int] = [0]
        self.notes: dict[str, None] = {}
        self.problems: dict[tuple[int, str], None] = {}
        self.line = 1
        self.calls = 0
        self.call_stack: list[tuple[str, tuple[tuple[str, bool], ...]]] = []
        # What ends a `return` or `break` ("function", "loop", "subshell"), innermost last,
        # with the paths that left by one while others went on (shell_eval.merge holds them)
        self.frames: list[Frame] = []
        self._frame_names: dict[int, tuple[Command, frozenset[str]]] = {}
        self.text_chars = 0
        # Variables bound as unset at the start (the script's own override hooks, Check 3's
        # reading): which of them were read while unset, plainly or through a fallback form.
        self.unset_hooks: frozenset[str] = frozenset()
        self.read_plainly: set[str] = set()
        self.read_unset: set[str] = set()

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
        withdraws the assumption (bench_script.evaluate_counted); a fallback read it decided
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

    def note(self, what: str) -> None:
        self.notes.setdefault(what, None)

    def problem(self, line: int, what: str) -> None:
        self.problems.setdefault((self.at(line), what), None)

    def expander(self, scope: Scope, chosen: dict[str, Option] | None = None) -> Expander:
        return Expander(_Hooks(self, scope, chosen if chosen is not None else {}))

    # --- simple commands ----------------------------------------------------------------------

    def simple(self, node: Simple, scope: Scope) -> tuple[Scope, Outcome]:
        self.tick(self.at(node.line))
        self._record_ran(node, scope)
        combos = self._combinations(node, scope)
        if not combos:
            return self._simple_once(node, scope, {})
        outer, paths, forks = self.records, [], []
        for chosen, why in combos:
            branch = scope.copy()
            for name, option in chosen.items():
                branch.assign(name, (option,))
            branch.reach = branch.why() or why
            self.records = Records()
            after, outcome = self._simple_once(node, branch, dict(chosen))
            forks.append(self.records)
            paths.append((after, outcome, why))
        self.records = outer
        if len({fork.content() for fork in forks}) == 1:
            self.records.extend(forks[0].with_reach(scope.why()))  # does not depend on them
            for fork in forks[1:]:  # what each combination ran on the way (function bodies)
                self.records.ran += fork.with_reach(scope.why()).ran
        else:
            for fork in forks:
                self.records.extend(fork)
        inherited = [
            tuple(m for option in chosen.values() for m in option.marks) for chosen, _ in combos
        ]
        return self.merge(scope, paths, inherited=inherited)

    def per_combination(
        self, scope: Scope, test: Simple | None, run: Runner
    ) -> tuple[Scope, Outcome] | None:
        """Run a construct once per combination of the values its test reads, so each run
        decides the test (`if [ -z "$RAIL" ]; then exit 1; fi` keeps only the non-empty
        values after it); None when the test reads no variable with several values."""
        combos = self._combinations(test, scope) if test is not None else []
        if len(combos) < 2 or any("combinations of values" in why for _, why in combos):
            return None
        paths: list[Path] = []
        for chosen, why in combos:
            branch = scope.copy()
            for name, option in chosen.items():
                branch.assign(name, (option,))
            branch.reach = branch.why() or why
            paths.append((*run(branch), why))
        inherited = [
            tuple(m for option in chosen.values() for m in option.marks) for chosen, _ in combos
        ]
        return self.merge(scope, paths, inherited=inherited)

    def _combinations(self, node: Simple, scope: Scope) -> list[tuple[dict[str, Option], str]]:
        """The consistent combinations of the values this command's words may take. Past
        `MAX_VARIANTS` every value is still used at least once (`_covering`); only a word that
        glues two such variables together is then read with them unknown."""
        names = sorted({n for word in _all_words(node) for n in _IDENT.findall(word.raw)})
        varying = [
            (name, options)
            for name in names
            if len(options := scope.options(name)) > 1 or options[0].why
        ]
        if not varying:
            return []
        found: list[dict[str, Option]] = []
        candidates = itertools.product(*(options for _, options in varying))
        for combo in itertools.islice(candidates, MAX_CANDIDATES):
            if consistent(combo):
                found.append(dict(zip((n for n, _ in varying), combo, strict=True)))
            if len(found) > MAX_VARIANTS:
                break
        if len(found) > MAX_VARIANTS:
            if _glues(node, {name for name, _ in varying}):
                return [self._unknown_combination(node, varying)]
            found = _covering(varying)
            self.note(f"more than {MAX_VARIANTS} combinations of values at line "
                      f"{self.at(node.line)}; each value read at least once")  # fmt: skip
        return [(chosen, _why_of(chosen)) for chosen in found]

    def _unknown_combination(
        self, node: Simple, varying: list[tuple[str, tuple[Option, ...]]]
    ) -> tuple[dict[str, Option], str]:
        why = f"more than {MAX_VARIANTS} combinations of values at line {self.at(node.line)}"
        self.note(f"{why}; read with those values unknown")
        chosen = {name: Option(unknown(f"${{{name}}}"), why) for name, _ in varying}
        return chosen, why

    def _simple_once(
        self, node: Simple, scope: Scope, chosen: dict[str, Option]
    ) -> tuple[Scope, Outcome]:
        exp = self.expander(scope, chosen)
        self._record_heredocs(node, scope)
        for target in node.redirects:  # bash expands them as the command starts: what they run
            exp.fields(target.raw, target.offset, target.line)
        if not node.words:
            for word in node.assigns:
                self.assign_word(word, exp, scope)
            return scope, Outcome()
        first = node.words[0].raw
        if first == "[[":
            return scope, Outcome(self._double_bracket(node, exp, scope))
        if first.startswith("((") and first.endswith("))"):
            value = exp.arithmetic(first[2:-2], node.words[0].offset + 2)
            return scope, Outcome(None if value is None else value != 0)
        argv = [f for word in node.words for f in exp.fields(word.raw, word.offset, word.line)]
        if not argv:
            for word in node.assigns:  # `A=1 $EMPTY`: a plain assignment after all
                self.assign_word(word, exp, scope)
            return scope, Outcome()
        prefix = {}
        for word in node.assigns:
            match = ASSIGNMENT.match(word.raw)
            assert match is not None
            given = exp.value(word.raw[match.end() :], word.offset)
            prefix[match.group(1)] = given.text
            if match.group(1) in _STARTUP_FILES and given.text:  # `BASH_ENV=x bash y.sh`
                field = Field(given.text, given.known, given.prefix, word.line, given.parts)
                self.runs_file(field, word.line, scope, word.raw[:120])
        return self.dispatch(argv, prefix, node, scope, exp, functions=True)

    def dispatch(
        self,
        argv: list[Field],
        prefix: dict[str, str],
        node: Simple,
        scope: Scope,
        exp: Expander,
        *,
        functions: bool,
    ) -> tuple[Scope, Outcome]:
        name = argv[0].text if argv[0].known else ""
        if any(field.text.startswith(_ENV_FUNCTION) for field in argv):
            self.problem(node.line, f"a function passed through the environment "
                         f"({_ENV_FUNCTION}...) is not read")  # fmt: skip
        if functions and name != "time" and scope.function(name):
            # bash runs a function before a builtin of the same name (`set() {...}`; `time`
            # is a reserved word, never a function call)
            return self.call_function(name, argv, scope, node.line)
        if name in ("command", "builtin", "time", "nohup") and len(argv) > 1:
            rest = argv[2:] if name == "time" and argv[1].text == "-p" else argv[1:]
            return self.dispatch(rest, prefix, node, scope, exp, functions=name == "time")
        if name == "coproc" and len(argv) > 1:  # runs its command (a function too), async
            self.dispatch(argv[1:], prefix, node, scope.copy(), exp, functions=True)
            return scope, Outcome()
        handler = _BUILTINS.get(name)
        if handler is not None:
            return handler(self, argv, node, scope, exp)
        if name in self.clients:
            self._record_client(argv, scope)
            return scope, Outcome(None)
        if name in ("cd", "pushd") and len(argv) > 1:
            self.moved = True
        if name in _SILENT:
            if name in _EXTERNAL:  # found on PATH, which the script may point at its own files
                self.runs_file(argv[0], node.line, scope, " ".join(f.text for f in argv)[:200])
            return scope, Outcome(True if name in ("echo", "printf") else None)
        self._record_command(argv, prefix, scope, heredoc=bool(node.heredocs))
        if name == "exec" and len(argv) > 1:
            return scope, Outcome(True, "exit", f"exec at line {self.at(node.line)}")
        return scope, Outcome(None)

    # --- records ------------------------------------------------------------------------------

    def _reach(self, scope: Scope) -> tuple[Reach, str]:
        why = scope.why()
        return ("undecided", why) if why else ("reached", "")

    def _record_ran(self, node: Simple, scope: Scope) -> None:
        """A simple command of the script's own text that runs, by where it starts (commands
        read from strings (`eval`, `bash -c`) have no place in the text)."""
        if self.sources[-1] is not self.parsed:
            return
        words = [*node.assigns, *node.words]
        if not words:
            return
        reach, why = self._reach(scope)
        offset = min(word.offset for word in words)
        self.records.ran.append(Ran(offset=offset, line=node.line, reach=reach, why=why))

    def _record_client(self, argv: list[Field], scope: Scope) -> None:
        reach, why = self._reach(scope)
        args = tuple(read_args(argv[1:]))
        line = self.at(argv[0].line)
        self.records.clients.append(
            ClientCall(command=argv[0].text, args=args, line=line, reach=reach, why=why)
        )

    def _record_command(
        self, argv: list[Field], prefix: dict[str, str], scope: Scope, *, heredoc: bool = False
    ) -> None:
        reach, why = self._reach(scope)
        program = _client_program(argv, self.clients)
        if program:  # `python3 .../benchmark_serving.py ...`: the benchmark process itself
            self.records.clients.append(ClientCall(
                command=program, args=tuple(read_args(argv[2:])), line=self.at(argv[0].line),
                reach=reach, why=why,
            ))  # fmt: skip
        env = {**self._exported(scope), **prefix}
        launch = read_launch(argv, env, reach, why)
        if launch is not None:
            launcher = launcher_word(argv)
            plain = launcher is not None and launcher.known and "/" not in launcher.text
            if launcher is not None and not plain and known_name(launcher):  # `./bin/vllm`
                self.records.script_files.append(ScriptFileRun(
                    command=" ".join(f.text for f in argv)[:200], word=launcher.text,
                    name=known_name(launcher), line=self.at(argv[0].line), reach=reach, why=why,
                ))  # fmt: skip
            update: dict[str, object] = {"env_undecided": self._exported_undecided(scope, prefix)}
            if self.line_base[-1]:
                update["line"] = self.line_base[-1]
            update.update(self._launch_files(launch, argv))
            self.records.launches.append(launch.model_copy(update=update))
            return
        if basename(argv[0].text) in NOT_RUNNING and argv[0].text not in ("sed", "tee", "cat"):
            if argv[0].known and argv[0].text in _EXTERNAL:  # a file found on PATH
                self.runs_file(argv[0], argv[0].line, scope, " ".join(f.text for f in argv)[:200])
            return
        words = tuple(field.text for field in argv)
        line = self.at(argv[0].line)
        running = basename(argv[0].text) not in NOT_RUNNING
        file = script_file_word(argv, heredoc=heredoc) if running else None
        listed = [file] if file is not None else []
        listed += package_list_files(argv) if running else []  # `pip install -r x.txt`
        for file in listed:  # its text is not read: the checks decide what that may hide
            self.records.script_files.append(ScriptFileRun(
                command=" ".join(words), word=file.text, name=known_name(file), line=line,
                reach=reach, why=why,
            ))  # fmt: skip
        self.records.commands.append(ShellCommand(argv=words, line=line, reach=reach, why=why))

    def _launch_files(self, launch: ServerLaunch, argv: list[Field]) -> dict[str, object]:
        """What the launch reads of the files the PR changed: a vLLM/SGLang `--config` YAML
        read as its flags (the command line winning), any other file it names listed in
        `reads`; a config that cannot be read is a problem naming it."""
        reads: dict[tuple[str, str], None] = {}
        from_file: list[Arg] = []
        line = self.at(launch.line)
        for flag, word in _valued_words(launch, argv):
            paths = self.files.resolve(word, self.reading[-1], under=True)[1] if self.files else ()
            if not paths and word.known:
                paths = self._from_unknown_directory(word.text)
            if not paths and not word.known and self.files is not None:
                paths = self.files.mentioned(word.text)  # `"$(cat x/spec.json)"`: read now
                for path in paths:
                    reads.setdefault((flag, path), None)
                continue
            written = self.written.get(basename(word.text)) if word.known else None
            is_config = _CONFIG_FLAG.fullmatch(flag) and launch.engine in ("vllm", "sglang")
            if not paths and is_config and written is None and word.known:
                why = self._written_otherwise(word.text)
                if why:
                    self.problem(line, f"the launch reads {word.text} ({flag}), {why}")
                continue
            if not paths and written is not None and is_config:  # the heredoc it wrote
                args, why = config_args(written, line)
                if why:
                    self.problem(line, f"the launch reads {word.text} ({flag}), written by the "
                                 f"script, and it cannot be read: {why}")  # fmt: skip
                from_file.extend(args)
                continue
            for path in paths:
                config = _CONFIG_FLAG.fullmatch(flag) and launch.engine in ("vllm", "sglang")
                if not config or path != paths[0] or len(paths) > 1:
                    reads.setdefault((flag, path), None)
                    continue
                assert self.files is not None
                text, why = self.files.text(path)
                args, why = config_args(text, line) if text is not None else ((), why)
                if why:
                    self.problem(line, f"the launch reads {path} ({flag}), which this PR "
                                 f"changes, and it cannot be read: {why}")  # fmt: skip
                self.note(f"line {line} reads the flags of {path} (this PR changes it)")
                from_file.extend(args)
                for arg in args:  # its values are read as the command line's would be
                    if arg.value is None or not arg.known:
                        continue
                    value = Field(arg.value, True, arg.value, arg.line)
                    named = self.files.resolve(value, self.reading[-1], under=True)[1]
                    for named_path in named or self._from_unknown_directory(arg.value):
                        reads.setdefault((arg.flag, named_path), None)
        update: dict[str, object] = {"reads": tuple(reads)}
        if from_file:
            update["args"] = merged(launch.args, tuple(from_file))
        return update

    def _from_unknown_directory(self, text: str) -> tuple[str, ...]:
        """The changed files a relative path may name once the script has changed directory
        (`cd`): any whose path ends with it. Only values spelled as paths (a `/` or a file
        extension) count: `fp8`, `8` or `auto` name no file."""
        if not self.moved or self.files is None or text.startswith(("/", "-", "{", "[")):
            return ()
        if "/" not in text and not _FILE_EXTENSION.search(text):
            return ()
        return self.files.anywhere(text)

    def _written_otherwise(self, path: str) -> str:
        """Why a `--config` file that is neither a changed repository file nor written from a
        heredoc cannot be trusted ("" when the script never names it but to pass it): the
        script names it elsewhere, so it may write or copy it (`echo ... > x.yaml`)."""
        name = basename(path)
        if not name:
            return ""
        token = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])")
        for text in dict.fromkeys(source.text for source in self.sources):
            for line in text.splitlines():
                rest = _CONFIG_USE.sub(" ", line)  # its uses as a --config value
                if not token.search(rest) or line.lstrip().startswith("#"):
                    continue
                if _WRITES_HEREDOC.search(rest) and "<<" in rest:
                    continue
                return (f"which the script also names at run time ({line.strip()[:80]}), so it "
                        "may write it in a way signoff does not read")  # fmt: skip
        return ""

    def _record_heredocs(self, node: Simple, scope: Scope) -> None:
        reach, why = self._reach(scope)
        for index in node.heredocs:
            doc = self.sources[-1].heredocs[index]
            lines = self.sources[-1].text.splitlines()
            command = lines[doc.line - 1] if 0 < doc.line <= len(lines) else ""
            target = _WRITES_HEREDOC.search(command)
            if target is not None:  # `cat > config.yaml <<EOF`: a file the script writes
                self.written[basename(target[1])] = doc.body
            self.records.heredocs.append(
                HeredocUse(
                    line=self.at(doc.line), delimiter=doc.delimiter, body=doc.body,
                    reach=reach, why=why,
                )
            )  # fmt: skip

    def _exported(self, scope: Scope) -> dict[str, str]:
        env: dict[str, str] = {}
        for name in sorted(scope.exported_names()):
            options = scope.options(name)
            value = options[0].value if len(options) == 1 else None
            if isinstance(value, Text) and value is not FROM_ENVIRONMENT:
                env[name] = value.text
        return env

    def _exported_undecided(self, scope: Scope, prefix: dict[str, str]) -> tuple[EnvChoice, ...]:
        """The exported variables `_exported` leaves out because they hold several values here:
        each value (None: unset, or whatever the environment holds) with its condition."""
        choices: list[EnvChoice] = []
        for name in sorted(scope.exported_names() - prefix.keys()):
            options = scope.options(name)
            if len(options) < 2:
                continue
            for option in options:
                value = option.value
                if isinstance(value, Array):  # exporting an array exports its first element
                    value = value.values()[0] if value.items else Text("")
                text = value.text if value is not None and value is not FROM_ENVIRONMENT else None
                choices.append(EnvChoice(name=name, value=text, why=option.why))
        return tuple(choices)

    # --- assignments --------------------------------------------------------------------------

    def assign_word(self, word: Word, exp: Expander, scope: Scope, *, local: bool = False) -> str:
        match = ASSIGNMENT.match(word.raw)
        if match is None:
            return ""
        name, index, append = match.group(1), match.group(2), match.group(3) == "+"
        if local:
            scope.declare_local(name)
        # `X+=v` and `X[i]=v` build on the value X holds; `X=v` reads nothing
        current = exp.hooks.lookup(name) if index or append else None
        if word.items is not None:
            items = tuple(
                f.as_text()
                for item in word.items
                for f in exp.fields(item.raw, item.offset, item.line)
            )
            scope.put(name, _array_value(current, items, name, append=append))
            return name
        value = exp.value(word.raw[match.end() :], word.offset + match.end())
        if name in _STARTUP_FILES and value.text:  # every shell started later reads it
            field = Field(value.text, value.known, value.prefix, word.line, value.parts)
            self.runs_file(field, word.line, scope, word.raw[:120])
        if index:
            scope.put(name, self._element(exp, current, index[1:-1], value, word.line))
        elif append:
            scope.put(name, _appended(current, value, name))
        else:
            scope.put(name, value)
        return name

    def _element(
        self, exp: Expander, current: Value | None, index: str, value: Text, line: int
    ) -> Value:
        array = current if isinstance(current, Array) else Array()
        key_text = exp.value(index, 0)
        if not key_text.known:
            self.note(f"line {self.at(line)}: an array element at a run-time index [{index[:40]}]")
            return Array((*array.items, (key_text.text, value)), assoc=array.assoc, exact=False)
        key = key_text.text
        if not array.assoc:
            number = exp.arithmetic(key, 0)
            key = str(number) if number is not None else key
        items = dict(array.items)
        items[key] = value
        ordered = items.items() if array.assoc else sorted(items.items(), key=_index_order)
        return Array(tuple(ordered), assoc=array.assoc, exact=array.exact)

    # --- functions, substitutions and code in strings ----------------------------------------

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
        found = self._frame_names.get(id(code))
        if found is None or found[0] is not code:
            wrapped = code if not isinstance(code, Seq) else Group(0, code, False)
            found = (wrapped, names_assigned_in(wrapped))
            self._frame_names[id(code)] = found
        return Frame(kind, [], found[1])

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
        reach, why = self._reach(scope)
        self.records.script_files.append(ScriptFileRun(
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
        parsed = parse("\n" * (first_line - 1) + text if own_lines else text)
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

    # --- loops and case (called by the evaluator) ---------------------------------------------

    def loop_items(self, node: Loop, scope: Scope) -> list[Text] | None:
        if node.items is None:
            return list(scope.positional) if scope.positional is not None else None
        exp = self.expander(scope)
        fields = [f for word in node.items for f in exp.fields(word.raw, word.offset, word.line)]
        if not all(f.known for f in fields):
            return None
        return [Text(f.text) for f in fields]

    def loop_body(self, node: Loop, scope: Scope, item: Text | None) -> tuple[Scope, Outcome]:
        if NAME.fullmatch(node.name):
            scope.put(node.name, item if item is not None else unknown(f"${node.name}"))
        return self.seq(node.body, scope)

    def case_match(self, patterns: list[Word], subject: Text, scope: Scope) -> Tri:
        exp = self.expander(scope)
        result: Tri = False
        for word in patterns:
            glob, known = exp.pattern(word.raw, word.offset)
            matched = shell_glob.match(glob, subject.text) if known and subject.known else None
            result = either(result, matched)
            if result is True:
                return True
        return result

    # --- conditions ---------------------------------------------------------------------------

    def _double_bracket(self, node: Simple, exp: Expander, scope: Scope) -> Tri:
        words = node.words[1:]
        if not words or words[-1].raw != "]]":
            self.problem(node.line, "[[ without ]]")
            return None
        return DoubleBracket(
            [(w.raw, w.offset) for w in words[:-1]], exp, _is_set(self, scope)
        ).evaluate()


# --- builtins ------------------------------------------------------------------------------------

Builtin = Callable[[SimpleCommands, list[Field], Simple, Scope, Expander], tuple[Scope, Outcome]]


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
    return scope, Outcome(status if name == "return" else None, name, f"{name} at line {line}")


def _declare(
    runner: SimpleCommands, argv: list[Field], node: Simple, scope: Scope, exp: Expander
) -> tuple[Scope, Outcome]:
    head = argv[0].text
    exporting, local = (
        head == "export",
        head == "local" or (head in ("declare", "typeset") and bool(scope.locals)),
    )
    functions = False
    for word in node.words[1:]:
        if word.raw.startswith(("-", "+")):
            exporting |= "x" in word.raw and word.raw.startswith("-")
            functions |= "f" in word.raw and word.raw.startswith("-")
            local &= "g" not in word.raw
            if "n" in word.raw.lstrip("-+"):
                runner.problem(node.line, "name references (declare -n) are not followed")
            if "A" in word.raw.lstrip("-+"):
                _declare_assoc(node.words[1:], scope)
            continue
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
        if exporting and name:
            scope.exported.add(name)
    return scope, Outcome()


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


def shown_word(text: str) -> str:
    """A sourced word as a problem shows it: whole up to SHOWN_CHARS, else its start and its
    end around CUT, so the file's own name (what the baseline rule keys on) stays readable."""
    if len(text) <= SHOWN_CHARS:
        return text
    half = (SHOWN_CHARS - len(CUT)) // 2
    return text[:half] + CUT + text[-half:]


def _source(
    runner: SimpleCommands, argv: list[Field], node: Simple, scope: Scope, exp: Expander
) -> tuple[Scope, Outcome]:
    target = argv[1] if len(argv) > 1 else None
    changed = runner.source_changed(target, node.line, scope) if target is not None else None
    if changed is not None:
        return changed
    name = basename(target.text) if target is not None else ""
    if target is not None and name == LIBRARY:
        for client in runner.clients:  # the library (re)defines the benchmark client
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


def _shell(
    runner: SimpleCommands, argv: list[Field], node: Simple, scope: Scope, exp: Expander
) -> tuple[Scope, Outcome]:
    texts = [field.text for field in argv]
    if "-c" not in texts[1:]:
        heredoc = _heredoc_script(runner, argv, node)
        if heredoc is not None:  # `bash <<'EOF'`: the heredoc is the script it runs
            first, script = heredoc
            return runner.run_text(script, scope, node.line, subshell=True, first_line=first)
        runner._record_command(argv, {}, scope)
        return scope, Outcome(None)
    code = argv[texts.index("-c", 1) + 1] if texts.index("-c", 1) + 1 < len(argv) else None
    if code is None or not code.known:
        runner.problem(node.line, f"{texts[0]} -c of text known only at run time")
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


def _read(
    runner: SimpleCommands, argv: list[Field], node: Simple, scope: Scope, exp: Expander
) -> tuple[Scope, Outcome]:
    texts = [field.text for field in argv[1:]]
    targets = [text for text in texts if NAME.fullmatch(text)]
    for option in ("-a", "-v", "-u", "-d", "-p", "-t", "-n", "-N"):
        if option in texts and texts.index(option) + 1 < len(texts):
            value = texts[texts.index(option) + 1]
            targets = [t for t in targets if t != value or option in ("-a", "-v")]
    for name in targets:
        scope.put(name, unknown(f"${name}"))
    return scope, Outcome(None)


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
        runner.runs_file(target, node.line, scope, " ".join(texts)[:200])
    return scope, Outcome(None)


def _alias(
    runner: SimpleCommands, argv: list[Field], node: Simple, scope: Scope, exp: Expander
) -> tuple[Scope, Outcome]:
    if len(argv) > 1:
        runner.problem(node.line, "alias definitions are not read")
    return scope, Outcome(True)


_BUILTINS: dict[str, Builtin] = {
    "true": _status(True), ":": _status(True), "false": _status(False),
    "[": _test, "test": _test,
    "exit": _exit_like, "return": _exit_like, "break": _exit_like, "continue": _exit_like,
    **{name: _declare for name in _DECLARERS},
    "unset": _unset, "shift": _shift, "set": _set,
    "source": _source, ".": _source, "eval": _eval,
    "bash": _shell, "sh": _shell, "trap": _trap,
    "read": _read, "mapfile": _read, "readarray": _read, "alias": _alias,
    "hash": _repoint, "enable": _repoint,
}  # fmt: skip


# --- helpers -----------------------------------------------------------------------------------


def _valued_words(launch: ServerLaunch, argv: list[Field]) -> Iterator[tuple[str, Field]]:
    """(flag, the word of its value) for each valued flag of the launch's words, and the
    positional model as "(model)"."""
    for index, field in enumerate(argv):
        text = field.text
        if field.known and launch.model is not None and text == launch.model:
            yield "(model)", field
        if not text.startswith("--") or len(text) < 3:
            continue
        flag, eq, value = text.partition("=")
        if eq:
            parts = tuple((p, k) for p, k in field.parts) if field.parts else ()
            yield (
                flag,
                Field(value, field.known, "", field.line, after_prefix(parts, len(flag) + 1)),
            )
        elif index + 1 < len(argv) and not argv[index + 1].text.startswith("-"):
            yield flag, argv[index + 1]


def _client_program(argv: list[Field], clients: frozenset[str]) -> str:
    """The client program (a name with a `.py` suffix among `clients`) that python runs here
    (`python3 .../benchmark_serving.py`), else ""."""
    if len(argv) < 2 or not argv[0].known or not _PYTHON.fullmatch(basename(argv[0].text)):
        return ""
    program = known_name(argv[1])  # `"$(pwd)/utils/.../benchmark_serving.py"` names it too
    return program if program.endswith(".py") and program in clients else ""


def _why_of(chosen: dict[str, Option]) -> str:
    whys = list(dict.fromkeys(option.why for option in chosen.values() if option.why))
    return "; ".join(whys[:2])


def _glues(node: Simple, varying: set[str]) -> bool:
    """Whether one word joins two varying variables (`--${A}${B}`): its values only show in
    combination, so covering each value once would not show them."""
    words = (item for word in (*node.assigns, *node.words) for item in word.items or [word])
    return any(len(varying.intersection(_IDENT.findall(word.raw))) > 1 for word in words)


def _covering(varying: list[tuple[str, tuple[Option, ...]]]) -> list[dict[str, Option]]:
    """Combinations in which every value of every variable appears at least once, the others
    taking a value consistent with it."""
    combos: dict[tuple[int, ...], dict[str, Option]] = {}
    for index, (_, options) in enumerate(varying):
        for option in options:
            chosen = [option]
            for other, (_, others) in enumerate(varying):
                if other != index:
                    chosen.append(next((o for o in others if consistent([*chosen, o])), others[0]))
            ordered = [chosen[0] if i == index else None for i in range(len(varying))]
            rest = iter(chosen[1:])
            picked = [o if o is not None else next(rest) for o in ordered]
            key = tuple(id(o) for o in picked)
            combos.setdefault(key, dict(zip((n for n, _ in varying), picked, strict=True)))
    return list(combos.values())


def _all_words(node: Simple) -> Iterator[Word]:
    for word in (*node.assigns, *node.words):
        yield word
        yield from word.items or ()


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


def _index_order(item: tuple[str, Text]) -> tuple[int, str]:
    key = item[0]
    return (int(key), "") if key.lstrip("-").isdigit() else (1 << 62, key)


def _array_value(
    current: Value | None, items: tuple[Text, ...], name: str, *, append: bool
) -> Array:
    if append and isinstance(current, Array):
        start = len(current.items)
        extra = tuple((str(start + n), item) for n, item in enumerate(items))
        return Array(current.items + extra, assoc=current.assoc, exact=current.exact)
    if append and isinstance(current, Text) and current is not FROM_ENVIRONMENT:
        items = (current, *items)
    elif append and current is FROM_ENVIRONMENT:
        items = (unknown(f"${{{name}[@]}}"), *items)
    return Array(tuple((str(n), item) for n, item in enumerate(items)))


def _appended(current: Value | None, value: Text, name: str) -> Text:
    if current is None:
        return value
    if isinstance(current, Array):
        current = current.values()[0] if current.items else Text("")
    if current is FROM_ENVIRONMENT or not current.known:
        shown = f"${{{name}}}" if current is FROM_ENVIRONMENT else current.text
        return unknown(shown + value.text, "")
    if not value.known:
        return unknown(current.text + value.text, current.text + value.prefix)
    return Text(current.text + value.text)
