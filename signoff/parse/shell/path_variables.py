"""Variables naming a file or directory that a later program reads code, packages or models from.

Wherever one is set (`X=v`, `export X=v`, `X=v cmd`, `env X=v cmd`, `printf -v X`, ...), the
reader records it (`SimpleCommands._sets`): a file as one a later program runs, a directory as a
local install loaded by the variable; the checks hold either against a PASS when the PR wrote
what it names. The Python and linker paths (`PYTHONPATH`, `LD_PRELOAD`) have their own rules
(`import_paths`). Nothing is executed here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from signoff.parse.shell.fields import Field
from signoff.parse.shell.script_files import PYTHON_BUILD_FILES, file_reference, root_files
from signoff.parse.shell.values import Text

# Files a later program runs or reads settings from, and what reads them (as a reason says it).
FILE_VARIABLES: dict[str, str] = {
    "BASH_ENV": "a shell started later runs",  # bash; `ENV` for sh
    "ENV": "a shell started later runs",
    "PYTHONSTARTUP": "an interactive Python runs",
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
}

# What a later program takes from a directory a variable names.
PACKAGES = "packages"  # an install builds or takes packages from it
MODELS = "models"  # the engine and its libraries load models, their code or compiled kernels


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
_HOME = (".cache/**", ".triton/**", ".nv/**", ".config/**", ".local/**")
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
    "TORCHINDUCTOR_CACHE_DIR": LoadedDirectory(MODELS, _EVERYTHING),
    "VLLM_CACHE_ROOT": LoadedDirectory(MODELS, _EVERYTHING),
    "TORCH_EXTENSIONS_DIR": LoadedDirectory(MODELS, _EVERYTHING),
    "FLASHINFER_WORKSPACE_BASE": LoadedDirectory(MODELS, _EVERYTHING),
    "CUDA_CACHE_PATH": LoadedDirectory(MODELS, _EVERYTHING),
    "XDG_CACHE_HOME": LoadedDirectory(MODELS, _CACHE_ROOT),
    "HOME": LoadedDirectory(MODELS, _HOME),
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
}
_ALSO_WHOLE = frozenset({"UV_ENV_FILE"})


def named_paths(name: str, value: Text, line: int) -> list[Field]:
    """The files or directories `name=value` names: each entry of a list known whole, else the
    value as it is (known in part or whole); `file:///w/wheels` is `/w/wheels`."""
    if not value.known:
        return [Field(value.text, False, value.prefix, line, value.parts)]
    separator = _LISTS.get(name)
    texts = separator.split(value.text) if separator is not None else [value.text]
    if name in _ALSO_WHOLE:
        texts = [value.text, *texts]
    paths = dict.fromkeys(file_reference(text) for text in texts if text)
    return [Field(path, True, path, line) for path in paths if path]
