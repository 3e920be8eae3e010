"""Small pure pieces of gather and the client: patch rebuild, team selection, limits."""

from __future__ import annotations

import pytest

from signoff.errors import GatherError
from signoff.evidence import ChangedFile
from signoff.gather.files import text_of_added
from signoff.gather.teams import teams_to_check
from signoff.github.client import Deadline, connect, rate_limit_error
from signoff.parse.inferencex.codeowners import parse_codeowners

OWNERS = parse_codeowners(
    "*                          @InferenceX/core\n"
    "configs/nvidia-master.yaml @ankur-singh @kedarpotdar-nv @InferenceX/core\n"
)


def test_an_added_file_is_rebuilt_exactly_from_its_patch() -> None:
    added = ChangedFile(path="a.sh", status="added", patch="@@ -0,0 +1,2 @@\n+one\n+two")
    assert text_of_added(added) == "one\ntwo\n"
    no_newline = added.model_copy(update={"patch": added.patch + "\n\\ No newline at end of file"})
    assert text_of_added(no_newline) == "one\ntwo"


@pytest.mark.parametrize(
    "patch", [None, "@@ -0,0 +1,3 @@\n+one\n+two", "@@ -1,2 +1,2 @@\n-a\n+b", ""]
)
def test_unusable_patches_fall_back_to_a_read(patch: str | None) -> None:
    assert text_of_added(ChangedFile(path="a.sh", status="added", patch=patch)) is None


def test_a_directly_listed_signer_needs_no_team_read() -> None:
    paths = ("configs/nvidia-master.yaml", "perf-changelog.yaml")
    assert teams_to_check(OWNERS, paths, "Kedarpotdar-NV") == ()


def test_a_signer_listed_nowhere_needs_the_deciding_teams() -> None:
    paths = ("configs/nvidia-master.yaml", "perf-changelog.yaml")
    assert teams_to_check(OWNERS, paths, "core-reviewer") == ("InferenceX/core",)


def test_the_deadline_raises_could_not_verify() -> None:
    with pytest.raises(GatherError, match="did not answer within 0 s"):
        Deadline(0).check()


def test_rate_limit_error_names_the_reset_time() -> None:
    error = rate_limit_error({"x-ratelimit-reset": "1787400000"})
    assert str(error) == "GitHub API rate limit exhausted until 2026-08-22 12:00:00 UTC"


def test_enterprise_base_urls_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_API_URL", "https://ghe.example.com/api/v3/")
    gh = connect("t", mode="test")
    assert gh.requester.base_url == "https://ghe.example.com/api/v3"
    assert gh.requester.per_page == 100


def test_the_client_configures_its_requester_as_pygithubs_github_class_would() -> None:
    from github import Auth, Github

    from signoff.github.client import make_retry

    ours = connect("t0ken", "https://ghe.example.com/api/v3", mode="test").requester.kwargs
    retry = ours["retry"]
    theirs = Github(
        auth=Auth.Token("t0ken"),
        base_url="https://ghe.example.com/api/v3",
        timeout=15,
        per_page=100,
        retry=retry,
        seconds_between_requests=0,
        seconds_between_writes=0,
    ).requester.kwargs
    assert type(retry) is type(make_retry("test"))
    assert {k: v for k, v in ours.items() if k != "auth"} == {
        k: v for k, v in theirs.items() if k != "auth"
    }
    sent: dict[str, str] = {}
    pygithub: dict[str, str] = {}
    ours["auth"].authentication(sent)
    theirs["auth"].authentication(pygithub)
    assert sent == pygithub == {"Authorization": "token t0ken"}
    ours["auth"].mask_authentication(sent)
    theirs["auth"].mask_authentication(pygithub)
    assert sent == pygithub


def test_tree_leaves_diff_into_the_changes_a_pr_shows() -> None:
    from signoff.gather.trees import diff_leaves

    before = {
        "same.md": ("100644", "a" * 40),
        "edited.sh": ("100644", "b" * 40),
        "gone.yaml": ("100644", "c" * 40),
        "chmod.sh": ("100644", "d" * 40),
    }
    after = {
        "same.md": ("100644", "a" * 40),
        "edited.sh": ("100644", "e" * 40),
        "chmod.sh": ("100755", "d" * 40),
        "new/file.md": ("100644", "f" * 40),
    }
    changes = diff_leaves(before, after)
    assert {path: change.status for path, change in changes.items()} == {
        "chmod.sh": "changed",
        "edited.sh": "modified",
        "gone.yaml": "removed",
        "new/file.md": "added",
    }
    assert list(changes) == sorted(changes)
    assert all(change.patch is None for change in changes.values())


def test_one_worker_runs_each_read_when_it_is_started_and_keeps_its_error() -> None:
    import threading

    from signoff.github.pool import Pool

    order: list[str] = []
    pool = Pool(1)
    first = pool.start(order.append, "first")
    failed = pool.start(int, "not a number")
    order.append("after")
    assert order == ["first", "after"] and first.done()
    assert isinstance(failed.exception(), ValueError)  # handed to the reader, not raised here
    many = Pool(4)
    names = [many.start(lambda: threading.current_thread().name) for _ in range(4)]
    many.close()
    assert all(name.result().startswith("signoff-read") for name in names)
