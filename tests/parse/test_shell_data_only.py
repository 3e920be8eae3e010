"""Whether a script passes the concurrency on as data only, judged from its text alone: then one
reading with it unknown stands for every point of a curve (judge/context)."""

from __future__ import annotations

import pytest

from signoff.parse.shell.data_only import passes_on_only
from signoff.parse.shell.syntax import parse


@pytest.mark.parametrize(
    "script",
    [
        'vllm serve m --max-num-seqs "$CONC"',
        "X=$((2*CONC)); vllm serve m --max-num-seqs $X",
        "X=$(( CONC >= 4 ? 1 : 2 )); vllm serve m --x $X",
        "export CONC; export Y=$CONC; vllm serve m --y $Y",
        'CMD=(vllm serve m --max-num-seqs $CONC); "${CMD[@]}" &',
        "printf '%q ' \"${CMD[@]}\" > cmd.txt; CMD=(vllm serve --x $CONC)",
        "check_env_vars MODEL TP CONC",  # a literal name, as an external command's argument
        "python3 - <<EOF\nprint($CONC)\nEOF\n",
        '[[ -n "${SLURM_JOB_ID:-}" ]] && echo on; vllm serve m --x $CONC',
        "echo no concurrency at all",
    ],
)
def test_values_that_only_reach_arguments_pass_on_as_data(script: str) -> None:
    assert passes_on_only(parse(script), "CONC")


@pytest.mark.parametrize(
    "script",
    [
        'if [ "$CONC" -ge 512 ]; then MEM=0.94; fi',
        'BS=$CONC; [ "$BS" -gt 64 ] && BS=64',  # through an assignment
        "local -i N; N=$CONC; (( N > 4 ))",
        "[[ $((2 * CONC % TP)) -ne 0 ]]",
        "case $CONC in 4) a ;; esac",
        'A=($CONC); for x in "${A[@]}"; do :; done',
        "for ((i = 0; i < CONC; i++)); do :; done",
        "for i in $(seq 1 $CONC); do :; done",
        "X=$(echo $CONC)",
        "X=$((Y = CONC)); vllm --y $Y",
        "Y=${Z:=$CONC}",
        'eval "X=$CONC"',
        "bash -c 'test $CONC -gt 4'",
        "env A=$CONC vllm serve m",
        "printf -v X '%s' $CONC",
        "read X <<EOF\n$CONC\nEOF\n",
        "f() { echo; }; f $CONC",  # a function's arguments are its positional parameters
        'h() { [ "$M" -gt 2 ]; }; M=$CONC',  # a function body's test, wherever it is called
    ],
)
def test_a_value_that_may_decide_something_is_not_data(script: str) -> None:
    assert not passes_on_only(parse(script), "CONC")
