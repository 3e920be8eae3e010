"""A word as the script spells it when what its `${NAME:-WORD}` fallbacks stand in for is unset."""

from __future__ import annotations

import pytest

from signoff.parse.shell.scan import fallback_words


@pytest.mark.parametrize(
    ("word", "words"),
    [
        ('${PKG:-$(dirname "$0")/pkg}', ['$(dirname "$0")/pkg']),
        ("${A-/opt/a}/lib", ["/opt/a/lib"]),
        ("${A:=x}:${B=y}", ["x:y"]),
        ("${A:-${B:-/opt/b}/c}", ["${B:-/opt/b}/c", "/opt/b/c"]),  # one word per level
        ("${A:-}", [""]),
        ('${A:-"a}b"}/x', ['"a}b"/x']),  # a quoted brace does not close it
        # no fallback: a plain, a defaulting-to-alternative or an unclosed expansion
        ("$A/x", []),
        ("${A}/x", []),
        ("${A:+/opt/a}", []),
        ("${A:?unset}", []),
        ("${A:-/opt/a", []),
        ("/opt/x", []),
    ],
)
def test_a_fallback_gives_the_word_it_stands_for_when_unset(word, words):
    assert fallback_words(word) == words
