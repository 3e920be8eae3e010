"""`bash -c` of a text known only in part: read for what its known pieces run, only when the
reading asks for it, and the reading stays incomplete either way."""

from __future__ import annotations

from signoff.parse.benchmark.script import evaluate_counted, read_script

GAP = "bash -c of text known only at run time"


def _read(script: str, *, partial: bool):
    run, _ = evaluate_counted(read_script(script, "s.sh"), {}, partial=partial)
    return run


SCRIPT = """\
CMD="A=${FROM_IMAGE} KNOB=2.5 python3 -m sglang.launch_server --model-path m --mode decode $EXTRA"
setsid bash -c "$CMD" &
"""


def test_a_partly_known_shell_string_is_not_read_unless_the_reading_asks_for_it():
    run = _read(SCRIPT, partial=False)
    assert run.launches == () and not run.complete
    assert any(GAP in problem for problem in run.problems)


def test_a_partly_known_shell_string_read_in_part_shows_its_launch_and_stays_incomplete():
    run = _read(SCRIPT, partial=True)
    (launch,) = run.launches
    assert launch.line == 2 and launch.env["KNOB"] == "2.5"
    assert {a.flag: a.value for a in launch.args}["--mode"] == "decode"
    assert launch.env["A"] == "${FROM_IMAGE}"  # a run-time piece stays unknown, as written
    assert not run.complete and any(GAP in problem for problem in run.problems)


def test_a_run_time_piece_the_string_quotes_singly_or_escapes_stops_the_partial_reading():
    for held in ("'$X'", "\\\\$X"):
        script = f'CMD="KNOB=2.5 python3 -m sglang.launch_server --x {held}"\nbash -c "$CMD"\n'
        run = _read(script, partial=True)
        assert run.launches == (), held
        assert not run.complete


def test_a_run_time_piece_inside_double_quotes_of_the_string_is_one_unknown_value():
    script = 'CMD="KNOB=2.5 python3 -m sglang.launch_server --x \\"$X y\\" --z 1"\nbash -c "$CMD"\n'
    (launch,) = _read(script, partial=True).launches
    values = {a.flag: (a.value, a.known) for a in launch.args}
    assert values["--x"] == ("$X y", False) and values["--z"] == ("1", True)
