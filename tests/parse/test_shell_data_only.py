"""Whether a script passes the concurrency on as data only, judged from its text alone: then one
reading with it unknown stands for every point of a curve (judge/context)."""

from __future__ import annotations

import pytest

from signoff.parse.shell.data_only import data_only
from signoff.parse.shell.syntax import parse


@pytest.mark.parametrize(
    "script",
    [
        'vllm serve m --max-num-seqs "$CONC"',
        "X=$((2*CONC)); vllm serve m --max-num-seqs $X",
        "X=$(( CONC >= 4 ? 1 : 2 )); vllm serve m --x $X",
        "export CONC; export Y=$CONC; vllm serve m --y $Y",
        'CMD=(vllm serve m --max-num-seqs $CONC); "${CMD[@]}" &',
        'CMD=(vllm --max-num-seqs "$CONC" --chat-template "$(dirname "$0")/t.jinja")',
        "printf '%q ' \"${CMD[@]}\" > cmd.txt; CMD=(vllm serve --x $CONC)",
        "check_env_vars MODEL TP CONC",  # a literal name, as an external command's argument
        "python3 - <<EOF\nprint($CONC)\nEOF\n",
        '[[ -n "${SLURM_JOB_ID:-}" ]] && echo on; vllm serve m --x $CONC',
        "echo no concurrency at all",
        # a clamp: a point's own reading decides it, the unknown reading collapses it
        'BS=$CONC; [ "$BS" -gt 64 ] && BS=64; vllm serve m --max-num-seqs "$BS"',
        "BS=$((2 * CONC)); if [[ ${BS} -ge 512 ]]; then BS=512; fi",
        'BS="$CONC"; test 8 -gt "$BS" || BS=8',
        # fed through another variable built of the concurrency alone
        'M=$((2 * CONC)); if [ "$DP" != true ]; then BS=$M; [ "$BS" -gt 64 ] && BS=64; fi',
    ],
)
def test_values_that_only_reach_arguments_pass_on_as_data(script: str) -> None:
    assert data_only(parse(script), "CONC")[0]


@pytest.mark.parametrize(
    "script",
    [
        'if [ "$CONC" -ge 512 ]; then MEM=0.94; fi',
        'BS=$CONC; [ "$BS" = 64 ] && echo',  # through an assignment
        "local -i N; N=$CONC; (( N > 4 ))",
        "[[ $((2 * CONC % TP)) -ne 0 ]]",
        "case $CONC in 4) a ;; esac",
        'A=($CONC); for x in "${A[@]}"; do :; done',
        "for ((i = 0; i < CONC; i++)); do :; done",
        "for i in $(seq 1 $CONC); do :; done",
        "X=$(echo $CONC)",
        'CMD=(vllm --max-num-seqs "$(echo $CONC)")',  # the item's own substitution reads it
        "X=$((Y = CONC)); vllm --y $Y",
        "Y=${Z:=$CONC}",
        'eval "X=$CONC"',
        "bash -c 'test $CONC -gt 4'",
        "env A=$CONC vllm serve m",
        "printf -v X '%s' $CONC",
        "read X <<EOF\n$CONC\nEOF\n",
        "f() { echo; }; f $CONC",  # a function's arguments are its positional parameters
        'h() { [ "$M" -gt 2 ]; }; M=$CONC',  # a function body's test, wherever it is called
        # tests shaped like a clamp that a point's own reading may not decide
        '[ "$CONC" -gt 64 ] && CONC=64',  # the concurrency itself: every later use decides
        'BS=$CONC; [ "$BS" -gt 64 ] && BS=$LIMIT',  # a value from elsewhere
        'M=$CONC; M=$X; BS=$M; [ "$BS" -gt 64 ] && BS=64',  # fed by one fed from elsewhere
        'M=($CONC); BS=$M; [ "$BS" -gt 64 ] && BS=64',  # fed by an array
        'BS=${CONC}x; [ "$BS" -gt 64 ] && BS=64',  # a piece the clamp cannot move
        'BS=$CONC; BS=$(f); [ "$BS" -gt 64 ] && BS=64',  # output known only at run time
        'BS=$CONC; [ "$BS" -gt 64 ] && OTHER=64',  # moves another variable
        'BS=$CONC; [ "$BS" -gt "$L" ] && BS=64',  # compared with another run-time value
        'BS=$CONC; [ "$BS" -gt 64 ] && BS=64 X=1',  # moves two
        'BS=$CONC; ! [ "$BS" -gt 64 ] && BS=64',
        'BS=$CONC; if [ "$BS" -gt 64 ]; then BS=64; else BS=8; fi',
        "BS=$CONC; [[ $BS =~ 6 ]] && BS=64",
    ],
)
def test_a_value_that_may_decide_something_is_not_data(script: str) -> None:
    assert not data_only(parse(script), "CONC")[0]


def test_the_variables_clamps_test_are_named_for_the_reading_to_check() -> None:
    text = 'BS=$CONC; [ "$BS" -gt 64 ] && BS=64; N=$CONC; if [ "$N" -lt 2 ]; then N=2; fi'
    assert data_only(parse(text), "CONC") == (True, frozenset({"BS", "N"}))
    assert data_only(parse('vllm --x "$CONC"'), "CONC") == (True, frozenset())
    assert data_only(parse('BS=$CONC; [ "$BS" -gt 64 ] && BS=$X'), "CONC") == (False, frozenset())
