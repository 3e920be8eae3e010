"""The read budget is shared so that a check asking a few reads is not starved by one asking
more than the budget holds, a check that follows what it reads keeps budget for it, and a check
cut short is not fed the rest in dribbles, a round each."""

from __future__ import annotations

from signoff.evidence import Want
from signoff.gather.wants import MAX_WANTS, _this_round


def _files(prefix: str, count: int) -> list[Want]:
    return [Want(kind="file", path=f"{prefix}/{i}.yaml", role="head") for i in range(count)]


LISTING = Want(kind="dir", path="docs/waiver", role="default")


def test_a_check_asking_few_reads_gets_them_all_although_another_asks_more_than_the_budget():
    bulk = _files("recipes", 3 * MAX_WANTS)
    taken, cut = _this_round([bulk, [LISTING]], set(), MAX_WANTS)
    assert LISTING in taken
    assert cut == {0}
    assert len(taken) == MAX_WANTS // 2


def test_a_round_spends_at_most_half_the_budget_left_so_the_next_round_has_reads():
    bulk = _files("recipes", 3 * MAX_WANTS)
    done: set[Want] = set()
    budget = MAX_WANTS
    first, cut = _this_round([bulk, []], done, budget)
    done |= set(first)
    budget -= len(first)
    follow = Want(kind="file", path="docs/waiver/12.md", role="default")
    second, _ = _this_round([bulk, [follow]], done, budget, cut)
    assert second == [follow]


def test_the_last_read_of_the_budget_is_still_made():
    assert _this_round([[LISTING]], set(), 1) == ([LISTING], frozenset())
    assert _this_round([[LISTING]], set(), 0) == ([], {0})


def test_reads_already_made_and_duplicates_are_not_asked_again():
    a, b = _files("x", 2)
    assert _this_round([[a, b, a], [b]], {a}, MAX_WANTS) == ([b], frozenset())


def test_a_round_the_budget_holds_reads_everything_in_check_order():
    a, b, c = _files("x", 3)
    assert _this_round([[a, b], [c, a]], set(), 3) == ([a, b, c], frozenset())


def test_a_check_cut_short_gets_no_more_reads_and_the_rounds_end_when_the_others_are_done():
    bulk = _files("recipes", 3 * MAX_WANTS)
    small = _files("scripts", 3)
    done: set[Want] = set()
    budget, cut, rounds = MAX_WANTS, frozenset[int](), 0
    while True:
        asked = [bulk, small[: rounds + 1]]  # the small check follows what it read, a read a round
        taken, cut = _this_round(asked, done, budget, cut)
        if not taken:
            break
        rounds += 1
        done |= set(taken)
        budget -= len(taken)
    assert set(small) <= done  # the follow-ups are all read
    assert rounds == 3  # not one more round per halving of what the bulk check is left
    assert len(done & set(bulk)) == MAX_WANTS // 2 - 1  # what the first round held
