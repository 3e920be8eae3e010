"""Programs a script writes and then runs, here-strings a shell runs, and programs in the
languages signoff does not read: the reader reads them or says the reading is incomplete."""

from __future__ import annotations

import pytest

from signoff.parse.benchmark.script import evaluate, read_script
from signoff.parse.shell.scan import Scanner


def _read(text: str):
    return evaluate(read_script(text + "\n", "s.sh"), {"IMAGE": "vllm/vllm-openai:v1"})


def _images(text: str) -> list[str]:
    return [launch.container for launch in _read(text).launches]


def _problems(text: str) -> list[str]:
    return list(_read(text).problems)


# --- the scanner keeps what a redirection writes or reads ---------------------------------------


def test_the_scanner_keeps_redirection_targets_by_what_they_do():
    text = "cat a > out.txt 2>> err.log < in.txt <<< 'word' 2>&1 &> both\n"
    tokens = Scanner(text).tokens(0, len(text))
    kept = [(t.kind, t.text) for t in tokens if t.kind in ("out", "in", "string")]
    assert kept == [
        ("out", "out.txt"),
        ("out", "err.log"),
        ("in", "in.txt"),
        ("string", "'word'"),
        ("out", "both"),
    ]
    # the targets are still no arguments of the command
    assert [t.text for t in tokens if t.kind == "word"] == ["cat", "a"]


# --- a program the script writes -------------------------------------------------------------------

WRITTEN_OTHERWISE = {
    "printf-then-bash": "printf 'docker run x' > /tmp/r.sh\nbash /tmp/r.sh",
    "appended": "echo 'docker run x' >> /tmp/r.sh\nsh /tmp/r.sh",
    "decoded": "echo ZG9ja2Vy | base64 -d > /tmp/r.sh\nbash /tmp/r.sh",
    "run-by-path": "printf '#!/bin/sh\\nx' > /tmp/r.sh; chmod +x /tmp/r.sh; /tmp/r.sh",
    "relative": "echo x > run.sh\n./run.sh",
    "stdin": "echo x > /tmp/r.sh\nbash -s < /tmp/r.sh",
    "mktemp": 'F=$(mktemp); echo x > "$F"; bash "$F"',
    "tee": "echo x | tee /tmp/r.sh\nbash /tmp/r.sh",
    "copied": "echo x > /tmp/x\ncp /tmp/x /tmp/r.sh\nbash /tmp/r.sh",
    "moved-into-directory": "echo x > /tmp/r.sh\nmv /tmp/r.sh /opt/\nbash /opt/r.sh",
    "dd": "dd if=/tmp/x of=/tmp/r.sh\nbash /tmp/r.sh",
    "edited-in-place": "sed -i 's/a/b/' run.sh\nbash run.sh",
    "expanding-heredoc": 'cat > /tmp/r.sh <<EOF\ndocker run "$X"\nEOF\nbash /tmp/r.sh',
    "heredoc-then-appended": "cat > /tmp/r.sh <<'EOF'\necho a\nEOF\necho b >> /tmp/r.sh\n"
    "bash /tmp/r.sh",
    "python-file": "echo 'import os' > /tmp/p.py\npython3 /tmp/p.py",
    "perl-file": "echo 'system(1)' > /tmp/p.pl\nperl /tmp/p.pl",
    "ssh-stdin": "echo x > /tmp/r.sh\nssh node1 bash -s < /tmp/r.sh",
    "a-group-s-output": "{ echo a; echo b; } > /tmp/r.sh\nbash /tmp/r.sh",
    "piped-by-cat": "echo x > /tmp/r.sh\ncat /tmp/r.sh | bash",
    "process-substitution": "echo x > /tmp/r.sh\nbash < <(cat /tmp/r.sh)",
    "python-piped": "echo 'import os' > /tmp/p.py\ncat /tmp/p.py | python3 -",
    "installed-from-stdin": "install -m 755 /dev/stdin /tmp/r.sh <<'EOF'\nx\nEOF\n/tmp/r.sh",
    "sponge": "echo x | sponge /tmp/r.sh\nbash /tmp/r.sh",
    "relative-after-cd": "cd /tmp\necho x > r.sh\nbash /tmp/r.sh",
    "relative-bare-name": "echo x > vllm\nchmod +x vllm\nPATH=.:$PATH vllm serve m",
    "sed-w": "sed -n 'w /tmp/r.sh' f\nbash /tmp/r.sh",
    "sed-w-flag": "sed -n 's/^# //w /tmp/r.sh' f\nbash /tmp/r.sh",
    "python-open": "python3 -c \"open('/tmp/r.sh', 'w').write('x')\"\nbash /tmp/r.sh",
    "python-path": "python3 -c \"import pathlib; pathlib.Path('/tmp/r.sh').write_text('x')\"\n"
    "bash /tmp/r.sh",
    "python-path-open": "python3 -c \"from pathlib import Path; Path('/tmp/r.sh').open('a')\"\n"
    "bash /tmp/r.sh",
    "python-io-open": "python3 -c \"import io; io.open('/tmp/r.sh', mode='wb')\"\nbash /tmp/r.sh",
    "python-mode-at-run-time": "python3 -c \"import sys; open('/tmp/r.sh', sys.argv[1])\" w\n"
    "bash /tmp/r.sh",
    "python-shutil-copy": "python3 -c \"import shutil; shutil.copy('/x', '/tmp/r.sh')\"\n"
    "bash /tmp/r.sh",
    "python-os-rename": "python3 -c \"import os; os.rename('/x', '/tmp/r.sh')\"\nbash /tmp/r.sh",
}


@pytest.mark.parametrize("case", sorted(WRITTEN_OTHERWISE))
def test_running_a_file_the_script_writes_otherwise_than_from_a_quoted_heredoc_is_incomplete(case):
    run = _read(WRITTEN_OTHERWISE[case])
    assert not run.complete
    assert any("which the script writes when it runs" in p for p in run.problems), run.problems


@pytest.mark.parametrize(
    "text",
    [
        "cat > /tmp/r.sh <<'EOF'\ndocker run --rm evil/vllm:1 vllm serve m\nEOF\nbash /tmp/r.sh",
        "R=/tmp/r.sh\ncat > \"$R\" <<'EOF'\ndocker run --rm evil/vllm:1 vllm serve m\nEOF\n"
        'bash "$R"',
        "tee /tmp/r.sh > /dev/null <<'EOF'\ndocker run --rm evil/vllm:1 vllm serve m\nEOF\n"
        "chmod +x /tmp/r.sh\n/tmp/r.sh",
        "cat > /tmp/p.py <<'PY'\nimport os\nos.system('docker run --rm evil/vllm:1 vllm serve m')\n"
        "PY\npython3 /tmp/p.py",
        "cat > /tmp/r.sh <<'EOF'\n#!/usr/bin/env bash\ndocker run --rm evil/vllm:1 vllm serve m\n"
        "EOF\n/tmp/r.sh",
    ],
)
def test_a_program_written_from_a_quoted_heredoc_is_read_as_what_runs(text):
    run = _read(text)
    assert run.complete, run.problems
    assert "evil/vllm:1" in [launch.container for launch in run.launches]


def test_a_copy_of_a_heredoc_program_is_read_and_a_copy_of_another_file_runs_that_file():
    heredoc = "cat > /tmp/a.sh <<'EOF'\ndocker run --rm evil/vllm:1 vllm serve m\nEOF\n"
    assert "evil/vllm:1" in _images(heredoc + "cp /tmp/a.sh /tmp/b.sh\nbash /tmp/b.sh")
    run = _read("cp benchmarks/notes.txt /tmp/r.sh\nbash /tmp/r.sh")
    assert run.complete
    assert ("benchmarks/notes.txt", "bash /tmp/r.sh") in [
        (call.word, call.command) for call in run.script_files
    ]


def test_a_heredoc_program_in_a_language_signoff_does_not_read_is_incomplete():
    body = "cat > /tmp/r <<'EOF'\n#!/usr/bin/ruby\nsystem('x')\nEOF\n/tmp/r"
    assert any("in a language signoff does not read" in p for p in _problems(body))


@pytest.mark.parametrize(
    "text",
    [
        # InferenceX's launchers: a Python helper written from a quoted heredoc, then run
        "cat > collect_latest_results.py <<'PY'\nimport os, sys\nfor p in os.listdir(sys.argv[1]):\n"
        '    print(p)\nPY\nLOGS_DIR=$(python3 collect_latest_results.py "$DIR" 1 2)',
        "bash ./run.sh > /tmp/log.txt 2>&1",  # written by the run, not before it
        "echo x > /tmp/out.txt\nbash ./other.sh",
        "echo x > /dev/null\nbash /dev/null",
        "echo x > /tmp/r.sh\ncat /tmp/r.sh | grep x",  # printed, not run
        "echo x > /tmp/r.sh\ncat /tmp/other.sh | bash",
        "python3 -c \"print(open('/tmp/r.sh').read())\"\nbash /tmp/r.sh",  # read, not written
        "python3 -c \"import pathlib; pathlib.Path('/tmp/r.sh').open('r')\"\nbash /tmp/r.sh",
        "python3 -c \"open('/tmp/log', 'w').write('x'.replace('x', 'y'))\"\nbash /tmp/r.sh",
    ],
)
def test_reading_files_or_writing_unrelated_ones_is_no_problem(text):
    assert _problems(text) == []


# --- here-strings ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "bash <<< 'docker run --rm evil/vllm:1 vllm serve m'",
        "sh -s <<< 'docker run --rm evil/vllm:1 vllm serve m'",
        "python3 <<< \"import os; os.system('docker run --rm evil/vllm:1 vllm serve m')\"",
        "ssh node1 bash -s <<< 'docker run --rm evil/vllm:1 vllm serve m'",
        "ssh node1 <<< 'docker run --rm evil/vllm:1 vllm serve m'",
    ],
)
def test_a_here_string_a_shell_or_python_runs_is_read(text):
    assert "evil/vllm:1" in _images(text)


def test_a_here_string_known_only_at_run_time_is_incomplete():
    assert any("here-string known only at run time" in p for p in _problems('bash <<< "$CMD"'))


def test_ssh_given_a_file_on_its_input_runs_that_file():
    run = _read("ssh node1 bash -s < benchmarks/remote.sh")
    assert [(c.word, c.name) for c in run.script_files] == [("benchmarks/remote.sh", "remote.sh")]


# --- other languages ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("perl -e 'system(\"x\")'", "perl -e"),
        ("perl -i -pe 's/a/`id`/e' f", "perl -pe"),
        ("perl -pe 's/a/b/; system(1)' f", "perl -pe"),
        ("ruby -e 'system(\"x\")'", "ruby -e"),
        ('node -e \'require("child_process").execSync("x")\'', "node -e"),
        ("node20 --eval 'x'", "node20 --eval"),
        ("php -r 'system(\"x\");'", "php -r"),
        ("Rscript -e 'system(\"x\")'", "Rscript -e"),
        ("awk 'BEGIN { system(\"x\") }'", "awk (a program that runs commands)"),
        ("awk 'BEGIN { \"date\" | getline d }'", "awk (a program that runs commands)"),
        ("gawk '{ print $1 | \"sh\" }' f", "gawk (a program that runs commands)"),
        ("timeout 5 perl -E 'say 1'", "perl -E"),
        # GNU sed's `e` runs the pattern space, the `e` flag a substitution's result
        ("sed -n '1e docker run evil/vllm' /dev/null", "sed (a program that runs commands)"),
        ("sed 's/.*/docker run x/e' f", "sed (a program that runs commands)"),
        ("sed -n -e 'p' -e '$!{N;e' -e '}' f", "sed (a program that runs commands)"),
        ("sed --expression='/x/ e' f", "sed (a program that runs commands)"),
        ("sed -ne '/a/,+2 !e' f", "sed (a program that runs commands)"),
        ("xargs sed 's|a|b|gie' f", "sed (a program that runs commands)"),
        ("sed 's/a/b' f", "sed (a program that runs commands)"),  # no sed program: unknown
        ("deno eval 'Deno.exit(0)'", "deno eval"),
    ],
)
def test_an_inline_program_in_a_language_signoff_does_not_read_is_incomplete(text, what):
    assert f"s.sh:1: {what} runs a program signoff does not read" in _problems(text)


@pytest.mark.parametrize(
    "text",
    [
        "awk '{print $NF}' f",
        'awk "BEGIN {printf \\"%d\\", $A - $B}"',  # arithmetic on values known at run time
        "awk -v s=1 'BEGIN { exit !(s <= 0 || s > 2) }'",
        'awk \'/^a|^b/ { gsub(/^"|"$/, "", $2); print $2 }\' f',
        "awk -F, -f prog.awk data.csv",
        "perl -pi -e 's/a/b/g' config.py",  # one substitution: an edit
        "perl -i -pe 'y/a-z/A-Z/' f",
        # InferenceX's own sed programs: substitutions, deletions, appends, ranges, blocks
        "sed -n 's/results_concurrency_\\([0-9]*\\)_gpus_.*/\\1/p' f",
        'sed -i "s/^name:.*/name: \\"${RUNNER_NAME}\\"/" "$CONFIG_FILE"',
        "sed -i '/^name:.*/a sbatch_directives:\\n  exclude: x' f",
        "sed -i '102,108d' f",
        "sed '$d' f",
        "sed -u -r 's/\\x1b\\[[0-9;]*m//g' f",
        "sed -i '/^health_check:/,/^[^ ]/{ /^health_check:/d\n}' f",
        "sed -i '/init(bknd)/i\\                init[\"e\"] = 1' f",
        "sed -e '/^#/d' -e 's|x|y|gI' -e 'y/abc/xyz/' f",
        "sed -n '0,/re/{//p}' f",
        "sed ':a;N;$!ba;s/\\n/ /g' f",
        "sed -E 's/--tp[[:space:]]+[0-9]+/--tp 8/g' f",
        "sed -f edits.sed f",
    ],
)
def test_awk_or_perl_that_runs_no_command_is_no_problem(text):
    assert _problems(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("perl tools/x.pl a", "tools/x.pl"),
        ("perl -Iinc -w tools/x.pl", "tools/x.pl"),
        ("node scripts/build.mjs", "scripts/build.mjs"),
        ("awk -F, -f tools/prog.awk data.csv", "tools/prog.awk"),
        ("ruby tools/x.rb", "tools/x.rb"),
        ("sed -n -f tools/edit.sed f", "tools/edit.sed"),
        # after a subcommand: bun's and deno's
        ("bun run tools/x.ts --port 1", "tools/x.ts"),
        ("deno run --allow-all tools/x.ts", "tools/x.ts"),
        ("deno test -A tools/x_test.ts", "tools/x_test.ts"),
    ],
)
def test_a_program_file_of_another_language_is_a_file_run_by_name(text, word):
    assert word in [call.word for call in _read(text).script_files]


# --- commands handed to tmux, screen and `env -S` -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "env -S 'docker run --rm evil/vllm:1 vllm serve m'",
        "env --split-string='docker run --rm evil/vllm:1 vllm serve m'",
        "tmux new-session -d -s s 'docker run --rm evil/vllm:1 vllm serve m'",
        "tmux new -d docker run --rm evil/vllm:1 vllm serve m",
        "tmux send-keys -t s 'docker run --rm evil/vllm:1 vllm serve m' Enter",
        "tmux -c 'docker run --rm evil/vllm:1 vllm serve m'",
        "screen -dmS s docker run --rm evil/vllm:1 vllm serve m",
        "screen -dmS s bash -c 'docker run --rm evil/vllm:1 vllm serve m'",
        "screen -S s -X stuff 'docker run --rm evil/vllm:1 vllm serve m\n'",
    ],
)
def test_a_command_tmux_screen_or_env_split_string_runs_is_read(text):
    assert "evil/vllm:1" in _images(text)


@pytest.mark.parametrize("text", ["tmux ls", "tmux kill-session -t s", "screen -ls", "env"])
def test_tmux_and_screen_running_no_command_record_none(text):
    run = _read(text)
    assert run.complete and not run.launches


# --- startup files and assignments through expanded words ----------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "export BASH_ENV=/tmp/x\necho 'docker run evil' > /tmp/x\nbash -c true",
        "echo 'docker run evil' > /tmp/x\nBASH_ENV=/tmp/x bash -c true",
        "echo 'docker run evil' > /tmp/x\nENV=/tmp/x sh -c true",
    ],
)
def test_a_startup_file_the_script_writes_is_incomplete(text):
    assert any("a shell started later runs /tmp/x, which the script writes" in p
               for p in _problems(text))  # fmt: skip


@pytest.mark.parametrize("option", ["--rcfile", "--init-file"])
def test_an_interactive_shell_s_startup_file_the_script_writes_is_incomplete(option):
    text = f"echo 'docker run evil' > /tmp/x\nbash {option} /tmp/x -i < /dev/null"
    assert any(f"bash {option} runs /tmp/x, which the script writes" in p
               for p in _problems(text))  # fmt: skip
    assert _problems(f"bash {option} /etc/bash.bashrc -i < /dev/null") == []


def test_an_assignment_an_expanded_word_spells_is_followed():
    text = 'x=IMG; declare "$x=evil/vllm:1"; docker run --rm "$IMG" vllm serve m'
    assert _images(text) == ["evil/vllm:1"]
    assert _images('export "IMG=evil/vllm:2"; docker run "$IMG" vllm serve m') == ["evil/vllm:2"]


def test_assigning_a_variable_named_only_at_run_time_is_incomplete():
    assert "s.sh:1: ${P}CMD: a variable named only at run time is assigned" in _problems(
        'export "${P}CMD=docker"'
    )


def test_a_program_written_into_a_directory_and_run_by_its_bare_name_is_read():
    text = (
        "mkdir -p /tmp/bin\ncat > /tmp/bin/vllm <<'EOF'\n"
        "docker run --rm evil/vllm:1 vllm serve m\nEOF\n"
        'chmod +x /tmp/bin/vllm\nexport PATH="/tmp/bin:$PATH"\nvllm serve m'
    )
    assert "evil/vllm:1" in _images(text)
    assert _problems("echo 'exit 1' > /tmp/bin/vllm\nvllm serve m") == [
        "s.sh:2: runs vllm, which the script writes when it runs"
    ]
    # a file in the current directory, which `.` on PATH finds; what PATH finds else runs too
    relative = (
        "cat > vllm <<'EOF'\ndocker run --rm evil/vllm:1 vllm serve m\nEOF\n"
        "PATH=.:$PATH vllm serve m"
    )
    assert "evil/vllm:1" in _images(relative)
    assert [launch.line for launch in _read(relative).launches] == [2, 4]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("echo x > /tmp/v\nhash -p /tmp/v vllm", "hash -p makes a command run /tmp/v"),
        ("hash -p /tmp/v vllm\necho x > /tmp/v", "hash -p makes a command run /tmp/v"),
        ("base64 -d <<< QUJD > /tmp/v.so\nenable -f /tmp/v.so vllm", "enable -f makes"),
        ("echo x > /tmp/x\ncp /tmp/x $(which vllm)\nvllm serve m", "runs vllm, which the"),
        ("echo x | sudo tee /usr/local/bin/vllm\nvllm serve m", "runs vllm, which the"),
        (
            "echo x > /tmp/x\ntimeout 9 install -m 755 /tmp/x /usr/bin/vllm\nvllm serve m",
            "runs vllm",
        ),
    ],
)
def test_a_command_name_pointed_at_or_written_over_with_a_file_the_script_writes(text, why):
    problems = _problems(text)
    assert any(why in problem for problem in problems), problems


@pytest.mark.parametrize(
    "text",
    [
        "hash -p /usr/bin/python3 python",
        "echo 'k=v' | sudo tee /etc/sysctl.d/90-x.conf\nvllm serve m",
        'cp /etc/hosts "$(command -v python3).bak"\nvllm serve m',
    ],
)
def test_re_pointing_at_or_writing_files_no_later_command_runs_stays_quiet(text):
    assert _problems(text) == []


@pytest.mark.parametrize(
    "text", ["deno run -A https://example.com/patch.ts", "deno run https://$HOST/x.ts"]
)
def test_a_program_run_from_a_url_is_not_read(text):
    problems = _problems(text)
    assert len(problems) == 1 and "runs a program fetched from https://" in problems[0]
    assert not _read(text).script_files
