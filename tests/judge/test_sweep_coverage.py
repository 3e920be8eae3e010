"""Check 1 counts a sweep only for the master-config entries the PR's changelog made it run.

run-sweep.yml benchmarks what the PR's new perf-changelog.yaml entries select; a PR that changes
one entry and lists a sibling gets a green run (and the sibling's passing evals for the same
model prefix) without its change ever being measured.
"""

from __future__ import annotations

from typing import Any

from builders import changelog_patch, passing_parts, select_in_changelog
from cassette_helpers import replay_verify

from signoff.parse.inferencex.changelog import appended_entries

MASTER = "configs/nvidia-master.yaml"
CHANGELOG = "perf-changelog.yaml"
EXISTING = "dsv4-fp4-b200-vllm"
NEW = "dsv4-fp4-b200-vllm-mtp"


def _retag_existing(parts: dict[str, Any]) -> dict[str, Any]:
    """The PR also moves the existing entry to another upstream vLLM tag."""
    head = next(f for f in parts["files"] if f["path"] == MASTER and f["role"] == "head")
    old = f"{EXISTING}:\n  image: vllm/vllm-openai:v0.11.1\n"
    assert old in head["text"]
    head["text"] = head["text"].replace(old, f"{EXISTING}:\n  image: vllm/vllm-openai:v0.12.0\n")
    return parts


def _changelog(parts: dict[str, Any], added: str) -> dict[str, Any]:
    changed = next(f for f in parts["changed_files"] if f["path"] == CHANGELOG)
    changed["patch"] = changelog_patch(added)
    return parts


def test_a_changed_entry_no_new_changelog_entry_selects_fails_check_1_naming_it(check) -> None:
    result = check(_retag_existing(passing_parts()), "sweep")
    assert result.status == "FAIL"
    assert f"`{EXISTING}` is changed in {MASTER}" in result.reason
    assert "the sweep never benchmarked it" in result.reason
    assert check(_retag_existing(passing_parts()), "evals").status == "FAIL"


def test_selecting_the_changed_entry_too_lets_the_sweep_count(check) -> None:
    parts = select_in_changelog(_retag_existing(passing_parts()), NEW, EXISTING)
    assert check(parts, "sweep").status == "PASS"


def test_a_star_selects_every_key_it_matches_in_full(check) -> None:
    parts = select_in_changelog(_retag_existing(passing_parts()), "dsv4-fp4-b200-*")
    assert check(parts, "sweep").status == "PASS"
    parts = select_in_changelog(_retag_existing(passing_parts()), NEW, "dsv4-fp4-b200")
    assert check(parts, "sweep").status == "FAIL"


def test_only_star_is_a_wildcard_as_process_changelog_resolves_keys(check) -> None:
    # fnmatch would read `?` as any character and select both; process_changelog.py does not.
    parts = select_in_changelog(_retag_existing(passing_parts()), NEW, "dsv4-fp4-b200-vll?")
    result = check(parts, "sweep")
    assert result.status == "FAIL" and f"`{EXISTING}`" in result.reason


def test_an_evals_only_or_all_evals_entry_runs_no_throughput_for_what_it_selects(check) -> None:
    for flag in ("evals-only", "all-evals"):
        added = (
            f"- config-keys:\n    - {NEW}\n  description:\n    - MTP\n  pr-link: XXX\n"
            f"- config-keys:\n    - {EXISTING}\n  description:\n    - retag\n  pr-link: XXX\n"
            f"  {flag}: true\n"
        )
        result = check(_changelog(_retag_existing(passing_parts()), added), "sweep")
        assert result.status == "FAIL" and f"`{EXISTING}`" in result.reason, flag


def test_a_scenario_type_limit_must_cover_every_scenario_the_change_reaches(check) -> None:
    added = (
        f"- config-keys:\n    - {NEW}\n    - {EXISTING}\n  description:\n    - x\n"
        "  pr-link: XXX\n  scenario-type:\n    - agentic-coding\n"
    )
    result = check(_changelog(_retag_existing(passing_parts()), added), "sweep")
    assert result.status == "FAIL"
    assert "fixed-seq-len scenario changed" in result.reason
    assert "run only agentic-coding" in result.reason
    fixed = added.replace("agentic-coding", "fixed-seq-len")
    assert check(_changelog(_retag_existing(passing_parts()), fixed), "sweep").status == "PASS"


def test_no_changelog_change_or_no_patch_without_its_texts_fails_closed(check) -> None:
    parts = passing_parts()
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != CHANGELOG]
    result = check(parts, "sweep")
    assert result.status == "FAIL" and f"the PR adds no {CHANGELOG} entry" in result.reason
    parts = passing_parts()
    next(f for f in parts["changed_files"] if f["path"] == CHANGELOG)["patch"] = None
    result = check(parts, "sweep")
    assert result.status == "FAIL"
    assert "GitHub sent no patch and its texts were not read" in result.reason


def test_appended_changelog_entries_are_read_from_the_texts_when_only_appended() -> None:
    base = "- config-keys:\n    - a\n  description:\n    - x\n  pr-link: XXX\n"
    added = "- config-keys:\n    - b-*\n  description:\n    - y\n  pr-link: XXX\n"
    new = appended_entries(base, base + added, CHANGELOG)
    assert new.problems == () and [e.config_keys for e in new.entries] == [("b-*",)]
    assert new.entries[0].line == 6
    edited = appended_entries(base, base.replace("- a", "- c") + added, CHANGELOG)
    assert edited.entries == () and "does not only append" in edited.problems[0]
    unterminated = appended_entries(base.rstrip("\n"), base + added, CHANGELOG)
    assert unterminated.entries == () and unterminated.problems


def test_a_recorded_pr_that_retags_an_entry_it_does_not_sweep_is_rejected() -> None:
    verdict = replay_verify("unswept_entry").outcome.verdict
    assert verdict is not None and verdict.outcome == "REJECTED"
    failing = {c.number: c.reason for c in verdict.checks if c.status == "FAIL"}
    assert set(failing) == {1, 2}
    assert f"`{EXISTING}` is changed in {MASTER}" in failing[1]


def test_past_the_file_caps_the_changelog_is_read_at_base_and_head_instead_of_its_patch() -> None:
    replayed = replay_verify("beyond_caps")
    # (both ride in one GraphQL texts query)
    changelog = [(r.role, r.state) for r in replayed.evidence.files if r.path == CHANGELOG]
    assert sorted(changelog) == [("base", "ok"), ("head", "ok")]
    assert not any(f"/contents/{CHANGELOG}" in uri for uri in replayed.requests)
    verdict = replayed.outcome.verdict
    assert verdict is not None and verdict.outcome == "PASS"
