"""The audit's HTTP cache under PyGithub and its request accounting, on a stub transport."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from requests.adapters import HTTPAdapter

from signoff.audit.budget import Budget, Meter, current_owner
from signoff.audit.cache import CachingAdapter, HttpCache, is_immutable, live_origin

API = "https://api.github.com"
SHA = "c" * 40
RATE = {
    "X-RateLimit-Limit": "5000",
    "X-RateLimit-Remaining": "4000",
    "X-RateLimit-Reset": "1787400000",
    "X-RateLimit-Resource": "core",
}


class Server:
    """What the stub GitHub answers, and every request it saw."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []  # (url, If-None-Match)
        self.bodies: dict[str, bytes] = {}
        self.status: dict[str, int] = {}

    def answer(self, request: requests.PreparedRequest) -> requests.Response:
        url = str(request.url)
        tag = str(request.headers.get("If-None-Match", ""))
        self.seen.append((url, tag))
        body = self.bodies.get(url, b"[]")
        etag = f'W/"{len(body)}-{body[:8]!r}"'
        response = requests.Response()
        response.status_code = 304 if tag == etag else self.status.get(url, 200)
        response.headers.update({**RATE, "ETag": etag, "Content-Type": "application/json"})
        response._content = b"" if response.status_code == 304 else body
        response.url = url
        response.request = request
        return response


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Server:
    stub = Server()
    monkeypatch.setattr(HTTPAdapter, "send", lambda self, request, **kw: stub.answer(request))
    return stub


def get(adapter: CachingAdapter, path: str, owner: str = "pr-1") -> requests.Response:
    token = current_owner.set(owner)
    try:
        return adapter.send(requests.Request("GET", API + path).prepare())
    finally:
        current_owner.reset(token)


def run(folder: Path, origin: str = live_origin(API)) -> tuple[CachingAdapter, Meter]:
    meter = Meter()
    return CachingAdapter(HttpCache(folder, origin), meter), meter


CONTENTS = f"/repos/o/r/contents/docs/PR_REVIEW_CHECKLIST.md?ref={SHA}"
COMMENTS = "/repos/o/r/issues/1/comments?per_page=100"


def test_what_a_sha_names_is_served_from_disk_on_the_next_run_without_asking(
    server: Server, tmp_path: Path
) -> None:
    server.bodies[API + CONTENTS] = b'{"content": "dGVtcGxhdGU="}'
    first, _ = run(tmp_path)
    assert get(first, CONTENTS).json() == {"content": "dGVtcGxhdGU="}
    second, meter = run(tmp_path)
    assert get(second, CONTENTS, "pr-2").json() == {"content": "dGVtcGxhdGU="}
    assert len(server.seen) == 1 and meter.total().cache_hits == 1 and meter.total().counted == 0


def test_anything_else_is_revalidated_and_a_304_costs_nothing(
    server: Server, tmp_path: Path
) -> None:
    server.bodies[API + COMMENTS] = b'[{"id": 1}]'
    first, _ = run(tmp_path)
    get(first, COMMENTS)
    second, meter = run(tmp_path)
    response = get(second, COMMENTS)
    assert response.status_code == 200 and response.json() == [{"id": 1}]
    assert server.seen[-1][1].startswith('W/"')  # conditional request
    spend = meter.total()
    assert (spend.counted, spend.not_modified) == (0, 1)


def test_a_changed_answer_replaces_the_entry(server: Server, tmp_path: Path) -> None:
    server.bodies[API + COMMENTS] = b'[{"id": 1}]'
    get(run(tmp_path)[0], COMMENTS)
    server.bodies[API + COMMENTS] = b'[{"id": 1}, {"id": 2}]'
    second, meter = run(tmp_path)
    assert get(second, COMMENTS).json() == [{"id": 1}, {"id": 2}]
    assert meter.total().counted == 1


def test_one_pr_reads_a_list_once_however_often_it_asks(server: Server, tmp_path: Path) -> None:
    adapter, meter = run(tmp_path)
    for _ in range(3):
        get(adapter, COMMENTS)
    assert len(server.seen) == 1 and meter.counted("pr-1") == 1


def test_a_list_another_pr_wrote_in_this_run_is_not_used_until_the_next_run(
    server: Server, tmp_path: Path
) -> None:
    adapter, meter = run(tmp_path)
    get(adapter, COMMENTS, "pr-1")
    get(adapter, COMMENTS, "pr-2")
    assert len(server.seen) == 2  # each PR pays for its own read: costs do not depend on order
    assert meter.counted("pr-1") == meter.counted("pr-2") == 1
    adapter.cache.forget("pr-1")
    later, later_meter = run(tmp_path)
    get(later, COMMENTS, "pr-3")
    assert len(server.seen) == 3 and server.seen[-1][1]  # revalidated on the next run
    assert later_meter.total().not_modified == 1


def test_a_merged_prs_file_list_becomes_immutable_once_frozen(
    server: Server, tmp_path: Path
) -> None:
    files = "/repos/o/r/pulls/7/files?per_page=100"
    assert not is_immutable(API + files, frozenset())
    assert is_immutable(API + files, {"/repos/o/r/pulls/7/files": SHA})
    assert is_immutable(f"{API}/api/v3/repos/o/r/compare/{SHA}...{'d' * 40}", frozenset())
    assert not is_immutable(f"{API}/repos/o/r/contents/x?ref=main", frozenset())
    first, _ = run(tmp_path)
    first.cache.freeze(SHA, "/repos/o/r/pulls/7/files")
    get(first, files)
    again, _ = run(tmp_path)
    again.cache.freeze(SHA, "/repos/o/r/pulls/7/files")
    get(again, files)
    assert len(server.seen) == 1


def test_a_missing_file_at_a_sha_is_remembered_but_a_missing_list_is_not(
    server: Server, tmp_path: Path
) -> None:
    server.status[API + CONTENTS] = 404
    server.status[API + COMMENTS] = 404
    get(run(tmp_path)[0], CONTENTS)
    get(run(tmp_path)[0], COMMENTS)
    again, _ = run(tmp_path)
    assert get(again, CONTENTS, "pr-9").status_code == 404
    get(again, COMMENTS, "pr-9")
    assert [url for url, _ in server.seen].count(API + CONTENTS) == 1
    assert [url for url, _ in server.seen].count(API + COMMENTS) == 2


def test_a_torn_cache_file_is_a_miss_never_an_answer(server: Server, tmp_path: Path) -> None:
    server.bodies[API + CONTENTS] = b'{"content": ""}'
    adapter, _ = run(tmp_path)
    get(adapter, CONTENTS)
    for entry in tmp_path.rglob("*.entry"):
        entry.write_bytes(b'{"status": 2')
    get(run(tmp_path)[0], CONTENTS)
    assert len(server.seen) == 2


def test_answers_without_rate_limit_headers_are_not_counted_and_retries_are() -> None:
    meter = Meter()
    meter.sent(200, 1, {"Content-Type": "application/zip"})  # blob storage
    meter.sent(200, 3, RATE)  # two retries, then an answer
    meter.sent(304, 1, RATE)
    spend = meter.total()
    assert (spend.counted, spend.not_modified) == (3, 1)
    assert meter.remaining == 4000 and meter.reset_at == 1787400000


def _clock() -> Iterator[float]:
    now = 1_000.0
    while True:
        yield now
        now += 1.0


def test_a_low_budget_waits_for_the_reset_with_a_countdown() -> None:
    meter = Meter(remaining=10, reset_at=1_005.0)
    ticks = _clock()
    shown: list[float] = []
    slept: list[float] = []
    budget = Budget(
        meter, None, sleep=slept.append, clock=lambda: next(ticks), on_wait=shown.append
    )
    budget.wait_if_low()
    assert shown[0] > shown[1] > 0 and shown[-1] == 0  # counts down, then clears
    assert sum(slept) >= 5 and meter.remaining is None


def test_a_healthy_budget_never_waits_and_max_requests_stops_new_prs() -> None:
    meter = Meter(remaining=4000, reset_at=9e9)
    waited: list[Any] = []
    budget = Budget(meter, 2, sleep=waited.append)
    budget.wait_if_low()
    assert waited == [] and budget.exhausted() == ""
    meter.sent(200, 2, RATE)
    assert budget.exhausted() == "stopped after 2 requests (--max-requests 2)"


# --- one origin per entry: a server's or a recording's answers never answer for another -----


def test_an_entry_answers_only_for_the_server_or_recording_it_came_from(
    server: Server, tmp_path: Path
) -> None:
    server.bodies[API + CONTENTS] = b'{"content": "cmVhbA=="}'
    get(run(tmp_path)[0], CONTENTS)
    for origin in (
        live_origin("https://ghe.example.com/api/v3"),
        "recording sha256:" + "0" * 64,
    ):
        other, meter = run(tmp_path, origin)
        get(other, CONTENTS, "pr-2")
        assert meter.total().cache_hits == 0, origin
    assert len(server.seen) == 3  # the same URL, asked once per origin
    again, meter = run(tmp_path)
    get(again, CONTENTS, "pr-3")
    assert meter.total().cache_hits == 1 and len(server.seen) == 3


def test_an_entry_file_of_another_origin_is_never_read_even_under_our_key(
    server: Server, tmp_path: Path
) -> None:
    server.bodies[API + CONTENTS] = b'{"content": "ZGVtbw=="}'
    demo, _ = run(tmp_path, "recording sha256:" + "1" * 64)
    get(demo, CONTENTS)
    real, _ = run(tmp_path)
    request = requests.Request("GET", API + CONTENTS).prepare()
    ours = real.cache.key(request)
    (foreign,) = tmp_path.rglob("*.entry")
    target = tmp_path / ours[:2] / f"{ours}.entry"
    target.parent.mkdir(exist_ok=True)
    target.write_bytes(foreign.read_bytes())  # the demo's answer, filed under the real key
    server.bodies[API + CONTENTS] = b'{"content": "cmVhbA=="}'
    assert get(real, CONTENTS, "pr-2").json() == {"content": "cmVhbA=="}


def test_a_merged_prs_lists_are_served_unasked_only_for_the_head_they_were_read_at(
    server: Server, tmp_path: Path
) -> None:
    files = "/repos/o/r/pulls/7/files?per_page=100"
    server.bodies[API + files] = b'[{"filename": "a"}]'
    first, _ = run(tmp_path)
    first.cache.freeze(SHA, "/repos/o/r/pulls/7/files")
    get(first, files)
    other_head, meter = run(tmp_path)
    other_head.cache.freeze("d" * 40, "/repos/o/r/pulls/7/files")
    get(other_head, files)
    assert len(server.seen) == 2 and meter.total().cache_hits == 0
    unpinned, _ = run(tmp_path)
    unpinned.cache.freeze("not-a-sha", "/repos/o/r/pulls/7/files")  # no head: revalidated
    assert not is_immutable(API + files, unpinned.cache.frozen())


def test_a_cache_cannot_be_made_without_naming_its_origin(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="origin"):
        HttpCache(tmp_path, "")
