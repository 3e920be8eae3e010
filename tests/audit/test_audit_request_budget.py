"""What keeps an audit within its request budget: artifact zips kept by id, edit histories by the
comment's `updated_at`, reads fixed by a commit shared by the PRs of a run, and a report whose
cost sits apart from its findings. On a stub transport (no network)."""

from __future__ import annotations

import io
import json
import threading
import time
import zipfile
from pathlib import Path

import pytest
import requests
from requests.adapters import HTTPAdapter

from signoff.audit import cache as cache_module
from signoff.audit.budget import FIXED, Meter, current_owner
from signoff.audit.cache import CachingAdapter, HttpCache, live_origin
from signoff.audit.model import AuditReport, Cost, PullCost, findings, summarize
from signoff.audit.render_json import load_report, render_json
from signoff.gather.signoff_edits import QUERY as EDITS_QUERY

API = "https://api.github.com"
BLOBS = "https://blobs.example"
SHA = "a" * 40
RATE = {"X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "4000"}
ZIP = "/repos/o/r/actions/artifacts/77/zip"
CONTENTS = f"/repos/o/r/contents/.github/CODEOWNERS?ref={SHA}"
NODE = "IC_kwDOsignoff"
HISTORY = {"data": {"node": {"__typename": "IssueComment", "userContentEdits": {"nodes": []}}}}


def a_zip(text: str = '{"score": 0.97}') -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("meta_env.json", text)
    return out.getvalue()


class Server:
    """GitHub as the stub answers it: the API (rate-limited), a blob host, and GraphQL."""

    def __init__(self) -> None:
        self.seen: list[str] = []  # "METHOD url"
        self.blob = a_zip()
        self.graphql: dict[str, object] = HISTORY
        self.delay = 0.0
        self._lock = threading.Lock()

    def answer(self, request: requests.PreparedRequest) -> requests.Response:
        url = str(request.url)
        with self._lock:
            self.seen.append(f"{request.method} {url}")
        time.sleep(self.delay)
        response = requests.Response()
        response.url, response.request, response.status_code = url, request, 200
        response._content_consumed = True
        if url == API + ZIP:
            response.status_code = 302
            response.headers.update({**RATE, "Location": f"{BLOBS}/77.zip?sig=x"})
            response._content = b""
        elif url.startswith(BLOBS):
            assert "Authorization" not in request.headers  # the token never leaves for blobs
            response.headers.update({"Content-Type": "application/zip"})
            response._content = self.blob
        elif url == API + "/graphql":
            response.headers.update({**RATE, "X-RateLimit-Resource": "graphql"})
            response.headers["Content-Type"] = "application/json"
            response._content = json.dumps(self.graphql).encode()
        else:
            response.headers.update({**RATE, "ETag": '"x"', "Content-Type": "application/json"})
            response._content = b'{"content": "Kg=="}'
        return response

    def count(self, fragment: str) -> int:
        return sum(1 for line in self.seen if fragment in line)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Server:
    stub = Server()
    monkeypatch.setattr(HTTPAdapter, "send", lambda self, request, **kw: stub.answer(request))
    return stub


def run(folder: Path) -> tuple[CachingAdapter, Meter]:
    meter = Meter()
    return CachingAdapter(HttpCache(folder, live_origin(API)), meter), meter


def send(adapter: CachingAdapter, request: requests.Request, owner: str) -> requests.Response:
    token = current_owner.set(owner)
    try:
        prepared = request.prepare()
        prepared.headers["Authorization"] = "token secret"
        return adapter.send(prepared)
    finally:
        current_owner.reset(token)


def download(adapter: CachingAdapter, owner: str = "pr-1") -> bytes:
    response = send(adapter, requests.Request("GET", API + ZIP), owner)
    assert response.status_code == 200
    return b"".join(response.iter_content(65536))


def edits(adapter: CachingAdapter, node: str = NODE, owner: str = "pr-1") -> object:
    body = {"query": EDITS_QUERY, "variables": {"id": node, "first": 100, "after": None}}
    return send(adapter, requests.Request("POST", API + "/graphql", json=body), owner).json()


# --- zips by artifact id ------------------------------------------------------------------


def test_an_artifacts_zip_is_downloaded_once_and_served_by_its_id_on_the_next_run(
    server: Server, tmp_path: Path
) -> None:
    first, spent = run(tmp_path)
    assert download(first) == server.blob
    assert (server.count(ZIP), server.count(BLOBS)) == (1, 1)
    assert spent.counted(FIXED) == 1  # the API's redirect; the blob host has no rate limit
    again, meter = run(tmp_path)
    assert download(again, "pr-2") == server.blob
    assert (server.count(ZIP), server.count(BLOBS)) == (1, 1)
    assert meter.total().counted == 0 and meter.total().cache_hits == 1


def test_a_truncated_zip_in_the_cache_is_not_a_hit_and_is_downloaded_again(
    server: Server, tmp_path: Path
) -> None:
    download(run(tmp_path)[0])
    (entry,) = tmp_path.rglob("*.entry")
    entry.write_bytes(entry.read_bytes()[:-40])  # a disk that filled up mid-write
    assert download(run(tmp_path)[0]) == server.blob
    assert server.count(BLOBS) == 2


def test_a_download_that_is_no_whole_zip_is_passed_on_but_never_kept(
    server: Server, tmp_path: Path
) -> None:
    server.blob = a_zip()[:-30]  # cut in transit
    adapter, _ = run(tmp_path)
    assert download(adapter) == server.blob  # the reader sees it, refuses it and asks again
    download(adapter)
    assert server.count(BLOBS) == 2 and not list(tmp_path.rglob("*.entry"))


def test_a_zip_past_the_size_bound_is_cut_one_byte_past_it_and_never_kept(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_module, "MAX_ZIP_BYTES", 64)
    adapter, _ = run(tmp_path)
    assert len(download(adapter)) == 65  # the reader refuses it as too large
    assert not list(tmp_path.rglob("*.entry"))


# --- edit histories by updated_at ---------------------------------------------------------


def test_an_edit_history_is_kept_while_the_comment_keeps_its_updated_at(
    server: Server, tmp_path: Path
) -> None:
    first, _ = run(tmp_path)
    first.cache.pin_edits(NODE, "2026-07-20T11:00:00Z")
    assert edits(first) == HISTORY
    again, meter = run(tmp_path)
    again.cache.pin_edits(NODE, "2026-07-20T11:00:00Z")
    assert edits(again) == HISTORY
    assert server.count("/graphql") == 1 and meter.total().graphql == 0


def test_a_different_updated_at_means_the_comment_was_edited_and_its_history_is_asked_again(
    server: Server, tmp_path: Path
) -> None:
    first, _ = run(tmp_path)
    first.cache.pin_edits(NODE, "2026-07-20T11:00:00Z")
    edits(first)
    edited = {"data": {"node": {"__typename": "IssueComment", "editor": {"login": "mallory"}}}}
    server.graphql = edited
    later, meter = run(tmp_path)
    later.cache.pin_edits(NODE, "2026-07-21T09:30:00Z")
    assert edits(later) == edited
    assert server.count("/graphql") == 2 and meter.total().graphql == 1


def test_an_unpinned_history_a_reviews_and_a_failed_query_are_always_asked_for(
    server: Server, tmp_path: Path
) -> None:
    adapter, _ = run(tmp_path)
    edits(adapter, "PRR_review")  # REST gives a review no updated_at: never pinned
    edits(adapter, "PRR_review")
    server.graphql = {"data": {"node": None}, "errors": [{"message": "rate limited"}]}
    adapter.cache.pin_edits(NODE, "2026-07-20T11:00:00Z")
    edits(adapter)
    edits(adapter)
    assert server.count("/graphql") == 4 and not list(tmp_path.rglob("*.entry"))


# --- reads fixed by a commit, shared across the PRs of a run ------------------------------


def test_a_file_at_one_sha_is_read_once_for_every_pr_of_the_run_and_charged_to_none_of_them(
    server: Server, tmp_path: Path
) -> None:
    adapter, meter = run(tmp_path)
    for owner in ("pr-1", "pr-2", "pr-3"):
        assert send(adapter, requests.Request("GET", API + CONTENTS), owner).status_code == 200
    assert server.count(CONTENTS) == 1
    assert meter.counted(FIXED) == 1
    assert [meter.counted(f"pr-{n}") for n in (1, 2, 3)] == [0, 0, 0]


def test_prs_asking_for_one_fixed_read_at_once_wait_for_a_single_request(
    server: Server, tmp_path: Path
) -> None:
    server.delay = 0.05
    adapter, meter = run(tmp_path)
    threads = [
        threading.Thread(
            target=send, args=(adapter, requests.Request("GET", API + CONTENTS), f"pr-{n}")
        )
        for n in range(6)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert server.count(CONTENTS) == 1
    assert meter.total().counted == 1 and meter.total().cache_hits == 5


# --- the report keeps its cost apart ------------------------------------------------------


def _report(cost: Cost) -> AuditReport:
    return AuditReport(
        repository="o/r",
        base="main",
        since=None,
        until=None,
        standard="at-the-time",
        generated_by="signoff 0.1.0",
        prs=(),
        summary=summarize(()),
        cost=cost,
    )


def test_two_runs_differing_only_in_cost_have_the_same_findings_and_json_minus_cost() -> None:
    first = _report(Cost(requests=900, run=4, fixed=600, prs=(PullCost(pr=1, requests=296),)))
    rerun = _report(Cost(requests=6, run=0, fixed=0, prs=(PullCost(pr=1, requests=6),)))
    assert findings(first) == findings(rerun)
    texts = [json.loads(render_json(r)) for r in (first, rerun)]
    assert texts[0] != texts[1]
    assert texts[0]["cost"] != texts[1]["cost"]
    assert {k: v for k, v in texts[0].items() if k != "cost"} == {
        k: v for k, v in texts[1].items() if k != "cost"
    }
    assert list(texts[0])[-1] == "cost"  # one section, last


def test_a_version_2_report_is_read_with_its_requests_moved_into_cost(tmp_path: Path) -> None:
    old = json.loads(render_json(_report(Cost(requests=0, run=0, fixed=0))))
    del old["cost"]
    row = {
        "pr": 5,
        "url": "https://github.com/o/r/pull/5",
        "title": "t",
        "merged_at": "2026-07-20T12:00:00Z",
        "head_sha": SHA,
        "gated": False,
        "outcome": "NOT_GATED",
        "requests": 3,
    }
    old.update(schema_version=2, prs=[row], requests=10)
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    report = load_report(str(path))
    assert report.cost == Cost(requests=10, run=7, fixed=0, prs=(PullCost(pr=5, requests=3),))
    assert "requests" not in findings(report)["prs"][0]
