"""`signoff verify URL --replay cassettes/NAME.yaml` reproduces every recorded verification.

Each cassette was recorded by cassettes/record.py running `signoff.verify.verify` against ghemu;
its sidecar NAME.json holds the sign-off URL, whether the run published, and the verdict. Here the
command itself replays it (record_mode none, each answer at most once) and must make every
recorded request, no more and no fewer.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from cassette_helpers import CASSETTES, Replayed, cassette, info, is_write, replay_verify

from signoff.policy import load_policy
from signoff.standards import resolve_standard
from signoff.verify_command import run_verify_command

NAMES = sorted(path.stem for path in CASSETTES.glob("*.yaml"))
REPO = "SemiAnalysisAI/InferenceX"
DEMO_URL = "https://github.com/SemiAnalysisAI/InferenceX/pull/2700#issuecomment-2400027003"
FORGED_ID = 2400027101


def run_command(
    name: str, capsys: pytest.CaptureFixture[str], played: list[Any]
) -> tuple[int, str, str, Any]:
    """`signoff verify` on the cassette as its sidecar says: (exit, stdout, stderr, cassette)."""
    described = info(name)
    code = run_verify_command(
        described["signoff_url"],
        replay=str(cassette(name)),
        publish=bool(described["publish"]),
        fmt="json",
        standard=described.get("standard"),
    )
    captured = capsys.readouterr()
    (recorded,) = played
    return code, captured.out, captured.err, recorded


def run_json(
    name: str, capsys: pytest.CaptureFixture[str], played: list[Any]
) -> tuple[int, dict[str, Any], Any]:
    code, out, _, recorded = run_command(name, capsys, played)
    return code, json.loads(out), recorded


def failing(document: dict[str, Any]) -> dict[int, str]:
    return {c["number"]: c["reason"] for c in document["checks"] if c["status"] == "FAIL"}


NAMES_PUBLISHED = [n for n in NAMES if not info(n)["refused"]]
NAMES_REFUSED = [n for n in NAMES if info(n)["refused"]]
# Judged and (where asked) published: a verdict, not a refusal or a could-not-verify.
VERDICTS = [n for n in NAMES_PUBLISHED if info(n)["verdict"] != "ERROR"]
ERRORS = [n for n in NAMES_PUBLISHED if info(n)["verdict"] == "ERROR"]


def test_the_warning_cassette_publishes_a_new_comment_with_the_warn_header_and_a_success(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    described = info("warn_pr_description")
    assert described["writes"][0].endswith("/comments") and described["status_state"] == "success"
    (post,) = [r for r in cassette_requests("warn_pr_description") if r["method"] == "POST"
               and r["uri"].endswith("/comments")]  # fmt: skip
    body = json.loads(post["body"])["body"]
    assert "## ⚠️ **Verdict: WARN** ⚠️" in body and "<details>" in body
    assert "⚠️ Check 15 (PR description): WARN" in body.split("<details>")[0]
    assert "Assessed commit:" in body


def cassette_requests(name: str) -> list[dict[str, Any]]:
    import yaml

    text = cassette(name).read_text(encoding="utf-8")
    return [i["request"] for i in yaml.load(text, Loader=yaml.CSafeLoader)["interactions"]]


def recorded_writes(recorded: Any) -> list[str]:
    return [f"{r.method} {r.path}" for r in recorded.requests if is_write(r.method, r.path)]


@pytest.mark.parametrize("name", VERDICTS)
def test_the_command_replays_every_cassette_exactly(
    name: str, capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    described = info(name)
    code, document, recorded = run_json(name, capsys, played)
    assert recorded.all_played, f"{name}: {recorded.play_count}/{len(recorded)} played"
    assert recorded.play_count == len(recorded) == described["requests"]
    exit_code = {"PASS": 0, "WARN": 0, "REJECTED": 1}[described["verdict"]]
    assert code == exit_code == described["exit_code"]
    assert document["verdict"] == described["verdict"]
    assert document["head_sha"] == described["pinned_head"]
    assert sorted(failing(document)) == described["failed_checks"]
    warned = [c["number"] for c in document["checks"] if c["status"] == "WARN"]
    assert warned == described.get("warned_checks", [])
    writes = recorded_writes(recorded)
    assert writes == described["writes"]
    assert bool(writes) is described["publish"]


@pytest.mark.parametrize("name", NAMES_REFUSED)
def test_a_refused_publish_replays_exactly_writes_nothing_and_says_why_in_one_line(
    name: str, capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    described = info(name)
    code = run_verify_command(described["signoff_url"], replay=str(cassette(name)), publish=True)
    captured = capsys.readouterr()
    (recorded,) = played
    assert recorded.all_played and recorded.play_count == described["requests"]
    assert code == described["exit_code"] and recorded_writes(recorded) == [] == described["writes"]
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and described["refused"][:60] in captured.err


@pytest.mark.parametrize(
    ("name", "code", "why"),
    [
        ("not_signoff_our_verdict", 2, "is not a sign-off: author github-actions[bot] is a bot"),
        ("not_signoff_bot", 2, "is not a sign-off: author github-actions[bot] is a bot"),
        ("not_signoff_remark", 2, "is not a sign-off: body does not contain the sign-off opener"),
        ("nonowner_after_pass", 0, "mallory-x (NONE) cannot be a CODEOWNER of this PR"),
        (
            "superseded_signoff",
            0,
            "a newer sign-off (https://github.com/SemiAnalysisAI/InferenceX/pull/2700#issuecomment-2400027203 by ankur-singh) supersedes this one",
        ),
    ],
)
def test_no_sign_off_or_a_sign_off_that_may_not_replace_the_verdict_writes_nothing(
    name: str, code: int, why: str, capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    described = info(name)
    assert described["exit_code"] == code and why in described["refused"]
    assert (
        run_verify_command(described["signoff_url"], replay=str(cassette(name)), publish=True)
        == code
    )
    (recorded,) = played
    assert not recorded_writes(recorded)
    read = {r.path.removeprefix("/repos/SemiAnalysisAI/InferenceX") for r in recorded.requests}
    if code == 2:  # no sign-off: the PR and the comment itself are read beside each other, no more
        comment = described["signoff_url"].rsplit("-", 1)[1]
        assert read == {"/pulls/2700", f"/issues/comments/{comment}"}
    else:  # gathered and judged, then refused before any write
        assert {"/pulls/2700/files", "/graphql"} <= read
    assert why in capsys.readouterr().err


@pytest.mark.parametrize("name", ERRORS)
def test_a_run_that_cannot_verify_exits_3_with_one_line_naming_the_request(
    name: str, capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    described = info(name)
    code, _, err, recorded = run_command(name, capsys, played)
    assert code == 3
    assert recorded.all_played and recorded.play_count == described["requests"]
    assert "Traceback" not in err
    failures = [line for line in err.splitlines() if "could not" in line]
    assert len(failures) == 1 and described["error"] in failures[0]
    writes = recorded_writes(recorded)
    assert writes == described["writes"]


@pytest.mark.parametrize(
    ("name", "check", "evidence"),
    [
        ("fail_codeowner", 0, "chunfangamd"),
        ("fail_sweep", 1, "skipped"),
        ("fail_evals", 2, "0.905 < 0.91"),
        ("fail_recipe", 3, "vllm-project/recipes#412 is open"),
        ("fail_reuse_command", 4, "/reuse-sweep-run"),
        ("fail_latest_template", 5, "APPEND_ONLY"),
        ("fail_upstream_image", 6, "rocm/vllm-dev"),
        ("fail_no_arch_hacks", 7, "--hf-overrides"),
        ("fail_spec_chat_template", 8, "--use-chat-template"),
        # later eras, recorded and replayed under --standard E8 (their own numbering)
        ("fail_deprecated_models", 7, "Single-turn 1k1k"),
        ("fail_engine_patches", 10, "applies a patch with git"),
        ("fail_agentic_golden_al", 11, "not the golden 2.49 (draft 3)"),
        ("fail_agentic_dead_knob", 11, ":10 launches vllm serve with no synthetic-acceptance"),
        ("fail_append_only", 12, "`ep` was 1, now 8"),
        ("fail_spec_true_or", 8, "calls run_benchmark_serving without --use-chat-template"),
        ("fail_arch_underscore", 7, "--hf_overrides"),
        (
            "fail_spec_subscript",
            8,
            "runs `bash benchmarks/single_node/helper.sh`, which this PR adds",
        ),
    ],
)
def test_each_check_fails_on_its_own_cassette(
    name: str,
    check: int,
    evidence: str,
    capsys: pytest.CaptureFixture[str],
    played: list[Any],
) -> None:
    code, document, recorded = run_json(name, capsys, played)
    assert recorded.all_played
    assert code == 1 and document["verdict"] == "REJECTED"
    failures = failing(document)
    assert check in failures and evidence in failures[check]
    # Only that check fails; Check 2 judges the run Check 1 selected, so it falls with it.
    assert set(failures) == ({1, 2} if check == 1 else {check})
    if check == 1:
        assert "Check 1" in failures[2]
    others = [c for c in document["checks"] if c["number"] not in failures]
    assert all(c["status"] in {"PASS", "N/A"} for c in others)


@pytest.mark.parametrize(
    ("name", "evidence"),
    [
        ("fail_sweep_lookalike", "run 15000002799 of `.github/workflows/pr-smoke.yml`"),
        ("fail_sweep_forged_details", "naming run 15000002701 are not its jobs"),
        ("fail_sweep_shadowed_job", "`eval /` has a non-green run"),
        ("fail_sweep_definition", "the PR changes `.github/workflows/run-sweep.yml`"),
        ("sweep_older_recipe_change", "changed after the swept commit"),
    ],
)
def test_a_sweep_that_is_not_the_heads_real_sweep_fails_checks_1_and_2(
    name: str, evidence: str, capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    code, document, recorded = run_json(name, capsys, played)
    assert recorded.all_played and code == 1
    failures = failing(document)
    assert set(failures) == {1, 2}
    assert evidence in failures[1]
    assert "no workflow run evaluated the head's recipe" in failures[2]


def test_the_readme_demo_passes_and_publishes_from_the_cassette(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    assert info("demo")["signoff_url"] == DEMO_URL
    code = run_verify_command(DEMO_URL, replay=str(cassette("demo")), publish=True)
    out = capsys.readouterr().out
    (recorded,) = played
    assert code == 0 and recorded.all_played
    # 19 before: + the sweep run and its jobs (2), the GraphQL edit history (1), the sign-offs of
    # all three kinds right before writing (3), the re-read that converges after creating (1),
    # the upstream recipe file read whole at its merge commit (1), and the sign-off itself read
    # beside the pin, so that a comment that is no sign-off stops there (1).
    assert len(recorded) <= 28
    head = info("demo")["pinned_head"]
    assert out.startswith(f"<!-- codeowner-signoff-verify sha={head} -->\n")
    assert "**Verdict: PASS**" in out and "FAIL" not in out
    default = resolve_standard(None, load_policy())
    assert out.count("): PASS") + out.count("): N/A") == len(default.checks)
    writes = [(r.method, r.path) for r in recorded.requests if is_write(r.method, r.path)]
    assert writes == [
        ("POST", f"/repos/{REPO}/issues/2700/comments"),
        ("POST", f"/repos/{REPO}/statuses/{head}"),
    ]
    status = json.loads(recorded.requests[-1].body)
    assert status["state"] == "success" and status["context"] == "codeowner-signoff-verify"


@pytest.fixture(scope="module")
def forged() -> Replayed:
    return replay_verify("forged_verdict")


def test_a_forged_verdict_is_ignored_and_ours_is_created(forged: Replayed) -> None:
    assert forged.all_played
    outcome = forged.outcome
    assert outcome.result == "PASS" and outcome.comment_action == "created"
    fake = next(c for c in forged.evidence.comments if c.id == FORGED_ID)
    assert fake.author == "mallory-x" and "**Verdict: PASS**" in fake.body
    assert fake.body.startswith(f"<!-- codeowner-signoff-verify sha={outcome.head_sha} -->")
    methods_paths = [(method, path) for method, path, _ in forged.writes]
    assert methods_paths == [
        ("POST", f"/repos/{REPO}/issues/2700/comments"),
        ("POST", f"/repos/{REPO}/statuses/{outcome.head_sha}"),
    ]
    assert not any(str(FORGED_ID) in uri for uri in forged.requests)
    assert outcome.status_state == "success"


def test_a_head_that_moves_during_verification_is_noted_in_the_verdict(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    described = info("head_moved")
    code = run_verify_command(described["signoff_url"], replay=str(cassette("head_moved")))
    out = capsys.readouterr().out
    (recorded,) = played
    assert code == 0 and recorded.all_played
    moved = described["head_moved_to"]
    assert moved and moved != described["pinned_head"]
    assert f"sha={described['pinned_head']} -->" in out.splitlines()[0]
    assert f"head moved to `{moved[:12]}`" in out and "fresh sign-off" in out
    # The files list answered for the moved head, so the PR's diff was re-read at the pin.
    compares = [r for r in recorded.requests if "/compare/" in r.path]
    assert any(r.path.endswith(f"...{described['pinned_head']}") for r in compares)


@pytest.fixture(scope="module")
def large() -> Replayed:
    return replay_verify("large_pr")


def test_a_pr_exactly_at_githubs_list_caps_is_complete_as_its_counts_declare(
    large: Replayed,
) -> None:
    evidence = large.evidence
    assert large.all_played
    # 3,000 files and 250 commits listed, and the PR object declares exactly that many.
    assert len(evidence.changed_files) == 3000 and not evidence.files_truncated
    assert len(evidence.commits) == 250 and not evidence.commits_truncated
    assert len(evidence.comments) == 1000
    assert sum("/pulls/2700/files" in uri for uri in large.requests) == 30
    assert sum("/pulls/2700/commits" in uri for uri in large.requests) == 3
    assert sum("/issues/2700/comments" in uri for uri in large.requests) == 10
    assert len(large.requests) == info("large_pr")["requests"] <= 60
    # Nothing is cut, so ownership is judged over every file instead of failing closed.
    assert large.outcome.verdict is not None
    codeowner = large.outcome.verdict.checks[0]
    assert codeowner.status == "PASS" and "3,000" not in codeowner.reason
    assert large.outcome.verdict.outcome == "PASS"


def test_later_era_checks_gather_what_they_ask_for_and_0_8_runs_read_none_of_it() -> None:
    agentic = replay_verify("fail_agentic_golden_al")
    assert agentic.all_played
    reads = [uri.split("?")[0] for uri in agentic.requests]
    base = f"GET https://api.github.com/repos/{REPO}/contents/"
    read_files = {read.path for read in agentic.evidence.files}
    # (file texts ride in GraphQL queries; a directory listing is a contents read)
    assert {"MODELS.md", "golden_al_distribution/dsv4_mtp.yaml"} <= read_files
    assert f"{base}golden_al_distribution" in reads
    assert agentic.evidence.standard is not None and agentic.evidence.standard.spec == "E8"
    assert agentic.evidence.reviewed_at.endswith("Z")
    default = replay_verify("pass_conversation")
    assert not any("MODELS.md" in uri or "golden_al" in uri for uri in default.requests)
    assert not any(
        r.path in ("MODELS.md", "golden_al_distribution") for r in default.evidence.files
    )
    assert default.evidence.standard is not None and default.evidence.standard.spec == "0-8"


# --- hostile text, each recorded with --publish: verdict, status and the comment as written ---


def _published(name: str) -> tuple[Replayed, str, dict[str, Any]]:
    replayed = replay_verify(name)
    assert replayed.all_played
    (comment, status) = replayed.writes
    head = replayed.outcome.head_sha
    assert comment[:2] == ("POST", f"/repos/{REPO}/issues/2700/comments")
    assert status[:2] == ("POST", f"/repos/{REPO}/statuses/{head}")
    return replayed, comment[2]["body"], status[2]


def _failing(replayed: Replayed) -> list[int]:
    verdict = replayed.outcome.verdict
    assert verdict is not None
    return [check.number for check in verdict.failures]


def test_a_negated_new_hardware_exception_does_not_excuse_a_fork_image() -> None:
    replayed, body, status = _published("negated_exception")
    assert "B200 is not new hardware" in replayed.evidence.signoff.body
    assert replayed.outcome.result == "REJECTED" and _failing(replayed) == [6]
    assert status["state"] == "failure"
    row = next(line for line in body.split("\n") if line.startswith("❌ Check 6"))
    assert "`rocm/vllm-dev:nightly`" in row and "exception wording is negated" in row


def test_one_n_a_with_every_box_unchecked_is_rejected_on_check_5() -> None:
    replayed, body, status = _published("one_na_all_unchecked")
    assert "quantization n/a" in replayed.evidence.signoff.body
    assert replayed.outcome.result == "REJECTED" and _failing(replayed) == [5]
    assert status["state"] == "failure"
    row = next(line for line in body.split("\n") if line.startswith("❌ Check 5"))
    assert "no explanation attached" in row and "LATEST" in row


def test_a_sign_off_typed_with_tabs_after_the_boxes_passes() -> None:
    replayed, body, status = _published("tab_after_box")
    assert replayed.evidence.signoff.body.count("- [x]\t") >= 15
    assert replayed.outcome.result == "PASS" and status["state"] == "success"
    assert "**Verdict: PASS**" in body and "all 15 current" in body


def test_a_markdown_image_value_is_published_as_code_not_as_an_image() -> None:
    import cmarkgfm

    replayed, body, status = _published("image_markdown")
    assert replayed.outcome.result == "REJECTED" and _failing(replayed) == [6]
    assert status["state"] == "failure"
    badge = "![PASS](https://img.shields.io/badge/verdict-PASS-brightgreen)"
    assert f"`{badge}`" in body
    rendered = cmarkgfm.github_flavored_markdown_to_html(body)
    assert "<img" not in rendered and f"<code>{badge}</code>" in rendered


def test_a_body_cut_short_ends_in_exit_3_naming_the_request_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    code, out, err, recorded = run_command("truncated_json", capsys, played)
    assert code == 3 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"GET /repos/{REPO}/pulls/2700/files?per_page=100" in err
    assert "cut short (3 tries)" in err
    files = [r for r in recorded.requests if r.path.endswith("/pulls/2700/files")]
    assert len(files) == 3  # asked three times, then given up
    assert not any(is_write(r.method, r.path) for r in recorded.requests)


def test_with_publish_a_broken_answer_sets_only_an_error_status(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    code, out, err, recorded = run_command("truncated_json_publish", capsys, played)
    head = info("truncated_json_publish")["pinned_head"]
    assert code == 3 and out == "" and "Traceback" not in err
    (write,) = [r for r in recorded.requests if is_write(r.method, r.path)]
    assert write.path == f"/repos/{REPO}/statuses/{head}"
    assert json.loads(write.body)["state"] == "error"


def test_an_html_page_in_place_of_json_ends_in_exit_3(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    code, out, err, _ = run_command("html_answer", capsys, played)
    assert code == 3 and out == "" and "Traceback" not in err
    assert "the GraphQL query FileTexts with a body that is not JSON" in err


def test_a_body_cut_short_once_is_asked_for_again_and_verifies(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    code, document, recorded = run_json("truncated_json_once", capsys, played)
    assert code == 0 and document["verdict"] == "PASS"
    files = [r for r in recorded.requests if r.path.endswith("/pulls/2700/files")]
    assert len(files) == 2


def test_a_verdict_comment_whose_answer_is_cut_is_not_posted_twice(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    code, out, err, recorded = run_command("comment_answer_truncated", capsys, played)
    assert code == 3 and json.loads(out)["verdict"] == "PASS" and "Traceback" not in err
    writes = [(r.method, r.path) for r in recorded.requests if is_write(r.method, r.path)]
    head = info("comment_answer_truncated")["pinned_head"]
    assert writes == [
        ("POST", f"/repos/{REPO}/issues/2700/comments"),
        ("POST", f"/repos/{REPO}/statuses/{head}"),
    ]
    assert json.loads(recorded.requests[-1].body)["state"] == "success"


@pytest.fixture(scope="module")
def beyond() -> Replayed:
    return replay_verify("beyond_caps")


def test_a_pr_past_githubs_caps_is_read_completely_another_way(beyond: Replayed) -> None:
    evidence = beyond.evidence
    assert beyond.all_played
    assert len(evidence.changed_files) == 3200 and not evidence.files_truncated
    assert len({f.path for f in evidence.changed_files}) == 3200
    assert len(evidence.commits) == 260 and not evidence.commits_truncated
    # 30 pages of the files list (patches for 3,000), the rest from the merge base's and the
    # head's trees; every commit from three compare pages instead of the capped commits list.
    assert sum("/pulls/2700/files" in uri for uri in beyond.requests) == 30
    assert sum("/git/trees/" in uri for uri in beyond.requests) == 2
    assert sum("/compare/" in uri for uri in beyond.requests) == 3
    assert not any("/pulls/2700/commits" in uri for uri in beyond.requests)
    assert evidence.commits[-1] == evidence.pull_request.head_sha
    assert beyond.outcome.verdict is not None and beyond.outcome.verdict.outcome == "PASS"


def test_an_eval_row_without_a_model_prefix_below_the_bar_is_not_a_pass(
    capsys: pytest.CaptureFixture[str], played: list[Any]
) -> None:
    code, document, _ = run_json("fail_evals_no_prefix", capsys, played)
    assert code == 1 and document["verdict"] == "REJECTED"
    reason = failing(document)[2]
    assert "0.905" in reason and "names no model prefix" in reason and "0.91" in reason
