"""A program signoff has no rule for that is handed a command line (a profiler, a tracer, an
init shim) runs it, as a wrapper does; one handed a program file or an app reference may run
it. A program that handles files as data, an option naming an interpreter, and a message
that ends like a file name run nothing."""

from __future__ import annotations

import pytest

from signoff.parse.benchmark.script import evaluate, read_script
from signoff.parse.shell.fields import Field
from signoff.parse.shell.python_files import inline_program_files
from signoff.parse.shell.script_files import code_operands


def _files(line: str) -> set[str]:
    run = evaluate(read_script(f"#!/usr/bin/env bash\n{line}\n", "s.sh"), {})
    return {f.word for f in run.script_files}


def _words(line: str) -> list[Field]:
    return [Field(w, True, w, 1) for w in line.split()]


@pytest.mark.parametrize(
    "line, ran",
    [
        ("nsys profile -o /tmp/p --trace cuda python3 tools/x.py", "tools/x.py"),
        ("perf record -g -- bash tools/x.sh", "tools/x.sh"),
        ("gosu bench python3 -u tools/x.py --n 1", "tools/x.py"),
        ("runuser -u bench -- tools/x.sh", "tools/x.sh"),
        ("tini -- ./run.sh", "./run.sh"),
        ("strace -f sh -c 'bash tools/x.sh'", "tools/x.sh"),
    ],
)
def test_a_command_line_handed_to_an_unknown_program_is_read(line, ran):
    assert ran in _files(line)


@pytest.mark.parametrize(
    "line",
    [
        "cp tools/x.sh /tmp/x.sh",
        "grep -c python3 tools/x.sh",
        "apt-get install -y python3 python3-pip",
        "uv venv --seed --python /usr/bin/python3",
        "mytool --entrypoint=/bin/bash img tools/x.txt",
        "mytool --python python3",
        "say 'next: bash tools/x.sh'",
        "mytool https://example.com/tools/x.sh",
    ],
)
def test_files_handed_as_data_are_not_run(line):
    assert not {f for f in _files(line) if "tools/x" in f}


@pytest.mark.parametrize(
    "line, files",
    [
        ("uvicorn tools.x:app --port 8000", ["tools/x.py", "tools/x/__main__.py"]),
        ("mytool --job=tools/x.sh", ["tools/x.sh"]),
        ("jupyter nbconvert --execute tools/x.ipynb", ["tools/x.ipynb"]),
        ("nsys profile python3 -m tools.x", ["tools/x.py", "tools/x/__main__.py"]),
        ("python3 tools/a.py tools/b.py", ["tools/b.py"]),  # a.py may run what it is handed
        ("bash -c 'python3 tools/b.py' sh", []),  # the string is read where bash runs it
        ("mytool localhost:8000 img:v0.5.1 host:22", []),  # ports and versioned tags
    ],
)
def test_program_files_and_app_modules_handed_to_a_program_are_recorded(line, files):
    found = [f.text for f in code_operands(_words(line), [])]
    assert [f for f in files if f not in found] == []
    assert files or found == []


@pytest.mark.parametrize(
    "program, paths",
    [
        ("import tools.x", ("tools/x.py", "tools/x/__init__.py")),
        ("from a.b import c", ("a/b.py", "a/b/__init__.py", "a/b/c.py", "a/b/c/__init__.py")),
        ("import os.path, json, x", ()),  # the standard library; a one-part name
        ("import runpy; runpy.run_path('tools/x.py')", ("tools/x.py",)),
        ("print('see tools/x.py for details')", ()),  # a message
        ("from . import y", ()),  # a relative import: its own package's
        ("this is not python", ()),
    ],
)
def test_an_inline_programs_files_are_its_dotted_imports_and_named_programs(program, paths):
    assert inline_program_files(program) == paths


def test_inline_imports_are_one_record_per_place_and_bounded_as_first_entries_are():
    loop = "for i in $(seq 1 500); do python3 -c 'import tools.x'; done\n"
    places = "".join(f"cd /d{i}; python3 -c 'import a{i}.b'\n" for i in range(70))
    run = evaluate(read_script(f"#!/usr/bin/env bash\n{loop}{places}", "s.sh"), {})
    assert len([i for i in run.installs if i.loaded_by]) == 64
    assert any("Python runs from more than 64 directories" in p for p in run.problems)
