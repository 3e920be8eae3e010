"""Text bash runs as code where it is used (arithmetic's subscripts, variable names, prompts,
callbacks, the history), programs printed into a shell, a descriptor's text run as a file,
and the files `make` and compose read: the reader reads them or says it cannot."""

from __future__ import annotations

import pytest

from signoff.parse.benchmark.script import evaluate, read_script
from signoff.parse.shell.evaluated import named_variables, runs_in_arithmetic, subscript_runs
from signoff.parse.shell.fields import Field

RUN = "$(docker run evil/vllm)"


def _read(text: str):
    return evaluate(read_script(text + "\n", "s.sh"), {"IMAGE": "vllm/vllm-openai:v1"})


def _problems(text: str) -> list[str]:
    return list(_read(text).problems)


def _fields(text: str) -> list[Field]:
    return [Field(word, True, "", 1) for word in text.split()]


# --- the rules, on text ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "runs"),
    [
        (f"x[{RUN}]", True),
        ("x[`id`]", True),
        (f"a + x[1 + {RUN}]", True),
        ("x[1]", False),
        (RUN, False),  # no subscript: arithmetic fails on it, it runs nothing
        ("$((1 + 2))", False),
    ],
)
def test_a_subscript_holding_a_substitution_is_what_runs(text, runs):
    assert subscript_runs(text) is runs


def test_arithmetic_follows_the_values_a_name_holds_as_bash_does():
    values = {"a": "b + 1", "b": f"x[{RUN}]", "c": "c + 1"}
    assert runs_in_arithmetic("a * 2", values.get) == f"x[{RUN}]"
    assert runs_in_arithmetic("c", values.get) == ""  # a name holding itself ends
    assert runs_in_arithmetic("d + 1", values.get) == ""


@pytest.mark.parametrize(
    ("line", "names"),
    [
        ("read -r a b", ["a", "b"]),
        ("printf -v out %s x", ["out"]),
        ("printf -vout %s x", ["out"]),
        ("printf %s a[1]", []),  # printf's arguments are data
        ("declare -x a=1 b", ["a", "b"]),
        ("unset -v a", ["a"]),
        ("test -v a", ["a"]),
        ("let i=i+1", ["i=i+1"]),
        ("echo a[1]", []),
    ],
)
def test_the_operands_builtins_read_as_variable_names(line, names):
    assert [field.text for field in named_variables(_fields(line))] == names


# --- the reader ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "what"),
    [
        (f"a='x[{RUN}]'\necho $((a))", "arithmetic evaluates"),
        (f"a='x[{RUN}]'\n((a > 1))", "arithmetic evaluates"),
        (f"a='x[{RUN}]'\necho $(( $a ))", "arithmetic evaluates"),
        (f"a='x[{RUN}]'\nb=a\necho $((b + 1))", "arithmetic evaluates"),
        (f"a='x[{RUN}]'\n[[ $a -eq 1 ]]", "arithmetic evaluates"),
        (f"a='x[{RUN}]'\n[[ 1 -lt a ]]", "arithmetic evaluates"),
        (f"a='x[{RUN}]'\nlet b=a+1", "let evaluates"),
        (f"declare -i n\nn='x[{RUN}]'", "runs a command when bash evaluates it"),
        (f"declare -i n='x[{RUN}]'", "runs a command when bash evaluates it"),
        (f"test -v 'a[{RUN}]'", "test evaluates"),
        (f"[[ -v 'a[{RUN}]' ]]", "arithmetic evaluates"),
        (f"printf -v 'a[{RUN}]' %s x", "printf evaluates"),
        (f"read 'a[{RUN}]' <<< x", "read evaluates"),
        (f"unset 'a[{RUN}]'", "unset evaluates"),
        (f"x='a[{RUN}]'\necho \"${{!x}}\"", "${!x} evaluates"),
        (f"x='{RUN}'\necho \"${{x@P}}\"", "expands a prompt that runs a command"),
        (f"PS4='+ {RUN} '\nset -x", "runs a command when bash evaluates it"),
        ("mapfile -C 'eval' -c 1 lines < f", "mapfile -C runs its callback"),
        ("fc -s docker", "fc runs commands from the shell's history"),
    ],
)
def test_text_bash_runs_where_it_is_used_makes_the_reading_incomplete(text, what):
    assert any(what in problem for problem in _problems(text)), _problems(text)


@pytest.mark.parametrize(
    "text",
    [
        "a=3\necho $((a + 1))\n((a > 1))\n[[ $a -eq 3 ]]\nlet b=a+1",
        "declare -a arr=(1 2)\ni=1\necho ${arr[i]} $((arr[i] + 1))",
        "declare -i n\nn=4\nn=n+1",
        f"declare x='a[{RUN}]'",  # data: no arithmetic reads it
        f"printf '%s\\n' 'a[{RUN}]'",
        f"[[ $HOME == 'a[{RUN}]' ]]",
        "PS4='+ ${BASH_SOURCE}:${LINENO}: '\nset -x",
        "x='plain'\necho \"${x@P}\"",
        "read -r a b <<< 'x y'",
        "mapfile -t lines < f",
    ],
)
def test_values_arithmetic_and_prompts_evaluate_harmlessly_are_no_problem(text):
    assert _problems(text) == []


# --- programs printed into a shell ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "echo 'docker run --rm evil/vllm:1 vllm serve m' | bash",
        "printf '%s\\n' 'docker run --rm evil/vllm:1 vllm serve m' | sh -s",
        "c='docker run --rm evil/vllm:1 vllm serve m'\necho \"$c\" | bash",
        "echo 'docker run --rm evil/vllm:1 vllm serve m' | at now",
        "echo 'docker run --rm evil/vllm:1 vllm serve m' | batch",
    ],
)
def test_a_program_echo_or_printf_print_into_a_shell_is_read(text):
    assert "evil/vllm:1" in [launch.container for launch in _read(text).launches]
    assert _problems(text) == []


@pytest.mark.parametrize(
    "text",
    [
        'echo "$X" | bash',
        "base64 -d <<< ZG9ja2Vy | bash",
        "{ echo 'docker run evil/vllm:1'; echo true; } | bash",  # more than one command's output
        "sed 's/^# //' notes.txt | sh",
        "my_function | bash",
        # a function whose last command is an echo prints more than that echo
        "f() { echo 'docker run evil/vllm:1'; echo true; }\nf | bash",
    ],
)
def test_a_program_piped_into_a_shell_that_is_not_read_is_incomplete(text):
    assert any("runs a program piped into it" in p for p in _problems(text)), _problems(text)


@pytest.mark.parametrize(
    "text",
    [
        "curl -fsSL https://astral.sh/uv/install.sh | sh",  # judge/fetched_code's
        "cat notes.sh | bash",  # a file run by name (the checks judge it)
        "echo hi | grep h",
        "echo y | python3 tools/setup.py",
        "printf 'a\\nb\\n' | xargs -n1 echo",
    ],
)
def test_pipes_the_reader_follows_elsewhere_or_that_run_no_program_are_no_problem(text):
    assert _problems(text) == []


def test_at_given_a_file_runs_that_file_by_name():
    assert "jobs/run.sh" in [call.word for call in _read("at -f jobs/run.sh now").script_files]


# --- descriptors, makefiles and compose files -----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "exec 3<<<'docker run evil/vllm:1'\nbash /dev/fd/3",
        "bash /proc/self/fd/4",
        "source /dev/fd/3",
        "exec {fd}<<<'docker run evil/vllm:1'\nbash /dev/fd/$fd",
        "bash <(echo 'docker run evil/vllm:1')",
        "python3 <(printf 'import os')",
    ],
)
def test_a_file_descriptor_run_as_a_file_is_incomplete(text):
    assert not _read(text).complete


def test_a_fetch_run_through_a_process_substitution_is_left_to_the_fetch_rule():
    assert _problems("bash <(curl -fsSL https://astral.sh/uv/install.sh)") == []


@pytest.mark.parametrize("redirect", ["{fd}>/dev/null", "{log}>>/tmp/x.log", "{in}<<<'x'"])
def test_a_named_descriptor_is_a_redirection_not_a_program_exec_runs(redirect):
    # `exec {fd}>f` opens a descriptor; read as `exec PROGRAM`, it ended the reading there
    run = _read(f"exec {redirect}\ndocker run --rm evil/vllm:1 vllm serve m")
    assert [launch.container for launch in run.launches] == ["evil/vllm:1"]


def test_a_heredoc_given_as_standard_input_by_name_is_still_read():
    text = "bash /dev/stdin <<'EOF'\ndocker run --rm evil/vllm:1 vllm serve m\nEOF"
    assert _read(text).complete


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("make setup ARCH=x86_64", "Makefile"),
        ("make -C srt-slurm -j8 all", "srt-slurm/Makefile"),
        ("make -f build/release.mk", "build/release.mk"),
        ("make --file=build/release.mk", "build/release.mk"),
        ("docker compose -f deploy/compose.yaml up -d", "deploy/compose.yaml"),
        ("docker-compose up -d", "docker-compose.yml"),
    ],
)
def test_make_and_compose_run_the_file_they_read(text, word):
    assert word in [call.word for call in _read(text).script_files]


@pytest.mark.parametrize(
    "text",
    [
        "printf 'all:\\n\\tdocker run evil/vllm:1\\n' > /tmp/mk\nmake -f /tmp/mk",
        "cat > Makefile <<'EOF'\nall:\n\tdocker run evil/vllm:1\nEOF\nmake all",
        "echo 'services: {s: {image: evil/vllm}}' > c.yml\ndocker compose -f c.yml up",
    ],
)
def test_a_makefile_or_compose_file_the_script_writes_is_incomplete(text):
    assert not _read(text).complete, _read(text)


# --- what went unread after a command the reader took to end the script ------------------------


@pytest.mark.parametrize(
    "first",
    [
        "return 0 2>/dev/null",  # outside a function: bash fails it and goes on
        '[ -n "$X" ] && return',
        "( return 1 )",
    ],
)
def test_a_return_outside_a_function_does_not_end_the_script(first):
    run = _read(f"{first}\ndocker run --rm evil/vllm:1 vllm serve m")
    assert [launch.container for launch in run.launches] == ["evil/vllm:1"]


def test_a_return_ends_a_function_and_a_sourced_library():
    text = "f() { return 0; docker run --rm evil/vllm:1 vllm serve m; }\nf"
    assert _read(text).launches == ()


def test_dollar_bracket_is_arithmetic():
    assert any("arithmetic evaluates" in p for p in _problems(f"a='x[{RUN}]'\necho $[a]"))
    run = _read('IMG=evil/vllm:$[1+2]\ndocker run --rm "$IMG" vllm serve m')
    assert [launch.container for launch in run.launches] == ["evil/vllm:3"]


def test_capsh_hands_bash_a_command_string():
    run = _read("capsh --drop=cap_sys_admin -- -c 'docker run --rm evil/vllm:1 vllm serve m'")
    assert [launch.container for launch in run.launches] == ["evil/vllm:1"]
