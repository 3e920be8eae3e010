"""What the audit tests share: the recorded 48-PR history audited once through the CLI, as a
user runs it on a terminal (each replay of it costs seconds; three tests read the same run)."""

from __future__ import annotations

import io
import os
from contextlib import redirect_stderr, redirect_stdout

import pytest
from cassette_helpers import AUDIT_CASSETTES, CliRun, audit_info

import signoff.audit.run as run_module
from signoff.audit.progress import Silent
from signoff.audit.run import default_cache_dir
from signoff.cli import main

REPO = "SemiAnalysisAI/InferenceX"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(scope="session")
def history_cli_run(tmp_path_factory: pytest.TempPathFactory) -> CliRun:
    """`signoff audit` over cassettes/audit/history.yaml: no --cache-dir, four workers, CSV to
    a file, stderr a terminal (the progress drawing silenced), HOME in a temporary folder."""
    tmp = tmp_path_factory.mktemp("history-cli")
    home, out = tmp / "home", tmp / "audit.csv"
    args = audit_info("history")["args"]
    argv = ["audit", REPO, "--since", args["since"], "--until", args["until"]]
    argv += ["--replay", str(AUDIT_CASSETTES / "history.yaml"), "--jobs", "4"]
    argv += ["--format", "csv", "--out", str(out)]
    stdout, stderr = io.StringIO(), _Terminal()
    with pytest.MonkeyPatch.context() as patch:
        for name in list(os.environ):  # as the `scrubbed` fixture does for each test
            if name.startswith(("GITHUB_", "GH_", "INPUT_", "RUNNER_", "SIGNOFF_", "ACTIONS_")):
                patch.delenv(name)
        patch.setenv("HOME", str(home))
        patch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
        patch.setattr(run_module, "reporter", lambda *a, **k: Silent())
        default_cache = default_cache_dir(None)
        with redirect_stdout(stdout), redirect_stderr(stderr):
            code = main(argv)
    return CliRun(code, stdout.getvalue(), stderr.getvalue(), out, home, default_cache)
