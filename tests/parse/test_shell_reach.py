"""What the script reader tells rules that read text or the environment: which commands of the
script run (by where they start), the exported variables a launch may or may not get, and what
`awk 'BEGIN{print ...}'` prints."""

from __future__ import annotations

from pathlib import Path

import pytest

from signoff.parse.benchmark.launch import ScriptRun
from signoff.parse.benchmark.script import evaluate, evaluate_counted, read_script
from signoff.parse.benchmark.script_text import command_spans_at, simple_commands
from signoff.parse.shell.awk import awk_output
from signoff.parse.shell.printf import printf_parts

DATA = Path(__file__).parents[1] / "data" / "scripts"


def run_of(text: str, env: dict[str, str] | None = None) -> ScriptRun:
    return evaluate(read_script(text, "benchmarks/x.sh"), env)


def ran_texts(text: str, env: dict[str, str] | None = None) -> dict[str, str]:
    """The text of each command that ran, with the condition it may depend on."""
    spans = {span.offset: span.text for span in command_spans_at(text)}
    return {spans[r.offset]: r.why for r in run_of(text, env).ran if r.offset in spans}


def test_commands_in_dead_code_are_not_listed_as_ran() -> None:
    text = (
        "echo start\nfalse && git apply a.patch\ntrue || git apply b.patch\n"
        "fix() { git apply c.patch; }\nif false; then git apply d.patch; fi\n"
        "# git apply e.patch\necho end\n"
    )
    ran = ran_texts(text)
    assert set(ran) == {"echo start", "false", "true", "echo end"}
    assert all(why == "" for why in ran.values())


def test_a_command_behind_an_undecided_condition_is_listed_with_that_condition() -> None:
    ran = ran_texts("if [ -d /sgl-workspace ]; then\n  git apply fix.patch\nfi\n")
    assert ran["git apply fix.patch"] == "`[ -d /sgl-workspace ]` (line 1) could not be decided"


def test_a_condition_the_configuration_decides_leaves_one_arm() -> None:
    text = 'if [ "$EVAL_ONLY" = true ]; then\n  git apply eval.patch\nelse\n  echo bench\nfi\n'
    assert "git apply eval.patch" not in ran_texts(text, {"EVAL_ONLY": "false"})
    assert ran_texts(text, {"EVAL_ONLY": "false"})["echo bench"] == ""
    assert ran_texts(text)["git apply eval.patch"].startswith('`[ "$EVAL_ONLY" = true ]`')


def test_a_function_body_runs_where_the_function_is_called() -> None:
    ran = ran_texts("fix() {\n  git apply c.patch\n}\nfix\n")
    assert ran["git apply c.patch"] == ""


def test_a_command_run_surely_on_one_path_is_listed_as_reached() -> None:
    text = "fix() { git apply c.patch; }\nif [ -f x ]; then fix; fi\nfix\n"
    assert ran_texts(text)["git apply c.patch"] == ""


def test_code_read_from_a_string_has_no_place_in_the_text_but_its_commands_are_recorded() -> None:
    run = run_of("eval 'git apply s.patch'\n")
    assert [r.line for r in run.ran] == [1]  # the eval itself
    assert run.commands[0].argv == ("git", "apply", "s.patch")


def test_each_command_has_its_own_text_with_the_redirects_after_its_words() -> None:
    text = (
        "false && git apply x.patch\n"
        'echo "import fix" > "/usr/lib/python3/dist-packages/sitecustomize.py" # note\n'
        "cat <<EOF > /opt/vllm/x.py\nbody\nEOF\n"
        "sed -i s/a/b/ \"$(python3 -c 'import vllm; print(vllm.__file__)')\"; echo done\n"
    )
    assert [span.text for span in command_spans_at(text)] == [
        "false",
        "git apply x.patch",
        'echo "import fix" > "/usr/lib/python3/dist-packages/sitecustomize.py"',
        "cat <<EOF > /opt/vllm/x.py",
        "sed -i s/a/b/ \"$(python3 -c 'import vllm; print(vllm.__file__)')\"",
        "python3 -c 'import vllm; print(vllm.__file__)'",
        "echo done",
    ]
    assert [span.first for span in command_spans_at(text)] == [1, 1, 2, 3, 6, 6, 6]


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.sh")))
def test_every_command_with_words_that_ran_has_a_span_at_its_offset(name: str) -> None:
    text = (DATA / name).read_text(encoding="utf-8")
    parsed = read_script(text, name)
    assert parsed.tree is not None
    simples = simple_commands([parsed.tree.script, *parsed.tree.substitutions.values()])
    with_words = {min(w.offset for w in [*s.assigns, *s.words]) for s in simples if s.words}
    assert {span.offset for span in command_spans_at(text)} == with_words
    ran = {r.offset for r in evaluate(parsed, None).ran}
    assert ran & with_words and ran <= {
        min(w.offset for w in [*s.assigns, *s.words]) for s in simples if s.assigns or s.words
    }


def test_an_export_in_one_arm_of_an_undecided_if_is_an_undecided_choice_at_the_launch() -> None:
    text = (
        "if [ -f /etc/sim ]; then export SGLANG_SIMULATE_ACC_LEN=3.39; fi\n"
        "export SGLANG_SIMULATE_ACC_METHOD=match-expected\n"
        'python3 -m sglang.launch_server --model-path "$MODEL"\n'
    )
    (launch,) = run_of(text).launches
    assert launch.env == {"SGLANG_SIMULATE_ACC_METHOD": "match-expected"}
    assert [(c.name, c.value) for c in launch.env_undecided] == [
        ("SGLANG_SIMULATE_ACC_LEN", "3.39"),
        ("SGLANG_SIMULATE_ACC_LEN", None),
    ]
    assert launch.env_undecided[0].why == "`[ -f /etc/sim ]` (line 1) could not be decided"


def test_an_export_with_a_value_per_arm_lists_each_value_with_its_condition() -> None:
    text = 'if [ "$TP" = 8 ]; then export X=1; else export X=2; fi\nvllm serve "$MODEL"\n'
    (launch,) = run_of(text).launches
    assert sorted(c.value or "" for c in launch.env_undecided) == ["1", "2"]
    (decided,) = run_of(text, {"TP": "8"}).launches
    assert decided.env == {"X": "1"} and decided.env_undecided == ()


def test_an_assignment_prefixed_on_the_launch_is_not_undecided() -> None:
    text = 'if [ -f x ]; then export X=1; fi\nX=3 vllm serve "$MODEL"\n'
    (launch,) = run_of(text).launches
    assert launch.env["X"] == "3" and launch.env_undecided == ()


@pytest.mark.parametrize(
    ("program", "printed"),
    [
        ("BEGIN{print (2.99-1)/3}", "0.663333\n"),
        ("BEGIN { print 6/3; }", "2\n"),
        ("BEGIN{print -1.5*2}", "-3\n"),
        ("BEGIN{print 1/0}", None),
        ("BEGIN{print x}", None),
        ('BEGIN{system("id")}', None),
        ("{print $1}", None),
        ("BEGIN{print 2**64}", None),
    ],
)
def test_awk_begin_print_of_arithmetic_is_read_as_awk_prints_it(
    program: str, printed: str | None
) -> None:
    assert awk_output([program]) == printed


def test_a_substituted_awk_computation_reaches_the_launch_resolved() -> None:
    text = (
        'AL=2.99\nN=3\nRATE=$(awk "BEGIN{print ($AL-1)/$N}")\n'
        'python3 -m atom.entrypoints.openai_server --spec-decode-acceptance-rate "$RATE"\n'
    )
    (launch,) = run_of(text).launches
    assert launch.args[0].value == "0.663333"


def test_a_flag_value_holding_run_time_text_is_marked_unknown() -> None:
    text = 'X=$(cat f)\nvllm serve m --speculative-config "{\\"model\\": \\"$X\\"}" --tp 8\n'
    (launch,) = run_of(text).launches
    assert [(arg.flag, arg.known) for arg in launch.args] == [
        ("--speculative-config", False),
        ("--tp", True),
    ]


def test_a_double_bracket_test_may_continue_after_and_or_on_the_next_line() -> None:
    text = 'if [[ "$X" == a ||\n      "$Y" == b ]]; then\n  git apply fix.patch\nfi\n'
    parsed = read_script(text, "benchmarks/x.sh")
    assert parsed.problems == ()
    assert ran_texts(text, {"X": "a", "Y": "z"})["git apply fix.patch"] == ""
    assert "git apply fix.patch" not in ran_texts(text, {"X": "c", "Y": "z"})


def test_parentheses_and_bars_of_a_regex_after_equals_tilde_belong_to_the_regex() -> None:
    text = 'if [[ "$V" =~ ^1\\.117\\.1([.-]|$) ]]; then echo old; fi\n[[ $A =~ (x|y) ]] && echo z\n'
    parsed = read_script(text, "benchmarks/x.sh")
    assert parsed.problems == ()
    assert [s.text for s in command_spans_at(text)][:2] == [
        '[[ "$V" =~ ^1\\.117\\.1([.-]|$) ]]',
        "echo old",
    ]


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        (
            [('{"model": "%s", "n": %d}', True), ("$DIR", False), ("3", True)],
            (('{"model": "', True), ("$DIR", False), ('", "n": 3}', True)),
        ),
        ([("%d", True), ("$N", False)], None),  # a number conversion reads it
        ([("%.2s", True), ("$N", False)], None),  # a precision cuts it
        ([("$F", False), ("x", True)], None),  # the format itself unknown
    ],
)
def test_printf_of_run_time_words_through_s_is_known_in_part(
    args: list[tuple[str, bool]], parts: tuple[tuple[str, bool], ...] | None
) -> None:
    assert printf_parts(args) == parts


def test_a_substituted_printf_of_a_run_time_path_reaches_the_launch_known_in_part() -> None:
    text = (
        'DIR=$(dirname "$MODEL_PATH")\n'
        'CFG=$(printf \'{"model": "%s", "num_speculative_tokens": %d}\' "$DIR" 3)\n'
        'vllm serve m --speculative-config "$CFG"\n'
    )
    (launch,) = run_of(text).launches
    (arg,) = launch.args
    assert not arg.known
    assert [known for _, known in arg.parts] == [True, False, True]
    assert arg.parts[2][0] == '", "num_speculative_tokens": 3}'


def test_a_case_arm_of_a_lone_star_matches_a_subject_known_only_at_run_time() -> None:
    text = 'case "$1" in\n  --port) echo port ;;\n  *) exit 0 ;;\nesac\necho after\n'
    # no path leaves the case without taking an arm: the star arm's `exit` is certain once
    # --port is not matched
    assert ran_texts(text)["echo after"] == (
        'the path may have ended earlier (exit at line 3; `case "$1" in *)` (line 1) matches)'
    )


def test_a_quoted_star_is_a_literal_pattern_that_may_not_match() -> None:
    text = 'case "$1" in\n  --port) echo port ;;\n  "*") exit 0 ;;\nesac\necho after\n'
    assert ran_texts(text)["echo after"].endswith(
        '`case "$1" in "*")` (line 1) could not be decided)'
    )


def test_an_argument_parser_over_unknown_arguments_ends_without_iterating_to_the_bound() -> None:
    # the caller may already have returned early (a path held at its frame), as InferenceX's
    # run_swebench_eval may before it hands run_lm_eval arguments known only at run time
    text = (
        'parse() {\n  while [[ $# -gt 0 ]]; do\n    case "$1" in\n'
        '      --port)\n        if [[ $# -lt 2 || "${2:-}" == --* ]]; then return 2; fi\n'
        '        port="$2"; shift 2 ;;\n'
        '      *) echo "unknown $1" >&2; return 2 ;;\n    esac\n  done\n}\n'
        'outer() {\n  if [ -z "$DATASET" ]; then return 1; fi\n'
        '  parse --port "$PORT" "$EXTRA" --dir "$(mktemp -d)"\n}\nouter\n'
    )
    run, steps = evaluate_counted(read_script(text, "benchmarks/x.sh"), None, budget=5_000)
    assert run.complete
    assert steps < 100  # a round per argument, not one per round the loop bound allows


def test_a_double_bracket_test_against_a_lone_star_holds_for_any_value() -> None:
    text = '[[ "$1" == * ]] || exit 0\necho after\n[[ "$1" != * ]] && exit 0\necho last\n'
    ran = ran_texts(text)
    assert ran["echo after"] == ""
    assert ran["echo last"] == ""
