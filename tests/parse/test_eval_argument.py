"""An eval of a caller's argument runs one external command when the argument, as the call
writes it, is a program name and its arguments with values known only at run time."""

from __future__ import annotations

import pytest

from signoff.parse.benchmark.eval_argument import plain_command

BARRIER = (
    '"python3 $SGLANG_WS_PATH/sync.py barrier \\\n    --local-ip ${host_ip} \\\n'
    '    --node-ips ${IPADDRS} \\\n    --timeout 300"'
)


def test_a_program_with_run_time_values_is_one_external_command():
    found = plain_command(BARRIER, frozenset())
    assert found is not None
    assert found.program == "python3"
    assert found.files == {"sync.py"}


@pytest.mark.parametrize(
    "word",
    [
        '"export X=1; python3 sync.py"',  # a builtin, then a second command
        '"A=1 python3 sync.py"',  # an assignment
        '"python3 sync.py > /tmp/x"',  # a redirect
        '"python3 $(cat /tmp/x)"',  # a substitution
        '"python3 ${X:-a b}"',  # an operator whose text is not read
        '"$RUNNER --x"',  # a program known only at run time
        '"$CMD"',  # nothing known
        '"python3 *.py"',  # a glob
        "'python3 sync.py'",  # quoting other than one double-quoted word
        '"source $WS/env.sh"',
        '"cd /tmp"',
    ],
)
def test_anything_but_one_external_command_is_not_known(word):
    assert plain_command(word, frozenset()) is None


def test_a_function_of_the_script_may_set_anything():
    assert plain_command('"tune --fast"', frozenset({"tune"})) is None
