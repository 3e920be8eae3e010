"""The lists folded into GraphQL read as their REST lists do, and anything they cannot stand in
for is read through REST instead: the PR's commits, the pinned head's check runs, the first page
of the sign-off's edit history (signoff/gather/pull_graph.py, signoff_edits.py)."""

from __future__ import annotations

from typing import Any

from github.GithubException import GithubException

from signoff.evidence import SignOff
from signoff.gather import commit_runs, files, pull_graph, signoff_edits

REPO = "SemiAnalysisAI/InferenceX"
HEAD = "a" * 40
DETAILS = f"https://github.com/{REPO}/actions/runs/77/job/"


class Fake:
    """What the folds ask of an `Api`: queries sent ahead, one GraphQL answer, REST lists."""

    def __init__(self, answer: dict[str, Any] | Exception | None = None) -> None:
        self.fold_texts = True
        self.folded: dict[tuple[str, str, str], tuple[str, dict[str, Any], str]] = {}
        self.folded_reads: dict[tuple[str, str, str], tuple[str, dict[str, Any]]] = {}
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.answer = answer
        self.rest: list[str] = []
        self.queries: list[dict[str, Any]] = []
        self.own: dict[str, Any] | None = None  # the answer to the edit history's own query

    def prefetch_graphql(self, query: str, variables: dict[str, Any], *, item: Any) -> None:
        self.sent.append((query, variables))

    def graphql(self, query: str, variables: dict[str, Any], *, item: Any) -> dict[str, Any]:
        self.queries.append(variables)
        if "query SignoffEdits" in query and self.own is not None:
            item(self.own)
            return self.own
        if isinstance(self.answer, Exception):
            raise self.answer
        assert self.answer is not None
        item(self.answer)  # the check on arrival
        return self.answer

    def pages(self, path: str, **_: Any) -> list[dict[str, Any]]:
        self.rest.append(path)
        return [{"id": 1, "name": "from REST", "status": "completed", "conclusion": "success"}]

    def file_text(self, repo: str, path: str, ref: str) -> str:
        self.rest.append(path)
        return "the contents API's text"


def _run(ident: int, name: str, *, details: str | None = "", conclusion: str = "SUCCESS") -> dict:
    url = f"{DETAILS}{ident}" if details == "" else details
    return {
        "databaseId": ident, "name": name, "status": "COMPLETED", "conclusion": conclusion,
        "detailsUrl": url,
    }  # fmt: skip


def _suite(app: int | None, runs: list[dict[str, Any]], more: bool = False) -> dict[str, Any]:
    return {
        "app": {"databaseId": app} if app is not None else None,
        "checkRuns": {"pageInfo": {"hasNextPage": more}, "nodes": runs},
    }


def _answer(suites: list[dict[str, Any]], more: bool = False, **extra: Any) -> dict[str, Any]:
    head = {
        "__typename": "Commit",
        "checkSuites": {"pageInfo": {"hasNextPage": more}, "nodes": suites},
    }
    return {"data": {"repository": {"head": head, **extra}}}


def _checks(answer: dict[str, Any] | Exception) -> tuple[Fake, list[Any]]:
    api = Fake(answer)
    pull_graph.fold(api, REPO, 2700, (3, 3), HEAD, [])  # type: ignore[arg-type]
    checks = commit_runs.read_commit_checks(api, REPO, HEAD)  # type: ignore[arg-type]
    return api, [(r.name, r.id, r.status, r.conclusion, r.run_id) for r in checks.check_runs]


def test_the_heads_check_runs_read_as_the_rest_list_the_newest_of_each_name_per_app() -> None:
    rerun = [_run(5, "sweep / a", conclusion="FAILURE"), _run(9, "sweep / a")]
    other_app = [_run(7, "sweep / a", details="https://ci.example/7", conclusion="NEUTRAL")]
    api, runs = _checks(_answer([_suite(15368, rerun), _suite(42, other_app)]))
    assert runs == [
        ("sweep / a", 7, "completed", "neutral", None),
        ("sweep / a", 9, "completed", "success", 77),
    ]
    assert api.rest == []  # (no REST list read)


def test_check_runs_past_one_page_are_read_through_rest_instead() -> None:
    for answer in (
        _answer([_suite(15368, [_run(1, "a")], more=True)]),  # a suite's runs go on
        _answer([_suite(15368, [_run(1, "a")])], more=True),  # more suites than one page
    ):
        api, runs = _checks(answer)
        assert runs == [("from REST", 1, "completed", "success", None)]
        assert api.rest == [f"/repos/{REPO}/commits/{HEAD}/check-runs"]


def test_check_runs_the_answer_cannot_stand_in_for_are_read_through_rest() -> None:
    error = GithubException(400, {"errors": [{"message": "Something went wrong"}]}, None)
    for answer in (
        _answer([_suite(15368, [_run(1, "a", details=None)])]),  # REST would give its html_url
        _answer([_suite(None, [_run(1, "a")])]),  # no app: the newest per app is unknown
        _answer([_suite(15368, [{"databaseId": 1, "name": "a"}])]),  # a field missing
        {"data": {"repository": {"head": None}}},  # no such commit
        error,
    ):
        api, runs = _checks(answer)
        assert runs == [("from REST", 1, "completed", "success", None)], answer
        assert api.rest == [f"/repos/{REPO}/commits/{HEAD}/check-runs"]


def _commits(nodes: list[str], total: int, more: bool = False) -> dict[str, Any]:
    listed = {
        "totalCount": total, "pageInfo": {"hasNextPage": more},
        "nodes": [{"commit": {"oid": oid}} for oid in nodes],
    }  # fmt: skip
    return {"data": {"repository": {"pr": {"__typename": "PullRequest", "commits": listed}}}}


def test_the_prs_commits_read_oldest_first_and_a_cut_list_is_left_to_rest() -> None:
    shas = ["1" * 40, "2" * 40]
    api = Fake(_commits(shas, 2))
    pull_graph.fold(api, REPO, 2700, (2, 0), HEAD, [])  # type: ignore[arg-type]
    assert pull_graph.commits(api, REPO, 2700) == tuple(shas)  # type: ignore[arg-type]
    for cut in (_commits(shas, 2, more=True), _commits(shas, 3)):
        api.answer = cut
        assert pull_graph.commits(api, REPO, 2700) is None  # type: ignore[arg-type]


def test_one_query_carries_the_texts_commits_and_checks_and_goes_out_once() -> None:
    api = Fake()
    texts = [("CODEOWNERS", "main"), ("template.md", "main")]
    pull_graph.fold(api, REPO, 2700, (100, 100), HEAD, texts)  # type: ignore[arg-type]
    pull_graph.fold(api, REPO, 2700, (100, 100), HEAD, texts)  # type: ignore[arg-type]
    assert len(api.sent) == 1
    query, variables = api.sent[0]
    assert "pr: pullRequest(number: $number)" in query and "object(oid: $head)" in query
    assert "talk: pullRequest(number: $number)" in query and query.count("$number: Int!") == 1
    assert (variables["number"], variables["head"], variables["e1"]) == (
        2700, HEAD, "main:template.md",
    )  # fmt: skip


def test_a_pr_with_more_commits_or_comments_than_one_page_reads_them_through_rest() -> None:
    api = Fake()
    pull_graph.fold(api, REPO, 2700, (101, 101), HEAD, [])  # type: ignore[arg-type]
    assert [("pullRequest(" in q, "object(oid:" in q) for q, _ in api.sent] == [(False, True)]
    assert not pull_graph.is_folded(api, "commits", REPO, "2700")  # type: ignore[arg-type]
    assert not pull_graph.is_folded(api, "comments", REPO, "2700")  # type: ignore[arg-type]
    only_comments = Fake()
    pull_graph.fold(only_comments, REPO, 2700, (101, 3), HEAD, [])  # type: ignore[arg-type]
    query, variables = only_comments.sent[0]
    assert "talk: pullRequest(number: $number)" in query and "pr: pullRequest" not in query
    assert "$number: Int!" in query and variables["number"] == 2700


def _talk(nodes: list[dict[str, Any]], total: int | None = None) -> dict[str, Any]:
    listed = {
        "totalCount": len(nodes) if total is None else total,
        "pageInfo": {"hasNextPage": False}, "nodes": nodes,
    }  # fmt: skip
    return {"data": {"repository": {"talk": {"__typename": "PullRequest", "comments": listed}}}}


def _comment(ident: int, author: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "databaseId": ident, "id": f"IC_{ident}", "url": f"https://github.com/x#{ident}",
        "body": "hi", "createdAt": "2026-08-18T14:00:00Z", "updatedAt": "2026-08-18T14:05:00Z",
        "authorAssociation": "MEMBER", "author": author,
    }  # fmt: skip


def test_conversation_comments_read_as_rest_lists_them_by_id_a_bot_with_its_suffix() -> None:
    bot = {"__typename": "Bot", "login": "github-actions"}
    api = Fake(_talk([_comment(2, bot), _comment(1, {"__typename": "User", "login": "alice"})]))
    pull_graph.fold(api, REPO, 2700, (3, 2), HEAD, [])  # type: ignore[arg-type]
    listed = pull_graph.comments(api, REPO, 2700)  # type: ignore[arg-type]
    assert listed is not None
    assert [(c["id"], c["user"], c["node_id"], c["updated_at"]) for c in listed] == [
        (1, {"login": "alice", "type": "User"}, "IC_1", "2026-08-18T14:05:00Z"),
        (2, {"login": "github-actions[bot]", "type": "Bot"}, "IC_2", "2026-08-18T14:05:00Z"),
    ]


def test_comments_graphql_cannot_name_in_full_are_left_to_rest() -> None:
    user = {"__typename": "User", "login": "alice"}
    for answer in (
        _talk([_comment(1, None)]),  # a deleted account: REST says "ghost"
        _talk([_comment(1, {"__typename": "EnterpriseUserAccount", "login": "e"})]),
        _talk([_comment(1, user)], total=2),  # one posted since: the page is not the list
    ):
        api = Fake(answer)
        pull_graph.fold(api, REPO, 2700, (3, 2), HEAD, [])  # type: ignore[arg-type]
        assert pull_graph.comments(api, REPO, 2700) is None  # type: ignore[arg-type]


def test_an_audit_folds_nothing() -> None:
    api = Fake()
    api.fold_texts = False
    api.prefetch_file = lambda *args: api.rest.append(args[1])  # type: ignore[attr-defined]
    pull_graph.fold(api, REPO, 2700, (3, 3), HEAD, [("CODEOWNERS", "main")])  # type: ignore[arg-type]
    assert (api.sent, api.folded_reads, api.rest) == ([], {}, ["CODEOWNERS"])


def test_a_failed_query_with_more_folded_in_reads_its_files_through_the_contents_api() -> None:
    error = GithubException(400, {"errors": [{"message": "Could not resolve to a node"}]}, None)
    api = Fake(error)
    pull_graph.fold(api, REPO, 2700, (3, 3), HEAD, [("CODEOWNERS", "main")])  # type: ignore[arg-type]
    read = files.read_file(api, REPO, "CODEOWNERS", "main", "default")  # type: ignore[arg-type]
    assert (read.state, read.text) == ("ok", "the contents API's text")


SIGNOFF = SignOff(kind="conversation comment", id=1, url="u", author="alice", body="x",
                  node_id="IC_1")  # fmt: skip


def _edits(first_page: dict[str, Any] | None) -> dict[str, Any]:
    return {"data": {"repository": {}, "edits": first_page}}


def _page(editors: list[str]) -> dict[str, Any]:
    return {
        "__typename": "IssueComment", "author": {"login": "alice"},
        "lastEditedAt": "2026-08-18T14:00:00Z", "editor": {"login": editors[0]},
        "userContentEdits": {
            "totalCount": len(editors),
            "pageInfo": {"hasNextPage": False, "endCursor": None},
            "nodes": [{"editedAt": "2026-08-18T14:00:00Z", "editor": {"login": e}} for e in editors],
        },
    }  # fmt: skip


def _history(answer: dict[str, Any]) -> tuple[Fake, Any]:
    api = Fake(answer)
    extra = signoff_edits.folded(SIGNOFF)
    sent = files.prefetch_at(api, REPO, [("a.yaml", HEAD)], extra=extra)  # type: ignore[arg-type]
    return api, signoff_edits.read_signoff_edits(api, SIGNOFF, sent)  # type: ignore[arg-type]


def test_the_sign_offs_first_page_of_edits_rides_in_the_texts_query() -> None:
    api, history = _history(_edits(_page(["bob", "alice"])))
    assert (history.complete, history.last_editor, history.editors) == (
        True,
        "bob",
        ("bob", "alice"),
    )
    assert len(api.sent) == 1 and "node(id: $signoff)" in api.sent[0][0]
    assert len(api.queries) == 1  # (the folded answer; no query of its own)


def test_a_folded_page_that_cannot_stand_in_sends_the_query_of_its_own() -> None:
    lacking = _page(["bob", "alice"])
    del lacking["userContentEdits"]
    error = GithubException(400, {"errors": [{"message": "Could not resolve to a node"}]}, None)
    for answer in (_edits(lacking), _edits(None), error):
        api = Fake(answer)
        api.own = {"data": {"node": _page(["carol", "alice"])}}
        sent = files.prefetch_at(  # type: ignore[arg-type]
            api, REPO, [], extra=signoff_edits.folded(SIGNOFF)
        )
        history = signoff_edits.read_signoff_edits(api, SIGNOFF, sent)  # type: ignore[arg-type]
        assert history.editors == ("carol", "alice"), answer
        assert [q.get("id") for q in api.queries] == [None, "IC_1"]
