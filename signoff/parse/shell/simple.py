"""Evaluate simple commands: expand, assign, run builtins and functions, hand programs to the hook.

A command whose words use a variable with several values (set in arms the reader could not
decide) is evaluated once per consistent combination of those values; when the combinations
record the same thing the command does not depend on them. Builtins that change the shell's
state are followed (builtins.py: `export`, `local`, `declare`, `unset`, `shift`, `set --`,
`read`, `source` of a file the PR adds or changes (its head text runs here, see sources.py) and
of a library the hook names (its functions are external), `eval` and `bash -c` of known text, a
quoted heredoc fed to `bash`/`sh`, `trap` handlers; a command `nohup`/`setsid` start is read as
that command); `source` of any other file, `alias` and an expanding heredoc fed to a shell are
not read and make the reading incomplete (so does `bash -c` of text known only in part, which a
reading that asks for it also reads for its known pieces: calls.Calls.run_partial_text). Any other
program goes to the `CommandHook` (hooks.py), which records what it is; the reader itself
records the commands of the script's own text that run, heredocs given to running commands and
commands that run a script file, each with how surely it runs.
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Iterator, Sequence

from signoff.parse.shell import wildcards
from signoff.parse.shell.builtins import BUILTINS, _is_set
from signoff.parse.shell.calls import Calls
from signoff.parse.shell.conditionals import DoubleBracket, Tri, either
from signoff.parse.shell.environment_runners import (
    RunnerCommand,
    environment_run,
)
from signoff.parse.shell.evaluated import (
    EVALUATES_NAMES,
    PROMPTS,
    named_variables,
    prompt_runs,
    runs_in_arithmetic,
    subscript_runs,
)
from signoff.parse.shell.expand import Expander, is_literal
from signoff.parse.shell.fields import Field
from signoff.parse.shell.flow import Outcome, Path, Runner
from signoff.parse.shell.import_paths import (
    FIRST_ENTRY_FILES,
    FIRST_PATH_ENTRY,
    IMPORT_PATH_VARIABLES,
    MAX_FIRST_ENTRIES,
    MAX_PATH_ENTRIES,
    import_path_entries,
    python_startup_file,
    root_globs,
)
from signoff.parse.shell.named_assignments import (
    ASSIGNING_BUILTINS,
    Target,
    named_targets,
    target_name,
)
from signoff.parse.shell.option_commands import (
    COMMAND_VARIABLES,
    OPTION_RUNNERS,
    SETTINGS_VARIABLES,
    settings_files,
    unread_commands,
)
from signoff.parse.shell.other_languages import other_program
from signoff.parse.shell.path_variables import (
    DIRECTORY_VARIABLES,
    FILE_VARIABLES,
    model_source_problem,
    named_paths,
)
from signoff.parse.shell.python_commands import python_commands
from signoff.parse.shell.python_files import inline_path_entries, inline_program_files
from signoff.parse.shell.reader import (
    _ENV_FUNCTION,
    _IDENT,
    _SILENT,
    EXTERNAL,
    MAX_CANDIDATES,
    MAX_VARIANTS,
    WRITES_HEREDOC,
    static_output,
)
from signoff.parse.shell.records import (
    HEREDOCS,
    LOCAL_INSTALLS,
    HeredocUse,
    Records,
    ScriptFileRun,
    reach_of,
)
from signoff.parse.shell.scan import ASSIGNMENT, NAME
from signoff.parse.shell.script_files import (
    COMMAND_FILE_READERS,
    DESCRIPTOR,
    INTERPRETERS,
    LOOKED_UP,
    PYTHON,
    STDIN,
    STRING_RUNNERS,
    WRAPPERS,
    a_shell,
    basename,
    behind_wrappers,
    command_index,
    launched_python_program,
    program_directory,
    python_first_entry,
    python_program,
    python_reads_stdin,
    reads_program_from_input,
    script_file_word,
    shell_among_operands,
    shell_string_behind_wrappers,
    shell_string_of,
    system_program,
    with_xargs_input,
    wrapper_assignments,
)
from signoff.parse.shell.syntax import Loop, Simple, Word
from signoff.parse.shell.values import (
    CWD,
    FROM_ENVIRONMENT,
    Array,
    Option,
    Scope,
    Text,
    Value,
    consistent,
    directories,
    unknown,
)
from signoff.parse.shell.written_files import (
    FETCHERS,
    STDIN_FILES,
    argument_writes,
    file_key,
    program_kind,
    read_at_start,
    redirected_copies,
    writable,
)

# Commands that may run a file named in their other words (`bash F`, `timeout 9 bash F`).
_FILE_RUNNERS = INTERPRETERS | WRAPPERS | COMMAND_FILE_READERS | {"ssh", "at", "batch"}
# What these print into a pipe is followed where a shell runs it: `cat f` (a file the script
# wrote, or one the checks judge by name), `curl URL` (judge/fetched_code).
_FOLLOWED_OUTPUT = FETCHERS | {"cat"}
# What makes a word a pattern of file names: `*`, `?` or a bracket expression.
_QUOTING = re.compile(r"['\"\\$`]")
# Commands whose other words are read by their own rules, not as a command line they run.
# (`runuser -u U -- CMD` and `su`, given no `-c` string, run their command as a wrapper does)
_LEFT_TO_THEIR_RULES = (
    frozenset(BUILTINS) | WRAPPERS | STRING_RUNNERS | OPTION_RUNNERS | _SILENT
    | {"command", "builtin", "coproc", "setsid", "exec", "eval", "time", "nohup"}
) - {"runuser", "su"}  # fmt: skip
# Builtins that read a file as code, besides those that run it as a program.
_FILE_READERS = frozenset({"source", "."})
# `setsid` (util-linux) options: none takes a value, so its program is the first other word.
_SETSID_OPTIONS = frozenset({"-c", "--ctty", "-f", "--fork", "-w", "--wait"})


def _replaces_stdin(node: Simple) -> bool:
    """`exec < F`, `exec <<< S`, `exec <<EOF`: the script's own standard input is now that."""
    reads = [t for kind, t in node.streams if kind in ("in", "string")]
    return bool(node.heredocs) or any(t.raw not in ("/dev/null", "/dev/stdin") for t in reads)


def _names_by_pattern(raw: str) -> bool:
    """A command word bash expands as a pattern of file names (`/usr/bin/dock[e]r`, `/u*/b*/x`):
    unquoted, with `*`, `?` or a bracket expression (not the command `[`)."""
    if "*" not in raw and "?" not in raw and "[" not in raw:
        return False  # nearly every command word
    return _QUOTING.search(raw) is None and wildcards.has_pattern(raw)


class SimpleCommands(Calls):
    """The simple-command half of the evaluator (see evaluator.Evaluator): expansion,
    assignments, dispatch to builtins, functions and the hook, loops' items and case arms."""

    # --- simple commands --------------------------------------------------------------------------

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
                self.records.extend(fork.with_reach(scope.why()), ran_only=True)
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
        varying = [
            (name, options)
            for name in self._names_in(node)
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

    def _names_in(self, node: Simple) -> tuple[str, ...]:
        """The names the command's words may read, sorted (kept on the node: the hot path)."""
        if node.names is None:
            node.names = tuple(sorted({n for w in _all_words(node) for n in _IDENT.findall(w.raw)}))
        return node.names

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
        self.feeding = self.printing = None
        self._record_heredocs(node, scope)
        for target in node.redirects:  # bash expands them as the command starts: what they run
            exp.fields(target.raw, target.offset, target.line)
        for name in node.fds:  # `exec {fd}>F`: the number of the descriptor bash opens
            scope.put(name, unknown(f"${name}"))
        if not node.words:
            self._record_writes(node, exp, [], scope)
            for word in node.assigns:
                self.assign_word(word, exp, scope)
            return scope, Outcome()
        first = node.words[0].raw
        if first == "[[":
            return scope, Outcome(self._double_bracket(node, exp, scope))
        if first.startswith("((") and first.endswith("))"):
            value = exp.arithmetic(first[2:-2], node.words[0].offset + 2)
            return scope, Outcome(None if value is None else value != 0)
        if node.literal is None:
            node.literal = tuple(bool(word.raw) and is_literal(word.raw) for word in node.words)
        argv: list[Field] = []
        for word, literal in zip(node.words, node.literal, strict=True):
            if literal:  # most words: one field, as written (what `exp.fields` gives them)
                argv.append(Field(word.raw, True, "", word.line))
            else:
                argv += exp.fields(word.raw, word.offset, word.line)
        self._record_writes(node, exp, argv, scope)
        if [f.text for f in argv] == ["exec"] and _replaces_stdin(node):
            self.exec_stdin = node.line  # later commands read what it redirects
        if node.words and _names_by_pattern(node.words[0].raw):  # `/usr/bin/dock[e]r run ...`
            self.problem(node.line, f"{node.words[0].raw[:60]} names its command by a pattern "
                         "the files on the machine match when it runs")  # fmt: skip
        if not argv:
            for word in node.assigns:  # `A=1 $EMPTY`: a plain assignment after all
                self.assign_word(word, exp, scope)
            return scope, Outcome()
        prefix = {}
        for word in node.assigns:
            match = ASSIGNMENT.match(word.raw)
            assert match is not None
            given = exp.value(word.raw[match.end() :], word.offset + match.end())
            prefix[match.group(1)] = given.text
            self._sets(match.group(1), given, word.raw, word.line, scope)
        return self.dispatch(argv, prefix, node, scope, exp, functions=True)

    def _sets(self, name: str, given: Text, raw: str, line: int, scope: Scope) -> None:
        """A variable set (`X=v`; for one command, `X=v cmd` or `env X=v cmd`; by a builtin,
        `printf -v X`) that makes a later program run code: a startup file, a command, a path
        it loads from, a prompt or an integer's arithmetic."""
        reader = FILE_VARIABLES.get(name)
        if reader and given.text:  # `BASH_ENV=x bash y.sh`, `UV_ENV_FILE=f uv run ...`
            for field in self._named_paths(name, given, line, files=True):
                self.file_read_later(field, line, scope, raw[:120], reader)
        directory = DIRECTORY_VARIABLES.get(name)
        if directory and given.text:  # `PIP_FIND_LINKS=wheels`, `HF_HUB_CACHE=hub`
            self._loaded_directories(name, given, raw, line, scope, directory.root_files)
        if name in COMMAND_VARIABLES and given.text:  # `GIT_SSH_COMMAND=X git`
            self._command_variable(name, given, line, scope)
        self._import_path(name, given, raw, line, scope)  # `PYTHONPATH=x python3`
        self._evaluated_value(name, given, line)  # `PS1='$(x)' bash -i`
        source = model_source_problem(name, given)  # `HF_ENDPOINT=https://other.hub`
        if source:
            self.problem(line, source)

    def _assign_targets(self, argv: list[Field], targets: list[Target], line: int,
                        scope: Scope) -> None:  # fmt: skip
        """`printf -v NAME`, `read NAME`, `getopts O NAME`, ...: each variable gets its value
        as `NAME=value` gives it (named_assignments); an element (`a[1]`) makes the whole
        variable unknown. A name known only at run time may be any variable."""
        command = argv[0].text
        for target in targets:
            name = target_name(target.word)
            if not name:
                if not target.word.known:
                    self.problem(line, f"{command} assigns {target.word.text[:40]}, a variable "
                                 "named only at run time")  # fmt: skip
                continue
            whole = "[" not in target.word.text
            value = target.value if target.value is not None and whole else unknown(f"${name}")
            if target.value is None and name in IMPORT_PATH_VARIABLES:
                self.problem(line, f"{command} sets {name} to text known only at run time, "
                             "where later programs load code from")  # fmt: skip
            shown = " ".join(f.text for f in argv)[:200]
            self._sets(name, value, shown, line, scope)
            scope.put(name, Array((), exact=False) if target.array else value)

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
        looked_up = LOOKED_UP.fullmatch(argv[0].text) if not argv[0].known else None
        if looked_up is not None:  # `$(which docker) run ...` runs what PATH finds: docker
            argv = [Field(looked_up[1], True, "", argv[0].line), *argv[1:]]
        name = argv[0].text if argv[0].known else ""
        if "/" in name and a_shell(name) and file_key(name) not in self.writes:
            # `/bin/bash -c STR` is bash (unless the script wrote that path: a file it runs);
            # outside the system's directories the file may also be the PR's: a file run too
            if not system_program(name):
                self.runs_file(argv[0], node.line, scope, " ".join(f.text for f in argv)[:200])
            argv = [Field(basename(posixpath.normpath(name)), True, "", argv[0].line), *argv[1:]]
            name = argv[0].text
        if basename(name) == "xargs" and len(argv) > 1:  # its input's words come last
            argv = with_xargs_input(argv)
        if name in _FOLLOWED_OUTPUT:  # a file's text or a fetch's: followed where it runs
            self.printing = (node, None)
        if any(field.text.startswith(_ENV_FUNCTION) for field in argv):
            self.problem(node.line, f"a function passed through the environment "
                         f"({_ENV_FUNCTION}...) is not read")  # fmt: skip
        if functions and name != "time" and scope.function(name):
            # bash runs a function before a builtin of the same name (`set() {...}`; `time`
            # is a reserved word, never a function call)
            return self.call_function(name, argv, scope, node.line)
        if name == "command" and len(argv) > 1 and argv[1].text in ("-v", "-V"):
            return scope, Outcome(None)  # `command -v X` says where X is; it runs nothing
        if name in ("command", "builtin", "time", "nohup") and len(argv) > 1:
            rest = argv[2:] if name == "time" and argv[1].text == "-p" else argv[1:]
            return self.dispatch(rest, prefix, node, scope, exp, functions=name == "time")
        if name == "setsid" and len(argv) > 1:  # runs its program in a new session
            rest = argv[1:]
            while rest and rest[0].known and rest[0].text in _SETSID_OPTIONS:
                rest = rest[1:]
            if rest and rest[0].known and rest[0].text == "--":  # the end of its options
                rest = rest[1:]
            if rest and not (rest[0].known and rest[0].text.startswith("-")):
                return self.dispatch(rest, prefix, node, scope, exp, functions=False)
            self.problem(node.line, "setsid with an option the reader does not know")
            return scope, Outcome(None)
        if name == "coproc" and reads_program_from_input(argv[1:]):
            self.problem(node.line, "a coprocess shell runs what the script writes to it")
        if name == "coproc" and len(argv) > 1:  # runs its command (a function too), async
            self.dispatch(argv[1:], prefix, node, scope.copy(), exp, functions=True)
            return scope, Outcome()
        for settings in settings_files(basename(name), argv):  # `ssh -F FILE`
            command = " ".join(f.text for f in argv)[:200]
            reads = f"{basename(name)} reads settings that may run commands from"
            self.file_read_later(settings, node.line, scope, command, reads)
        for given, value, raw in wrapper_assignments(argv[: command_index(argv)]):  # `env X=v`
            self._sets(given, value, raw, node.line, scope)
        run = environment_run(argv)
        if run is not None:  # `uv run python x.py`: the runner's line, then what it starts
            self._environment_run(run, prefix, node, scope, exp)
            if name == "exec":
                return scope, Outcome(True, "exit", f"exec at line {self.at(node.line)}")
            return scope, Outcome(None)
        wrapped = shell_string_behind_wrappers(argv)
        if wrapped:  # `timeout 60 bash -c '...'`: the wrappers' line, then the string it runs
            self.hook.external(self, argv, prefix, scope, heredoc=bool(node.heredocs))
            scope, outcome = self.dispatch(behind_wrappers(argv, wrapped), prefix, node, scope,
                                           exp, functions=False)  # fmt: skip
            if name == "exec":  # the shell replaces the script: nothing after it runs
                return scope, Outcome(True, "exit", f"exec at line {self.at(node.line)}")
            return scope, outcome
        if name == "ssh" and not node.heredocs and self._remote_stdin(argv, node, scope, exp):
            self.hook.external(self, argv, prefix, scope)
            return scope, Outcome(None)
        string = shell_string_of(argv)
        if string is not None:  # `su u -c '...'`, `flock F -c '...'`: read as `sh -c` reads it
            self.hook.external(self, argv, prefix, scope, heredoc=bool(node.heredocs))
            shell = [Field("sh", True, "", argv[0].line), Field("-c", True, "", argv[0].line)]
            self.dispatch([*shell, string], prefix, node, scope, exp, functions=False)
            return scope, Outcome(None)
        unread = unread_commands(basename(name), argv)  # `nc -e /bin/sh`: its own rule
        at = 0 if unread else shell_among_operands(argv, _LEFT_TO_THEIR_RULES)
        if at:  # `strace -f sh -c STR`: the program runs the shell it is handed
            self.hook.external(self, argv, prefix, scope, heredoc=bool(node.heredocs))
            self.dispatch(argv[at:], prefix, node, scope, exp, functions=False)
            return scope, Outcome(None)
        if name == "ssh" and node.heredocs:  # `ssh HOST <<'EOF'`: the remote shell's script
            self.hook.external(self, argv, prefix, scope, heredoc=True)
            self._remote_script(node, scope)
            return scope, Outcome(None)
        entry = python_first_entry(argv)
        if entry is not None:  # `python3 x/y.py` imports from `x` first, `python3 -m M` from `.`
            self._first_path_entry(entry, argv, node.line, scope)
        launched = launched_python_program(argv)
        if launched is not None:  # `accelerate launch x/train.py`: Python runs that file
            if launched is not argv[command_index(argv)]:  # (torchrun's: a file run already)
                self.runs_file(launched, node.line, scope, " ".join(f.text for f in argv)[:200])
            entry = program_directory(launched)
            if entry is not None:
                self._first_path_entry(entry, argv, node.line, scope)
        program = python_program(argv)
        if program is not None and program.known:  # `python3 -c "os.system('...')"`
            handed = argv[next(i for i, word in enumerate(argv) if word is program) + 1 :]
            self._python_commands(program.text, prefix, node, scope, exp, handed)
        elif node.heredocs and python_reads_stdin(argv):  # `python3 - <<'EOF'` (as written)
            body = self.sources[-1].heredocs[node.heredocs[-1]].body
            dash = next((i for i, w in enumerate(argv) if w.known and w.text == "-"), len(argv))
            self._python_commands(body, prefix, node, scope, exp, argv[dash + 1 :])
        if name in EVALUATES_NAMES:
            self._evaluated_names(argv, node, scope)
        if name in _FILE_RUNNERS or name in _FILE_READERS or PYTHON.fullmatch(name):
            self._runs_descriptor(argv, node)
        if name in ASSIGNING_BUILTINS:
            default_ifs = "IFS" not in prefix and not scope.is_assigned("IFS")
            targets = named_targets(
                argv, lambda: _here_string_value(node, exp) if default_ifs else None
            )
            if targets is not None:  # `printf -v NAME ...`, `read NAME`, `wait -p NAME`
                self._assign_targets(argv, targets, node.line, scope)
                return scope, Outcome(None)
        lastpipe = name == "shopt" and any(f.text == "lastpipe" for f in argv[2:])
        if lastpipe and argv[1].text in ("-s", "-u"):  # a pipeline's last command: in the shell
            self.lastpipe = argv[1].text == "-s"
        if name == "let":  # each argument is arithmetic (`let i++ j=2`)
            for field in argv[1:]:
                self._let(field, scope, exp)
        handler = BUILTINS.get(name)
        if handler is not None:
            return handler(self, argv, node, scope, exp)
        if self.hook.client(self, argv, scope):
            return scope, Outcome(None)
        if name in ("cd", "pushd") and len(argv) > 1:
            self.moved = True
            went = _changed_directories(directories(scope), argv[1:])
            scope.assign(CWD, tuple(Option(Text(d)) for d in went) or (Option(None),))
        elif name == "popd":
            scope.assign(CWD, (Option(None),))
        if name in ("echo", "printf"):  # what they print may feed a shell its program
            output = static_output(argv)
            self.printing = (node, output if isinstance(output, str) else "")
        if name in _SILENT:
            if name in EXTERNAL:  # found on PATH, which the script may point at its own files
                self.runs_file(argv[0], node.line, scope, " ".join(f.text for f in argv)[:200])
            return scope, Outcome(True if name in ("echo", "printf") else None)
        fed = node if name == "tee" and node.heredocs else None  # `tee F <<EOF`: the heredoc
        # `tee F`, `cp SRC F`, also behind wrappers (`sudo tee F`): the files it writes
        for field, source in argument_writes(argv[command_index(argv) :]):
            self.wrote(field, fed, source, scope=scope, exp=exp)
        if name == "cat" and self.writes:  # what it prints may feed a shell (`cat f | bash`)
            printed = [f.text for f in argv[1:] if file_key(f.text) in self.writes]
            self.feeding = printed[-1] if printed else None
        self.written_program(argv, node, scope, exp, prefix)
        self._other_language(argv, node, scope)
        if unread:
            self.problem(node.line, unread)
        self.hook.external(self, argv, prefix, scope, heredoc=bool(node.heredocs))
        if name == "exec" and len(argv) > 1:
            return scope, Outcome(True, "exit", f"exec at line {self.at(node.line)}")
        return scope, Outcome(None)

    def _environment_run(
        self,
        run: RunnerCommand,
        prefix: dict[str, str],
        node: Simple,
        scope: Scope,
        exp: Expander,
    ) -> None:
        """`uv run [options] CMD`, `conda run --cwd D CMD`: the runner is recorded as a program
        (it may install the project), the files it loads variables from as files a later shell
        runs, and CMD is read as a program started there, in its own process."""
        self.hook.external(self, run.runner, prefix, scope, heredoc=bool(node.heredocs))
        shown = " ".join(f.text for f in [*run.runner, *run.command])[:200]
        for file in run.env_files:
            self.file_read_later(file, node.line, scope, shown, "the runner loads variables from")
        if run.problem:
            self.problem(node.line, run.problem)
            return
        if not run.command:
            return
        inner = scope.copy()
        if run.directory is not None:
            went = _changed_directories(directories(scope), [run.directory])
            inner.assign(CWD, tuple(Option(Text(d)) for d in went) or (Option(None),))
        self.dispatch(run.command, prefix, node, inner, exp, functions=False)

    # --- text bash runs where it is used (shell.evaluated) ---------------------------------------

    def _let(self, field: Field, scope: Scope, exp: Expander) -> None:
        """`let EXPR`: the arithmetic runs, assignments included; one known only at run time
        may assign any name it holds."""
        if field.known:
            exp.evaluated(field.text)
            return
        for name in sorted(set(_IDENT.findall(field.text))):
            scope.put(name, unknown(f"${name}"))

    def _evaluated_value(self, name: str, value: Text, line: int) -> None:
        """A value bash evaluates later that runs a command: a prompt (PS4 on every line
        `set -x` traces, PS1 in an interactive shell) or an integer variable's arithmetic."""
        if value.known and (name in PROMPTS or name in self.integers):
            runs = prompt_runs(value.text) if name in PROMPTS else subscript_runs(value.text)
            if runs:
                self.problem(line, f"{name}={value.text[:60]} runs a command when bash "
                             "evaluates it")  # fmt: skip

    def _evaluated_names(self, argv: list[Field], node: Simple, scope: Scope) -> None:
        """A builtin given a variable name whose subscript runs a command (`read 'a[$(c)]'`,
        `let` on a value holding one), `mapfile -C` (its callback runs per line), `compgen -C`
        or `-F`, `fc` (history the reader does not keep): the reading is incomplete."""
        name = argv[0].text if argv[0].known else ""
        if name == "fc":
            self.problem(node.line, "fc runs commands from the shell's history")
            return
        if name in ("mapfile", "readarray") and any(f.text == "-C" for f in argv[1:]):
            self.problem(node.line, f"{name} -C runs its callback, which signoff does not read")
        if name == "compgen" and any(f.text in ("-C", "-F") for f in argv[1:]):
            self.problem(node.line, "compgen runs the command or function it is given for "
                         "completions, which signoff does not read")  # fmt: skip
        for field in named_variables(argv):
            if not field.known:
                continue
            if name == "let":
                found = runs_in_arithmetic(field.text, lambda n: _value_text(scope, n))
            else:
                found = field.text if subscript_runs(field.text) else ""
            if found:
                self.problem(node.line, f"{name} evaluates `{found[:60]}`, whose subscript runs "
                             "a command")  # fmt: skip
                return

    def _runs_descriptor(self, argv: list[Field], node: Simple) -> None:
        """A program read from a file descriptor (`exec 3<<<'...'; bash /dev/fd/3`, `bash
        <(echo '...')`): what it holds is not followed (a fetch's output, `<(curl URL)`, is
        the fetched-program rule's)."""
        if not any(f.text.startswith(("/dev/fd/", "/proc/", "<(")) for f in argv[1:]):
            return  # nearly every command
        file = script_file_word(argv)
        if file is None:
            return
        if file.text.startswith("<("):
            inner = file.text[2:].lstrip()
            if basename(inner.split(maxsplit=1)[0] if inner else "") not in _FOLLOWED_OUTPUT:
                self.problem(node.line, f"runs {file.text[:60]}, a process substitution's "
                             "output")  # fmt: skip
        elif DESCRIPTOR.match(file.text) and file.text not in STDIN_FILES:
            self.problem(node.line, f"runs {file.text[:60]}, a file descriptor's text")

    # --- programs the script writes, then runs ----------------------------------------------------

    def _record_writes(self, node: Simple, exp: Expander, argv: list[Field], scope: Scope) -> None:
        """The files the command's redirections write: what `cat` prints of files is a copy of
        them (a heredoc it prints is that heredoc), and a fetcher's output is left to the
        rules on fetched code (judge/fetched_code follows it)."""
        if not node.streams:
            return
        copies = redirected_copies(argv, bool(node.heredocs))
        if copies is None:
            return  # `curl URL > f`
        heredoc = (
            node if node.heredocs and copies == [] and argv[:1] and argv[0].text == "cat" else None
        )
        for kind, target in node.streams:
            if kind != "out":
                continue
            if is_literal(target.raw):  # `> /tmp/log.txt`: one field, as written
                fields = [Field(target.raw, True, "", target.line)]
            else:
                fields = exp.fields(target.raw, target.offset, target.line)
            for field in fields:
                if len(copies) == 1:
                    self.wrote(field, None, copies[0], scope=scope, exp=exp)
                else:
                    self.wrote(field, heredoc, scope=scope, exp=exp)

    def _name_written(self, path: str) -> None:
        """A file the script writes may later run by its bare name: the script puts its
        directory on PATH (`cat > /tmp/bin/vllm <<EOF`, or `cat > vllm <<EOF` and `.` on PATH),
        then `vllm serve`. The command itself is read as well (when PATH does not find it)."""
        self.written_names.add(basename(path))

    def file_read_later(
        self,
        field: Field,
        line: int,
        scope: Scope,
        command: str,
        reader: str = "a shell started later runs",
    ) -> None:
        """`BASH_ENV=F`: every shell started later runs F first; `ssh -F F`: ssh reads
        settings that may run commands from F; `hash -p F NAME`: NAME runs F (a file run by
        name; one the script writes, before or after, makes the reading incomplete)."""
        self.runs_file(field, line, scope, command)
        self.startup_files[file_key(field.text)] = (line, reader)
        if file_key(field.text) in self.writes:
            self._writes_startup_file(field.text, (line, reader))

    def _command_variable(self, name: str, value: Text, line: int, scope: Scope) -> None:
        """`GIT_SSH_COMMAND=CMD` and the like: CMD is read as if run here, as `sh -c` reads it
        (git runs it later, in any git command); git settings from the environment are not
        read."""
        if name in SETTINGS_VARIABLES:
            self.problem(line, f"{name} gives git settings signoff does not read")
        elif not value.known:
            self.problem(line, f"{name} names a command known only at run time")
        else:
            self.run_text(value.text, scope.copy(), line, subshell=True)

    def _import_path(self, name: str, value: Text, shown: str, line: int, scope: Scope) -> None:
        """`PYTHONPATH=DIR` (`PYTHONUSERBASE`, `PYTHONHOME`; `LD_LIBRARY_PATH`, `LD_PRELOAD`,
        `LD_AUDIT`): every later Python (program) loads the code there ahead of what is
        installed; each directory or file named is recorded as a local install is
        (import_paths), held against a PASS when it holds a file the PR wrote."""
        entries = import_path_entries(name, value, line)
        if not entries:
            return  # nearly every assignment
        if len(entries) > MAX_PATH_ENTRIES:  # no real path is that long: a bound on records
            self.problem(line, f"{name} names more than {MAX_PATH_ENTRIES} entries, which "
                         "signoff does not follow")  # fmt: skip
            entries = entries[:MAX_PATH_ENTRIES]
        reach, why = reach_of(scope)
        where = directories(scope)
        for entry in entries:
            self.records.of(LOCAL_INSTALLS).append(ScriptFileRun(
                command=shown[:200], word=entry.text, name="", line=self.at(line),
                reach=reach, why=why, origin=self.origin(line), directories=where,
                root_files=root_globs(name), loaded_by=name,
            ))  # fmt: skip

    def _named_paths(
        self, name: str, value: Text, line: int, *, files: bool = False
    ) -> list[Field]:
        entries = named_paths(name, value, line, files=files)
        if len(entries) > MAX_PATH_ENTRIES:  # no real list is that long: a bound on records
            self.problem(line, f"{name} names more than {MAX_PATH_ENTRIES} entries, which "
                         "signoff does not follow")  # fmt: skip
        return entries[:MAX_PATH_ENTRIES]

    def _loaded_directories(
        self,
        name: str,
        value: Text,
        shown: str,
        line: int,
        scope: Scope,
        root_files: tuple[str, ...],
    ) -> None:
        """`UV_PROJECT=DIR`, `PIP_FIND_LINKS=DIR`: a later install builds or takes packages
        from DIR; `HF_HUB_CACHE=DIR`: the engine loads models (and their code) from DIR.
        Recorded as a local install is, loaded by the variable."""
        reach, why = reach_of(scope)
        for entry in self._named_paths(name, value, line):
            self.records.of(LOCAL_INSTALLS).append(ScriptFileRun(
                command=shown[:200], word=entry.text, name="", line=self.at(line),
                reach=reach, why=why, origin=self.origin(line), directories=directories(scope),
                root_files=root_files, loaded_by=name,
            ))  # fmt: skip

    def _first_path_entry(
        self,
        entry: Field,
        argv: list[Field],
        line: int,
        scope: Scope,
        counted: tuple[str, ...] = FIRST_ENTRY_FILES,
    ) -> None:
        """A Python imports from its first path entry (its program's directory, or the working
        directory) ahead of everything installed: recorded as an import path is, counting only
        the modules the directory holds (`counted`: or just those paths), wherever it is."""
        reach, why = reach_of(scope)
        record = ScriptFileRun(
            command=" ".join(f.text for f in argv)[:200], word=entry.text, name="",
            line=self.at(line), reach=reach, why=why, origin=self.origin(line),
            directories=directories(scope), root_files=counted,
            loaded_by=FIRST_PATH_ENTRY, counted=counted,
        )  # fmt: skip
        installs = self.records.of(LOCAL_INSTALLS)
        first = [one for one in installs if one.loaded_by == FIRST_PATH_ENTRY]
        where = (record.word, record.directories, record.origin, record.counted)
        if any((one.word, one.directories, one.origin, one.counted) == where for one in first):
            return  # (a loop running Python, or a second Python from there: the first names it)
        if len(first) >= MAX_FIRST_ENTRIES:  # each is held against every changed file
            self.problem(line, f"Python runs from more than {MAX_FIRST_ENTRIES} directories, "
                         "which signoff does not follow")  # fmt: skip
            return
        installs.append(record)

    def _writes_startup_file(self, path: str, where: tuple[int, str]) -> None:
        line, reader = where
        self.problem(line, f"{reader} {path}, which the script writes when it runs")

    def wrote(
        self,
        field: Field,
        heredoc_of: Simple | None,
        source: Field | None = None,
        *,
        scope: Scope,
        exp: Expander,
    ) -> None:
        """The reading may write the file `field` names (counted: a file written twice is not
        the one heredoc), with the last heredoc of `heredoc_of` when that is what it writes,
        or a copy of `source` (`cp`, `mv`): of a file the script wrote, that file's writes;
        of any other, a file that runs as `source` would (see `written_program`)."""
        looked_up = LOOKED_UP.fullmatch(field.text) if not field.known else None
        if looked_up is not None:  # `cp x "$(which vllm)"`: over the program PATH finds
            field = Field(looked_up[1], True, looked_up[1], field.line)
        if not writable(field):
            return
        if read_at_start(field.text):  # `>> ~/.bashrc`, `> .git/hooks/post-checkout`
            self.problem(field.line, f"writes {field.text[:80]}, which programs started later "
                         "read commands from")  # fmt: skip
        if python_startup_file(field.text):  # every Python started later runs it
            self._python_startup(field, source, heredoc_of, scope, exp)
        key = file_key(field.text)
        if key in self.ran_unwritten:  # `bash < /tmp/fifo & ... > /tmp/fifo`
            ran = self.at(self.ran_unwritten[key])
            self.problem(field.line, f"writes {field.text[:80]}, which the script runs at line "
                         f"{ran} while it may still be reading it")  # fmt: skip
        if key in self.startup_files:
            self._writes_startup_file(field.text, self.startup_files[key])
        if source is not None:
            of = file_key(source.text)
            if of not in self.writes:  # a copy of a copy is one of the first file
                self.copies[key] = self.copies.get(of, source)
                self._name_written(field.text)  # (`cp x /usr/local/bin/x`, then `x`)
                return
            self.writes[key] = self.writes.get(key, 0) + self.writes[of]
            self._name_written(field.text)
            if of in self.written_docs:
                self.written_docs[key] = self.written_docs[of]
            return
        self.writes[key] = self.writes.get(key, 0) + 1
        self._name_written(field.text)
        if heredoc_of is not None:
            doc = self.sources[-1].heredocs[heredoc_of.heredocs[-1]]
            expands = not doc.quoted and any(mark in doc.body for mark in ("$", "`", "\\"))
            self.written_docs[key] = (doc.body, doc.line + 1, expands)

    def _python_startup(
        self,
        field: Field,
        source: Field | None,
        heredoc_of: Simple | None,
        scope: Scope,
        exp: Expander,
    ) -> None:
        """A `sitecustomize.py`, `usercustomize.py` or `.pth` file written: every Python that
        starts afterwards with it on its path runs it. A copy runs the file it copies, a file
        run by name. A heredoc that expands nothing is read as an inline Python program is: the
        commands it hands to the system (and the checks scan the heredoc). Anything else
        written (expanded text, a command's output, a copy of a file the script wrote) is code
        signoff does not read: the reading is incomplete."""
        key = file_key(source.text) if source is not None else ""
        if source is not None and key not in self.writes:
            command = f"cp {source.text} {field.text}"[:200]
            self.runs_file(source, field.line, scope, command)
            return
        if heredoc_of is not None:
            doc = self.sources[-1].heredocs[heredoc_of.heredocs[-1]]
            if doc.quoted or not any(mark in doc.body for mark in ("$", "`", "\\")):
                self._python_commands(doc.body, {}, heredoc_of, scope, exp)
                return
        self.problem(field.line, f"writes {field.text[:80]}, Python code every Python started "
                     "later runs, which signoff does not read")  # fmt: skip

    def written_program(
        self, argv: list[Field], node: Simple, scope: Scope, exp: Expander, prefix: dict[str, str]
    ) -> None:
        """Read the program a shell or Python runs from a file the script wrote (a heredoc as it
        stands), or from a here-string; a file written otherwise, written more than once or run
        by another interpreter, or a here-string known only at run time, is a problem. What
        runs a file the script did not write is left to the hook (a file run by name)."""
        if not node.streams and self.stdin_text is None and not self._may_run_written(argv[0]):
            return  # nearly every command
        word = script_file_word(argv, heredoc=bool(node.heredocs))
        if argv[0].known and "/" in argv[0].text and file_key(argv[0].text) in self.writes:
            word = argv[0]  # the written file is the program (`/usr/bin/dash -c` after writing it)
        by_name = word is None and argv[0].known and argv[0].text in self.written_names
        if by_name:  # `r.sh` found on a PATH the script points at the directory it wrote
            word = argv[0]
        if word is None:
            return
        if word.text == STDIN and not word.known:
            stdin = [(kind, target) for kind, target in node.streams if kind != "out"]
            if node.heredocs:
                return  # a heredoc is read where it is given (builtins._shell, dispatch)
            fed = self.stdin_from
            if not stdin and self.stdin_text is not None:  # `echo '...' | bash`
                if self.stdin_text:
                    self._run_program(argv, self.stdin_text, 0, node, scope, exp, prefix)
                else:
                    self.problem(node.line, f"{argv[0].text} runs a program piped into it that "
                                 "signoff does not read")  # fmt: skip
                return
            if not stdin and fed is None and self.exec_stdin:  # `exec <<< '...'; bash`
                at = self.at(self.exec_stdin)
                self.problem(node.line, f"{argv[0].text} reads its program from the standard "
                             f"input `exec` replaced at line {at}")  # fmt: skip
                return
            if not stdin and fed is None:
                return
            if not stdin and fed is not None:  # `cat f | bash`
                kind, fields = "in", [Field(fed, True, "", node.line)]
            else:
                kind, target = stdin[-1]
                fields = exp.fields(target.raw, target.offset, target.line)
                if target.raw.startswith("<(") and self.feeding is not None:  # `< <(cat f)`
                    fields = [Field(self.feeding, True, "", node.line)]
            if kind == "string":
                self._here_string(argv, fields, node, scope, exp, prefix)
                return
            if len(fields) != 1:
                return
            word = fields[0]
            if DESCRIPTOR.match(word.text) and word.text not in STDIN_FILES:  # `bash <&3`
                self.problem(node.line, f"{argv[0].text} runs {word.text[:60]}, a file "
                             "descriptor's text")  # fmt: skip
                return
        if by_name:
            written = [key for key in self.writes if basename(key) == word.text]
        else:
            written = [file_key(word.text)] if file_key(word.text) in self.writes else []
            if not written and self.moved:  # after `cd`, `r.sh` and `/tmp/r.sh` may be one file
                written = [key for key in self.writes if basename(key) == basename(word.text)]
        if not written:
            if word.known and writable(word):  # a later write may be what it reads (a fifo, `&`)
                self.ran_unwritten.setdefault(file_key(word.text), node.line)
            copied = self.copies.get(file_key(word.text))
            if copied is None and by_name:  # `cp tools/x /usr/local/bin/x; x`
                named = (src for key, src in self.copies.items() if basename(key) == word.text)
                copied = next(named, None)
            if copied is not None:  # `cp notes.txt /tmp/r.sh; bash /tmp/r.sh`: notes.txt runs
                self.runs_file(copied, node.line, scope, " ".join(f.text for f in argv)[:200])
            return
        doc = next((self.written_docs[t] for t in written if t in self.written_docs), None)
        if doc is not None and not doc[2] and sum(self.writes[t] for t in written) == 1:
            self._run_program(argv, doc[0], doc[1], node, scope, exp, prefix)
            return
        self._runs_written(word.text, node.line)

    def _runs_written(self, path: str, line: int) -> None:
        self.problem(line, f"runs {path}, which the script writes when it runs")

    def _here_string(
        self,
        argv: list[Field],
        fields: list[Field],
        node: Simple,
        scope: Scope,
        exp: Expander,
        prefix: dict[str, str],
    ) -> None:
        """A here-string the command reads as its program: read when known, else a problem."""
        if all(f.known for f in fields):
            text = " ".join(f.text for f in fields) + "\n"
            self._run_program(argv, text, 0, node, scope, exp, prefix)
        else:
            self.problem(node.line, f"{argv[0].text} runs a here-string known only at run time")

    def _may_run_written(self, head: Field) -> bool:
        """Whether a command starting with `head` may run a file the script wrote or copied, or
        will write later: a path, a word known only at run time, an interpreter or wrapper, or
        a written name."""
        if not head.known or "/" in head.text:
            return True
        name = head.text
        if name in _FILE_RUNNERS or PYTHON.fullmatch(name):
            return True
        return name in self.written_names

    def _remote_stdin(self, argv: list[Field], node: Simple, scope: Scope, exp: Expander) -> bool:
        """`ssh HOST bash -s < F`, `ssh HOST <<< 'CMD'`: the remote shell reads its script from
        ssh's standard input. A here-string known here is read as that script; a file is run
        by name (one the script wrote makes the reading incomplete). False: ssh's input is not
        a shell's script, or not redirected here."""
        stdin = [(kind, word) for kind, word in node.streams if kind != "out"]
        if not stdin:
            return False
        remote = shell_string_of(argv)
        if remote is not None:
            words = remote.text.split() if remote.known else []
            shell = bool(words) and basename(words[0]) in INTERPRETERS
            if not shell or any(w.startswith("-") and "c" in w[1:] for w in words[1:]):
                return False
            if any(not w.startswith("-") for w in words[1:]):
                return False  # it runs a file of the remote host
        kind, target = stdin[-1]
        fields = exp.fields(target.raw, target.offset, target.line)
        if kind == "string":  # the remote shell's script
            self._here_string(argv, fields, node, scope, exp, {})
            return True
        for field in fields:
            if file_key(field.text) in self.writes:
                self._runs_written(field.text, node.line)
            self.runs_file(field, node.line, scope, " ".join(f.text for f in argv)[:200])
        return True

    def _other_language(self, argv: list[Field], node: Simple, scope: Scope) -> None:
        """A program in a language signoff does not read (other_languages): given inline, the
        reading is incomplete; a program file is a file run by name, and one the script wrote
        or a URL (deno runs what it serves) makes the reading incomplete too."""
        inline, file = other_program(argv)
        if inline:
            self.problem(node.line, f"{inline} runs a program signoff does not read")
            return
        if file is None:
            return
        if "://" in file.text:  # `deno run https://...`: what the URL serves when it runs
            self.problem(node.line, f"{basename(argv[0].text)} runs a program fetched from "
                         f"{file.text[:120]}, which signoff does not read")  # fmt: skip
            return
        if file_key(file.text) in self.writes:
            self._runs_written(file.text, node.line)
        self.runs_file(file, node.line, scope, " ".join(f.text for f in argv)[:200])

    def _run_program(
        self,
        argv: list[Field],
        body: str,
        first_line: int,
        node: Simple,
        scope: Scope,
        exp: Expander,
        prefix: dict[str, str],
    ) -> None:
        """Read `body` as the program the command runs. `first_line`: its first line's number
        when it is the script's own text (a heredoc); 0 for text the script builds (what
        echo prints, a here-string), whose commands all report the command's line, so one
        text run a thousand times is parsed once."""
        kind = program_kind(argv, body)
        if kind == "shell":
            self.run_text(body, scope.copy(), node.line, subshell=True, first_line=first_line)
        elif kind == "python":
            self._python_commands(body, prefix, node, scope, exp)
        else:
            self.problem(node.line, "runs a program the script writes, in a language signoff "
                         "does not read")  # fmt: skip

    # --- records ----------------------------------------------------------------------------------

    def _remote_script(self, node: Simple, scope: Scope) -> None:
        """Read the heredoc a login shell on another host runs as its script, as written when
        nothing in it expands here; an expanding one makes the reading incomplete."""
        doc = self.sources[-1].heredocs[node.heredocs[-1]]
        if doc.quoted or not any(mark in doc.body for mark in ("$", "`", "\\")):
            self.run_text(doc.body, scope.copy(), node.line, subshell=True, first_line=doc.line + 1)
        else:
            self.problem(node.line, "ssh runs an expanding heredoc as its script")

    def _python_commands(
        self,
        program: str,
        prefix: dict[str, str],
        node: Simple,
        scope: Scope,
        exp: Expander,
        handed: Sequence[Field] = (),
    ) -> None:
        """Read the command lines an inline Python program hands to the system, each as `sh -c`
        reads it, in a scope of their own (a child process changes none of the script's).
        `handed`: the program's arguments (`sys.argv[1:]`)."""
        self._inline_program_files(program, node.line, scope, handed)
        found = python_commands(program)
        for path in found.writes:  # `open('/tmp/r.sh', 'w')`: a file the script writes
            self.wrote(Field(path, True, "", node.line), None, scope=scope, exp=exp)
        if found.unknown:
            self.problem(node.line, "python -c runs a command known only at run time")
        for text in found.lines:
            shell = [Field(w, True, "", node.line) for w in ("sh", "-c", text)]
            self.dispatch(shell, prefix, node, scope.copy(), exp, functions=False)

    def _inline_program_files(
        self, program: str, line: int, scope: Scope, handed: Sequence[Field]
    ) -> None:
        """The files an inline program imports by a dotted name or names as a program
        (python_files), counted as files of its first path entry, the working directory:
        exactly those paths (an absolute path is no checkout file). A directory it puts on
        its import path is an entry too: every module there counts, as for `PYTHONPATH`."""
        shown = [Field(f"python3 -c {program[:120]!r}", True, "", line)]
        paths = tuple(p for p in inline_program_files(program) if not p.startswith("/"))
        if paths:  # (one record per place and program; bounded as every first entry is)
            self._first_path_entry(Field(".", True, "", line), shown, line, scope, paths)
        for entry in inline_path_entries(program):  # `sys.path.insert(0, "tools")`
            if isinstance(entry, str):
                self._first_path_entry(Field(entry, True, "", line), shown, line, scope)
            elif entry <= len(handed):  # `sys.path.insert(0, sys.argv[1])`
                self._first_path_entry(handed[entry - 1], shown, line, scope)

    def _record_ran(self, node: Simple, scope: Scope) -> None:
        """A simple command of the script's own text that runs, by where it starts (commands
        read from strings (`eval`, `bash -c`) have no place in the text)."""
        if self.sources[-1] is not self.parsed:
            return
        first = node.assigns or node.words  # assignments come before the command's words
        if not first:
            return
        reach, why = reach_of(scope)
        self.records.note_ran(first[0].offset, node.line, reach, why)

    def _record_heredocs(self, node: Simple, scope: Scope) -> None:
        if not node.heredocs:
            return
        reach, why = reach_of(scope)
        for index in node.heredocs:
            doc = self.sources[-1].heredocs[index]
            lines = self.sources[-1].text.splitlines()
            command = lines[doc.line - 1] if 0 < doc.line <= len(lines) else ""
            target = WRITES_HEREDOC.search(command)
            if target is not None:  # `cat > config.yaml <<EOF`: a file the script writes
                self.written[basename(target[1])] = doc.body
            self.records.of(HEREDOCS).append(
                HeredocUse(
                    line=self.at(doc.line), delimiter=doc.delimiter, body=doc.body,
                    reach=reach, why=why,
                )
            )  # fmt: skip

    # --- assignments ------------------------------------------------------------------------------

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
        self._sets(name, value, word.raw, word.line, scope)
        if name in self.integers:  # `declare -i X; X=1+1`: bash stores the arithmetic's value
            number = exp.evaluated(value.text) if value.known and not append else None
            value = Text(str(number)) if number is not None and not index else unknown(f"${name}")
            index, append = None, False
        if index:
            at = word.offset + match.start(2) + 1  # where the subscript's text starts
            scope.put(name, self._element(exp, current, index[1:-1], at, value, word.line))
        elif append:
            scope.put(name, _appended(current, value, name))
        else:
            scope.put(name, value)
        return name

    def _element(
        self, exp: Expander, current: Value | None, index: str, at: int, value: Text, line: int
    ) -> Value:
        array = current if isinstance(current, Array) else Array()
        key_text = exp.value(index, at)
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

    # --- loops and case (called by the evaluator) -------------------------------------------------

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
            if known and wildcards.matches_everything(glob):
                return True
            matched = wildcards.match(glob, subject.text) if known and subject.known else None
            result = either(result, matched)
            if result is True:
                return True
        return result

    # --- conditions -------------------------------------------------------------------------------

    def _double_bracket(self, node: Simple, exp: Expander, scope: Scope) -> Tri:
        words = node.words[1:]
        if not words or words[-1].raw != "]]":
            self.problem(node.line, "[[ without ]]")
            return None
        return DoubleBracket(
            [(w.raw, w.offset) for w in words[:-1]], exp, _is_set(self, scope)
        ).evaluate()


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


def _changed_directories(before: tuple[str, ...], operands: list[Field]) -> tuple[str, ...]:
    """The directories `cd`/`pushd` OPERANDS go to from each of `before`, as resolved (run-time
    parts as written); a relative one is joined to each directory known before. () when the
    target is not named (`cd`, `cd -`)."""
    target = next((w for w in operands if not (w.known and w.text.startswith(("-", "+")))), None)
    if target is None or not target.text or target.text == "-":
        return ()
    text = target.text
    if not before or text.startswith(("/", "$", "~")):
        return (text,)
    return tuple(dict.fromkeys(posixpath.normpath(f"{d}/{text}") for d in before))


def _value_text(scope: Scope, name: str) -> str | None:
    """What `name` may hold, each known text on its own line (no hook is asked: this only
    looks for code arithmetic would run, see `_evaluated_names`)."""
    texts = [
        option.value.text
        for option in scope.options(name)
        if isinstance(option.value, Text)
        and option.value.known
        and option.value is not FROM_ENVIRONMENT
    ]
    return "\n".join(texts) or None


def _here_string_value(node: Simple, exp: Expander) -> Text | None:
    """The command's last here-string (`<<< WORD`), expanded; None when it has none."""
    words = [word for kind, word in node.streams if kind == "string"]
    return exp.value(words[-1].raw, words[-1].offset) if words else None
