"""The verify path's folded and batched reads: file texts from one GraphQL answer read as the
contents API reads them, a stage's files in few queries, comment pages asked for at once."""

from __future__ import annotations

from typing import Any

import pytest
from github.GithubException import GithubException

from signoff.gather import files
from signoff.github.comments import pages_for, prefetch_posted
from signoff.refs import parse_signoff_url

REPO = "SemiAnalysisAI/InferenceX"
HEAD = "a" * 40


class Folding:
    """What `files` asks of an `Api` that folds texts: queries sent ahead, and their answer."""

    def __init__(self, answer: dict[str, Any] | Exception | None = None) -> None:
        self.fold_texts = True
        self.folded: dict[tuple[str, str, str], tuple[str, dict[str, Any], str]] = {}
        self.sent: list[dict[str, Any]] = []
        self.answer = answer

    def prefetch_graphql(self, query: str, variables: dict[str, Any], *, item: Any) -> None:
        self.sent.append(variables)

    def file_text(self, repo: str, path: str, ref: str) -> str:
        return "the whole text"  # (the contents API)

    def graphql(self, query: str, variables: dict[str, Any], *, item: Any) -> dict[str, Any]:
        if isinstance(self.answer, Exception):
            raise self.answer
        assert self.answer is not None
        item(self.answer)  # the check on arrival
        return self.answer


def _read(node: dict[str, Any] | None) -> files.FileRead:
    api = Folding({"data": {"repository": {"f0": node}}})
    files.prefetch(api, REPO, ["configs/nvidia-master.yaml"], HEAD)  # type: ignore[arg-type]
    return files.read_file(api, REPO, "configs/nvidia-master.yaml", HEAD, "head")  # type: ignore[arg-type]


def test_a_folded_blob_is_read_as_its_text() -> None:
    read = _read({"__typename": "Blob", "text": "a: 1\n", "isBinary": False, "isTruncated": False})
    assert (read.state, read.text, read.sha, read.role) == ("ok", "a: 1\n", HEAD, "head")


def test_a_folded_path_with_no_object_is_missing_as_a_404_is() -> None:
    read = _read(None)
    assert (read.state, read.reason) == ("missing", "404 Not Found")


def test_a_folded_directory_is_unavailable_in_the_contents_apis_words() -> None:
    read = _read({"__typename": "Tree"})
    assert (read.state, read.reason) == (
        "unavailable",
        "422 configs/nvidia-master.yaml is a directory",
    )


def test_a_binary_blob_is_unavailable_never_a_garbled_text() -> None:
    read = _read({"__typename": "Blob", "text": None, "isBinary": True, "isTruncated": False})
    assert read.state == "unavailable" and read.text is None and "isBinary" in read.reason


def test_a_blob_github_cut_short_is_read_again_whole_through_the_contents_api() -> None:
    read = _read({"__typename": "Blob", "text": "a: 1", "isBinary": False, "isTruncated": True})
    assert (read.state, read.text) == ("ok", "the whole text")


def test_a_graphql_error_makes_each_folded_file_unavailable_with_githubs_message() -> None:
    error = GithubException(400, {"errors": [{"message": "Something   went wrong"}]}, None)
    api = Folding(error)
    files.prefetch(api, REPO, ["a.yaml", "b.yaml"], HEAD)  # type: ignore[arg-type]
    reads = files.read_all(api, REPO, ["a.yaml", "b.yaml"], HEAD, "head")  # type: ignore[arg-type]
    assert [(r.state, r.reason) for r in reads] == [
        ("unavailable", "GraphQL 400 Something went wrong")
    ] * 2


def test_a_blob_answer_lacking_its_flags_is_a_malformed_answer() -> None:
    with pytest.raises(ValueError, match="isBinary"):
        files.check_texts({"data": {"repository": {"f0": {"__typename": "Blob", "text": "x"}}}})


def test_a_stages_files_go_out_twenty_to_a_query_each_file_once() -> None:
    api = Folding()
    wanted = [(f"f{i}.yaml", HEAD) for i in range(25)] + [("f0.yaml", HEAD), ("f0.yaml", "main")]
    files.prefetch_at(api, REPO, wanted)  # type: ignore[arg-type]
    assert [len(v) - 2 for v in api.sent] == [20, 6]  # (owner and name besides the expressions)
    assert api.sent[0]["e0"] == f"{HEAD}:f0.yaml" and api.sent[1]["e5"] == "main:f0.yaml"
    files.prefetch_at(api, REPO, wanted[:3])  # type: ignore[arg-type]
    assert len(api.sent) == 2  # already under way


class Pages:
    def __init__(self) -> None:
        self.asked: dict[str, int] = {}

    def prefetch_pages(self, path: str, count: int, **_: Any) -> None:
        self.asked[path.removeprefix(f"/repos/{REPO}")] = count


def test_the_lists_read_before_writing_ask_for_every_page_the_known_comments_fill_at_once() -> None:
    api = Pages()
    ref = parse_signoff_url(f"https://github.com/{REPO}/pull/2700#issuecomment-1")
    prefetch_posted(api, ref, 1000)  # type: ignore[arg-type]
    assert api.asked == {
        "/issues/2700/comments": 11,  # 1,000 known and room for one more: one round trip
        "/pulls/2700/reviews": 1,
        "/pulls/2700/comments": 1,
    }
    assert [pages_for(n) for n in (0, 99, 100, 250)] == [1, 1, 2, 3]
