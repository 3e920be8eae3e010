"""The linear CODEOWNERS matcher: same answers as a regex reading, no backtracking, bounded."""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from signoff.parse.codeowners import _pattern_pieces, parse_codeowners
from signoff.parse.glob_automaton import GlobSet, GlobTooComplex, Piece

# The regex each piece stands for: the oracle the automaton must agree with on small inputs.
_REGEX = {
    "seg_star": "[^/]*",
    "seg_one": "[^/]",
    "any": ".*",
    "any_plus": ".+",
    "opt_dirs": "(?:.*/)?",
    "opt_below": "(?:/.*)?",
    "below": "/.*",
}


def oracle(pieces: tuple[Piece, ...], path: str) -> bool:
    regex = "".join(re.escape(text) if kind == "lit" else _REGEX[kind] for kind, text in pieces)
    return bool(pieces) and re.fullmatch(regex, path, re.DOTALL) is not None


PATTERN_PARTS = st.sampled_from(["a", "b", "/", "*", "**", "?", "\\*", ".", "**/", "/**"])
PATH_PARTS = st.sampled_from(["a", "b", "/", "*", ".", "ab", "a/b"])
patterns = st.lists(PATTERN_PARTS, min_size=1, max_size=7).map("".join)
paths = st.lists(PATH_PARTS, min_size=1, max_size=8).map("".join)


@settings(max_examples=400)
@given(patterns, paths)
def test_the_automaton_agrees_with_the_regex_reading_of_every_pattern(
    pattern: str, path: str
) -> None:
    pieces = _pattern_pieces(pattern)
    assert (GlobSet([pieces]).best(path) == 0) == oracle(pieces, path)


@settings(max_examples=200)
@given(st.lists(patterns, min_size=1, max_size=6), paths)
def test_the_last_matching_glob_wins_as_a_loop_over_rules_would_say(
    many: list[str], path: str
) -> None:
    pieces = [_pattern_pieces(pattern) for pattern in many]
    expected = max((i for i, p in enumerate(pieces) if oracle(p, path)), default=-1)
    assert GlobSet(pieces).best(path) == expected


def test_several_double_stars_against_a_deep_path_that_almost_matches_are_answered() -> None:
    # Python's regex engine needed 35 s and more for this shape; the automaton reads it once.
    owners = parse_codeowners("* @all\na/**/**/**/**/**/**/x @deep\n/**/**/**/**/**/**/**/q @q\n")
    deep = "/".join(["a"] * 400)
    assert owners.owners_of(deep + "/nope") == ("@all",)
    assert owners.owners_of(deep + "/x") == ("@deep",)
    assert owners.owners_of(deep + "/q") == ("@q",)


def test_many_stars_in_one_segment_do_not_backtrack() -> None:
    owners = parse_codeowners("* @all\n*a*a*a*a*a*a*a*a*a*a*b @stars\n")
    assert owners.owners_of("a" * 3000) == ("@all",)
    assert owners.owners_of("a" * 3000 + "b") == ("@stars",)


def test_a_path_beyond_the_work_budget_raises_rather_than_answering() -> None:
    pieces = [_pattern_pieces("**/a*a*a*a*/**/b*b*b*/**/z")]
    matcher = GlobSet(pieces, budget=50)
    with pytest.raises(GlobTooComplex, match="more work than signoff allows"):
        matcher.best("/".join(["aaab"] * 200))


def test_the_state_cache_is_rebuilt_when_it_fills_and_answers_stay_the_same() -> None:
    pieces = [_pattern_pieces("**/*x*y"), _pattern_pieces("*.md")]
    small, roomy = GlobSet(pieces, max_states=3), GlobSet(pieces)
    paths = [f"dir{i}/file{i}x{i}y" for i in range(300)] + ["docs/readme.md", "docs/x.txt"]
    expected = [0] * 300 + [1, -1]
    assert [small.best(path) for path in paths] == expected
    assert [roomy.best(path) for path in paths] == expected


ANCHORED_PARTS = st.sampled_from(["/a", "/b", "/ab", "a/", "b/", "*", "**", "/**", "?", "/"])


@settings(max_examples=300)
@given(st.lists(st.lists(ANCHORED_PARTS, min_size=1, max_size=4).map("".join), max_size=6), paths)
def test_rules_bucketed_by_first_segment_answer_as_a_loop_over_every_rule(
    many: list[str], path: str
) -> None:
    owners = parse_codeowners("".join(f"{pattern} @o{i}\n" for i, pattern in enumerate(many)))
    expected = None
    for rule in owners.rules:
        if oracle(_pattern_pieces(rule.pattern), path):
            expected = rule
    assert owners.match(path) == expected


def test_codeowners_beyond_the_budget_name_the_path_and_end_as_could_not_verify() -> None:
    from signoff.errors import ExitCode

    owners = parse_codeowners("**/a*a*a*a*/**/b*b*b*/**/z @o\n")
    owners._matcher(None)[0]._budget = 50  # what a 3 MB file of such rules would exhaust
    with pytest.raises(GlobTooComplex, match=r"who owns aaab/.* cannot be decided") as caught:
        owners.match("/".join(["aaab"] * 200))
    assert caught.value.exit_code == ExitCode.COULD_NOT_VERIFY


def test_check_0_fails_closed_when_ownership_exceeds_the_budget(
    monkeypatch: pytest.MonkeyPatch, check: Any
) -> None:
    from builders import CODEOWNERS, passing_parts, replace_file

    import signoff.parse.codeowners as codeowners

    monkeypatch.setattr(codeowners, "GlobSet", functools.partial(GlobSet, budget=50))
    parts = passing_parts()
    replace_file(parts, ".github/CODEOWNERS", "default", CODEOWNERS + "**/a*a*a*/**/z @o\n")
    deep = "/".join(["aaab"] * 200) + ".md"
    parts["changed_files"].append({"path": deep, "status": "added", "patch": "@@ -0,0 +1 @@\n+x"})
    result = check(parts, "codeowner")
    assert result.status == "FAIL" and "GlobTooComplex" in result.reason
