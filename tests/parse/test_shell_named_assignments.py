"""Builtins that assign a variable by name set it as surely as `NAME=value` does: a later
`$NAME` reads what bash gives it, or a value known only at run time, never its old value."""

from __future__ import annotations

import pytest

from signoff.parse.benchmark.script import evaluate, read_script


def _tp_after(line: str) -> list[str | None]:
    """`--tensor-parallel-size` of the launch after `X=8` and `line`."""
    text = f"X=8\n{line}\nvllm serve m --tensor-parallel-size $X\n"
    run = evaluate(read_script(text, "s.sh"), {})
    assert run.complete, run.problems
    return [dict((a.flag, a.value) for a in launch.args)["--tensor-parallel-size"]
            for launch in run.launches]  # fmt: skip


@pytest.mark.parametrize(
    "line, value",
    [
        ("printf -v X '%s' 2", "2"),
        ("printf -v X -- '%d' 2", "2"),
        ("printf -vX '%s' 2", "2"),
        ("n=X; printf -v \"$n\" '%s' 2", "2"),
        ("f() { printf -v X '%s' 2; }; f", "2"),
        ("read -r X <<< ' 2 '", "2"),
        ('f() { read -r "$1" <<< 2; }; f X', "2"),
        ("let X=2", "2"),
        ("let 'X = 1 + 1'", "2"),
        ("declare -i X; X=1+1", "2"),
        ("[[ 1 -le X=2 ]]", "2"),  # `[[ ]]`'s integer operands are arithmetic
    ],
)
def test_a_builtin_assigning_a_known_value_gives_it(line, value):
    assert _tp_after(line) == [value]


@pytest.mark.parametrize(
    "line",
    [
        "printf -v X '%s' \"$(cat /tmp/x)\"",  # the printed value is known only at run time
        "printf -v 'X[0]' '%s' 2",  # an element: the whole variable
        "read X <<< 2",  # without -r backslashes are bash's to read
        "read -r X Y <<< '2 3'",
        "read -a X <<< 2",
        "IFS=: read -r X Y <<< '2:3'",
        "IFS=: read -r X <<< ' 2 '",  # another IFS trims other characters
        "mapfile -t X <<< 2",
        "readarray -t X < /tmp/x",
        "getopts ab X",
        "wait -n -p X",
        "exec {X}>/dev/null",
        ": {X}>/dev/null",
        "shopt -s lastpipe; echo 2 | read -r X",
        'let "X=$(cat /tmp/x)"',
    ],
)
def test_a_builtin_assigning_a_run_time_value_leaves_it_unknown(line):
    (value,) = _tp_after(line)
    assert value is not None and value.startswith("$"), value  # as written: `$X`, `$(cat ...)`


@pytest.mark.parametrize(
    "line",
    [
        "printf -- -v X",  # prints `-v X`
        "echo 2 | read -r X",  # without lastpipe `read` runs in a subshell
        "env X=2 true",
        "wait -n",
        "compgen -v X > /dev/null",
    ],
)
def test_a_command_that_assigns_nothing_keeps_the_value(line):
    assert _tp_after(line) == ["8"]


def test_a_builtin_assigning_a_variable_named_at_run_time_makes_the_reading_incomplete():
    run = evaluate(read_script("printf -v \"$(cat /tmp/n)\" '%s' 2\nvllm serve m\n", "s.sh"), {})
    assert not run.complete
    assert any("a variable named only at run time" in problem for problem in run.problems)


def test_a_python_path_read_from_input_makes_the_reading_incomplete():
    run = evaluate(read_script("read -r PYTHONPATH < /tmp/p\nexport PYTHONPATH\n", "s.sh"), {})
    assert any("sets PYTHONPATH to text known only at run time" in p for p in run.problems)
