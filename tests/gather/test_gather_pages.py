"""Published recipe pages: fetched with a cap, redirects only within the profile's recipe sites."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from signoff.gather import upstream
from signoff.policy import Policy


class FakeAnswer:
    def __init__(self, status: int, body: bytes = b"", location: str = "") -> None:
        self.status_code = status
        self.headers = {"location": location} if location else {}
        self.is_redirect = status in (301, 302, 303, 307, 308)
        self.encoding = "utf-8"
        self._body = body

    def iter_content(self, size: int) -> Iterator[bytes]:
        for start in range(0, len(self._body), size):
            yield self._body[start : start + size]

    def __enter__(self) -> FakeAnswer:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def serve(monkeypatch: pytest.MonkeyPatch, answers: dict[str, FakeAnswer]) -> list[str]:
    asked: list[str] = []

    def fake_get(url: str, **kwargs: Any) -> FakeAnswer:
        assert kwargs["allow_redirects"] is False and kwargs["timeout"] == upstream.PAGE_TIMEOUT
        asked.append(url)
        return answers[url]

    monkeypatch.setattr(upstream.requests, "get", fake_get)
    return asked


PAGE = "https://recipes.vllm.ai/DeepSeek/DeepSeek-V4"


def test_a_page_is_published_with_its_text(monkeypatch, policy: Policy):
    serve(monkeypatch, {PAGE: FakeAnswer(200, b"vllm serve deepseek-ai/DeepSeek-V4-Pro --tp 8")})
    link = upstream.read_page(PAGE, policy.recipe)
    assert (link.state, link.page_text) == (
        "published",
        "vllm serve deepseek-ai/DeepSeek-V4-Pro --tp 8",
    )


def test_a_redirect_within_the_recipe_site_is_followed(monkeypatch, policy: Policy):
    moved = "https://recipes.vllm.ai/deepseek/v4"
    asked = serve(
        monkeypatch, {PAGE: FakeAnswer(301, location="/deepseek/v4"), moved: FakeAnswer(200, b"ok")}
    )
    assert upstream.read_page(PAGE, policy.recipe).state == "published"
    assert asked == [PAGE, moved]


def test_a_redirect_to_another_host_is_never_followed(monkeypatch, policy: Policy):
    asked = serve(
        monkeypatch, {PAGE: FakeAnswer(302, location="http://169.254.169.254/latest/meta-data")}
    )
    link = upstream.read_page(PAGE, policy.recipe)
    assert (link.state, link.reason) == ("unreachable", "redirected outside the recipe sites")
    assert asked == [PAGE]


def test_an_oversized_page_is_unreachable(monkeypatch, policy: Policy):
    serve(monkeypatch, {PAGE: FakeAnswer(200, b"x" * (upstream.PAGE_MAX_BYTES + 1))})
    assert upstream.read_page(PAGE, policy.recipe).reason == "page larger than 2 MB"


def test_redirect_loops_stop(monkeypatch, policy: Policy):
    serve(monkeypatch, {PAGE: FakeAnswer(302, location=PAGE)})
    assert upstream.read_page(PAGE, policy.recipe).reason == "too many redirects"


class SourceRepo:
    """The two reads `with_source` makes (head commit, file contents), answered from a dict."""

    def __init__(self, files: dict[str, str], head: str = "f" * 40) -> None:
        self.files, self.head, self.asked = files, head, []  # type: ignore[var-annotated]

    def get_object(
        self, path: str, params: dict[str, Any] | None = None, *, item: Any = None
    ) -> dict[str, Any]:
        self.asked.append(path)
        answer = {"sha": self.head}
        if item is not None:
            item(answer)  # checked on arrival, as `Api` does
        return answer

    def file_text(self, repo: str, path: str, ref: str) -> str | None:
        self.asked.append(f"{repo}:{path}@{ref}")
        return self.files.get(path)


MODEL_PAGE = "https://recipes.vllm.ai/MiniMaxAI/MiniMax-M3?hardware=mi355x"
SOURCE = "models/MiniMaxAI/MiniMax-M3.yaml"


def test_a_recipes_page_is_read_as_the_yaml_it_is_generated_from(monkeypatch, policy: Policy):
    serve(monkeypatch, {MODEL_PAGE: FakeAnswer(200, b"<html><div id=app></div></html>")})
    repo = SourceRepo({SOURCE: "model:\n  model_id: MiniMaxAI/MiniMax-M3\n"})
    link = upstream.read_link(repo, ref(MODEL_PAGE, policy), policy.recipe)  # type: ignore[arg-type]
    assert (link.state, link.repo, link.read_at) == ("published", "vllm-project/recipes", "f" * 40)
    assert [(f.path, f.state, f.sha) for f in link.files] == [(SOURCE, "ok", "f" * 40)]
    assert repo.asked == [
        "/repos/vllm-project/recipes/commits/HEAD",
        f"vllm-project/recipes:{SOURCE}@{'f' * 40}",
    ]


def test_a_page_path_that_could_leave_the_models_folder_maps_to_no_file(policy: Policy):
    for url in (
        "https://recipes.vllm.ai/../secrets",
        "https://recipes.vllm.ai/MiniMaxAI/..%2F..%2Fx",
        "https://recipes.vllm.ai/a/b/c",
        "https://recipes.vllm.ai/MiniMaxAI",
        "https://recipes.vllm.ai.evil.example/MiniMaxAI/MiniMax-M3",
    ):
        assert upstream.page_source(url, policy.recipe) is None, url


def test_a_missing_source_file_is_named_not_read(monkeypatch, policy: Policy):
    serve(monkeypatch, {MODEL_PAGE: FakeAnswer(200, b"<html></html>")})
    link = upstream.read_link(SourceRepo({}), ref(MODEL_PAGE, policy), policy.recipe)  # type: ignore[arg-type]
    assert [(f.path, f.state) for f in link.files] == [(SOURCE, "missing")]


def test_an_unreachable_page_reads_no_source(monkeypatch, policy: Policy):
    serve(monkeypatch, {MODEL_PAGE: FakeAnswer(404)})
    repo = SourceRepo({SOURCE: "x: 1\n"})
    link = upstream.read_link(repo, ref(MODEL_PAGE, policy), policy.recipe)  # type: ignore[arg-type]
    assert (link.state, link.files, repo.asked) == ("unreachable", (), [])


def ref(url: str, policy: Policy) -> upstream.RecipeLinkRef:
    found = upstream.classify_recipe_link(url, policy.recipe)
    assert found is not None
    return found
