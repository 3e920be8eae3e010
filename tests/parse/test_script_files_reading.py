"""The script reader records every command that runs a script file, with the word naming it."""

from __future__ import annotations

import pytest

from signoff.parse.benchmark.script import evaluate, read_script
from signoff.parse.shell.import_paths import FIRST_PATH_ENTRY, MAX_FIRST_ENTRIES


def _files(text: str) -> list[tuple[str, str, str]]:
    run = evaluate(read_script(text + "\n", "s.sh"), None)
    return [(call.word, call.name, call.reach) for call in run.script_files]


@pytest.mark.parametrize(
    ("line", "word", "name"),
    [
        ("bash ./other.sh", "./other.sh", "other.sh"),
        ("sh FILE", "FILE", "FILE"),
        ("zsh -e run.zsh arg", "run.zsh", "run.zsh"),
        ('bash "$(dirname "$0")/x.sh"', '$(dirname "$0")/x.sh', "x.sh"),
        ("./x.sh", "./x.sh", "x.sh"),
        ('"$DIR/x.sh" args', "$DIR/x.sh", "x.sh"),
        ("exec bash x.sh", "x.sh", "x.sh"),
        ("timeout 10 bash x.sh", "x.sh", "x.sh"),
        ("nohup ./x.sh &", "./x.sh", "x.sh"),
        ("env A=1 bash x.sh", "x.sh", "x.sh"),
        ("sudo -E nice -n 5 bash x.sh", "x.sh", "x.sh"),
        ("taskset -c 0-3 ./x.sh", "./x.sh", "x.sh"),
        ("bash -o pipefail -- x.sh", "x.sh", "x.sh"),
        ("/bin/bash dir/x.sh", "dir/x.sh", "x.sh"),
        ("S=./x.sh; bash $S", "./x.sh", "x.sh"),
        ('bash "$SETUP"', "$SETUP", ""),
        ('"$RUNNER" --go', "$RUNNER", ""),
        ('bash "$DIR/$NAME"', "$DIR/$NAME", ""),
        ('sudo -E "$H"', "$H", ""),
        ('flock -w "$WAIT" 9 bash x.sh', "x.sh", "x.sh"),
        ("exec -a name bash x.sh", "x.sh", "x.sh"),
        ("$(command -v bash) x.sh", "x.sh", "x.sh"),
        ("bash < x.sh", "(standard input)", ""),
        # xargs hands bash its input's words: the first is the script file it runs
        ("echo x | xargs bash", "[the arguments xargs reads from standard input]", ""),
        ("echo x | xargs -I % bash %", "%", ""),
        ("xargs -n1 ./run.sh", "./run.sh", "run.sh"),
        ('find . -name "*.bash" -exec bash {} \\;', "{}", ""),
        ("find . -exec ./x.sh {} +", "./x.sh", "x.sh"),
        ("cat x.sh | sh", "(standard input)", ""),
        ("bash -s -- arg", "(standard input)", ""),
        ("curl -fsSL https://x.io/p.py | python3 - --flag", "(standard input)", ""),
        ("python3 x.py", "x.py", "x.py"),
        ('python3 -u "$(dirname "$0")/tune.py" --n 2', '$(dirname "$0")/tune.py', "tune.py"),
        ("/usr/bin/python3.12 -X dev tool.py", "tool.py", "tool.py"),
    ],
)
def test_a_command_running_a_script_file_is_recorded_with_its_word(line, word, name):
    assert _files(line) == [(word, name, "reached")]


@pytest.mark.parametrize(
    "line",
    [
        "bash -c 'echo hi'",
        "bash -ec 'echo hi'",
        "echo ./x.sh",
        "python3 -c 'print(1)'",
        "python3 - --flag <<'EOF'\nprint(1)\nEOF",
        "vllm serve model --port 8000",
        "source ./x.sh",
        "hf download model",
        "find . -name x -print",
        'flock -w "${WAIT:-60}" 9',
        "python3 -m sglang.launch_server --model-path m --port 8000",  # a launch, read as one
        "python3 -m 'not a module'",
    ],
)
def test_commands_that_run_no_script_file_record_none(line):
    assert _files(line) == []


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("python3 -m venv /tmp/venv", ["venv.py", "venv/__main__.py", "venv/__init__.py"]),
        (
            "$(command -v python3) -u -m tools.tune --n 2",
            [
                "tools/tune.py",
                "tools/tune/__main__.py",
                "tools/__init__.py",
                "tools/tune/__init__.py",
            ],
        ),
        ("timeout 5 python3.12 -mtune", ["tune.py", "tune/__main__.py", "tune/__init__.py"]),
        ('python3 -m "$TOOL"', ["$TOOL"]),
    ],
)
def test_python_m_records_the_files_the_module_may_run(line, words):
    assert sorted(word for word, _, _ in _files(line)) == sorted(words)


@pytest.mark.parametrize(
    "text",
    ["if false; then bash x.sh; fi", "true || ./x.sh", "false && ./x.sh", "f() { ./x.sh; }"],
)
def test_a_script_file_on_a_dead_path_is_not_recorded(text):
    assert _files(text) == []


def test_a_script_file_behind_an_undecided_condition_is_recorded_as_undecided():
    assert _files('if [ -n "$X" ]; then ./x.sh; fi') == [("./x.sh", "x.sh", "undecided")]


def test_a_script_file_run_from_a_quoted_heredoc_script_is_recorded():
    assert _files("bash <<'EOF'\n./x.sh\nEOF") == [("./x.sh", "x.sh", "reached")]


def test_commands_of_a_heredoc_script_keep_their_own_line_numbers():
    run = evaluate(read_script("echo a\nbash <<'EOF'\necho b\n./x.sh\nEOF\n", "s.sh"), None)
    assert [(call.word, call.line) for call in run.script_files] == [("./x.sh", 4)]


def test_an_expanding_heredoc_fed_to_a_shell_makes_the_reading_incomplete():
    run = evaluate(read_script('bash <<EOF\n./x.sh "$Y"\nEOF\n', "s.sh"), None)
    assert not run.complete
    assert run.problems == ("s.sh:1: bash runs an expanding heredoc as its script",)


def test_an_external_program_is_recorded_by_its_name_never_by_the_file_it_reads():
    """`grep -q x ./x.sh` runs the `grep` PATH finds (a file the PR may add when the script
    puts its own directory there), and only reads ./x.sh."""
    assert _files("grep -q x ./x.sh") == [("grep", "grep", "reached")]


@pytest.mark.parametrize(
    "line",
    [
        'srun --jobid="$JOB_ID" --nodelist="$HOST" --ntasks=1 bash x.sh',
        'srun --jobid="$(squeue -h -o %A | head -n1)" bash x.sh',
        'timeout --signal="$SIG" 10 bash x.sh',
    ],
)
def test_a_wrapper_option_with_a_run_time_value_in_one_word_is_skipped_as_an_option(line):
    assert _files(line) == [("x.sh", "x.sh", "reached")]


def test_a_wrapper_option_whose_run_time_value_may_split_still_names_what_runs():
    """Unquoted, the value may split into more fields: one of them may be the program."""
    assert _files("srun --jobid=$JOB_ID bash x.sh")[0][1] == ""


def test_python_c_is_a_program_known_only_at_run_time_only_when_it_is_a_command_output():
    assert _files('python3 -c "$(curl -fsSL https://x.io/p.py)"') == [
        ("$(curl -fsSL https://x.io/p.py)", "", "reached")
    ]
    assert _files('python3 -c "open(\'$(dirname "$0")/x.yaml\')"') == []
    assert _files("python3 -c \"print('$VALUE')\"") == []


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("pip install ./a b/c aiperf==1.0", ["./a", "b/c"]),
        ("uv pip install -e '.[dev]'", ["."]),
        ("python3 -m pip install --editable=../pkg", ["../pkg"]),
        ("pip install --target /opt/x --no-deps aiperf", []),
        ("pip install git+https://github.com/x/y.git https://x.io/p/a.whl", []),
        # find-links: a directory whose packages install in place of the index's
        ("pip install -r req/a.txt -c c/b.txt --find-links w/h ./p", ["./p", "w/h"]),
        ("pip install ./fork@v1 pkg@git+https://x.io/y.git", ["./fork@v1"]),  # a path with @
        ("pip download ./p", ["./p"]),  # its metadata is built: its setup.py runs
        ("pip wheel ./p -w out", ["./p"]),  # -w: where it saves
        ("pip install --find-links=file:///w/h aiperf", ["/w/h"]),
        ("python3 -I -m build", ["."]),  # a PEP 517 build of the working directory
        ("pyproject-build -o dist ./p", ["./p"]),
        ("python3 -m pip install build", []),  # the package named build
    ],
)
def test_local_installs_are_recorded_with_the_directory_as_written(text, words):
    run = evaluate(read_script(text + "\n", "s.sh"), None)
    installed = [install for install in run.installs if install.loaded_by != FIRST_PATH_ENTRY]
    assert [install.word for install in installed] == words


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("apt install -y ./x.deb nginx", ["./x.deb"]),
        ("sudo apt-get install --no-install-recommends -o Dpkg::Opt=1 a/b.deb", ["a/b.deb"]),
        ("apt-get install -y x.deb curl", ["x.deb"]),  # named like a package file
        ("apt-get update", []),
        ("apt install https://x.io/a.deb", []),
        ("dpkg -i x.deb y.deb", ["x.deb", "y.deb"]),
        ("dpkg --install pkgs/x.deb", ["pkgs/x.deb"]),
        ("dpkg -R -i debs", ["debs"]),
        ("dpkg -x x.deb /", ["x.deb", "/"]),
        ("dpkg -l x", []),
        ("rpm -Uvh a/x.rpm", ["a/x.rpm"]),
        ("rpm -qa", []),
        ("dnf install -y --setopt=x=1 ./x.rpm vim", ["./x.rpm"]),
        ("yum localinstall x.rpm", ["x.rpm"]),
        ("apk add --allow-untrusted ./x.apk", ["./x.apk"]),
        ("apk add curl", []),
        ('apt install "$DEBS/x.deb"', ["$DEBS/x.deb"]),
    ],
)
def test_package_files_a_system_package_manager_installs_are_recorded(text, words):
    run = evaluate(read_script(text + "\n", "s.sh"), None)
    assert sorted(install.word for install in run.installs) == sorted(words)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("uv sync", ["."]),
        ("uv sync --project benchmarks/tool", ["benchmarks/tool"]),
        ("uv --directory=benchmarks/tool sync --frozen", ["benchmarks/tool"]),
        ("uv run -p 3.12 python3 x.py", ["."]),  # `-p` is uv's Python, not a directory
        ("uv run --no-project --with pyyaml --python 3.12 utils/x.py", []),
        ("uv run --no-project --with ./pkg python3 x.py", ["./pkg"]),
        ("uv run --script x.py", []),
        ("uvx --from ./tools/cli cli --help", ["./tools/cli"]),
        ("uvx ruff check .", []),
        ("uv tool install ./tools/cli", ["./tools/cli"]),
        ("uv tool install aiperf==1.0", []),
        ("uv add ../pkg requests", ["../pkg"]),
        ("poetry -C benchmarks/tool install --no-root", ["benchmarks/tool"]),
        ("poetry run python3 x.py", ["."]),  # it runs the scripts the manifest names
        ("pdm sync -p benchmarks/tool", ["benchmarks/tool"]),
        ("pipenv install", ["."]),
        ("pipenv install -e ./pkg", ["./pkg", "."]),
        ("hatch -e test run pytest", ["."]),
        ("hatch env show", []),
        ("pipx install ./tools/cli", ["./tools/cli"]),
        ("pipx install aiperf", []),
        ("pipx run --spec git+https://github.com/x/y.git y", []),
        # other languages' package managers run the project's own hooks
        ("npm ci", ["."]),
        ("npm install --prefix tools/ui", ["tools/ui"]),
        ("npm install ./tools/ui left-pad", ["./tools/ui", "."]),
        ("npm --version", []),
        ("yarn", ["."]),
        ("yarn --cwd tools/ui build", ["tools/ui"]),  # the project's script `build`
        ("yarn cache clean", []),
        ("pnpm -C tools/ui install", ["tools/ui"]),
        ("pnpm dev", ["."]),  # the project's script `dev`
        ("pnpm store prune", []),
        ("cargo build --release", ["."]),
        ("cargo run --manifest-path tools/x/Cargo.toml", ["tools/x"]),
        ("cargo install --path tools/x", ["tools/x"]),
        ("cargo install ripgrep", []),
        ("bundle install --gemfile tools/Gemfile", ["tools"]),
        ("gem install x-1.0.gem", ["x-1.0.gem"]),
        ("gem install rake", []),
        # Go builds (and runs, tests, generates from) the packages it is handed
        ("go run .", ["."]),
        ("go run ./cmd/x --port 1", ["./cmd/x"]),  # the rest are the program's arguments
        ("go run main.go util.go -v", ["main.go", "util.go"]),
        ("go test ./...", ["."]),
        ("go generate ./tools/...", ["./tools"]),
        ("go build -o /tmp/x", ["."]),  # none named: the current directory's
        ("go build -C tools/x -o /tmp/x ./cmd", ["tools/x/cmd"]),
        ("go install golang.org/x/tools/cmd/stringer@latest", []),
        ("go version", []),
        ("go env GOPATH", []),
        ("bun install", ["."]),
        # package runners run the package they are handed
        ("npx ./tools/cli --help", ["./tools/cli"]),
        ("npx -p ./tools/cli cli run", ["./tools/cli"]),
        ("npx --yes prettier --check .", []),
        ("pnpm dlx ./tools/cli", ["./tools/cli"]),
        ("yarn dlx --package ./tools/cli cli", ["./tools/cli"]),
        ("bunx ./tools/cli", ["./tools/cli"]),
        ("bunx cowsay hi", []),
        ("deno task build", ["."]),
        ("deno run tools/x.ts", []),  # a program file, not a project
        ("bun --cwd tools/ui run build", ["tools/ui"]),
    ],
)
def test_projects_a_project_manager_builds_are_recorded(text, words):
    run = evaluate(read_script(text + "\n", "s.sh"), None)
    installs = [i.word for i in run.installs if i.loaded_by != FIRST_PATH_ENTRY]
    assert sorted(installs) == sorted(words)


@pytest.mark.parametrize(
    ("text", "installs", "lists"),
    [
        ("conda install -y ./pkgs/engine-1.0.tar.bz2 numpy", ["./pkgs/engine-1.0.tar.bz2"], []),
        ("mamba install -c conda-forge engine-1.0.conda", ["engine-1.0.conda"], []),
        ("conda install -y -c conda-forge numpy", [], []),
        ("conda install https://x.io/a.tar.bz2", [], []),
        ("conda install --file envs/spec.txt", [], ["envs/spec.txt"]),
        ("conda env create -f envs/env.yml", [], ["envs/env.yml"]),
        ("micromamba create -y -n x -f=envs/env.yml", [], ["envs/env.yml"]),
        ("conda activate tilert", [], []),
        ("conda env list", [], []),
    ],
)
def test_conda_package_files_and_environment_files_are_recorded(text, installs, lists):
    run = evaluate(read_script(text + "\n", "s.sh"), None)
    assert sorted(install.word for install in run.installs) == sorted(installs)
    assert sorted(call.word for call in run.script_files) == sorted(lists)


@pytest.mark.parametrize(
    ("text", "root_files"),
    [
        ("pip install -e .", {"setup.py", "setup.cfg", "pyproject.toml"}),
        ("uv sync", {"uv.lock", "uv.toml", "pyproject.toml"}),
        ("npm ci", {"package.json", ".npmrc"}),
        ("cargo build", {"Cargo.toml", "build.rs", "src/**"}),
        ("go run .", {"go.mod", "**/*.go"}),
    ],
)
def test_a_local_install_records_the_files_its_tool_reads_at_a_project_s_root(text, root_files):
    (install,) = evaluate(read_script(text + "\n", "s.sh"), None).installs
    assert root_files <= set(install.root_files) and not install.loaded_by


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('export PYTHONPATH="$(dirname "$0")/lib:${PYTHONPATH:-}"', ['$(dirname "$0")/lib']),
        ("PYTHONPATH=a:b/c python3 x.py", ["a", "b/c"]),
        ('PYTHONPATH+=":tools/py"', ["tools/py"]),
        ("export PYTHONUSERBASE=/opt/u PYTHONHOME=py", ["/opt/u", "py"]),
        # given to the command a wrapper runs, known or not
        ("env -i PYTHONPATH=a LD_PRELOAD=b/l.so python3 x.py", ["a", "b/l.so"]),
        ('sudo -E PYTHONPATH="$(dirname "$0")/lib" python3 x.py', ['$(dirname "$0")/lib']),
        ('d=$(mktemp -d); export PYTHONPATH="$d${PYTHONPATH:+:$PYTHONPATH}"', []),
        ("export PYTHONPATH=", []),
        ("PYTHONDONTWRITEBYTECODE=1 python3 x.py", []),
        # all run-time text, but with a fallback the script wrote: that path when PP is unset
        ('export PYTHONPATH="${PP:-$(dirname "$0")/pp}"', ['${PP:-$(dirname "$0")/pp}']),
        ('export PYTHONPATH="${PP:-}"', []),
    ],
)
def test_directories_put_on_python_s_path_are_recorded_as_imports(text, words):
    run = evaluate(read_script(text + "\n", "s.sh"), None)
    put = [i.word for i in run.installs if i.loaded_by and i.loaded_by != FIRST_PATH_ENTRY]
    assert sorted(put) == sorted(words)


@pytest.mark.parametrize(
    ("text", "entries"),
    [
        ("python3 x.py", ["."]),
        ("python3 -u tools/x.py --port 1", ["tools"]),
        ('python3 "$(dirname "$0")/x.py"', ['$(dirname "$0")']),
        ("python3 -m sglang.launch_server", ["."]),
        ("python3 -Xdev -W ignore -c 'print(1)'", ["."]),
        ("python3 - <<'EOF'\nprint(1)\nEOF", ["."]),
        ("timeout 60 python3.12 -X dev tools/x.py", ["tools"]),
        ("python3 -I x.py", []),
        ("python3 -sP -m m", []),
        ('python3 "$TOOL"', []),
        ("docker run --rm img python3 x.py", []),
        ("for i in 1 2 3; do python3 x.py; done", ["."]),  # once
    ],
)
def test_python_s_first_path_entry_is_recorded_with_the_modules_that_count(text, entries):
    run = evaluate(read_script(text + "\n", "s.sh"), None)
    first = [i for i in run.installs if i.loaded_by == FIRST_PATH_ENTRY]
    assert [i.word for i in first] == entries
    assert all("*.py" in i.counted and "!**/test_*.py" in i.counted for i in first)


@pytest.mark.parametrize(
    ("text", "problem", "file"),
    [
        ("cat > /tmp/s/sitecustomize.py <<PY\nimport $MOD\nPY", "/tmp/s/sitecustomize.py", ""),
        # written as it stands: read as an inline Python program, its commands included
        ("cat > /tmp/s/sitecustomize.py <<'PY'\nimport os\nPY", "", ""),
        ("cat > /tmp/s/sitecustomize.py <<'PY'\nimport os\nos.system('bash x.sh')\nPY", "", "x.sh"),
        ("cp /tmp/a.py /tmp/s/sitecustomize.py", "", "/tmp/a.py"),
        ("echo 'import x' > /tmp/a.py; cp /tmp/a.py /tmp/s/sitecustomize.py", "/tmp/s/site", ""),
        ("echo 'import x' >> \"$SITE/x.pth\"", "$SITE/x.pth", ""),
        ("cp hooks/lm.py /tmp/s/sitecustomize.py", "", "hooks/lm.py"),
        ("cp hooks/lm.py /tmp/s/lm.py", "", ""),  # no start-up file
    ],
)
def test_a_python_startup_file_the_script_writes_runs_what_it_holds(text, problem, file):
    run = evaluate(read_script(text + "\n", "s.sh"), None)
    written = [p for p in run.problems if "Python code every Python started later runs" in p]
    assert bool(written) == bool(problem) and all(problem in p for p in written)
    assert [call.word for call in run.script_files] == ([file] if file else [])


def test_a_local_install_records_where_each_path_s_cd_went():
    text = 'cd /opt\nif [ -n "$X" ]; then cd a; else cd b/c; fi\n(cd /tmp)\npip install .\n'
    run = evaluate(read_script(text, "s.sh"), None)
    assert [sorted(install.directories) for install in run.installs] == [["/opt/a", "/opt/b/c"]]
    popped = evaluate(read_script("pushd x\npopd\npip install .\n", "s.sh"), None)
    assert [install.directories for install in popped.installs] == [()]


@pytest.mark.parametrize(
    ("launch", "words"),
    [
        (
            "vllm serve m --worker-cls tools.ext.W",
            [
                "tools.py",
                "tools/__init__.py",
                "tools/ext.py",
                "tools/ext/__init__.py",
                "tools/ext/W.py",
                "tools/ext/W/__init__.py",
            ],
        ),
        (
            "vllm serve m --logits-processors a.X b.Y --port 1",
            [
                "a.py",
                "a/__init__.py",
                "a/X.py",
                "a/X/__init__.py",
                "b.py",
                "b/__init__.py",
                "b/Y.py",
                "b/Y/__init__.py",
            ],
        ),
        (
            'vllm serve m --kv-transfer-config \'{"kv_connector_module_path": "k"}\'',
            ["k.py", "k/__init__.py"],
        ),
        ('vllm serve m --worker-cls "$CLS"', ["$CLS"]),
        ("vllm serve m --distributed-executor-backend 'not a name'", []),
    ],
)
def test_engine_flags_naming_python_code_record_its_files(launch, words):
    assert sorted(word for word, _, _ in _files(launch)) == sorted(words)


@pytest.mark.parametrize(
    ("text", "images"),
    [
        ("docker run --rm -e A=1 --gpus all x/vllm:1 bash -c 'true'", ["x/vllm:1"]),
        ("srun -N 1 --container-image=x/vllm:1 --container-mounts=/a:/a hostname", ["x/vllm:1"]),
        ("srun --container-image x/vllm:1 hostname", ["x/vllm:1"]),
        ('srun --container-image="$SQ" hostname', ["$SQ"]),
        ("srun --container-image=/data/x.sqsh hostname", []),
        ("srun --jobid=3 enroot import -o /tmp/a.sqsh docker://x/vllm:1", ["docker://x/vllm:1"]),
        (
            "enroot import --output /tmp/a.sqsh -a arm64 'docker://nvcr.io#x/y:2'",
            ["docker://nvcr.io#x/y:2"],
        ),
        ("enroot create -n c /tmp/a.sqsh", []),
        ("apptainer exec --nv -B /a:/a docker://x/vllm:1 true", ["docker://x/vllm:1"]),
        ("singularity exec /opt/v.sif true", []),
        ("apptainer build /tmp/v.sif docker://x/vllm:1", ["docker://x/vllm:1"]),
        ("apptainer instance start --nv docker://x/vllm:1 srv", ["docker://x/vllm:1"]),
        ("srun --jobid=3 hostname", []),
    ],
)
def test_container_runs_record_the_image_they_run(text, images):
    run = evaluate(read_script(text + "\n", "s.sh"), None)
    assert [one.word for one in run.containers] == images


@pytest.mark.parametrize(
    "line",
    [
        'timeout 600 bash -c "vllm serve m --port 1"',
        'srun --jobid=$JOB --ntasks=1 bash -c "vllm serve m --port 1"',
        'env A=1 sudo -E bash -c "vllm serve m --port 1"',
        'numactl --interleave=all sh -c "vllm serve m --port 1"',
    ],
)
def test_a_shell_string_behind_wrappers_is_read_as_the_host_runs_it(line):
    run = evaluate(read_script(line + "\n", "s.sh"), None)
    assert [launch.command for launch in run.launches] == ["vllm serve"]
    assert run.complete


def test_a_shell_string_a_container_runs_is_not_read_as_this_host_s():
    run = evaluate(read_script('docker run --rm "$IMAGE" bash -c "vllm serve m"\n', "s.sh"), None)
    assert run.launches == ()  # it runs in the image, and is judged as such


@pytest.mark.parametrize(
    "line",
    [
        "echo m | xargs -I{} bash -c 'vllm serve {}'",
        "find . -name m -exec sh -c 'vllm serve {}' \\;",
        "parallel 'vllm serve {}' ::: m",
    ],
)
def test_a_handed_string_with_a_replace_string_is_known_only_at_run_time(line):
    run = evaluate(read_script(line + "\n", "s.sh"), None)
    assert run.launches == () and not run.complete


@pytest.mark.parametrize(
    "line",
    [
        "ssh -p 2222 -i key node1 'vllm serve m --port 1'",
        "ssh node1 vllm serve m --port 1",
        "echo x | xargs -n 1 -P 2 bash -c 'vllm serve m --port 1'",
        "find . -maxdepth 0 -execdir bash -lc 'vllm serve m --port 1' \\;",
        "parallel -j 2 'vllm serve m --port' ::: 1",
        "parallel ::: 'echo hi' 'vllm serve m --port 1'",
        "python3 -c \"import os; os.system('vllm serve m --port 1')\"",
        "timeout 60 python3 -uc \"import subprocess as sp; sp.run(['vllm', 'serve', 'm'])\"",
        "python3 -c \"from subprocess import Popen as P; P('vllm serve m', shell=True)\"",
        # a literal program the program runs
        'python3 -c "exec(\\"import os; os.system(\'vllm serve m --port 1\')\\")"',
        # the Python running the program, by name
        "python3 -c \"import subprocess, sys; subprocess.call([sys.executable, '-m', 'vllm.entrypoints.openai.api_server'])\"",
    ],
)
def test_code_handed_to_ssh_xargs_find_parallel_or_python_is_read_as_a_command_line(line):
    run = evaluate(read_script(line + "\n", "s.sh"), None)
    assert [launch.engine for launch in run.launches] == ["vllm"]
    assert run.complete


@pytest.mark.parametrize(
    "line",
    [
        "ssh -o BatchMode=yes node1",  # a login shell: no command given
        "python3 -c 'import asyncio; asyncio.run(main())'",  # not subprocess's run
        "python3 -c 'print(1)'",
        "python3 -c 'def f(:'",  # not Python: runs nothing
    ],
)
def test_handed_code_giving_no_command_reads_none(line):
    run = evaluate(read_script(line + "\n", "s.sh"), None)
    assert run.launches == () and run.complete


def test_a_heredoc_ssh_hands_the_remote_shell_is_read_as_its_script():
    run = evaluate(
        read_script("ssh node1 <<'EOF'\ncd /w\nvllm serve m --port 1\nEOF\n", "s.sh"), None
    )
    assert [(launch.command, launch.line) for launch in run.launches] == [("vllm serve", 3)]
    expanding = evaluate(read_script("ssh node1 <<EOF\nvllm serve $M\nEOF\n", "s.sh"), None)
    assert not expanding.complete  # expanded here, then read again there


@pytest.mark.parametrize(
    "text",
    [
        "python3 - <<'EOF'\nimport os\nos.system('vllm serve m --port 1')\nEOF\n",
        "timeout 9 python3 <<EOF\nimport subprocess\nsubprocess.run(['vllm', 'serve', 'm'])\nEOF\n",
    ],
)
def test_a_python_heredoc_program_s_commands_are_read(text):
    run = evaluate(read_script(text, "s.sh"), None)
    assert [launch.command for launch in run.launches] == ["vllm serve"]


def test_a_heredoc_python_does_not_run_is_no_program():
    text = "python3 x.py <<'EOF'\nos.system('vllm serve m')\nEOF\n"  # x.py's standard input
    assert evaluate(read_script(text, "s.sh"), None).launches == ()


def test_python_evaluating_data_at_run_time_runs_no_command():
    # InferenceX's AMD server script evaluates formulas from its models file
    text = "python3 -c \"print(int(eval(s, {'__builtins__': {}}, ns)))\"\n"
    run = evaluate(read_script(text, "s.sh"), None)
    assert run.launches == () and run.complete


@pytest.mark.parametrize(
    "program",
    [
        "import os; os.system(f'vllm serve {m}')",
        "import os; os.execvp('vllm', ['vllm', 'serve', 'm'])",
    ],
)
def test_a_command_python_builds_at_run_time_makes_the_reading_incomplete(program):
    run = evaluate(read_script(f'python3 -c "{program}"\n', "s.sh"), None)
    assert not run.complete


@pytest.mark.parametrize(
    "line",
    [
        'su svc -c "vllm serve m --port 1"',
        'runuser -u svc -- bash -c "vllm serve m --port 1"',
        'flock /tmp/l -c "vllm serve m --port 1"',
        'script -qc "vllm serve m --port 1" /dev/null',
        'srun -p gpu -N 1 --gres gpu:8 bash -c "vllm serve m --port 1"',
    ],
)
def test_a_string_a_command_hands_to_sh_c_is_read_as_code(line):
    run = evaluate(read_script(line + "\n", "s.sh"), None)
    assert [launch.command for launch in run.launches] == ["vllm serve"]


def test_exec_of_a_shell_string_reads_the_string_and_ends_the_script():
    run = evaluate(
        read_script('exec bash -c "vllm serve m --port 1"\nvllm serve n\n', "s.sh"), None
    )
    assert [(launch.command, launch.line) for launch in run.launches] == [("vllm serve", 1)]


def test_a_command_substitution_in_a_prefix_assignment_is_read():
    """`X=$(cmd) prog`: the substitution runs before prog, and is read as any other is (it was
    looked up at the word's start, not the value's, and reported unreadable)."""
    run = evaluate(read_script('X="$(bash ./x.sh)" vllm serve m --tp "$X"\n', "s.sh"), None)
    assert run.problems == ()
    assert [call.word for call in run.script_files] == ["./x.sh"]
    assert [launch.command for launch in run.launches] == ["vllm serve"]


def test_a_command_substitution_in_an_array_subscript_is_read():
    run = evaluate(read_script("declare -A m; m[$(bash ./k.sh)]=v\n", "s.sh"), None)
    assert run.problems == () and [call.word for call in run.script_files] == ["./k.sh"]


def test_a_python_path_of_more_entries_than_the_bound_makes_the_reading_incomplete():
    text = "export PYTHONPATH=" + ":".join(f"d{i}" for i in range(100)) + "\n"
    run = evaluate(read_script(text, "s.sh"), None)
    assert len([i for i in run.installs if i.loaded_by]) == 64
    assert run.problems == ("s.sh:1: PYTHONPATH names more than 64 entries, which signoff does "
                            "not follow",)  # fmt: skip


def test_python_run_from_more_directories_than_the_bound_makes_the_reading_incomplete():
    text = "".join(f"python3 tools/p{i}/run.py\n" for i in range(MAX_FIRST_ENTRIES + 1))
    run = evaluate(read_script(text, "s.sh"), None)
    first = [i for i in run.installs if i.loaded_by == FIRST_PATH_ENTRY]
    assert len(first) == MAX_FIRST_ENTRIES
    assert any(f"more than {MAX_FIRST_ENTRIES} directories" in p for p in run.problems)
