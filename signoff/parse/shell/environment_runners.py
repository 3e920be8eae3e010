"""The command an environment runner starts: `uv run [options] CMD ARGS`, `poetry run CMD`,
`pdm run`, `pipenv run`, `hatch run [ENV:]CMD`, `rye run`, `pixi run`, `conda run -n ENV CMD`.

Each runs its command in the environment it manages, on this host, as a wrapper does; the
command is read as if written alone. The runner's own options are known per tool: one the
reader does not know may take the next word as its value or not, so where the command starts
is not known and the line cannot be read. Nothing is executed here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from signoff.parse.shell.fields import Field
from signoff.parse.shell.script_files import (
    WRAPPERS,
    basename,
    behind_wrappers,
    command_index,
    runs_elsewhere,
)


@dataclass(frozen=True, slots=True)
class _Runner:
    values: frozenset[str]  # options whose value is the next word (or joined: `--opt=V`)
    flags: frozenset[str]  # options that take none
    letters: str = ""  # short flags that may be repeated in one word (`-qq`, `-vvv`)
    directory: frozenset[str] = frozenset()  # options moving the command's working directory
    env_files: frozenset[str] = frozenset()  # options naming a file of variables it loads


_HELP = frozenset({"-h", "--help"})
_QUIET_VERBOSE = frozenset({"-q", "--quiet", "-v", "--verbose"})
_UV = _Runner(
    values=frozenset(
        {"--allow-insecure-host", "--trusted-host", "--cache-dir", "--color", "--config-file",
         "--config-setting", "--config-settings", "-C", "--default-index", "--directory",
         "--env-file", "--exclude-newer", "--exclude-newer-package", "--extra",
         "--extra-index-url", "--find-links", "-f", "--fork-strategy", "--group", "--index",
         "--index-strategy", "--index-url", "-i", "--keyring-provider", "--link-mode",
         "--no-binary-package", "--no-build-isolation-package", "--no-build-package",
         "--no-extra", "--no-group", "--only-group", "--package", "--prerelease", "--project",
         "--python", "-p", "--python-platform", "--python-preference", "--refresh-package",
         "--reinstall-package", "--resolution", "--torch-backend", "--upgrade-package", "-P",
         "--with", "--with-editable", "--with-requirements"}
    ),
    flags=_HELP | _QUIET_VERBOSE | frozenset(
        {"--active", "--no-active", "--all-extras", "--all-groups", "--all-packages",
         "--compile-bytecode", "--compile", "--exact", "--frozen", "--gui-script",
         "--isolated", "--locked", "--managed-python", "--native-tls", "--no-binary",
         "--no-build", "--no-build-isolation", "--no-cache", "--no-cache-dir", "-n",
         "--no-config", "--no-default-groups", "--dev", "--no-dev", "--no-editable",
         "--no-env-file", "--no-index", "--no-managed-python", "--no-progress", "--no-project",
         "--no_workspace", "--no-python-downloads", "--allow-python-downloads", "--no-sources",
         "--no-sync", "--offline", "--only-dev", "--refresh", "--reinstall",
         "--force-reinstall", "--upgrade", "-U", "--preview", "--no-preview", "--module",
         "-m", "--script", "-s"}
    ),
    letters="qvn",
    directory=frozenset({"--directory"}),
    env_files=frozenset({"--env-file"}),
)  # fmt: skip
_POETRY = _Runner(
    values=frozenset({"-C", "--directory", "-P", "--project"}),
    flags=_HELP
    | _QUIET_VERBOSE
    | frozenset({"-n", "--no-interaction", "--ansi", "--no-ansi", "--no-plugins", "--no-cache"}),
    letters="qvn",
    directory=frozenset({"-C", "--directory"}),
)
_PDM = _Runner(
    values=frozenset({"-p", "--project", "--venv", "--skip", "-c", "--config"}),
    flags=_HELP
    | _QUIET_VERBOSE
    | frozenset({"-g", "--global", "-s", "--site-packages", "--recreate", "-I", "--ignore-python"}),
    letters="qv",
)
_PIPENV = _Runner(
    values=frozenset({"--python", "--pypi-mirror"}),
    flags=_HELP
    | _QUIET_VERBOSE
    | frozenset({"--site-packages", "--no-site-packages", "--system", "--clear"}),
    letters="qv",
)
_HATCH = _Runner(
    values=frozenset({"-e", "--env", "-p", "--project", "--data-dir", "--cache-dir", "--config"}),
    flags=_HELP
    | _QUIET_VERBOSE
    | frozenset({"--color", "--no-color", "--interactive", "--no-interactive"}),
    letters="qv",
)
_RYE = _Runner(values=frozenset({"--pyproject"}), flags=_HELP | _QUIET_VERBOSE, letters="qv")
_PIXI = _Runner(
    values=frozenset({"--manifest-path", "-e", "--environment", "--color"}),
    flags=_HELP
    | _QUIET_VERBOSE
    | frozenset(
        {
            "--frozen",
            "--locked",
            "--clean-env",
            "--force-activate",
            "--no-install",
            "--revalidate",
            "--skip-deps",
        }
    ),
    letters="qv",
)
_CONDA = _Runner(
    values=frozenset({"-n", "--name", "-p", "--prefix", "--cwd", "-r", "--root-prefix"}),
    flags=_HELP
    | frozenset(
        {
            "-v",
            "--verbose",
            "--dev",
            "--debug-wrapper-scripts",
            "--no-capture-output",
            "--live-stream",
        }
    ),
    letters="v",
    directory=frozenset({"--cwd"}),
)
# Each tool's word that starts its command (`run`), and what it knows of its options.
RUNNERS: dict[str, _Runner] = {
    "uv": _UV,
    "poetry": _POETRY,
    "pdm": _PDM,
    "pipenv": _PIPENV,
    "hatch": _HATCH,
    "rye": _RYE,
    "pixi": _PIXI,
    "conda": _CONDA,
    "mamba": _CONDA,
    "micromamba": _CONDA,
}
_HATCH_ENVIRONMENT = re.compile(r"[A-Za-z0-9_.+-]+:(?=.)")  # `hatch run test:pytest`
_HATCH_FILTER = re.compile(r"\+[A-Za-z0-9_-]+=")  # `hatch run +py=3.12 test:cov`: its own word
# uv's options naming a list of packages to install (requirements, constraints, overrides):
# `uv run --with-requirements F`, `uvx --with-requirements F`, `uv add -r F`, `uv tool install
# --overrides F`. Each may name an engine fork or wheel, and its text is not read.
_UV_LIST_OPTIONS = frozenset(
    {"--with-requirements", "-r", "--requirements", "--requirement", "-c", "--constraints",
     "--constraint", "--overrides", "--override", "--build-constraints", "--build-constraint",
     "-b"}
)  # fmt: skip
# Where a uv command line hands the rest to the program it runs (`uv run CMD`, `uvx TOOL`,
# `uv tool run TOOL`): the list options before it are uv's, those after the program's.
_UV_RUNS = {("uv", "run"), ("uvx",), ("uv", "tool", "run")}


def uv_list_files(argv: Sequence[Field]) -> list[Field]:
    """The package list files a uv command line installs from (`_UV_LIST_OPTIONS`), alone or
    behind wrappers; `uv pip` is pip's grammar and is read as pip is."""
    words = argv[command_index(argv) :]
    if not words or not words[0].known or basename(words[0].text) not in ("uv", "uvx"):
        return []
    path: tuple[str, ...] = (basename(words[0].text),)
    found: list[Field] = []
    i = 1
    while i < len(words):
        word = words[i]
        text = word.text if word.known else word.prefix
        name, joined, value = text.partition("=")
        if name in _UV_LIST_OPTIONS | _UV.values and name.startswith("-"):
            given = Field(value, word.known, "", word.line) if joined else _next(words, i)
            if name in _UV_LIST_OPTIONS and given is not None:
                found.append(given)
            i += 1 if joined else 2
            continue
        if text.startswith("-") or not word.known:
            i += 1
            continue
        if path in _UV_RUNS or path == ("uv", "pip"):
            break  # the program and its arguments; pip's are read as pip's
        path = (*path, text) if len(path) < 3 else path
        i += 1
    return found


@dataclass(frozen=True, slots=True)
class RunnerCommand:
    runner: list[Field]  # the runner's own words, leading wrappers included (`uv run --with x`)
    command: list[Field]  # what it starts, as written alone (`uv run x.py`: `python x.py`)
    directory: Field | None  # where the command runs (`--directory D`); None: here
    env_files: list[Field]  # files it loads variables from (`uv run --env-file F`)
    problem: str  # why the command cannot be read; "" when it can


def environment_run(argv: Sequence[Field]) -> RunnerCommand | None:
    """The command a `TOOL run` line starts on this host, alone or behind wrappers; None when
    the line is no such thing (`uv sync`, `poetry install`, a runner inside a container)."""
    if not argv or not argv[0].known:
        return None
    named = basename(argv[0].text)
    if named not in RUNNERS and named not in WRAPPERS:
        return None  # nearly every command
    start = command_index(argv)
    first = argv[start] if start < len(argv) else None
    if first is None or not first.known:
        return None
    tool = basename(first.text)
    runner = RUNNERS.get(tool)
    if runner is None or runs_elsewhere(argv[:start]):
        return None
    directory: Field | None = None
    env_files: list[Field] = []
    given: set[str] = set()
    running = False
    i = start + 1
    while i < len(argv):
        word = argv[i]
        option = _option(word)
        if running and tool == "hatch" and word.known and _HATCH_FILTER.match(word.text):
            i += 1
            continue
        if not option:
            if running:
                break  # the command
            if not (word.known and word.text == "run"):
                return None  # `uv sync`, `pdm install`, `poetry "$VERB"`: no command started
            running = True
            i += 1
            continue
        if option == "--" and running:
            i += 1
            break
        name, joined, _ = option.partition("=")
        cut = len(name) + 1
        if not option.startswith("--") and len(option) > 2 and option[:2] in runner.values:
            name, joined, cut = option[:2], "=", 2  # `-p3.12`, `-Ckey=v`
        if name in runner.values:
            value = _joined_value(word, cut) if joined else _next(argv, i)
            if value is None:
                return _unread(argv, i, f"{tool} {name} is given no value")
            if name in runner.directory:
                directory = value
            if name in runner.env_files:
                env_files.append(value)
            i += 1 if joined else 2
            continue
        if name in runner.flags or (len(name) > 1 and _repeated(name, runner.letters)):
            given.add(name)
            i += 1
            continue
        where = f"{tool} run" if running else tool
        return RunnerCommand(
            list(argv[: i + 1]), [], directory, env_files,
            f"{where} with an option the reader does not know ({option[:40]}): where the "
            "command it runs starts is not known",
        )  # fmt: skip
    if not running:
        return None
    runner_words, command = list(argv[:i]), behind_wrappers(argv, i)  # `xargs -I{}`'s too
    problem = ""
    if command:
        command, problem = _as_run(tool, command, given, runner_words[-1].line)
    return RunnerCommand(runner_words, command, directory, env_files, problem)


def _option(word: Field) -> str:
    """The word as an option of the runner ("" when it is none): its text, or for a word
    known only at run time that stays one word, its written part (`--directory="$D"`)."""
    if word.known:
        return word.text if word.text.startswith("-") and word.text != "-" else ""
    if word.single and word.prefix.startswith("-") and "=" in word.prefix:
        return word.prefix
    return "-?" if word.prefix.startswith("-") else ""  # an option the reader cannot name


def _repeated(name: str, letters: str) -> bool:
    """`-qq`, `-vvv`: short flags given together."""
    return (
        bool(letters)
        and name.startswith("-")
        and not name.startswith("--")
        and all(c in letters for c in name[1:])
    )


def _joined_value(word: Field, cut: int) -> Field:
    if word.known:
        return Field(word.text[cut:], True, word.text[cut:], word.line)
    return Field(word.text[cut:], False, word.prefix[cut:], word.line)


def _next(argv: Sequence[Field], i: int) -> Field | None:
    return argv[i + 1] if i + 1 < len(argv) else None


def _unread(argv: Sequence[Field], i: int, why: str) -> RunnerCommand:
    return RunnerCommand(list(argv[: i + 1]), [], None, [], why)


def _python(line: int) -> Field:
    return Field("python", True, "python", line)


def _as_run(tool: str, command: list[Field], given: set[str], line: int) -> tuple[list[Field], str]:
    """The command as the shell would run it: `uv run -m M` is `python -m M`, `uv run x.py`
    and `uv run --script x` are `python x.py`, `uv run -` reads Python from standard input;
    hatch's `ENV:CMD` is CMD in that environment. A script given by URL is downloaded."""
    first = command[0]
    text = first.text if first.known else ""
    if tool == "uv" and given & {"-m", "--module"}:
        return [_python(line), Field("-m", True, "-m", line), *command], ""
    if text.startswith(("http://", "https://")):
        return [], f"{tool} run downloads the script {text[:80]}; signoff does not read it"
    if tool == "uv" and (given & {"-s", "--script", "--gui-script"} or text == "-"):
        return [_python(line), *command], ""
    environment = _HATCH_ENVIRONMENT.match(text) if tool == "hatch" else None
    if environment is not None:
        bare = text[environment.end() :]
        command = [Field(bare, True, bare, first.line), *command[1:]]
        text = bare
    if text.endswith(".py"):  # run by Python (uv, pdm, hatch), or by its `#!` line
        return [_python(line), *command], ""
    return command, ""
