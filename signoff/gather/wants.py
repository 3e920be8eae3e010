"""Read what the standard's checks ask for: files and directory listings at named refs.

A check module may define `wants(ctx) -> Iterable[Want]` (signoff/evidence.py). Gather asks the
plan's view of the evidence (signoff/gather/plan.py: every check of the standard), reads what is
new, and asks again with the new reads in the view (a directory listing can lead to file reads),
for at most MAX_ROUNDS rounds. So a new check gets its evidence without any change to gather,
and a standard without that check reads nothing more.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from github.GithubException import GithubException

from signoff.evidence import DirListing, Evidence, FileRead, FileState, Want, WantRole
from signoff.gather import files
from signoff.gather.plan import View
from signoff.github.answers import DirEntry
from signoff.github.api import Api, error_status

# Rounds of asking: a check may follow what it reads (the sweep's programs and their imports,
# a directory listing before the files in it); most PRs need one, and a round without new
# wants ends the loop.
MAX_ROUNDS = 10
MAX_WANTS = 200  # extra reads per verification; beyond it checks see "not read" and fail closed

Build = Callable[[tuple[FileRead, ...], tuple[DirListing, ...]], View]


def read_wanted(
    api: Api, repo: str, build: Build, refs: Mapping[WantRole, str], base: Evidence
) -> tuple[list[FileRead], list[DirListing]]:
    """Every read the standard's checks want beyond `base`'s, in the order first asked."""
    reads: list[FileRead] = []
    listings: list[DirListing] = []
    done: set[Want] = _already(base)
    budget = MAX_WANTS
    cut: frozenset[int] = frozenset()
    for _ in range(MAX_ROUNDS):
        view = build(tuple(reads), tuple(listings))
        new, cut = _this_round(view.wants_by_check(), done, budget, cut)
        budget -= len(new)
        if not new:
            break
        _send_ahead(api, repo, new, refs, base)
        for want in new:
            done.add(want)
            if want.kind == "dir":
                listings.append(list_dir(api, repo, want.path, refs[want.role], want.role))
            else:
                reads.append(_read(api, repo, want, refs[want.role], base))
    return reads, listings


def _this_round(
    by_check: Iterable[Sequence[Want]],
    done: set[Want],
    budget: int,
    cut: frozenset[int] = frozenset(),
) -> tuple[list[Want], frozenset[int]]:
    """The reads this round makes, and the checks cut short so far (by their place in
    `by_check`, the standard's order): all reads when the budget left holds them; otherwise the
    checks asking the fewest new reads first, each in full, within half the budget left (at
    least one read), so a check that follows what it reads (a directory listing, then the
    files in it) keeps budget for its next round when another check asks more reads than the
    budget holds. A check not granted all it asked is cut: it gets nothing in later rounds. It
    fails closed on what it was not granted either way, and granting it half of what is left
    round after round cost a mass edit six more rounds, each a wave of requests and a new
    reading of every check, for 23 more reads (InferenceX #2096)."""
    asked = [
        [] if at in cut else [w for w in dict.fromkeys(wants) if w not in done]
        for at, wants in enumerate(by_check)
    ]
    every = list(dict.fromkeys(w for wants in asked for w in wants))
    if len(every) <= budget:
        return every, cut
    spend = min(budget, max(budget // 2, 1))
    out: dict[Want, None] = {}
    for wants in sorted(asked, key=len):  # stable: equal counts keep check order
        for want in wants:
            if len(out) >= spend:
                break
            out[want] = None
    short = {at for at, wants in enumerate(asked) if any(w not in out for w in wants)}
    return list(out), cut | short


def _already(evidence: Evidence) -> set[Want]:
    have: set[Want] = set()
    for read in evidence.files:
        if read.role != "eval":
            have.add(Want(kind="file", path=read.path, role=read.role))
    for listing in evidence.listings:
        if listing.role != "eval":
            have.add(Want(kind="dir", path=listing.path, role=listing.role))
    return have


def _send_ahead(
    api: Api, repo: str, wants: list[Want], refs: Mapping[WantRole, str], base: Evidence
) -> None:
    """A round's file reads go out together (one GraphQL query when the api folds texts), not
    one after another; files rebuilt from their patch are not asked for."""
    wanted = [
        (want.path, refs[want.role])
        for want in wants
        if want.kind == "file" and _rebuilt(want, refs[want.role], base) is None
    ]
    files.prefetch_at(api, repo, wanted)


def _rebuilt(want: Want, ref: str, base: Evidence) -> FileRead | None:
    """A file the PR adds, rebuilt from its patch at the head (no request); else None."""
    if want.role != "head":
        return None
    added = next((f for f in base.changed_files if f.path == want.path), None)
    text = files.text_of_added(added) if added is not None else None
    return FileRead(path=want.path, role="head", sha=ref, text=text) if text is not None else None


def _read(api: Api, repo: str, want: Want, ref: str, base: Evidence) -> FileRead:
    rebuilt = _rebuilt(want, ref, base)
    return rebuilt if rebuilt is not None else files.read_file(api, repo, want.path, ref, want.role)


def list_dir(api: Api, repo: str, path: str, ref: str, role: WantRole) -> DirListing:
    """One directory listing (contents API): ok, missing (404), or unavailable with the reason."""
    try:
        data = api.get(f"/repos/{repo}/contents/{path}", {"ref": ref}, item=_entries)
    except GithubException as exc:
        state: FileState = "missing" if exc.status == 404 else "unavailable"
        return DirListing(path=path, role=role, sha=ref, state=state, reason=error_status(exc))
    if not isinstance(data, list):
        return DirListing(
            path=path, role=role, sha=ref, state="unavailable", reason=f"{path} is not a directory"
        )
    names = sorted(item["name"] + ("/" if item["type"] == "dir" else "") for item in data)
    return DirListing(path=path, role=role, sha=ref, entries=tuple(names))


def _entries(data: object) -> None:
    """A directory's entries each name themselves (a file's own object is checked by its read)."""
    if isinstance(data, list):
        for entry in data:
            DirEntry.model_validate(entry)
