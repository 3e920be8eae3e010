"""Who may replace a head's verdict, which verification writes, and what an outage may write."""

from __future__ import annotations

from typing import Any

import pytest
from builders import HEAD_SHA, SIGNER, build, passing_parts, replace_file
from fake_github import FakeGitHub, FakeState, client, fake_github

from signoff.errors import GatherError
from signoff.evidence import PostedSignoff, SignOff
from signoff.gate import decide
from signoff.gather.signoff_edits import MAX_PAGES, read_signoff_edits
from signoff.github.api import Api
from signoff.judge import judge
from signoff.judge.eligibility import publish_blocker, superseded
from signoff.parse.comment import signoff_comment, signoff_rule
from signoff.parse.comment.signoff_comment import ParsedSignoff
from signoff.policy import Policy, SignoffSyntax
from signoff.refs import SignoffRef, parse_signoff_url
from signoff.verify import VerifyOutcome, publish_outcome, verify

REPO, PR = "SemiAnalysisAI/InferenceX", 2650
URL = f"https://github.com/{REPO}/pull/{PR}#issuecomment-3100000001"


def _signer(parts: dict[str, Any], login: str, association: str) -> dict[str, Any]:
    parts["signoff"].update(author=login, author_association=association)
    return parts


# --- only a possible CODEOWNER may replace the verdict ---------------------------------------


@pytest.mark.parametrize("association", ["OWNER", "MEMBER", "COLLABORATOR"])
def test_owners_members_and_collaborators_may_publish(policy: Policy, association: str) -> None:
    parts = _signer(passing_parts(), "someone-new", association)
    assert publish_blocker(build(parts), policy) == ""


def test_an_account_with_no_association_named_in_codeowners_may_publish(policy: Policy) -> None:
    parts = _signer(passing_parts(), "Hbarclay", "NONE")  # listed for experimental/operatorx/
    assert publish_blocker(build(parts), policy) == ""


def test_a_known_member_of_a_codeowners_team_may_publish(policy: Policy) -> None:
    parts = _signer(passing_parts(), "outside-core", "CONTRIBUTOR")
    parts["memberships"] = [{"team": "InferenceX/core", "login": "outside-core", "state": "member"}]
    assert publish_blocker(build(parts), policy) == ""


@pytest.mark.parametrize("team_state", [None, "unknown", "not_member"])
def test_anyone_else_is_skipped_with_one_line_saying_why(
    policy: Policy, team_state: str | None
) -> None:
    parts = _signer(passing_parts(), "mallory-x", "NONE")
    if team_state is not None:
        parts["memberships"] = [
            {"team": "InferenceX/core", "login": "mallory-x", "state": team_state}
        ]
    why = publish_blocker(build(parts), policy)
    assert why.startswith("mallory-x (NONE) cannot be a CODEOWNER of this PR")
    assert "\n" not in why and why.endswith("nothing was written")


def test_unreadable_codeowners_blocks_an_unassociated_signer(policy: Policy) -> None:
    parts = _signer(passing_parts(), "mallory-x", "NONE")
    replace_file(parts, ".github/CODEOWNERS", "default", None, state="unavailable")
    assert "CODEOWNERS could not be read" in publish_blocker(build(parts), policy)


# --- only the newest sign-off's verification writes --------------------------------------------


def _posted(ident: int, login: str, created: str, **changes: Any) -> PostedSignoff:
    body = passing_parts()["signoff"]["body"]
    fields: dict[str, Any] = {
        "kind": "conversation comment",
        "id": ident,
        "author": login,
        "author_association": "MEMBER",
        "body": body,
        "created_at": created,
        "url": f"https://github.com/{REPO}/pull/{PR}#issuecomment-{ident}",
    }
    return PostedSignoff(**{**fields, **changes})


def _ours() -> PostedSignoff:
    signoff = passing_parts()["signoff"]
    return _posted(signoff["id"], SIGNER, signoff["created_at"], author_association="COLLABORATOR")


def test_the_newest_sign_off_writes(policy: Policy) -> None:
    older = _posted(1, "kedarpotdar-nv", "2026-11-19T10:00:00Z")
    assert superseded([older, _ours()], build(passing_parts()), policy) == ""


def test_a_newer_owner_sign_off_of_any_kind_supersedes(policy: Policy) -> None:
    review = _posted(7, "kedarpotdar-nv", "2026-11-20T10:00:01Z", kind="review summary")
    why = superseded([_ours(), review], build(passing_parts()), policy)
    assert "a newer sign-off" in why and "by kedarpotdar-nv" in why


def test_at_the_same_second_the_higher_id_is_newer(policy: Policy) -> None:
    same_time = passing_parts()["signoff"]["created_at"]
    assert (
        superseded(
            [_ours(), _posted(1, "kedarpotdar-nv", same_time)], build(passing_parts()), policy
        )
        == ""
    )
    later_id = _posted(_ours().id + 1, "kedarpotdar-nv", same_time)
    assert superseded([_ours(), later_id], build(passing_parts()), policy)


@pytest.mark.parametrize(
    "changes",
    [
        {"author": "mallory-x", "author_association": "NONE"},  # cannot be a CODEOWNER
        {"author": "github-actions[bot]", "author_type": "Bot"},  # a bot
        {"body": "LGTM, thanks!"},  # no opener: a remark
        {"body": "<!-- codeowner-signoff-verify sha=x -->\nAs a PR reviewer and CODEOWNER"},
    ],
)
def test_newer_comments_the_gate_would_not_accept_do_not_supersede(
    policy: Policy, changes: dict[str, Any]
) -> None:
    newer = _posted(9, "kedarpotdar-nv", "2026-11-21T10:00:00Z", **changes)
    assert superseded([_ours(), newer], build(passing_parts()), policy) == ""


def test_a_sign_off_edited_or_deleted_after_it_was_read_writes_nothing(policy: Policy) -> None:
    evidence = build(passing_parts())
    edited = _ours().model_copy(update={"body": _ours().body + "\nP.S."})
    assert "was edited after it was read" in superseded([edited], evidence, policy)
    assert "was deleted" in superseded([], evidence, policy)


def _count_markdown_readings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every body `signoff_problem` reads as Markdown (the costly reading)."""
    read: list[str] = []
    real = signoff_rule.parse_signoff

    def counting(body: str, syntax: SignoffSyntax) -> ParsedSignoff:
        read.append(body)
        return real(body, syntax)

    monkeypatch.setattr(signoff_rule, "parse_signoff", counting)
    return read


def test_comments_of_accounts_that_cannot_be_codeowners_are_never_read_as_markdown(
    policy: Policy, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Up to a second of parsing per 64 KB hostile comment: drive-by comments must cost nothing.
    hostile = "As a PR reviewer and CODEOWNER\n- [x] " + "![" * 30_000
    drive_by = [
        _posted(100 + i, f"drive-by-{i}", "2026-11-21T10:00:00Z", author_association="NONE",
                body=f"{hostile}{i}")
        for i in range(3)
    ]  # fmt: skip
    read = _count_markdown_readings(monkeypatch)
    assert superseded([_ours(), *drive_by], build(passing_parts()), policy) == ""
    assert not [body for body in read if body.startswith(hostile)]


def test_sign_offs_older_than_ours_are_never_read_as_markdown(
    policy: Policy, monkeypatch: pytest.MonkeyPatch
) -> None:
    older = _posted(
        1, "kedarpotdar-nv", "2026-11-19T10:00:00Z", body="As a PR reviewer and CODEOWNER"
    )
    read = _count_markdown_readings(monkeypatch)
    assert superseded([older, _ours()], build(passing_parts()), policy) == ""
    assert older.body not in read


def test_the_newest_of_several_newer_sign_offs_is_named(policy: Policy) -> None:
    first = _posted(7, "kedarpotdar-nv", "2026-11-21T10:00:00Z")
    second = _posted(8, "ankur-singh", "2026-11-22T10:00:00Z")
    remark = _posted(9, "kedarpotdar-nv", "2026-11-23T10:00:00Z", body="LGTM, thanks!")
    why = superseded([second, _ours(), remark, first], build(passing_parts()), policy)
    assert "#issuecomment-8 by ankur-singh" in why


# --- the gate names who edited someone else's comment ------------------------------------------


def test_the_gate_says_when_the_sender_of_an_edit_is_not_the_author(policy: Policy) -> None:
    body = passing_parts()["signoff"]["body"]
    payload = {
        "action": "edited",
        "sender": {"login": "ravi-s"},
        "comment": {"id": 5, "body": body, "user": {"login": SIGNER, "type": "User"}},
        "issue": {"number": PR, "state": "open", "pull_request": {"url": "x"}},
        "repository": {"name": "InferenceX", "owner": {"login": "SemiAnalysisAI"}},
    }
    decision = decide("issue_comment", payload, policy)
    assert decision.proceed and decision.reason.endswith("; edited by ravi-s, not by its author")


# --- the edit history is read in full, or recorded as incomplete ------------------------------


def _signoff(node_id: str = "IC_1") -> SignOff:
    return SignOff(
        kind="conversation comment", id=1, url=URL, author=SIGNER, body="x", node_id=node_id
    )


@pytest.mark.parametrize(
    ("edits", "queries", "complete"), [(0, 1, True), (250, 3, True), (600, MAX_PAGES, False)]
)
def test_the_edit_history_is_paged_and_bounded(edits: int, queries: int, complete: bool) -> None:
    state = FakeState(repo=REPO, pr=PR)
    state.edits["IC_1"] = (SIGNER, [SIGNER] * edits)
    with fake_github(FakeGitHub(state)), Api(client()) as api:
        history = read_signoff_edits(api, _signoff())
    assert history.readable and history.complete is complete
    assert state.graphql_queries == queries
    assert history.others(SIGNER) == ()


def test_an_unknown_node_is_unreadable_and_no_node_id_asks_nothing() -> None:
    state = FakeState(repo=REPO, pr=PR)
    with fake_github(FakeGitHub(state)), Api(client()) as api:
        missing = read_signoff_edits(api, _signoff("IC_404"))
        none = read_signoff_edits(api, _signoff(""))
    assert not missing.readable and "404" in missing.reason
    assert not none.readable and state.graphql_queries == 1


def test_an_edit_history_answer_cut_short_is_asked_for_again() -> None:
    state = FakeState(repo=REPO, pr=PR)
    state.edits["IC_1"] = (SIGNER, ["ravi-s"])
    state.cut_short["POST /graphql"] = 2  # GraphQL only reads: asking again is safe
    with fake_github(FakeGitHub(state)), Api(client()) as api:
        history = read_signoff_edits(api, _signoff())
    assert history.readable and history.editors == ("ravi-s",)
    assert state.graphql_queries == 3


def test_an_edit_history_answer_that_stays_cut_short_cannot_be_verified() -> None:
    state = FakeState(repo=REPO, pr=PR)
    state.edits["IC_1"] = (SIGNER, [])
    state.cut_short["POST /graphql"] = 3
    cut_short = r"the GraphQL query SignoffEdits with a JSON body cut short"
    with (
        fake_github(FakeGitHub(state)),
        Api(client()) as api,
        pytest.raises(GatherError, match=cut_short),
    ):
        read_signoff_edits(api, _signoff())
    assert state.graphql_queries == 3


# --- an outage lets only a possible CODEOWNER's sign-off set `error` ---------------------------


@pytest.mark.parametrize(("association", "written"), [("MEMBER", ["error"]), ("NONE", [])])
def test_could_not_verify_writes_error_only_for_a_trusted_signer(
    policy: Policy, association: str, written: list[str]
) -> None:
    state = FakeState(repo=REPO, pr=PR, head_sha=HEAD_SHA)
    body = passing_parts()["signoff"]["body"]
    state.add_comment(3100000001, "someone", body, "2026-11-20T10:00:00Z", association)
    with fake_github(FakeGitHub(state)):  # everything gather needs beyond the PR answers 404
        outcome = verify(client(), parse_signoff_url(URL), policy, publish=True, identity=None)
    assert outcome.result == "ERROR" and int(outcome.exit_code) == 3
    assert [s["state"] for s in state.statuses] == written


# --- one run reads its sign-off as Markdown once -----------------------------------------------


def test_a_run_reads_its_sign_off_as_markdown_once(
    policy: Policy, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The gate, the refusal before gathering, the judge and the refusal before writing all ask;
    # a 64 KB hostile sign-off takes up to a second per reading.
    parts = passing_parts()
    body = parts["signoff"]["body"] + "\nread once: 5f0c1e\n"
    parts["signoff"]["body"] = body
    evidence = build(parts)
    scanned: list[str] = []
    real = signoff_comment.scan_markdown
    monkeypatch.setattr(
        signoff_comment, "scan_markdown", lambda text: scanned.append(text) or real(text)
    )
    assert signoff_rule.signoff_problem(SIGNER, "User", body, policy) == ""
    verdict = judge(evidence, policy)
    assert signoff_rule.signoff_problem(SIGNER, "User", body, policy) == ""
    assert verdict.outcome == "PASS"
    assert len([text for text in scanned if "read once: 5f0c1e" in text]) == 1


# --- a sign-off list longer than read is no picture of who is newest ---------------------------


@pytest.mark.parametrize(
    ("kinds", "key", "count"),
    [
        ("conversation comments", "comments", 10_001),
        ("review summaries", "reviews", 3_001),
        ("inline review comments", "review_comments", 3_001),
    ],
)
def test_a_sign_off_list_longer_than_its_bound_writes_nothing(
    policy: Policy, kinds: str, key: str, count: int
) -> None:
    # Anyone may post thousands of comments; the newest sign-offs (ours too) sit past the cut.
    state = FakeState(repo=REPO, pr=PR, head_sha=HEAD_SHA)
    spam = [
        state._comment(7_000_000 + i, f"drive-by-{i % 7}", "+1", "2026-11-21T00:00:00Z", "NONE")
        for i in range(count)
    ]
    for entry in spam if key == "reviews" else ():
        entry["submitted_at"] = entry["created_at"]
    getattr(state, key).extend(spam)
    evidence = build(passing_parts())
    ref = SignoffRef(
        owner="SemiAnalysisAI", repo="InferenceX", pr=PR, kind=evidence.signoff.kind,
        id=evidence.signoff.id,
    )  # fmt: skip
    judged = VerifyOutcome(
        ref=ref, head_sha=HEAD_SHA, verdict=judge(evidence, policy), evidence=evidence
    )
    with fake_github(FakeGitHub(state)):
        done = publish_outcome(client(), judged, policy, identity=None)
    assert f"more than {count - 1:,} {kinds}; which sign-off is the newest" in (done.error or "")
    assert state.writes == [] and int(done.exit_code) == 3
