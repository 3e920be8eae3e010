"""Recognise an inference-server launch in an expanded command line and read its flags.

Launchers: `vllm serve`, `sglang serve`, `trtllm-serve [serve]`, `python[3] -m <engine module>`
(also through a computed interpreter such as `"$SGLANG_PYTHON" -m sglang.launch_server`) and any
of these behind wrappers (`env A=1`, `nohup`, `numactl ...`, `mpirun ...`, `xargs`, whose
standard input adds arguments known only at run time). Flags are read as
`--flag value` or `--flag=value` (the value kept whole, JSON included). A word whose text is
only known at run time, standing where a flag could be, is kept as `opaque`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from signoff.parse.benchmark.launch import Arg, Engine, Reach, ServerLaunch
from signoff.parse.shell.containers import container_image
from signoff.parse.shell.fields import Field
from signoff.parse.shell.scan import ASSIGNMENT
from signoff.parse.shell.script_files import WRAPPERS, basename

NOT_RUNNING = frozenset(
    {"echo", "printf", "grep", "egrep", "sed", "awk", "cat", "pgrep", "pkill", "kill", "which",
     "command", "type", "test", "[", "[[", "tee", "logger", "true", "false", ":"}
)  # fmt: skip
_PYTHON = re.compile(r"^python(?:3(?:\.\d+)?)?$")
_PY_OPTS_WITH_ARG = frozenset({"-X", "-W", "-Q"})
_MODEL_FLAGS = ("--model", "--model-path", "--model_path")
_NEGATIVE_NUMBER = re.compile(r"-\d[\d.eE+-]*")
_ENGINES: dict[str, Engine] = {
    "vllm": "vllm", "sglang": "sglang", "atom": "atom", "tensorrt_llm": "trtllm",
}  # fmt: skip


def read_args(argv: Sequence[Field]) -> list[Arg]:
    """Long flags with their values: `--flag=value`, `--flag value` or a bare `--flag`.
    Built unvalidated (a launch's twenty flags in every reading): every field set here."""
    args: list[Arg] = []
    i = 0
    while i < len(argv):
        text = argv[i].text
        if not text.startswith("--") or len(text) < 3 or not text[2].isalnum():
            i += 1
            continue
        flag, eq, value = text.partition("=")
        if eq:
            parts = after_prefix(argv[i].parts, len(flag) + 1)
            args.append(
                Arg.model_construct(
                    flag=flag,
                    value=value,
                    line=argv[i].line,
                    joined=True,
                    known=argv[i].known,
                    parts=parts,
                )
            )
        elif i + 1 < len(argv) and _is_value(argv[i + 1]):
            word = argv[i + 1]
            args.append(
                Arg.model_construct(
                    flag=flag,
                    value=word.text,
                    line=argv[i].line,
                    joined=False,
                    known=word.known,
                    parts=word.parts,
                )
            )
            i += 1
        else:
            args.append(
                Arg.model_construct(
                    flag=flag, value=None, line=argv[i].line, joined=False, known=True, parts=()
                )
            )
        i += 1
    return args


def after_prefix(parts: tuple[tuple[str, bool], ...], skip: int) -> tuple[tuple[str, bool], ...]:
    """The pieces of a word's text from character `skip` on (`--flag=` dropped)."""
    out: list[tuple[str, bool]] = []
    for text, known in parts:
        if skip >= len(text):
            skip -= len(text)
            continue
        out.append((text[skip:], known))
        skip = 0
    return tuple(out)


def _is_value(word: Field) -> bool:
    text = word.text if word.known else word.prefix
    if not word.known and not text:
        return True  # `--port "$PORT"`: a run-time value in a value's place
    return not text.startswith("-") or bool(_NEGATIVE_NUMBER.fullmatch(text)) or text == "-"


def opaque_words(argv: Sequence[Field]) -> tuple[str, ...]:
    """Run-time words in a flag's place: not a flag's value, and not known to be a plain word."""
    out: list[str] = []
    expects_value = False
    for word in argv:
        if expects_value and _is_value(word):
            expects_value = False
            continue
        expects_value = False
        if word.known:  # `--flag value` or an engine's `-tp value`
            expects_value = word.text.startswith("-") and "=" not in word.text
        elif "=" in word.prefix and word.prefix.startswith("-"):
            continue  # `--flag=$VALUE`: the flag itself is known
        elif not word.prefix or word.prefix.startswith("-"):
            out.append(word.text)
    return tuple(out)


def read_launch(
    argv: Sequence[Field], env: Callable[[], dict[str, str]], reach: Reach, why: str
) -> ServerLaunch | None:
    """The server launch this command line starts, if it starts one; `env` gives what the
    command's environment exports (asked only for a launch)."""
    if not argv or basename(argv[0].text) in NOT_RUNNING:
        return None
    # a launcher in another command's arguments (`write_command log vllm serve ...`) is data,
    # unless that command is a wrapper that runs it (`mpirun -n 1 trtllm-serve ...`)
    positions = range(len(argv)) if basename(argv[0].text) in WRAPPERS else range(1)
    for i in positions:
        found = _launcher_at(argv, i)
        if found is None:
            continue
        engine, command, rest, positional_model = found
        tail = list(argv[rest:])
        args = read_args(tail)
        positional = tail[0].text if positional_model and tail else None
        if positional is not None and positional.startswith("-"):
            positional = None
        flagged = next((arg.value for arg in args if arg.flag in _MODEL_FLAGS), None)
        model = positional or flagged
        skip = 1 if positional is not None else 0
        return ServerLaunch.model_construct(  # unvalidated: every field set here, as typed
            engine=engine, command=command, model=model, args=tuple(args), line=argv[i].line,
            env={**env(), **_wrapper_env(argv[:i])}, reach=reach, why=why,
            opaque=opaque_words(tail[skip:]),  # xargs's input too (script_files.XARGS_INPUT)
            container=_container(argv),
        )  # fmt: skip
    return None


def launcher_word(argv: Sequence[Field]) -> Field | None:
    """The word naming the program a launch runs (`vllm`, `./bin/vllm`, `python3`)."""
    if not argv or basename(argv[0].text) in NOT_RUNNING:
        return None
    positions = range(len(argv)) if basename(argv[0].text) in WRAPPERS else range(1)
    return next((argv[i] for i in positions if _launcher_at(argv, i) is not None), None)


def _launcher_at(argv: Sequence[Field], i: int) -> tuple[Engine, str, int, bool] | None:
    name = basename(argv[i].text)
    nxt = argv[i + 1].text if i + 1 < len(argv) else ""
    if name in ("vllm", "sglang") and nxt == "serve":
        return ("vllm" if name == "vllm" else "sglang"), f"{name} serve", i + 2, True
    if name == "trtllm-serve":
        if nxt == "serve":
            return "trtllm", "trtllm-serve serve", i + 2, True
        return "trtllm", "trtllm-serve", i + 1, True
    if _PYTHON.match(name):
        return _python_module(argv, i, name)
    if nxt == "-m" and (not argv[i].known or "python" in argv[i].text):
        # `"$SGLANG_PYTHON" -m sglang.launch_server` with SGLANG_PYTHON="$(command -v python3)"
        return _python_module(argv, i, "python")
    return None


def _python_module(
    argv: Sequence[Field], i: int, python: str
) -> tuple[Engine, str, int, bool] | None:
    j = i + 1
    while j < len(argv) and argv[j].text != "-m" and argv[j].text.startswith("-"):
        j += 2 if argv[j].text in _PY_OPTS_WITH_ARG else 1
    if j + 1 >= len(argv) or argv[j].text != "-m":
        return None
    module = argv[j + 1].text
    command = f"{python} -m {module}"
    root = module.split(".", 1)[0]
    if root in _ENGINES and (root == "atom" or "serve" in module or "server" in module):
        return _ENGINES[root], command, j + 2, False
    if re.search(r"(?:launch_server|api_server|serve|server)$", module):
        return "other", command, j + 2, False
    return None


def _container(argv: Sequence[Field]) -> str:
    """The image (or, for `exec`, the container) a docker-style runtime runs the launch in, as
    resolved; "" when no such runtime wraps it."""
    image = container_image(argv)
    return image.text if image is not None else ""


def _wrapper_env(before: Sequence[Field]) -> dict[str, str]:
    """`env A=1 vllm serve`: assignments given to an `env` wrapper."""
    env: dict[str, str] = {}
    if before and basename(before[0].text) in WRAPPERS:
        for word in before[1:]:
            match = ASSIGNMENT.match(word.text)
            if match:
                env[match.group(1)] = word.text[match.end() :]
    return env
