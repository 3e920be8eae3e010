"""A submodule's entry in a PR's file list: its patch is the commit it points at."""

from __future__ import annotations

import pytest

from signoff.parse.diff import gitlink_target

OLD, NEW = "49634d1c6c2e6dcc18979d704a65e7c7064efc49", "754356e9a39acc6cc6afb242d123bb57c3fb6f75"


@pytest.mark.parametrize(
    ("patch", "target"),
    [
        (f"@@ -1 +1 @@\n-Subproject commit {OLD}\n+Subproject commit {NEW}", NEW),  # moved
        (f"@@ -0,0 +1 @@\n+Subproject commit {NEW}\n", NEW),  # added
        (f"@@ -1 +1 @@\n-Subproject commit {OLD}\n+Subproject commit {NEW}-dirty", NEW),
        (f"@@ -1 +0,0 @@\n-Subproject commit {OLD}", ""),  # removed
        (f"@@ -0,0 +1 @@\n+Subproject commit {NEW}\n\\ No newline at end of file", NEW),
    ],
)
def test_a_gitlink_patch_names_the_commit_the_submodule_points_at(patch, target):
    assert gitlink_target(patch) == target


@pytest.mark.parametrize(
    "patch",
    [
        None,
        "",
        f"@@ -1,2 +1,2 @@\n-Subproject commit {OLD}\n+Subproject commit {NEW}\n+echo hi",
        "@@ -1 +1 @@\n-Subproject commit abc\n+Subproject commit def",  # not a commit id
        "@@ -1 +1 @@\n-echo a\n+echo b",
        "@@ -1 +1 @@\n Subproject commit " + NEW,  # context only: nothing moved
    ],
)
def test_any_other_patch_is_no_gitlink(patch):
    assert gitlink_target(patch) is None
