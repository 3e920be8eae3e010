"""Configuration points of master-config entries, the environment the sweep gives each one, and
the per-configuration readings the judge context serves to the checks."""

from __future__ import annotations

import pytest
from builders import (
    EXISTING_ENTRY,
    NEW_ENTRY,
    SCRIPT,
    SCRIPT_PATH,
    build,
    passing_parts,
    replace_file,
)

from signoff.judge import judge
from signoff.judge.context import JudgeContext
from signoff.parse.benchmark.launch import ScriptRun
from signoff.parse.inferencex.config_points import config_points, group_runs, point_scripts
from signoff.parse.inferencex.master_config import MasterEntry, parse_master_config
from signoff.policy import Policy, SweepEnv

ENTRY = """\
x-fp8-b200-vllm:
  image: vllm/vllm-openai:v0.11.1
  model: org/X
  model-prefix: x
  precision: fp8
  framework: vllm
  runner: b200
  multinode: false
  scenarios:
    fixed-seq-len:
      - isl: 8192
        osl: 1024
        search-space:
          - { tp: 8, dp-attn: true, ep: 8, conc-start: 4, conc-end: 24 }
          - { tp: 4, spec-decoding: mtp, conc-list: [16] }
    agentic-coding:
      - search-space:
          - { tp: 8, kv-offloading: dram, kv-offload-backend: {name: mooncake, version: 1}, conc-list: [2] }
"""


def entry(text: str = ENTRY) -> MasterEntry:
    config = parse_master_config(
        text, "configs/nvidia-master.yaml", r"^(?:cluster:)?([a-z0-9]+?)(?:-|$)"
    )
    (only,) = config.entries.values()
    return only


def test_conc_start_to_conc_end_doubles_and_stops_at_the_end(policy: Policy) -> None:
    points, problem = config_points(entry(), policy.sweep_env, ("benchmark",))
    concs = [
        p.value("CONC") for p in points if p.value("TP") == "8" and p.scenario == "fixed-seq-len"
    ]
    assert (concs, problem) == (["4", "8", "16", "24"], "")


def test_a_point_gets_the_variables_and_spellings_the_sweep_exports(policy: Policy) -> None:
    points, _ = config_points(entry(), policy.sweep_env, ("benchmark",))
    env = dict(points[0].env)
    assert {k: env[k] for k in ("TP", "EP_SIZE", "DP_ATTENTION", "SPEC_DECODING", "CONC")} == {
        "TP": "8", "EP_SIZE": "8", "DP_ATTENTION": "true", "SPEC_DECODING": "none", "CONC": "4",
    }  # fmt: skip
    assert (env["ISL"], env["OSL"], env["MAX_MODEL_LEN"]) == ("8192", "1024", "9472")
    assert (env["MODEL"], env["PRECISION"], env["FRAMEWORK"]) == ("org/X", "fp8", "vllm")
    assert (env["EVAL_ONLY"], env["RUN_EVAL"], env["RANDOM_RANGE_RATIO"]) == (
        "false",
        "false",
        "0.8",
    )
    assert (env["SCENARIO_TYPE"], env["KV_OFFLOADING"]) == ("fixed-seq-len", "")


def test_search_space_defaults_follow_the_matrix_generator(policy: Policy) -> None:
    points, _ = config_points(entry(), policy.sweep_env, ("benchmark",))
    mtp = next(p for p in points if p.spec == "mtp")
    assert (mtp.value("EP_SIZE"), mtp.value("DP_ATTENTION"), mtp.value("PP_SIZE")) == (
        "1",
        "false",
        "1",
    )
    assert mtp.value("SPEC_DECODING") == "mtp"


def test_agentic_points_export_the_offload_backend_name_and_no_sequence_lengths(
    policy: Policy,
) -> None:
    points, _ = config_points(entry(), policy.sweep_env, ("benchmark",))
    agentic = next(p for p in points if p.scenario == "agentic-coding")
    assert (agentic.value("KV_OFFLOADING"), agentic.value("KV_OFFLOAD_BACKEND")) == (
        "dram",
        "mooncake",
    )
    assert (agentic.value("ISL"), agentic.value("IS_AGENTIC"), agentic.value("SCENARIO_SUBDIR")) == (
        "0", "1", "agentic/",
    )  # fmt: skip


def test_eval_jobs_are_points_too(policy: Policy) -> None:
    points, _ = config_points(entry(), policy.sweep_env, ("benchmark", "eval"))
    assert {p.value("EVAL_ONLY") for p in points if p.job == "eval"} == {"true"}
    assert len(points) == 2 * 6


def test_an_entry_over_the_point_bound_says_so(policy: Policy) -> None:
    sweep = policy.sweep_env.model_copy(update={"max_points": 3})
    points, problem = config_points(entry(), sweep, ("benchmark",))
    assert len(points) == 3 and "more than 3 configurations" in problem


def test_each_point_runs_the_script_of_its_scenario_and_spec_mode(policy: Policy) -> None:
    points, _ = config_points(entry(), policy.sweep_env, ("benchmark",))
    by_kind = {(p.scenario, p.spec): point_scripts(entry(), p)[0] for p in points}
    assert by_kind == {
        ("fixed-seq-len", "none"): "benchmarks/single_node/fixed_seq_len/x_fp8_b200_vllm.sh",
        ("fixed-seq-len", "mtp"): "benchmarks/single_node/fixed_seq_len/x_fp8_b200_vllm_mtp.sh",
        ("agentic-coding", "none"): "benchmarks/single_node/agentic/x_fp8_b200_vllm.sh",
    }


def test_points_that_read_the_same_are_grouped_under_the_configuration_they_share(
    policy: Policy,
) -> None:
    points, _ = config_points(entry(), policy.sweep_env, ("benchmark",))
    fixed = [p for p in points if p.scenario == "fixed-seq-len" and p.spec == "none"]
    same = ScriptRun(path="s.sh")
    other = ScriptRun(path="s.sh", notes=("differs",))
    runs = group_runs(
        [(p, same if p.value("CONC") != "24" else other) for p in fixed], policy.sweep_env
    )
    assert len(runs) == 2
    assert runs[0].label == "DP_ATTENTION=true, EP_SIZE=8, SPEC_DECODING=none, TP=8"
    assert len(runs[0].points) == 3 and runs[1].label.endswith("CONC=24") is False
    assert ("CONC", "24") in runs[1].config
    assert dict(runs[0].environment)["CONC"] == "4"


# --- the judge context ----------------------------------------------------------------------

BRANCHY = """\
#!/usr/bin/env bash
source "$(dirname "$0")/../../benchmark_lib.sh"
ARGS=(--tensor-parallel-size "$TP")
if [ "$DP_ATTENTION" = "true" ]; then
  ARGS=(--tensor-parallel-size 1 --data-parallel-size "$TP" --enable-dp-attention)
fi
vllm serve "$MODEL" "${ARGS[@]}" --speculative-config '{"method": "mtp"}' &
run_benchmark_serving --model "$MODEL" --max-concurrency "$CONC" --use-chat-template
"""


def context(entry_text: str, script: str | None = BRANCHY) -> tuple[JudgeContext, MasterEntry]:
    parts = passing_parts()
    replace_file(parts, "configs/nvidia-master.yaml", "head", EXISTING_ENTRY + "\n" + entry_text)
    if script is None:
        parts["files"] = [f for f in parts["files"] if f["path"] != SCRIPT_PATH]
    else:
        replace_file(parts, SCRIPT_PATH, "head", script)
    from signoff.policy import load_policy

    ctx = JudgeContext(build(parts), load_policy())
    (changed,) = ctx.changed_entries
    return ctx, changed


def two_dp_modes() -> str:
    return NEW_ENTRY.replace(
        "- { tp: 8, ep: 8, dp-attn: true, spec-decoding: mtp, conc-start: 4, conc-end: 128 }",
        "- { tp: 8, ep: 8, dp-attn: true, spec-decoding: mtp, conc-list: [4, 8] }\n"
        "          - { tp: 8, ep: 8, dp-attn: false, spec-decoding: mtp, conc-list: [4, 8, 16] }",
    )


def test_context_reads_the_entry_script_once_per_distinct_reading() -> None:
    ctx, changed = context(two_dp_modes())
    runs = ctx.script_runs(changed)
    assert [run.label for run in runs] == ["DP_ATTENTION=true, EP_SIZE=8, SPEC_DECODING=mtp, TP=8",
                                           "DP_ATTENTION=false, EP_SIZE=8, SPEC_DECODING=mtp, TP=8"]  # fmt: skip
    dpa, tp = (dict((a.flag, a.value) for a in run.launches[0].args) for run in runs)
    assert (dpa["--tensor-parallel-size"], dpa["--data-parallel-size"]) == ("1", "8")
    assert tp["--tensor-parallel-size"] == "8" and "--data-parallel-size" not in tp
    assert [len(run.points) for run in runs] == [2, 3]
    assert all(run.launches[0].reach == "reached" for run in runs)
    # CONC is read, but only by the client: 5 points, 5 evaluations, 2 distinct launches
    assert ctx.script_runs(changed) is runs  # memoised


def test_a_point_whose_script_cannot_be_read_is_an_incomplete_run() -> None:
    ctx, changed = context(two_dp_modes(), script=None)
    (run,) = ctx.script_runs(changed)
    assert run.complete is False and "could not be read at the pinned head" in run.problems[0]


def test_the_evaluation_bound_fails_closed_and_names_the_bound() -> None:
    ctx, changed = context(two_dp_modes())
    policy = ctx.policy.model_copy(
        update={"sweep_env": ctx.policy.sweep_env.model_copy(update={"max_evaluations": 2})}
    )
    ctx.policy = policy
    runs = ctx.script_runs(changed)
    assert any(
        not run.complete and "more than 2 distinct environments" in run.problems[0] for run in runs
    )


def test_a_changed_script_alone_is_read_with_nothing_bound() -> None:
    ctx, _ = context(two_dp_modes())
    (run,) = ctx.script_runs_for_path(SCRIPT_PATH)
    assert run.config == () and run.label == ""
    assert {launch.reach for launch in run.launches} == {"undecided"}
    assert any("DP_ATTENTION" in note for note in run.notes)
    (missing,) = ctx.script_runs_for_path("benchmarks/single_node/fixed_seq_len/none.sh")
    assert missing.complete is False


def test_runs_can_be_limited_to_spec_decode_points_of_one_scenario() -> None:
    ctx, changed = context(two_dp_modes())
    assert ctx.script_runs(changed, spec=("draft_model",)) == ()
    assert len(ctx.script_runs(changed, spec=("mtp",), scenario="fixed-seq-len")) == 2


def test_the_shipped_example_script_reads_the_same_for_every_point() -> None:
    ctx, changed = context(NEW_ENTRY, SCRIPT)
    (run,) = ctx.script_runs(changed)
    assert len(run.points) == 6 and run.complete


def test_the_sweep_env_table_is_data_in_the_profile(policy: Policy) -> None:
    assert isinstance(policy.sweep_env, SweepEnv)
    assert policy.sweep_env.point["dp-attn"].env == "DP_ATTENTION"
    assert policy.sweep_env.jobs["eval"]["EVAL_ONLY"] == "true"


CLAMPED = BRANCHY.replace(
    'vllm serve "$MODEL"',
    'BS=$CONC\n[ "$BS" -gt 64 ] && BS=64\nvllm serve "$MODEL" --max-num-seqs "$BS"',
)


def test_a_clamp_on_the_concurrency_still_reads_a_curve_once_for_all_its_points() -> None:
    ctx, changed = context(two_dp_modes(), CLAMPED)
    runs = ctx.script_runs(changed)
    assert [len(run.points) for run in runs] == [2, 3]
    for run in runs:
        (launch,) = run.launches
        assert launch.reach == "reached" and run.notes == ()
        assert dict((a.flag, a.value) for a in launch.args)["--max-num-seqs"] == "${BS}"
    # the clamp is data (parse/shell/data_only): one reading per curve, the concurrency unknown
    assert len(ctx._evaluations) == 2


FORKED_CLAMP = BRANCHY.replace(
    'vllm serve "$MODEL"',
    'if [ -n "$WIDE" ]; then BS=$CONC; else BS=$((2 * CONC)); fi\n'
    '[ "$BS" -gt 64 ] && BS=64\nvllm serve "$MODEL" --max-num-seqs "$BS"',
)


def test_a_clamp_the_reader_forks_on_is_read_point_by_point() -> None:
    """BS holds two unknown values at the clamp, so the reading with the concurrency unknown
    forks on it and notes it, while each point's own reading decides it."""
    ctx, changed = context(two_dp_modes(), FORKED_CLAMP)
    runs = ctx.script_runs(changed)
    assert all(not any("BS" in note for note in run.notes) for run in runs)
    assert len(ctx._evaluations) == 2 + 5  # each curve unknown, then every point on its own


LAUNCH = 'vllm serve "$MODEL" --host 0.0.0.0 --port "$PORT" \\\n'


@pytest.mark.parametrize(
    ("before", "flag", "outcome"),
    [
        ('N=$CONC\n[ "$N" -gt 8 ] && N=8\n', '  --max-num-seqs "$N" \\\n', "PASS"),
        ('N=$CONC\n[ "$N" -gt 8 ] && N=0\n', "  --enforce-eager$N \\\n", "REJECTED"),
        ('N=$CONC\n[ "$N" -gt 8 ] && N=8\n', "  --hf-overrides$N \\\n", "REJECTED"),
        (
            'N=$CONC\nif [ -n "$WIDE" ]; then N=16; fi\n[ "$N" -gt 64 ] && N=64\n',
            '  --max-num-seqs "$N" \\\n',
            "PASS",
        ),
    ],
)
def test_a_clamp_read_once_gets_the_verdict_of_reading_every_point(
    before: str, flag: str, outcome: str, monkeypatch: pytest.MonkeyPatch, policy: Policy
) -> None:
    """A PR author's clamp that builds a flag or a value from the concurrency: the curve
    read once with it unknown gives the verdict the two-reading check gives, check by check.
    (Where the value also moves in an undecided arm, the reading once collapses it and the
    points' own readings fork, so Check 3 may count its configurations differently.)"""
    parts = passing_parts()
    replace_file(parts, SCRIPT_PATH, "head", SCRIPT.replace(LAUNCH, before + LAUNCH + flag))
    once = judge(build(parts), policy)
    monkeypatch.setattr(JudgeContext, "_passes_on_only", lambda self, parsed, name: (False, None))
    every_point = judge(build(parts), policy)
    assert once.outcome == every_point.outcome == outcome
    assert [c.status for c in once.checks] == [c.status for c in every_point.checks]


def test_a_script_that_only_passes_the_concurrency_on_reads_each_curve_once() -> None:
    ctx, changed = context(two_dp_modes())  # CONC reaches the client's arguments, nothing else
    runs = ctx.script_runs(changed)
    assert [len(run.points) for run in runs] == [2, 3]
    assert all("CONC" not in (ctx.reading_environment(run) or {"CONC": ""}) for run in runs)
    # one reading per curve, with the concurrency unknown; no point is read to confirm it
    assert len(ctx._evaluations) == 2


CONC_DECIDES = BRANCHY.replace(
    'vllm serve "$MODEL"',
    'MEM=0.90\nif [ "$CONC" -ge 8 ]; then MEM=0.85; fi\n'
    'vllm serve "$MODEL" --gpu-memory-utilization "$MEM"',
)


def test_a_curve_whose_concurrency_decides_a_value_is_read_point_by_point() -> None:
    ctx, changed = context(two_dp_modes(), CONC_DECIDES)
    runs = ctx.script_runs(changed)
    memory = sorted(
        {dict((a.flag, a.value) for a in run.launches[0].args)["--gpu-memory-utilization"]
         for run in runs}
    )  # fmt: skip
    assert memory == ["0.85", "0.90"] and all(run.notes == () for run in runs)
    assert len(ctx._evaluations) == 2 + 5  # each curve unknown, then every point on its own
