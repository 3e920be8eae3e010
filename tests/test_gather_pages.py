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
