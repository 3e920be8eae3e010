"""Which reader a recipe document needs: by file type for repository files, HTML for pages."""

from __future__ import annotations

from signoff.parse.recipes.cookbook_jsx import read_cookbook_config
from signoff.parse.recipes.document import RecipeDoc, RecipeEngine
from signoff.parse.recipes.markdown_pages import read_html, read_markdown
from signoff.parse.recipes.vllm_yaml import read_yaml_recipe
from signoff.policy import RecipePolicy


def read_recipe_file(path: str, text: str, engine: RecipeEngine, policy: RecipePolicy) -> RecipeDoc:
    """The commands of one upstream repository file (never raises: oddities become problems)."""
    try:
        return _read(path, text, engine, policy)
    except Exception as exc:  # a reader bug must not crash Check 3: report it, fail closed
        return RecipeDoc(source=path, problems=(f"{path}:1: unreadable ({type(exc).__name__})",))


def _read(path: str, text: str, engine: RecipeEngine, policy: RecipePolicy) -> RecipeDoc:
    lower = path.lower()
    if lower.endswith((".yaml", ".yml")):
        return read_yaml_recipe(
            path, text, engine=engine, hardware=policy.hardware, strategies=policy.strategies
        )
    if lower.endswith(".jsx"):
        return read_cookbook_config(path, text)
    return read_markdown(path, text)


def read_recipe_page(url: str, body: str) -> RecipeDoc:
    """The commands of a published recipe page (HTML; a page served as Markdown, as docs sites
    do for `.md` URLs, is read as Markdown)."""
    try:
        lowered = body[:4096].lower()
        if "<html" in lowered or "<!doctype" in lowered or "<pre" in body.lower():
            return read_html(url, body)
        return read_markdown(url, body)
    except Exception as exc:  # as above: never crash the check
        return RecipeDoc(source=url, problems=(f"{url}: unreadable page ({type(exc).__name__})",))
