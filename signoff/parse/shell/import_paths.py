"""Where Python and the dynamic linker find code before what the image installed, and the
files Python runs as it starts.

`PYTHONPATH` puts directories ahead of site-packages: a module there is imported in place of an
installed one of the same name, and a `sitecustomize.py` there runs in every Python started
afterwards. `PYTHONUSERBASE` names the user site directory (its `.pth` files run at start-up),
`PYTHONHOME` the standard library itself. `LD_LIBRARY_PATH` puts directories ahead of the
system's native libraries, `LD_PRELOAD` and `LD_AUDIT` load libraries into every program,
`GCONV_PATH` character-set converters into any program converting one, and the GPU runtimes'
tool hooks (`CUDA_INJECTION64_PATH`, `HSA_TOOLS_LIB`, NCCL's plugins) into every CUDA or ROCm
program, the engine included. A script that points one of them into the checkout runs the files
there; a script that writes `sitecustomize.py`, `usercustomize.py` or a `.pth` file anywhere
runs what it holds in every later Python. Nothing is executed here.
"""

from __future__ import annotations

import re

from signoff.parse.shell.fields import Field, of_pieces, split_pieces
from signoff.parse.shell.scan import fallback_words
from signoff.parse.shell.values import Text

# The variables naming directories Python reads code from before (or instead of) what the
# image installed; PYTHONPATH holds a `:`-separated list.
PYTHON_PATH_VARIABLES = frozenset({"PYTHONPATH", "PYTHONUSERBASE", "PYTHONHOME"})
# The GPU runtimes' tool hooks, libraries loaded into every program using them: CUDA's driver
# loads CUDA_INJECTION64_PATH's as a process initialises CUDA (CUPTI's injection), NVTX loads
# NVTX_INJECTION64_PATH's at its first call, ROCm's HSA runtime loads HSA_TOOLS_LIB's list
# (blank-separated) and rocprofiler ROCP_TOOL_LIB's; NCCL and RCCL load their network, tuner
# and profiler plugins by path (by a name, `NCCL_NET_PLUGIN=none`, from the library path).
GPU_TOOL_VARIABLES = frozenset({
    "CUDA_INJECTION64_PATH", "CUDA_INJECTION32_PATH", "NVTX_INJECTION64_PATH",
    "NVTX_INJECTION32_PATH", "HSA_TOOLS_LIB", "ROCP_TOOL_LIB", "NCCL_NET_PLUGIN",
    "NCCL_TUNER_PLUGIN", "NCCL_PROFILER_PLUGIN",
})  # fmt: skip
# The dynamic linker's: directories searched before the system's libraries, and libraries
# loaded into every program (`:`- or blank-separated lists); glibc's character-set converters
# (`gconv-modules` and the `.so` they name, from GCONV_PATH's directories, for any program that
# converts a character set); and the GPU runtimes' tool hooks.
LINKER_VARIABLES = frozenset(
    {"LD_LIBRARY_PATH", "LD_PRELOAD", "LD_AUDIT", "GCONV_PATH", *GPU_TOOL_VARIABLES}
)
IMPORT_PATH_VARIABLES = PYTHON_PATH_VARIABLES | LINKER_VARIABLES
_LISTS = frozenset({"PYTHONPATH", *LINKER_VARIABLES})
MAX_PATH_ENTRIES = 64  # entries of one assignment recorded (real ones hold a handful)
# The files of a directory on Python's path that an import may load in place of an installed
# module: modules, bytecode (beside them or cached), extension modules, packages, `.pth` files.
PYTHON_MODULE_FILES = (
    "*.py", "*.pyc", "*.so", "*.pth", "*/__init__.py", "*/__init__.pyc", "*/__init__.*so",
    "__pycache__/*", "*/__pycache__/*",
)  # fmt: skip
_LIBRARIES = ("*.so", "*.so.*")
# `loaded_by` of Python's own first path entry: its program's directory, or the working
# directory for `-m` and `-c` (`script_files.python_first_entry`).
FIRST_PATH_ENTRY = "sys.path[0]"
# What of that entry counts: its modules, less pytest's test modules (`!`: not counted), which
# no program imports and no installed module is named like.
FIRST_ENTRY_FILES = (*PYTHON_MODULE_FILES, "!**/test_*.py", "!**/*_test.py", "!**/conftest.py")
MAX_FIRST_ENTRIES = 64  # distinct first entries of one reading (real scripts run Python from few)


def root_globs(name: str) -> tuple[str, ...]:
    """What an entry of `.` in `name` loads at the checkout's root (as globs; anywhere else
    every file of the directory counts)."""
    return _LIBRARIES if name in LINKER_VARIABLES else PYTHON_MODULE_FILES


# Files Python runs as it starts, wherever they are written (site's own hooks).
_STARTUP_NAMES = frozenset({"sitecustomize.py", "usercustomize.py"})


def import_path_entries(name: str, value: Text, line: int) -> list[Field]:
    """The directories `name=value` puts on Python's path, each as a field (a run-time piece
    keeps the entry unknown, its known tail still names the directory). An entry that is all
    run-time text (`$PYTHONPATH`, `$(mktemp -d)`) names nothing known and is left out, unless
    it holds a fallback the script wrote (`${PP:-$(dirname "$0")/pp}`: that path when PP is
    unset)."""
    if name not in IMPORT_PATH_VARIABLES or not value.text:
        return []
    pieces = value.parts if not value.known else ((value.text, True),)
    separator = _NOTHING if name not in _LISTS else _LINKER if name in LINKER_VARIABLES else _COLON
    found: list[Field] = []
    for parts in split_pieces(pieces, separator):
        known = any(known and text.strip("/") for text, known in parts)
        written = fallback_words("".join(text for text, _ in parts))
        if not (known or any(word.strip("/") for word in written)):
            continue  # all run-time text with no fallback the script wrote
        found.append(of_pieces(parts, line))
    return found


# How each variable separates its entries: the linker's lists on colons and blanks too.
_COLON, _LINKER, _NOTHING = re.compile(":"), re.compile(r"[:\s]"), re.compile(r"(?!)")


def python_startup_file(path: str) -> bool:
    """A file Python runs as it starts when it lies on its path or in a site directory."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return name in _STARTUP_NAMES or name.endswith(".pth")
