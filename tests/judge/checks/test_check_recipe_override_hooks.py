"""Check 3 reads a benchmark script's own override hooks as unset, as the sweep runs it; Checks 7
and 8 keep the strict reading, where a wrong "unset" would hide what they look for. The judge
context assumes "unset" only for names nothing in the benchmark job may set (profile data), and
for no name when the PR may change what the job exports."""

from __future__ import annotations

import pytest
from builders import (
    RECIPE_DOC,
    SCRIPT,
    SCRIPT_PATH,
    add_changed_file,
    build,
    passing_parts,
    replace_file,
)

from signoff.errors import PolicyError
from signoff.judge.context import JudgeContext
from signoff.policy import Policy, load_policy

LAUNCH = 'vllm serve "$MODEL"'
EXPERT = "  --enable-expert-parallel \\\n"


def with_script(text: str) -> dict:
    parts = passing_parts()
    replace_file(parts, SCRIPT_PATH, "head", text)
    return parts


def hidden_moe(test: str, before: str = "") -> str:
    """The shipped script with `--moe-backend triton` (in no recipe) behind `test`."""
    hook = f"{before}EXTRA=()\nif {test}; then EXTRA=(--moe-backend triton); fi\n"
    script = SCRIPT.replace(LAUNCH, hook + LAUNCH)
    return script.replace(EXPERT, '  --enable-expert-parallel "${EXTRA[@]}" \\\n')


def test_a_draft_model_default_compares_as_the_job_runs_it_2003_shape(check):
    script = SCRIPT.replace(LAUNCH, 'DRAFT_MODEL="${DRAFT_MODEL:-example/Draft-EAGLE3}"\n' + LAUNCH)
    script = script.replace(
        """'{"method": "mtp", "num_speculative_tokens": 3}'""",
        '"{\\"method\\": \\"eagle3\\", \\"model\\": \\"$DRAFT_MODEL\\", '
        '\\"num_speculative_tokens\\": 3}"',
    )
    parts = with_script(script)
    recipe = RECIPE_DOC.replace(
        '{"method": "mtp", "num_speculative_tokens": 3}',
        '{"method": "eagle3", "model": "example/Draft-EAGLE3", "num_speculative_tokens": 3}',
    )
    parts["upstream"][0]["files"][0]["text"] = recipe
    result = check(parts, "recipe")
    assert result.status == "PASS", result.reason
    assert "--speculative-config" in result.reason
    assert result.reason.endswith("`DRAFT_MODEL` read as unset: nothing exports it")
    # another draft in the recipe is a difference, now that the script's draft is known
    parts["upstream"][0]["files"][0]["text"] = recipe.replace("Draft-EAGLE3", "Other-EAGLE3")
    result = check(parts, "recipe")
    assert result.status == "FAIL" and "example/Draft-EAGLE3" in result.reason


def test_a_backend_override_guarded_by_its_own_test_compares_as_unset_2187_shape(check):
    hook = """\
LINEAR_ARGS=()
if [ -n "${LINEAR_BACKEND:-}" ]; then
  [ "$LINEAR_BACKEND" != native ] && LINEAR_ARGS=(--linear-backend "$LINEAR_BACKEND")
fi
MAX_NUM_BATCHED_TOKENS="${MAX_NUM_BATCHED_TOKENS:-32768}"
"""
    script = SCRIPT.replace(LAUNCH, hook + LAUNCH).replace(
        EXPERT,
        EXPERT + '  "${LINEAR_ARGS[@]}" --max-num-batched-tokens "$MAX_NUM_BATCHED_TOKENS" \\\n',
    )
    result = check(with_script(script), "recipe")
    assert result.status == "PASS", result.reason
    assert "`LINEAR_BACKEND`, `MAX_NUM_BATCHED_TOKENS` read as unset" in result.reason


def test_a_flag_behind_a_hook_nothing_exports_is_not_what_the_job_runs(check):
    result = check(with_script(hidden_moe('[ -n "${HIDDEN_MOE:-}" ]')), "recipe")
    assert result.status == "PASS", result.reason
    assert "`HIDDEN_MOE` read as unset: nothing exports it" in result.reason


def test_a_flag_the_unset_hook_switches_on_is_compared(check):
    result = check(with_script(hidden_moe('[ -z "${HIDDEN_MOE:-}" ]')), "recipe")
    assert result.status == "FAIL"
    assert "`--moe-backend triton` not in the recipe" in result.reason
    assert "could not be decided" not in result.reason  # the job runs it: no condition about it


@pytest.mark.parametrize(
    ("test", "before", "why"),
    [
        # launchers pass NUM_SPEC_TOKENS into the container (`-e NUM_SPEC_TOKENS`)
        ('[ -n "${NUM_SPEC_TOKENS:-}" ]', "", "exported"),
        # VLLM_* may come from the engine's image
        ('[ -n "${VLLM_HIDDEN_MOE:-}" ]', "", "platform prefix"),
        # read plainly: the author expects a value from somewhere
        ('[ -n "${HIDDEN_MOE:-}" ]', 'echo "moe backend: $HIDDEN_MOE"\n', "plain read"),
        # the script's own run-time value
        ('[ -n "${HIDDEN_MOE:-}" ]', "HIDDEN_MOE=$(cat /etc/moe)\n", "assigned"),
    ],
)
def test_a_flag_behind_a_name_that_may_be_set_is_still_compared_both_ways(check, test, before, why):
    result = check(with_script(hidden_moe(test, before)), "recipe")
    assert result.status == "FAIL", why
    assert "`--moe-backend triton` not in the recipe" in result.reason
    assert "could not be decided" in result.reason and "read as unset" not in result.reason


def test_a_pr_changing_a_launcher_gets_no_assumption_and_the_reason_says_why(check):
    parts = with_script(hidden_moe('[ -n "${HIDDEN_MOE:-}" ]'))
    add_changed_file(parts, "runners/launch_b200-dgxc.sh", "export HIDDEN_MOE=1\n", read=False)
    result = check(parts, "recipe")
    assert result.status == "FAIL"
    assert "`--moe-backend triton` not in the recipe" in result.reason
    assert result.reason.endswith(
        "Override hooks are not read as unset: the PR changes "
        "`runners/launch_b200-dgxc.sh`, which may export them"
    )


def test_a_hidden_architecture_override_still_fails_check_7(check):
    hook = (
        "EXTRA=()\n"
        'if [ -n "${INDEX_CACHE:-}" ]; then\n'
        """  EXTRA=(--hf-overrides '{"use_index_cache": true}')\n"""
        "fi\n"
    )
    script = SCRIPT.replace(LAUNCH, hook + LAUNCH).replace(
        EXPERT, '  --enable-expert-parallel "${EXTRA[@]}" \\\n'
    )
    parts = with_script(script)
    arch = check(parts, "no-arch-hacks")
    assert arch.status == "FAIL" and "--hf-overrides" in arch.reason
    recipe = check(parts, "recipe")  # the job never passes it: Check 3 has nothing to compare
    assert recipe.status == "PASS" and "`INDEX_CACHE` read as unset" in recipe.reason


def test_a_hidden_raw_completions_client_still_fails_check_8(check):
    hook = (
        'if [ -n "${RAW_COMPLETIONS:-}" ]; then\n'
        '  run_benchmark_serving --model "$MODEL" --port "$PORT" --max-concurrency "$CONC"\n'
        "  exit 0\n"
        "fi\n"
    )
    script = SCRIPT.replace("run_benchmark_serving \\\n", hook + "run_benchmark_serving \\\n", 1)
    result = check(with_script(script), "spec-chat-template")
    assert result.status == "FAIL"
    assert "without --use-chat-template" in result.reason


# --- what the judge context assumes ----------------------------------------------------------------

NAMES_SCRIPT = """\
if [ -n "${DRAFT_HOOK:-}" ]; then A=1; fi
if [ -n "${PORT:-}" ]; then A=2; fi
if [ -n "${MODEL_PATH:-}" ]; then A=3; fi
if [ -n "${SLURM_JOB_ID:-}" ]; then A=4; fi
if [ -n "${VLLM_EXTRA:-}" ]; then A=5; fi
if [ -n "${NCCLX_MODE:-}" ]; then A=6; fi
if [ -n "${TP:-}" ]; then A=7; fi
if [ -n "${container:-}" ]; then A=8; fi
if [ -n "${EVAL_ONLY:-}" ]; then A=9; fi
"""


def context(parts: dict | None = None, policy: Policy | None = None) -> JudgeContext:
    parts = parts or passing_parts()
    return JudgeContext(build(parts), policy or load_policy())


def names_parts() -> dict:
    parts = passing_parts()
    replace_file(parts, SCRIPT_PATH, "head", NAMES_SCRIPT + SCRIPT)
    return parts


def assumed(ctx: JudgeContext) -> frozenset[str]:
    parsed = ctx.parsed_script(SCRIPT_PATH)
    assert parsed is not None
    return ctx.unset_hooks(parsed)


def test_only_a_name_nothing_in_the_job_may_set_is_assumed_unset():
    # PORT and MODEL_PATH: launchers export them; SLURM_, VLLM_, NCCL: platform namespaces;
    # TP, EVAL_ONLY: the sweep's own; container: set by container runtimes
    assert assumed(context(names_parts())) == {"DRAFT_HOOK"}


@pytest.mark.parametrize(
    "path",
    [
        "runners/launch_b200-dgxc.sh",
        "runners/synthetic_injectors/new.py",
        ".github/workflows/benchmark-tmpl.yml",
        ".github/workflows/run-sweep.yml",
        "benchmarks/benchmark_lib.sh",
    ],
)
def test_a_pr_that_may_change_what_the_job_exports_gets_no_assumption(path):
    parts = names_parts()
    add_changed_file(parts, path, "export DRAFT_HOOK=1\n", read=False)
    ctx = context(parts)
    assert assumed(ctx) == frozenset()
    assert f"the PR changes `{path}`" in ctx.hooks_withheld


def test_a_launcher_renamed_away_counts_as_a_change_to_the_launchers():
    parts = names_parts()
    parts["changed_files"].append(
        {"path": "tools/old_launcher.sh", "previous_path": "runners/launch_h100-cw.sh",
         "status": "renamed", "patch": ""}
    )  # fmt: skip
    assert assumed(context(parts)) == frozenset()


def test_a_truncated_file_list_gets_no_assumption():
    parts = names_parts()
    parts["files_truncated"] = True
    ctx = context(parts)
    assert assumed(ctx) == frozenset() and "truncated" in ctx.hooks_withheld


def test_a_profile_that_does_not_list_the_job_environment_assumes_nothing():
    policy = load_policy()
    bare = policy.model_copy(
        update={"sweep_env": policy.sweep_env.model_copy(update={"environment": None})}
    )
    ctx = context(names_parts(), bare)
    assert assumed(ctx) == frozenset() and ctx.hooks_withheld == ""


def test_both_readings_are_memoised_and_shared_when_a_script_has_no_hooks():
    ctx = context()
    (entry,) = ctx.changed_entries
    strict = ctx.script_runs(entry)
    evaluated = len(ctx._evaluations)  # one per distinct environment the points bind
    unset = ctx.script_runs(entry, hooks_unset=True)
    assert unset == strict and len(ctx._evaluations) == evaluated  # no hooks: nothing new read
    assert unset is ctx.script_runs(entry, hooks_unset=True)
    hooked = context(names_parts())
    (entry,) = hooked.changed_entries
    assert hooked.script_runs(entry)[0].unset == ()
    assert hooked.script_runs(entry, hooks_unset=True)[0].unset == ("DRAFT_HOOK",)


def test_the_sweep_names_every_variable_it_exports(policy: Policy):
    names = policy.sweep_env.variables()
    assert {"TP", "EP_SIZE", "CONC", "MAX_MODEL_LEN", "EVAL_ONLY", "SCENARIO_SUBDIR"} <= names


def test_the_profile_lists_the_job_environment_read_from_inferencex(policy: Policy):
    environment = policy.sweep_env.environment
    assert environment is not None
    assert {"RESULT_FILENAME", "PORT", "NUM_SPEC_TOKENS", "GPU_COUNT"} <= set(environment.exported)
    assert environment.may_hold("SLURM_JOB_ID") and environment.may_hold("HOME")
    assert not environment.may_hold("DRAFT_MODEL")
    assert "runners/**" in environment.exported_by


def test_a_job_environment_name_that_is_no_identifier_is_a_profile_error(tmp_path):
    from pathlib import Path

    checklists = Path(__file__).parents[3] / "checklists"
    shipped = (checklists / "inferencex.yaml").read_text()
    standards = "inferencex-standards.yaml"
    (tmp_path / standards).write_text((checklists / standards).read_text())
    broken = shipped.replace("    exported: [\n", "    exported: [\n      not-a-name,\n", 1)
    assert broken != shipped
    path = tmp_path / "profile.yaml"
    path.write_text(broken)
    with pytest.raises(PolicyError, match=r"profile.yaml:\d+: sweep_env.environment.exported"):
        load_policy(path)
