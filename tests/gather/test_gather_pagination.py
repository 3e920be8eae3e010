"""Lists longer than one page (100) are read in full by following GitHub's Link headers."""

from __future__ import annotations

from cassette_helpers import replay_gather


def test_130_comments_and_123_files_are_read_over_two_pages_each() -> None:
    replayed = replay_gather("many_comments_and_files")
    evidence = replayed.evidence
    assert replayed.all_played
    assert len(evidence.comments) == 130
    assert len(evidence.changed_files) == 123
    assert not evidence.files_truncated
    assert evidence.signoff.author == "kedarpotdar-nv"
    assert sum("/issues/2700/comments" in uri for uri in replayed.requests) == 2
    assert sum("/pulls/2700/files" in uri for uri in replayed.requests) == 2
    assert [c.id for c in evidence.comments] == sorted(c.id for c in evidence.comments)
