"""Eval artifacts a PR's scripts can write into: bounded before they become objects, never a crash.

The sweep's jobs run the PR's benchmark scripts, which can write any file into the eval output
directory the job uploads. Recorded end to end (cassettes/record.py) from the emulator.
"""

from __future__ import annotations

import io
import zipfile

import pytest
from cassette_helpers import replay_verify

from signoff.gather.evals import MAX_PARSED_BYTES, Unavailable, unpack


def _check_2_reason(name: str) -> str:
    replayed = replay_verify(name)
    verdict = replayed.outcome.verdict
    assert verdict is not None and verdict.outcome == "REJECTED"
    failing = {check.number: check.reason for check in verdict.checks if check.status == "FAIL"}
    assert set(failing) == {2}
    return failing[2]


def test_an_aggregate_past_the_parse_bound_is_unavailable_and_never_parsed() -> None:
    # 4.3 MB of real-looking rows (~40 KB zipped): every row would pass the bar.
    (results,) = replay_verify("eval_json_bomb").evidence.evals
    assert not results.available and results.rows == ()
    assert results.reason == (
        f"artifact eval_results_all: its eval JSON files hold more than "
        f"{MAX_PARSED_BYTES // 2**20} MB"
    )
    assert "hold more than 4 MB" in _check_2_reason("eval_json_bomb")


def test_a_score_too_wide_for_a_float_fails_check_2_instead_of_stopping_the_run() -> None:
    # float() of a 401-digit JSON integer raised OverflowError: the run ended in exit 3.
    reason = _check_2_reason("eval_job_number_too_wide")
    assert "results_2026.json holds an integer of 401 digits" in reason
    assert reason.startswith("eval results of run 15000002701 are unavailable")


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_zip_listing_more_members_than_the_directory_bound_is_refused_before_indexing() -> None:
    # ~130 bytes of directory per member: 9,000 members list more than 1 MB (500,000 cost 4 s).
    files = {f"{'s' * 80}_{i:05}.jsonl": b"" for i in range(9_000)}
    with pytest.raises(Unavailable, match="lists more members than 1 MB of zip directory holds"):
        unpack(_zip(files), "eval_dsv4_conc64")


def test_files_the_reader_never_parses_do_not_count_against_the_parse_bound() -> None:
    # A SWE-bench job uploads large JSON reports beside its lm-eval results.
    results = b'{"lm_eval_version": "0.4.9"}'
    blob = _zip(
        {"swebench_report_x.json": b" " * (MAX_PARSED_BYTES + 1), "results_1.json": results}
    )
    assert unpack(blob, "eval_swe") == {"results_1.json": results}


def test_parsed_files_past_the_bound_together_are_refused_even_if_each_is_small() -> None:
    half = b" " * (MAX_PARSED_BYTES // 2 + 1)
    blob = _zip({"a/results_1.json": half, "b/results_2.json": half})
    with pytest.raises(Unavailable, match="its eval JSON files hold more than 4 MB"):
        unpack(blob, "eval_job")


def test_a_blob_that_is_no_zip_is_none_so_the_download_is_asked_for_again() -> None:
    assert unpack(b"<html>cut</html>", "eval_results_all") is None
    assert unpack(_zip({"agg_eval_all.json": b"[]"})[:-10], "eval_results_all") is None


def _damaged(how: str) -> bytes:
    """A one-member zip whose member is damaged inside while its directory stays valid."""
    name = "results_1.json"
    blob = bytearray(_zip({name: b'{"lm_eval_version": "0.4.9"}' * 50}))
    data = 30 + len(name)  # the member's compressed bytes follow its local header
    central = blob.rfind(b"PK\x01\x02")
    if how == "deflate stream":
        blob[data : data + 4] = b"\xff\xff\xff\xff"  # block type 3 does not exist
    elif how == "encrypted":
        blob[6] |= 1  # general-purpose flag bit 0, local header and directory alike
        blob[central + 8] |= 1
    else:  # the directory's compressed size stops the stream before its end
        blob[central + 20 : central + 24] = (5).to_bytes(4, "little")
    return bytes(blob)


@pytest.mark.parametrize("how", ["deflate stream", "encrypted", "compressed size"])
def test_a_member_damaged_inside_is_unavailable_not_a_crash(how: str) -> None:
    with pytest.raises(Unavailable, match=r"results_1\.json cannot be unpacked"):
        unpack(_damaged(how), "eval_job")


def test_a_zip_needing_a_newer_zip_version_is_unavailable_not_a_crash() -> None:
    blob = bytearray(_zip({"agg_eval_all.json": b"[]"}))
    central = blob.rfind(b"PK\x01\x02")
    blob[central + 6 : central + 8] = (131).to_bytes(2, "little")  # needs zip version 13.1
    with pytest.raises(Unavailable, match="a zip this reader cannot open"):
        unpack(bytes(blob), "eval_results_all")


def test_every_eval_job_artifact_is_read_not_the_first_eight_by_name() -> None:
    # The ninth by name holds a 0.500 gsm8k score; the first eight alone made Check 2 PASS.
    reason = _check_2_reason("eval_jobs_past_eight")
    assert "0.500" in reason
    (results,) = replay_verify("eval_jobs_past_eight").evidence.evals
    assert len(results.jobs) == 9


def test_more_eval_job_artifacts_than_are_read_fail_closed_without_downloading() -> None:
    replayed = replay_verify("eval_jobs_past_the_bound")
    assert not any(uri.endswith("/zip") for uri in replayed.requests)
    reason = _check_2_reason("eval_jobs_past_the_bound")
    assert "17 per-job eval artifacts" in reason and "at most 16 are read" in reason
