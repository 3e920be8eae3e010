"""Today's InferenceX standard (E9-E11, after 2026-08-21): WARN as a result, the changed rules,
Checks 13-15, and the same bundle judged under each new era and under E8."""

from __future__ import annotations

import copy

import pytest
from builders import (
    PR_BODY,
    RUN_ID,
    SCRIPT,
    SCRIPT_PATH,
    build,
    current_parts,
    measured_curve,
    replace_file,
    throughput_row,
)

from signoff.judge import judge, run_check
from signoff.judge.checks import pareto_coverage
from signoff.judge.context import JudgeContext
from signoff.judge.model import failed
from signoff.publish.render import WARN_HEADER, render_markdown
from signoff.publish.status import plan_status
from signoff.standards import resolve_standard

MASTER = "configs/nvidia-master.yaml"


def statuses(policy, parts, spec):
    verdict = judge(build(parts), policy, resolve_standard(spec, policy))
    return verdict, {c.id: c.status for c in verdict.checks}


def with_script(parts, script):
    """The PR's script (added by the PR) reads `script` instead."""
    replace_file(parts, SCRIPT_PATH, "head", script)
    lines = script.splitlines()
    patch = f"@@ -0,0 +1,{len(lines)} @@\n" + "\n".join("+" + line for line in lines)
    next(f for f in parts["changed_files"] if f["path"] == SCRIPT_PATH)["patch"] = patch
    return parts


def without_reuse(parts):
    parts["comments"] = [c for c in parts["comments"] if "/reuse-sweep-run" not in c["body"]]
    return parts


# --- the standards data -------------------------------------------------------------------------


def test_current_lists_sixteen_checks_and_the_default_stays_the_missions_0_8(policy):
    current = resolve_standard("current", policy)
    assert current.era == "E11" and [s.number for s in current.checks] == list(range(16))
    assert {s.id for s in current.checks if s.warn_only} == {
        "reuse-command", "pareto-coverage", "pr-description",
    }  # fmt: skip
    default = resolve_standard(None, policy)
    assert default.label == "0-8" and not any(s.warn_only for s in default.checks)
    assert not default.switches.reuse_use_command and not default.switches.comment_per_run


@pytest.mark.parametrize(
    ("instant", "era", "checks"),
    [
        ("2026-08-22T00:00:00Z", "E8", 13),
        ("2026-09-05T12:00:00Z", "E8", 13),
        ("2026-09-18T23:59:59Z", "E8", 13),
        ("2026-09-19T00:00:00Z", "E9", 14),
        ("2026-09-20T08:00:00Z", "E10", 15),
        ("2026-09-23T00:00:00Z", "E11", 16),
        ("2027-01-01T00:00:00+02:00", "E11", 16),
    ],
)
def test_every_instant_resolves_to_the_era_in_force(policy, instant, era, checks):
    standard = resolve_standard(f"at:{instant}", policy)
    assert standard.era == era and len(standard.checks) == checks


def test_instants_known_only_by_day_say_so(policy):
    book = policy.standards
    assert {e.id: e.dated for e in book.eras[-3:]} == {"E9": "day", "E10": "day", "E11": "bound"}
    september = (3155, 3164, 3192, 3338, 3340, 3368)
    assert all(c.dated == "day" for c in book.timeline if c.pr in september)
    applied = resolve_standard("at:2026-09-22T12:00:00Z", policy).applied
    assert "2026-09-22 #3368 (day only): Check 4 only warns" in " ".join(applied)
    assert "2026-09-16 #3192 (day only): `/use <run_id>`" in " ".join(applied)


def test_check_4_warns_from_3368_and_fails_before(policy):
    parts = without_reuse(current_parts())
    before = resolve_standard("at:2026-09-21T12:00:00Z", policy)
    after = resolve_standard("at:2026-09-22T12:00:00Z", policy)
    assert not before.slot("reuse-command").warn_only and after.slot("reuse-command").warn_only
    assert statuses(policy, parts, "at:2026-09-21T12:00:00Z")[1]["reuse-command"] == "FAIL"
    verdict, seen = statuses(policy, parts, "at:2026-09-22T12:00:00Z")
    assert seen["reuse-command"] == "WARN" and verdict.outcome == "WARN"
    assert "`/use <run_id>` or `/reuse-sweep-run`" in verdict.checks[4].reason


# --- WARN as a result ---------------------------------------------------------------------------


def test_a_warning_only_check_warns_where_it_would_fail_and_a_crash_warns_too(policy):
    standard = resolve_standard("current", policy)
    slot = standard.slot("pareto-coverage")
    ctx = JudgeContext(build(current_parts()), policy, standard)

    class Crashing:
        @staticmethod
        def evaluate(ctx):
            raise KeyError("boom")

    class Failing:
        @staticmethod
        def evaluate(ctx):
            return failed("three points")

    assert run_check(Failing, ctx, slot).status == "WARN"
    crashed = run_check(Crashing, ctx, slot)
    assert crashed.status == "WARN" and "internal error" in crashed.reason
    hard = standard.slot("codeowner")
    assert run_check(Failing, ctx, hard).status == "FAIL"


def test_a_fail_beats_a_warning_and_warnings_alone_give_warn(policy):
    parts = current_parts()
    parts["throughput"]["rows"] = measured_curve(3)
    verdict, seen = statuses(policy, parts, "current")
    assert seen["pareto-coverage"] == "WARN" and verdict.outcome == "WARN"
    assert [c.id for c in verdict.warnings] == ["pareto-coverage"] and not verdict.failures
    parts["signoff"]["author"] = "chunfangamd"  # an AMD owner signs an NVIDIA change
    verdict, seen = statuses(policy, parts, "current")
    assert seen["codeowner"] == "FAIL" and verdict.outcome == "REJECTED"


def test_a_warn_verdict_publishes_success_with_the_warn_header_and_warning_rows(policy):
    parts = current_parts()
    parts["throughput"]["rows"] = measured_curve(2)
    verdict = judge(build(parts), policy, resolve_standard("current", policy))
    body = render_markdown(verdict, policy)
    assert body.split("\n")[1] == WARN_HEADER == "## ⚠️ **Verdict: WARN** ⚠️"
    assert "⚠️ Check 14 (Pareto coverage): WARN — fewer than 5 frontier points" in body
    assert "@ankur-singh sign-off not accepted" not in body
    plan = plan_status(verdict.outcome, policy, sha=verdict.head_sha)
    assert plan.state == "success" and plan.description == policy.publish.classic_pass


# --- one bundle, each new era against E8 --------------------------------------------------------


def test_e9_adds_check_13_a_quantized_draft_fails_it_where_e8_passed(policy):
    parts = with_script(
        current_parts(),
        SCRIPT.replace(
            '"num_speculative_tokens": 3}', '"num_speculative_tokens": 3, "quantization": "fp8"}'
        ),
    )
    e8, e8_seen = statuses(policy, parts, "E8")
    e9, e9_seen = statuses(policy, parts, "E9")
    assert "draft-precision" not in e8_seen and e8.outcome == "PASS"
    assert e9_seen["draft-precision"] == "FAIL" and e9.outcome == "REJECTED"
    assert "`quantization`" in e9.checks[13].reason


def test_e10_adds_check_14_three_points_warn_where_e8_said_nothing(policy):
    parts = current_parts()
    parts["throughput"]["rows"] = measured_curve(3)
    e8, e8_seen = statuses(policy, parts, "E8")
    e10, e10_seen = statuses(policy, parts, "E10")
    assert "pareto-coverage" not in e8_seen and e8.outcome == "PASS"
    assert e10_seen["pareto-coverage"] == "WARN" and e10.outcome == "WARN"
    assert (
        "3/5" in e10.checks[14].reason and "admin exception: not verified" in e10.checks[14].reason
    )


def test_e11_adds_check_15_a_description_claiming_another_image_warns(policy):
    parts = current_parts()
    parts["pull_request"]["body"] = PR_BODY.replace("v0.11.1", "v0.12.0")
    e8, e8_seen = statuses(policy, parts, "E8")
    e11, e11_seen = statuses(policy, parts, "E11")
    assert "pr-description" not in e8_seen and e8.outcome == "PASS"
    assert e11_seen["pr-description"] == "WARN" and e11.outcome == "WARN"
    assert "vllm/vllm-openai:v0.11.1" in e11.checks[15].reason


# --- Check 13 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("export SGLANG_NVFP4_CKPT_FP8_NEXTN_MOE=1\n", "must not be enabled"),
        ("export SGLANG_NVFP4_CKPT_FP8_NEXTN_MOE=$FP8_DRAFT\n", "must not be enabled"),
        ("export SGLANG_GLM_NEXTN_MOE_PTPC=1\n", "quantizes the draft's computation"),
    ],
)
def test_check_13_reads_the_named_prohibition_and_leads_in_the_launch_environment(
    check, line, said
):
    parts = with_script(
        current_parts(), SCRIPT.replace('hf download "$MODEL"\n', f'hf download "$MODEL"\n{line}')
    )
    result = check(parts, "draft-precision", "E9")
    assert result.status == "FAIL" and said in result.reason


def test_check_13_lets_the_prohibited_knob_be_set_to_zero(check):
    parts = with_script(
        current_parts(),
        SCRIPT.replace(
            'hf download "$MODEL"\n',
            'hf download "$MODEL"\nexport SGLANG_NVFP4_CKPT_FP8_NEXTN_MOE=0\n',
        ),
    )
    assert check(parts, "draft-precision", "E9").status == "PASS"


def test_check_13_names_the_draft_quantization_flag(check):
    parts = with_script(
        current_parts(),
        SCRIPT.replace(
            "  --kv-cache-dtype fp8 \\\n",
            "  --kv-cache-dtype fp8 \\\n  --speculative-draft-model-quantization quark_mxfp4 \\\n",
        ),
    )
    result = check(parts, "draft-precision", "E9")
    assert (
        result.status == "FAIL"
        and "--speculative-draft-model-quantization quark_mxfp4" in result.reason
    )


def test_check_13_needs_the_precision_evidence_in_the_detail_section(check):
    parts = current_parts()
    from builders import set_detail

    set_detail(parts, "- Looks good to me.")
    result = check(parts, "draft-precision", "E9")
    assert result.status == "FAIL" and "could not be verified" in result.reason


def test_check_13_is_not_applicable_without_speculative_decoding(check):
    from builders import append_only_parts

    assert check(append_only_parts(), "draft-precision", "E9").status == "N/A"


# --- Check 14 -----------------------------------------------------------------------------------


def test_the_frontier_keeps_plateaus_and_drops_dominated_points():
    points = [(1.0, 100.0), (2.0, 90.0), (3.0, 100.0), (3.0, 80.0), (4.0, 150.0), (4.0, 150.0)]
    assert pareto_coverage.frontier(points) == [(1.0, 100.0), (3.0, 100.0), (4.0, 150.0)]


def test_check_14_counts_only_frontier_points_and_warns_when_results_are_missing(check):
    parts = current_parts()
    rows = measured_curve(5)
    rows[2] = throughput_row(16, 4.0, 100.0)  # dominated: more latency, less throughput
    parts["throughput"]["rows"] = rows
    assert "4/5" in check(parts, "pareto-coverage").reason
    parts["throughput"] = {"run_id": RUN_ID, "available": False, "reason": "artifact expired"}
    result = check(parts, "pareto-coverage")
    assert result.status == "WARN" and "unverifiable: artifact expired" in result.reason
    del parts["throughput"]
    assert "were not read" in check(parts, "pareto-coverage").reason


# --- Check 15 -----------------------------------------------------------------------------------


def test_check_15_warns_on_an_unnamed_key_and_on_a_claimed_unchanged_config(check):
    parts = current_parts()
    parts["pull_request"]["body"] = "Adds an MTP recipe on `vllm/vllm-openai:v0.11.1`."
    result = check(parts, "pr-description")
    assert result.status == "WARN" and "config key `dsv4-fp4-b200-vllm-mtp`" in result.reason
    parts["pull_request"]["body"] = PR_BODY + " Also retunes dsv4-fp4-b200-vllm."
    result = check(parts, "pr-description")
    assert result.status == "WARN" and "claims config `dsv4-fp4-b200-vllm`" in result.reason


def test_check_15_warns_when_the_description_was_not_read_and_passes_when_it_agrees(check):
    parts = current_parts()
    assert check(parts, "pr-description").status == "PASS"
    del parts["pull_request"]["body"]
    assert check(parts, "pr-description").status == "WARN"


def test_check_15_is_not_applicable_without_config_changes_or_claims(check):
    from builders import append_only_parts

    parts = append_only_parts()
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != MASTER]
    parts["pull_request"]["body"] = "Refresh the changelog wording."
    assert check(parts, "pr-description").status == "N/A"


# --- Check 6(b): open-source and vendor frameworks ----------------------------------------------

DYNAMO = """\
dsv4-fp4-b200-{framework}:
  image: {image}
  model: deepseek-ai/DeepSeek-V4-Pro
  model-prefix: dsv4x
  precision: fp4
  framework: {framework}
  runner: b200
  multinode: false
  scenarios:
    fixed-seq-len:
      - isl: 8192
        osl: 1024
        search-space:
          - {{ tp: 8, conc-start: 4, conc-end: 64 }}
"""


def vendor_entry_parts(existing: str | None):
    """The PR adds a dynamo-trt entry for a model prefix whose only other entry is `existing`."""
    parts = current_parts()
    base = parts["files"][3]["text"]
    if existing is not None:
        base += "\n" + DYNAMO.format(framework=existing, image="lmsysorg/sglang:v0.5.9")
    entry = DYNAMO.format(
        framework="dynamo-trt", image="nvcr.io#nvidia/ai-dynamo/tensorrtllm-runtime:0.9.0"
    )
    replace_file(parts, MASTER, "base", base)
    replace_file(parts, MASTER, "head", base + "\n" + entry)
    lines = entry.splitlines()
    parts["changed_files"][0]["patch"] = f"@@ -99,0 +100,{len(lines)} @@\n" + "\n".join(
        "+" + x for x in lines
    )
    return parts


@pytest.mark.parametrize("spec", ["0-8", "E8", "E11"])
def test_dynamo_trt_is_a_vendor_framework_that_comes_after_vllm_and_sglang(check, spec):
    result = check(vendor_entry_parts(None), "upstream-image", spec)
    assert result.status == "FAIL" and "`dynamo-trt`, a vendor framework" in result.reason


def test_an_open_source_deployment_puts_sglang_first_only_from_the_later_prompt(check):
    parts = vendor_entry_parts("dynamo-sglang")
    assert check(parts, "upstream-image", "E8").status == "FAIL"
    assert check(parts, "upstream-image", "E11").status == "PASS"
    assert check(vendor_entry_parts("sglang"), "upstream-image", "E8").status == "PASS"


# --- Check 4 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "august", "e11"),
    [
        ("/use 28600000123", "FAIL", "PASS"),
        ("/use", "FAIL", "WARN"),  # the run id is required
        ("please /use 28600000123", "FAIL", "WARN"),  # whole line only
        ("/reuse-sweep-run", "PASS", "PASS"),
    ],
)
def test_check_4_accepts_use_with_a_run_id_from_3192_and_warns_from_3368(check, body, august, e11):
    parts = without_reuse(current_parts())
    parts["comments"].append(
        {"id": 3_100_000_009, "author": "functionstackx", "author_type": "User",
         "author_association": "MEMBER", "body": body, "created_at": "2026-11-20T11:00:00Z"}
    )  # fmt: skip
    assert check(parts, "reuse-command", "at:2026-08-26T00:00:00Z").status == august
    assert check(parts, "reuse-command", "E11").status == e11


def test_use_counts_from_3192_before_check_4_became_a_warning(check):
    parts = without_reuse(current_parts())
    parts["comments"].append(
        {"id": 3_100_000_009, "author": "functionstackx", "author_type": "User",
         "author_association": "MEMBER", "body": "/use 1", "created_at": "2026-11-20T11:00:00Z"}
    )  # fmt: skip
    assert check(parts, "reuse-command", "at:2026-09-15T12:00:00Z").status == "FAIL"
    assert check(parts, "reuse-command", "at:2026-09-17T12:00:00Z").status == "PASS"
    missing = check(without_reuse(current_parts()), "reuse-command", "at:2026-09-17T12:00:00Z")
    assert missing.status == "FAIL" and "`/use <run_id>`" in missing.reason


def test_an_unauthorised_use_command_only_warns(check):
    parts = without_reuse(current_parts())
    parts["comments"].append(
        {"id": 3_100_000_009, "author": "drive-by", "author_type": "User",
         "author_association": "NONE", "body": "/use 1", "created_at": "2026-11-20T11:00:00Z"}
    )  # fmt: skip
    result = check(parts, "reuse-command", "E11")
    assert result.status == "WARN" and "ignored unauthorised: drive-by (NONE)" in result.reason


def test_the_passing_bundle_passes_every_check_of_today(policy):
    verdict, seen = statuses(policy, copy.deepcopy(current_parts()), "current")
    assert verdict.outcome == "PASS", [
        (c.id, c.reason) for c in verdict.checks if c.status != "PASS"
    ]
    assert len(seen) == 16


# --- Check 8: publish_events_and_metrics (the later prompt) --------------------------------------

TRT_RECIPE = "benchmarks/multi_node/srt-slurm-recipes/trtllm/dsv4/agentx/disagg-1p1d-mtp.yaml"
RECIPE_TEXT = """\
backend:
  type: trtllm
  trtllm_config:
    tensor_parallel_size: 8
    speculative_config:
      decoding_type: MTP
  publish_events_and_metrics: {value}
"""


def with_trt_recipe(text):
    from builders import add_changed_file

    parts = current_parts()
    add_changed_file(parts, TRT_RECIPE, text)
    return parts


@pytest.mark.parametrize(
    ("value", "e11", "said"),
    [
        ("false", "FAIL", "must not be disabled"),
        ("False", "FAIL", "must not be disabled"),
        ("true", "PASS", ""),
    ],
)
def test_check_8_bans_disabling_event_publication_from_the_later_prompt(check, value, e11, said):
    parts = with_trt_recipe(RECIPE_TEXT.format(value=value))
    assert check(parts, "no-arch-hacks", "E8").status == "PASS"
    result = check(parts, "no-arch-hacks", "E11")
    assert result.status == e11 and said in result.reason


def test_check_8_fails_when_the_recipe_omits_the_setting_or_cannot_be_read(check):
    omitted = RECIPE_TEXT.replace("  publish_events_and_metrics: {value}\n", "")
    result = check(with_trt_recipe(omitted), "no-arch-hacks", "E11")
    assert result.status == "FAIL" and "could not be verified" in result.reason
    parts = with_trt_recipe(RECIPE_TEXT.format(value="true"))
    replace_file(parts, TRT_RECIPE, "head", None, state="unavailable")
    result = check(parts, "no-arch-hacks", "E11")
    assert result.status == "FAIL" and "could not be read" in result.reason


def test_check_8_reads_a_disabling_flag_on_a_line_the_pr_adds_but_not_in_a_comment(check):
    flagged = SCRIPT.replace(
        "  --kv-cache-dtype fp8 \\\n",
        "  --kv-cache-dtype fp8 \\\n  --publish-events-and-metrics false \\\n",
    )
    result = check(with_script(current_parts(), flagged), "no-arch-hacks", "E11")
    assert result.status == "FAIL" and f"{SCRIPT_PATH}:" in result.reason
    commented = SCRIPT.replace(
        'hf download "$MODEL"\n', 'hf download "$MODEL"\n# publish_events_and_metrics: false\n'
    )
    assert check(with_script(current_parts(), commented), "no-arch-hacks", "E11").status == "PASS"


# --- #3155: a sign-off only where an owner is neither admin nor core -----------------------------

CORE_ONLY = "*  @SemiAnalysisAI/core\nconfigs/amd-master.yaml  @chunfangamd\n"


def test_from_3155_a_pr_owned_only_by_core_needs_no_signoff(check):
    parts = current_parts()
    parts["signoff"]["author"] = "drive-by-reviewer"  # owns nothing
    replace_file(parts, ".github/CODEOWNERS", "default", CORE_ONLY)
    assert check(parts, "codeowner", "at:2026-09-14T12:00:00Z").status == "FAIL"
    after = check(parts, "codeowner", "at:2026-09-15T12:00:00Z")
    assert after.status == "PASS" and "no sign-off is required (#3155)" in after.reason


@pytest.mark.parametrize(
    "codeowners",
    [
        CORE_ONLY + "configs/nvidia-master.yaml  @ankur-singh @SemiAnalysisAI/core\n",  # a user
        CORE_ONLY.replace("@SemiAnalysisAI/core", "@InferenceX/core"),  # not the core team
        "configs/amd-master.yaml  @chunfangamd\n",  # the changed paths have no owner
    ],
)
def test_any_other_owner_or_an_unowned_path_still_needs_the_signers_ownership(check, codeowners):
    parts = current_parts()
    parts["signoff"]["author"] = "drive-by-reviewer"
    replace_file(parts, ".github/CODEOWNERS", "default", codeowners)
    result = check(parts, "codeowner", "current")
    assert "#3155" not in result.reason


MN_RECIPE = "benchmarks/multi_node/srt-slurm-recipes/sglang/dsv4/gb200/disagg-mtp.yaml"
MN_RECIPE_TEXT = """\
backend:
  type: sglang
  decode_environment:
    SGLANG_NVFP4_CKPT_FP8_NEXTN_MOE: "{value}"
  sglang_config:
    speculative-algorithm: EAGLE
"""


def multi_node_entry_parts(value: str):
    """The PR adds a multi-node MTP entry running an srt-slurm recipe it does not change."""
    from builders import AGENTIC_ENTRY, EXISTING_ENTRY

    entry = (
        AGENTIC_ENTRY.replace("qwen3.5-fp8-h200-sglang-agentic-mtp", "dsv4-fp4-gb200-sglang-mtp")
        .replace("multinode: false", "multinode: true")
        .replace("runner: cluster:h200-cw", "runner: gb200")
    )
    launched = MN_RECIPE.replace("benchmarks/multi_node/srt-slurm-", "")
    entry += f'  additional-settings:\n    - "CONFIG_FILE={launched}"\n'
    parts = current_parts()
    replace_file(parts, MASTER, "base", EXISTING_ENTRY)
    replace_file(parts, MASTER, "head", EXISTING_ENTRY + "\n" + entry)
    lines = entry.splitlines()
    patch = f"@@ -14,0 +15,{len(lines)} @@\n" + "\n".join("+" + x for x in lines)
    parts["changed_files"] = [{"path": MASTER, "status": "modified", "patch": patch}]
    replace_file(parts, MN_RECIPE, "head", MN_RECIPE_TEXT.format(value=value))
    return parts


def test_check_13_reads_the_unchanged_recipe_a_changed_multi_node_entry_runs(check):
    result = check(multi_node_entry_parts("1"), "draft-precision", "E9")
    assert result.status == "FAIL" and f"{MN_RECIPE}:4" in result.reason
    assert "must not be enabled" in result.reason
    assert check(multi_node_entry_parts("0"), "draft-precision", "E9").status == "PASS"
