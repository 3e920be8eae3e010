"""One engine name: `framework` is normalised once, and every check reads the same engine.

InferenceX compares `framework` as free text and lower-cases it in its results, so an entry
written `framework: VLLM` is a vLLM recipe. Check 6 already read it so; Check 3 read it as written
and skipped the recipe comparison for it, which let a `VLLM` entry pass without its recipe.
"""

from __future__ import annotations

import json

import pytest
from builders import NEW_ENTRY, SCRIPT, SCRIPT_PATH, passing_parts, replace_file

MASTER = "configs/nvidia-master.yaml"


def _spelled(framework: str, script: str = SCRIPT) -> dict:
    parts = passing_parts()
    entry = NEW_ENTRY.replace("framework: vllm", f"framework: {framework}")
    for read in parts["files"]:
        if read["path"] == MASTER and read["role"] in ("head", "eval"):
            read["text"] = read["text"].replace(NEW_ENTRY, entry)
    for changed in parts["changed_files"]:
        if changed["path"] == MASTER and changed["patch"]:
            changed["patch"] = changed["patch"].replace(
                "framework: vllm", f"framework: {framework}"
            )
    replace_file(parts, SCRIPT_PATH, "head", script)
    # Launchers find `<base>_${FRAMEWORK}<spec>.sh` with the value as written.
    named = SCRIPT_PATH.replace("_vllm_mtp.sh", f"_{framework}_mtp.sh")
    return json.loads(json.dumps(parts).replace(SCRIPT_PATH, named))


@pytest.mark.parametrize("framework", ["VLLM", "Vllm"])
def test_an_engine_spelled_otherwise_is_compared_with_its_recipe_like_the_plain_spelling(
    check, framework
):
    plain, spelled = check(_spelled("vllm"), "recipe"), check(_spelled(framework), "recipe")
    assert plain.status == "PASS"
    assert spelled.status == "PASS"
    assert spelled.reason.split(": ")[1:] == plain.reason.split(": ")[1:]


def test_a_recipe_mismatch_under_an_engine_spelled_otherwise_fails_check_3(check) -> None:
    script = SCRIPT.replace('--tensor-parallel-size "$TP"', "--tensor-parallel-size 1")
    assert script != SCRIPT
    plain, spelled = (
        check(_spelled("vllm", script), "recipe"),
        check(_spelled("VLLM", script), "recipe"),
    )
    assert plain.status == "FAIL"
    assert spelled.status == "FAIL"
    assert "`--tensor-parallel-size 8` missing (script)" in spelled.reason
