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


def _new_entry(framework: str, image: str = FORK) -> dict:
    """The passing PR whose new entry has `image` (a whole `image:` line) and `framework`."""
    parts = passing_parts()
    entry = NEW_ENTRY.replace("image: vllm/vllm-openai:v0.11.1", image).replace(
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


# The image is handed to the runner's container tool as one string: text after a blank or a
# quote is another argument there (`--container-image=evil/img`), whatever org it starts with.
@pytest.mark.parametrize(
    "image",
    [
        '"vllm/vllm-openai:v0.11.1 --container-image=evilorg/img"',
        '"vllm/vllm-openai:v0.11.1\\tevilorg/img"',
        "vllm/vllm-openai:v0.11.1;evilorg/img",
        "vllm/Vllm-Openai:v0.11.1",
        "vllm//vllm-openai:v0.11.1",
        "vllm/vllm-openai:v0.11.1@sha256:xyz",
    ],
    ids=["blank", "tab", "semicolon", "upper-case", "empty-component", "bad-digest"],
)
def test_an_image_that_is_no_valid_reference_fails_whatever_org_it_starts_with(check, image):
    result = check(_new_entry("vllm", f"image: {image}"), "upstream-image")
    assert result.status == "FAIL", result.reason
    assert "not a valid image reference" in result.reason


@pytest.mark.parametrize(
    "image",
    [
        "vllm/vllm-openai:v0.11.1",
        '"docker.io/vllm/vllm-openai:v0.11.1"',
        "vllm/vllm-openai@sha256:" + "a" * 64,
        "vllm/vllm-openai:v0.11.1@sha256:" + "0f" * 32,
        "lmsysorg/sglang:v0.5.12.post1-cu130",
    ],
)
def test_valid_references_of_the_upstream_orgs_stay_upstream(check, image):
    framework = "sglang" if "lmsysorg" in image else "vllm"
    result = check(_new_entry(framework, f"image: {image}"), "upstream-image")
    assert result.status == "PASS", result.reason
