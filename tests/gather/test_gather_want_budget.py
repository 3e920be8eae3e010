"""The read budget is shared so that a check asking a few reads is not starved by one asking
more than the budget holds, and a check that follows what it reads keeps budget for it."""

from __future__ import annotations

from signoff.evidence import Want
from signoff.gather.wants import MAX_WANTS, _this_round


def _files(prefix: str, count: int) -> list[Want]:
    return [Want(kind="file", path=f"{prefix}/{i}.yaml", role="head") for i in range(count)]


LISTING = Want(kind="dir", path="docs/waiver", role="default")


def test_a_check_asking_few_reads_gets_them_all_although_another_asks_more_than_the_budget():
    bulk = _files("recipes", 3 * MAX_WANTS)
    taken = _this_round([bulk, [LISTING]], set(), MAX_WANTS)
    assert LISTING in taken
    assert len(taken) == MAX_WANTS // 2


def test_a_round_spends_at_most_half_the_budget_left_so_the_next_round_has_reads():
    bulk = _files("recipes", 3 * MAX_WANTS)
    done: set[Want] = set()
    budget = MAX_WANTS
    first = _this_round([bulk], done, budget)
    done |= set(first)
    budget -= len(first)
    follow = Want(kind="file", path="docs/waiver/12.md", role="default")
    second = _this_round([bulk, [follow]], done, budget)
    assert follow in second and not set(second) & set(first)


def test_the_last_read_of_the_budget_is_still_made():
    assert _this_round([[LISTING]], set(), 1) == [LISTING]
    assert _this_round([[LISTING]], set(), 0) == []


def test_reads_already_made_and_duplicates_are_not_asked_again():
    a, b = _files("x", 2)
    assert _this_round([[a, b, a], [b]], {a}, MAX_WANTS) == [b]


def test_a_round_the_budget_holds_reads_everything_in_check_order():
    a, b, c = _files("x", 3)
    assert _this_round([[a, b], [c, a]], set(), 3) == [a, b, c]
