"""Checks 7 and 8 read what a script runs, per swept configuration: hostile edits that hide a
flag where it never runs, or spell a banned flag the way the engine still accepts, must not pass.
"""

from __future__ import annotations

from typing import Any

import pytest
from builders import EXISTING_ENTRY, NEW_ENTRY, SCRIPT, SCRIPT_PATH, passing_parts, replace_file

from signoff.policy import Policy, PolicyError, load_policy

REAL_CALL = (
    'run_benchmark_serving \\\n  --model "$MODEL" \\\n  --port "$PORT" \\\n'
    '  --input-len "$ISL" \\\n  --output-len "$OSL" \\\n  --max-concurrency "$CONC" \\\n'
    '  --result-filename "$RESULT_FILENAME" \\\n  --use-chat-template\n'
)
assert REAL_CALL in SCRIPT
WITHOUT_FLAG = REAL_CALL.replace(" \\\n  --use-chat-template\n", "\n")
LAUNCH_LINE = "  --kv-cache-dtype fp8 \\\n"
assert LAUNCH_LINE in SCRIPT


def with_script(text: str, *, changed: bool = True) -> dict[str, Any]:
    parts = passing_parts()
    replace_file(parts, SCRIPT_PATH, "head", text)
    if not changed:
        parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != SCRIPT_PATH]
    return parts


def with_client(replacement: str) -> dict[str, Any]:
    return with_script(SCRIPT.replace(REAL_CALL, replacement))


def with_launch_flag(flag: str) -> dict[str, Any]:
    return with_script(SCRIPT.replace(LAUNCH_LINE, LAUNCH_LINE + f"  {flag} \\\n"))


def with_entry(entry: str, parts: dict[str, Any]) -> dict[str, Any]:
    replace_file(parts, "configs/nvidia-master.yaml", "head", EXISTING_ENTRY + "\n" + entry)
    return parts


# --- Check 8: a call that never runs proves nothing --------------------------------------------


@pytest.mark.parametrize(
    ("hostile", "named"),
    [
        ("true || run_benchmark_serving --use-chat-template\n" + WITHOUT_FLAG, "without"),
        ("false && run_benchmark_serving --use-chat-template\n" + WITHOUT_FLAG, "without"),
        ("# run_benchmark_serving --use-chat-template\n" + WITHOUT_FLAG, "without"),
        ("never() { run_benchmark_serving --use-chat-template; }\n" + WITHOUT_FLAG, "without"),
        (
            "if false; then run_benchmark_serving --use-chat-template; fi\n" + WITHOUT_FLAG,
            "without",
        ),
        ('X=--use-chat-template\n: "$X"\n' + WITHOUT_FLAG, "without"),
    ],
    ids=["true-or", "false-and", "comment", "uncalled-function", "if-false", "unused-variable"],
)
def test_a_chat_template_call_that_never_runs_does_not_pass_check_8(
    check: Any, hostile: str, named: str
) -> None:
    result = check(with_client(hostile), "spec-chat-template")
    assert result.status == "FAIL"
    assert named in result.reason and f"{SCRIPT_PATH}:" in result.reason


@pytest.mark.parametrize(
    "spelling",
    ["--use_chat_template", "--use-chat-template=true", "--use-chat", "--USE-CHAT-TEMPLATE"],
)
def test_the_client_takes_only_its_exact_words(check: Any, spelling: str) -> None:
    result = check(
        with_client(REAL_CALL.replace("--use-chat-template", spelling)), "spec-chat-template"
    )
    assert result.status == "FAIL"


def test_a_call_whose_reachability_cannot_be_decided_counts_against_a_pass(check: Any) -> None:
    hostile = "[ -f /tmp/go ] && " + REAL_CALL
    result = check(with_client(hostile), "spec-chat-template")
    assert result.status == "FAIL"
    assert "may not run" in result.reason and "/tmp/go" in result.reason


def test_a_second_call_without_the_flag_on_any_path_fails(check: Any) -> None:
    hostile = REAL_CALL + 'if [ -f /tmp/x ]; then run_benchmark_serving --model "$MODEL"; fi\n'
    result = check(with_client(hostile), "spec-chat-template")
    assert result.status == "FAIL"
    assert "without" in result.reason and "could not be decided" in result.reason


def test_a_script_that_redefines_the_client_runs_no_client_call(check: Any) -> None:
    hostile = "run_benchmark_serving() { python3 my_bench.py; }\n" + REAL_CALL
    result = check(with_client(hostile), "spec-chat-template")
    assert result.status == "FAIL" and "runs no run_benchmark_serving call" in result.reason


def test_the_real_call_inside_a_called_function_passes(check: Any) -> None:
    wrapped = "bench() {\n" + REAL_CALL + "}\nbench\n"
    assert check(with_client(wrapped), "spec-chat-template").status == "PASS"


FLAG_ONLY_WITH_DPA = (
    'CT=()\nif [ "$DP_ATTENTION" = "true" ]; then CT=(--use-chat-template); fi\n'
    + WITHOUT_FLAG.replace('"$RESULT_FILENAME"\n', '"$RESULT_FILENAME" "${CT[@]}"\n')
)


def test_a_flag_only_some_configurations_take_fails_naming_the_configuration(check: Any) -> None:
    entry = NEW_ENTRY.replace("dp-attn: true,", "dp-attn: false,")
    parts = with_entry(entry, with_client(FLAG_ONLY_WITH_DPA))
    result = check(parts, "spec-chat-template")
    assert result.status == "FAIL"
    assert "DP_ATTENTION=false" in result.reason


def test_the_same_script_passes_when_every_swept_configuration_takes_the_flag(check: Any) -> None:
    parts = with_client(FLAG_ONLY_WITH_DPA)  # the builder's entry sweeps dp-attn: true only
    result = check(parts, "spec-chat-template")
    assert result.status == "PASS", result.reason
    assert "6 configurations" in result.reason


def test_a_changed_mtp_script_no_entry_runs_is_read_with_nothing_bound(check: Any) -> None:
    parts = with_client(FLAG_ONLY_WITH_DPA)
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] == SCRIPT_PATH]
    result = check(parts, "spec-chat-template")
    assert result.status == "FAIL"  # DP_ATTENTION unknown: the flag may be missing
    assert "may run: no condition of the if at line" in result.reason
    assert not result.reason.startswith(f"{SCRIPT_PATH}: {SCRIPT_PATH}")


# --- Check 7: overrides in every spelling the engine accepts, only where they run -------------


@pytest.mark.parametrize(
    "flag",
    [
        "--hf-overrides '{\"num_hidden_layers\": 30}'",
        "--hf_overrides '{\"num_hidden_layers\": 30}'",
        "--hf-overrides='{\"num_hidden_layers\": 30}'",
        "--hf-overrides.num_hidden_layers 30",
        "--hf-over '{\"num_hidden_layers\": 30}'",
        "--json-model-override-args '{}'",
        "--json_model_override_args '{}'",
    ],
)
def test_check_7_reads_overrides_as_vllm_reads_them(check: Any, flag: str) -> None:
    result = check(with_launch_flag(flag), "no-arch-hacks")
    assert result.status == "FAIL"
    assert f"{SCRIPT_PATH}:" in result.reason


@pytest.mark.parametrize(
    "flag",
    [
        "$'--hf\\x2doverrides' '{}'",
        "$'--hf\\055overrides' '{}'",
        "$'--hf\\u002doverrides' '{}'",
        "$'\\x2d-hf-overrides' '{}'",
        "$'--json-model-override-args\\x3d{}'",
    ],
    ids=["ansi-hex", "ansi-octal", "ansi-unicode", "ansi-leading", "ansi-joined"],
)
def test_check_7_reads_a_flag_spelled_with_ansi_c_escapes_as_bash_passes_it(
    check: Any, flag: str
) -> None:
    result = check(with_launch_flag(flag), "no-arch-hacks")
    assert result.status == "FAIL"
    assert f"{SCRIPT_PATH}:" in result.reason and "-override" in result.reason


@pytest.mark.parametrize(
    "built",
    [
        "F=$(printf '\\x2d-hf-overrides')\n",
        "F=$(printf '%b' '\\055-hf-overrides')\n",
        "F=$(echo -e '\\x2d-hf-overrides')\n",
        "F=$(echo -e '\\0055-hf-overrides')\n",
    ],
    ids=["printf-format", "printf-b", "echo-e-hex", "echo-e-octal"],
)
def test_check_7_reads_a_flag_printed_through_escapes_as_bash_prints_it(
    check: Any, built: str
) -> None:
    script = built + SCRIPT.replace(LAUNCH_LINE, LAUNCH_LINE + "  \"$F\" '{}' \\\n")
    result = check(with_script(script), "no-arch-hacks")
    assert result.status == "FAIL" and "--hf-overrides" in result.reason


@pytest.mark.parametrize(
    "sets",
    [
        "printf -v F '%s' '--hf-overrides'",
        "printf -vF -- '--hf-%s' overrides",
        "shopt -s lastpipe; echo --hf-overrides | read -r F",
        "mapfile -t F <<< --hf-overrides",
        "exec {F}>/dev/null",  # a descriptor's number: known only at run time
    ],
    ids=["printf-v", "printf-v-joined", "lastpipe-read", "mapfile", "named-descriptor"],
)
def test_check_7_reads_a_variable_a_builtin_sets_as_bash_sets_it(check: Any, sets: str) -> None:
    """`F=--kv-cache-dtype` first: a builtin that sets F by name replaces that value."""
    script = (
        "F=--kv-cache-dtype\n"
        + sets
        + "\n"
        + SCRIPT.replace(LAUNCH_LINE, LAUNCH_LINE + '  "$F" \'{"num_hidden_layers": 2}\' \\\n')
    )
    result = check(with_script(script), "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert "--hf-overrides" in result.reason or "known only at run time" in result.reason


@pytest.mark.parametrize(
    "word",
    ['"${F[1-1]}"', '"${F[-1]}"', '"${A[@]:2:1}"', '"${A[-1]}"', '"${A[@]: -1}"'],
    ids=["string-element-arithmetic", "string-element-negative", "array-slice",
         "array-element-negative", "array-slice-negative"],
)  # fmt: skip
def test_check_7_reads_an_element_or_slice_as_bash_gives_it(check: Any, word: str) -> None:
    script = "F=--hf-overrides\nA=(--kv-cache-dtype fp8 --hf-overrides)\n" + SCRIPT.replace(
        LAUNCH_LINE, LAUNCH_LINE + f"  {word} '{{\"num_hidden_layers\": 2}}' \\\n"
    )
    result = check(with_script(script), "no-arch-hacks")
    assert result.status == "FAIL" and "--hf-overrides" in result.reason, result.reason


def test_an_escape_the_reader_cannot_decode_leaves_the_flag_unknown(check: Any) -> None:
    script = "F=$(printf '%b' '--hf\\c')\n" + SCRIPT.replace(
        LAUNCH_LINE, LAUNCH_LINE + "  \"$F\"-overrides '{}' \\\n"
    )
    result = check(with_script(script), "no-arch-hacks")
    assert result.status == "FAIL" and "known only at run time" in result.reason


def test_a_chat_template_flag_spelled_with_escapes_still_counts(check: Any) -> None:
    spelled = REAL_CALL.replace("--use-chat-template", "$'--use-chat\\x2dtemplate'")
    result = check(with_client(spelled), "spec-chat-template")
    assert result.status == "PASS", result.reason


def test_an_abbreviated_json_model_override_reaches_sglang(check: Any) -> None:
    script = (
        'python3 -m sglang.launch_server --model-path "$MODEL" --tp 8 '
        "--json-model-override '{\"num_hidden_layers\": 1}' &\n" + REAL_CALL
    )
    result = check(with_script(script), "no-arch-hacks")
    assert result.status == "FAIL" and "--json-model-override" in result.reason


def test_a_quoted_json_override_is_reported_whole(check: Any) -> None:
    flag = '--hf-overrides \'{"text_config": {"use_index_cache": true, "index_topk_freq": 4}}\''
    result = check(with_launch_flag(flag), "no-arch-hacks")
    assert '{"text_config": {"use_index_cache": true, "index_topk_freq": 4}}' in result.reason


@pytest.mark.parametrize(
    "dead",
    [
        "false && vllm serve m --hf-overrides '{\"a\": 1}'\n",
        "true || vllm serve m --hf-overrides '{\"a\": 1}'\n",
        "if false; then vllm serve m --hf-overrides '{\"a\": 1}'; fi\n",
        "hack() { vllm serve m --hf-overrides '{\"a\": 1}'; }\n",
        "# vllm serve m --hf-overrides '{\"a\": 1}'\n",
        'MODE=plain\nif [ "$MODE" = hacked ]; then vllm serve m --hf_overrides x; fi\n',
    ],
    ids=["false-and", "true-or", "if-false", "uncalled-function", "comment", "decided-variable"],
)
def test_an_override_only_in_a_dead_branch_passes(check: Any, dead: str) -> None:
    result = check(with_script(dead + SCRIPT), "no-arch-hacks")
    assert result.status == "PASS", result.reason


def test_an_override_only_in_an_undecided_branch_fails(check: Any) -> None:
    hostile = "if [ -f /tmp/fast ]; then vllm serve m --hf-overrides '{\"a\": 1}' & fi\n"
    result = check(with_script(hostile + SCRIPT), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "may run" in result.reason and "/tmp/fast" in result.reason


BRANCH_ON_DPA = (
    'if [ "$DP_ATTENTION" = "true" ]; then EXTRA=(--hf-overrides \'{"a": 1}\'); else EXTRA=(); fi\n'
)


def unchanged_branchy_script(entry: str) -> dict[str, Any]:
    script = BRANCH_ON_DPA + SCRIPT.replace(LAUNCH_LINE, LAUNCH_LINE + '  "${EXTRA[@]}" \\\n')
    return with_entry(entry, with_script(script, changed=False))


def test_an_entry_whose_configurations_never_take_the_override_branch_passes(check: Any) -> None:
    entry = NEW_ENTRY.replace("dp-attn: true,", "dp-attn: false,")
    result = check(unchanged_branchy_script(entry), "no-arch-hacks")
    assert result.status == "PASS", result.reason


def test_an_entry_whose_configuration_takes_the_override_branch_fails_naming_it(check: Any) -> None:
    result = check(unchanged_branchy_script(NEW_ENTRY), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "DP_ATTENTION=true" in result.reason and "--hf-overrides" in result.reason


def test_a_changed_script_is_read_for_every_configuration(check: Any) -> None:
    script = BRANCH_ON_DPA + SCRIPT.replace(LAUNCH_LINE, LAUNCH_LINE + '  "${EXTRA[@]}" \\\n')
    entry = NEW_ENTRY.replace("dp-attn: true,", "dp-attn: false,")
    result = check(with_entry(entry, with_script(script)), "no-arch-hacks")
    assert result.status == "FAIL"  # another entry may run the changed script with DP attention
    assert "could not be decided" in result.reason


def test_a_run_time_word_where_a_flag_could_stand_fails_closed(check: Any) -> None:
    result = check(with_launch_flag("$EXTRA_SERVER_ARGS"), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "$EXTRA_SERVER_ARGS" in result.reason and "known only at run time" in result.reason


def test_a_model_config_edit_fails_only_where_it_runs(check: Any) -> None:
    edit = 'sed -i \'s/"num_hidden_layers": 61/"num_hidden_layers": 30/\' "$HF_HOME/config.json"\n'
    assert check(with_script(edit + SCRIPT), "no-arch-hacks").status == "FAIL"
    assert check(with_script("false && " + edit + SCRIPT), "no-arch-hacks").status == "PASS"


def test_an_override_key_in_a_config_file_the_script_writes_fails(check: Any) -> None:
    config = "cat > extra.yaml <<EOF\nhf_overrides:\n  num_hidden_layers: 30\nEOF\n"
    result = check(with_script(config + SCRIPT), "no-arch-hacks")
    assert result.status == "FAIL" and "hf_overrides:" in result.reason


def test_an_override_passed_to_an_unrecognised_command_fails(check: Any) -> None:
    other = 'python3 my_server.py --model "$MODEL" --hf_overrides \'{"a": 1}\' &\n'
    result = check(with_script(other + SCRIPT), "no-arch-hacks")
    assert result.status == "FAIL" and "--hf_overrides" in result.reason


def test_an_override_spelled_for_vllm_in_added_master_config_lines_fails(check: Any) -> None:
    entry = NEW_ENTRY + '  # note\n  extra-args: ["--hf_overrides={}"]\n'
    parts = passing_parts()
    for changed in parts["changed_files"]:
        if changed["path"] == "configs/nvidia-master.yaml":
            changed["patch"] = "@@ -1 +1 @@\n" + "\n".join(
                "+" + line for line in entry.splitlines()
            )
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL" and "added line" in result.reason


# --- the allowlist needs the maintainer decision it rests on ----------------------------------


def test_an_allowlist_entry_without_a_decision_is_a_profile_error(tmp_path: Any) -> None:
    from pathlib import Path

    checklists = Path(__file__).parents[3] / "checklists"
    shipped = (checklists / "inferencex.yaml").read_text()
    standards = "inferencex-standards.yaml"  # the profile names it; it lives beside the profile
    (tmp_path / standards).write_text((checklists / standards).read_text())
    entry = "  allowlist:\n    - {model_prefix: m, flag: --hf-overrides, reason: native}\n"
    broken = shipped.replace("  allowlist: []\n", entry)
    assert broken != shipped
    path = tmp_path / "profile.yaml"
    path.write_text(broken)
    with pytest.raises(PolicyError, match=r"profile.yaml:\d+: arch.allowlist.0.decision"):
        load_policy(path)
    path.write_text(broken.replace("reason: native}", "reason: native, decision: we said so}"))
    with pytest.raises(PolicyError, match="URL of the maintainer decision"):
        load_policy(path)


def test_the_policy_fixture_is_the_shipped_profile(policy: Policy) -> None:
    assert policy.arch.allowlist == () and policy.engines["sglang"].underscores_as_dashes is False


# --- commands that run inside a word: process substitutions and redirection targets -------------

OVERRIDE_LAUNCH = "vllm serve m --hf-overrides '{\"num_hidden_layers\": 1}'"


@pytest.mark.parametrize(
    "hidden",
    [
        f"cat <({OVERRIDE_LAUNCH})\n",
        f"echo ready | tee >({OVERRIDE_LAUNCH})\n",
        f'echo ready > "$({OVERRIDE_LAUNCH})"\n',
        f"echo ready 2> `{OVERRIDE_LAUNCH}`\n",
        f"while read -r line; do :; done < <({OVERRIDE_LAUNCH})\n",
        f"{{ :; }} > >({OVERRIDE_LAUNCH})\n",
    ],
    ids=["process-in", "process-out", "redirect-target", "backtick-target", "loop-input", "group"],
)
def test_an_override_launched_inside_a_word_fails_check_7(check: Any, hidden: str) -> None:
    result = check(with_script(hidden + SCRIPT), "no-arch-hacks")
    assert result.status == "FAIL"
    assert f"{SCRIPT_PATH}:1 --hf-overrides" in result.reason


def test_a_process_substitution_in_a_dead_branch_still_runs_nothing(check: Any) -> None:
    hidden = f"if false; then cat <({OVERRIDE_LAUNCH}) > $({OVERRIDE_LAUNCH}); fi\n"
    assert check(with_script(hidden + SCRIPT), "no-arch-hacks").status == "PASS"


@pytest.mark.parametrize(
    "hidden",
    [
        "cat <(" + WITHOUT_FLAG.strip() + ")\n",
        'echo done > "$(' + WITHOUT_FLAG.strip() + ')"\n',
        "while read -r line; do :; done < <(" + WITHOUT_FLAG.strip() + ")\n",
    ],
    ids=["process", "redirect-target", "loop-input"],
)
def test_a_client_call_without_the_flag_inside_a_word_fails_check_8(
    check: Any, hidden: str
) -> None:
    result = check(with_client(REAL_CALL + hidden), "spec-chat-template")
    assert result.status == "FAIL" and "without" in result.reason


# --- brace expansion makes the words bash passes ----------------------------------------------


@pytest.mark.parametrize(
    "flag",
    ["--{hf-overrides,x} '{}'", "--hf-{overrides,} '{}'", "--{json-model-override-args,x}={}"],
    ids=["alternatives", "empty-alternative", "joined"],
)
def test_check_7_reads_a_flag_made_by_brace_expansion(check: Any, flag: str) -> None:
    result = check(with_launch_flag(flag), "no-arch-hacks")
    assert result.status == "FAIL" and "-override" in result.reason


def test_a_brace_expansion_the_reader_cannot_read_fails_closed(check: Any) -> None:
    result = check(with_launch_flag("--hf-{01..02}"), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "a brace expansion could not be read (--hf-{01..02})" in result.reason


def test_a_quoted_json_value_with_commas_is_not_brace_expanded(check: Any) -> None:
    result = check(with_launch_flag('--compilation-config \'{"a": 1, "b": 2}\''), "no-arch-hacks")
    assert result.status == "PASS", result.reason


# --- a substitution in an operand that applies only if a run-time variable is unset ----------


@pytest.mark.parametrize(
    "hidden",
    [
        f": ${{NOPE:=$({OVERRIDE_LAUNCH})}}\n",
        f'X="${{NOPE:-$({OVERRIDE_LAUNCH})}}"\n',
        f"X=${{NOPE:-`{OVERRIDE_LAUNCH}`}}\n",
    ],
    ids=["assign-default", "default", "backtick"],
)
def test_an_override_in_a_fallback_operand_may_run_and_fails_check_7(
    check: Any, hidden: str
) -> None:
    result = check(with_script(hidden + SCRIPT), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "--hf-overrides" in result.reason and "$NOPE is known only at run time" in result.reason


def test_a_fallback_operand_of_a_set_variable_runs_nothing(check: Any) -> None:
    hidden = f'NOPE=set\nX="${{NOPE:-$({OVERRIDE_LAUNCH})}}"\n'
    assert check(with_script(hidden + SCRIPT), "no-arch-hacks").status == "PASS"


def test_a_client_call_in_a_fallback_operand_fails_check_8(check: Any) -> None:
    hidden = 'X="${NOPE:-$(' + WITHOUT_FLAG.strip() + ')}"\n'
    result = check(with_client(REAL_CALL + hidden), "spec-chat-template")
    assert result.status == "FAIL" and "without" in result.reason


def test_a_chat_template_call_only_in_a_fallback_operand_does_not_pass_check_8(check: Any) -> None:
    hidden = 'X="${NOPE:-$(' + REAL_CALL.strip() + ')}"\n'
    result = check(with_client(hidden), "spec-chat-template")
    assert result.status == "FAIL"


def test_a_client_call_started_as_a_coprocess_without_the_flag_fails_check_8(check: Any) -> None:
    result = check(with_client(REAL_CALL + "coproc " + WITHOUT_FLAG), "spec-chat-template")
    assert result.status == "FAIL" and "without" in result.reason


def test_a_function_started_as_a_coprocess_is_read(check: Any) -> None:
    hidden = f"hack() {{ {OVERRIDE_LAUNCH}; }}\ncoproc hack\n"
    result = check(with_script(hidden + SCRIPT), "no-arch-hacks")
    assert result.status == "FAIL" and "--hf-overrides" in result.reason


@pytest.mark.parametrize(
    "hidden",
    [
        "env -S 'vllm serve m --hf-overrides {}' &\n",
        "python3 -c 'import os; os.system(\"vllm serve m --hf_overrides {}\")' &\n",
        "ssh localhost 'vllm serve m --json-model-override-args {}' &\n",
        "python3 - <<'PY' &\nimport subprocess\nsubprocess.run(['vllm', 'serve', 'm', "
        "'--hf-overrides', '{}'])\nPY\n",
    ],
    ids=["env-split-string", "python-c", "ssh", "python-heredoc"],
)
def test_an_override_in_a_command_line_handed_over_as_one_string_fails(
    check: Any, hidden: str
) -> None:
    result = check(with_script(hidden + SCRIPT), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "--hf" in result.reason or "--json-model" in result.reason


def test_an_override_named_only_in_a_log_message_does_not_fail(check: Any) -> None:
    hidden = 'echo "this recipe needs no --hf-overrides"\n'
    assert check(with_script(hidden + SCRIPT), "no-arch-hacks").status == "PASS"


def test_a_launch_through_xargs_takes_arguments_known_only_at_run_time(check: Any) -> None:
    hidden = "echo '--hf-overrides {}' | xargs vllm serve m &\n"
    result = check(with_script(hidden + SCRIPT), "no-arch-hacks")
    assert result.status == "FAIL"
    assert (
        "[the arguments xargs reads from standard input] (known only at run time" in result.reason
    )
