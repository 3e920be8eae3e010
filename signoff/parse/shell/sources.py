"""Which repository file a `source`/`.` command reads, and its text when the PR changed it.

The sweep runs a benchmark script as `bash benchmarks/.../x.sh` from the repository root, so
`$0` is the script's repository path and `$(dirname "$0")` (or `${BASH_SOURCE[0]}`'s directory,
the file being read) its directory. A word known only in part (`$ROOT/benchmarks/lib.sh`) or an
absolute path (`/workspace/benchmarks/lib.sh`, the repository mounted in a container) names
whichever changed file its known tail ends with: fail closed, the file the PR wrote is what
may run. A relative path known whole is read from the root, as the sweep runs the script (the
reader does not follow `cd`). Only files the PR adds or changes are looked up; anything else
keeps its baseline reading.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from posixpath import dirname, normpath

from signoff.parse.shell.fields import Field
from signoff.parse.shell.syntax import Parsed

MAX_SOURCED_CHARS = 512_000  # a sourced file's text read at most (GitHub serves up to 1 MB)
MAX_SOURCE_DEPTH = 8  # sourced files sourcing others
_NAME_TOKEN = re.compile(r"[\w.+-]+")
MAX_CANDIDATES = 16  # changed files one word may name
# `$(dirname "$0")`, `$(dirname "${BASH_SOURCE[0]}")`, `$(cd "$(dirname "$0")" && pwd)`,
# `${0%/*}`, `${BASH_SOURCE%/*}`: the directory of the script ($0) or of the file being read.
DIR_OF = re.compile(
    r"""\$\(\s*(?:cd\s+["']?\$\(\s*)?dirname\s+(?:--\s+)?["']?\$\{?(?P<a>0|BASH_SOURCE(?:\[0\])?)\}?["']?\s*\)"""
    r"""(?:["']?\s*(?:&&|;)\s*pwd(?:\s+-P)?\s*\))?"""
    r"""|\$\{(?P<b>0|BASH_SOURCE(?:\[0\])?)%/\*\}"""
)


@dataclass(frozen=True)
class SourcedText:
    """A file the PR changed, as a sourcing script would read it: its tree, or why not."""

    path: str
    tree: Parsed | None
    reason: str = ""  # why it cannot be read completely (tree None)
    problems: tuple[tuple[int, str], ...] = ()  # what its own parse could not read


def _no_text(path: str) -> tuple[str | None, str]:
    return None, "not read"


@dataclass(frozen=True)
class Sources:
    """What `source` may read: the files the PR adds or changes, looked up by path."""

    script: str  # the script's repository path: `$0` as the sweep runs it
    changed: frozenset[str]  # repository paths the PR adds or changes (not removed)
    read: Callable[[str], SourcedText]  # a changed file's head text, parsed (memoised)
    # a changed file's head text as data (a launch's --config), or why it cannot be read
    text: Callable[[str], tuple[str | None, str]] = _no_text

    def resolve(
        self, word: Field, current: str, *, under: bool = False
    ) -> tuple[str, tuple[str, ...]]:
        """(the path as bash reads it from the repository root, "" when that is not known;
        the changed files the word may name). `current`: the file being read. `under`: the
        word may name a directory, so the changed files inside it count too."""
        key = (word.text, word.known, word.parts, current, under)
        if key not in self._resolved:
            self._resolved[key] = self._resolve(word, current, under)
        return self._resolved[key]

    @cached_property
    def _resolved(self) -> dict[object, tuple[str, tuple[str, ...]]]:
        return {}

    def _resolve(self, word: Field, current: str, under: bool) -> tuple[str, tuple[str, ...]]:
        text, tail = _spelled(word, current, self.script)
        if text and not text.startswith("/"):  # from the sweep's working directory, the root
            exact = normpath(text)
            if exact.startswith("../") or exact == "..":
                return "", ()  # outside the repository
            if exact in self.changed:
                return exact, (exact,)
            inside = self._inside(exact) if under and exact != "." else ()
            return exact, inside
        return "", self._ending_with(tail, under)

    @cached_property
    def _by_name(self) -> dict[str, tuple[str, ...]]:
        """Changed paths by each component of their path (a file's name, its directories')."""
        index: dict[str, list[str]] = {}
        for path in sorted(self.changed):
            for part in dict.fromkeys(path.split("/")):
                index.setdefault(part, []).append(path)
        return {name: tuple(paths) for name, paths in index.items()}

    def anywhere(self, text: str) -> tuple[str, ...]:
        """Changed files a relative path may name from a working directory not known: those
        whose path ends with it at a directory boundary, or lie inside such a directory."""
        return self._ending_with(text, True)

    def mentioned(self, text: str) -> tuple[str, ...]:
        """Changed files whose base name the text names as a word (`$(cat x/spec.json)`)."""
        found: dict[str, None] = {}
        for token in _NAME_TOKEN.findall(text):
            for path in self._by_name.get(token, ()):
                if path.rsplit("/", 1)[-1] == token:
                    found.setdefault(path, None)
        return tuple(found)

    def _inside(self, directory: str) -> tuple[str, ...]:
        return self._under.get(directory, ())[:MAX_CANDIDATES]

    @cached_property
    def _suffixes(self) -> dict[tuple[bool, tuple[str, ...]], tuple[str, ...]]:
        """Changed paths by each run of trailing components of the path (False) or of one of
        its directories (True): a tail looks its candidates up instead of scanning them."""
        index: dict[tuple[bool, tuple[str, ...]], list[str]] = {}
        for path in sorted(self.changed):
            own = tuple(path.split("/"))
            for end in range(len(own), 0, -1):
                inside = end < len(own)
                for start in range(end):
                    index.setdefault((inside, own[start:end]), []).append(path)
        return {key: tuple(dict.fromkeys(paths)) for key, paths in index.items()}

    @cached_property
    def _under(self) -> dict[str, tuple[str, ...]]:
        """Changed paths by each directory they lie in (`a/b/c.sh`: `a`, `a/b`)."""
        index: dict[str, list[str]] = {}
        for path in sorted(self.changed):
            parts = path.split("/")
            for end in range(1, len(parts)):
                index.setdefault("/".join(parts[:end]), []).append(path)
        return {key: tuple(paths) for key, paths in index.items()}

    def _ending_with(self, tail: str, under: bool) -> tuple[str, ...]:
        """Changed files the tail may be (or, `under`, lie inside): one path ends with the
        other at a directory boundary (the root, the working directory or the mount point is
        not known). At most MAX_CANDIDATES are named (any of them fails what needs it)."""
        parts = tuple(part for part in normpath("/" + tail).split("/") if part)
        if not parts:
            return ()
        found: dict[str, None] = {}
        kinds = (False, True) if under else (False,)
        for inside in kinds:  # the tail ends with a whole path, or a path ends with the tail
            found.update(dict.fromkeys(self._suffixes.get((inside, parts), ())))
            for start in range(1, len(parts)):  # the tail ends with a whole path (or dir)
                whole = "/".join(parts[start:])
                if not inside and whole in self.changed:
                    found.setdefault(whole, None)
                elif inside:
                    found.update(dict.fromkeys(self._under.get(whole, ())))
        return tuple(sorted(found))[:MAX_CANDIDATES]


def _spelled(word: Field, current: str, script: str) -> tuple[str, str]:
    """The word's text with the self-directory forms replaced ("" when another part stays
    unknown), and its known tail: the text after the last unknown part, from a `/` on."""
    pieces = word.parts if not word.known and word.parts else ((word.text, True),)
    out: list[str] = []
    known = True
    tail = ""
    for piece, piece_known in pieces:
        if not piece_known:
            piece = DIR_OF.sub(
                lambda m: dirname(script if (m["a"] or m["b"]) == "0" else current) or ".",
                piece,
            )
            if "$" in piece or "`" in piece:
                known, tail = False, ""
                continue
        out.append(piece)
        tail += piece
    if known:
        return "".join(out), "".join(out)
    return "", tail[tail.index("/") :] if "/" in tail else ""


def read_problem(path: str, text: str | None, why_unread: str) -> str:
    """Why a changed sourced file's text cannot be read completely ("" when it can)."""
    if text is None:
        return why_unread or "not read"
    if len(text) > MAX_SOURCED_CHARS:
        limit = f"{MAX_SOURCED_CHARS:,}"
        return f"too large ({len(text):,} characters; the reader follows at most {limit})"
    if "\x00" in text:
        return "binary (it holds NUL bytes)"
    return ""
