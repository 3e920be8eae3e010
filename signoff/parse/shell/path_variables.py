"""Variables naming a file or directory that a later program reads code, packages or models from,
or runs compilers and tools from.

Wherever one is set (`X=v`, `export X=v`, `X=v cmd`, `env X=v cmd`, `printf -v X`, ...), the
reader records it (`SimpleCommands._sets`): a file as one a later program runs, a directory as a
local install loaded by the variable; the checks hold either against a PASS when the PR wrote
what it names. The Python and linker paths (`PYTHONPATH`, `LD_PRELOAD`) have their own rules
(`import_paths`). Nothing is executed here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from signoff.parse.shell.fields import Field, of_pieces, split_pieces
from signoff.parse.shell.script_files import PYTHON_BUILD_FILES, file_reference, root_files
from signoff.parse.shell.values import Text

# Files a later program runs or reads settings from, and what reads them (as a reason says it).
FILE_VARIABLES: dict[str, str] = {
    "BASH_ENV": "a shell started later runs",  # bash; `ENV` for sh
    "ENV": "a shell started later runs",
    "PYTHONSTARTUP": "an interactive Python runs",
    # vLLM's logging configuration (`--log-config-file`'s default): Python's dictConfig imports
    # and calls the callables its handlers, filters and formatters name
    "VLLM_LOGGING_CONFIG_PATH": "vLLM configures its logging, importing what it names, from",
    # files of variables a runner loads into its command's environment, as `--env-file` does
    "UV_ENV_FILE": "uv loads variables from",
    "PIPENV_DOTENV_LOCATION": "pipenv loads variables from",
    # files of packages or settings a later install reads, as `-r`, `-c`, `--overrides` or
    # `--config-file` would name them
    "PIP_REQUIREMENT": "pip installs the packages listed in",
    "PIP_CONSTRAINT": "pip installs the versions listed in",
    "PIP_CONFIG_FILE": "pip reads its settings (indexes, options) from",
    "UV_OVERRIDE": "uv installs the versions listed in",
    "UV_CONSTRAINT": "uv installs the versions listed in",
    "UV_BUILD_CONSTRAINT": "uv builds with the versions listed in",
    "UV_CONFIG_FILE": "uv reads its settings (indexes, sources, overrides) from",
    # interpreters' option variables: the files they load and run before the program
    # (`NODE_OPTIONS="--require ./x.js"`, `RUBYOPT=-r./x.rb`; `_OPTION_FILES`)
    "NODE_OPTIONS": "every Node.js program started later loads and runs",
    "RUBYOPT": "every Ruby program started later loads and runs",
}

# What a later program takes from a directory a variable names.
PACKAGES = "packages"  # an install builds or takes packages from it
MODELS = "models"  # the engine and its libraries load models, their code or compiled kernels
TOOLS = "tools"  # the engine's just-in-time kernel builds run compilers or link code from it
LIBRARIES = "libraries"  # Perl, Ruby and Node.js programs load modules from it


@dataclass(frozen=True, slots=True)
class LoadedDirectory:
    takes: str  # PACKAGES or MODELS
    root_files: tuple[str, ...]  # what counts when it names the checkout's root (elsewhere: all)


_ARCHIVES = ("*.whl", "*.tar.gz", "*.tgz", "*.zip", "*.tar.bz2", "*.egg")
_EVERYTHING = ("**",)
_HUB = ("models--*/**", "datasets--*/**")
_CACHE_ROOT = (
    "huggingface/**", "vllm/**", "triton/**", "torch/**", "flashinfer/**", "torch_extensions/**",
    "sglang/**",
)  # fmt: skip
_HOME = (".cache/**", ".triton/**", ".nv/**", ".config/**", ".local/**", ".deep_gemm/**")
# The programs and toolkits the engine's kernel builds run while it serves: the C and C++
# compilers (Triton builds its launchers with $CC; Python extension builds run $CC and $CXX),
# CMake's CUDA compiler, DeepGEMM's nvcc, Triton's ptxas and disassemblers, the libcuda
# directory and libdevice bitcode Triton links, and the CUDA and ROCm toolkits torch
# extensions, FlashInfer and DeepGEMM compile with (their bin/nvcc, bin/hipcc)
_TOOLCHAIN = (
    "CC", "CXX", "CUDACXX", "DG_JIT_NVCC_COMPILER", "TRITON_PTXAS_PATH",
    "TRITON_PTXAS_BLACKWELL_PATH", "TRITON_CUOBJDUMP_PATH", "TRITON_NVDISASM_PATH",
    "TRITON_LIBCUDA_PATH", "TRITON_LIBDEVICE_PATH", "CUDA_HOME", "CUDA_PATH", "ROCM_PATH",
    "ROCM_HOME", "HIP_PATH",
)  # fmt: skip
_INTERPRETER_PATHS = ("PERL5LIB", "PERLLIB", "RUBYLIB", "NODE_PATH", "GEM_HOME", "GEM_PATH")
DIRECTORY_VARIABLES: dict[str, LoadedDirectory] = {
    # uv's project (`uv run`, `uv sync` build and install it), pip's editable project, and
    # directories of packages installed in place of the index's (find-links)
    "UV_PROJECT": LoadedDirectory(PACKAGES, root_files("uv")),
    "UV_WORKING_DIR": LoadedDirectory(PACKAGES, root_files("uv")),
    "PIP_EDITABLE": LoadedDirectory(PACKAGES, PYTHON_BUILD_FILES),
    "PIP_FIND_LINKS": LoadedDirectory(PACKAGES, _ARCHIVES),
    "UV_FIND_LINKS": LoadedDirectory(PACKAGES, _ARCHIVES),
    # the Hugging Face caches (a model's config.json; with trust_remote_code its modules),
    # ModelScope's and torch hub's, the kernel and graph caches (Triton, TorchInductor, vLLM,
    # torch extensions, FlashInfer, CUDA's JIT), the cache root they default under, and the
    # home directory that root defaults under
    "HF_HOME": LoadedDirectory(
        MODELS, ("hub/**", "modules/**", "datasets/**", "xet/**", "assets/**")
    ),
    "HF_HUB_CACHE": LoadedDirectory(MODELS, _HUB),
    "HUGGINGFACE_HUB_CACHE": LoadedDirectory(MODELS, _HUB),
    "TRANSFORMERS_CACHE": LoadedDirectory(MODELS, ("models--*/**",)),
    "HF_MODULES_CACHE": LoadedDirectory(MODELS, ("transformers_modules/**",)),
    "HF_DATASETS_CACHE": LoadedDirectory(MODELS, _EVERYTHING),
    "MODELSCOPE_CACHE": LoadedDirectory(MODELS, _EVERYTHING),
    "TORCH_HOME": LoadedDirectory(MODELS, ("hub/**", "checkpoints/**")),
    "TRITON_CACHE_DIR": LoadedDirectory(MODELS, _EVERYTHING),
    # Triton's kernels given in place of what it compiles (IR, PTX, AMDGCN; with
    # TRITON_KERNEL_OVERRIDE=1), and the home its cache defaults under (`.triton/cache`)
    "TRITON_OVERRIDE_DIR": LoadedDirectory(MODELS, _EVERYTHING),
    "TRITON_HOME": LoadedDirectory(MODELS, (".triton/**",)),
    "TORCHINDUCTOR_CACHE_DIR": LoadedDirectory(MODELS, _EVERYTHING),
    "VLLM_CACHE_ROOT": LoadedDirectory(MODELS, _EVERYTHING),
    "TORCH_EXTENSIONS_DIR": LoadedDirectory(MODELS, _EVERYTHING),
    "FLASHINFER_WORKSPACE_BASE": LoadedDirectory(MODELS, _EVERYTHING),
    "CUDA_CACHE_PATH": LoadedDirectory(MODELS, _EVERYTHING),
    # DeepGEMM's (its own name, SGLang's and SGLang's older one), TVM FFI's (FlashInfer's JIT),
    # TileLang's and CuTe DSL's kernel caches
    "DG_JIT_CACHE_DIR": LoadedDirectory(MODELS, _EVERYTHING),
    "SGLANG_DG_CACHE_DIR": LoadedDirectory(MODELS, _EVERYTHING),
    "SGL_DG_CACHE_DIR": LoadedDirectory(MODELS, _EVERYTHING),
    "TVM_FFI_CACHE_DIR": LoadedDirectory(MODELS, _EVERYTHING),
    "TILELANG_CACHE_DIR": LoadedDirectory(MODELS, _EVERYTHING),
    "CUTE_DSL_CACHE_DIR": LoadedDirectory(MODELS, _EVERYTHING),
    "XDG_CACHE_HOME": LoadedDirectory(MODELS, _CACHE_ROOT),
    "HOME": LoadedDirectory(MODELS, _HOME),
    **dict.fromkeys(_TOOLCHAIN, LoadedDirectory(TOOLS, _EVERYTHING)),
    # the module paths of the interpreters signoff does not read (a Perl one-line edit,
    # `perl -pi -e 's/a/b/' f`, is read as an edit, yet loads what PERL5OPT's `-M` names from
    # them first), and the `-I` directories of their option variables (`_OPTION_DIRECTORIES`)
    **dict.fromkeys(_INTERPRETER_PATHS, LoadedDirectory(LIBRARIES, _EVERYTHING)),
    "PERL5OPT": LoadedDirectory(LIBRARIES, _EVERYTHING),
    "RUBYOPT": LoadedDirectory(LIBRARIES, _EVERYTHING),
}

# The variables holding a list, and what separates its entries as their program reads them:
# pip splits its list options on blanks, uv on the one character its option declares. Every
# other variable names one path, blanks and commas included. uv reads UV_ENV_FILE whole for
# `uv run` and as a blank-separated list elsewhere: both count.
_BLANKS, _SPACE, _COMMA = re.compile(r"\s+"), re.compile(" "), re.compile(",")
_LISTS: dict[str, re.Pattern[str]] = {
    "PIP_REQUIREMENT": _BLANKS,
    "PIP_CONSTRAINT": _BLANKS,
    "PIP_FIND_LINKS": _BLANKS,
    "UV_OVERRIDE": _SPACE,
    "UV_CONSTRAINT": _SPACE,
    "UV_BUILD_CONSTRAINT": _SPACE,
    "UV_FIND_LINKS": _COMMA,
    "UV_ENV_FILE": _SPACE,
    # a compiler given as a command (`CC="ccache gcc"`): setuptools splits it into words
    "CC": _BLANKS,
    "CXX": _BLANKS,
    "CUDACXX": _BLANKS,
    # the interpreters' module paths, as PATH is split
    **dict.fromkeys(_INTERPRETER_PATHS, re.compile(":")),
}
# Option variables: the options whose operand is a directory a later program loads modules
# from, or a file it loads and runs first (short ones take it attached too: `-I/x`, `-r./x`).
# Only an operand that is a path counts (`--require dotenv/config` is a package: it has a
# slash, so it counts too, as a path under the working directory would).
_OPTION_DIRECTORIES: dict[str, tuple[str, ...]] = {"PERL5OPT": ("-I",), "RUBYOPT": ("-I",)}
_OPTION_FILES: dict[str, tuple[str, ...]] = {
    "RUBYOPT": ("-r",),
    "NODE_OPTIONS": ("-r", "--require", "--import", "--loader", "--experimental-loader"),
}
_ALSO_WHOLE = frozenset({"UV_ENV_FILE"})


def named_paths(name: str, value: Text, line: int, *, files: bool = False) -> list[Field]:
    """The files or directories `name=value` names: each entry of a list (split where its known
    text separates them: `CC="ccache $(dirname "$0")/cc"`), else the value as it is (known in
    part or whole); `file:///w/wheels` is `/w/wheels`. An option variable names its options'
    operands: the files it loads (`files`), else the directories."""
    options = (_OPTION_FILES if files else _OPTION_DIRECTORIES).get(name)
    if options is not None:
        return option_operands(name, value, options, line)
    if name in _OPTION_DIRECTORIES or name in _OPTION_FILES:
        return []
    separator = _LISTS.get(name)
    if not value.known:
        if separator is None or not value.parts:
            return [Field(value.text, False, value.prefix, line, value.parts)]
        whole = [Field(value.text, False, value.prefix, line, value.parts)]
        entries = [_entry(pieces, line) for pieces in split_pieces(value.parts, separator)]
        return (whole if name in _ALSO_WHOLE else []) + entries
    texts = separator.split(value.text) if separator is not None else [value.text]
    if name in _ALSO_WHOLE:
        texts = [value.text, *texts]
    paths = dict.fromkeys(file_reference(text) for text in texts if text)
    return [Field(path, True, path, line) for path in paths if path]


def _entry(pieces: tuple[tuple[str, bool], ...], line: int) -> Field:
    """One entry of a partly known list; a known one as a path (`file:///w` is `/w`)."""
    entry = of_pieces(pieces, line)
    if not entry.known:
        return entry
    path = file_reference(entry.text)
    return Field(path, True, path, line)


def option_operands(name: str, value: Text, options: tuple[str, ...], line: int) -> list[Field]:
    """The operands of `options` in the option variable `name`'s value, split on blanks as its
    program splits it: `-I DIR`, `-IDIR`, `--require=F`, `-I$DIR`. A word that starts with text
    known only at run time may be any option (`NODE_OPTIONS="$(cat opts)"`): it counts as an
    operand known only at run time, except the variable's own value before (`"$NODE_OPTIONS
    --max-old-space-size=8192"`), judged where the script set it, or the runner's."""
    pieces = ((value.text, value.known),) if value.known or not value.parts else value.parts
    found: list[Field] = []
    wanted = False  # the word before was an option whose operand is the next word
    for word in split_pieces(pieces, _BLANKS):
        if wanted:
            found.append(_entry(word, line))
            wanted = False
            continue
        first, known = word[0]
        if not known:
            if len(word) > 1 or not own_value(name, first):
                found.append(of_pieces(word, line))
            continue
        for option in options:
            joined = f"{option}=" if option.startswith("--") else option
            if first == option and len(word) == 1:
                wanted = True
                break
            if first.startswith(joined) and (len(first) > len(joined) or len(word) > 1):
                rest = first[len(joined) :]
                found.append(_entry(((rest, True), *word[1:]) if rest else word[1:], line))
                break
    return [field for field in found if not field.known or _is_path(field.text)]


def own_value(name: str, word: str) -> bool:
    """`word` is the variable's own earlier value, with or without a default that is empty or
    itself: `$X`, `${X}`, `${X:-}`, `${X:+$X }`."""
    own = rf"\${name}|\${{{name}}}"
    return re.fullmatch(rf"{own}|\${{{name}:?[-+](?:{own})?\s*}}", word) is not None


def _is_path(text: str) -> bool:
    return "/" in text or text.startswith(".")


# Where the engine and `hf download` fetch a model (its config, code and weights) from: another
# hub than Hugging Face's serves whatever it holds under the entry's model name. The values that
# keep Hugging Face's (any other, or one known only at run time, is a problem the reading keeps).
MODEL_SOURCE_VARIABLES: dict[str, frozenset[str]] = {
    "HF_ENDPOINT": frozenset({"https://huggingface.co", "https://huggingface.co/"}),
    # vLLM's and SGLang's switches to ModelScope: on when set to a true value
    "VLLM_USE_MODELSCOPE": frozenset({"", "0", "false", "no", "off"}),
    "SGLANG_USE_MODELSCOPE": frozenset({"", "0", "false", "no", "off"}),
}


def model_source_problem(name: str, value: Text) -> str:
    """Why `name=value` leaves the model served unverified ("" when it keeps Hugging Face's hub,
    or carries the runner's own value forward: `${HF_ENDPOINT:-}`)."""
    kept = MODEL_SOURCE_VARIABLES.get(name)
    if kept is None:
        return ""
    if value.known:
        text = value.text.strip()
        if (text.lower() if name != "HF_ENDPOINT" else text) in kept:
            return ""
    elif own_value(name, value.text):
        return ""
    source = "ModelScope" if name != "HF_ENDPOINT" else f"`{value.text[:80]}`"
    return (
        f"{name}={value.text[:80]} has the engine and `hf download` fetch the model (its config, "
        f"code and weights) from {source}, not from the Hugging Face repository the entry names; "
        "signoff cannot tell it is the same model"
    )
