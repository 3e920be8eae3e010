"""Files a launch reads are read as the engine reads them, or the checks that need them fail.

vLLM's and SGLang's `--config` YAML gives flags (its keys are the long option names, the command
line winning over the file); a model-config path, a speculative config, a chat template or any
other file a launch names that the PR adds or changes is not read as the engine reads it, so the
check that depends on it fails closed naming it; a Python file given to python is a program run
by file. Unchanged files keep their baseline reading.
"""

from __future__ import annotations

import pytest
from builders import SCRIPT, SCRIPT_PATH, add_changed_file, passing_parts

HERE = "benchmarks/single_node/fixed_seq_len"


def _launch_with(extra: str, files: dict[str, str], *, base: str | None = None):
    """The script's launch gains `extra` (after --tensor-parallel-size); the PR adds `files`."""
    parts = passing_parts()
    script = SCRIPT.replace(
        '  --tensor-parallel-size "$TP" \\\n', f'  --tensor-parallel-size "$TP" \\\n  {extra} \\\n'
    )
    add_changed_file(parts, SCRIPT_PATH, script)
    for path, text in files.items():
        add_changed_file(parts, path, text, base=base)
    return parts


def test_a_config_file_the_pr_adds_gives_its_flags_to_the_override_check(check):
    config = {f"{HERE}/dsv4.yaml": "hf-overrides:\n  num_hidden_layers: 2\nmax-num-seqs: 128\n"}
    result = check(_launch_with('--config "$(dirname "$0")/dsv4.yaml"', config), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "--hf-overrides" in result.reason and "num_hidden_layers" in result.reason


def test_a_config_file_flag_spelled_as_the_engine_reads_it_counts(check):
    config = {f"{HERE}/dsv4.yaml": "hf_overrides: '{\"num_hidden_layers\": 2}'\n"}
    result = check(_launch_with('--config "$(dirname "$0")/dsv4.yaml"', config), "no-arch-hacks")
    assert result.status == "FAIL"


@pytest.mark.parametrize(("dtype", "status"), [("fp8", "PASS"), ("auto", "FAIL")])
def test_config_file_flags_are_compared_with_the_recipe_as_if_on_the_command_line(
    check, dtype, status
):
    config = {f"{HERE}/dsv4.yaml": f"kv-cache-dtype: {dtype}\n"}
    parts = _launch_with('--config "$(dirname "$0")/dsv4.yaml"', config)
    script = next(f for f in parts["files"] if f["path"] == SCRIPT_PATH)["text"]
    assert "  --kv-cache-dtype fp8 \\\n" in script
    add_changed_file(parts, SCRIPT_PATH, script.replace("  --kv-cache-dtype fp8 \\\n", ""))
    result = check(parts, "recipe")
    assert result.status == status, result.reason


def test_a_clean_config_file_keeps_the_pass(check):
    config = {f"{HERE}/dsv4.yaml": "max-num-seqs: 128\nenable-chunked-prefill: true\n"}
    parts = _launch_with('--config "$(dirname "$0")/dsv4.yaml"', config)
    for check_id in ("no-arch-hacks", "spec-chat-template", "recipe"):
        assert check(parts, check_id).status == "PASS", check_id


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("- a\n- b\n", "not a mapping"),
        ("a: [\n", "not valid YAML"),
        (
            "a: &x [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
            + "".join(
                f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
                for p, c in zip("xbcdefg", "bcdefgh", strict=True)
            ),
            "bound",
        ),
    ],
)
def test_a_config_file_that_cannot_be_read_fails_closed_naming_it(check, text, why):
    config = {f"{HERE}/dsv4.yaml": text}
    result = check(_launch_with('--config "$(dirname "$0")/dsv4.yaml"', config), "no-arch-hacks")
    assert result.status == "FAIL"
    assert f"{HERE}/dsv4.yaml" in result.reason and why in result.reason


@pytest.mark.parametrize(
    ("flag", "path"),
    [
        ("--hf-config-path", f"{HERE}/dsv4-config"),
        ("--speculative-config", f"{HERE}/spec.json"),
        ("--tokenizer", f"{HERE}/tok"),
    ],
)
def test_a_model_file_the_pr_adds_named_by_the_launch_fails_the_override_check(check, flag, path):
    file = f"{path}/config.json" if not path.endswith(".json") else path
    parts = _launch_with(f'{flag} "$(dirname "$0")/{path.rsplit("/", 1)[1]}"', {file: "{}"})
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert file in result.reason and flag in result.reason


@pytest.mark.parametrize(
    "flag",
    [
        '--enable-lora --lora-modules dsv4="$(dirname "$0")/lora"',
        '--enable-lora --lora-modules base=/opt/lora dsv4="$(dirname "$0")/lora" --port 1',
        f"""--enable-lora --lora-modules '{{"name": "dsv4", "path": "{HERE}/lora"}}'""",
    ],
)
def test_a_lora_adapter_the_pr_adds_fails_the_override_check(check, flag):
    """`--lora-modules NAME=PATH` (and SGLang's `--lora-paths`): the adapter the engine
    applies to the model is the PR's."""
    parts = _launch_with(flag, {f"{HERE}/lora/adapter_config.json": "{}"})
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert f"{HERE}/lora/adapter_config.json" in result.reason and "--lora" in result.reason


@pytest.mark.parametrize(
    "flag",
    ["--enable-lora --lora-modules dsv4=/opt/lora", "--override-neuron-config a=b --port 1"],
)
def test_a_named_value_naming_no_changed_file_passes(check, flag):
    parts = _launch_with(flag, {f"{HERE}/lora/adapter_config.json": "{}"})
    assert check(parts, "no-arch-hacks").status == "PASS"


@pytest.mark.parametrize("spelling", ["--speculative-config '{}'", "--speculative_config='{}'"])
def test_a_draft_model_directory_the_pr_adds_in_inline_json_fails_the_override_check(
    check, spelling
):
    """`--speculative-config '{"model": DIR}'`: the draft's config.json is the PR's."""
    draft = f'{{"model": "{HERE}/draft", "num_speculative_tokens": 2}}'
    parts = _launch_with(spelling.format(draft), {f"{HERE}/draft/config.json": "{}"})
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert f"{HERE}/draft/config.json" in result.reason and "--speculative" in result.reason


@pytest.mark.parametrize(
    "draft",
    [
        '\\"$(dirname \\"$0\\")/draft\\"',  # a run-time piece inside the JSON string
        '\\"${BASH_SOURCE%/*}/draft\\"',
        '\\"$ROOT/' + HERE + '/draft\\"',  # a start known only at run time: the known tail
    ],
)
def test_a_draft_directory_named_with_run_time_pieces_in_inline_json_still_fails(check, draft):
    """`--speculative-config "{\\"model\\": \\"$(dirname \\"$0\\")/draft\\"}"`: the JSON
    holds a run-time piece; the string is read as the same word given alone would be."""
    flag = f'--speculative-config "{{\\"method\\": \\"mtp\\", \\"model\\": {draft}}}"'
    parts = _launch_with(flag, {f"{HERE}/draft/config.json": "{}"})
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert f"{HERE}/draft/config.json" in result.reason and "--speculative" in result.reason


@pytest.mark.parametrize(
    "flag",
    [
        '--speculative-config "{\\"method\\": \\"mtp\\", \\"model\\": \\"$DRAFT\\"}"',
        '--speculative-config "{\\"method\\": \\"mtp\\", \\"num_speculative_tokens\\": $N}"',
    ],
)
def test_inline_json_whose_run_time_pieces_name_no_changed_file_passes(check, flag):
    parts = _launch_with(flag, {f"{HERE}/draft/config.json": "{}"})
    assert check(parts, "no-arch-hacks").status == "PASS"


@pytest.mark.parametrize(
    "model", ['"$(dirname "$0")/trimmed"', f"{HERE}/trimmed", '"${BASH_SOURCE%/*}/trimmed"']
)
def test_a_model_directory_the_pr_adds_served_as_the_positional_model_fails(check, model):
    """`vllm serve <dir>` loads the directory's config.json as `--model <dir>` does."""
    parts = _launch_with("--max-num-seqs 128", {f"{HERE}/trimmed/config.json": "{}"})
    script = next(f for f in parts["files"] if f["path"] == SCRIPT_PATH)["text"]
    add_changed_file(
        parts, SCRIPT_PATH, script.replace('vllm serve "$MODEL"', f"vllm serve {model}")
    )
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert f"{HERE}/trimmed/config.json" in result.reason and "(model)" in result.reason


def test_a_chat_template_the_pr_adds_fails_the_spec_check_only(check):
    files = {f"{HERE}/dsv4.jinja": "{{ messages }}"}
    parts = _launch_with('--chat-template "$(dirname "$0")/dsv4.jinja"', files)
    result = check(parts, "spec-chat-template")
    assert result.status == "FAIL"
    assert "dsv4.jinja" in result.reason
    assert check(parts, "no-arch-hacks").status == "PASS"


INLINE = "--chat-template '{% for m in messages %}{{ m.content }}{% endfor %}'"


@pytest.mark.parametrize(
    "extra",
    [
        INLINE,
        "--chat-template='{{ messages[0].content }}'",
        '--chat-templ "$(dirname "$0")/dsv4.jinja"',  # an abbreviation vLLM's parser accepts
    ],
)
def test_a_chat_template_given_inline_or_by_an_abbreviation_fails_the_spec_check(check, extra):
    parts = _launch_with(extra, {f"{HERE}/dsv4.jinja": "{{ messages }}"})
    result = check(parts, "spec-chat-template")
    assert result.status == "FAIL", result.reason
    assert "signoff does not read templates" in result.reason


def test_an_inline_chat_template_the_base_already_had_is_baseline(check):
    from builders import modified_script

    def serving(extra: str) -> str:
        return SCRIPT.replace(
            '  --tensor-parallel-size "$TP" \\\n',
            f'  --tensor-parallel-size "$TP" \\\n  {extra} \\\n',
        )

    base = serving(INLINE)
    parts = modified_script(base, base.replace("--kv-cache-dtype fp8", "--kv-cache-dtype fp8 "))
    assert check(parts, "spec-chat-template").status == "PASS"
    parts = modified_script(serving("--max-num-seqs 8"), base)
    assert check(parts, "spec-chat-template").status == "FAIL"
    # a base that only mentions the template (a comment) did not serve it
    parts = modified_script(f"# {INLINE}\n" + serving("--max-num-seqs 8"), base)
    assert check(parts, "spec-chat-template").status == "FAIL"


def test_a_python_file_the_pr_adds_run_by_python_counts_against(check):
    parts = passing_parts()
    script = SCRIPT.replace('hf download "$MODEL"\n', 'python3 "$(dirname "$0")/tune.py"\n')
    add_changed_file(parts, SCRIPT_PATH, script)
    add_changed_file(parts, f"{HERE}/tune.py", "import vllm\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert "tune.py" in result.reason


def test_files_the_pr_did_not_change_keep_their_baseline_reading(check):
    parts = _launch_with(
        '--config "$(dirname "$0")/dsv4.yaml" --chat-template "$(dirname "$0")/x.jinja"', {}
    )
    for check_id in ("no-arch-hacks", "spec-chat-template"):
        assert check(parts, check_id).status == "PASS", check_id


def test_gather_asks_for_a_config_file_the_pr_adds(policy):
    from builders import build

    from signoff.judge.context import JudgeContext
    from signoff.judge.model import want_file
    from signoff.judge.sourced import wants

    parts = passing_parts()
    script = SCRIPT.replace(
        '  --tensor-parallel-size "$TP" \\\n',
        '  --tensor-parallel-size "$TP" --config "$(dirname "$0")/dsv4.yaml" \\\n',
    )
    add_changed_file(parts, SCRIPT_PATH, script)
    add_changed_file(parts, f"{HERE}/dsv4.yaml", "max-num-seqs: 8\n", read=False)
    asked = list(wants(JudgeContext(build(parts), policy)))
    assert want_file(f"{HERE}/dsv4.yaml", "head") in asked
    result_parts = parts
    assert all(f["path"] != f"{HERE}/dsv4.yaml" for f in result_parts["files"])


def test_a_config_file_the_pr_changes_that_was_not_read_fails_closed(check):
    parts = _launch_with('--config "$(dirname "$0")/dsv4.yaml"', {})
    add_changed_file(parts, f"{HERE}/dsv4.yaml", "max-num-seqs: 8\n", read=False)
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert f"{HERE}/dsv4.yaml" in result.reason and "not read" in result.reason


def test_a_config_file_the_script_writes_from_a_heredoc_gives_its_flags(check):
    """`cat > config.yaml <<EOF` then `--config config.yaml` (the InferenceX pattern): the
    keys are flags as the engine parses them, abbreviations included."""
    parts = passing_parts()
    script = SCRIPT.replace(
        'hf download "$MODEL"\n',
        'hf download "$MODEL"\ncat > config.yaml << EOF\nhf-overr: \'{"a": 1}\'\nEOF\n',
    ).replace(
        '  --tensor-parallel-size "$TP" \\\n',
        '  --tensor-parallel-size "$TP" \\\n  --config config.yaml \\\n',
    )
    add_changed_file(parts, SCRIPT_PATH, script)
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert "--hf-overr" in result.reason
