"""A PR that changes only a script is judged per swept configuration of the entries running it."""

from __future__ import annotations

from typing import Any

from builders import (
    EXISTING_ENTRY,
    NEW_ENTRY,
    SCRIPT,
    SCRIPT_PATH,
    add_listing,
    build,
    passing_parts,
    replace_file,
    unified_patch,
)

from signoff.judge.checks import no_arch_hacks
from signoff.judge.context import JudgeContext

MASTER = "configs/nvidia-master.yaml"
# An override only a TP4 configuration would run; the entry sweeps TP8 alone.
TP4_ONLY = SCRIPT.replace(
    'wait_for_server_ready --port "$PORT"',
    'if [ "$TP" = "4" ]; then\n'
    '  vllm serve "$MODEL" --hf-overrides \'{"num_hidden_layers": 2}\' &\n'
    "fi\n\n"
    'wait_for_server_ready --port "$PORT"',
)
assert TP4_ONLY != SCRIPT


def _script_only(*, listed: bool = True) -> dict[str, Any]:
    """The PR changes the MTP script alone; the head's master config (unchanged) runs it."""
    parts = passing_parts()
    parts["changed_files"] = [
        {"path": SCRIPT_PATH, "status": "modified", "patch": unified_patch(SCRIPT, TP4_ONLY)}
    ]
    parts["files"] = [f for f in parts["files"] if f["path"] != MASTER]
    replace_file(parts, SCRIPT_PATH, "head", TP4_ONLY)
    if listed:
        replace_file(parts, MASTER, "head", EXISTING_ENTRY + "\n" + NEW_ENTRY)
        add_listing(parts, "configs", "head", ["nvidia-master.yaml", "runners.yaml"])
        add_listing(parts, SCRIPT_PATH.rsplit("/", 1)[0], "head", [SCRIPT_PATH.rsplit("/", 1)[1]])
    return parts


def test_a_script_only_change_is_read_under_the_configurations_the_sweep_runs(check) -> None:
    result = check(_script_only(), "no-arch-hacks")
    assert result.status == "PASS", result.reason


def test_a_script_only_change_names_the_configuration_it_was_read_under(policy) -> None:
    ctx = JudgeContext(build(_script_only()), policy)
    runs = ctx.script_runs_for_path(SCRIPT_PATH, jobs=("benchmark",))
    assert runs and all("TP=8" in run.label for run in runs)


def test_when_the_master_configs_at_the_head_are_unknown_the_script_is_read_unbound(
    check,
) -> None:
    result = check(_script_only(listed=False), "no-arch-hacks")
    assert result.status == "FAIL" and "--hf-overrides" in result.reason


def test_gather_is_asked_for_the_master_configs_and_the_scripts_directory(policy) -> None:
    parts = _script_only(listed=False)
    asked = {(w.kind, w.path) for w in no_arch_hacks.wants(JudgeContext(build(parts), policy))}
    assert asked == {("dir", "configs"), ("dir", SCRIPT_PATH.rsplit("/", 1)[0])}
    add_listing(parts, "configs", "head", ["nvidia-master.yaml"])
    asked = {(w.kind, w.path) for w in no_arch_hacks.wants(JudgeContext(build(parts), policy))}
    assert ("file", MASTER) in asked


def test_a_script_a_changed_entry_runs_asks_for_nothing_more(policy) -> None:
    assert list(no_arch_hacks.wants(JudgeContext(build(passing_parts()), policy))) == []


def test_an_earlier_candidate_that_exists_is_what_the_entry_runs(policy) -> None:
    # The launcher runs `<base>_<framework>_mtp.sh` when it exists: a changed `<base>_mtp.sh`
    # is then run by no configuration of this entry and is read unbound.
    parts = _script_only()
    generic = SCRIPT_PATH.replace("_vllm_mtp.sh", "_mtp.sh")
    parts["changed_files"][0]["path"] = generic
    replace_file(parts, generic, "head", TP4_ONLY)
    add_listing(parts, SCRIPT_PATH.rsplit("/", 1)[0], "head", [])
    parts["listings"] = [
        entry for entry in parts["listings"] if entry["path"] != SCRIPT_PATH.rsplit("/", 1)[0]
    ]
    names = [SCRIPT_PATH.rsplit("/", 1)[1], generic.rsplit("/", 1)[1]]
    add_listing(parts, SCRIPT_PATH.rsplit("/", 1)[0], "head", names)
    ctx = JudgeContext(build(parts), policy)
    (run,) = ctx.script_runs_for_path(generic)
    assert run.label == ""  # nothing bound


# --- a curve's concurrencies share one reading when the concurrency decides nothing ---------

HIGH_CONC_ONLY = SCRIPT.replace(
    'wait_for_server_ready --port "$PORT"',
    'if [ "$CONC" -ge 512 ]; then\n'
    '  vllm serve "$MODEL" --hf-overrides \'{"num_hidden_layers": 2}\' &\n'
    "fi\n\n"
    'wait_for_server_ready --port "$PORT"',
)


def _entry_runs(policy, script: str, conc_end: int) -> tuple[Any, ...]:
    parts = passing_parts()
    head = NEW_ENTRY.replace("conc-end: 128", f"conc-end: {conc_end}")
    replace_file(parts, MASTER, "head", EXISTING_ENTRY + "\n" + head)
    replace_file(parts, SCRIPT_PATH, "head", script)
    ctx = JudgeContext(build(parts), policy)
    (entry,) = [e for e in ctx.changed_entries if e.key.endswith("-mtp")]
    return ctx.script_runs(entry)


def test_points_that_differ_only_in_a_concurrency_the_script_passes_on_share_a_reading(
    policy,
) -> None:
    runs = _entry_runs(policy, SCRIPT, 128)
    assert len(runs) == 1 and len(runs[0].points) == 6  # c4 ... c128, read once


def test_a_concurrency_that_decides_a_condition_is_read_point_by_point(policy) -> None:
    runs = _entry_runs(policy, HIGH_CONC_ONLY, 1024)
    (high,) = [run for run in runs if run.launches[1:]]  # the override's launch runs
    assert [p for p in high.points if "CONC=512," in p or "CONC=1024," in p] == list(high.points)
    assert all(not run.launches[1:] for run in _entry_runs(policy, HIGH_CONC_ONLY, 256))


def test_a_curve_of_many_concurrencies_costs_two_readings_not_one_per_point(
    policy, monkeypatch
) -> None:
    from signoff.judge import context
    from signoff.parse.benchmark.script import evaluate_counted, read_script

    _, steps = evaluate_counted(read_script(SCRIPT, SCRIPT_PATH), {"TP": "8"})
    monkeypatch.setattr(context, "SCRIPT_STEPS_PER_JUDGE", 4 * steps)  # room for ~4 readings
    runs = _entry_runs(policy, SCRIPT, 4096)  # c4 ... c4096: 11 points
    assert all(run.complete for run in runs), [run.problems for run in runs]
    assert sum(len(run.points) for run in runs) == 11


def test_past_the_per_verdict_bound_a_script_only_change_is_read_unbound_as_strictly(
    check, monkeypatch
) -> None:
    from signoff.judge import context

    monkeypatch.setattr(context, "SCRIPT_ENTRY_READINGS", 0)
    result = check(_script_only(), "no-arch-hacks")
    assert result.status == "FAIL" and "--hf-overrides" in result.reason


def _entry_and_script(*, listed: bool) -> dict[str, Any]:
    """The passing PR (it adds the MTP entry) with its script carrying the TP4-only override
    the entry never sweeps."""
    parts = passing_parts()
    for changed in parts["changed_files"]:
        if changed["path"] == SCRIPT_PATH:
            changed["patch"] = unified_patch("", TP4_ONLY)
    replace_file(parts, SCRIPT_PATH, "head", TP4_ONLY)
    if listed:
        add_listing(parts, "configs", "head", ["nvidia-master.yaml", "runners.yaml"])
        add_listing(parts, SCRIPT_PATH.rsplit("/", 1)[0], "head", [SCRIPT_PATH.rsplit("/", 1)[1]])
    return parts


def test_a_changed_script_a_changed_entry_runs_is_read_per_configuration_once_listed(
    check,
) -> None:
    result = check(_entry_and_script(listed=True), "no-arch-hacks")
    assert result.status == "PASS", result.reason


def test_a_changed_script_a_changed_entry_runs_with_something_undecided_asks_for_the_entries(
    policy,
) -> None:
    parts = _entry_and_script(listed=False)
    asked = {(w.kind, w.path) for w in no_arch_hacks.wants(JudgeContext(build(parts), policy))}
    assert ("dir", "configs") in asked and ("dir", SCRIPT_PATH.rsplit("/", 1)[0]) in asked


def test_unlisted_a_changed_script_a_changed_entry_runs_is_still_read_unbound(check) -> None:
    result = check(_entry_and_script(listed=False), "no-arch-hacks")
    assert result.status == "FAIL" and "--hf-overrides" in result.reason


def test_when_the_readings_per_configuration_run_out_of_work_the_unbound_reading_stands(
    check, monkeypatch
) -> None:
    from signoff.parse.benchmark.script import evaluate_counted, read_script

    # the unbound reading fits the verdict's work bound, the readings per configuration do not:
    # room for it and one configuration's reading, not for a second
    script = read_script(TP4_ONLY, SCRIPT_PATH)
    unbound, one = (evaluate_counted(script, env)[1] for env in (None, {"TP": "8"}))
    monkeypatch.setattr("signoff.judge.context.SCRIPT_STEPS_PER_JUDGE", unbound + one + one // 2)
    result = check(_entry_and_script(listed=True), "no-arch-hacks")
    assert result.status == "FAIL" and "--hf-overrides" in result.reason
    assert "work bound" not in result.reason
