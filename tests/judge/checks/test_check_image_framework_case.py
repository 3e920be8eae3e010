"""Check 6 reads `framework` as InferenceX publishes it: `VLLM` is vLLM, so it needs vllm/ images.

InferenceX compares `framework` as free text and lower-cases it in its results, so an entry
written `framework: VLLM` is published as a vllm result. Read as written, it was "another
engine" (allowed any image once a vllm entry exists for the model and SKU).
"""

from __future__ import annotations

import pytest
from builders import NEW_ENTRY, passing_parts

MASTER = "configs/nvidia-master.yaml"
FORK = "image: evilorg/vllm-openai:v0.11.1"


def _new_entry(framework: str) -> dict:
    parts = passing_parts()
    entry = NEW_ENTRY.replace("image: vllm/vllm-openai:v0.11.1", FORK).replace(
        "framework: vllm", f"framework: {framework}"
    )
    for read in parts["files"]:
        if read["path"] == MASTER and read["role"] in ("head", "eval"):
            assert NEW_ENTRY in read["text"]
            read["text"] = read["text"].replace(NEW_ENTRY, entry)
    return parts


@pytest.mark.parametrize("framework", ["VLLM", "Vllm", "' vLLM '"])
def test_a_fork_image_under_a_vllm_spelled_otherwise_is_no_upstream_image(check, framework):
    result = check(_new_entry(framework), "upstream-image")
    assert result.status == "FAIL"
    assert "`evilorg/vllm-openai:v0.11.1`, not an upstream vllm/ image" in result.reason


def test_the_spelling_as_written_is_what_the_reason_quotes(check) -> None:
    result = check(_new_entry("VLLM"), "upstream-image")
    assert "(`VLLM` on b200)" in result.reason
