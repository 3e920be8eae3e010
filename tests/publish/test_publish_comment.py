"""The verdict comment: one per pinned head, ours only, written only when its text changes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fake_github import FakeGitHub, FakeState, client, fake_github
from github import Github

from signoff.errors import PublishError
from signoff.evidence import Comment
from signoff.github.client import connect
from signoff.publish.comment import (
    find_verdict_comment,
    is_verdict_for,
    marker_line,
    publish_comment,
    resolve_identity,
)
from signoff.replay import replay

ROOT = Path(__file__).resolve().parents[2]
CASSETTES = ROOT / "cassettes" / "publish"
SCENARIOS = ROOT / "cassettes" / "scenarios"
REPO = "SemiAnalysisAI/InferenceX"
PR = 2417
HEAD = "5f0c3e9a1b7d2c4e6f8091a2b3c4d5e6f7a8b9c0"
OLD_HEAD = "1" * 40
MARKER = "codeowner-signoff-verify"
BOT = "github-actions[bot]"
NEW_BODY = (
    f"<!-- {MARKER} sha={HEAD} -->\n## ✅✅✅ **Verdict: PASS** ✅✅✅\n\n"
    "✅ Check 0 (CODEOWNER): PASS — dana-kowal owns every changed file\n"
)
OUR_VERDICT_ID = 3081260000
FORGED_ID = 3081250001


@pytest.fixture
def gh() -> Github:
    return connect("replay-token", "https://api.github.com", mode="test")


def played(cassette: Any) -> list[tuple[str, str]]:
    """(method, path) of every recorded request this test actually replayed, in cassette order."""
    return [
        (request.method, request.path)
        for index, request in enumerate(cassette.requests)
        if cassette.play_counts[index]
    ]


def recorded_body(cassette: Any, method: str, suffix: str) -> dict[str, Any]:
    for request in cassette.requests:
        if request.method == method and request.path.endswith(suffix):
            body: dict[str, Any] = json.loads(request.body)
            return body
    raise AssertionError(f"no {method} ...{suffix} in the cassette")


def scenario_comments(name: str) -> tuple[Comment, ...]:
    data = yaml.safe_load((SCENARIOS / name).read_text(encoding="utf-8"))
    return tuple(
        Comment(id=c["id"], author=c["user"], body=c["body"], url=f"https://x/#{c['id']}")
        for c in data["repos"][REPO]["pulls"][0]["comments"]
    )


@pytest.fixture
def create_cassette() -> Iterator[Any]:
    with replay(CASSETTES / "create_comment.yaml") as cassette:
        yield cassette


def test_a_missing_verdict_is_posted_as_a_new_comment(gh: Github, create_cassette: Any) -> None:
    result = publish_comment(gh, REPO, PR, NEW_BODY, marker=MARKER, sha=HEAD, identity=BOT)
    assert result.action == "created"
    assert result.url.startswith(f"https://github.com/{REPO}/pull/{PR}#issuecomment-")
    writes = [call for call in played(create_cassette) if call[0] != "GET"]
    assert writes == [("POST", f"/repos/{REPO}/issues/{PR}/comments")]
    assert recorded_body(create_cassette, "POST", "/comments")["body"] == NEW_BODY


def test_a_forged_verdict_by_another_user_is_ignored_not_edited(
    gh: Github, create_cassette: Any
) -> None:
    comments = scenario_comments("publish_pr.yaml")
    forged = next(c for c in comments if c.id == FORGED_ID)
    assert is_verdict_for(forged.body, marker=MARKER, sha=HEAD)  # it does carry our marker
    result = publish_comment(
        gh, REPO, PR, NEW_BODY, marker=MARKER, sha=HEAD, identity=BOT, known=comments
    )
    assert result.action == "created" and result.id != FORGED_ID
    assert not any(method == "PATCH" for method, _ in played(create_cassette))


def test_known_comments_decide_the_write_and_a_creation_is_followed_by_one_relist(
    gh: Github, create_cassette: Any
) -> None:
    known = scenario_comments("publish_pr.yaml")
    publish_comment(gh, REPO, PR, NEW_BODY, marker=MARKER, sha=HEAD, identity=BOT, known=known)
    # No list before writing (the known one decides); one after creating, to converge with
    # concurrent creators. (`played` is in recording order, so compare as a multiset.)
    assert sorted(played(create_cassette)) == [
        ("GET", f"/repos/{REPO}/issues/{PR}/comments"),
        ("POST", f"/repos/{REPO}/issues/{PR}/comments"),
    ]


def test_without_gathered_comments_the_list_is_read_before_writing(
    gh: Github, create_cassette: Any
) -> None:
    publish_comment(gh, REPO, PR, NEW_BODY, marker=MARKER, sha=HEAD, identity=BOT)
    assert ("GET", f"/repos/{REPO}/issues/{PR}/comments") in played(create_cassette)


def test_the_identity_falls_back_to_github_actions_bot_when_get_user_is_forbidden(
    gh: Github, create_cassette: Any
) -> None:
    assert resolve_identity(gh, None) == BOT
    assert played(create_cassette) == [("GET", "/user")]


def test_a_configured_bot_login_is_used_without_asking_github(gh: Github) -> None:
    # No cassette: any request would fail the test.
    assert resolve_identity(gh, "  klaud-cold ") == "klaud-cold"


def test_identical_text_is_left_alone_without_any_write(gh: Github) -> None:
    comments = scenario_comments("publish_pr_with_verdict.yaml")
    ours = next(c for c in comments if c.id == OUR_VERDICT_ID)
    with replay(CASSETTES / "unchanged_comment.yaml") as cassette:
        result = publish_comment(gh, REPO, PR, ours.body, marker=MARKER, sha=HEAD, identity=BOT)
    assert result.action == "unchanged" and result.id == OUR_VERDICT_ID
    assert result.url == f"https://github.com/{REPO}/pull/{PR}#issuecomment-{OUR_VERDICT_ID}"
    assert [method for method, _ in played(cassette)] == ["GET"]


def test_changed_text_is_patched_in_place(gh: Github) -> None:
    with replay(CASSETTES / "update_comment.yaml") as cassette:
        result = publish_comment(gh, REPO, PR, NEW_BODY, marker=MARKER, sha=HEAD, identity=BOT)
    assert (result.action, result.id) == ("updated", OUR_VERDICT_ID)
    writes = [call for call in played(cassette) if call[0] != "GET"]
    assert writes == [("PATCH", f"/repos/{REPO}/issues/comments/{OUR_VERDICT_ID}")]
    assert recorded_body(cassette, "PATCH", f"/{OUR_VERDICT_ID}")["body"] == NEW_BODY


def test_a_refused_write_becomes_a_one_line_publish_error(gh: Github) -> None:
    with (
        replay(CASSETTES / "forbidden_comment.yaml"),
        pytest.raises(PublishError, match=r"^could not write the verdict comment .*403") as error,
    ):
        publish_comment(gh, REPO, PR, NEW_BODY, marker=MARKER, sha=HEAD, identity=BOT)
    assert "\n" not in str(error.value)


def test_a_body_without_the_marker_for_this_head_is_never_posted(gh: Github) -> None:
    wrong = NEW_BODY.replace(HEAD, OLD_HEAD)
    with pytest.raises(PublishError, match="first line"):
        publish_comment(gh, REPO, PR, wrong, marker=MARKER, sha=HEAD, identity=BOT, known=())


def test_our_login_matches_case_insensitively() -> None:
    comment = Comment(id=1, author="Klaud-Cold", body=marker_line(MARKER, HEAD) + "\nx")
    assert find_verdict_comment([comment], marker=MARKER, sha=HEAD, identity="klaud-cold")


def test_a_verdict_for_an_older_head_is_not_reused_for_the_new_one() -> None:
    old = Comment(id=1, author=BOT, body=marker_line(MARKER, OLD_HEAD) + "\n## REJECTED")
    assert find_verdict_comment([old], marker=MARKER, sha=HEAD, identity=BOT) is None


def test_a_comment_that_merely_quotes_the_marker_later_is_not_a_verdict() -> None:
    quoted = Comment(id=1, author=BOT, body="see:\n" + marker_line(MARKER, HEAD))
    assert find_verdict_comment([quoted], marker=MARKER, sha=HEAD, identity=BOT) is None


def test_the_oldest_of_several_own_verdicts_is_the_one_updated_the_one_every_run_keeps() -> None:
    first = Comment(
        id=7, author=BOT, body=marker_line(MARKER, HEAD) + "\na", created_at="2026-01-01T00:00:01Z"
    )
    second = Comment(
        id=2, author=BOT, body=marker_line(MARKER, HEAD) + "\nb", created_at="2026-01-01T00:00:02Z"
    )
    found = find_verdict_comment([second, first], marker=MARKER, sha=HEAD, identity=BOT)
    assert found is not None and found.id == 7


def test_runs_that_guess_the_wrong_login_still_leave_one_verdict_comment() -> None:
    # A GitHub App's token without the bot-login input: GET /user answers 403, so the guess is
    # github-actions[bot], but GitHub writes the comments as the App's own bot account.
    state = FakeState(repo=REPO, pr=PR, writer="signoff-app[bot]")
    with fake_github(FakeGitHub(state)):
        for _ in range(3):
            publish_comment(client(), REPO, PR, NEW_BODY, marker=MARKER, sha=HEAD, identity=BOT)
    verdicts = [c for c in state.comments if is_verdict_for(c["body"], marker=MARKER, sha=HEAD)]
    assert [c["user"]["login"] for c in verdicts] == ["signoff-app[bot]"]
