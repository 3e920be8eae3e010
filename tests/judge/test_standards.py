"""Standards as data: resolving a spec, era boundaries, rule switches, row names, bad input."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from signoff.errors import InputError, PolicyError
from signoff.judge.registry import CHECKS
from signoff.policy import load_policy
from signoff.standards import load_standards, resolve_standard, standard_at

ROOT = Path(__file__).resolve().parents[2]
STANDARDS = ROOT / "checklists" / "inferencex-standards.yaml"


def numbered(standard):
    return [(slot.number, slot.id) for slot in standard.checks]


def test_the_default_standard_is_the_check_0_to_8_verdict(policy):
    standard = resolve_standard(None, policy)
    assert standard.spec == "0-8" and standard.era is None
    assert [slot.number for slot in standard.checks] == list(range(9))
    assert standard.checks[3].name == "recipe"


def test_an_era_begins_at_its_merge_instant_to_the_second(policy):
    before = standard_at(datetime(2026, 7, 4, 1, 29, 21, tzinfo=UTC), policy)
    at = standard_at(datetime(2026, 7, 4, 1, 29, 22, tzinfo=UTC), policy)
    assert (before.era, at.era) == ("E3", "E4")


def test_era_names_are_case_insensitive(policy):
    assert numbered(resolve_standard("e4", policy)) == numbered(resolve_standard("E4", policy))


def test_e1_has_no_check_0_and_e3_adds_the_reuse_command(policy):
    assert numbered(resolve_standard("E1", policy)) == [(1, "sweep"), (2, "evals"), (3, "recipe")]
    assert resolve_standard("E3", policy).slot("reuse-command").number == 4


def test_the_multi_node_na_rule_switches_on_inside_e4(policy):
    first = resolve_standard("at:2026-07-04T02:00:00Z", policy)
    later = resolve_standard("at:2026-07-04T03:00:00Z", policy)
    assert (first.era, later.era) == ("E4", "E4")
    assert not first.switches.recipe_multinode_na and later.switches.recipe_multinode_na
    assert any("#2030" in line for line in later.applied)


def test_an_era_by_name_takes_its_final_form(policy):
    # #1904 (catch-all rule) and #1908 (major args only) landed during E2, not E1.
    e1, e2 = resolve_standard("E1", policy).switches, resolve_standard("E2", policy).switches
    assert not e1.codeowner_catch_all and not e1.recipe_major_args_only
    assert e2.codeowner_catch_all and e2.recipe_major_args_only
    e3 = resolve_standard("E3", policy).switches
    assert not e3.recipe_multinode_na and e3.thresholds == "utils/evals/thresholds.json"
    later = resolve_standard("at:2026-07-20T00:00:00Z", policy).switches
    assert later.recipe_must_be_merged and later.thresholds == "utils/evals/thresholds.yaml"


def test_master_configs_moved_out_of_github_configs_on_july_2(policy):
    before = resolve_standard("at:2026-07-01T00:00:00Z", policy).switches
    after = resolve_standard("at:2026-07-03T00:00:00Z", policy).switches
    assert before.master_configs == ".github/configs/*-master.yaml"
    assert after.master_configs == "configs/*-master.yaml"


def test_the_default_standard_follows_the_template_for_merged_recipes(policy):
    assert resolve_standard("0-8", policy).switches.recipe_must_be_merged is None
    assert resolve_standard("current", policy).switches.recipe_must_be_merged is True
    assert resolve_standard("E3", policy).switches.recipe_must_be_merged is False


def test_every_check_of_every_standard_is_registered_and_every_registered_check_is_used(policy):
    book = policy.standards
    used = set()
    for era in book.eras:
        used |= {slot.id for slot in era.checks}
    for named in book.named.values():
        used |= {slot.id for slot in named.checks}
    assert used == set(CHECKS)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("E99", "unknown standard 'E99'"),
        ("latest", "unknown standard 'latest'"),
        ("at:yesterday", "not an ISO-8601 instant"),
        ("at:2026-07-12T00:00:00", "needs a time zone"),
        ("at:2026-06-01T00:00:00Z", "no standard was in force before 2026-06-23T18:11:49Z (E1)"),
        ("", "empty standard"),
    ],
)
def test_bad_specs_are_input_errors_naming_the_spec(policy, spec, message):
    with pytest.raises(InputError) as caught:
        resolve_standard(spec, policy)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_profile_can_disable_a_check_in_every_standard(tmp_path):
    profile = yaml.safe_load((ROOT / "checklists" / "inferencex.yaml").read_text())
    profile["rules"] = {"reuse-command": {"disable": True}}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(profile), encoding="utf-8")
    (tmp_path / "inferencex-standards.yaml").write_text(STANDARDS.read_text(), encoding="utf-8")
    policy = load_policy(tmp_path / "p.yaml")
    for spec in ("0-8", "E4", "current"):
        standard = resolve_standard(spec, policy)
        assert standard.slot("reuse-command") is None
        assert standard.disabled == ("reuse-command",)
        assert standard.slot("recipe").number == 3  # the others keep their era numbers


def test_a_broken_standards_file_names_its_line(tmp_path):
    duplicate = "{number: 7, id: spec-chat-template"
    text = STANDARDS.read_text().replace("{number: 8, id: spec-chat-template", duplicate)
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PolicyError) as caught:
        load_standards(path)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "- id: E4" in ln)
    assert str(caught.value).startswith(f"{path}:")
    assert int(str(caught.value).split(":")[1]) >= line
    assert "unique" in str(caught.value)


def test_switch_changes_must_name_known_switches(tmp_path):
    text = STANDARDS.read_text().replace("set: {recipe_must_be_merged: true}", "set: {merged: 1}")
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PolicyError, match="unknown switch merged"):
        load_standards(path)


def test_current_is_the_newest_era_with_checks_0_to_15(policy):
    standard = resolve_standard("current", policy)
    assert standard.era == "E11" and [slot.number for slot in standard.checks] == list(range(16))
    assert standard.slot("deprecated-models").number == 7
    assert standard.slot("append-only").number == 12
    assert standard.slot("pr-description").number == 15


def test_an_instant_selects_the_era_in_force_then(policy):
    standard = resolve_standard("at:2026-07-10T19:00:00Z", policy)
    assert standard.era == "E5" and standard.instant == "2026-07-10T19:00:00Z"
    assert [slot.number for slot in standard.checks] == list(range(10))
    assert standard.slot("engine-patches").number == 9


def test_instants_in_other_zones_are_read_as_the_same_utc_instant(policy):
    # 2026-07-10 14:35:28 -0400 is E5's merge instant (e7d314aa5).
    assert resolve_standard("at:2026-07-10T14:35:28-04:00", policy).era == "E5"
    assert resolve_standard("at:2026-07-10T14:35:27-04:00", policy).era == "E4"


def test_historical_check_numbers_mean_different_checks_per_era(policy):
    e4, e7 = resolve_standard("E4", policy), resolve_standard("E7", policy)
    assert dict(numbered(e4))[7] == "no-arch-hacks"
    assert dict(numbered(e7))[7] == "deprecated-models"
    assert dict(numbered(e7))[8] == "no-arch-hacks"


def test_row_names_resolve_to_check_ids_per_era(policy):
    e8 = resolve_standard("E8", policy)
    assert e8.check_for_row("Recipe linked, MERGED, complete") == "recipe"
    assert e8.check_for_row("reuse-sweep-run posted") == "reuse-command"
    assert e8.check_for_row("passing sweep + evals on in-PR commit") == "sweep"
    assert e8.check_for_row("weather report") is None


def test_template_items_map_to_the_check_that_verifies_them_in_each_era(policy):
    e4, e8 = resolve_standard("E4", policy), resolve_standard("E8", policy)
    assert e8.check_for_item("DEPRECATED").id == "deprecated-models"
    assert e4.check_for_item("DEPRECATED") is None  # an item E7 added: no check in E4
    assert e4.check_for_item("UPSTREAM_IMG").number == 6
    assert e8.check_for_item("QUALITY") is None
