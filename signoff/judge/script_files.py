"""Scripts a benchmark script runs by file: which of them the PR may have written, and why.

signoff reads the scripts it judges, never a script one of them runs by file (`bash x.sh`,
`./x.sh`). An unchanged repository file was reviewed when it landed; a file the PR adds or
changes was not, so a call that may run one counts against a PASS: its base name is that of a
file the PR adds or changes (a path match is a base-name match too; so is a command's plain
name, since a script may put its own directory on PATH), or its name is known only
at run time and the PR adds or changes any other file (a shell runs a file of any name)
but the scripts being judged and the master configs and changelog signoff reads as data. When
the PR's file list is incomplete, every such call counts. Dead paths were never recorded.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

from signoff.evidence import ChangedFile
from signoff.judge.baseline import unchanged_call
from signoff.judge.computed_command import computed_command, filled_at_run_time
from signoff.judge.context import JudgeContext
from signoff.judge.environment_program import environment_program
from signoff.judge.fetched_code import (
    changed_reading,
    fetched_from,
    library_from_fetch,
    piped_in_a_word,
    python_fetches,
    run_time,
    saved_by_fetches,
    trusted,
)
from signoff.judge.paths import path_matches
from signoff.judge.quote import code
from signoff.memo import ByIdentity
from signoff.parse.benchmark.launch import ScriptFileRun, ScriptRun
from signoff.parse.shell import wildcards
from signoff.parse.shell.import_paths import (
    FIRST_PATH_ENTRY,
    GPU_TOOL_VARIABLES,
    LINKER_VARIABLES,
)
from signoff.parse.shell.path_variables import (
    DIRECTORY_VARIABLES,
    LIBRARIES,
    MODELS,
    PACKAGES,
    TOOLS,
)
from signoff.parse.shell.scan import expansion_end, fallback_words
from signoff.parse.shell.script_files import PACKAGE_FILES, PYTHON_BUILD_FILES, basename
from signoff.parse.shell.sources import DIR_OF

UNREAD = "signoff does not read scripts run by file"
UNBUILT = "signoff does not read what a package's build runs or installs"
UNIMPORTED = "signoff does not read the Python code every later Python imports from there"
UNIMPORTED_FIRST = "signoff does not read the Python code it may import from there"
UNLINKED = "signoff does not read native libraries"
UNLOADED = "signoff does not read the models, code or kernels loaded from there"
UNCOMPILED = "signoff does not read the programs run or the code linked from there"
UNREAD_MODULES = "signoff does not read Perl, Ruby or Node.js modules"
# What a later program takes from a directory a variable names, and what signoff does not read.
_TAKES = {
    PACKAGES: ("a later install builds or takes packages", UNBUILT),
    MODELS: (
        "the engine and its libraries load models, their code or compiled kernels",
        UNLOADED,
    ),
    TOOLS: (
        "the engine's just-in-time kernel builds (Triton, torch extensions, DeepGEMM, "
        "FlashInfer) run compilers and tools or link code",
        UNCOMPILED,
    ),
    LIBRARIES: ("every Perl, Ruby or Node.js program started later loads modules", UNREAD_MODULES),
}
INCOMPLETE = "and the PR's file list is incomplete (GitHub lists at most 3,000 files)"
# The checkout's root as scripts spell it.
_WORKSPACE = ("$GITHUB_WORKSPACE", "${GITHUB_WORKSPACE}")
# A reading's commands as runs of files by plain name, kept for a reading's copies in every
# round: real readings make fewer than 150 such commands; a hostile one making thousands is
# built again rather than kept (44 MB in bench_hostile's heredoc case).
_PLAIN_NAMES: ByIdentity[tuple[object, tuple[ScriptFileRun, ...]]] = ByIdentity(512)
_PLAIN_NAMES_KEPT_UP_TO = 256
UNFETCHED = (
    "signoff does not read what a URL serves, and the profile's fetched_code.trusted does not "
    "list it"
)


def unread_script_file(ctx: JudgeContext, run: ScriptRun, judged: Iterable[str]) -> str:
    """Why `run` cannot pass: an inline Python program that downloads code and runs it, or the
    first call it makes to a script file the PR may have written ("" when there is none).
    `judged`: the files the check reads itself (a call to one of them is read there)."""
    skip = set(judged)
    program = python_fetches(ctx, run)
    if program is not None:  # never trusted: what the program does with what it fetches is unread
        where = f" ({run.label})" if run.label else ""
        source = _source(program.fetch.urls)
        return (
            f"{run.path}:{program.line} runs {code(program.command)}, an inline Python program "
            f"that downloads code from {source} and runs it when the sweep runs; signoff does "
            f"not read what a URL serves{where}"
        )
    contained = _other_image(ctx, run)
    if contained:
        return contained
    saved = saved_by_fetches(ctx, run)
    for call in run.script_files:  # a file run by path (a plain name is looked up on PATH)
        moved = _in_moved_submodule(ctx, run, call)
        if moved:  # the PR chose the file's text, however the base ran it
            return f"{_runs(run, call)}, which runs {moved}; {UNREAD}{_where(run, call)}"
    for call in (*run.script_files, *_by_plain_name(run)):
        if unchanged_call(ctx, run, call):
            continue  # the base ran it the same way, fed the same
        fetch = fetched_from(ctx, run, call, saved)
        if fetch is not None and trusted(ctx, run, fetch):
            continue  # a program the maintainers decided to run (profile fetched_code.trusted)
        if fetch is not None:
            where = f" ({run.label})" if run.label else ""
            source = _source(fetch.urls)
            plainly = "" if fetch.plain else " (not as a plain fetch)"
            return (
                f"{run.path}:{call.line} runs {code(call.command)}, a program fetched from "
                f"{source}{plainly} when the sweep runs; {UNFETCHED}{where}"
            )
        if environment_program(ctx, run, call):
            continue  # the runner's or the image's program, or a literal judged by its name
        written = _written_by_pr(ctx, call, skip, run.path)
        if written:
            return f"{_runs(run, call)}, {written}; {UNREAD}{_where(run, call)}"
        computed = computed_command(ctx, run, call)
        if computed:
            return (
                f"{_runs(run, call)}, a command the script computes when it runs ({computed}); "
                f"signoff cannot tell what it runs{_where(run, call)}"
            )
    where = f" ({run.label})" if run.label else ""
    library = library_from_fetch(ctx, run, saved)
    if library is not None and not trusted(ctx, run, library[2]):
        line, entry, fetch = library
        return (
            f"{run.path}:{line} launches the engine with {code(entry)}, a directory filled "
            f"from {_source(fetch.urls)} when the sweep runs: the engine loads native code from "
            f"there; {UNFETCHED}{where}"
        )
    handed = piped_in_a_word(ctx, run)
    if handed is not None and not trusted(ctx, run, handed[2]):
        line, command, fetch = handed
        return (
            f"{run.path}:{line} runs {code(command)}, handing it code that runs a program "
            f"fetched from {_source(fetch.urls)}; {UNFETCHED}{where}"
        )
    for install in run.installs:
        held = _installed_from_pr(ctx, run, install)
        if not held:
            continue
        may = f" [may run: {install.why}]" if install.why else ""
        if install.loaded_by in LINKER_VARIABLES:  # `LD_PRELOAD=F`, `CUDA_INJECTION64_PATH=F`
            programs = (
                "CUDA or ROCm program started later (the engine too)"
                if install.loaded_by in GPU_TOOL_VARIABLES
                else "program started later"
            )
            return (
                f"{run.path}:{install.line} sets {code(install.command)}, which has every "
                f"{programs} load native code from {held}; {UNLINKED}{where}{may}"
            )
        if install.loaded_by == FIRST_PATH_ENTRY:  # `python3 -m M` imports from `.` first
            return (
                f"{run.path}:{install.line} runs {code(install.command)}, whose first import "
                f"path entry is {held}; {UNIMPORTED_FIRST}{where}{may}"
            )
        directory = DIRECTORY_VARIABLES.get(install.loaded_by)
        if directory is not None:  # `PIP_FIND_LINKS=DIR`, `HF_HUB_CACHE=DIR`
            takes, unread = _TAKES[directory.takes]
            return (
                f"{run.path}:{install.line} sets {code(install.command)}, from which {takes}: "
                f"{held}; {unread}{where}{may}"
            )
        if install.loaded_by:  # `PYTHONPATH=DIR`
            return (
                f"{run.path}:{install.line} sets {code(install.command)}, which puts {held}, "
                f"ahead of the installed packages on Python's path; {UNIMPORTED}{where}{may}"
            )
        return (
            f"{run.path}:{install.line} runs {code(install.command)}, which installs "
            f"{held}; {UNBUILT}{where}{may}"
        )
    return ""


def _runs(run: ScriptRun, call: ScriptFileRun) -> str:
    return f"{run.path}:{call.line} runs {code(call.command)}"


def _where(run: ScriptRun, call: ScriptFileRun) -> str:
    """The reading's label and why the call may run, as a reason ends."""
    where = f" ({run.label})" if run.label else ""
    return where + (f" [may run: {call.why}]" if call.why else "")


def _source(urls: tuple[str, ...]) -> str:
    """Where a fetched program comes from, as a reason names it."""
    return ", ".join(code(url) for url in urls) or "a URL known only at run time"


def _installed_from_pr(ctx: JudgeContext, run: ScriptRun, install: ScriptFileRun) -> str:
    """The checkout directory a local install builds and how the PR may have written it: a
    file in it the PR adds or changes, or a file list GitHub cut short ("": neither). `.` at
    the checkout's root holds only the files the tool reads there (`install.root_files`: its
    manifests, locks and hooks; Python's build files by default); a path whose start is known
    only at run time names any directory its known tail ends with."""
    directories = _install_directories(run, install, ctx.policy.paths.checkout_mounts)
    if directories and ctx.evidence.files_truncated:
        return f"{code(directories[0][0])}, {INCOMPLETE}"
    moved = _in_moved_submodule(ctx, run, install, directories)
    if moved:
        return moved
    gitlinks = ctx.gitlinks  # a moved submodule counts above, and a trusted one not at all
    changed = [f for f in ctx.evidence.changed_files if f.status != "removed"]
    changed = [f for f in changed if f.path not in gitlinks]
    roots = install.root_files or PYTHON_BUILD_FILES
    for directory, anchored in directories:
        for file in changed:
            if directory == ".":  # the tool's own files there (its manifests, locks, hooks)
                hit = _counted(file.path, roots)
            elif install.counted:  # only some files count, wherever the directory is
                hit = any(
                    _counted(inside, install.counted)
                    for inside in _inside(file.path, directory, anchored)
                )
            elif anchored:
                hit = file.path == directory or file.path.startswith(f"{directory}/")
            else:  # the known tail: a directory on the file's path, or the file itself
                hit = f"/{directory}/" in f"/{file.path}" or file.path.endswith(f"/{directory}")
            if hit:
                verb = "adds" if file.status == "added" else "changes"
                if directory == ".":
                    return f"the checkout's root, holding {code(file.path)}, which this PR {verb}"
                if file.path == directory or f"/{directory}/" not in f"/{file.path}":
                    return f"{code(file.path)}, which this PR {verb}"  # a package file
                holding = f"a directory holding {code(file.path)}, which this PR {verb}"
                return f"{code(directory)}, {holding}"
    return ""


def _in_moved_submodule(
    ctx: JudgeContext,
    run: ScriptRun,
    record: ScriptFileRun,
    paths: list[tuple[str, bool]] | None = None,
) -> str:
    """How the file or directory a record names lies in a submodule the PR points at another
    commit, whose files signoff does not read ("" when it does not): a path from the
    checkout's root inside it, or a path whose start is known only at run time that names it
    (`$ROOT/utils/aiperf/x.sh`)."""
    moved = ctx.moved_submodules
    if not moved:
        return ""
    if paths is None:
        paths = _install_directories(run, record, ctx.policy.paths.checkout_mounts)
    for path, anchored in paths:
        submodule = ctx.submodule_holding(path, anchored=anchored)
        if not submodule:
            continue
        what = f"a submodule this PR points at commit {code(moved[submodule][:12])}"
        if path == submodule:
            return f"{code(submodule)}, {what}"
        return f"{code(path)}, inside {code(submodule)}, {what}"
    return ""


def _counted(path: str, globs: tuple[str, ...]) -> bool:
    """Whether `path` matches a glob and no `!`-glob of `globs`."""
    if any(path_matches(path, glob[1:]) for glob in globs if glob.startswith("!")):
        return False
    return any(path_matches(path, glob) for glob in globs if not glob.startswith("!"))


def _inside(path: str, directory: str, anchored: bool) -> list[str]:
    """`path` relative to `directory` (from the checkout's root, or, not anchored, wherever a
    directory of that path lies on it)."""
    if anchored:
        return [path[len(directory) + 1 :]] if path.startswith(f"{directory}/") else []
    found, at = [], f"/{path}".find(f"/{directory}/")
    while at != -1:
        found.append(path[at + len(directory) + 1 :])
        at = f"/{path}".find(f"/{directory}/", at + 1)
    return found


def _install_directories(
    run: ScriptRun, install: ScriptFileRun, mounts: tuple[str, ...]
) -> list[tuple[str, bool]]:
    """Where in the checkout the installed directory may be, and whether from its root: the
    word joined to each directory the last `cd` may have gone to (or to the checkout's root,
    where the sweep starts the script), with `$GITHUB_WORKSPACE`, the checkout's mount points
    in the launchers' containers (`mounts`: `/workspace`) and the script's own directory
    (`$(dirname "$0")`, `${BASH_SOURCE%/*}`, ... as `source` reads them) spelled out. Any
    other absolute path is outside the checkout; a run-time start leaves the known tail."""
    script = install.origin.rpartition(":")[0] or run.path
    found: list[tuple[str, bool]] = []
    words = [install.word, *fallback_words(install.word)]
    for base, word in ((b, w) for b in install.directories or ("",) for w in words):
        path = in_checkout(posixpath.join(base, word), script, mounts)
        if path is None or path.startswith("/"):
            continue
        anchored = not run_time(path)
        if not anchored:  # `$ROOT/benchmarks/pkg`: the tail after its last run-time part
            tail = _after_run_time(path)
            path = tail[tail.index("/") + 1 :] if "/" in tail else ""
        path = posixpath.normpath(path) if path else ""
        if path and not path.startswith(".."):
            found.append((path, anchored))
    return found


def _after_run_time(text: str) -> str:
    """The text after its last run-time part: a `$NAME`, a `${...}` or `$(...)` to its
    matching close (a default inside, `${ROOT:-/opt}`, is part of it), a backquoted command."""
    end = i = 0
    while i < len(text):
        if text[i] == "`" or text.startswith(("${", "$("), i):
            end = i = expansion_end(text, i)
        elif text[i] == "$":
            match = _NAME_AFTER_DOLLAR.match(text, i + 1)
            end = i = match.end() if match else i + 1
        else:
            i += 1
    return text[end:]


_NAME_AFTER_DOLLAR = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]")


def in_checkout(path: str, script: str, mounts: tuple[str, ...] = ()) -> str | None:
    """`path` with the checkout's root and the script's directory spelled out (None: `~`)."""
    for prefix in _WORKSPACE:
        if path.startswith(prefix):
            path = path[len(prefix) :].lstrip("/") or "."
    for mount in mounts:  # `/workspace/tools/pkg` in a container holding the checkout there
        root = mount.rstrip("/")
        if path == root or path.startswith(f"{root}/"):
            path = path[len(root) :].lstrip("/") or "."
    path = DIR_OF.sub(lambda _: posixpath.dirname(script) or ".", path)
    return None if path.startswith("~") else path


def _other_image(ctx: JudgeContext, run: ScriptRun) -> str:
    """A server, shell or Python the reading runs inside a container of another image than the
    sweep's (the entry's image, bound as IMAGE), when the PR changes the script or a file it
    sources: the engine that image holds is not the one the sweep's image was judged for ("" if
    none). An image named only at run time is the environment's (a benchmark client's own
    image, `${CLIENT_IMAGE}`), not the PR's, unless the script computes it (a command's output
    that does not start from $IMAGE: `$(echo ... | base64 -d)/vllm`, or a variable `read` or
    `mapfile` fills); one the profile lists as a sidecar is allowed."""
    if not changed_reading(ctx, run):
        return ""
    image = dict(run.environment).get("IMAGE")
    # unbound: as written; `#` is enroot's registry separator, which the launchers turn into `/`
    sweeps = {docker_name(image)} if image is not None else {"$IMAGE", "${IMAGE}"}
    contained = [(launch.line, launch.command, launch.container, launch.why)
                 for launch in run.launches if launch.container]  # fmt: skip
    contained += [(one.line, one.command, one.word, one.why) for one in run.containers]
    for line, command, container, why in sorted(contained):
        computed = _computed_image(container) or bool(filled_at_run_time(ctx, run, container))
        if docker_name(container) in sweeps or sidecar(ctx, container):
            continue
        if run_time(container) and not computed:
            continue
        where = f" ({run.label})" if run.label else ""
        sweep = code(image) if image else "(no image bound)"
        may = f" [may run: {why}]" if why else ""
        how = ", which the script computes when it runs" if computed else ""
        return (
            f"{run.path}:{line} runs {code(command)} in container image {code(container)}{how}, "
            f"not the sweep's image {sweep} nor a sidecar the profile lists; signoff does not "
            f"read the engine another image holds{where}{may}"
        )
    return ""


# `${NAME:-fallback}` (or `-`, `:=`, `=`): a literal the script chose, used when NAME is unset.
_FALLBACK = re.compile(r"\$\{[A-Za-z_]\w*:?[-=]([^}$`]+)\}")


def _computed_image(image: str) -> bool:
    """An image word holding a command's output that is not made from the sweep's $IMAGE, or
    a fallback the script wrote (`${CLIENT_IMAGE:-evil/vllm}` runs that when nothing sets it)."""
    if _FALLBACK.search(image):
        return True
    substituted = "$(" in image or "`" in image
    return substituted and "$IMAGE" not in image and "${IMAGE" not in image


def sidecar(ctx: JudgeContext, image: str) -> bool:
    """An image the profile lets run beside the engine (`images.sidecars`), by repository."""
    wanted = _repository(image)
    return any(_repository(one.repository) == wanted for one in ctx.policy.images.sidecars)


def _repository(image: str) -> str:
    """`docker://docker.io/library/nginx:1.27@sha256:...` -> `nginx`."""
    name = docker_name(image).split("@", 1)[0]
    head, _, tail = name.rpartition("/")
    name = f"{head}/{tail.split(':', 1)[0]}" if head else tail.split(":", 1)[0]
    for registry in ("docker.io/", "index.docker.io/", "registry-1.docker.io/"):
        name = name.removeprefix(registry)
    return name.removeprefix("library/").lower()


def docker_name(image: str) -> str:
    """An image as docker names it (`nvcr.io#nvidia/x` is `nvcr.io/nvidia/x`; enroot's and
    Apptainer's `docker://` source is the registry's image)."""
    return image.removeprefix("docker://").replace("#", "/")


def _by_plain_name(run: ScriptRun) -> tuple[ScriptFileRun, ...]:
    """Other commands and server launches, as runs of the file their plain name finds on PATH
    (a script may put its own directory there, `hash -p` a name: `helper` or `vllm` then runs
    a file the PR adds). Kept by the run's commands and launches, which a run's copies per
    configuration share: four checks ask in every round of gathering."""
    found = _PLAIN_NAMES.get(run.commands)
    if found is not None and found[0] is run.launches:
        return found[1]
    runs = tuple(_plain_name_runs(run))
    if len(runs) <= _PLAIN_NAMES_KEPT_UP_TO:
        _PLAIN_NAMES.put(run.commands, (run.launches, runs))
    return runs


def _plain_name_runs(run: ScriptRun) -> list[ScriptFileRun]:
    # built from a reading's own fields: nothing to validate (21,000 of them in #2096's rounds)
    found = [
        ScriptFileRun.model_construct(command=" ".join(command.argv), word=command.argv[0],
                      name=command.argv[0], line=command.line, reach=command.reach,
                      why=command.why)
        for command in run.commands
        if command.argv and command.argv[0] and "/" not in command.argv[0]
    ]  # fmt: skip
    for launch in run.launches:
        program = launch.command.split(" ", 1)[0]
        found.append(
            ScriptFileRun.model_construct(command=launch.command, word=program, name=program,
                          line=launch.line, reach=launch.reach, why=launch.why)
        )  # fmt: skip
    return found


def _changed_by_name(ctx: JudgeContext) -> dict[str, list[ChangedFile]]:
    """The files the PR adds or changes, by base name (a call is looked up, not compared with
    every changed file: a script running a thousand files among 3,000 changed ones)."""

    def build() -> dict[str, list[ChangedFile]]:
        named: dict[str, list[ChangedFile]] = {}
        for file in ctx.evidence.changed_files:
            if file.status != "removed" and file.path not in ctx.gitlinks:
                named.setdefault(basename(file.path), []).append(file)
        return named

    return ctx.memoized("script_files.changed_by_name", build)


def _same_name(path: str, call: ScriptFileRun) -> bool:
    """Whether `path` has the base name of the file `call` runs; a package's `__init__.py` or
    `__main__.py` (`python3 -m pkg.mod`) is that of the package's directory only."""
    if basename(path) != call.name:
        return False
    if call.name not in PACKAGE_FILES or "/" not in call.word:
        return True
    return _parent(path) == _parent(call.word)


def _parent(path: str) -> str:
    return basename(path.rsplit("/", 1)[0]) if "/" in path else ""


def _written_by_pr(ctx: JudgeContext, call: ScriptFileRun, skip: set[str], script: str) -> str:
    """How the PR may have written the file `call` runs ("" when it cannot have)."""
    if ctx.evidence.files_truncated:
        return INCOMPLETE
    if call.name and wildcards.has_pattern(call.name):  # `bash tools/*.sh`: each it matches
        named = [f for name, files in _changed_by_name(ctx).items()
                 if wildcards.match(call.name, name) is not False for f in files]  # fmt: skip
        same = [f for f in named if f.path not in skip]
        if same:
            verb = "adds" if same[0].status == "added" else "changes"
            return f"which this PR {verb} ({code(same[0].path)}, a file the pattern matches)"
        return ""
    if call.name:
        named = _changed_by_name(ctx).get(call.name, [])
        same = [f for f in named if _same_name(f.path, call) and f.path not in skip]
        if same:
            verb = "adds" if same[0].status == "added" else "changes"
            return f"which this PR {verb} ({code(same[0].path)})"
        return ""
    # A shell runs a file of any name (`bash notes.txt`), so every file the PR adds or changes
    # may be it, except the master configs and changelog that signoff itself reads as data.
    data = {ctx.policy.append_only.changelog, *ctx.changed_master_files}
    excluded = skip | data | {script} | ctx.gitlinks.keys()
    changed = [f for f in ctx.evidence.changed_files if f.status != "removed"]
    runnable = [f.path for f in changed if f.path not in excluded]
    if runnable:
        more = f" and {len(runnable) - 1} more" if len(runnable) > 1 else ""
        return (
            f"a file known only at run time ({code(call.word)}), and this PR adds or changes "
            f"{code(runnable[0])}{more}"
        )
    return ""
