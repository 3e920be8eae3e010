"""Match a path against many globs at once, in time linear in the path: a lazily built DFA."""

# Why not `re`: Python's regex engine backtracks, so a pattern with several `**` (each one a
# `.*`) against a deep path that almost matches takes exponential time (35 s seen for one path).
# Here every glob is compiled into a Thompson NFA, and the NFA is run as a DFA whose states
# (sets of NFA threads) are built on first use and cached. A character costs one dict lookup once
# its transition is known and at most one pass over the NFA before that, so a path of n
# characters costs O(n * size of all globs) at worst. A work budget bounds even that worst case:
# beyond it the matcher raises `GlobTooComplex` rather than answer, so callers fail closed.

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from signoff.errors import SignoffError

# A glob is a sequence of pieces, each standing for one regex fragment:
#   ("lit", "xy")      the literal text xy
#   ("seg_star", "")   [^/]*      any run inside one path segment
#   ("seg_one", "")    [^/]       one character other than `/`
#   ("any", "")        .*         anything, slashes included
#   ("any_plus", "")   .+
#   ("opt_dirs", "")   (?:.*/)?   zero or more leading directories
#   ("opt_below", "")  (?:/.*)?   optionally anything beneath
#   ("below", "")      /.*        something beneath (a directory pattern)
PieceKind = Literal[
    "lit", "seg_star", "seg_one", "any", "any_plus", "opt_dirs", "opt_below", "below"
]
Piece = tuple[PieceKind, str]

# NFA instructions: (opcode, character, a, b). CHAR/NOT_SLASH/ANY consume one character; SPLIT
# continues at a and b, JMP at a; MATCH ends glob number a.
_CHAR, _NOT_SLASH, _ANY, _SPLIT, _JMP, _MATCH = range(6)
Op = tuple[int, str, int, int]

# Default budget: NFA thread visits spent building DFA states for one path (about 1 s of work).
DEFAULT_BUDGET = 4_000_000
# Cached DFA states before the cache is dropped and rebuilt on demand (bounds memory).
MAX_STATES = 20_000


class GlobTooComplex(SignoffError):
    """The globs and a path need more matching work than the budget allows (could not verify:
    in gather it ends the run with exit 3 and one line; inside a check it is a FAIL)."""


def _emit(ops: list[Op], kind: PieceKind, literal: str) -> None:
    here = len(ops)
    if kind == "lit":
        ops += [(_CHAR, char, 0, 0) for char in literal]
    elif kind == "seg_one":
        ops.append((_NOT_SLASH, "", 0, 0))
    elif kind in ("seg_star", "any"):
        # L: SPLIT(L+1, L+3); consume one; JMP L
        consume = _NOT_SLASH if kind == "seg_star" else _ANY
        ops += [(_SPLIT, "", here + 1, here + 3), (consume, "", 0, 0), (_JMP, "", here, 0)]
    elif kind == "any_plus":
        ops.append((_ANY, "", 0, 0))
        _emit(ops, "any", "")
    elif kind == "opt_dirs":
        ops.append((_SPLIT, "", here + 1, here + 5))
        _emit(ops, "any", "")
        ops.append((_CHAR, "/", 0, 0))
    elif kind == "opt_below":
        ops += [(_SPLIT, "", here + 1, here + 5), (_CHAR, "/", 0, 0)]
        _emit(ops, "any", "")
    elif kind == "below":
        ops.append((_CHAR, "/", 0, 0))
        _emit(ops, "any", "")


def compile_program(globs: Sequence[Sequence[Piece]]) -> tuple[list[Op], list[int]]:
    """One NFA for all globs; glob i ends in MATCH(i). Returns the ops and each glob's start."""
    ops: list[Op] = []
    starts: list[int] = []
    for index, pieces in enumerate(globs):
        starts.append(len(ops))
        for kind, literal in pieces:
            _emit(ops, kind, literal)
        ops.append((_MATCH, "", index, 0))
    return ops, starts


@dataclass
class _State:
    threads: tuple[int, ...]  # NFA pcs that consume a character
    accept: int  # the highest glob index that matches here, -1 for none
    moves: dict[str, int] = field(default_factory=dict)


class GlobSet:
    """Globs matched together; `best(path)` is the highest-numbered glob matching all of `path`.

    Transitions are cached across calls, so the paths of one PR share the work; the budget
    applies to each call.
    """

    def __init__(
        self,
        globs: Sequence[Sequence[Piece]],
        budget: int = DEFAULT_BUDGET,
        max_states: int = MAX_STATES,
    ) -> None:
        self._ops, self._starts = compile_program(globs)
        self._budget = budget
        self._max_states = max_states
        self._left = budget
        self._reset()

    def _reset(self) -> None:
        self._states: list[_State] = []
        self._index: dict[tuple[int, ...], int] = {}
        self._start = self._state_for(self._starts)

    def best(self, path: str) -> int:
        """Index of the last glob that matches the whole path, or -1 when none does."""
        self._left = self._budget
        state = self._start
        for char in path:
            found = self._states[state].moves.get(char)
            if found is None:
                found = self._step(state, char)
            state = found
            if not self._states[state].threads and self._states[state].accept < 0:
                return -1  # dead state: nothing can match any more
        return self._states[state].accept

    def _step(self, state: int, char: str) -> int:
        if len(self._states) >= self._max_states:
            threads = self._states[state].threads
            self._reset()
            state = self._state_for(threads)
        targets = [pc + 1 for pc in self._states[state].threads if self._consumes(pc, char)]
        found = self._state_for(targets)
        self._states[state].moves[char] = found
        return found

    def _consumes(self, pc: int, char: str) -> bool:
        code, literal, _, _ = self._ops[pc]
        if code == _CHAR:
            return literal == char
        return code == _ANY or (code == _NOT_SLASH and char != "/")

    def _state_for(self, pcs: Sequence[int]) -> int:
        threads, accept = self._closure(pcs)
        key = (*threads, accept)
        known = self._index.get(key)
        if known is not None:
            return known
        self._states.append(_State(threads=threads, accept=accept))
        self._index[key] = len(self._states) - 1
        return len(self._states) - 1

    def _closure(self, pcs: Sequence[int]) -> tuple[tuple[int, ...], int]:
        """Follow SPLIT/JMP from `pcs`: the consuming threads reached and the best MATCH."""
        ops = self._ops
        seen: set[int] = set()
        stack = list(pcs)
        threads: list[int] = []
        accept = -1
        while stack:
            pc = stack.pop()
            if pc in seen:
                continue
            seen.add(pc)
            code, _, first, second = ops[pc]
            if code == _SPLIT:
                stack.append(second)
                stack.append(first)
            elif code == _JMP:
                stack.append(first)
            elif code == _MATCH:
                accept = max(accept, first)
            else:
                threads.append(pc)
        self._spend(len(seen))
        # A set of threads is one DFA state whatever order they were reached in.
        threads.sort()
        return tuple(threads), accept

    def _spend(self, work: int) -> None:
        self._left -= work
        if self._left < 0:
            raise GlobTooComplex(
                "matching paths against these patterns needs more work than signoff allows"
            )
