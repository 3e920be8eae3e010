"""One evidence bundle judged under every era: which checks run, how each era numbers and names
them, and which rule switches were in force (and what they change in the verdict)."""

from __future__ import annotations

import pytest
from builders import build, passing_parts, replace_file, with_models_md

from signoff.judge import judge
from signoff.standards import resolve_standard

# (number, id, row name) as each era printed them; written out here, not read from the data.
E4_ROWS = [
    (0, "codeowner", "CODEOWNER"),
    (1, "sweep", "sweep on in-PR commit"),
    (2, "evals", "evals pass"),
    (3, "recipe", "recipe link"),
    (4, "reuse-command", "reuse command"),
    (5, "latest-template", "latest checklist template"),
    (6, "upstream-image", "upstream image / engine-first"),
    (7, "no-arch-hacks", "no architecture hacks"),
    (8, "spec-chat-template", "spec-decode chat template"),
]
E1_ROWS = [
    (1, "sweep", "sweep + evals on in-PR commit"),
    (2, "evals", "evals pass"),
    (3, "recipe", "recipe linked & complete"),
]
E7_ROWS = [
    *E4_ROWS[:3],
    (3, "recipe", "recipe linked, MERGED, complete"),
    *E4_ROWS[4:7],
    (7, "deprecated-models", "deprecated models/scenarios"),
    (8, "no-arch-hacks", "no architecture hacks"),
    (9, "spec-chat-template", "spec-decode chat template"),
    (10, "engine-patches", "no engine patches without waiver"),
    (11, "agentic-golden-al", "agentic golden synthetic AL"),
]

SWITCH_PRS = ["#1904", "#1908", "#1992", "#2030", "#2210", "#1947", "#2330", "#2667"]

ERAS = {
    # era: (rows, switch PRs in force in its final form, outcome)
    "E1": (E1_ROWS, [], "REJECTED"),
    "E2": ([(0, "codeowner", "CODEOWNER"), *E1_ROWS], SWITCH_PRS[:2], "PASS"),
    "E3": (
        [(0, "codeowner", "CODEOWNER"), *E1_ROWS, (4, "reuse-command", "reuse-sweep-run posted")],
        SWITCH_PRS[:3],
        "PASS",
    ),
    "E4": (E4_ROWS, SWITCH_PRS[:4], "PASS"),
    "E5": (
        [*E4_ROWS, (9, "engine-patches", "no engine patches without waiver")],
        SWITCH_PRS[:4],
        "PASS",
    ),
    "E6": (
        [
            *E4_ROWS,
            (9, "engine-patches", "no engine patches without waiver"),
            (10, "agentic-golden-al", "agentic golden synthetic AL"),
        ],
        SWITCH_PRS[:7],
        "PASS",
    ),
    "E7": (E7_ROWS, SWITCH_PRS[:7], "PASS"),
    # E8 ended when E9 began (2026-09-19): #3155, #3164 and #3192 were made inside it.
    "E8": (
        [*E7_ROWS, (12, "append-only", "append-only additive")],
        [*SWITCH_PRS, "#3155 (day only)", "#3164 (day only)", "#3192 (day only)"],
        "PASS",
    ),
}


def full_bundle(era: str = "E8") -> dict:
    """The passing PR with what every era reads: MODELS.md and the pre-July-16 thresholds.json;
    before #1992 (E1, E2) the master configs lived under .github/configs/, so they move there."""
    parts = with_models_md(passing_parts())
    bars = '{"default": {"gsm8k": 0.90}, "models": {"dsv4": {"gsm8k": 0.91}}}'
    replace_file(parts, "utils/evals/thresholds.json", "default", bars)
    if era in ("E1", "E2"):
        _move_master_configs(parts, ".github/configs/")
    return parts


def _move_master_configs(parts: dict, prefix: str) -> None:
    for record in (*parts["changed_files"], *parts["files"]):
        if record["path"].startswith("configs/") and record["path"].endswith("-master.yaml"):
            record["path"] = prefix + record["path"].removeprefix("configs/")


@pytest.mark.parametrize("era", sorted(ERAS))
def test_the_same_bundle_judged_under_each_era(policy, era):
    rows, switches, outcome = ERAS[era]
    standard = resolve_standard(era, policy)
    verdict = judge(build(full_bundle(era)), policy, standard)
    assert [(c.number, c.id, c.name) for c in verdict.checks] == rows
    assert [line.split(": ", 1)[0].split(" ", 1)[1] for line in standard.applied] == switches
    assert verdict.outcome == outcome
    assert verdict.standard is not None and verdict.standard.era == era


def test_e1_compares_every_launch_flag_with_the_recipe_before_1908(policy):
    verdict = judge(build(full_bundle("E1")), policy, resolve_standard("E1", policy))
    recipe = next(c for c in verdict.checks if c.id == "recipe")
    assert recipe.status == "FAIL" and "--host" in recipe.reason  # plumbing counted in E1
    e2 = judge(build(full_bundle("E2")), policy, resolve_standard("E2", policy))
    assert next(c for c in e2.checks if c.id == "recipe").status == "PASS"


def test_before_1904_catch_all_paths_needed_the_signer_to_own_them(policy):
    strict = resolve_standard("at:2026-06-23T18:30:00Z", policy)  # E2's first 15 minutes
    verdict = judge(build(full_bundle()), policy, strict)
    codeowner = next(c for c in verdict.checks if c.id == "codeowner")
    assert codeowner.status == "FAIL" and "@InferenceX/core" in codeowner.reason


def test_e4_and_e5_read_thresholds_json_and_later_eras_thresholds_yaml(policy):
    parts = full_bundle()
    replace_file(parts, "utils/evals/thresholds.json", "default", None, state="missing")
    for era, status in (("E4", "FAIL"), ("E5", "FAIL"), ("E6", "PASS"), ("E8", "PASS")):
        verdict = judge(build(parts), policy, resolve_standard(era, policy))
        assert next(c for c in verdict.checks if c.id == "evals").status == status, era


def test_before_2210_an_open_upstream_recipe_pr_was_accepted(policy):
    parts = full_bundle()
    parts["upstream"][0].update(state="open", merged_at=None)
    for spec, status in (("E5", "PASS"), ("E6", "FAIL"), ("0-8", "FAIL")):
        verdict = judge(build(parts), policy, resolve_standard(spec, policy))
        assert next(c for c in verdict.checks if c.id == "recipe").status == status, spec
