"""Read a CODEOWNERS file the way GitHub does and answer who owns a path."""

from __future__ import annotations

import re
from functools import cached_property, lru_cache

from pydantic import BaseModel, ConfigDict

from signoff.parse.glob_automaton import GlobSet, GlobTooComplex, Piece

_BOM = "\ufeff"
_BLANKS = " \t"

# An owner is `@user`, `@org/team-slug` or an email address; anything else makes the line invalid.
_USER = re.compile(r"@[A-Za-z0-9][A-Za-z0-9_-]*")
_TEAM = re.compile(r"@(?P<org>[A-Za-z0-9][A-Za-z0-9_-]*)/(?P<team>[A-Za-z0-9_][A-Za-z0-9_.-]*)")

# Spellings whose regex matches every path, so a check can tell the catch-all rule apart.
_CATCH_ALL = frozenset({"*", "**", "/**", "**/*", "/**/*"})


class Frozen(BaseModel):
    """Immutable record that rejects unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Rule(Frozen):
    """One CODEOWNERS line that GitHub accepts: a pattern and its owners, spelled as written."""

    pattern: str
    owners: tuple[str, ...]
    line: int

    @property
    def is_catch_all(self) -> bool:
        """True when the pattern matches every path in the repository (`*`, `**`, ...)."""
        return self.pattern in _CATCH_ALL

    def matches(self, path: str) -> bool:
        """Whether this rule's pattern matches a repository-relative file path."""
        return _rule_globs(self.pattern).best(path) == 0


class SkippedLine(Frozen):
    """A line GitHub ignores because its syntax is not supported, with the reason in one line."""

    line: int
    text: str
    reason: str


class CodeOwners(Frozen):
    """The rules of one CODEOWNERS file in file order, and the lines that were skipped."""

    rules: tuple[Rule, ...]
    skipped: tuple[SkippedLine, ...] = ()

    @cached_property
    def _pieces(self) -> tuple[tuple[Piece, ...], ...]:
        return tuple(_pattern_pieces(rule.pattern) for rule in self.rules)

    @cached_property
    def _buckets(self) -> dict[str | None, tuple[int, ...]]:
        """Rule indices by the literal first path segment they need (None: any first segment)."""
        buckets: dict[str | None, list[int]] = {}
        for index, pieces in enumerate(self._pieces):
            if pieces:  # a pattern that names no path matches nothing
                buckets.setdefault(_first_segment(pieces), []).append(index)
        return {key: tuple(indices) for key, indices in buckets.items()}

    @cached_property
    def _matchers(self) -> dict[str | None, tuple[GlobSet, tuple[int, ...]]]:
        return {}  # filled on demand: the shared group, then one per first segment met

    def _matcher(self, key: str | None) -> tuple[GlobSet, tuple[int, ...]]:
        if key not in self._matchers:
            indices = self._buckets.get(key, ())
            self._matchers[key] = (GlobSet([self._pieces[i] for i in indices]), indices)
        return self._matchers[key]

    def match(self, path: str) -> Rule | None:
        """The last rule matching `path` (it may have no owners), or None when no rule matches.

        `path` is repository-relative with `/` separators and no leading slash, as GitHub's pull
        request files API gives it. Matching is case-sensitive, like GitHub's, and linear in the
        path; patterns that exceed the matching budget raise `glob_automaton.GlobTooComplex`.
        """
        best = -1
        first = path.split("/", 1)[0]
        # Rules that may match any first segment, then those naming this path's first segment.
        for key in (None, first) if first in self._buckets else (None,):
            globs, indices = self._matcher(key)
            try:
                found = globs.best(path) if indices else -1
            except GlobTooComplex:
                raise GlobTooComplex(
                    f"CODEOWNERS: who owns {path[:200]} cannot be decided within signoff's "
                    "matching budget; ownership is unverified"
                ) from None
            best = max(best, indices[found] if found >= 0 else -1)
        # The highest-numbered matching rule is the last matching line: "last match wins".
        return self.rules[best] if best >= 0 else None

    def owners_of(self, path: str) -> tuple[str, ...]:
        """Owners of `path` as written; empty when the last match is ownerless or none matches."""
        rule = self.match(path)
        return () if rule is None else rule.owners

    def listed_owners(self) -> tuple[str, ...]:
        """Every owner named on any rule, once each (compared case-insensitively), sorted."""
        seen: dict[str, str] = {}
        for rule in self.rules:
            for owner in rule.owners:
                seen.setdefault(owner.casefold(), owner)
        return tuple(seen[key] for key in sorted(seen))


def owner_is_team(owner: str) -> bool:
    """Whether an owner names a team (`@org/team`) rather than a user or an email address."""
    return team_slug(owner) is not None


def team_slug(owner: str) -> tuple[str, str] | None:
    """`@org/team` -> ("org", "team"); None for users, emails and anything malformed."""
    found = _TEAM.fullmatch(owner)
    return None if found is None else (found["org"], found["team"])


@lru_cache(maxsize=4096)
def is_valid_owner(owner: str) -> bool:
    """Whether GitHub would accept the token as an owner: `@user`, `@org/team` or an email."""
    return any(form.fullmatch(owner) for form in (_USER, _TEAM)) or _is_email(owner)


def _is_email(owner: str) -> bool:
    """`local@domain.tld`: one `@`, text before it, a dot inside the domain, no whitespace.

    Written out rather than as a regex: `[^@]+\\.[^@]+` backtracks quadratically on long tokens.
    """
    local, at, domain = owner.partition("@")
    if not at or not local or "@" in domain or any(char.isspace() for char in owner):
        return False
    return "." in domain[1:-1]


def parse_codeowners(text: str) -> CodeOwners:
    """Parse CODEOWNERS text. Never raises: lines GitHub would reject are returned as skipped."""
    rules: list[Rule] = []
    skipped: list[SkippedLine] = []
    text = text.removeprefix(_BOM)
    # GitHub splits on "\n"; a "\r" left over from CRLF endings is trailing whitespace.
    for number, raw in enumerate(text.split("\n"), start=1):
        raw = raw.removesuffix("\r")
        outcome = _parse_line(raw, number)
        if isinstance(outcome, Rule):
            rules.append(outcome)
        elif isinstance(outcome, SkippedLine):
            skipped.append(outcome)
    return CodeOwners(rules=tuple(rules), skipped=tuple(skipped))


def _parse_line(raw: str, number: int) -> Rule | SkippedLine | None:
    tokens = _tokens(raw)
    if not tokens:
        return None  # blank line or comment
    pattern, owners = tokens[0], tokens[1:]
    reason = _pattern_problem(pattern)
    if reason is None:
        reason = next(
            (_owner_problem(owner) for owner in owners if not is_valid_owner(owner)), None
        )
    if reason is not None:
        return SkippedLine(line=number, text=raw, reason=reason)
    return Rule(pattern=pattern, owners=tuple(owners), line=number)


def _tokens(raw: str) -> list[str]:
    """Whitespace-separated tokens up to a comment; a backslash keeps the next character in a token.

    A `#` that begins a token starts a comment: at the start of the line the whole line is one,
    after whitespace the rest of the line is (GitHub's `*.js @js-owner # inline` form). A `#`
    inside a token, as in `docs/c#/`, is an ordinary character.
    """
    # The common line has no backslash: plain splitting gives the same tokens, much faster.
    return _split_escaped(raw) if "\\" in raw else _split_plain(raw)


def _split_plain(raw: str) -> list[str]:
    words = [word for word in raw.replace("\t", " ").split(" ") if word]
    comment = next((i for i, word in enumerate(words) if word.startswith("#")), len(words))
    return words[:comment]


def _split_escaped(raw: str) -> list[str]:
    tokens: list[str] = []
    current: list[str] = []
    chars = iter(raw.lstrip(_BLANKS))
    for char in chars:
        if char in _BLANKS:
            if current:
                tokens.append("".join(current))
                current = []
        elif char == "#" and not current:
            break
        else:
            current.append(char)
            if char == "\\":
                current.append(next(chars, ""))
    if current:
        tokens.append("".join(current))
    return tokens


def _pattern_problem(pattern: str) -> str | None:
    """Why GitHub would reject the pattern, or None when it is usable."""
    # GitHub documents these three gitignore features as not working in CODEOWNERS; a line that
    # uses one is invalid and skipped, so earlier rules keep deciding those paths.
    if pattern.startswith("\\#"):
        return "GitHub does not support escaping a leading `#` with a backslash"
    if pattern.startswith("!"):
        return "GitHub does not support `!` negation patterns"
    if _has_unescaped(pattern, "[]"):
        return "GitHub does not support `[ ]` character ranges"
    if _ends_escaping(pattern):
        return "the pattern ends with a lone backslash"
    if not pattern.strip("/"):
        return "the pattern names no path"
    return None


def _owner_problem(owner: str) -> str:
    return f"`{owner}` is not an owner: expected @user, @org/team or an email address"


def _ends_escaping(pattern: str) -> bool:
    trailing = len(pattern) - len(pattern.rstrip("\\"))
    return trailing % 2 == 1


def _has_unescaped(pattern: str, wanted: str) -> bool:
    escaped = False
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in wanted:
            return True
    return False


@lru_cache(maxsize=1024)
def _rule_globs(pattern: str) -> GlobSet:
    """The automaton of a single rule's pattern (for `Rule.matches`)."""
    return GlobSet([_pattern_pieces(pattern)])


def _pattern_pieces(pattern: str) -> tuple[Piece, ...]:
    """Translate one pattern into glob pieces that must match a whole path."""
    segments = _split_segments(pattern)
    # A trailing slash names a directory: only the files beneath it match.
    is_dir = len(segments) > 1 and segments[-1] == ""
    if is_dir:
        segments.pop()
    # A slash at the start or in the middle anchors the pattern to the repository root;
    # without one it matches at any depth (`*.js`, `apps/`).
    anchored = len(segments) > 1
    if segments[0] == "":
        segments.pop(0)
    if not segments or segments == [""]:
        return ()  # `/` alone names no path; the parser skips such lines
    pieces: list[Piece] = [] if anchored else [("opt_dirs", "")]
    for index, segment in enumerate(segments):
        is_last = index == len(segments) - 1
        if segment == "**":
            # `**/` is zero or more directories; a final `/**` is everything inside.
            pieces.append(("any_plus", "") if is_last else ("opt_dirs", ""))
        else:
            pieces += _segment_pieces(segment)
            if not is_last:
                pieces.append(("lit", "/"))
    return _join_literals((*pieces, *_tail_pieces(segments[-1], is_dir)))


def _join_literals(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """Adjacent literal characters as one piece: a 3 MB file stays a few MB in memory."""
    joined: list[Piece] = []
    for kind, text in pieces:
        if kind == "lit" and joined and joined[-1][0] == "lit":
            joined[-1] = ("lit", joined[-1][1] + text)
        else:
            joined.append((kind, text))
    return tuple(joined)


def _first_segment(pieces: tuple[Piece, ...]) -> str | None:
    """The literal first path segment every match must start with, or None when it may vary."""
    kind, text = pieces[0]
    if kind != "lit":
        return None
    if "/" in text:
        return text.split("/", 1)[0]
    # The segment ends with the pattern (`/docs`, `/docs/`), or a wildcard continues it.
    follower = pieces[1][0] if len(pieces) > 1 else None
    return text if follower in (None, "opt_below", "below") else None


def _tail_pieces(last: str, is_dir: bool) -> tuple[Piece, ...]:
    if is_dir:
        return (("below", ""),)
    if last in ("*", "**"):
        # GitHub: `docs/*` matches `docs/getting-started.md` but not files in subdirectories.
        return ()
    # A pattern that names a directory also covers the files beneath it (`/build/logs`).
    return (("opt_below", ""),)


def _split_segments(body: str) -> list[str]:
    """Split on unescaped slashes, keeping escapes in place for `_segment_pieces`."""
    segments: list[str] = []
    current: list[str] = []
    chars = iter(body)
    for char in chars:
        if char == "/":
            segments.append("".join(current))
            current = []
            continue
        current.append(char)
        if char == "\\":
            current.append(next(chars, ""))
    segments.append("".join(current))
    return segments


def _segment_pieces(segment: str) -> list[Piece]:
    """`*` is any run within a segment, `?` one character other than `/`, `\\x` a literal x."""
    if not any(special in segment for special in "*?\\"):
        return [("lit", segment)] if segment else []
    pieces: list[Piece] = []
    chars = iter(segment)
    for char in chars:
        if char == "\\":
            escaped = next(chars, "")
            if escaped:
                pieces.append(("lit", escaped))
        elif char == "*":
            # Several stars inside a segment (`a**b`) act as one, as in gitignore.
            if not pieces or pieces[-1] != ("seg_star", ""):
                pieces.append(("seg_star", ""))
        elif char == "?":
            pieces.append(("seg_one", ""))
        else:
            pieces.append(("lit", char))
    return pieces
