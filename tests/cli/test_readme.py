"""The README is a front page that works: its first two commands are the quick start (the second
is what CI runs), its minimal workflow lints clean and pins a real release, its links resolve,
and nothing of the documentation is left without a home in docs/."""

from __future__ import annotations

import json
import re
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml
from test_action_yml import PINNED, assert_ignores_explained, lint, zizmor

from signoff.judge import registry

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
TEXT = README.read_text(encoding="utf-8")
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]

# Node 24 releases, each checked in the action's own repository: the tag's commit and its
# action.yml's `runs.using: node24`.
NODE24_PINS = {
    "actions/setup-python": ("5fda3b95a4ea91299a34e894583c3862153e4b97", "v7.0.0"),
    "actions/checkout": ("3d3c42e5aac5ba805825da76410c181273ba90b1", "v7.0.1"),
    "actions/cache": ("27d5ce7f107fe9357f9df03efb73ab90386fccae", "v5.0.5"),
    "actions/upload-artifact": ("bbbca2ddaa5d8feaa63e36b76fdaad77386f024f", "v7.0.0"),
    "actions/download-artifact": ("3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c", "v8.0.1"),
}


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)\n```", text, re.S)


def test_the_first_two_commands_are_the_quick_start_and_ci_runs_the_second_verbatim() -> None:
    first, second = blocks(TEXT, "bash")[:2]
    assert TEXT.index(first) < TEXT.index("## Minimal workflow")
    demo = json.loads((ROOT / "cassettes" / "demo.json").read_text(encoding="utf-8"))
    assert first == (
        "python3 -m venv .venv && .venv/bin/pip install -q '.[replay]' && .venv/bin/"
        + demo["command"]
    )
    assert (
        second
        == "python3 -m venv .venv && .venv/bin/pip install -q '.[test]' && .venv/bin/python -m pytest"
    )
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert second in ci
    # Nothing but comments and `set` runs before it: CI runs the README's command first.
    before = ci[: ci.index(second)]
    assert all(not line.strip() or line.startswith(("#", "set ", "cd ")) for line in before)


def test_the_front_page_stays_under_20_kb() -> None:
    assert len(README.read_bytes()) <= 20 * 1024


def _minimal_workflow(tmp_path: Path) -> Path:
    (block,) = blocks(TEXT.split("## Minimal workflow", 1)[1].split("\n## ", 1)[0], "yaml")
    folder = tmp_path / ".github" / "workflows"
    folder.mkdir(parents=True)
    path = folder / "codeowner-signoff-verify.yml"
    path.write_text(block + "\n", encoding="utf-8")
    return path


def test_the_minimal_workflow_is_short_and_passes_actionlint_and_zizmor(tmp_path: Path) -> None:
    path = _minimal_workflow(tmp_path)
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 22
    result = lint(ROOT, str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    result = zizmor(str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert_ignores_explained(path)
    job = yaml.safe_load(path.read_text(encoding="utf-8"))["jobs"]["verify"]
    assert set(job["permissions"]) == {
        "contents", "pull-requests", "issues", "actions", "checks", "statuses"
    }  # fmt: skip


def test_the_examples_pin_signoff_to_this_version_by_full_sha_and_the_changelog_has_it(
    tmp_path: Path,
) -> None:
    pins = set()
    for path in [README, *DOCS]:
        for sha, version in re.findall(
            r"SemiAnalysisAI/signoff@([0-9a-f]{40}) # (v\S+)", path.read_text(encoding="utf-8")
        ):
            pins.add((sha, version))
        pins.update(re.findall(r"ref: ([0-9a-f]{40}) # (v\S+)", path.read_text(encoding="utf-8")))
    assert len(pins) == 1, pins  # one release everywhere
    ((sha, version),) = pins
    assert version == f"v{VERSION}"
    assert f"## [{VERSION}]" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    _assert_is_a_commit_of_this_repository_with_the_action(sha)


def _assert_is_a_commit_of_this_repository_with_the_action(sha: str) -> None:
    """The pinned SHA is a release of this repository: a commit holding action.yml whose
    pyproject.toml carries this version (looked up where the checkout has its history)."""

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)

    if git("rev-parse", "--is-shallow-repository").stdout.strip() != "false":
        pytest.skip("not a full git checkout: the pinned commit cannot be looked up")
    assert git("cat-file", "-e", f"{sha}:action.yml").returncode == 0, (
        f"{sha} is no commit of this repository with action.yml"
    )
    pyproject = git("show", f"{sha}:pyproject.toml").stdout
    assert f'version = "{VERSION}"' in pyproject, f"{sha} is not version {VERSION}"


def test_every_action_pinned_anywhere_is_its_node24_release_by_full_sha() -> None:
    seen = set()
    for path in [ROOT / "action.yml", README, *DOCS]:
        for name, sha, version in re.findall(
            r"(actions/[\w-]+)@(\S+) # (v[\d.]+)", path.read_text(encoding="utf-8")
        ):
            assert PINNED.match(f"{name}@{sha}"), (path.name, name, sha)
            assert (sha, version) == NODE24_PINS[name], (path.name, name)
            seen.add(name)
    assert seen == set(NODE24_PINS)


def test_the_permissions_table_names_every_permission_and_says_the_block_spares_app_tokens() -> (
    None
):
    section = TEXT.split("## Permissions", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")][1:]
    names = {row.split("|")[1].strip() for row in rows}
    assert {
        "Contents", "Pull requests", "Issues", "Commit statuses", "Actions", "Checks",
        "Members (organization)", "Metadata",
    } <= names  # fmt: skip
    assert "permissions:` block does not apply to an App token" in " ".join(section.split())


def test_the_checks_table_lists_every_check_of_the_default_standard(policy: object) -> None:
    from signoff.standards import resolve_standard

    section = TEXT.split("## What it checks", 1)[1].split("\n## ", 1)[0]
    for slot in resolve_standard(None, policy).checks:  # type: ignore[arg-type]
        assert f"| {slot.number} | `{slot.id}` |" in section, slot.id
    for check_id in registry.CHECKS:
        assert f"`{check_id}`" in section, check_id


def _anchors(path: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    found = set()
    for heading in re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


def test_every_relative_link_in_the_readme_and_docs_resolves_to_a_file_and_heading() -> None:
    for path in [README, *DOCS, ROOT / "SECURITY.md", ROOT / "CHANGELOG.md"]:
        text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            resolved = (path.parent / file).resolve() if file else path
            assert resolved.exists(), (path.name, target)
            if anchor:
                assert anchor in _anchors(resolved), (path.name, target)


def test_each_docs_page_links_back_to_the_readme_and_to_every_other_page() -> None:
    for page in DOCS:
        text = page.read_text(encoding="utf-8")
        assert "](../README.md)" in text, page.name
        for other in DOCS:
            assert f"]({other.name})" in text, (page.name, other.name)


def test_the_license_is_the_apache_2_0_text_pyproject_declares() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text
    assert 'license = { text = "Apache-2.0" }' in (ROOT / "pyproject.toml").read_text()


def test_security_md_says_how_to_report_a_bypass_privately() -> None:
    text = (ROOT / "SECURITY.md").read_text(encoding="utf-8")
    assert "Report a vulnerability" in text and "bypass" in text
