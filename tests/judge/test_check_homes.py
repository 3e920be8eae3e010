"""Each check has one home: its module or package under judge/checks/, its settings' model in
signoff/rules/ (the profile's `rules.<id>.config`), and nothing of its own in policy.py.

A helper only one check imports lives in that check's package; policy.py keeps the sections more
than one part of signoff reads.
"""

from __future__ import annotations

import json
import re
import shutil
import typing
from importlib import import_module
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel
from test_layers import import_graph

import signoff.policy as policy_module
from signoff.errors import PolicyError
from signoff.judge.registry import CHECKS
from signoff.policy import Policy, load_policy
from signoff.rules import SECTIONS

ROOT = Path(__file__).resolve().parents[2]
PROFILE = ROOT / "checklists" / "inferencex.yaml"
CONFIGURED = {check_id: m.CONFIG for check_id, m in CHECKS.items() if m.CONFIG is not None}


def _models(model: type[BaseModel]) -> set[type[BaseModel]]:
    """`model` and every model its fields hold, however nested (tuples, dicts, unions)."""
    found: set[type[BaseModel]] = set()

    def visit(annotation: object) -> None:
        is_model = isinstance(annotation, type) and issubclass(annotation, BaseModel)
        if is_model and annotation not in found:
            model = typing.cast(type[BaseModel], annotation)
            found.add(model)
            for field in model.model_fields.values():
                visit(field.annotation)
        for arg in typing.get_args(annotation):
            visit(arg)

    visit(model)
    return found


def _home(module: str) -> str:
    """The check a module belongs to (`recipe` for judge.checks.recipe.runs), else the module."""
    parts = module.split(".")
    return parts[3] if parts[:3] == ["signoff", "judge", "checks"] and len(parts) > 3 else module


def test_every_registered_check_declares_its_config_model_or_none() -> None:
    for check_id, module in CHECKS.items():
        assert hasattr(module, "CONFIG"), f"{module.__name__} declares no CONFIG"
        if module.CONFIG is None:
            continue
        section = import_module(f"signoff.rules.{module.__name__.rsplit('.', 1)[-1]}")
        assert (section.ID, section.Config) == (check_id, module.CONFIG)


def test_every_profile_section_is_a_registered_checks_and_the_profile_reads_each() -> None:
    assert {section.ID: section.Config for section in SECTIONS} == CONFIGURED
    policy = load_policy()
    assert sorted(policy.rule_configs) == sorted(CONFIGURED)
    for check_id, config in CONFIGURED.items():
        assert policy.config(config) is policy.rule_configs[check_id]
        assert type(policy.rule_configs[check_id]) is config


def test_no_per_check_model_lives_in_policy_py() -> None:
    per_check = set().union(*(_models(config) for config in CONFIGURED.values()))
    assert per_check and all(m.__module__.startswith("signoff.rules.") for m in per_check)
    defined = {
        value
        for value in vars(policy_module).values()
        if isinstance(value, type) and issubclass(value, BaseModel)
        if value.__module__ == policy_module.__name__
    }
    assert not defined & per_check
    # what stays is what the profile's shared sections hold: nothing in policy.py is left over
    shared = {name: f for name, f in Policy.model_fields.items() if name != "rule_configs"}
    reachable = set().union(*(_models(typing.cast(type, f.annotation)) for f in shared.values()))
    assert defined - {Policy} <= reachable


def test_each_section_policy_py_keeps_is_read_beyond_one_check() -> None:
    sources = {
        path: path.read_text(encoding="utf-8")
        for path in (ROOT / "signoff").rglob("*.py")
        if path.name != "policy.py" and "rules" not in path.relative_to(ROOT).parts[:2]
    }
    infrastructure = {"schema_version", "name", "standards", "rules", "rule_configs"}
    for field in sorted(set(Policy.model_fields) - infrastructure):
        homes = {
            _home(".".join(path.relative_to(ROOT).with_suffix("").parts))
            for path, text in sources.items()
            if re.search(rf"policy\.{field}\b", text)
        }
        assert homes, f"nothing reads the profile's {field}"
        assert len(homes) > 1 or "." in next(iter(homes)), (
            f"only the {homes.pop()} check reads the profile's {field}: it is that check's section"
        )


def test_a_helper_only_one_check_imports_lives_in_that_checks_package() -> None:
    graph = import_graph()
    flat = [m for m in graph if m.startswith("signoff.judge.") and _home(m) == m]
    for helper in flat:
        if helper.startswith("signoff.judge.checks"):
            continue
        homes = {_home(importer) for importer, targets in graph.items() if helper in targets}
        checks = {home for home in homes if "." not in home}
        assert not (checks and homes == checks and len(checks) == 1), (
            f"{helper} is used only by the {checks.pop()} check: move it into its package"
        )


def test_a_helper_in_a_checks_package_is_that_checks_alone() -> None:
    # (a helper another check needs too is shared: it lives flat in judge/)
    graph = import_graph()
    for helper in sorted(graph):
        parts = helper.split(".")
        if parts[:3] != ["signoff", "judge", "checks"] or len(parts) < 5:
            continue
        others = sorted(
            importer
            for importer, targets in graph.items()
            if helper in targets and "." not in _home(importer) and _home(importer) != parts[3]
        )
        assert others == [], f"{helper} is used by other checks too: share it in judge/"


# --- the profile: `rules.<id>.config`, or the older top-level key -------------------------------


def _profile(tmp_path: Path, text: str) -> Path:
    shutil.copy(PROFILE.parent / "inferencex-standards.yaml", tmp_path)
    path = tmp_path / "profile.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _cut(text: str, key: str) -> tuple[str, str]:
    """The profile without its top-level `key:` block, and that block's body."""
    found = re.search(rf"^{key}:\n((?:(?:[ ].*)?\n)*)", text, re.M)
    assert found is not None
    return text[: found.start()] + text[found.end() :], found.group(1)


def _with_rule(text: str, check_id: str, entry: str) -> str:
    """The profile with `rules.<check_id>` written as `entry` (block YAML indented under it)."""
    found = re.search(r"^rules: (.*)\n", text, re.M)
    assert found is not None  # the shipped profile writes its switches on one line
    kept = "".join(
        f"  {rule}: {json.dumps(value)}\n"
        for rule, value in (yaml.safe_load(found.group(1)) or {}).items()
        if rule != check_id
    )
    block = f"rules:\n{kept}  {check_id}:\n{entry}"
    return text[: found.start()] + block + text[found.end() :]


def _under_rules(text: str, check_id: str, body: str) -> str:
    nested = "".join(f"      {line}\n" if line else "\n" for line in body.splitlines())
    return _with_rule(text, check_id, f"    config:\n{nested}")


@pytest.mark.parametrize(("check_id", "key"), [("evals", "evals"), ("recipe", "recipe")])
def test_a_section_under_rules_id_config_reads_as_its_older_top_level_key(
    tmp_path: Path, check_id: str, key: str
) -> None:
    text, body = _cut(PROFILE.read_text(encoding="utf-8"), key)
    moved = load_policy(_profile(tmp_path, _under_rules(text, check_id, body)))
    assert moved.rule_configs == load_policy(PROFILE).rule_configs
    assert moved.disabled_checks == load_policy(PROFILE).disabled_checks


def test_a_bad_setting_names_the_key_as_the_profile_wrote_it_and_its_line(tmp_path: Path) -> None:
    original = PROFILE.read_text(encoding="utf-8")
    legacy = original.replace("fallback_threshold: 0.85", "fallback_threshold: high", 1)
    line = legacy.splitlines().index("  fallback_threshold: high") + 1
    with pytest.raises(PolicyError) as caught:
        load_policy(_profile(tmp_path, legacy))
    assert str(caught.value) == (
        f"{tmp_path / 'profile.yaml'}:{line}: evals.fallback_threshold: "
        "Input should be a valid number, unable to parse string as a number"
    )
    text, body = _cut(legacy, "evals")
    nested = _under_rules(text, "evals", body)
    line = nested.splitlines().index("        fallback_threshold: high") + 1
    with pytest.raises(PolicyError) as caught:
        load_policy(_profile(tmp_path, nested))
    assert str(caught.value).startswith(
        f"{tmp_path / 'profile.yaml'}:{line}: rules.evals.config.fallback_threshold: "
    )


def test_a_section_written_in_both_places_is_refused(tmp_path: Path) -> None:
    text = _with_rule(
        PROFILE.read_text(encoding="utf-8"), "evals", "    config: {fallback_threshold: 0.9}\n"
    )
    with pytest.raises(PolicyError, match=r":\d+: evals: also given as rules.evals.config"):
        load_policy(_profile(tmp_path, text))


def test_a_check_without_settings_takes_no_config_and_a_required_section_must_be_written(
    tmp_path: Path,
) -> None:
    text = PROFILE.read_text(encoding="utf-8")
    extra = _with_rule(text, "pr-description", "    config: {x: 1}\n")
    with pytest.raises(PolicyError, match=r"rules.pr-description.config: Extra inputs"):
        load_policy(_profile(tmp_path, extra))
    without, _ = _cut(text, "arch")
    with pytest.raises(PolicyError, match=r"profile.yaml:\d+: arch: Field required$"):
        load_policy(_profile(tmp_path, without))


def test_a_switch_beside_a_config_still_disables_the_check(tmp_path: Path) -> None:
    text = _with_rule(
        PROFILE.read_text(encoding="utf-8"),
        "reuse-command",
        "    disable: true\n    config: {command: /again}\n",
    )
    text, _ = _cut(text, "reuse")
    policy = load_policy(_profile(tmp_path, text))
    assert policy.disabled_checks == ("reuse-command",)
    assert policy.reuse.command == "/again"
