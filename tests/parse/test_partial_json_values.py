"""A JSON flag value written with run-time parts is read tolerantly: keys whose values are
known read as known, a value that is a run-time part alone is unknown, and a key a run-time
part could still override (written before it) is not read."""

from __future__ import annotations

from signoff.parse.benchmark.launch_acceptance import partial_json

KEYS = ("synthetic_acceptance_length", "rejection_sample_method")


def _parts(before: str, after: str) -> list[tuple[str, bool]]:
    return [(before, True), ("${SPEC_NUM_TOKENS:-2}", False), (after, True)]


def test_known_keys_after_a_run_time_value_standing_alone_are_read():
    parts = _parts(
        '{"model":"m","num_speculative_tokens":',
        ',"rejection_sample_method": "synthetic", "synthetic_acceptance_length": 2.51}',
    )
    data = partial_json(parts, KEYS)
    assert data is not None
    assert data["synthetic_acceptance_length"] == 2.51
    assert data["rejection_sample_method"] == "synthetic"


def test_the_key_whose_value_is_the_run_time_part_is_not_read():
    parts = _parts('{"num_speculative_tokens":', ', "synthetic_acceptance_length": 2.51}')
    assert partial_json(parts, ("num_speculative_tokens",)) is None


def test_a_key_written_before_a_run_time_value_is_not_read_since_that_value_may_add_keys():
    # the run-time text could be `2, "synthetic_acceptance_length": 9`
    parts = _parts('{"synthetic_acceptance_length": 2.51, "num_speculative_tokens":', "}")
    assert partial_json(parts, ("synthetic_acceptance_length",)) is None


def test_a_run_time_part_that_is_not_a_whole_value_still_makes_the_object_unreadable():
    parts = _parts('{"num_speculative_tokens": 1', ', "synthetic_acceptance_length": 2.51}')
    assert partial_json(parts, ("synthetic_acceptance_length",)) is None
