"""Upstream recipe PRs are read whole at their merge commit (cassettes recorded from ghemu)."""

from __future__ import annotations

from cassette_helpers import Replayed, replay_verify

from signoff.evidence import UpstreamLink

RECIPE_PATH = "DeepSeek/DeepSeek-V4.md"


def _recipe_link(name: str) -> tuple[Replayed, UpstreamLink]:
    replayed = replay_verify(name)
    (link,) = replayed.evidence.upstream
    return replayed, link


def test_an_edited_recipe_is_read_at_the_merge_commit_not_from_its_patch() -> None:
    replayed, link = _recipe_link("recipe_args_in_context")
    assert replayed.all_played
    assert link.state == "merged" and link.read_at
    (file,) = link.files
    assert file.path == RECIPE_PATH and file.sha == link.read_at and file.state == "ok"
    # The patch only adds the MTP line; the merged file has the lines around it too.
    assert file.text is not None and "--tensor-parallel-size 8" in file.text
    reads = [u for u in replayed.requests if "/repos/vllm-project/recipes/contents/" in u]
    base = "GET https://api.github.com/repos/vllm-project/recipes/contents"
    assert reads == [f"{base}/{RECIPE_PATH}?ref={link.read_at}"]


def test_args_in_unchanged_context_lines_pass_check_3() -> None:
    replayed, _ = _recipe_link("recipe_args_in_context")
    verdict = replayed.outcome.verdict
    assert verdict is not None and not verdict.failures
    (recipe,) = [c for c in verdict.checks if c.number == 3]
    assert "`DeepSeek-V4.md`, section `DeepSeek-V4 > B200 > FP4 with MTP`" in recipe.reason
    assert "--kv-cache-dtype" in recipe.reason and "--speculative-config" in recipe.reason


def test_a_recipe_that_really_lacks_a_major_arg_is_rejected_naming_it() -> None:
    replayed, _ = _recipe_link("fail_recipe_missing_arg")
    verdict = replayed.outcome.verdict
    assert verdict is not None
    assert [c.number for c in verdict.failures] == [3]
    (recipe,) = verdict.failures
    assert (
        "vllm-project/recipes#412 `DeepSeek-V4.md`, section `DeepSeek-V4 > B200 > FP4 with MTP`"
        in recipe.reason
    )
    assert "`--kv-cache-dtype fp8` not in the recipe" in recipe.reason
    assert "TP=8" in recipe.reason


def test_a_recipe_page_that_cannot_be_fetched_says_why_in_words() -> None:
    import requests

    from signoff.gather.upstream import _failure_words

    assert _failure_words(requests.ConnectTimeout()) == "no answer within 10 s"
    assert _failure_words(requests.ConnectionError()) == "the connection failed"
    assert _failure_words(requests.TooManyRedirects()) == "too many redirects"
    assert _failure_words(requests.RequestException()) == "the request failed"
