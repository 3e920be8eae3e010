"""Check 0 (CODEOWNER) from small evidence variations."""

from __future__ import annotations

from builders import SCRIPT_PATH, passing_parts, replace_file, set_signoff_body


def test_named_owner_of_the_changed_master_config_passes(check):
    result = check(passing_parts(), "codeowner")
    assert result.status == "PASS"
    assert "named owner of configs/nvidia-master.yaml" in result.reason


def test_amd_owner_signing_an_nvidia_master_change_fails_naming_path_and_owners(check):
    parts = passing_parts()
    parts["signoff"]["author"] = "chunfangamd"
    result = check(parts, "codeowner")
    assert result.status == "FAIL"
    assert "configs/nvidia-master.yaml" in result.reason
    assert "@ankur-singh @kedarpotdar-nv @InferenceX/core" in result.reason
    assert "CODEOWNERS:4" in result.reason


def test_logins_compare_case_insensitively(check):
    parts = passing_parts()
    parts["signoff"]["author"] = "Ankur-Singh"
    assert check(parts, "codeowner").status == "PASS"


def test_catch_all_paths_are_satisfied_by_a_codeowner_listed_elsewhere(check):
    parts = passing_parts()
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] == SCRIPT_PATH]
    parts["signoff"]["author"] = "billishyahao"
    result = check(parts, "codeowner")
    assert result.status == "PASS"
    assert "catch-all" in result.reason


def test_catch_all_with_unreadable_team_and_no_direct_listing_fails_closed(check):
    parts = passing_parts()
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] == SCRIPT_PATH]
    parts["signoff"]["author"] = "core-reviewer"
    parts["memberships"] = [
        {"team": "InferenceX/core", "login": "core-reviewer", "state": "unknown", "reason": "403"}
    ]
    result = check(parts, "codeowner")
    assert result.status == "FAIL"
    assert "could not be read" in result.reason


def test_team_member_covers_catch_all_paths(check):
    parts = passing_parts()
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] == SCRIPT_PATH]
    parts["signoff"]["author"] = "core-reviewer"
    parts["memberships"] = [
        {"team": "InferenceX/core", "login": "core-reviewer", "state": "member"}
    ]
    assert check(parts, "codeowner").status == "PASS"


def test_unreadable_team_is_not_held_against_a_directly_listed_owner(check):
    parts = passing_parts()
    parts["memberships"] = [
        {"team": "InferenceX/core", "login": "ankur-singh", "state": "unknown", "reason": "403"}
    ]
    assert check(parts, "codeowner").status == "PASS"


def test_renamed_file_is_checked_under_its_old_path_too(check):
    parts = passing_parts()
    parts["changed_files"].append(
        {
            "path": "configs/legacy/amd.yaml",
            "status": "renamed",
            "previous_path": "configs/amd-master.yaml",
            "patch": "",
        }
    )
    result = check(parts, "codeowner")
    assert result.status == "FAIL"
    assert "configs/amd-master.yaml" in result.reason


def test_a_bot_comment_is_never_a_signoff(check):
    parts = passing_parts()
    parts["signoff"]["author"] = "claude[bot]"
    parts["signoff"]["author_type"] = "Bot"
    result = check(parts, "codeowner")
    assert result.status == "FAIL"
    assert "bot" in result.reason


def test_a_verdict_comment_quoting_the_opener_is_never_a_signoff(check):
    parts = passing_parts()
    body = (
        "<!-- codeowner-signoff-verify sha=" + "a" * 40 + " -->\n## ❌❌❌ **REJECTED** ❌❌❌\n"
        "As a PR reviewer and CODEOWNER, I have reviewed this and have:\n"
    )
    set_signoff_body(parts, body)
    result = check(parts, "codeowner")
    assert result.status == "FAIL"
    assert "verdict" in result.reason


def test_comment_without_the_opener_fails(check):
    parts = passing_parts()
    set_signoff_body(parts, "LGTM, ship it\n- [x] looks good\n")
    result = check(parts, "codeowner")
    assert result.status == "FAIL"
    assert "does not contain the sign-off opener" in result.reason


def test_unreadable_codeowners_fails_closed(check):
    parts = passing_parts()
    replace_file(parts, ".github/CODEOWNERS", "default", None, state="unavailable")
    result = check(parts, "codeowner")
    assert result.status == "FAIL"
    assert ".github/CODEOWNERS" in result.reason


def test_truncated_file_list_fails_closed(check):
    parts = passing_parts()
    parts["files_truncated"] = True
    assert check(parts, "codeowner").status == "FAIL"


def test_a_pr_editing_codeowners_is_judged_by_the_default_branch_file(check):
    parts = passing_parts()
    parts["changed_files"].append(
        {
            "path": ".github/CODEOWNERS",
            "status": "modified",
            "patch": "@@ -3 +3 @@\n-configs/nvidia-master.yaml @ankur-singh\n+configs/nvidia-master.yaml @mallory",
        }
    )
    parts["signoff"]["author"] = "mallory"
    result = check(parts, "codeowner")
    assert result.status == "FAIL"
    assert "mallory is not listed there" in result.reason
    assert "@mallory" not in result.reason
