"""The benchmark layer's hook into the shell reader: what the programs a benchmark script runs are.

The shell reader (parse/shell) follows bash; what it cannot follow, an external program, it hands
to this hook. A server launch (`vllm serve`, `python3 -m sglang.launch_server`, behind wrappers)
is read with its flags, the `--config` YAML it reads and the exported environment it gets; a
benchmark client (the library's function, or its program run by python) is read with its
arguments; a command that runs a script file is listed as not read; anything else is kept as a
plain command. Sourcing a benchmark library (by base name, from the profile) defines the client
functions, whose bodies run outside the script.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from signoff.parse.benchmark.launch import (
    Arg,
    ClientCall,
    EnvChoice,
    ServerLaunch,
    ShellCommand,
)
from signoff.parse.benchmark.launch_config import config_args, merged
from signoff.parse.benchmark.launch_read import (
    NOT_RUNNING,
    after_prefix,
    launcher_word,
    read_args,
    read_launch,
)
from signoff.parse.benchmark.script_text import MAX_LINE
from signoff.parse.shell.containers import container_image
from signoff.parse.shell.environment_runners import uv_list_files
from signoff.parse.shell.fields import Field, of_pieces
from signoff.parse.shell.reader import EXTERNAL, WRITES_HEREDOC
from signoff.parse.shell.records import (
    CONTAINERS,
    LOCAL_INSTALLS,
    SCRIPT_FILES,
    Kind,
    ScriptFileRun,
    reach_of,
)
from signoff.parse.shell.script_files import (
    basename,
    code_operands,
    conda_packages,
    dotted_files,
    known_name,
    launched_module_files,
    local_projects,
    package_list_files,
    project_files,
    project_installs,
    python_module_files,
    script_file_word,
    system_packages,
)
from signoff.parse.shell.values import FROM_ENVIRONMENT, Array, Scope, Text, directories

if TYPE_CHECKING:
    from signoff.parse.shell.simple import SimpleCommands

DEFAULT_LIBRARIES = ("benchmark_lib.sh",)  # sourced by every benchmark script
LAUNCHES: Kind[ServerLaunch] = Kind("launches")
CLIENTS: Kind[ClientCall] = Kind("clients")
COMMANDS: Kind[ShellCommand] = Kind("commands")
_PYTHON = re.compile(r"python(?:3(?:\.\d+)?)?")
# vLLM's and SGLang's flags-from-YAML option, and the prefixes argparse may take for it
_CONFIG_FLAG = re.compile(r"--conf(?:i|ig)?")
# vLLM's and SGLang's flags whose value is a dotted name of Python code the engine imports (a
# module, or a class or function in one); some take several.
_MODULE_LIST_FLAGS = frozenset({"--logits-processors", "--middleware", "--custom-weight-loader"})
_MODULE_FLAGS = _MODULE_LIST_FLAGS | {
    "--worker-cls", "--worker-extension-cls", "--scheduler-cls", "--distributed-executor-backend"
}  # fmt: skip
# vLLM's flags whose value is a Python file the engine imports (a tool or reasoning parser), or
# a logging configuration it hands Python's dictConfig, whose handlers, filters and formatters
# may name any callable to import and call (`"()": "os.system"`); argparse takes an
# abbreviation of the last (`--log-config`).
_CODE_FILE_FLAGS = frozenset({"--tool-parser-plugin", "--reasoning-parser-plugin"})
_LOG_CONFIG_FLAG = "--log-config-file"
_LOG_CONFIG_SHORTEST = len("--log-c")
# JSON-valued flags with a key naming a module to import (a KV connector of its own).
_MODULE_JSON_FLAGS = frozenset({"--kv-transfer-config"})
_MODULE_KEY = re.compile(r'"kv_connector_module_path"\s*:\s*"([A-Za-z_][\w.]*)"')
_FILE_EXTENSION = re.compile(r"[^./]\.[A-Za-z][A-Za-z0-9]{0,7}$")  # `t.jinja`, `s.yaml`
# An inline JSON value read for the paths it names: at most this long, this many strings.
_JSON_CHARS = 65_536
_JSON_STRINGS = 256
_CONFIG_USE = re.compile(r"--conf(?:i|ig)?(?:=|\s+)\S+")


@dataclass(frozen=True)
class BenchmarkCommands:
    """The `CommandHook` for benchmark scripts. `clients`: the benchmark client's names (a
    library function, or a `.py` program python runs); `libraries`: base names of the library
    files scripts source, which are not read (their functions are the clients)."""

    clients: frozenset[str]
    libraries: frozenset[str] = frozenset(DEFAULT_LIBRARIES)

    def library_functions(self, name: str) -> Iterable[str] | None:
        return self.clients if name in self.libraries else None

    def client(self, reader: SimpleCommands, argv: list[Field], scope: Scope) -> bool:
        if (argv[0].text if argv[0].known else "") not in self.clients:
            return False
        reach, why = reach_of(scope)
        args = tuple(read_args(argv[1:]))
        line = reader.at(argv[0].line)
        reader.records.of(CLIENTS).append(
            ClientCall(command=argv[0].text, args=args, line=line, reach=reach, why=why)
        )
        return True

    def external(
        self,
        reader: SimpleCommands,
        argv: list[Field],
        prefix: dict[str, str],
        scope: Scope,
        *,
        heredoc: bool = False,
    ) -> None:
        reach, why = reach_of(scope)
        program = _client_program(argv, self.clients)
        if program:  # `python3 .../benchmark_serving.py ...`: the benchmark process itself
            reader.records.of(CLIENTS).append(ClientCall(
                command=program, args=tuple(read_args(argv[2:])), line=reader.at(argv[0].line),
                reach=reach, why=why,
            ))  # fmt: skip
        launch = read_launch(argv, lambda: {**_exported(scope), **prefix}, reach, why)
        if launch is not None:
            launcher = launcher_word(argv)
            plain = launcher is not None and launcher.known and "/" not in launcher.text
            if launcher is not None and not plain and known_name(launcher):  # `./bin/vllm`
                reader.records.of(SCRIPT_FILES).append(ScriptFileRun(
                    command=" ".join(f.text for f in argv)[:200], word=launcher.text,
                    name=known_name(launcher), line=reader.at(argv[0].line), reach=reach, why=why,
                    directories=directories(scope),
                ))  # fmt: skip
            for file in _imported_code(argv):  # `--worker-cls mymod.W`: the engine imports it
                reader.records.of(SCRIPT_FILES).append(ScriptFileRun(
                    command=" ".join(f.text for f in argv)[:200], word=file.text,
                    name=known_name(file), line=reader.at(argv[0].line), reach=reach, why=why,
                ))  # fmt: skip
            update: dict[str, object] = {"env_undecided": _exported_undecided(scope, prefix)}
            if reader.line_base[-1]:
                update["line"] = reader.line_base[-1]
            update.update(self._launch_files(reader, launch, argv))
            reader.records.of(LAUNCHES).append(launch.model_copy(update=update))
            return
        if basename(argv[0].text) in NOT_RUNNING and argv[0].text not in ("sed", "tee", "cat"):
            if argv[0].known and argv[0].text in EXTERNAL:  # a file found on PATH
                reader.runs_file(argv[0], argv[0].line, scope, " ".join(f.text for f in argv)[:200])
            return
        words = tuple(field.text for field in argv)
        line = reader.at(argv[0].line)
        running = basename(argv[0].text) not in NOT_RUNNING
        runs = script_file_word(argv, heredoc=heredoc) if running else None
        listed = [runs] if runs is not None else []
        listed += package_list_files(argv) if running else []  # `pip install -r x.txt`
        listed += uv_list_files(argv) if running else []  # `uv run --with-requirements x.txt`
        listed += code_operands(argv, listed) if running else []  # `snakemake -s x.py`
        listed += python_module_files(argv) if running else []  # `python3 -m tools.x`
        listed += launched_module_files(argv) if running else []  # `torchrun -m tools.x`
        where = directories(scope) if runs is not None else ()  # where a relative one lies
        for file in listed:  # its text is not read: the checks decide what that may hide
            reader.records.of(SCRIPT_FILES).append(ScriptFileRun(
                command=" ".join(words)[:MAX_LINE], word=file.text, name=known_name(file),
                line=line,
                reach=reach, why=why, origin=reader.origin(argv[0].line),
                directories=where if file is runs else (),
            ))  # fmt: skip
        installed = (
            [
                *local_projects(argv),
                *project_installs(argv),
                *system_packages(argv),
                *conda_packages(argv),
            ]
            if running
            else []
        )
        root_files = project_files(argv) if installed else ()
        for project in installed:  # `pip install ./pkg`, `apt install ./x.deb`
            reader.records.of(LOCAL_INSTALLS).append(ScriptFileRun(
                command=" ".join(words)[:MAX_LINE], word=project.text, name="", line=line,
                reach=reach, why=why, origin=reader.origin(argv[0].line),
                directories=directories(scope), root_files=root_files,
            ))  # fmt: skip
        image = container_image(argv) if running else None  # `docker run IMAGE bash -c ...`
        if image is not None:
            reader.records.of(CONTAINERS).append(ScriptFileRun(
                command=" ".join(words)[:MAX_LINE], word=image.text, name="", line=line,
                reach=reach, why=why, origin=reader.origin(argv[0].line),
            ))  # fmt: skip
        command = ShellCommand.model_construct(argv=words, line=line, reach=reach, why=why)
        reader.records.of(COMMANDS).append(command)

    def _launch_files(
        self, reader: SimpleCommands, launch: ServerLaunch, argv: list[Field]
    ) -> dict[str, object]:
        """What the launch reads of the files the PR changed: a vLLM/SGLang `--config` YAML
        read as its flags (the command line winning), any other file it names listed in
        `reads`; a config that cannot be read is a problem naming it."""
        reads: dict[tuple[str, str], None] = {}
        from_file: list[Arg] = []
        line = reader.at(launch.line)
        for flag, word in _valued_words(launch, argv):
            files = reader.files
            paths = files.resolve(word, reader.reading[-1], under=True)[1] if files else ()
            if not paths and word.known:
                paths = _from_unknown_directory(reader, word.text)
            if not paths and not word.known and reader.files is not None:
                paths = reader.files.mentioned(word.text)  # `"$(cat x/spec.json)"`: read now
                for path in paths:
                    reads.setdefault((flag, path), None)
                continue
            written = reader.written.get(basename(word.text)) if word.known else None
            is_config = _CONFIG_FLAG.fullmatch(flag) and launch.engine in ("vllm", "sglang")
            if not paths and is_config and written is None and word.known:
                why = _written_otherwise(reader, word.text)
                if why:
                    reader.problem(line, f"the launch reads {word.text} ({flag}), {why}")
                continue
            if not paths and written is not None and is_config:  # the heredoc it wrote
                args, why = config_args(written, line)
                if why:
                    reader.problem(line, f"the launch reads {word.text} ({flag}), written by the "
                                 f"script, and it cannot be read: {why}")  # fmt: skip
                from_file.extend(args)
                continue
            for path in paths:
                config = _CONFIG_FLAG.fullmatch(flag) and launch.engine in ("vllm", "sglang")
                if not config or path != paths[0] or len(paths) > 1:
                    reads.setdefault((flag, path), None)
                    continue
                assert reader.files is not None
                text, why = reader.files.text(path)
                args, why = config_args(text, line) if text is not None else ((), why)
                if why:
                    reader.problem(line, f"the launch reads {path} ({flag}), which this PR "
                                 f"changes, and it cannot be read: {why}")  # fmt: skip
                reader.note(f"line {line} reads the flags of {path} (this PR changes it)")
                from_file.extend(args)
                for arg in args:  # its values are read as the command line's would be
                    if arg.value is None or not arg.known:
                        continue
                    value = Field(arg.value, True, arg.value, arg.line)
                    named = reader.files.resolve(value, reader.reading[-1], under=True)[1]
                    for named_path in named or _from_unknown_directory(reader, arg.value):
                        reads.setdefault((arg.flag, named_path), None)
        update: dict[str, object] = {"reads": tuple(reads)}
        if from_file:
            update["args"] = merged(launch.args, tuple(from_file))
        return update


def _imported_code(argv: list[Field]) -> list[Field]:
    """The files of the Python code a launch's flags make the engine import, by dotted name
    (`--worker-cls mymod.W`, `--logits-processors a.LP b.LP`, a `--kv-transfer-config` whose
    `kv_connector_module_path` names a module) or by path (`--tool-parser-plugin p.py`); a
    flag's `_` spelling is its `-` one."""
    found: list[Field] = []
    for index, field in enumerate(argv):
        shown = field.text if field.known else field.prefix  # `--worker-cls="$CLS"` too
        if not shown.startswith("--"):
            continue
        flag, eq, _ = shown.partition("=")
        value = field.text[len(flag) + 1 :]
        flag = flag.replace("_", "-")
        if flag in _CODE_FILE_FLAGS or _is_log_config(flag):
            given = _equals_value(field, len(flag) + 1) if eq else _next_value(argv, index)
            found += [given] if given is not None else []
        elif flag in _MODULE_FLAGS:
            if eq:
                values = [_equals_value(field, len(flag) + 1)]
            else:
                values = list(itertools.takewhile(_not_an_option, argv[index + 1 :]))
                values = values if flag in _MODULE_LIST_FLAGS else values[:1]
            for one in values:
                found += dotted_files(one)
        elif flag in _MODULE_JSON_FLAGS:
            text = value if eq else (argv[index + 1].text if index + 1 < len(argv) else "")
            for module in _MODULE_KEY.findall(text):
                found += dotted_files(Field(module, True, module, field.line))
    return found


def _is_log_config(flag: str) -> bool:
    return len(flag) >= _LOG_CONFIG_SHORTEST and _LOG_CONFIG_FLAG.startswith(flag)


def _equals_value(field: Field, cut: int) -> Field:
    """The value of `--flag=VALUE` in one word, known or not."""
    parts = tuple(field.parts) if field.parts else ()
    return Field(field.text[cut:], field.known, "", field.line, after_prefix(parts, cut))


def _next_value(argv: list[Field], index: int) -> Field | None:
    following = argv[index + 1] if index + 1 < len(argv) else None
    return following if following is not None and _not_an_option(following) else None


def _not_an_option(word: Field) -> bool:
    return not word.text.startswith("-")


def _from_unknown_directory(reader: SimpleCommands, text: str) -> tuple[str, ...]:
    """The changed files a relative path may name once the script has changed directory
    (`cd`): any whose path ends with it. Only values spelled as paths (a `/` or a file
    extension) count: `fp8`, `8` or `auto` name no file."""
    if not reader.moved or reader.files is None or text.startswith(("/", "-", "{", "[")):
        return ()
    if "/" not in text and not _FILE_EXTENSION.search(text):
        return ()
    return reader.files.anywhere(text)


def _written_otherwise(reader: SimpleCommands, path: str) -> str:
    """Why a `--config` file that is neither a changed repository file nor written from a
    heredoc cannot be trusted ("" when the script never names it but to pass it): the
    script names it elsewhere, so it may write or copy it (`echo ... > x.yaml`)."""
    name = basename(path)
    if not name:
        return ""
    token = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])")
    for text in dict.fromkeys(source.text for source in reader.sources):
        for line in text.splitlines():
            rest = _CONFIG_USE.sub(" ", line)  # its uses as a --config value
            if not token.search(rest) or line.lstrip().startswith("#"):
                continue
            if WRITES_HEREDOC.search(rest) and "<<" in rest:
                continue
            return (f"which the script also names at run time ({line.strip()[:80]}), so it "
                    "may write it in a way signoff does not read")  # fmt: skip
    return ""


def _exported(scope: Scope) -> dict[str, str]:
    env: dict[str, str] = {}
    for name in sorted(scope.exported_names()):
        options = scope.options(name)
        value = options[0].value if len(options) == 1 else None
        if isinstance(value, Text) and value is not FROM_ENVIRONMENT:
            env[name] = value.text
    return env


def _exported_undecided(scope: Scope, prefix: dict[str, str]) -> tuple[EnvChoice, ...]:
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


def _valued_words(launch: ServerLaunch, argv: list[Field]) -> Iterator[tuple[str, Field]]:
    """(flag, the word of its value) for each valued flag of the launch's words, and the
    positional model as "(model)" (known or not: `"$(dirname "$0")/dir"` names a directory the
    PR may add, as the same word after `--model` does)."""
    for index, field in enumerate(argv):
        text = field.text
        if launch.model is not None and text == launch.model:
            yield "(model)", field
        if not text.startswith("--") or len(text) < 3:
            continue
        flag, eq, _ = text.partition("=")
        given = _equals_value(field, len(flag) + 1) if eq else _next_value(argv, index)
        if given is None:
            continue
        values = [given]
        if not eq:  # `--lora-modules a=./x b=./y`: a list of NAME=PATH items
            values += _named_items(argv, index + 2) if _NAMED_ITEM.match(given.text) else []
        for value in values:
            yield flag, value
            named = _NAMED_ITEM.match(value.text)
            if named is not None:  # `a=./lora`: the adapter named `a` is read from ./lora
                yield flag, _equals_value(value, named.end())
            for path in _json_strings(value):  # `--speculative-config '{"model": "./d"}'`
                yield flag, path


# A `NAME=PATH` item of a flag's value (LoRA adapters: vLLM's `--lora-modules`, SGLang's
# `--lora-paths`).
_NAMED_ITEM = re.compile(r"[A-Za-z0-9_.-]+=")


def _named_items(argv: list[Field], start: int) -> list[Field]:
    """The further `NAME=PATH` items of a flag that takes several (`a=./x b=./y`)."""
    found: list[Field] = []
    for word in argv[start:]:
        if not _not_an_option(word) or not _NAMED_ITEM.match(word.text):
            break
        found.append(word)
    return found


# Stand-ins for a JSON value's run-time pieces while it is parsed: private-use characters,
# which a JSON string may hold and a script's own text does not.
_PIECE_OPEN, _PIECE_CLOSE = "\ue000", "\ue001"
_PIECE = re.compile(f"{_PIECE_OPEN}([0-9]+){_PIECE_CLOSE}")


def _json_strings(word: Field) -> list[Field]:
    """The strings of a JSON object given inline as a flag's value (a speculative config's
    draft `model` may be a directory the PR adds); none for any other value. A run-time piece
    inside a string stays one (`"model": "$(dirname "$0")/draft"` names `draft` there, as the
    same word given alone would)."""
    if not word.text.lstrip().startswith("{") or len(word.text) > _JSON_CHARS:
        return []
    pieces = tuple(word.parts) if not word.known and word.parts else ((word.text, True),)
    marked = "".join(
        text if known else f"{_PIECE_OPEN}{i}{_PIECE_CLOSE}"
        for i, (text, known) in enumerate(pieces)
    )
    try:
        found = [json.loads(marked)]
    except ValueError:
        return []
    strings: list[str] = []
    while found and len(strings) < _JSON_STRINGS:
        value = found.pop()
        if isinstance(value, dict):
            found += value.values()
        elif isinstance(value, list):
            found += value
        elif isinstance(value, str):
            strings.append(value)
    return [_unmarked(text, pieces, word.line) for text in sorted(strings)]


def _unmarked(text: str, pieces: tuple[tuple[str, bool], ...], line: int) -> Field:
    """A JSON string as a field: known, or with its run-time pieces put back."""
    if _PIECE_OPEN not in text:
        return Field(text, True, text, line)
    parts: list[tuple[str, bool]] = []
    at = 0
    for match in _PIECE.finditer(text):
        if match.start() > at:
            parts.append((text[at : match.start()], True))
        index = int(match[1])
        parts.append((pieces[index][0] if index < len(pieces) else "", False))
        at = match.end()
    if at < len(text):
        parts.append((text[at:], True))
    return of_pieces(parts, line)


def _client_program(argv: list[Field], clients: frozenset[str]) -> str:
    """The client program (a name with a `.py` suffix among `clients`) that python runs here
    (`python3 .../benchmark_serving.py`), else ""."""
    if len(argv) < 2 or not argv[0].known or not _PYTHON.fullmatch(basename(argv[0].text)):
        return ""
    program = known_name(argv[1])  # `"$(pwd)/utils/.../benchmark_serving.py"` names it too
    return program if program.endswith(".py") and program in clients else ""
