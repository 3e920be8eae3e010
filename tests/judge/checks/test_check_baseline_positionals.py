"""A function's positional parameters are fed by its callers: a gap on them (`eval "$cmd"` with
`cmd="$2"`, a wrapper running `"$@"`) is baseline only when the function body is the base's,
every call that reaches it is the base's call, and what feeds each call's words is unchanged.
A changed body, a new, changed or computed call, or a changed feed still fails closed (Checks 7,
8 and engine-patches)."""

from __future__ import annotations

import pytest
from builders import (
    SCRIPT,
    add_changed_file,
    modified_script,
)

CHECKS = ("no-arch-hacks", "spec-chat-template", "engine-patches")
ANCHOR = 'hf download "$MODEL"\n'
MORE_SEQS = "--kv-cache-dtype fp8 --max-num-seqs 256"
GAP = "eval of text known only at run time"

# The InferenceX shape (amd_utils/server_sglang.sh): a barrier run through `eval` of the
# caller's second argument, a command line whose values are known only at run time.
FUNCTION = """\
WS="${WS_PATH:-/sgl-workspace}"
host_ip="$(hostname -I | awk '{print $1}')"
run_barrier_or_die() {
    local desc="$1" cmd="$2"
    if ! eval "$cmd"; then
        echo "FATAL: ${desc} failed" >&2
        exit 1
    fi
}
"""
BARRIER = (
    FUNCTION
    + """\
run_barrier_or_die "container barrier" "python3 $WS/sync.py barrier \\
    --local-ip ${host_ip} \\
    --node-ips ${IPADDRS} \\
    --timeout 300"
"""
)

# A wrapper that runs its arguments as a command while it watches a process.
WRAPPER = """\
BARRIER_CMD="python3 /opt/sync.py barrier --node-ips ${IPADDRS}"
wait_or_die() {
    local watch=$1; shift
    "$@" & local pid=$!
    wait "$pid"
}
wait_or_die "$SERVER_PID" bash -c "$BARRIER_CMD" || exit 1
"""


def _with(text: str, extra: str) -> str:
    return text.replace(ANCHOR, ANCHOR + extra, 1)


def _status(check, parts: dict, check_id: str) -> tuple[str, str]:
    result = check(parts, check_id)
    return result.status, result.reason


def _later_change(base: str) -> str:
    return base.replace("--kv-cache-dtype fp8", MORE_SEQS)


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_eval_of_a_functions_argument_is_baseline_when_the_function_and_its_calls_are_the_bases(
    check, check_id
):
    base = _with(SCRIPT, BARRIER)
    head = base.replace("#!/usr/bin/env bash\n", "#!/usr/bin/env bash\n# tuned\n", 1)
    status, reason = _status(check, modified_script(base, head), check_id)
    assert status == "PASS", reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_eval_of_a_plain_command_fed_by_unchanged_callers_lets_later_changes_through(
    check, check_id
):
    # every call hands it one program run with arguments: it sets nothing a later line reads
    base = _with(SCRIPT, BARRIER)
    status, reason = _status(check, modified_script(base, _later_change(base)), check_id)
    assert status == "PASS", reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_wrapper_running_its_unchanged_callers_arguments_is_baseline(check, check_id):
    base = _with(SCRIPT, WRAPPER)
    status, reason = _status(check, modified_script(base, _later_change(base)), check_id)
    assert status == "PASS", reason


# The attacker's side: the PR reaches the function's parameters some other way.


@pytest.mark.parametrize(
    "edit",
    [
        ('local desc="$1" cmd="$2"', 'local desc="$1" cmd="$2 $3"'),  # reads another parameter
        ('local desc="$1" cmd="$2"', 'local desc="$1" cmd="$2"; shift'),  # shifts them
        ("    if ! eval", '    cmd="$cmd --hf-overrides x"\n    if ! eval'),  # appends to it
    ],
    ids=["another-parameter", "shift", "append"],
)
@pytest.mark.parametrize("check_id", CHECKS)
def test_an_eval_of_a_functions_argument_fails_when_the_pr_changes_the_function_body(
    check, check_id, edit
):
    base = _with(SCRIPT, BARRIER)
    status, reason = _status(check, modified_script(base, base.replace(*edit)), check_id)
    assert status == "FAIL" and GAP in reason


@pytest.mark.parametrize(
    "edit",
    [
        ("--timeout 300", "--timeout 300; source /tmp/x"),  # the argument's text
        ("run_barrier_or_die \"container", 'run_barrier_or_die "$(cat /opt/b)"\nrun_barrier_or_die "container'),
    ],
    ids=["argument-text", "second-call"],
)  # fmt: skip
@pytest.mark.parametrize("check_id", CHECKS)
def test_an_eval_of_a_functions_argument_fails_when_the_pr_changes_or_adds_a_call(
    check, check_id, edit
):
    base = _with(SCRIPT, BARRIER)
    status, reason = _status(check, modified_script(base, base.replace(*edit)), check_id)
    assert status == "FAIL" and GAP in reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_eval_of_a_functions_argument_fails_when_the_pr_changes_what_feeds_the_argument(
    check, check_id
):
    base = _with(SCRIPT, BARRIER)
    head = base.replace('WS="${WS_PATH:-/sgl-workspace}"', 'WS="$(cat /tmp/ws)"')
    status, reason = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL" and GAP in reason


@pytest.mark.parametrize(
    "call",
    [
        'f=run_barrier; "${f}_or_die" x "$(cat /tmp/evil)"\n',  # a name it computes
        'again() {\n    run_barrier_or_die "$1" "$2"\n}\nagain x "$(cat /tmp/evil)"\n',
        'wait_any() {\n    "$@"\n}\nwait_any run_barrier_or_die x "$(cat /tmp/evil)"\n',
    ],
    ids=["computed-name", "through-a-function", "through-a-wrapper"],
)
@pytest.mark.parametrize("check_id", CHECKS)
def test_a_call_the_pr_adds_by_another_route_keeps_a_functions_argument_unknown(
    check, check_id, call
):
    base = _with(SCRIPT, BARRIER)
    head = base.replace('    --timeout 300"\n', '    --timeout 300"\n' + call)
    status, _ = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL"


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_wrapper_fails_when_the_pr_changes_what_feeds_its_callers_argument(check, check_id):
    base = _with(SCRIPT, WRAPPER)
    head = base.replace("--node-ips ${IPADDRS}", "--node-ips $(cat /tmp/ips)")
    status, _ = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL"


@pytest.mark.parametrize(
    "argument",
    [
        '"export TUNE=1; python3 $WS/sync.py"',  # sets a variable a later line may read
        '"$BARRIER_TEXT"',  # nothing of the command's text is known
        '"source $WS/tune.sh"',  # a builtin that changes the shell
    ],
    ids=["assignment", "run-time-text", "builtin"],
)
@pytest.mark.parametrize("check_id", CHECKS)
def test_an_eval_of_a_callers_argument_that_may_set_state_keeps_later_changes_held(
    check, check_id, argument
):
    base = _with(SCRIPT, FUNCTION + f"run_barrier_or_die x {argument}\n")
    head = _later_change(base)
    status, reason = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL" and GAP in reason


@pytest.mark.parametrize("check_id", ["no-arch-hacks", "engine-patches"])
def test_an_eval_of_the_scripts_own_arguments_is_never_baseline(check, check_id):
    # (Check 8 reads the script as the sweep runs it, with no arguments: `eval ""`)
    base = _with(SCRIPT, 'eval "$1"\n')
    head = base.replace("#!/usr/bin/env bash\n", "#!/usr/bin/env bash\n# tuned\n", 1)
    status, reason = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL" and GAP in reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_eval_of_a_functions_argument_that_runs_a_file_the_pr_changes_is_new(check, check_id):
    base = _with(SCRIPT, BARRIER)
    parts = modified_script(base, _later_change(base))
    add_changed_file(parts, "benchmarks/multi_node/amd_utils/sync.py", "print('hi')\n")
    status, reason = _status(check, parts, check_id)
    assert status == "FAIL" and GAP in reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_another_functions_local_of_the_same_name_does_not_feed_the_eval(check, check_id):
    # amd_utils/server_sglang.sh: wait_or_die keeps `local cmd=$!`, its own variable
    base = _with(SCRIPT, BARRIER + WRAPPER.replace("local pid=$!", "local cmd=$!"))
    status, reason = _status(check, modified_script(base, _later_change(base)), check_id)
    assert status == "PASS", reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_global_of_the_same_name_set_elsewhere_keeps_what_the_eval_runs_unknown(check, check_id):
    base = _with(SCRIPT, BARRIER + 'tune() {\n    cmd="$(cat /opt/tune)"\n}\n')
    status, reason = _status(check, modified_script(base, _later_change(base)), check_id)
    assert status == "FAIL" and GAP in reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_another_changed_file_that_names_the_function_keeps_its_argument_unknown(check, check_id):
    base = _with(SCRIPT, BARRIER)
    parts = modified_script(base, _later_change(base))
    add_changed_file(
        parts, "benchmarks/benchmark_lib.sh",
        '#!/usr/bin/env bash\nwarm() {\n  run_barrier_or_die x "$(cat /tmp/evil)"\n}\n',
        base="#!/usr/bin/env bash\n",
    )  # fmt: skip
    status, _ = _status(check, parts, check_id)
    assert status == "FAIL"


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_built_name_handed_to_a_function_that_evals_its_parameter_may_call_the_function(
    check, check_id
):
    runs = 'run_it() {\n    local c="$1"\n    eval "$c"\n}\n'
    base = _with(SCRIPT, BARRIER + runs)
    head = base.replace(runs, runs + 'f=run_barrier\nrun_it "${f}_or_die x \\$EVIL"\n')
    status, reason = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL" and GAP in reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_word_before_the_argument_that_may_split_leaves_what_the_eval_runs_unknown(
    check, check_id
):
    # `$DESC` unquoted may be no word or several: the eval's "$2" may be any later word
    base = _with(
        SCRIPT,
        BARRIER.replace('run_barrier_or_die "container barrier"', "run_barrier_or_die $DESC"),
    )
    status, reason = _status(check, modified_script(base, _later_change(base)), check_id)
    assert status == "FAIL" and GAP in reason


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("benchmarks/benchmark_lib.sh", "#!/usr/bin/env bash\npython3() {\n  command python3 \"$@\"\n}\n"),
        ("benchmarks/multi_node/amd_utils/python3", "#!/bin/sh\nexec vllm serve --hf-overrides x\n"),
    ],
    ids=["a-function-of-that-name", "a-file-of-that-name"],
)  # fmt: skip
@pytest.mark.parametrize("check_id", CHECKS)
def test_an_eval_of_a_plain_command_whose_program_the_pr_redefines_keeps_later_changes_held(
    check, check_id, path, text
):
    base = _with(SCRIPT, BARRIER)
    parts = modified_script(base, _later_change(base))
    add_changed_file(parts, path, text, base="#!/usr/bin/env bash\n")
    status, reason = _status(check, parts, check_id)
    assert status == "FAIL" and GAP in reason
