"""Every reading of a script in one verdict shares the verdict's work bound: a PR cannot buy
unbounded work by changing many scripts, whatever check asks for their readings first."""

from __future__ import annotations

from builders import SCRIPT, SCRIPT_PATH, add_changed_file, build, passing_parts

from signoff.judge.context import JudgeContext
from signoff.policy import Policy

LOOP = "for i in " + " ".join(str(i) for i in range(120)) + "; do\n  echo $i\ndone\n"


def _context(policy: Policy, count: int) -> tuple[JudgeContext, list[str]]:
    """A PR adding `count` scripts of about 130 steps each, and its judge context."""
    parts = passing_parts()
    paths = [SCRIPT_PATH.replace(".sh", f"_{n}.sh") for n in range(count)]
    for path in paths:
        add_changed_file(parts, path, LOOP + SCRIPT)
    return JudgeContext(build(parts), policy), paths


def test_the_unbound_readings_of_changed_scripts_share_the_verdicts_work_bound(
    policy: Policy, monkeypatch
) -> None:
    monkeypatch.setattr("signoff.judge.context.SCRIPT_STEPS_PER_JUDGE", 300)
    ctx, paths = _context(policy, 6)
    facts = [ctx.script_facts(path) for path in paths]
    assert facts[0] is not None and facts[0].complete  # it fits
    last = facts[-1]
    assert last is not None and not last.complete
    assert any("work bound" in problem for problem in last.problems)


def test_a_reading_the_unbound_facts_already_made_is_not_counted_twice(
    policy: Policy, monkeypatch
) -> None:
    monkeypatch.setattr("signoff.judge.context.SCRIPT_STEPS_PER_JUDGE", 300)
    ctx, paths = _context(policy, 1)
    ctx.script_facts(paths[0])
    left = ctx._steps_left
    assert ctx.script_runs_for_path(paths[0])[0].complete
    assert ctx._steps_left == left  # the same reading, already counted


def test_an_unbound_reading_stopped_at_its_bound_is_read_again_with_the_bound_left(
    policy: Policy, monkeypatch
) -> None:
    monkeypatch.setattr("signoff.judge.context.DEFAULT_BUDGET", 50)
    ctx, paths = _context(policy, 1)
    facts = ctx.script_facts(paths[0])
    assert facts is not None and not facts.complete  # 50 steps: stopped
    monkeypatch.setattr("signoff.judge.context.DEFAULT_BUDGET", 5_000)
    assert ctx.script_runs_for_path(paths[0])[0].complete
