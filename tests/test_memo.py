"""Values kept by the identity of their owner (signoff/memo.py)."""

from __future__ import annotations

from signoff.judge.shared_readings import clear_all
from signoff.memo import ByIdentity


def test_a_value_is_found_only_for_the_same_object():
    memo: ByIdentity[str] = ByIdentity(4)
    owner, twin = ["a"], ["a"]  # equal, not the same
    memo.put(owner, "kept")
    assert memo.get(owner) == "kept"
    assert memo.get(twin) is None


def test_the_least_recently_used_owner_is_dropped_past_the_size():
    memo: ByIdentity[int] = ByIdentity(2)
    first, second, third = object(), object(), object()
    memo.put(first, 1)
    memo.put(second, 2)
    assert memo.get(first) == 1  # now the most recent
    memo.put(third, 3)
    assert (memo.get(first), memo.get(second), memo.get(third)) == (1, None, 3)


def test_a_kept_owner_keeps_its_id_and_clear_all_forgets_it():
    memo: ByIdentity[str] = ByIdentity(4)
    memo.put(["short-lived"], "value")  # held by the memo, so its id is not reused meanwhile
    assert len(memo._kept) == 1 and next(iter(memo._kept.values()))[0] == ["short-lived"]
    clear_all()
    assert not memo._kept
