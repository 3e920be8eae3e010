"""Recognise a command line that runs a script file (`bash x.sh`, `./x.sh`), which is not read.

Two shapes run a file: an interpreter (`bash`, `sh`, `dash`, `zsh`, or python given a program
file, by any path) given a file operand, or (a shell) none (it then reads standard input:
`bash < x.sh`, `cat x.sh | sh`, whose file
is not followed either; `bash -c` runs a string, which is read elsewhere, and so is a quoted
heredoc fed to `bash`/`sh`); and a command word that is a path (it holds `/` or ends in `.sh`)
or is known only at run time (`$RUNNER`, `"$(dirname "$0")/x.sh"`). Both may stand behind
wrappers (`exec`, `timeout 10`, `env A=1`, `nohup`, `sudo -E`...). Nothing is executed here.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterator, Sequence

from signoff.parse.shell.fields import Field, joined, of_pieces
from signoff.parse.shell.option_commands import OPTION_RUNNERS, option_command
from signoff.parse.shell.scan import ASSIGNMENT
from signoff.parse.shell.values import Text

# Commands that run the command given in their arguments (after their own options).
WRAPPERS = frozenset(
    {"nohup", "exec", "time", "setsid", "env", "stdbuf", "numactl", "taskset", "mpirun",
     "mpiexec", "srun", "timeout", "sudo", "nice", "ionice", "chrt", "flock", "docker", "podman",
     "singularity", "apptainer", "enroot", "torchrun", "xargs", "busybox", "toybox"}
)  # fmt: skip
# Shells whose script, `-c` string or standard input is read as bash reads it (the POSIX
# family: they differ from bash in features a benchmark script does not use).
INTERPRETERS = frozenset(
    {"bash", "sh", "dash", "zsh", "ksh", "ksh93", "mksh", "lksh", "oksh", "pdksh", "ash", "yash",
     "posh", "rbash"}
)  # fmt: skip
# Where a system's own programs live: `/bin/bash -c STR` is bash.
SYSTEM_BIN_DIRS = frozenset({"/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin"})
# Wrappers whose command does not simply run on this host next (see shell_string_behind_wrappers).
_NOT_ON_THIS_HOST = frozenset(
    {"docker", "podman", "singularity", "apptainer", "enroot", "torchrun"}
)
# torchrun's option to run its first operand as a program, not a Python file; its modules.
_NO_PYTHON = frozenset({"--no-python", "--no_python"})
_TORCH_LAUNCHERS = frozenset({"torch.distributed.run", "torch.distributed.launch"})
PYTHON = re.compile(r"python(?:3(?:\.\d+)?)?")  # runs a program file too (`python3 x.py`)
_PYTHON_OPTION_ARGS = frozenset({"-X", "-W", "-Q", "--check-hash-based-pycs"})
STDIN = "(standard input)"  # the word of an interpreter that reads its script from stdin
# `at`/`batch`: a shell runs what they read (standard input, or `-f F`) later.
_AT = frozenset({"at", "batch"})
_MAKE = frozenset({"make", "gmake"})
_COMPOSE = frozenset({"docker-compose", "podman-compose"})
# Programs that run what a file of theirs says, in a language that is not shell (see
# `_reads_commands`).
# Task runners: the options naming their task file, and the file they read by default in the
# working directory (a justfile's recipes, tox's and nox's sessions run commands).
_TASK_FILES: dict[str, tuple[frozenset[str], str]] = {
    "just": (frozenset({"-f", "--justfile"}), "justfile"),
    "tox": (frozenset({"-c", "--conf"}), "tox.ini"),
    "nox": (frozenset({"-f", "--noxfile"}), "noxfile.py"),
    # ninja (and samurai) run the commands of build.ninja's rules, read in `-C DIR`
    "ninja": (frozenset({"-f"}), "build.ninja"),
    "samu": (frozenset({"-f"}), "build.ninja"),
}
# Task runners that change to a directory before reading their file (`ninja -C DIR`).
_TASK_DIRECTORY_OPTIONS = {"ninja": "-C", "samu": "-C"}
COMMAND_FILE_READERS = _MAKE | _COMPOSE | {"compose", "kubectl"} | _TASK_FILES.keys()
# kubectl's subcommands that run what a manifest file says (`kubectl apply -f pod.yaml`).
_KUBECTL_MANIFEST_VERBS = frozenset({"apply", "create", "replace", "run"})
_KUBECTL_FILE_OPTIONS = ("--filename", "-k", "--kustomize")
# A file descriptor's text run as a file (`exec 3<<<'...'; bash /dev/fd/3`, `/dev/fd/$fd`);
# 0, standard input, is followed where it is fed (a heredoc, a pipe).
DESCRIPTOR = re.compile(r"/dev/fd/|/proc/[^/]+/fd/")
# Interpreter options whose argument is the next word (`bash -o pipefail x.sh`).
_OPTION_ARGS = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})
# Words a wrapper takes before the command it runs: a duration, a priority, a CPU list.
_WRAPPER_ARG = re.compile(r"[0-9][0-9.,:-]*[smhd]?")
# Wrappers whose first operand is theirs, not the command's (`timeout DURATION CMD`)
_OPERAND_FIRST = frozenset({"timeout"})
# Wrapper options whose value is the next word, known or not (`flock -w "$WAIT" 9`).
_WRAPPER_VALUE_OPTIONS = {
    "flock": frozenset({"-w", "--wait", "--timeout", "-E", "--conflict-exit-code"}),
    # Slurm's options that take a value as the next word (`srun -p gpu -N 1 bash -c '...'`)
    "srun": frozenset(
        {
            "-p",
            "--partition",
            "-A",
            "--account",
            "-N",
            "--nodes",
            "-n",
            "--ntasks",
            "-c",
            "--cpus-per-task",
            "-t",
            "--time",
            "-w",
            "--nodelist",
            "-J",
            "--job-name",
            "-G",
            "--gpus",
            "--gres",
            "-C",
            "--constraint",
            "-q",
            "--qos",
            "-D",
            "--chdir",
            "-x",
            "--exclude",
            "-o",
            "--output",
            "-e",
            "--error",
            "-m",
            "--distribution",
            "--jobid",
            "--mpi",
            "--export",
        }
    ),
    "timeout": frozenset({"-k", "--kill-after", "-s", "--signal"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "env": frozenset({"-u", "--unset", "-C", "--chdir"}),
    "sudo": frozenset({"-u", "--user", "-g", "--group", "-C", "-D", "-h", "-p", "-U"}),
    "exec": frozenset({"-a"}),
    "xargs": frozenset(
        {
            "-I",
            "-d",
            "-E",
            "-L",
            "-n",
            "-P",
            "-s",
            "-a",
            "--arg-file",
            "--delimiter",
            "--max-args",
            "--max-procs",
            "--max-lines",
            "--max-chars",
            "--process-slot-var",
        }
    ),
    "taskset": frozenset({"-c", "--cpu-list"}),
    "ionice": frozenset({"-c", "-n", "--class", "--classdata"}),
}
# `$(command -v python3)`: the program found on PATH under that name, as the plain name runs.
LOOKED_UP = re.compile(r"\$\((?:command -v|which) ([A-Za-z0-9_.+-]+)\)")


def script_file_word(argv: Sequence[Field], *, heredoc: bool = False) -> Field | None:
    """The word naming the script file this command line runs; None when it runs none. Under
    `xargs` or `find -exec` the file may be a word they substitute (`{}`): known only then.
    `heredoc`: standard input is a heredoc; python runs it as its program, and the checks read
    heredocs themselves."""
    if not argv:
        return None
    if basename(argv[0].text) == "find":
        return _found_by_find(argv)
    found = _script_file_word(argv)
    start = command_index(argv)
    stdin = found is not None and found.text == STDIN and not found.known
    if heredoc and stdin and start < len(argv) and PYTHON.fullmatch(basename(argv[start].text)):
        return None
    wrappers = argv[:start]
    if found is None or not any(basename(w.text) == "xargs" for w in wrappers):
        return found
    return _substituted(found, {"{}", *_xargs_replace(argv)})


# pip's and `uv pip`'s options naming a file of packages (uv's plural spellings, overrides and
# build constraints too)
_PIP_LIST_OPTIONS = frozenset(
    {"-r", "--requirement", "--requirements", "-c", "--constraint", "--constraints",
     "--override", "--overrides", "--build-constraint", "--build-constraints"}
)  # fmt: skip
_PIP_LIST_JOINED = tuple(sorted(f"{o}=" for o in _PIP_LIST_OPTIONS if o.startswith("--")))


_PIP = re.compile(r"pip[\d.]*")


def package_list_files(argv: Sequence[Field]) -> list[Field]:
    """The requirement and constraint files a `pip install` reads (`-r x.txt`, `-rx.txt`,
    `--requirement=x.txt`; pip of any version, `uv pip`, `python3 -m pip`, behind wrappers) and
    the lists `uv pip sync` and pip-tools' `pip-sync` install exactly: each may name an engine
    fork or wheel, and its text is not read. A value joined to its option keeps the word's
    pieces: what follows its last `/` names the file either way."""
    words = argv[command_index(argv) :]
    texts = [basename(w.text) if w.known else "" for w in words]
    if texts and texts[0] in _CONDA:
        return _conda_list_files(words)
    syncing = -1  # where the list operands of a sync start
    for i, text in enumerate(texts):
        if text == "pip-sync":
            syncing = i + 1
            break
        if not _PIP.fullmatch(text):
            continue
        # pip's options (or words known only at run time) may come before its subcommand
        at = next((j for j in range(i + 1, len(texts)) if texts[j][:1] not in ("-", "")), -1)
        if at >= 0 and texts[at] in ("install", "sync"):
            syncing = at + 1 if texts[at] == "sync" else -1
            break
    else:
        return []
    found: list[Field] = []
    if syncing >= 0:
        found += [word for word in words[syncing:] if not word.text.startswith("-")]
    for i, word in enumerate(words):
        text = word.text
        if text in _PIP_LIST_OPTIONS and i + 1 < len(words):
            found.append(words[i + 1])
        elif text.startswith(_PIP_LIST_JOINED):
            value = text.split("=", 1)[1]
            found.append(Field(value, word.known, "", word.line, word.parts))
        elif text[:2] in ("-r", "-c") and len(text) > 2 and not text.startswith("--"):
            found.append(Field(text[2:], word.known, "", word.line, word.parts))
    return found


_CONDA = frozenset({"conda", "mamba", "micromamba"})
_CONDA_INSTALLS = frozenset({"install", "create", "update", "env"})
_CONDA_FILE_OPTIONS = ("--file", "-f")  # `conda install --file`, `conda env create -f`
_CONDA_VALUE_OPTIONS = frozenset(
    {"-c", "--channel", "-n", "--name", "-p", "--prefix", "--override-channels-url"}
)
_CONDA_FILES = (".tar.bz2", ".conda")


def _conda_list_files(words: Sequence[Field]) -> list[Field]:
    """The environment and spec files conda (mamba, micromamba) installs from: `install
    --file F`, `create -f F`, `env create|update -f F` (each may list a local package or a
    pip section with any fork, and its text is not read)."""
    operands = [w.text for w in words[1:] if w.known and not w.text.startswith("-")]
    if not operands or operands[0] not in _CONDA_INSTALLS:
        return []
    found: list[Field] = []
    for i, word in enumerate(words):
        name, joined, value = word.text.partition("=") if word.known else ("", "", "")
        if name in _CONDA_FILE_OPTIONS and joined:
            found.append(Field(value, word.known, "", word.line, word.parts))
        elif name in _CONDA_FILE_OPTIONS and i + 1 < len(words):
            found.append(words[i + 1])
    return found


def conda_packages(argv: Sequence[Field]) -> list[Field]:
    """The package files conda (mamba, micromamba) installs by path (`conda install
    ./x.tar.bz2`, `./x.conda`): a package's link scripts run as it installs. A name is a
    channel's package; a URL is not local."""
    words = argv[command_index(argv) :]
    if not words or not words[0].known or basename(words[0].text) not in _CONDA:
        return []
    found: list[Field] = []
    subcommand = ""
    i = 1
    while i < len(words):
        word = words[i]
        text = word.text if word.known else ""
        i += 1
        if text in _CONDA_VALUE_OPTIONS or text in _CONDA_FILE_OPTIONS:
            i += 1
        elif _option_word(word):
            continue
        elif not subcommand:
            subcommand = text or "?"
        elif subcommand in ("install", "create", "update") and _local_path(word.text, _CONDA_FILES):
            found.append(word)
    return found


# The files `python -m` may run of a module: a package's entry point and every package's
# `__init__.py` on the way are named by their directory (`judge/script_files.py` matches them so).
PACKAGE_FILES = frozenset({"__init__.py", "__main__.py"})
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


def python_module_files(argv: Sequence[Field]) -> list[Field]:
    """The files `python -m MOD` (behind wrappers, any python by name or `$(command -v ...)`)
    runs of MOD: `a/b/c.py` or `a/b/c/__main__.py`, after `a/__init__.py`, `a/b/__init__.py`
    (and `a/b/c/__init__.py` for a package); each is code a repository file may hold. A module
    named at run time is that run-time word. A server launch never gets here (it is a launch)."""
    start = command_index(argv)
    if start >= len(argv) or not _is_python(argv[start]):
        return []
    i = start + 1
    while i < len(argv):
        word = argv[i]
        if not word.known or not word.text.startswith("-") or word.text in ("-", "--"):
            return []  # a program file, standard input, or an option known only at run time
        text = word.text
        if text.startswith("-c"):
            return []
        if text.startswith("-m"):
            if len(text) > 2:
                module: Field | None = Field(text[2:], True, text[2:], word.line)
            else:
                module = argv[i + 1] if i + 1 < len(argv) else None
            if module is None:
                return []
            if not module.known:
                return [module]
            return _module_files(module) if _MODULE.fullmatch(module.text) else []
        i += 2 if text in _PYTHON_OPTION_ARGS else 1
    return []


def dotted_files(name: Field) -> list[Field]:
    """The files a dotted Python name (`pkg.mod.Class`, `mod`) may be defined in: each prefix
    as a module (`pkg.py`, `pkg/mod.py`, `pkg/mod/Class.py`) and as a package's `__init__.py`.
    A name known only at run time is that run-time word; anything else names no file."""
    if not name.known:
        return [name]
    if not _MODULE.fullmatch(name.text):
        return []
    parts = name.text.split(".")
    stems = ["/".join(parts[: k + 1]) for k in range(len(parts))]
    names = [f"{stem}{tail}" for stem in stems for tail in (".py", "/__init__.py")]
    return [Field(text, True, text, name.line) for text in names]


def _is_python(word: Field) -> bool:
    looked_up = LOOKED_UP.fullmatch(word.text) if not word.known else None
    name = looked_up[1] if looked_up is not None else (word.text if word.known else "")
    return bool(name) and bool(PYTHON.fullmatch(basename(name)))


def _module_files(module: Field) -> list[Field]:
    path = module.text.replace(".", "/")
    parts = path.split("/")
    names = [f"{path}.py", f"{path}/__main__.py"]
    names += ["/".join(parts[: k + 1]) + "/__init__.py" for k in range(len(parts))]
    return [Field(name, True, name, module.line) for name in names]


# pip's install options whose value is the next word (never a project to install).
_PIP_VALUE_OPTIONS = frozenset(
    {"-r", "--requirement", "-c", "--constraint", "-i", "--index-url", "--extra-index-url", "-f",
     "--find-links", "-t", "--target", "--prefix", "--root", "--src", "--python", "--platform",
     "--python-version", "--implementation", "--abi", "--upgrade-strategy", "--progress-bar",
     "--log", "--cache-dir", "-C", "--config-settings", "--global-option", "--trusted-host",
     "--cert", "--client-cert", "--proxy", "--timeout", "--retries", "--exists-action",
     "--report", "--only-binary", "--no-binary", "--group", "--extra", "-p",
     "-w", "--wheel-dir", "-d", "--dest"}  # `pip wheel -w DIR`, `pip download -d DIR`
)  # fmt: skip
_EXTRAS = re.compile(r"\[[^\]]*\]$")  # `.[dev]`


def local_projects(argv: Sequence[Field]) -> list[Field]:
    """The local project directories a `pip install` (any pip, `uv pip`, `python3 -m pip`,
    behind wrappers) builds and installs: operands and `-e` values spelled as paths (`.`,
    `./pkg`, `benchmarks/pkg`, `"$DIR/pkg"`), extras cut (`.[dev]`); URLs, VCS and direct
    references are not local."""
    words = argv[command_index(argv) :]
    texts = [basename(w.text) if w.known else "" for w in words]
    start = -1
    for i, text in enumerate(texts):
        if _PIP.fullmatch(text):
            at = next((j for j in range(i + 1, len(texts)) if texts[j][:1] not in ("-", "")), -1)
            if at >= 0 and texts[at] in _PIP_BUILDS:
                start = at + 1
            break
        if _BUILD_FRONTEND.fullmatch(text) or _python_module(texts, i, "build"):
            # `python3 -m build DIR`, `pyproject-build`
            return _built_projects(words[i + 1 :], words[i].line)
    if start < 0:
        return []
    found: list[Field] = []
    i = start
    while i < len(words):
        word = words[i]
        text = word.text
        editable = word.known and (text == "--editable" or text.startswith(("-e", "--editable=")))
        if word.known and text in ("-e", "--editable") and i + 1 < len(words):
            word, text, i = words[i + 1], words[i + 1].text, i + 1
        elif word.known and text.startswith("--editable="):
            text = text.removeprefix("--editable=")
        elif word.known and text.startswith("-e") and not text.startswith("--"):
            text = text[2:]  # `-e./pkg`
        elif word.known and (links := _find_links(words, i)) is not None:  # packages there
            directory_word, i = links
            if _editable_path(directory_word.text):
                found.append(directory_word)
            i += 1
            continue
        elif word.known and text in _PIP_VALUE_OPTIONS:
            i += 2
            continue
        elif word.known and text.startswith("-"):
            i += 1
            continue
        path = file_reference(_EXTRAS.sub("", text))
        if _local_path(path) or (editable and _editable_path(path)):
            found.append(Field(path, word.known, word.prefix, word.line, word.parts))
        i += 1
    return found


# pip's subcommands that build a local project (`pip wheel DIR`, `pip download DIR`: its
# metadata is built, running its setup.py) or install it; and the PEP 517 build front end.
_PIP_BUILDS = frozenset({"install", "wheel", "download"})
_BUILD_FRONTEND = re.compile(r"pyproject-build")
_BUILD_VALUE_OPTIONS = frozenset({"-o", "--outdir", "-C", "--config-setting", "--installer"})
_FIND_LINKS = ("-f", "--find-links")
# A direct reference to a local file or directory: `name @ file:///x/pkg`, `file:pkg`.
_FILE_URL = re.compile(r"(?:[A-Za-z0-9._-]+(?:\[[^\]]*\])?\s*@\s*)?file:(?://)?")


def _find_links(words: Sequence[Field], i: int) -> tuple[Field, int] | None:
    """`-f DIR`, `--find-links DIR`, `--find-links=DIR`, `-fDIR` at `i`: the value and where
    it ends. pip and uv install the packages they find there in place of the index's."""
    text = words[i].text
    if text in _FIND_LINKS and i + 1 < len(words):
        given, end = words[i + 1], i + 1
        if not given.known:
            return given, end
        value = given.text
    elif text.startswith("--find-links="):
        value, end = text.removeprefix("--find-links="), i
    elif text.startswith("-f") and not text.startswith("--") and len(text) > 2:
        value, end = text[2:], i
    else:
        return None
    value = file_reference(value)  # `file:///w/wheels` is the directory `/w/wheels`
    return Field(value, True, value, words[i].line), end


def file_reference(text: str) -> str:
    """The path a `file:` direct reference names (`x @ file:///w/pkg` -> `/w/pkg`)."""
    match = _FILE_URL.match(text)
    return text if match is None else (text[match.end() :] or ".")


def _python_module(texts: Sequence[str], i: int, module: str) -> bool:
    """Whether `texts[i]` is `module` run as `python3 [options] -m module`."""
    return (
        texts[i] == module and i >= 2 and texts[i - 1] == "-m"
        and any(PYTHON.fullmatch(text) for text in texts[: i - 1])
    )  # fmt: skip


def _built_projects(words: Sequence[Field], line: int) -> list[Field]:
    """The project `python3 -m build` or `pyproject-build` builds: its operand, else `.`."""
    operand = next(_operands(words, _BUILD_VALUE_OPTIONS), None)
    if operand is None:
        return [Field(".", True, "", line)]
    return [operand] if _editable_path(operand.text) else []


# Project managers that build and install the project of a directory (its pyproject.toml,
# setup.py, Pipfile): the subcommands that do, per tool; the options naming that directory; and
# the options whose value is a package spec (a local path is a project too).
_PROJECT_INSTALLS: dict[str, frozenset[str]] = {
    "uv": frozenset({"sync", "run", "build"}),
    # `run` reads the manifest too: its scripts (`[tool.pdm.scripts]`, a Pipfile's
    # `[scripts]`, poetry's entry points, pixi's tasks) are commands the project defines
    "poetry": frozenset({"install", "sync", "run"}),
    "pdm": frozenset({"install", "sync", "run"}),
    "pipenv": frozenset({"install", "sync", "run"}),
    "hatch": frozenset({"run", "shell", "env"}),
    "rye": frozenset({"sync", "run"}),
    "pixi": frozenset({"install", "run", "shell"}),
    # other languages' package managers run the project's own hooks: npm's lifecycle scripts
    # (`preinstall`, `postinstall`, ...) and `npm run` scripts, Cargo's `build.rs`, a Gemfile's
    # gemspecs
    "npm": frozenset({"install", "i", "ci", "add", "run", "run-script", "start", "test",
                      "exec", "rebuild"}),
    "yarn": frozenset(),  # every command but its own (`_YARN_OWN`)
    "pnpm": frozenset(),  # every command but its own (`_PNPM_OWN`)
    "cargo": frozenset({"build", "run", "install", "test", "bench", "check"}),
    "bundle": frozenset({"install", "exec", "update"}),
    "bun": frozenset({"install", "i", "add", "a", "run", "test", "update"}),
    "deno": frozenset({"task", "install", "i", "add"}),  # deno.json's tasks, npm's scripts
    # `go run`/`test` run the packages they build (every package's `init` too), `go generate`
    # the commands its `//go:generate` lines name; what `build`/`install` build runs later
    "go": frozenset({"run", "test", "generate", "build", "install"}),
}  # fmt: skip
# The options naming the project's directory, per tool (uv's `-p` is its Python).
_PROJECT_DIR_OPTIONS: dict[str, frozenset[str]] = {
    "uv": frozenset({"--project", "--directory"}),
    "poetry": frozenset({"-C", "--directory", "-P", "--project"}),
    "pdm": frozenset({"-p", "--project"}),
    "npm": frozenset({"--prefix", "-C"}),
    "yarn": frozenset({"--cwd"}),
    "pnpm": frozenset({"--dir", "-C"}),
    "cargo": frozenset({"--path", "--manifest-path"}),
    "bundle": frozenset({"--gemfile"}),
    "bun": frozenset({"--cwd"}),
    "go": frozenset({"-C"}),
}
_SPEC_OPTIONS = frozenset({"--with", "--with-editable", "--from", "--spec"})
_PIPENV_SPEC_OPTIONS = frozenset({"-e", "--editable"})  # `pipenv install -e ./pkg`
# Their value is a directory however it is spelled (`-e tools`, `--with-editable tools`): an
# editable install is of a local project, or of a VCS URL.
_EDITABLE_OPTIONS = frozenset({"-e", "--editable", "--with-editable"})
# npm's package runners run the package they are handed (its bin and install scripts): the
# word after which it is the next operand ("": right after the runner, `npx ./tool`), and the
# options giving it (`npx -p ./tool cmd`, `pnpm dlx --package ./x`).
_PACKAGE_RUNNERS = {"npx": "", "pnpx": "", "bunx": "", "pnpm": "dlx", "yarn": "dlx"}
_RUNNER_SPEC_OPTIONS = {
    "npx": frozenset({"-p", "--package"}),
    "pnpx": frozenset({"-p", "--package"}),
    "bunx": frozenset({"-p", "--package"}),
    "pnpm": frozenset({"--package"}),
    "yarn": frozenset({"--package"}),
}
_NO_PROJECT = frozenset({"--no-project", "--script", "-s"})  # `uv run`: no project is synced
# Options of these tools that take a value (skipped with it; a joined `--x=v` is one word).
_PROJECT_VALUE_OPTIONS = frozenset(
    {"--python", "-p", "--cache-dir", "--config-file", "--color", "--index", "--default-index",
     "--index-url", "--extra-index-url", "--find-links", "-f", "--env-file", "--group",
     "--extra", "--package", "--with-requirements", "-E", "--extras", "--only", "--without",
     "-G", "--lockfile", "-L", "--venv", "-e", "--env", "--python-preference"}
)  # fmt: skip
# Installers of a local path given as an operand: `uv tool install ./x`, `uv add ./x`,
# `pipx install ./x`, `pdm add ./x`, `poetry add ./x`.
_OPERAND_INSTALLS: dict[str, frozenset[str]] = {
    "uv": frozenset({"add", "tool", "build"}),
    "uvx": frozenset(),
    "pipx": frozenset({"install", "inject"}),
    "pdm": frozenset({"add"}),
    "poetry": frozenset({"add"}),
    "pipenv": frozenset({"install"}),
    "npm": frozenset({"install", "i", "add"}),
    "yarn": frozenset({"add"}),
    "pnpm": frozenset({"install", "i", "add"}),
    "gem": frozenset({"install"}),
}


# What a project manager reads in the project's directory when it builds, installs or runs it:
# at the checkout's root only these files count (as globs; elsewhere any file of the directory
# does). Python's build files for pip and any tool not listed.
PYTHON_BUILD_FILES = ("setup.py", "setup.cfg", "pyproject.toml")
_NODE_PROJECT = ("package.json", "package-lock.json", "npm-shrinkwrap.json", ".npmrc")
_ROOT_FILES: dict[str, tuple[str, ...]] = {
    "uv": (*PYTHON_BUILD_FILES, "uv.lock", "uv.toml"),
    "uvx": (*PYTHON_BUILD_FILES, "uv.lock", "uv.toml"),
    "poetry": (*PYTHON_BUILD_FILES, "poetry.lock", "poetry.toml"),
    "pdm": (*PYTHON_BUILD_FILES, "pdm.lock", "pdm.toml"),
    "pipenv": (*PYTHON_BUILD_FILES, "Pipfile", "Pipfile.lock", ".env"),  # `.env`: variables
    "hatch": (*PYTHON_BUILD_FILES, "hatch.toml", "hatch_build.py"),
    "cmake": ("CMakeLists.txt", "*.cmake", "CMakePresets.json", "CMakeUserPresets.json"),
    "rye": (*PYTHON_BUILD_FILES, "requirements.lock", "requirements-dev.lock"),
    "pixi": (*PYTHON_BUILD_FILES, "pixi.toml", "pixi.lock"),
    # lifecycle scripts in package.json; `.npmrc` may name the shell scripts run in
    "npm": _NODE_PROJECT,
    # `.yarnrc.yml`'s `yarnPath` and plugins, the Plug'n'Play loader, all run as yarn starts
    "yarn": (*_NODE_PROJECT, "yarn.lock", ".yarnrc", ".yarnrc.yml", ".pnp.cjs",
             ".pnp.loader.mjs", ".yarn/**"),
    "pnpm": (*_NODE_PROJECT, "pnpm-lock.yaml", "pnpm-workspace.yaml", ".pnpmfile.cjs"),
    "bun": (*_NODE_PROJECT, "bun.lock", "bun.lockb", "bunfig.toml"),
    "deno": (*_NODE_PROJECT, "deno.json", "deno.jsonc", "deno.lock"),
    "cargo": ("Cargo.toml", "Cargo.lock", "build.rs", ".cargo/**", "src/**"),
    "bundle": ("Gemfile", "Gemfile.lock", "gems.rb", "gems.locked", "*.gemspec", ".bundle/**"),
    "go": ("go.mod", "go.sum", "go.work", "go.work.sum", "**/*.go", "vendor/**"),
}  # fmt: skip


def root_files(tool: str) -> tuple[str, ...]:
    """The files (globs) `tool` reads in a project directory at the checkout's root
    (`_ROOT_FILES`; Python's build files by default)."""
    return _ROOT_FILES.get(tool, PYTHON_BUILD_FILES)


def project_files(argv: Sequence[Field]) -> tuple[str, ...]:
    """The files (globs) the installer of this command line reads in a project directory,
    as counted at the checkout's root (`_ROOT_FILES`; Python's build files by default)."""
    words = argv[command_index(argv) :]
    return root_files(basename(words[0].text) if words and words[0].known else "")


# go's options that take the next word as their value (a joined `-o=x` is one word).
_GO_VALUE_OPTIONS = frozenset(
    {"-o", "-C", "-p", "-tags", "-ldflags", "-gcflags", "-asmflags", "-gccgoflags", "-mod",
     "-modfile", "-overlay", "-pkgdir", "-installsuffix", "-buildmode", "-compiler", "-pgo",
     "-exec", "-toolexec", "-run", "-bench", "-skip", "-timeout", "-count", "-cpu", "-parallel",
     "-coverprofile", "-covermode", "-coverpkg", "-benchtime", "-json", "-vet", "-outputdir"}
)  # fmt: skip


def _go_packages(words: Sequence[Field]) -> tuple[list[Field], bool]:
    """The local packages or files a `go` subcommand is handed (`.`, `./cmd/x`, `./...` as
    its directory, `main.go`), and whether it was handed any package at all (none: the
    current directory's). An import path (`example.com/x@v1`) is not local."""
    found: list[Field] = []
    handed = False
    i = 2  # after `go SUBCOMMAND`
    while i < len(words):
        word, text = words[i], words[i].text if words[i].known else ""
        if word.known and text in _GO_VALUE_OPTIONS:
            i += 2
            continue
        i += 1
        if _option_word(word):
            continue
        if text == "--":
            break  # `go run . -- args`: the program's arguments follow
        handed = True
        path = text.removesuffix("/...") if text.endswith("/...") else text
        if not word.known or path in (".", "..") or path.startswith(("./", "../", "/")):
            found.append(Field(path or ".", word.known, word.prefix, word.line, word.parts))
        elif path.endswith(".go"):
            found.append(word)
        if words[1].text == "run" and not path.endswith(".go"):
            break  # `go run PKG ARGS` (or `a.go b.go ARGS`): the rest are the program's
    return found, handed


# cmake's options taking the next word as their value (`-S DIR`, `-D NAME=VALUE`, ...), and
# its modes that configure no source directory.
_CMAKE_VALUE_OPTIONS = frozenset(
    {"-S", "-B", "-G", "-T", "-A", "-C", "-D", "-U", "-P", "--preset", "--toolchain",
     "--install-prefix", "--log-level", "--log-context", "--graphviz", "--trace-format",
     "--trace-source", "--trace-redirect", "--debug-find-pkg", "--debug-find-var",
     "--profiling-format", "--profiling-output", "--warn-uninitialized"}
)  # fmt: skip
_CMAKE_OTHER_MODES = frozenset(
    {"--build", "--install", "--open", "-E", "-P", "--find-package", "--workflow", "--help",
     "-h", "--version", "--system-information"}
)  # fmt: skip


def _cmake_source(words: Sequence[Field]) -> list[Field]:
    """The source directory `cmake` configures: its CMakeLists.txt and the files it includes
    run at configure time (`execute_process`), so it is a project built here. `-S DIR`, else
    the operand (`cmake ..`, `cmake -B build .`); `--build`, `-P` (a script: a code operand)
    and the other modes configure nothing."""
    source: Field | None = None
    i = 1
    while i < len(words):
        word = words[i]
        text = word.text if word.known else ""
        if text in _CMAKE_OTHER_MODES:
            return []
        if text == "-S" and i + 1 < len(words):
            return [words[i + 1]]
        if text.startswith("-S") and len(text) > 2:
            return [Field(text[2:], True, text[2:], word.line)]
        if text in _CMAKE_VALUE_OPTIONS:
            i += 2
            continue
        if source is None and not _option_word(word):
            source = word
        i += 1
    return [source] if source is not None else []


def project_installs(argv: Sequence[Field]) -> list[Field]:
    """The local projects a project manager builds and installs: the directory's own project
    (`uv sync`, `uv run` without `--no-project`, `poetry install`, `pdm sync`, `pipenv
    install`, `hatch run`; `.` unless `--project DIR` names another), and local paths it is
    handed (`uv run --with ./pkg`, `uvx --from ./pkg`, `uv tool install ./pkg`, `pipx install
    ./pkg`, `uv add ./pkg`). A name or URL is an index's package, not local."""
    words = argv[command_index(argv) :]
    if not words or not words[0].known:
        return []
    tool = basename(words[0].text)
    if tool == "cmake":
        return _cmake_source(words)
    known = (_PROJECT_INSTALLS, _OPERAND_INSTALLS, _PACKAGE_RUNNERS)
    if not any(tool in tools for tools in known):
        return []
    project: Field | None = None
    found: list[Field] = []
    operands: list[Field] = []
    no_project = False
    i = 1
    while i < len(words):
        word, text = words[i], words[i].text if words[i].known else ""
        name, joined, value = text.partition("=")
        directory = _PROJECT_DIR_OPTIONS.get(tool, frozenset())
        spec = _SPEC_OPTIONS | _RUNNER_SPEC_OPTIONS.get(tool, frozenset())
        spec |= _PIPENV_SPEC_OPTIONS if tool == "pipenv" else frozenset()
        if word.known and name in directory | spec and (joined or i + 1 < len(words)):
            given = Field(value, True, "", word.line) if joined else words[i + 1]
            if name in directory and name in _MANIFEST_OPTIONS:  # its file names the project
                project = Field(posixpath.dirname(given.text) or ".", given.known, given.prefix,
                                given.line, given.parts)  # fmt: skip
            elif name in directory:
                project = given
            elif _local_spec(given) or (name in _EDITABLE_OPTIONS and _editable_path(given.text)):
                found.append(given)
            i += 1 if joined else 2
            continue
        links = _find_links(words, i) if tool in ("uv", "uvx") and word.known else None
        if links is not None:  # `uv run -f DIR`: packages there
            directory_word, i = links
            if _editable_path(directory_word.text):
                found.append(directory_word)
            i += 1
            continue
        if word.known and text in _NO_PROJECT:
            no_project = True
        elif word.known and text in _PROJECT_VALUE_OPTIONS:
            i += 1
        elif not _option_word(word):
            operands.append(word)
        i += 1
    command = operands[0].text if operands and operands[0].known else ""
    if tool == "uv" and command == "pip":
        return []  # `uv pip install`: pip's grammar (`local_projects`)
    syncs = command in _PROJECT_INSTALLS.get(tool, ()) and not (tool == "uv" and no_project)
    if tool == "uv" and command == "build" and len(operands) > 1:
        syncs = False  # `uv build DIR` builds DIR, not the working directory's project
    if tool == "cargo" and command == "install" and project is None:
        syncs = False  # `cargo install NAME` builds a crate of the registry, not this directory
    if tool == "yarn":  # `yarn NAME` runs the project's script NAME, `yarn` alone installs
        syncs = command not in _YARN_OWN
    if tool == "pnpm":  # `pnpm NAME` runs the project's script NAME
        syncs = bool(command) and command not in _PNPM_OWN
    if tool == "go" and syncs and operands and operands[0] is words[1]:
        packages, handed = _go_packages(words)
        found += packages
        syncs = not handed  # no package named: the current directory's
        if project is not None:  # `go -C DIR ...`: every relative package is in DIR
            found = [_under(project, f) for f in found]
    if syncs and not (tool == "hatch" and command == "env" and _second(operands) != "create"):
        found.append(project if project is not None else Field(".", True, "", words[0].line))
    runner = _PACKAGE_RUNNERS.get(tool)
    at = 0 if runner == "" else 1 if runner and command == runner else len(operands)
    if at < len(operands) and _local_spec(operands[at]):  # the package run: `npx ./tool`
        found.append(operands[at])
    if command in _OPERAND_INSTALLS.get(tool, ()):  # (`uvx`, `pipx run`: only `--from`/`--spec`)
        start = 1
        if tool == "uv" and command == "tool":
            start = 2 if _second(operands) == "install" else len(operands)
        found += [w for w in operands[start:] if _local_spec(w)]
    return found


def _under(directory: Field, path: Field) -> Field:
    """`path` as it lies under `directory` (absolute paths stay)."""
    if path.known and path.text.startswith("/"):
        return path
    text = posixpath.normpath(posixpath.join(directory.text, path.text))
    known = directory.known and path.known
    return Field(text, known, "" if known else directory.prefix, path.line)


def _second(operands: Sequence[Field]) -> str:
    return operands[1].text if len(operands) > 1 and operands[1].known else ""


def _local_spec(word: Field) -> bool:
    """A package spec that is a local path (`.`, `./x`, `a/b`, `x.whl`), not a name or a URL."""
    return _local_path(_EXTRAS.sub("", word.text), _PACKAGE_SUFFIXES)


def _editable_path(text: str) -> bool:
    """An editable install's value: a local directory unless it is a URL or a VCS reference
    (pip: a value that is no directory is an error, not a package name)."""
    text = _EXTRAS.sub("", text)
    return bool(text) and "://" not in text and not text.startswith(("git+", "hg+", "svn+", "bzr+"))


def _local_path(text: str, suffixes: tuple[str, ...] = ()) -> bool:
    """An installer's operand that names a file or directory of the machine: `.`, `..`, a
    path (`./x`, `a/b`, `$DIR/x`, `./x@v1` too), or a package file by its suffix; not a name,
    a URL or a VCS reference (`git+https://...`, `name @ https://...`)."""
    if "://" in text or text.startswith(("git+", "hg+", "svn+", "bzr+")):
        return False
    return text in (".", "..") or "/" in text or (bool(suffixes) and text.endswith(suffixes))


# yarn's commands that run nothing of the project (any other word names one of its scripts)
_YARN_OWN = frozenset(
    {"info", "cache", "config", "why", "list", "outdated", "audit", "licenses", "version",
     "help", "login", "logout", "owner", "tag", "team", "global", "policies", "set", "plugin",
     "dlx", "npm", "init", "create"}
)  # fmt: skip
# pnpm's commands that run nothing of the project (any other word names one of its scripts)
_PNPM_OWN = frozenset(
    {"list", "ls", "outdated", "why", "licenses", "audit", "store", "root", "bin", "config",
     "get", "set", "dlx", "create", "init", "publish", "pack", "server", "doctor", "setup",
     "env", "help", "remove", "rm", "unlink", "link", "import", "fetch", "patch",
     "patch-commit", "prune"}
)  # fmt: skip
_PACKAGE_SUFFIXES = (".gem", ".tgz", ".tar.gz", ".whl")  # a package file named without a path
_MANIFEST_OPTIONS = frozenset({"--manifest-path", "--gemfile"})


# System package managers that install a package file given by path, and the subcommands
# (for dpkg and rpm, options) that install one; a file install puts its files anywhere and runs
# its maintainer scripts as root.
_APT_LIKE = frozenset({"apt", "apt-get", "aptitude", "nala"})
_RPM_FRONTENDS = frozenset({"dnf", "yum", "microdnf", "tdnf", "zypper"})
_SUBCOMMAND_INSTALLS = frozenset(
    {"install", "reinstall", "localinstall", "upgrade", "update", "in", "add"}
)
_DPKG_INSTALLS = frozenset("iRx")  # -i, -R (a directory of .deb files), -x (extract anywhere)
_DPKG_LONG = frozenset({"--install", "--unpack", "--recursive", "--extract", "--vextract"})
_RPM_INSTALLS = frozenset("iUF")
_RPM_LONG = frozenset({"--install", "--upgrade", "--freshen", "--reinstall"})
_PACKAGE_VALUE_OPTIONS = frozenset(
    {"-o", "--option", "-c", "--config-file", "-t", "--target-release", "--root", "--dbpath",
     "--prefix", "--relocate", "--installroot", "--releasever", "--repo", "--repoid",
     "--enablerepo", "--disablerepo", "-X", "--repository", "-p", "--admindir", "--instdir"}
)  # fmt: skip
_SYSTEM_PACKAGES = (".deb", ".udeb", ".rpm", ".apk")


def system_packages(argv: Sequence[Field]) -> list[Field]:
    """The package files a system package manager installs by path: `dpkg -i x.deb` (every
    operand is a file, or with -R a directory of them), `rpm -Uvh x.rpm`, and `apt install
    ./x.deb`, `dnf install ./x.rpm`, `apk add ./x.apk` (an operand with a slash, or one named
    like a package file; a bare name is a package of the distribution's archive). URLs are not
    local."""
    words = argv[command_index(argv) :]
    if not words or not words[0].known:
        return []
    name = basename(words[0].text)
    rest = list(words[1:])
    if name in ("dpkg", "rpm"):
        short, long = (_DPKG_INSTALLS, _DPKG_LONG) if name == "dpkg" else (_RPM_INSTALLS, _RPM_LONG)
        flags = [w.text for w in rest if w.known and w.text.startswith("-")]
        installs = any(
            f in long or (not f.startswith("--") and bool(set(f[1:]) & short)) for f in flags
        )
        return _package_operands(rest, every=True) if installs else []
    if name in _APT_LIKE or name in _RPM_FRONTENDS or name == "apk":
        at = next((i for i, w in enumerate(rest) if not _option_word(w)), -1)
        if at < 0 or not rest[at].known or rest[at].text not in _SUBCOMMAND_INSTALLS:
            return []
        return _package_operands(rest[at + 1 :], every=False)
    return []


def _package_operands(words: Sequence[Field], *, every: bool) -> list[Field]:
    """The operands that name a local file (`every`: each operand is a path)."""
    return [
        word
        for word in _operands(words, _PACKAGE_VALUE_OPTIONS)
        if "://" not in word.text and (every or _local_path(word.text, _SYSTEM_PACKAGES))
    ]


def _operands(words: Sequence[Field], value_options: frozenset[str]) -> Iterator[Field]:
    """A command's operands: its words that are no option nor an option's value."""
    i = 0
    while i < len(words):
        word = words[i]
        if word.known and word.text in value_options:
            i += 2  # the option and its value
            continue
        i += 1
        if not _option_word(word):
            yield word


# The words xargs adds to its command from its standard input, as a word known only at run time.
XARGS_INPUT = "[the arguments xargs reads from standard input]"


def with_xargs_input(argv: Sequence[Field]) -> list[Field]:
    """An `xargs CMD ARGS` command with what xargs adds to CMD's words from its input (one
    word known only at run time), unless it substitutes a replace-string instead (`-I{}`):
    `echo IMAGE | xargs docker run` runs the image it reads, `xargs vllm serve m` the flags."""
    if _xargs_replace(argv):
        return list(argv)
    return [*argv, Field(XARGS_INPUT, False, "", argv[-1].line, single=False)]


def _xargs_replace(words: Sequence[Field]) -> set[str]:
    """The replace-strings given to xargs (`-I X`, `-IX`, `-i`, `--replace=X`)."""
    out: set[str] = set()
    for i, word in enumerate(words):
        text = word.text
        if text == "-I" and i + 1 < len(words):
            out.add(words[i + 1].text)
        elif text.startswith(("-I", "-i", "--replace=")) and len(text) > 2:
            out.add(text.split("=", 1)[1] if "=" in text else text[2:])
    return out


def _found_by_find(argv: Sequence[Field]) -> Field | None:
    for i, word in enumerate(argv):
        if word.text in ("-exec", "-execdir", "-ok", "-okdir"):
            found = _script_file_word(argv[i + 1 :])
            if found is not None:
                return _substituted(found, {"{}"})
    return None


def _substituted(word: Field, marks: set[str]) -> Field:
    """The word as known only at run time when it holds a string xargs or find replaces."""
    if not any(mark and mark in word.text for mark in marks):
        return word
    return Field(word.text, False, "", word.line)


def _script_file_word(argv: Sequence[Field]) -> Field | None:
    if not argv:
        return None
    start = command_index(argv)
    found = _file_at(argv, start, command=True) if start < len(argv) else None
    if found is not None or start == 0:
        return found
    # a wrapper option the skip above does not know (`taskset -c 0-3`): any later interpreter or
    # `.sh` word is taken as the command (failing closed: at worst a file is named needlessly)
    for i in range(start + 1, len(argv)):
        found = _file_at(argv, i, command=False)
        if found is not None:
            return found
    return None


def known_name(word: Field) -> str:
    """The file's base name when the text after the word's last `/` is known ("" if not)."""
    if word.known:
        return basename(word.text)
    tail = ""
    for text, known in reversed(word.parts):
        if not known:
            return ""
        tail = text + tail
        if "/" in tail:
            return basename(tail)
    return ""


def command_start(words: Sequence[str]) -> int:
    """Where the command behind leading wrappers starts in words known whole (`timeout 60
    curl ...` -> 2)."""
    return command_index([Field(word, True, word, 0) for word in words])


def shell_string_behind_wrappers(argv: Sequence[Field]) -> int:
    """Where a shell given a command string starts behind leading wrappers that run it on
    this host (`timeout 60 bash -c '...'`, `srun -N 1 sudo -E sh -c '...'`, `exec bash -c
    '...'`, after which the script ends); 0 when the command is no such thing (a container
    runtime's string runs in its image and is judged by its image; `torchrun` runs it
    otherwise). `xargs` runs it once per batch of its input, here read once, as a loop's
    body is; a replace-string in it (`-I{}`) makes it known only at run time."""
    if not (argv and argv[0].known and basename(argv[0].text) in WRAPPERS):
        return 0  # nearly every command: no wrapper in front
    start = command_index(argv)
    while 0 < start < len(argv) and _option_word(argv[start]):
        start += 1  # `srun --jobid=$ID bash -c`: an option even if its value could split
    if not 0 < start < len(argv) or runs_elsewhere(argv[:start]):
        return 0
    shell = argv[start]
    if not (shell.known and basename(shell.text) in INTERPRETERS):
        return 0
    return start if command_string_at(argv[start:]) else 0


def runs_elsewhere(wrappers: Sequence[Field]) -> bool:
    """The wrappers run their command somewhere other than on this host as a plain program:
    in a container image, or under torchrun as a Python program (unless `--no-python`)."""
    names = {basename(word.text) for word in wrappers if word.known}
    if "torchrun" in names and not _NO_PYTHON & {word.text for word in wrappers}:
        return True
    return bool(names & (_NOT_ON_THIS_HOST - {"torchrun"}))


def behind_wrappers(argv: Sequence[Field], start: int) -> list[Field]:
    """The command at `start` behind wrappers, with the replace-strings an `xargs -I{}` among
    them substitutes in its words made known only at run time."""
    words = list(argv[start:])
    if not any(w.known and basename(w.text) == "xargs" for w in argv[:start]):
        return words
    marks = _xargs_replace(argv[:start])
    return [_substituted(word, marks) for word in words] if marks else words


def python_program(argv: Sequence[Field]) -> Field | None:
    """The `-c` program of python, alone or behind wrappers that run it on this host
    (`timeout 60 python3 -u -c '...'`, `python3 -uc '...'`); None when it runs none."""
    first = basename(argv[0].text) if argv and argv[0].known else ""
    if first not in WRAPPERS and not PYTHON.fullmatch(first):
        return None  # nearly every command
    start = command_index(argv)
    if start >= len(argv) or runs_elsewhere(argv[:start]):
        return None
    program = argv[start]
    if not (program.known and PYTHON.fullmatch(basename(program.text))):
        return None
    i = start + 1
    while i < len(argv) - 1 and argv[i].known and argv[i].text.startswith("-"):
        text = argv[i].text
        if text == "-c" or (not text.startswith("--") and text.endswith("c")):
            return argv[i + 1]
        if text.startswith(("-m", "--")) or text == "-":
            return None
        i += 2 if text in _PYTHON_OPTION_ARGS else 1
    return None


def python_first_entry(argv: Sequence[Field]) -> Field | None:
    """The directory Python puts first on its module path, ahead of the standard library and
    what is installed, for this command line (alone or behind wrappers that run it on this
    host): its program file's directory (`python3 tools/x.py`: `tools`), or the working
    directory (`.`) for `-m`, `-c` and a program read from standard input. None with `-I` or
    `-P` (isolated, safe path), for a program file named only at run time, or when no Python
    runs here."""
    first = basename(argv[0].text) if argv and argv[0].known else ""
    if first not in WRAPPERS and not PYTHON.fullmatch(first):
        return None  # nearly every command
    start = command_index(argv)
    if start >= len(argv) or runs_elsewhere(argv[:start]) or not _is_python(argv[start]):
        return None
    if _isolated(argv[start + 1 :]):
        return None
    here = Field(".", True, "", argv[start].line)
    program = _python_operand(argv, start + 1)
    if program is None or (program.text == STDIN and not program.known):
        return here  # `-m`, `-c`, or its program from standard input
    at = next(k for k, word in enumerate(argv) if word is program)
    if argv[at - 1].known and argv[at - 1].text == "-c":
        return here  # `-c "$CODE"`: a program known only at run time, given inline
    return program_directory(program)


def _isolated(options: Sequence[Field]) -> bool:
    """Python's `-I` or `-P` among its options (before `-c`/`-m`, its program or `--`)."""
    i = 0
    while i < len(options) and options[i].known and options[i].text.startswith("-"):
        text = options[i].text
        if text in ("-", "--"):
            break
        for letter in text[1:] if not text.startswith("--") else "":
            if letter in "IP":
                return True
            if letter in "cm":
                return False
            if letter in "XW":
                break  # its value follows
        i += 2 if text in _PYTHON_OPTION_ARGS else 1
    return False


def program_directory(program: Field) -> Field | None:
    """The directory of a Python program file, Python's first path entry when it runs it
    (None: a file named only at run time, `"$TOOL"`, which may be anywhere)."""
    if program.known:
        return Field(posixpath.dirname(program.text) or ".", True, "", program.line)
    name = known_name(program)
    if not name or not program.text.endswith(f"/{name}"):
        return None
    return Field(program.text[: -len(name) - 1], False, "", program.line)


# Launchers that start Python on a program file, each with its subcommand ("": none), and
# the modules that do so under `python -m`.
# Profilers, debuggers, test runners and app runners start Python on the file they are
# handed too (`coverage run x.py`, `python3 -m cProfile x.py`, `streamlit run x.py`).
_PYTHON_LAUNCHERS = {
    "accelerate": "launch", "deepspeed": "", "coverage": "run", "ipython": "", "pytest": "",
    "py.test": "", "kernprof": "", "memray": "run", "pyinstrument": "", "viztracer": "",
    "scalene": "", "mprof": "run", "locust": "", "streamlit": "run", "nox": "",
}  # fmt: skip
# (the launchers proper, which may run a module of their own: `launched_module_files`)
_LAUNCHER_MODULES = frozenset(
    {*_TORCH_LAUNCHERS, "accelerate.commands.launch", "deepspeed.launcher.runner"}
)
_PYTHON_LAUNCHER_MODULES = _LAUNCHER_MODULES | frozenset(
    {"cProfile", "profile", "pdb", "trace", "coverage", "debugpy", "pytest", "IPython", "memray",
     "pyinstrument", "viztracer", "scalene", "kernprof", "line_profiler", "locust", "streamlit"}
)  # fmt: skip


def launched_python_program(argv: Sequence[Field]) -> Field | None:
    """The Python program file a launcher runs (`accelerate launch tools/train.py`,
    `deepspeed tools/train.py`, `torchrun ... x.py`, `python3 -m torch.distributed.run ...
    x.py`; behind wrappers on this host): its first operand named `*.py`; None otherwise."""
    start = command_index(argv)
    if start >= len(argv):
        return None
    wrappers = {basename(w.text) for w in argv[:start] if w.known}
    if "torchrun" in wrappers and not wrappers & (_NOT_ON_THIS_HOST - {"torchrun"}):
        return argv[start] if known_name(argv[start]).endswith(".py") else None  # its program
    if runs_elsewhere(argv[:start]) or not argv[start].known:
        return None
    words = list(argv[start:])
    texts = [word.text for word in words]
    name = basename(texts[0])
    if name in _PYTHON_LAUNCHERS:
        sub = _PYTHON_LAUNCHERS[name]
        if sub and texts[1:2] != [sub]:
            return None
        rest = words[2:] if sub else words[1:]
    elif _is_python(words[0]) and "-m" in texts[:-1]:
        module = texts[texts.index("-m") + 1]
        if module not in _PYTHON_LAUNCHER_MODULES or _NO_PYTHON & set(texts):
            return None
        rest = words[texts.index("-m") + 2 :]
    else:
        return None
    return next((word for word in rest if known_name(word).endswith(".py")), None)


# Launchers' options running a module instead of a program file (`torchrun -m tools.x`,
# `deepspeed --module tools.x`, `accelerate launch -m tools.x`), and the launchers.
_LAUNCHER_MODULE_OPTIONS = frozenset({"-m", "--module"})
_MODULE_LAUNCHERS = frozenset({"torchrun", "accelerate", "deepspeed"})


def launched_module_files(argv: Sequence[Field]) -> list[Field]:
    """The files of the module a Python launcher runs in module mode (`torchrun ... -m
    tools.x`, `deepspeed --module tools.x`, `accelerate launch -m tools.x`, `python3 -m
    torch.distributed.run -m tools.x`), as `python3 -m` runs it; none when a program file
    (`*.py`) comes first. A module named only at run time is that run-time word."""
    if not any(w.text == "-m" or basename(w.text) in _MODULE_LAUNCHERS for w in argv):
        return []  # nearly every command
    texts = [w.text if w.known else "" for w in argv]
    by_module = [i + 2 for i in range(len(texts) - 1) if texts[i] == "-m"
                 and texts[i + 1] in _LAUNCHER_MODULES]  # fmt: skip
    by_name = [i + 1 for i, t in enumerate(texts) if basename(t) in _MODULE_LAUNCHERS]
    if not by_module and not by_name:
        return []
    for i in range((by_module or by_name)[0], len(argv) - 1):
        if texts[i].endswith(".py"):
            return []
        if texts[i] in _LAUNCHER_MODULE_OPTIONS:
            module = argv[i + 1]
            if not module.known:
                return [module]
            return _module_files(module) if _MODULE.fullmatch(module.text) else []
    return []


def python_reads_stdin(argv: Sequence[Field]) -> bool:
    """Python, alone or behind wrappers that run it on this host, reads its program from
    standard input (`python3 - <<'EOF'`, `python3 <<EOF`)."""
    start = command_index(argv)
    if start >= len(argv) or runs_elsewhere(argv[:start]):
        return False
    if not (argv[start].known and PYTHON.fullmatch(basename(argv[start].text))):
        return False
    found = _python_operand(argv, start + 1)
    return found is not None and found.text == STDIN and not found.known


def reads_program_from_input(argv: Sequence[Field]) -> bool:
    """Whether the command is a shell or Python reading its program from standard input:
    `bash`, `sh -s`, `python3 -` (in `>(bash)`, `coproc bash`)."""
    start = command_index(argv)
    if start >= len(argv) or not argv[start].known:
        return False
    name = basename(argv[start].text)
    if name not in INTERPRETERS and not PYTHON.fullmatch(name):
        return False
    word = script_file_word(argv[start:])
    return word is not None and word.text == STDIN


def a_shell(text: str) -> bool:
    """A shell by its name or by any path to it (`/usr/bin/bash`, `/bin//sh`, `/opt/x/bash`)."""
    return basename(posixpath.normpath(text)) in INTERPRETERS if text else False


def system_program(path: str) -> bool:
    """A path in a directory of the system's own programs, which no PR file is."""
    return posixpath.dirname(posixpath.normpath(path)) in SYSTEM_BIN_DIRS


# Programs whose operands are data, never a command they run: file and text tools, package
# managers and version control, which name interpreters and program files as things to copy,
# compare, install or look up (`ln -s /usr/bin/python3 python`, `apt-get install python3`,
# `grep -c python3 x.sh`, `git add tools/x.py`).
_DATA_TOOLS = frozenset(
    {"cp", "mv", "ln", "rm", "install", "mkdir", "rmdir", "touch", "chmod", "chown", "chgrp",
     "ls", "stat", "file", "readlink", "realpath", "dirname", "basename", "cat", "tac", "head",
     "tail", "less", "more", "wc", "sort", "uniq", "cut", "paste", "tr", "diff", "cmp", "comm",
     "grep", "egrep", "fgrep", "rg", "sed", "awk", "gawk", "jq", "yq", "sha1sum", "sha256sum",
     "sha512sum", "md5sum", "b2sum", "cksum", "base64", "od", "xxd", "hexdump", "strings",
     "tar", "zip", "unzip", "gzip", "gunzip", "zstd", "xz", "bzip2", "rsync", "scp", "sftp",
     "curl", "wget", "aria2c", "git", "gh", "hg", "svn", "patch", "which", "whereis", "type",
     "apt", "apt-get", "apt-cache", "dpkg", "yum", "dnf", "rpm", "apk", "zypper", "pacman",
     "brew", "snap", "pip", "pip3", "conda", "mamba", "micromamba", "update-alternatives",
     "tee", "dd", "truncate", "shred", "split", "column", "fold", "nl", "envsubst", "logger",
     "pgrep", "pkill", "kill", "killall", "ps", "lsof", "fuser", "find", "locate", "tree",
     "du", "df", "test", "[", "expr", "printf", "echo", "date", "seq", "mktemp", "hf",
     "huggingface-cli", "aws", "gsutil", "az", "s3cmd", "rclone", "docker", "podman", "kubectl",
     # Python's project and environment tools name an interpreter to use, not to run (their
     # `run` forms are read by environment_runners)
     "uv", "uvx", "pipx", "virtualenv", "pyenv", "poetry", "pdm", "pipenv", "hatch", "rye",
     "pixi"}
)  # fmt: skip


def shell_among_operands(argv: Sequence[Field], handled: frozenset[str]) -> int:
    """Where a command line stands among the words of a program signoff has no rule for,
    which is taken to run it, as a wrapper does (0: none): a shell given a command string
    (`strace -f sh -c STR`, `kubectl exec P -- sh -c STR`), a shell or Python by name or path
    (`nsys profile -o p python3 x.py`, `perf record -g -- bash x.sh`, `gosu u python3 x.py`),
    or a program path right after `--` (`tini -- ./run.sh`, `runuser -u u -- tools/x.py`).
    Programs in `handled` (builtins, wrappers, the runners read elsewhere), `_DATA_TOOLS`
    and interpreters, whose other words are their program's arguments, are left alone;
    Python too, unless it runs torchrun's module with `--no-python`."""
    name = basename(argv[0].text) if argv and argv[0].known else ""
    if PYTHON.fullmatch(name) and not _torch_launcher(argv):
        return 0  # its words are its program's
    if not name or name in handled or name in INTERPRETERS:
        return 0
    data = name in _DATA_TOOLS
    for j in range(1, len(argv)):
        word = argv[j]
        if not word.known or word.text.startswith("-"):
            continue  # an option is no command (`--entrypoint=/bin/bash`, `--python=python3`)
        interpreter = _interpreter_word(word.text)
        if interpreter and a_shell(word.text) and command_string_at(argv[j:]):
            return j
        if data:
            continue
        if interpreter and _handed_a_program(argv, j):
            return j
        if argv[j - 1].known and argv[j - 1].text == "--" and _program_path(word.text):
            return j
    return 0


# Files that are programs by their name: a program handed one may run it (a test runner, a
# notebook executor, a workflow tool, a baseline script given a PR's script as its job).
CODE_SUFFIXES = (".py", ".sh", ".bash", ".ipynb")
# `MOD:ATTR`, how app servers and task queues name the code they import (`uvicorn
# tools.x:app`, `gunicorn -k w pkg.wsgi:application`, `celery -A tasks:app worker`)
_APP_REFERENCE = re.compile(r"(?P<module>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):[A-Za-z_]\w*(?:\(.*\))?")


def code_operands(argv: Sequence[Field], ran: Sequence[Field]) -> list[Field]:
    """The program files a command line hands its program besides `ran` (what it runs, read
    elsewhere), unless the program only handles files as data (`_DATA_TOOLS`): operands and
    `--opt=VALUE` values named `*.py`, `*.sh`, `*.bash`, `*.ipynb`, and the modules of
    `MOD:ATTR` references. An interpreter's program gets its own arguments so (`python3
    a.py b.py`: a.py may run b.py). Words known only at run time name nothing here."""
    start = command_index(argv)
    words = argv[start:]
    if len(words) < 2 or not words[0].known or basename(words[0].text) in _DATA_TOOLS:
        return []
    found: list[Field] = _program_files(words)
    for k, word in enumerate(words[1:], 1):
        if not word.known:
            continue
        if not word.text.startswith("-") and _interpreter_word(word.text):
            # the command it is handed, read where it runs (`shell_among_operands`), or a
            # module's files (`nsys profile python3 -m tools.x`)
            after = [w.text if w.known else "" for w in words[k + 1 : k + 3]]
            if len(after) == 2 and after[0] == "-m" and _MODULE.fullmatch(after[1]):
                found += _module_files(words[k + 2])
            break
        text = word.text.partition("=")[2] if word.text.startswith("--") else word.text
        if text.endswith(CODE_SUFFIXES):
            if text.startswith("-") or not_a_path(text) or any(word is r for r in ran):
                continue
            found.append(word if text == word.text else Field(text, True, text, word.line))
        elif ":" in text and not not_a_path(text):
            app = _APP_REFERENCE.fullmatch(text)
            if app is not None:
                found += _module_files(Field(app["module"], True, app["module"], word.line))
    return found if found and not runs_elsewhere(argv[:start]) else []


# Programs that run as code a file an option names, whatever its name: node's preloaded
# modules, cmake's script and initial cache; and programs that run every operand's tasks
# (`ansible-playbook site.yml`: its tasks run commands).
_PROGRAM_FILE_OPTIONS: dict[str, frozenset[str]] = {
    "node": frozenset({"-r", "--require", "--import", "--loader", "--experimental-loader"}),
    "cmake": frozenset({"-P", "-C"}),
}


_PROGRAM_OPERANDS = frozenset({"ansible-playbook"})


def _program_files(words: Sequence[Field]) -> list[Field]:
    tool = basename(words[0].text)
    options = _PROGRAM_FILE_OPTIONS.get(tool)
    if options is None and tool not in _PROGRAM_OPERANDS:
        return []
    found: list[Field] = []
    for k, word in enumerate(words[1:], 1):
        name, joined, value = word.text.partition("=")
        if not word.known or not_a_path(word.text):
            continue
        if options is not None and name in options and joined:
            found.append(Field(value, True, value, word.line))
        elif options is not None and word.text in options and k + 1 < len(words):
            found.append(words[k + 1])
        elif options is None and not word.text.startswith("-"):
            found.append(word)
    return [word for word in found if word.known and word.text]


def _interpreter_word(text: str) -> bool:
    """A shell or Python by name or path (`bash`, `/usr/bin/python3`, `/bin//sh`)."""
    name = text.rpartition("/")[2]
    if name in INTERPRETERS or (name.startswith("python") and PYTHON.fullmatch(name)):
        return True
    return (not name or "//" in text or "/." in text) and a_shell(text)


def not_a_path(text: str) -> bool:
    """A URL, or a message that ends like a file name (`next: bash run.sh`)."""
    return "://" in text or any(c.isspace() for c in text)


def _handed_a_program(argv: Sequence[Field], j: int) -> bool:
    """The interpreter at `j` is handed a program file (`python3 x.py`, `bash "$D/x.sh"`) or
    Python a `-c` program: not one named alone or with options only (`--python
    /usr/bin/python3`, `bash -l`), nor `python3 -m M`, which may be a server another
    program only records (`write_command log python3 -m sglang.launch_server ...`; its
    module's files count as `code_operands`)."""
    if _is_python(argv[j]):
        program = _python_operand(argv, j + 1)
        code = any(w.known and w.text == "-c" for w in argv[j + 1 : j + 3])
        return code or (program is not None and program.text != STDIN)
    program = _operand(argv, j + 1)
    return program is not None and program.text != STDIN


def _program_path(text: str) -> bool:
    """A word that runs a file when it is the command: a path (`./run.sh`, `tools/x.py`)."""
    return "/" in text and not text.endswith("/")


def _torch_launcher(argv: Sequence[Field]) -> bool:
    """`python3 -m torch.distributed.run --no-python PROGRAM ...`: torchrun by its module,
    running its first operand as a program."""
    texts = [word.text for word in argv]
    modules = {texts[i + 1] for i in range(len(texts) - 1) if texts[i] == "-m"}
    return bool(modules & _TORCH_LAUNCHERS and _NO_PYTHON & set(texts))


def wrapper_assignments(wrappers: Sequence[Field]) -> list[tuple[str, Text, str]]:
    """The variables wrappers set for the command they run (`env BASH_ENV=x cmd`, `sudo
    PYTHONPATH=x cmd`): each name, its value and the word as written."""
    found: list[tuple[str, Text, str]] = []
    for word in wrappers:
        match = ASSIGNMENT.match(word.text if word.known else word.prefix)
        if match is None or match.group(2) or match.group(3):
            continue  # an option or argument, or no plain `NAME=`
        name, cut = match.group(1), match.end()
        if word.known:
            value = Text(word.text[cut:])
        else:  # the value's pieces: the word's less its `NAME=`
            parts = []
            for text, known in word.parts:
                parts.append((text[cut:], known))
                cut = max(cut - len(text), 0)
            kept = tuple(p for p in parts if p[0])
            value = Text("".join(t for t, _ in kept), False, word.prefix[match.end() :], kept)
        found.append((name, value, word.text[:200]))
    return found


def command_index(argv: Sequence[Field]) -> int:
    """Where the command behind leading wrappers starts (0 when there is no wrapper)."""
    i = 0
    while i < len(argv) and argv[i].known and basename(argv[i].text) in WRAPPERS:
        wrapper = basename(argv[i].text)
        takes_value = _WRAPPER_VALUE_OPTIONS.get(wrapper, frozenset())
        i += 1
        while i < len(argv) and _wrapper_option(argv[i]):
            i += 2 if argv[i].known and argv[i].text in takes_value else 1
        if wrapper in _OPERAND_FIRST and i < len(argv) and not argv[i].known and argv[i].single:
            i += 1  # `timeout "$LIMIT" cmd`: one word, known only at run time, is the limit
        if wrapper == "flock" and i + 1 < len(argv) and not _flock_string(argv[i + 1]):
            i += 1  # `flock /tmp/lock CMD`: the lock file is flock's (`-c STR`: its own rule)
    return min(i, len(argv))


def _flock_string(word: Field) -> bool:
    """flock's `-c`/`--command` after the lock file: it hands a string to a shell."""
    return word.known and (word.text in ("-c", "--command") or word.text.startswith("--command="))


def _option_word(word: Field) -> bool:
    return (word.text if word.known else word.prefix).startswith("-")


def _wrapper_option(word: Field) -> bool:
    """A wrapper's own word: an option, an assignment or an argument it takes; or an option
    whose value is known only at run time but stays in that one word (`--jobid="$ID"`)."""
    if word.known:
        return _wrapper_word(word.text)
    # `--jobid="$ID"`, or `NAME="$(...)"` given to `env`/`sudo`: still one word of theirs
    return word.single and (word.prefix.startswith("-") or bool(ASSIGNMENT.match(word.prefix)))


def _wrapper_word(text: str) -> bool:
    return (
        text.startswith("-") or bool(ASSIGNMENT.match(text)) or bool(_WRAPPER_ARG.fullmatch(text))
    )


def _file_at(argv: Sequence[Field], i: int, *, command: bool) -> Field | None:
    word = argv[i]
    looked_up = LOOKED_UP.fullmatch(word.text) if not word.known else None
    if looked_up is not None:  # the named program, as if written plainly
        word = Field(looked_up[1], True, looked_up[1], word.line)
    name = basename(word.text) if word.known else ""
    if name in INTERPRETERS:
        return _operand(argv, i + 1)
    if name and PYTHON.fullmatch(name):
        return _python_operand(argv, i + 1)
    if command and name in _AT:
        return _at_operand(argv, i + 1)
    if command and name in COMMAND_FILE_READERS and _reads_commands(argv, i):
        return _commands_file(argv, i)
    if not command:
        return word if word.known and word.text.endswith(".sh") else None
    if not word.known or "/" in word.text or word.text.endswith(".sh"):
        return word
    return None


# Commands that hand a string to a shell by an option (`su USER -c STR`, `flock FILE -c STR`,
# `script -qc STR FILE`, `runuser -u U -c STR`, `capsh -- -c STR`): the string is code, as
# `sh -c STR` reads it.
_STRING_OPTION_RUNNERS = frozenset({"su", "runuser", "flock", "script", "capsh", "sg"})
# Commands that run their other words as a command line: `watch CMD`, `ssh HOST CMD...` (on the
# remote host's shell), `parallel CMD ::: ARGS` (or each of ARGS, with no CMD), and a shell's
# string under `find -exec`.
_WORD_RUNNERS = frozenset({"watch", "ssh", "parallel", "find", "tmux", "screen"})
_WATCH_VALUED = frozenset({"-n", "--interval", "-q", "--equexit"})  # procps watch
# The runners `shell_string_of` reads (a shell among their words is theirs to run).
STRING_RUNNERS = _STRING_OPTION_RUNNERS | _WORD_RUNNERS | {"env"}
# ssh's options that take the next word as their value (`ssh -p 2222 -i key HOST CMD`).
_SSH_VALUE_OPTIONS = frozenset("BbcDEeFIiJLlmOopQRSWw")
# GNU parallel's options that take the next word (`parallel -j 4 CMD ::: ...`).
_PARALLEL_VALUE_OPTIONS = frozenset(
    {"-j", "--jobs", "-S", "--sshlogin", "--joblog", "-a", "--arg-file", "--delay", "--timeout",
     "--tmpdir", "--results", "--colsep", "-C", "-d", "--delimiter", "-I", "-E", "--env", "-n",
     "-N", "-L", "--retries", "--halt", "--memfree", "--load", "--tag-string", "--workdir"}
)  # fmt: skip


# tmux: the global options taking a value, the commands whose operands are a shell command
# (`new-session -d 'cmd'`; `send-keys` types its operands into a shell), and their options
# taking one; screen: the options taking a value (`screen -dmS name cmd`).
_TMUX_GLOBAL_VALUED = frozenset({"-L", "-S", "-f", "-T"})
_TMUX_RUNNING = frozenset(
    {"new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane",
     "respawnp", "respawn-window", "respawnw", "run-shell", "run", "pipe-pane", "pipep",
     "if-shell", "if", "send-keys", "send"}
)  # fmt: skip
_TMUX_VALUED = frozenset("cefFlnstTxyw")
_SCREEN_VALUED = frozenset("cehpSTt")


def shell_string_of(argv: Sequence[Field]) -> Field | None:
    """The command string a command other than a shell hands to `sh -c`: the value of the
    string runners' `-c` (in a cluster too: `script -qc STR`) or `--command=`, the words
    `watch`, `ssh` and `parallel` run joined, the string of a shell `find -exec` runs, or a
    command given in an option or address (`rsync -e`, `ssh -o ProxyCommand=`: option_commands),
    one per line (None: it runs none)."""
    name = basename(argv[0].text) if argv and argv[0].known else ""
    own = _own_string(name, argv)
    given = option_command(name, argv) if name in OPTION_RUNNERS else None
    if given is None or own is None:
        return own or given
    return joined([given, own], "\n")  # `ssh -o ProxyCommand=X HOST CMD`: both run


def _own_string(name: str, argv: Sequence[Field]) -> Field | None:
    if name in _WORD_RUNNERS:
        return _run_words(name, argv)
    if name == "env":
        return _split_string(argv)
    if name not in _STRING_OPTION_RUNNERS:
        return None
    for i, word in enumerate(argv[1:-1], start=1):
        if not word.known:
            continue
        text = word.text
        if text == "--command" or (
            text.startswith("-") and not text.startswith("--") and text.endswith("c")
        ):
            return argv[i + 1]
    for word in argv[1:]:
        if word.known and word.text.startswith("--command="):
            return Field(word.text[len("--command=") :], True, "", word.line)
    return None


def _run_words(name: str, argv: Sequence[Field]) -> Field | None:
    if name == "watch":  # its options come first; `-n N` takes the next word
        i = 1
        while i < len(argv) and argv[i].known and argv[i].text.startswith("-"):
            i += 2 if argv[i].text in _WATCH_VALUED else 1
        return joined(list(argv[i:])) if i < len(argv) else None
    if name == "ssh":
        return _ssh_command(argv)
    if name == "parallel":
        return _parallel_commands(argv)
    if name == "tmux":
        return _tmux_command(argv)
    if name == "screen":
        return _screen_command(argv)
    return _find_shell_string(argv)


def _split_string(argv: Sequence[Field]) -> Field | None:
    """`env -S 'CMD ARGS'` (`--split-string`): the string, split into the command line."""
    for i, word in enumerate(argv[1:], start=1):
        if not word.known or not word.text.startswith("-"):
            return None
        if word.text in ("-S", "--split-string") and i + 1 < len(argv):
            return joined([argv[i + 1], *argv[i + 2 :]])
        if word.text.startswith("--split-string="):
            return Field(word.text.split("=", 1)[1], True, "", word.line)
        if word.text.startswith("-S") and not word.text.startswith("--"):
            return joined([Field(word.text[2:], True, "", word.line), *argv[i + 1 :]])
    return None


def _tmux_command(argv: Sequence[Field]) -> Field | None:
    """The shell command a tmux command runs (or the keys `send-keys` types), joined; tmux's
    own `-c CMD` too."""
    i = 1
    while i < len(argv) and _option_word(argv[i]):
        text = argv[i].text if argv[i].known else ""
        if text == "-c" and i + 1 < len(argv):
            return argv[i + 1]
        i += 2 if text in _TMUX_GLOBAL_VALUED else 1
    if i >= len(argv) or not argv[i].known or argv[i].text not in _TMUX_RUNNING:
        return None
    typed = argv[i].text in ("send-keys", "send")
    i += 1
    while i < len(argv) and _option_word(argv[i]):
        text = argv[i].text if argv[i].known else ""
        i += 2 if len(text) > 1 and text[-1] in _TMUX_VALUED else 1
    words = argv[i:]
    if not words:
        return None
    return joined(words) if typed or len(words) == 1 else _quoted(words)


def _screen_command(argv: Sequence[Field]) -> Field | None:
    """The command line screen starts (`screen -dmS s CMD ARGS`), or the text `-X stuff`
    types into its shell."""
    i = 1
    while i < len(argv) and _option_word(argv[i]):
        text = argv[i].text if argv[i].known else ""
        if text == "-X":
            rest = argv[i + 1 :]
            typed = len(rest) > 1 and rest[0].known and rest[0].text == "stuff"
            return rest[1] if typed else None
        i += 2 if len(text) > 1 and text[-1] in _SCREEN_VALUED else 1
    words = argv[i:]
    return _quoted(words) if words else None


def _quoted(words: Sequence[Field]) -> Field:
    """Words a program runs as they are (no shell between), as a command line that reads back
    into the same words."""
    if all(w.known for w in words):
        return Field(" ".join(shlex.quote(w.text) for w in words), True, "", words[0].line)
    return joined(words)


def _ssh_command(argv: Sequence[Field]) -> Field | None:
    """The command line ssh runs on the host: its words after the destination, joined."""
    i = 1
    while i < len(argv) and _option_word(argv[i]):
        text = argv[i].text if argv[i].known else ""
        if text == "--":
            i += 1
            break
        valued = len(text) == 2 and text[1] in _SSH_VALUE_OPTIONS
        i += 2 if valued else 1
    words = argv[i + 1 :]  # after the destination
    return joined(words) if words else None


def _parallel_commands(argv: Sequence[Field]) -> Field | None:
    """The command parallel runs for each argument (`parallel CMD ::: ARGS`), or, with none
    given, the arguments, each a command (`parallel ::: 'cmd1' 'cmd2'`): one per line."""
    i = 1
    while i < len(argv) and _option_word(argv[i]) and not argv[i].text.startswith(":::"):
        i += 2 if argv[i].known and argv[i].text in _PARALLEL_VALUE_OPTIONS else 1
    separators = (":::", "::::", ":::+", "::::+")
    end = next((j for j in range(i, len(argv)) if argv[j].text in separators), len(argv))
    if end > i:
        return _substituted(joined(argv[i:end]), {"{}"})
    commands = [w for w in argv[end + 1 :] if w.text not in separators]
    return joined(commands, "\n") if commands else None


def _find_shell_string(argv: Sequence[Field]) -> Field | None:
    """The string of a shell `find -exec` (or `-execdir`, `-ok`, `-okdir`) runs, for each file
    found; a `{}` in it is the file's name, known only at run time."""
    for i, word in enumerate(argv):
        if word.text in ("-exec", "-execdir", "-ok", "-okdir") and i + 1 < len(argv):
            shell = argv[i + 1]
            if shell.known and basename(shell.text) in INTERPRETERS:
                at = command_string_at(argv[i + 1 :])
                if at:
                    return _substituted(argv[i + 1 + at], {"{}"})
    return None


def command_string_at(argv: Sequence[Field]) -> int:
    """Where the command string of a shell given `-c` is (`bash -c X`, `bash -lc X`, `sh -e
    -c X`: the first operand after the options, as the shell takes it); 0 when the shell
    runs no string (or its options are known only at run time)."""
    i = 1
    given = False
    while i < len(argv):
        word = argv[i]
        if not word.known:
            return i if given else 0
        text = word.text
        if text == "--" or text[:1] not in ("-", "+") or text in ("-", "+"):
            at = i + 1 if text == "--" else i
            return at if given and at < len(argv) else 0
        if not text.startswith("--") and "c" in text[1:]:
            given = True
        i += 2 if text in _OPTION_ARGS else 1
    return 0


def _operand(argv: Sequence[Field], i: int) -> Field | None:
    """The file operand of an interpreter whose options start at `i`; STDIN when it reads its
    script from standard input (`bash < x.sh`, `cat x.sh | sh`, `bash -s`), whose file the
    reader does not follow; None for `-c`, which runs a string that is read elsewhere."""
    line = argv[i - 1].line
    while i < len(argv):
        word = argv[i]
        if not word.known:
            return word  # an option or the file: either way a run-time word names what runs
        text = word.text
        if text == "--":
            return argv[i + 1] if i + 1 < len(argv) else _stdin(line)
        if text[:1] not in ("-", "+") or text in ("-", "+"):
            return word if text not in ("-", "+") else _stdin(line)
        if not text.startswith("--") and "c" in text:
            return None
        if not text.startswith("--") and "s" in text:
            return _stdin(line)
        i += 2 if text in _OPTION_ARGS else 1
    return _stdin(line)


def _at_operand(argv: Sequence[Field], i: int) -> Field | None:
    """What `at`/`batch` runs later in a shell: the file of `-f F`, else its standard input."""
    words = list(argv[i:])
    for j, word in enumerate(words):
        if word.known and word.text == "-f" and j + 1 < len(words):
            return words[j + 1]
        if word.known and word.text.startswith("-f") and len(word.text) > 2:
            return Field(word.text[2:], True, "", word.line)
    return _stdin(argv[i - 1].line)


def _reads_commands(argv: Sequence[Field], i: int) -> bool:
    """`make`, `docker compose` (`docker-compose`, `podman compose`): they run what a file of
    theirs says (a makefile's recipes, a compose file's images and commands)."""
    name = basename(argv[i].text)
    if name in _MAKE or name in _COMPOSE or name in _TASK_FILES:
        return True
    if name == "kubectl":
        texts = [word.text for word in argv[i + 1 :]]
        manifest = any(t.split("=", 1)[0] in ("-f", *_KUBECTL_FILE_OPTIONS) for t in texts)
        return manifest and any(t in _KUBECTL_MANIFEST_VERBS for t in texts)
    return name == "compose" and i > 0 and basename(argv[i - 1].text) in ("docker", "podman")


def _commands_file(argv: Sequence[Field], i: int) -> Field:
    """The file `make`/compose/kubectl reads: `-f F` (`--file F`, `--file=F`, `-fF`;
    `--makefile`; kubectl's `--filename` and a kustomization `-k DIR`), else the default one
    (`Makefile`, in `-C DIR` when given; `docker-compose.yml`)."""
    words = list(argv[i + 1 :])
    tasks = _TASK_FILES.get(basename(argv[i].text))
    if tasks is not None:
        found = _task_file(words, *tasks, argv[i].line)
        option = _TASK_DIRECTORY_OPTIONS.get(basename(argv[i].text))
        into = _option_value(words, option) if option else None
        if into is None or found.text.startswith("/"):
            return found
        pieces = [*(into.parts or ((into.text, into.known),)), ("/", True)]
        return of_pieces([*pieces, *(found.parts or ((found.text, found.known),))], found.line)
    kubectl = _KUBECTL_FILE_OPTIONS if basename(argv[i].text) == "kubectl" else ()
    directory = ""
    for j, word in enumerate(words):
        text = word.text
        value = words[j + 1] if j + 1 < len(words) else None
        if text in ("-f", "--file", "--makefile", *kubectl) and value is not None:
            return value
        for option in ("--file=", "--makefile=", *(f"{o}=" for o in kubectl if o[1] == "-")):
            if text.startswith(option):
                return Field(text[len(option) :], word.known, "", word.line)
        if text.startswith("-f") and len(text) > 2 and not text.startswith("--"):
            return Field(text[2:], word.known, "", word.line)
        if text == "-C" and value is not None and value.known:
            directory = value.text.rstrip("/") + "/"
    make = basename(argv[i].text) in _MAKE
    return Field(f"{directory}Makefile" if make else "docker-compose.yml", True, "", argv[i].line)


def _option_value(words: Sequence[Field], option: str) -> Field | None:
    """The value of a short option given as the next word or joined to it (`-C d`, `-Cd`);
    the last one counts, as getopt reads them."""
    found = None
    for j, word in enumerate(words):
        if word.known and word.text == option and j + 1 < len(words):
            found = words[j + 1]
        elif word.known and word.text.startswith(option) and len(word.text) > len(option):
            found = Field(word.text[len(option) :], True, word.text[len(option) :], word.line)
    return found


def _task_file(words: Sequence[Field], options: frozenset[str], default: str, line: int) -> Field:
    """A task runner's file: its option's value (`-f F`, `--justfile=F`), else its default."""
    for j, word in enumerate(words):
        name, joined, value = word.text.partition("=")
        if word.known and name in options and joined:
            return Field(value, True, value, word.line)
        if word.known and word.text in options and j + 1 < len(words):
            return words[j + 1]
    return Field(default, True, "", line)


def _python_operand(argv: Sequence[Field], i: int) -> Field | None:
    """The program file python runs (`python3 -u x.py`); None for `-m` (a module, read as a
    launch or a command) and `-c` (a string, scanned as a word); STDIN for `-` or none of them
    (`python3 < x.py`, `curl URL | python3 -`; a heredoc there is read by the checks, see
    `script_file_word` and SimpleCommands.dispatch)."""
    line = argv[i - 1].line
    while i < len(argv):
        word = argv[i]
        if not word.known:
            return word
        text = word.text
        if text == "-":
            return _stdin(line)  # its program from standard input (a heredoc there is read)
        if text == "-c" and i + 1 < len(argv) and _substituted_program(argv[i + 1]):
            return argv[i + 1]  # `-c "$(curl URL)"`, `-c "$CODE"`: known only at run time
        if text.startswith(("-m", "-c")):
            return None
        if not text.startswith("-"):
            return word
        i += 2 if text in _PYTHON_OPTION_ARGS else 1
    return _stdin(line)


def _substituted_program(code: Field) -> bool:
    """A `-c` program that is all run-time text: a command's output (`"$(curl URL)"`) or a
    variable's value (`"$CODE"`), known only at run time as a program file named so is. A
    program written out with a substitution or a variable inside (a path, a value) is text the
    checks scan, as before."""
    return (
        not code.known
        and bool(code.parts)
        and all(
            text.startswith(("$", "`")) if not known else not text.strip()
            for text, known in code.parts
        )
    )


def _stdin(line: int) -> Field:
    return Field(STDIN, False, "", line)


def basename(word: str) -> str:
    return word.rsplit("/", 1)[-1]
