"""Classify links from a sign-off: upstream recipe PRs, published recipe pages, or anything else."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict

from signoff.policy import RecipePolicy

_GITHUB_PATH = re.compile(
    r"^/(?P<owner>[^/]+)/(?P<repo>[^/]+)(?:/(?P<what>pull|commit|tree|blob)/(?P<rest>[^?#]*))?"
)


class RecipeLinkRef(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    url: str
    kind: Literal["pull", "page", "commit", "branch", "other"]
    repo: str = ""
    number: int | None = None


def classify_recipe_link(url: str, policy: RecipePolicy) -> RecipeLinkRef | None:
    """The recipe source a URL points at, or None when it is not an upstream recipe location."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https"):
        return None
    host = (parts.hostname or "").lower()
    for source in policy.sources:
        if host != source.host.lower():
            continue
        if source.kind == "page":
            if parts.path.startswith(source.path_prefix):
                return RecipeLinkRef(url=url, kind="page")
            continue
        ref = _github_ref(url, parts.path, source.repo)
        if ref is not None:
            return ref
    return None


def _github_ref(url: str, path: str, repo: str) -> RecipeLinkRef | None:
    match = _GITHUB_PATH.match(path)
    if match is None or f"{match['owner']}/{match['repo']}".lower() != repo.lower():
        return None
    what, rest = match["what"], match["rest"] or ""
    if what == "pull":
        number = rest.split("/", 1)[0]
        if number.isdigit():
            return RecipeLinkRef(url=url, kind="pull", repo=repo, number=int(number))
        return RecipeLinkRef(url=url, kind="other", repo=repo)
    if what == "commit":
        return RecipeLinkRef(url=url, kind="commit", repo=repo)
    if what in ("tree", "blob"):
        return RecipeLinkRef(url=url, kind="branch", repo=repo)
    return RecipeLinkRef(url=url, kind="other", repo=repo)


_SHORT_REF = re.compile(r"(?<![\w/.-])(?P<repo>[A-Za-z0-9][\w.-]*/[\w.-]+)#(?P<number>\d+)\b")


def short_pull_refs(text: str, policy: RecipePolicy) -> tuple[RecipeLinkRef, ...]:
    """`vllm-project/recipes#577` references to upstream recipe PRs, as GitHub autolinks them."""
    known = {source.repo.lower(): source.repo for source in policy.sources if source.kind == "pull"}
    refs = []
    for match in _SHORT_REF.finditer(text):
        repo = known.get(match["repo"].lower())
        if repo is not None:
            url = f"https://github.com/{repo}/pull/{match['number']}"
            refs.append(RecipeLinkRef(url=url, kind="pull", repo=repo, number=int(match["number"])))
    return tuple(refs)


def recipe_links(
    urls: Iterable[str], detail: str, policy: RecipePolicy
) -> tuple[RecipeLinkRef, ...]:
    """Upstream recipe references among `urls` and in `detail` text, deduplicated in order
    (a PR linked twice, e.g. with a /files suffix, is one reference)."""
    found: list[RecipeLinkRef] = []
    seen: set[str] = set()
    classified = (classify_recipe_link(url, policy) for url in urls)
    for ref in (*classified, *short_pull_refs(detail, policy)):
        if ref is None:
            continue
        key = f"{ref.repo.lower()}#{ref.number}" if ref.kind == "pull" else link_key(ref.url)
        if key not in seen:
            seen.add(key)
            found.append(ref)
    return tuple(found)


def link_key(url: str) -> str:
    """A URL compared without fragment, trailing slash or case."""
    return url.split("#", 1)[0].rstrip("/").lower()
