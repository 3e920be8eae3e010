"""The names an eval of an inline Python program can set are read from its prints alone."""

from __future__ import annotations

from signoff.parse.benchmark.eval_assignments import eval_assignments

PROGRAM = (
    "eval \"$(python3 -c \" import yaml, sys, os config_path = '${CFG}' "
    "with open(config_path) as f: m = yaml.safe_load(f) "
    "print(f'echo \\\"Selected {k}\\\"') "
    "print(f'echo \\\"WARNING: {s}\\\"', file=sys.stderr) "
    'print(f\'MODEL_FLAGS=\\"{m.get(\\"flags\\", \\"\\")}\\"\') '
    '")"'
)


def test_the_assignments_an_inline_program_prints_are_the_names_its_eval_sets():
    found = eval_assignments(PROGRAM)
    assert found is not None
    assert found.names == {"MODEL_FLAGS"}
    assert found.modules == {"yaml", "sys", "os"}
    assert found.opens == ("${CFG}",)


def test_a_print_that_is_not_an_assignment_or_an_echo_leaves_the_names_unknown():
    assert eval_assignments(PROGRAM.replace("print(f'MODEL_FLAGS", "print(f'f() { x; }; A")) is None


def test_a_print_of_a_value_that_is_not_a_literal_leaves_the_names_unknown():
    assert (
        eval_assignments(PROGRAM.replace("print(f'echo \\\"Selected {k}\\\"')", "print(m)")) is None
    )


def test_an_eval_of_anything_but_an_inline_program_is_not_read():
    assert eval_assignments('eval "$(python3 /opt/flags.py)"') is None
    assert eval_assignments('eval "$CMD"') is None
