"""Reading a script's own override hooks as unset (Check 3's reading): the reader decides what a
fallback form gives when the hook is unset, and withdraws the assumption for a hook the script
reads plainly while it may still be unset."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from signoff.parse.bench_script import MAX_UNSET_ATTEMPTS, evaluate, read_script
from signoff.parse.launch import ScriptRun

ENV = {"MODEL": "org/m", "TP": "8", "CONC": "64", "ISL": "8192", "OSL": "1024"}
HOOK = frozenset({"HOOK"})


def read(text: str, unset: frozenset[str] = HOOK, env: dict[str, str] | None = ENV) -> ScriptRun:
    return evaluate(read_script(text, "s.sh"), env, unset=unset)


def flags(run: ScriptRun) -> list[dict[str, str | None]]:
    return [{arg.flag: arg.value for arg in launch.args} for launch in run.launches]


# --- the fallback forms decide ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("form", "value"),
    [
        ('"${HOOK:-64}"', "64"),
        ('"${HOOK-64}"', "64"),
        ('"${HOOK:=64}"', "64"),
        ('"${HOOK=64}"', "64"),
        ('"${HOOK:+32}${HOOK+16}64"', "64"),
    ],
)
def test_each_fallback_form_gives_its_fallback_when_the_hook_is_unset(form, value):
    run = read(f"vllm serve m --block-size {form}\n")
    assert flags(run) == [{"--block-size": value}]
    assert run.unset == ("HOOK",) and run.launches[0].reach == "reached"


@pytest.mark.parametrize(
    "test",
    [
        '[ -n "${HOOK:-}" ]',
        "[[ -n ${HOOK:-} ]]",
        '[ "${HOOK:-off}" = on ]',
        'test -n "${HOOK+set}"',
        '[[ -v HOOK ]] && [ -n "${HOOK:-}" ]',
    ],
)
def test_a_condition_on_a_fallback_form_is_decided(test):
    run = read(f"if {test}; then vllm serve m --enforce-eager; else vllm serve m; fi\n")
    assert flags(run) == [{}]
    assert run.launches[0].reach == "reached" and run.unset == ("HOOK",)


def test_a_case_on_a_fallback_form_takes_its_default_arm():
    script = (
        'case "${HOOK:-tp}" in\n  tp) vllm serve m --tp 8 ;;\n  *) vllm serve m --tp 1 ;;\nesac\n'
    )
    assert flags(read(script)) == [{"--tp": "8"}]


def test_a_plain_read_guarded_by_the_fallback_test_is_never_made_2187_shape():
    script = """\
ARGS=()
if [ -n "${HOOK:-}" ]; then
    [ "$HOOK" != native ] && ARGS=(--linear-backend "$HOOK")
fi
vllm serve m "${ARGS[@]}"
"""
    run = read(script)
    assert flags(run) == [{}] and run.launches[0].reach == "reached"
    assert run.unset == ("HOOK",)
    # the strict reading keeps both arms (the condition on HOOK is undecided)
    assert {launch.reach for launch in read(script, frozenset()).launches} == {"undecided"}


def test_a_default_assigned_to_the_same_name_is_read_plainly_later_2003_shape():
    script = (
        'HOOK="${HOOK:-org/draft}"\n'
        'vllm serve m --speculative-config "{\\"model\\": \\"$HOOK\\", \\"n\\": 3}"\n'
    )
    run = read(script)
    assert flags(run) == [{"--speculative-config": '{"model": "org/draft", "n": 3}'}]
    assert run.unset == ("HOOK",)


# --- plain reads keep the hook unknown -----------------------------------------------------------

GUARDED = 'if [ -n "${HOOK:-}" ]; then vllm serve m --enforce-eager; else vllm serve m; fi\n'


@pytest.mark.parametrize(
    "plain",
    [
        'echo "using $HOOK"',
        "echo ${HOOK}",
        'echo "${#HOOK}"',
        "echo $((HOOK + 1))",
        "(( HOOK > 2 )) && echo big",
        '[[ "$HOOK" == on ]] && echo on',
        "[[ HOOK -gt 2 ]] && echo big",
        ': "${HOOK:?HOOK must be set}"',
        "HOOK+=x",
        'echo "${HOOK#x}"',
        "for word in $HOOK; do echo $word; done",
        'case "$HOOK" in on) echo on ;; esac',
    ],
)
def test_a_plain_read_of_the_hook_keeps_it_unknown(plain):
    run = read(f"{plain}\n{GUARDED}")
    assert run.unset == ()
    assert [launch.reach for launch in run.launches] == ["undecided", "undecided"]


def test_a_plain_read_inside_a_called_function_counts():
    run = read(f'show() {{ echo "$HOOK"; }}\nshow\n{GUARDED}')
    assert run.unset == () and len(run.launches) == 2


def test_a_plain_read_in_a_function_never_called_does_not_count():
    run = read(f'show() {{ echo "$HOOK"; }}\n{GUARDED}')
    assert run.unset == ("HOOK",) and flags(run) == [{}]


def test_a_plain_read_on_a_path_the_assumption_takes_withdraws_it():
    script = f'if [ -z "${{HOOK:-}}" ]; then echo "$HOOK"; fi\n{GUARDED}'
    assert read(script).unset == ()


def test_only_the_plainly_read_hook_is_withdrawn():
    script = (
        'echo "$PLAIN"\n'
        'if [ -n "${PLAIN:-}" ]; then A=(--enforce-eager); else A=(); fi\n'
        'if [ -n "${QUIET:-}" ]; then B=(--tp 1); else B=(--tp 8); fi\n'
        'vllm serve m "${A[@]}" "${B[@]}"\n'
    )
    run = read(script, frozenset({"PLAIN", "QUIET"}))
    assert run.unset == ("QUIET",)
    assert sorted(map(str, flags(run))) == sorted(
        map(str, [{"--enforce-eager": None, "--tp": "8"}, {"--tp": "8"}])
    )


def chained(links: int) -> tuple[str, frozenset[str]]:
    """H0 read plainly; H0 unknown reaches H1's plain read; ...; Z only ever has fallbacks."""
    chain = [f"H{n}" for n in range(links)]
    lines = [f'echo "${chain[0]}"']
    lines += [f'if [ -n "${{{a}:-}}" ]; then echo "${b}"; fi' for a, b in itertools.pairwise(chain)]
    lines += ['if [ -n "${Z:-}" ]; then vllm serve m --tp 1; fi', "vllm serve m --tp 8"]
    return "\n".join(lines) + "\n", frozenset({*chain, "Z"})


def test_each_withdrawal_can_expose_another_plain_read_and_the_attempts_are_bounded():
    # each attempt withdraws one more link; the attempt after the last link keeps Z assumed
    script, names = chained(MAX_UNSET_ATTEMPTS - 1)
    assert read(script, names).unset == ("Z",)
    # one link more than the attempts allow: the script is read with nothing assumed
    script, names = chained(MAX_UNSET_ATTEMPTS)
    run = read(script, names)
    assert run.unset == () and run.launches == read(script, frozenset()).launches


def test_the_script_own_value_is_read_not_the_assumption():
    run = read('HOOK=7\nvllm serve m --tp "${HOOK:-1}"\n')
    assert flags(run) == [{"--tp": "7"}] and run.unset == ()


def test_a_value_the_script_computes_at_run_time_stays_unknown():
    run = read(f"HOOK=$(cat /etc/hook)\n{GUARDED}")
    assert [launch.reach for launch in run.launches] == ["undecided", "undecided"]


def test_a_bound_variable_is_never_read_as_unset():
    run = read('vllm serve m --tp "${TP:-1}"\n', frozenset({"TP"}))
    assert flags(run) == [{"--tp": "8"}] and run.unset == ()


def test_an_expanding_heredoc_that_reads_the_hook_keeps_it_unknown():
    expanding = f"cat > cfg.yaml <<EOF\nbackend: $HOOK\nEOF\n{GUARDED}"
    assert read(expanding).unset == ()
    quoted = f"cat > cfg.yaml <<'EOF'\nbackend: $HOOK\nEOF\n{GUARDED}"
    assert read(quoted).unset == ("HOOK",)
    defaulted = f"cat > cfg.yaml <<EOF\nbackend: ${{HOOK:-none}}\nEOF\n{GUARDED}"
    assert read(defaulted).unset == ("HOOK",)


def test_the_unbound_reading_decides_the_hook_too():
    run = read(GUARDED, env=None)
    assert flags(run) == [{}] and run.unset == ("HOOK",)


def test_the_run_names_only_the_hooks_its_reading_relied_on():
    run = read("vllm serve m\n", frozenset({"HOOK", "OTHER"}))
    assert run.unset == ()


def test_the_script_text_names_its_fallback_reads():
    script = read_script('A=${X:-1} ${Y-2} ${Z:=3} ${W:+4}; echo "$V" ${U:?u} ${T#t}\n', "s.sh")
    assert script.fallback_names == {"X", "Y", "Z", "W"}


PIECES = st.sampled_from(
    [
        "vllm serve m ", "${H:-8} ", "${H-x} ", "${H:=y} ", "${H:+--z} ", "$H ", "${#H} ",
        "$((H+1)) ", "${H:?} ", "H+=1\n", "H=2\n", "[ -n \"${H:-}\" ]", "[[ -v H ]]", "if ",
        "; then ", "else ", "fi\n", "\n", "&& ", "|| ", "echo ", "f() { ", "}\n", "f\n",
        "case ${H:-a} in a) ", ";;\n", "esac\n", "<<EOF\n$H\nEOF\n", "for i in $H; do ",
        "done\n", "exit 0\n", "eval \"echo $H\"\n", "G=${G:-1}\n", "A=(${H:-a b})\n",
        "\"${A[@]}\" ", "local H\n", "unset H\n", "(", ")", "'", '"',
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, max_size=30).map("".join))
def test_the_unset_reading_never_fails_internally_and_names_only_assumed_hooks(text: str):
    script = read_script(text, "s.sh")
    for env in (None, ENV):
        run = evaluate(script, env, unset=script.fallback_names)
        assert [p for p in run.problems if "script could not be" in p] == []
        assert set(run.unset) <= script.fallback_names - script.heredoc_names
        assert run.complete == (not run.problems)
