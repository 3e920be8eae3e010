"""An undecided arm that only moves a run-time value (`[ "$BS" -gt 64 ] && BS=64`) does not fork.

The value is unknown whichever way the test goes, so the reading keeps one unknown value, adds
no undecided note and leaves the commands that use it surely reached. Every other arm still
forks: known values on both paths, known pieces, command words, substitutions.
"""

from __future__ import annotations

from signoff.parse.benchmark.launch import ScriptRun
from signoff.parse.benchmark.script import evaluate, read_script

SERVE = 'python3 -m sglang.launch_server --cuda-graph-max-bs "$BS" --mem "$MEM" $ARGS\n'


def _read(body: str, env: dict[str, str] | None = None) -> ScriptRun:
    return evaluate(read_script("#!/bin/bash\n" + body + SERVE, "x.sh"), env)


def _served(run: ScriptRun) -> list[tuple[dict[str, str | None], str]]:
    return [({a.flag: a.value for a in launch.args}, launch.reach) for launch in run.launches]


def test_a_clamp_on_a_run_time_value_keeps_one_unknown_value_and_no_note() -> None:
    run = _read('BS=$CONC\n[ "$BS" -gt 64 ] && BS=64\n')
    assert run.notes == ()
    ((args, reach),) = _served(run)
    assert reach == "reached" and args["--cuda-graph-max-bs"] == "${BS}"


def test_the_if_form_and_a_lone_run_time_reference_keep_one_unknown_value() -> None:
    run = _read('BS=$((2 * CONC))\nif [ "$BS" -eq 128 ]; then\n  BS=136\nfi\n')
    assert run.notes == () and _served(run)[0][0]["--cuda-graph-max-bs"] == "${BS}"
    # BS is known here; the arm gives it a lone run-time value: unknown on that path
    run = _read('BS=16\nif [ "$H" -lt "$BS" ]; then\n  BS="$H"\nfi\n')
    assert run.notes == () and [reach for _, reach in _served(run)] == ["reached"]


def test_a_bound_value_still_decides_the_clamp() -> None:
    run = _read('BS=$CONC\n[ "$BS" -gt 64 ] && BS=64\n', {"CONC": "128"})
    assert _served(run)[0][0]["--cuda-graph-max-bs"] == "64"
    run = _read('BS=$CONC\n[ "$BS" -gt 64 ] && BS=64\n', {"CONC": "4"})
    assert _served(run)[0][0]["--cuda-graph-max-bs"] == "4"


def test_known_values_on_both_paths_still_fork() -> None:
    run = _read('MEM=0.95\nif [ "$CONC" -ge 512 ]; then\n  MEM=0.94\nfi\n')
    assert any("could not be decided" in note for note in run.notes)
    assert sorted(args["--mem"] or "" for args, _ in _served(run)) == ["0.94", "0.95"]
    assert {reach for _, reach in _served(run)} == {"undecided"}


def test_a_run_time_value_with_known_pieces_still_forks_and_keeps_its_flags() -> None:
    run = _read('ARGS="--tp $TP"\n[ "$EP" -gt 1 ] && ARGS="$ARGS --dp $EP"\n')
    assert any("is not known" in note for note in run.notes)
    assert all("--tp" in args for args, _ in _served(run))


def test_an_arm_that_runs_or_substitutes_anything_still_forks() -> None:
    for arm in ("BS=$(nproc)", "BS=64 echo", "BS=${Q:=64}", "BS=64; echo x", "BS=64 >$(f)"):
        run = _read(f'BS=$CONC\nif [ "$BS" -gt 64 ]; then\n  {arm}\nfi\n')
        assert any("could not be decided" in note for note in run.notes), arm
    run = _read('BS=$CONC\n[ "$BS" -gt 64 ] && { BS=64; }\n')  # a group, not a plain arm
    assert any("is not known" in note for note in run.notes)
