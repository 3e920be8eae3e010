"""Commands other programs run for the script: a shell named by its path or outside bash and sh,
a command given in an option or an address (option_commands), git settings whose value runs,
xargs's input, and Python reaching its command modules indirectly. The reader reads each as
the command it is, or says it cannot; the everyday forms of the same programs stay quiet."""

from __future__ import annotations

import pytest

from signoff.parse.benchmark.script import evaluate, read_script
from signoff.parse.shell.fields import Field
from signoff.parse.shell.option_commands import option_command, unread_commands
from signoff.parse.shell.python_commands import python_commands
from signoff.parse.shell.script_files import XARGS_INPUT

EVIL = "docker run --rm evil/vllm:patched"


def _read(text: str):
    return evaluate(read_script(text + "\n", "s.sh"), {"IMAGE": "vllm/vllm-openai:v1"})


def _words(text: str) -> list[Field]:
    return [Field(word, True, "", 1) for word in text.split(" ")]


def _containers(text: str) -> list[str]:
    return [c.word for c in _read(text).containers]


@pytest.mark.parametrize(
    "line",
    [
        f"/bin/bash -c '{EVIL}'",
        f"/usr/bin/sh -c '{EVIL}'",
        f"ksh -c '{EVIL}'",
        f"mksh -c '{EVIL}'",
        f"busybox sh -c '{EVIL}'",
        f"rsync -avz -e 'sh -c \"{EVIL}\"' a host:b",
        f"rsync --rsh='sh -c \"{EVIL}\"' a host:b",
        f"ssh -o ProxyCommand='{EVIL}' host true",
        f"ssh -oLocalCommand='{EVIL}' host",
        f"scp -o 'ProxyCommand {EVIL}' a host:b",
        f"tar -xf a.tar --to-command='{EVIL}'",
        f"tar -xf a.tar --checkpoint=1 --checkpoint-action=exec='{EVIL}'",
        f"tar -I '{EVIL}' -xf a.tar",
        f"sbatch --wrap='{EVIL}'",
        f"sbatch --wrap '{EVIL}'",
        f"sudo -s {EVIL}",
        f"sudo -Ei {EVIL}",
        f"socat - EXEC:'{EVIL}'",
        f"socat - system:'{EVIL}'",
        f"git -c alias.x='!{EVIL}' x",
        f"git -c core.sshCommand='{EVIL}' fetch",
        f"git config --global core.pager '{EVIL}'",
        f"git config --file .git/config filter.lfs.smudge '{EVIL}'",
        f"GIT_SSH_COMMAND='{EVIL}' git fetch",
        f"export GIT_PAGER='{EVIL}'",
        "echo evil/vllm:patched | xargs docker run --rm",
        f"python3 -c \"import pty; pty.spawn(['sh', '-c', '{EVIL}'])\"",
        f"python3 -c \"import asyncio as a; a.run(a.create_subprocess_shell('{EVIL}'))\"",
        "python3 -c \"import asyncio; asyncio.create_subprocess_exec('docker', 'run', "
        "'evil/vllm:patched')\"",
    ],
)
def test_a_command_another_program_runs_is_read_as_that_command(line):
    run = _read(line)
    assert run.complete, run.problems
    assert {c.word for c in run.containers} in ({"evil/vllm:patched"}, {XARGS_INPUT})


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (f"fish -c '{EVIL}'", "fish -c runs a program signoff does not read"),
        (f"tcsh -c '{EVIL}'", "tcsh -c runs a program"),
        (f"pwsh -Command '{EVIL}'", "pwsh -Command runs a program"),
        (f"gdb -batch -ex 'shell {EVIL}'", "gdb -ex runs a program"),
        ("gdb prog -x /tmp/cmds", "gdb -x runs a program"),
        (f"vim -es -c '!{EVIL}' -c q", "vim -c runs a program"),
        (f"vim -es +'!{EVIL}'", "vim +CMD runs a program"),
        (f"expect -c 'spawn {EVIL}'", "expect -c runs a program"),
        (f"emacs --batch --eval '(shell-command \"{EVIL}\")'", "emacs --eval runs a program"),
        (f"echo '* * * * * {EVIL}' | crontab -", "crontab schedules commands"),
        ("crontab /tmp/jobs", "crontab schedules commands"),
        ("ncat -l 9000 -e /bin/sh", "ncat runs a program on what the network sends it"),
        ("nc -l -p 9000 -c 'sh'", "nc runs a program on what the network sends it"),
        ("export GIT_CONFIG_COUNT=1", "GIT_CONFIG_COUNT gives git settings"),
        ("GIT_CONFIG_PARAMETERS=\"'core.pager=sh'\" git log", "GIT_CONFIG_PARAMETERS gives"),
        ('GIT_SSH_COMMAND="$CMD" git fetch', "GIT_SSH_COMMAND names a command known only"),
        ("git --config-env=core.pager=CMD log", "known only at run time"),
        ('ssh -o "$OPTS" node1 true', "known only at run time"),
        ('ssh -o "ProxyCommand=$P" node1 true', "known only at run time"),
        ('sbatch --wrap="$CMD"', "known only at run time"),
    ],
)
def test_a_command_that_cannot_be_read_makes_the_reading_incomplete(line, why):
    problems = " ".join(_read(line).problems)
    assert why in problems


@pytest.mark.parametrize(
    "line",
    [
        "rsync -avz -e ssh src host:dst",
        "rsync -az -e 'ssh -p 2222 -o StrictHostKeyChecking=no' src host:dst",
        "ssh -o StrictHostKeyChecking=no -o ProxyJump=bastion node1 'nvidia-smi'",
        "scp -o StrictHostKeyChecking=no a node1:/tmp/",
        'ssh -o "ConnectTimeout=$T" node1 nvidia-smi',  # a run-time value of a harmless key
        "tar -xzf model.tar.gz -C /tmp",
        "tar -I zstd -xf a.tar.zst",
        "git config --global --add safe.directory '*'",
        "git config user.name bot",
        "git -c advice.detachedHead=false checkout abc",
        "git -c alias.co=checkout co main",  # an alias to another git command
        "git config --global credential.helper store",  # a helper git finds by its name
        "GIT_SSH_COMMAND='ssh -o StrictHostKeyChecking=no' git clone git@github.com:x/y",
        "export GIT_TERMINAL_PROMPT=0",
        "sudo -E docker ps",
        "sudo -u root nvidia-smi",
        "crontab -l",
        "docker ps -aq | xargs -r docker rm -f",
        "find . -name '*.log' | xargs rm -f",
        "/usr/bin/bash -c 'echo hi'",
        "socat TCP-LISTEN:8000,fork TCP:localhost:8001 &",
        "nc -z localhost 8000",
        "gdb --version",
        "python3 -c \"import os; print(os.environ.get('A'), getattr(os, 'sep'))\"",
        "python3 -c \"import importlib; importlib.import_module('json')\"",
    ],
)
def test_everyday_forms_of_those_programs_read_completely(line):
    run = _read(line)
    assert run.complete and not run.problems, run.problems
    assert not [c.word for c in run.containers]


def test_a_shell_path_the_script_writes_is_the_program_it_runs_not_the_system_shell():
    run = _read("cat > /usr/bin/dash <<'EOF'\ndocker run evil/x\nEOF\n/usr/bin/dash -c 'echo hi'")
    assert [c.word for c in run.containers] == ["evil/x"]


def test_option_commands_joins_every_command_given_one_per_line():
    found = option_command("ssh", _words("ssh -o ProxyCommand=a -oLocalCommand=b host"))
    assert found is not None and found.known and found.text == "a\nb"
    assert option_command("ssh", _words("ssh -o BatchMode=yes host")) is None
    assert option_command("ls", _words("ls -e x")) is None


def test_unread_commands_names_only_a_schedule_or_a_networked_program():
    assert unread_commands("crontab", _words("crontab -u root -l")) == ""
    assert unread_commands("crontab", _words("crontab -u root -")) != ""
    assert unread_commands("nc", _words("nc -z host 80")) == ""


@pytest.mark.parametrize(
    ("program", "unknown"),
    [
        ("import os; s = os.system; s('x')", True),
        ("from os import system as s; run = s", True),
        ("import os; getattr(os, name)('x')", True),
        ("import os; vars(os)['system']('x')", True),
        ("import os; os.__dict__['system']('x')", True),
        ("__import__('os').system(name)", True),
        ("import os; getattr(os, 'environ')", False),
        ("import os; print(os.path.join('a', 'b'))", False),
        ("import threading; threading.Thread(target=app.run)", False),  # not subprocess's run
        # InferenceX's K3 patch script imports a list of modules to see that they load
        ("import importlib\nfor m in ('vllm.envs',): importlib.import_module(m)", False),
    ],
)
def test_python_reaching_a_command_module_indirectly_runs_an_unknown_command(program, unknown):
    assert python_commands(program).unknown is unknown


# --- the command's name, and values bash computes --------------------------------------------------


def _argv(text: str) -> list[tuple[str, ...]]:
    return [c.argv for c in _read(text).commands]


def test_an_empty_anchored_pattern_prefixes_or_suffixes_the_value():
    assert ("docker", "run", "x") in _argv("v=ocker; ${v/#/d} run x")
    assert ("docker", "run", "x") in _argv("v=dock; ${v/%/er} run x")
    assert ("docker", "run", "x") in _argv("v=docker; ${v//} run x")  # no pattern: unchanged


def test_an_operator_on_every_element_applies_to_each_and_star_joins_with_a_space():
    argv = _argv('a=(b c); set -- p q; docker run "${a[@]/#/-}" "${a[*]}" "${a[@]^^}" "${@/#/+}"')
    assert ("docker", "run", "-b", "-c", "b c", "B", "C", "+p", "+q") in argv


def test_command_v_runs_nothing_and_a_name_it_looks_up_is_that_program():
    assert _argv("command -v docker") == []
    assert ("docker", "run", "x") in _argv("$(which docker) run x")
    assert ("docker", "run", "y") in _argv('"$(command -v docker)" run y')


@pytest.mark.parametrize("line", ["/usr/bin/dock[e]r run x", "/u*/bin/docker run x", "dock?r ps"])
def test_a_command_named_by_a_file_name_pattern_is_not_read(line):
    assert "names its command by a pattern" in " ".join(_read(line).problems)


@pytest.mark.parametrize("line", ["[ -f x ] && echo hi", "ls *.log", "'dock[e]r' ps", "[[ -f x ]]"])
def test_the_test_command_quoted_names_and_patterns_as_arguments_are_no_pattern_command(line):
    assert not _read(line).problems


@pytest.mark.parametrize(
    "line",
    [
        f"strace -f sh -c '{EVIL}'",
        f"unshare -r /bin/bash -c '{EVIL}'",
        f"kubectl exec pod -- sh -c '{EVIL}'",
        f"sg docker -c '{EVIL}'",
    ],
)
def test_a_program_handed_a_shell_command_line_runs_it(line):
    assert [c.word for c in _read(line).containers] == ["evil/vllm:patched"]


@pytest.mark.parametrize(
    "line", [f"echo bash -c '{EVIL}'", "grep -r 'bash -c' .", "bash x.sh sh -c y"]
)
def test_words_that_only_look_like_a_shell_command_line_are_not_run(line):
    assert not _read(line).containers


# --- files and streams a shell reads its program from ---------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "echo x >> ~/.bashrc",
        'echo x >> "$HOME/.profile"',
        "printf x > /etc/profile.d/z.sh",
        "cp /tmp/h .git/hooks/post-checkout",
        "echo x | tee -a ~/.gitconfig",
        "echo x >> ~/.ssh/config",
        "echo /tmp/x.so > /etc/ld.so.preload",
        "python3 -c \"open('/root/.zshenv', 'a').write('x')\"",
    ],
)
def test_writing_a_file_programs_read_commands_from_at_start_is_not_read(line):
    assert "which programs started later read commands from" in " ".join(_read(line).problems)


@pytest.mark.parametrize("line", ["echo hi > /tmp/profile.log", "echo x > bashrc.txt"])
def test_files_with_such_words_in_their_names_are_written_as_any_file(line):
    assert not _read(line).problems


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (f"mkfifo /tmp/p; bash < /tmp/p & echo '{EVIL}' > /tmp/p", "while it may still be read"),
        (f"bash /tmp/q & echo '{EVIL}' > /tmp/q", "while it may still be reading it"),
        (f"exec 3<<<'{EVIL}'; bash <&3", "bash runs /dev/fd/3, a file descriptor's text"),
        (f"exec 3<<<'{EVIL}'; sh < /dev/fd/3", "sh runs /dev/fd/3, a file descriptor's text"),
        (f"echo '{EVIL}' > >(bash)", ">(bash) runs what the script writes into it"),
        (f"exec > >(sh -s)\necho '{EVIL}'", ">(sh -s) runs what the script writes into it"),
        (f"echo '{EVIL}' | tee >(python3 -)", ">(python3 -) runs what the script writes"),
        (f"coproc bash\necho '{EVIL}' >&${{COPROC[1]}}", "a coprocess shell runs what the"),
    ],
)
def test_a_shell_reading_what_the_script_writes_into_it_is_not_read(line, why):
    assert why in " ".join(_read(line).problems)


@pytest.mark.parametrize(
    "line",
    [
        "exec > >(tee -a /tmp/log) 2>&1",
        "echo x > >(logger -t s)",
        "coproc sleep 5",
        "read -r x <&3",
        "bash < /dev/stdin",
        "cat > /tmp/q <<'EOF'\necho hi\nEOF\nbash /tmp/q",  # written first: read as it is
    ],
)
def test_everyday_streams_and_coprocesses_stay_quiet(line):
    assert not [p for p in _read(line).problems if "reading" in p or "writes" in p]


# --- routes found on the final read ----------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        f"/bin//bash -c '{EVIL}'",  # a path bash normalises
        f"/opt/conda/bin/bash -c '{EVIL}'",  # a shell outside the system's directories
        f"git config set alias.x '!{EVIL}'",  # git 2.46's spelling
        f"python3 -c \"from os import *; system('{EVIL}')\"",
        f"tar -x --to-com='{EVIL}' -f a.tar",  # getopt takes a long option's prefix
    ],
)
def test_routes_found_on_the_final_read_are_read_as_the_command(line):
    assert [c.word for c in _read(line).containers] == ["evil/vllm:patched"]


def test_a_shell_by_a_path_outside_the_system_is_also_a_file_the_script_runs():
    run = _read(f"./tools/bash -c '{EVIL}'")
    assert "./tools/bash" in [s.word for s in run.script_files]
    assert [c.word for c in run.containers] == ["evil/vllm:patched"]


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (f"echo '* * * * * {EVIL}' | crontab", "crontab schedules commands"),
        (
            f"python3 -c \"getattr(__import__('os'), 'system')('{EVIL}')\"",
            "python -c runs a command known only at run time",
        ),
        (f"exec <<<'{EVIL}'\nbash", "bash reads its program from the standard input `exec`"),
        ("exec < /tmp/cmds\nsh", "sh reads its program from the standard input `exec`"),
    ],
)
def test_routes_found_on_the_final_read_that_cannot_be_read_fail_closed(line, why):
    assert why in " ".join(_read(line).problems)


def test_exec_from_dev_null_leaves_a_later_shell_as_it_was():
    assert not [p for p in _read("exec < /dev/null\nbash").problems if "exec" in p]


@pytest.mark.parametrize("line", ["exec 3< /tmp/list\nbash", "exec 4<<< 'x'\nbash"])
def test_another_descriptor_opened_by_exec_leaves_standard_input_as_it_was(line):
    assert not [p for p in _read(line).problems if "exec" in p]


def test_a_file_opened_on_another_descriptor_is_not_the_shell_s_program():
    written = f"echo '{EVIL}' > /tmp/p.sh\n"
    assert _read(written + "bash 3< /tmp/p.sh").complete
    assert "runs /tmp/p.sh" in " ".join(_read(written + "bash < /tmp/p.sh").problems)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (f"echo '{EVIL}' | newgrp docker", "newgrp starts a shell"),
        (f"start-stop-daemon -S -x /bin/sh -- -c '{EVIL}'", "start-stop-daemon starts"),
        (f"make --eval='all:;{EVIL}' all", "make --eval gives make rules"),
        ("git clone 'ext::sh -c x' d", "the command an ext:: address names"),
        (f"compgen -C '{EVIL}' x", "compgen runs the command or function"),
        ("f() { :; }; compgen -F f x", "compgen runs the command or function"),
        (f"PS1='$({EVIL})' bash -i < /dev/null", "runs a command when bash evaluates it"),
        (f"export PS0='$({EVIL})'", "runs a command when bash evaluates it"),
        ("printf 'Host x\\n' > /tmp/c; ssh -F /tmp/c x true", "which the script writes"),
        ("scp -F/tmp/c a x:b; echo 'Host *' > /tmp/c", "which the script writes"),
        ("tmux -f /tmp/t.conf new -d; echo 'run-shell x' > /tmp/t.conf", "which the script"),
    ],
)
def test_programs_and_settings_running_commands_signoff_does_not_read(line, why):
    run = _read(line)
    assert not run.complete and any(why in problem for problem in run.problems), run.problems


@pytest.mark.parametrize(
    "line",
    [
        f"export PROMPT_COMMAND='{EVIL}'; bash -i < /dev/null",
        f"torchrun --nproc-per-node=8 --no-python sh -c '{EVIL}'",
        f"python3 -m torch.distributed.launch --no-python bash -c '{EVIL}'",
    ],
)
def test_a_prompt_command_and_torchrun_s_program_are_read_as_commands(line):
    assert _containers(line) == ["evil/vllm:patched"]


@pytest.mark.parametrize(
    "line",
    [
        "ssh -F /dev/null host true",
        "ssh -F ~/.ssh/config.d/cluster host true",  # the runner's, not the script's
        "git clone https://github.com/x/y d",
        "make -j 8 -C build install",
        "PS4='+ ${BASH_SOURCE}:${LINENO}: '",
        "torchrun --nproc-per-node 8 -m vllm.entrypoints.openai.api_server",
    ],
)
def test_everyday_settings_and_launchers_stay_quiet(line):
    run = _read(line)
    assert run.complete and not run.problems, run.problems


def test_a_settings_file_named_by_ssh_is_a_file_the_script_runs():
    run = _read("ssh -F conf/ssh_config host true")
    assert [(f.word, f.command) for f in run.script_files] == [
        ("conf/ssh_config", "ssh -F conf/ssh_config host true")
    ]
