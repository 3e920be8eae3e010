"""The developer tools that need ghemu (the recorders, bench_audit, bench_latency) say in one
line what is missing and where it is expected, instead of a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "cassettes"))

from recording.emulator import TOOLS, require_ghemu  # noqa: E402


def test_a_missing_emulator_is_one_line_naming_where_it_is_expected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        require_ghemu(tmp_path / "tools")
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(tmp_path / "tools" / "ghemu") in err
    assert "docs/development.md" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("gql_imports", "expected"),
    [
        ("graphql.language", "graphql is missing (pip install graphql-core)"),
        ("not_installed_here", "not_installed_here is missing (pip install not_installed_here)"),
    ],
)
def test_an_emulator_whose_graphql_module_cannot_import_says_how_to_install_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    gql_imports: str,
    expected: str,
) -> None:
    # ghemu imports its GraphQL module lazily, so `import ghemu` alone succeeds without
    # graphql-core and every GraphQL read would then be a 500.
    fake = tmp_path / "tools" / "ghemu"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "gql.py").write_text(f"import {gql_imports}\n")
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    for name in ("ghemu", "ghemu.gql", "graphql", "graphql.language"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setitem(sys.modules, "graphql", None)  # as if graphql-core were not installed
    with pytest.raises(SystemExit) as stop:
        require_ghemu(tmp_path / "tools")
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1


def test_the_bench_run_from_a_checkout_without_the_workspace_stops_with_that_line(
    tmp_path: Path,
) -> None:
    # A copy of the tool and its helper where ../shared/tools does not exist.
    (tmp_path / "repo" / "cassettes" / "recording").mkdir(parents=True)
    (tmp_path / "repo" / "tests" / "bench").mkdir(parents=True)
    for part in (
        "cassettes/recording/__init__.py",
        "cassettes/recording/emulator.py",
        "tests/bench/bench_audit.py",
    ):
        (tmp_path / "repo" / part).write_text((ROOT / part).read_text(encoding="utf-8"))
    done = subprocess.run(
        [sys.executable, str(tmp_path / "repo" / "tests" / "bench" / "bench_audit.py")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "needs ghemu" in done.stderr, done.stderr
    assert TOOLS.name == "tools"
