"""An environment runner (`uv run`, `poetry run`, `conda run`, ...) starts its command as a
wrapper does: the command is read as if written alone, in the directory the runner moves to,
and a line whose command cannot be placed is a reading problem, never a silent pass."""

from __future__ import annotations

import pytest

from signoff.parse.benchmark.script import evaluate, read_script
from signoff.parse.shell.environment_runners import environment_run, uv_list_files
from signoff.parse.shell.fields import Field


def _run(text: str):
    return evaluate(read_script(f"#!/usr/bin/env bash\n{text}\n", "s.sh"), {})


def _words(line: str) -> list[Field]:
    return [Field(w, True, w, 1) for w in line.split()]


@pytest.mark.parametrize(
    "line, command",
    [
        ("uv run python3 x.py", "python3 x.py"),
        ("uv run x.py --n 1", "python x.py --n 1"),
        ("uv run -m pkg.mod --n 1", "python -m pkg.mod --n 1"),
        ("uv run --script tool", "python tool"),
        ("uv run -", "python -"),
        ("uv -q --cache-dir /c run --with a --python=3.12 -- bash x.sh", "bash x.sh"),
        ("uv run -vv -p3.12 -Ckey=v python3 x.py", "python3 x.py"),
        ("poetry -n run python3 x.py", "python3 x.py"),
        ("hatch run test:pytest -x", "pytest -x"),
        ("hatch run bench", "bench"),
        ("conda run -n env --live-stream python3 x.py", "python3 x.py"),
        ("timeout 60 uv run python3 x.py", "python3 x.py"),
        ("uv run python3 x.py --directory y", "python3 x.py --directory y"),  # the command's
    ],
)
def test_the_command_starts_after_the_runners_own_words(line, command):
    run = environment_run(_words(line))
    assert run is not None and not run.problem
    assert " ".join(w.text for w in run.command) == command


@pytest.mark.parametrize(
    "line",
    ["uv sync", "uv pip install x", "poetry install", "pdm add x", "conda install x",
     "docker run img uv run python3 x.py", "uvx ruff", "vllm serve m"],
)  # fmt: skip
def test_a_line_that_starts_no_command_in_an_environment_is_not_a_run(line):
    assert environment_run(_words(line)) is None


@pytest.mark.parametrize(
    "line, why",
    [
        ("uv run --new-flag x python3 y.py", "option the reader does not know (--new-flag)"),
        ("uv --new-flag run python3 y.py", "uv with an option"),
        ("conda run -e A=1 python3 y.py", "(-e)"),
        ("uv run --python", "--python is given no value"),
        ("uv run https://example.com/x.py", "downloads the script https://example.com/x.py"),
    ],
)
def test_a_command_that_cannot_be_placed_or_read_is_a_problem(line, why):
    run = environment_run(_words(line))
    assert run is not None and why in run.problem


def test_a_server_a_runner_starts_is_a_launch_with_its_flags():
    run = _run('uv run --frozen vllm serve m --hf-overrides "{}" --tensor-parallel-size 8')
    assert run.complete, run.problems
    [launch] = run.launches
    assert launch.command == "vllm serve"
    assert dict((a.flag, a.value) for a in launch.args)["--tensor-parallel-size"] == "8"


def test_the_runners_directory_is_where_its_command_runs():
    run = _run("cd /w\nuv run --directory tools python3 x.py\nconda run --cwd /o python3 y.py")
    words = {(f.word, f.directories) for f in run.script_files}
    assert ("x.py", ("/w/tools",)) in words
    assert ("y.py", ("/o",)) in words


def test_the_command_runs_in_its_own_process():
    run = _run("X=8\nuv run export X=1\nvllm serve m --tensor-parallel-size $X")
    assert dict((a.flag, a.value) for a in run.launches[0].args)["--tensor-parallel-size"] == "8"


def test_an_unknown_option_makes_the_reading_incomplete():
    run = _run("uv run --new-flag x python3 y.py")
    assert not run.complete
    assert any("where the command it runs starts is not known" in p for p in run.problems)


def test_a_file_of_variables_the_runner_loads_is_recorded_as_a_file_it_runs():
    run = _run("uv run --env-file=conf/bench.env python3 -c 'print(1)'")
    assert "conf/bench.env" in {f.word for f in run.script_files}


@pytest.mark.parametrize(
    "text",
    [
        "export UV_ENV_FILE=conf/bench.env\nuv run python3 -c 'print(1)'",
        "UV_ENV_FILE=conf/bench.env uv run python3 -c 'print(1)'",
        "PIPENV_DOTENV_LOCATION=conf/bench.env pipenv run python3 -c 'print(1)'",
    ],
)
def test_a_file_of_variables_named_by_the_runners_variable_is_recorded(text):
    assert "conf/bench.env" in {f.word for f in _run(text).script_files}


def test_hatchs_matrix_filter_is_its_own_word():
    run = environment_run(_words("hatch run +py=3.12 test:python3 x.py"))
    assert run is not None and [w.text for w in run.command] == ["python3", "x.py"]


def test_a_command_xargs_fills_in_is_known_only_at_run_time():
    run = _run("ls tools | xargs -I{} uv run python3 tools/{}")
    assert ("tools/{}", "") in {(f.word, f.name) for f in run.script_files}  # no known name


@pytest.mark.parametrize(
    "line, files",
    [
        ("uv run --with-requirements a.txt --python 3.12 python3 x.py -r b.txt", ["a.txt"]),
        ("uvx --with-requirements=a.txt tool -r b.txt", ["a.txt"]),
        ("uv tool run tool -c b.txt", []),  # the tool's own option
        ("uv tool install tool --overrides a.txt -c c.txt", ["a.txt", "c.txt"]),
        ("uv add x -r a.txt", ["a.txt"]),
        ("timeout 9 uv --quiet add --requirements a.txt", ["a.txt"]),
        ("uv pip install -r b.txt", []),  # pip's grammar, read as pip's
        ("uv sync --python 3.12", []),
    ],
)
def test_the_package_lists_uv_installs_from_are_its_own_options(line, files):
    assert [f.text for f in uv_list_files(_words(line))] == files


def test_a_server_command_another_program_only_records_is_no_second_launch():
    run = _run(
        "CMD=(python3 -m sglang.launch_server --model-path m --tp 8)\n"
        'write_command "$LOG" "${CMD[@]}"\n"${CMD[@]}" &'
    )
    assert [launch.line for launch in run.launches] == [4]
