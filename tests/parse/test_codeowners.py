"""CODEOWNERS parsing and matching: the vector corpus plus focused behaviour tests."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from signoff.parse.codeowners import (
    CodeOwners,
    Rule,
    _is_email,
    _split_escaped,
    _split_plain,
    is_valid_owner,
    owner_is_team,
    parse_codeowners,
    team_slug,
)

CORPUS_PATH = Path(__file__).parents[1] / "data" / "codeowners_corpus.yaml"
CASES: list[dict[str, Any]] = yaml.safe_load(CORPUS_PATH.read_text(encoding="utf-8"))["cases"]


def _vectors() -> list[Any]:
    return [
        pytest.param(case, vector, id=f"{case['name']}/{vector['path']}")
        for case in CASES
        for vector in case["expect"]
    ]


def test_corpus_is_large_and_names_are_unique() -> None:
    names = [case["name"] for case in CASES]
    assert len(names) == len(set(names))
    assert sum(len(case["expect"]) for case in CASES) >= 80


@pytest.mark.parametrize(("case", "vector"), _vectors())
def test_corpus_vector(case: dict[str, Any], vector: dict[str, Any]) -> None:
    codeowners = parse_codeowners(case["codeowners"])
    rule = codeowners.match(vector["path"])
    if vector["owners"] is None:
        assert rule is None
        assert codeowners.owners_of(vector["path"]) == ()
        return
    assert rule is not None
    assert list(rule.owners) == vector["owners"]
    assert list(codeowners.owners_of(vector["path"])) == vector["owners"]
    if "line" in vector:
        assert rule.line == vector["line"]


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_corpus_skipped_lines(case: dict[str, Any]) -> None:
    codeowners = parse_codeowners(case["codeowners"])
    assert [skip.line for skip in codeowners.skipped] == case.get("skipped_lines", [])


def test_ownerless_rule_unowns_paths_matched_earlier() -> None:
    codeowners = parse_codeowners("* @core\n/vendor/ @vendor-team\n/vendor/third_party/\n")
    rule = codeowners.match("vendor/third_party/zlib/inflate.c")
    assert rule is not None
    assert rule.owners == ()
    assert rule.line == 3
    assert codeowners.owners_of("vendor/own/code.c") == ("@vendor-team",)


def test_unmatched_path_is_none_but_unowned_path_is_an_empty_rule() -> None:
    codeowners = parse_codeowners("/apps/github\n")
    assert codeowners.match("README.md") is None
    assert codeowners.match("apps/github/x.js") == Rule(pattern="/apps/github", owners=(), line=1)


def test_owners_never_accumulate_across_matching_lines() -> None:
    codeowners = parse_codeowners("* @everyone\n*.md @writers\n")
    assert codeowners.owners_of("README.md") == ("@writers",)


def test_inline_comment_is_neither_owner_nor_pattern() -> None:
    codeowners = parse_codeowners("*.js @js-owner # owned by @someone-else\n")
    assert codeowners.rules == (Rule(pattern="*.js", owners=("@js-owner",), line=1),)


def test_unsupported_lines_are_reported_with_line_number_text_and_reason() -> None:
    text = "* @all\r\n!docs/ @x\r\nsrc/[ab].c @y\r\n\\#hash @z\r\n*.md @ok nobody\r\n"
    skipped = parse_codeowners(text).skipped
    assert [(skip.line, skip.text) for skip in skipped] == [
        (2, "!docs/ @x"),
        (3, "src/[ab].c @y"),
        (4, "\\#hash @z"),
        (5, "*.md @ok nobody"),
    ]
    reasons = [skip.reason for skip in skipped]
    assert "negation" in reasons[0]
    assert "character ranges" in reasons[1]
    assert "leading `#`" in reasons[2]
    assert "`nobody` is not an owner" in reasons[3]


def test_skipped_lines_do_not_stop_later_rules() -> None:
    codeowners = parse_codeowners("!a @x\n*.md @docs\n")
    assert codeowners.owners_of("README.md") == ("@docs",)


def test_pattern_of_only_slashes_is_skipped() -> None:
    codeowners = parse_codeowners("/ @root\n")
    assert codeowners.rules == ()
    assert codeowners.skipped[0].reason == "the pattern names no path"


def test_pattern_ending_in_a_lone_backslash_is_skipped() -> None:
    assert parse_codeowners("docs\\").skipped[0].line == 1
    assert parse_codeowners("a\\\\ @x").rules[0].matches("a\\")


def test_bom_is_not_part_of_the_first_pattern() -> None:
    codeowners = parse_codeowners("\ufeff/README.md @root\n")
    assert codeowners.rules[0].pattern == "/README.md"


def test_rule_matches_agrees_with_its_pattern() -> None:
    rule = Rule(pattern="docs/*", owners=("@d",), line=1)
    assert rule.matches("docs/a.md")
    assert not rule.matches("docs/a/b.md")


@pytest.mark.parametrize("pattern", ["*", "**", "/**", "**/*", "/**/*"])
def test_catch_all_spellings_are_recognised(pattern: str) -> None:
    rule = parse_codeowners(f"{pattern} @all\n").rules[0]
    assert rule.is_catch_all
    assert rule.matches("deep/down/file.txt")


@pytest.mark.parametrize("pattern", ["/*", "*.md", "docs/"])
def test_narrower_patterns_are_not_catch_all(pattern: str) -> None:
    assert not Rule(pattern=pattern, owners=(), line=1).is_catch_all


def test_team_slug_splits_org_and_team() -> None:
    assert team_slug("@InferenceX/core") == ("InferenceX", "core")
    assert team_slug("@octo-org/octocats") == ("octo-org", "octocats")


@pytest.mark.parametrize(
    "owner", ["@ankur-singh", "docs@example.com", "@org/", "org/team", "@a/b/c"]
)
def test_team_slug_is_none_for_anything_but_a_team(owner: str) -> None:
    assert team_slug(owner) is None
    assert not owner_is_team(owner)


def test_owner_is_team_for_a_team() -> None:
    assert owner_is_team("@SemiAnalysisAI/core")


@pytest.mark.parametrize("owner", ["@1am9trash", "@org/team", "a.b@example.co.uk", "@emu_short"])
def test_valid_owner_forms(owner: str) -> None:
    assert is_valid_owner(owner)


@pytest.mark.parametrize("owner", ["@", "nobody", "@-dash", "user@localhost", "@a/b/c", "Files/"])
def test_invalid_owner_forms(owner: str) -> None:
    assert not is_valid_owner(owner)


def test_listed_owners_are_unique_case_insensitively_and_sorted() -> None:
    codeowners = parse_codeowners("* @Core @bob\n*.md @core @alice a@example.com\n")
    assert codeowners.listed_owners() == ("@alice", "@bob", "@Core", "a@example.com")


def test_models_are_frozen() -> None:
    codeowners = parse_codeowners("* @a\n")
    with pytest.raises(ValidationError):
        codeowners.rules[0].pattern = "x"  # type: ignore[misc]


def test_codeowners_built_directly_matches_like_a_parsed_one() -> None:
    built = CodeOwners(rules=(Rule(pattern="*", owners=("@a",), line=1),))
    assert built.owners_of("x/y") == ("@a",)
    assert CodeOwners(rules=()).match("x") is None


_PATH_CHARS = st.sampled_from([*"ab/.*?-_ ", "docs", "logs", "\\", "#", "[", "!"])
_PATHS = st.lists(_PATH_CHARS, max_size=12).map("".join)


@given(text=st.text(), path=st.text())
def test_parse_and_match_never_raise_on_arbitrary_text(text: str, path: str) -> None:
    codeowners = parse_codeowners(text)
    codeowners.match(path)
    codeowners.owners_of(path)


@given(patterns=st.lists(_PATHS, max_size=6), path=_PATHS)
def test_match_is_the_last_rule_whose_pattern_matches(patterns: list[str], path: str) -> None:
    text = "\n".join(f"{pattern} @owner{index}" for index, pattern in enumerate(patterns))
    codeowners = parse_codeowners(text)
    expected = next((rule for rule in reversed(codeowners.rules) if rule.matches(path)), None)
    assert codeowners.match(path) == expected


@given(st.text(alphabet="a.@ \t\u00a0-", max_size=12))
def test_email_owners_are_read_as_the_email_regex_reads_them(token: str) -> None:
    regex_says = re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", token) is not None
    assert _is_email(token) == regex_says


def test_a_long_dotted_owner_token_is_rejected_without_backtracking() -> None:
    assert not is_valid_owner("a@" + "." * 200_000 + "@")


@given(st.text(alphabet="a# \t/*@\u00a0", max_size=16))
def test_lines_without_a_backslash_split_as_the_escaping_reader_splits_them(raw: str) -> None:
    assert _split_plain(raw) == _split_escaped(raw)
