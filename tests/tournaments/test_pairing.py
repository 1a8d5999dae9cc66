"""Pairing (tournaments.pairing), pure: repeats avoided where they can be,
seats balanced, counts that do not divide, and the same input giving the
same tables."""

from __future__ import annotations

import itertools

from tournaments import pairing


def met_in(tables, history: pairing.History) -> None:
    for table in tables:
        for seat, player in enumerate(table):
            history.seats.setdefault(player, []).append(seat)
        for a, b in itertools.combinations(table, 2):
            key = frozenset((a, b))
            history.met[key] = history.met.get(key, 0) + 1


def repeated_pairs(tables, history) -> int:
    return sum(
        1 for t in tables for a, b in itertools.combinations(t, 2) if history.meetings(a, b)
    )


def test_sixteen_players_at_tables_of_four_meet_nobody_twice_in_round_two():
    history = pairing.History()
    players = list(range(16))
    first, _ = pairing.pair_round(players, 4, 2, history, seed=1, by_points=True)
    assert sorted(map(sorted, first)) == [
        [0, 1, 2, 3],
        [4, 5, 6, 7],
        [8, 9, 10, 11],
        [12, 13, 14, 15],
    ]
    met_in(first, history)
    second, byes = pairing.pair_round(players, 4, 2, history, seed=2, by_points=True)
    assert byes == [] and sorted(p for t in second for p in t) == players
    assert repeated_pairs(second, history) == 0


def test_twelve_players_at_tables_of_four_repeat_only_the_unavoidable_three_pairs():
    # Three tables of four drawn from three earlier tables: each new table
    # holds two players of one earlier table (pigeonholes), so three pairs
    # meet again at least; the pairing finds exactly that.
    history = pairing.History()
    players = list(range(12))
    first, _ = pairing.pair_round(players, 4, 2, history, seed=1, by_points=True)
    met_in(first, history)
    second, _ = pairing.pair_round(players, 4, 2, history, seed=2, by_points=True)
    assert repeated_pairs(second, history) == 3


def test_a_swiss_round_with_nothing_to_avoid_keeps_players_of_like_standing_together():
    tables, _ = pairing.pair_round(list(range(8)), 4, 2, pairing.History(), seed=9, by_points=True)
    assert tables and sorted(map(sorted, tables)) == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_who_sat_first_before_sits_later_and_nobody_takes_a_seat_number_again():
    history = pairing.History(seats={1: [0], 2: [1], 3: [2], 4: [3]})
    order = pairing.seat([1, 2, 3, 4], history)
    assert all(order.index(p) != history.seats[p][0] for p in order)
    assert order.index(1) > 0  # the first player of last time is not first again
    # after four rounds of rotation every player has held every seat once
    history = pairing.History()
    for _ in range(4):
        order = pairing.seat([1, 2, 3, 4], history)
        for s, p in enumerate(order):
            history.seats.setdefault(p, []).append(s)
    assert all(sorted(seats) == [0, 1, 2, 3] for seats in history.seats.values())


def test_nobody_sits_first_again_while_someone_at_the_table_never_has():
    history = pairing.History(seats={1: [0], 2: [0, 1], 3: [0], 4: [3]})
    assert pairing.seat([1, 2, 3, 4], history)[0] == 4
    everyone = pairing.History(seats={1: [0], 2: [0], 3: [0], 4: [0]})
    assert sorted(pairing.seat([1, 2, 3, 4], everyone)) == [1, 2, 3, 4]


def test_counts_that_do_not_divide_make_tables_one_smaller_or_byes():
    assert pairing.table_sizes(12, 4, 2) == ([4, 4, 4], 0)
    assert pairing.table_sizes(13, 4, 2) == ([4, 3, 3, 3], 0)
    assert pairing.table_sizes(14, 4, 2) == ([4, 4, 3, 3], 0)
    # five at fours would need a table of two: one table of four and a bye
    assert pairing.table_sizes(5, 4, 2) == ([4], 1)
    # a title that takes no fewer than four: byes rather than tables of three
    assert pairing.table_sizes(13, 4, 4) == ([4, 4, 4], 1)
    assert pairing.table_sizes(7, 2, 2) == ([2, 2, 2], 1)


def test_byes_go_to_the_lowest_who_had_the_fewest():
    history = pairing.History(byes={4: 1})
    assert pairing.byes([0, 1, 2, 3, 4], 1, history) == [3]
    tables, byes = pairing.pair_round([0, 1, 2, 3, 4], 4, 2, history, seed=3, by_points=True)
    assert byes == [3] and sorted(tables[0]) == [0, 1, 2, 4]


def test_the_same_input_gives_the_same_tables():
    history = pairing.History()
    met_in([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], history)
    one = pairing.pair_round(list(range(12)), 4, 2, history, seed=7, by_points=False)
    two = pairing.pair_round(list(range(12)), 4, 2, history, seed=7, by_points=False)
    assert one == two


def test_round_robin_spreads_meetings_over_rounds():
    # 16 players, tables of four, five rounds: 6 pairs a table, 24 a round,
    # 120 pairs in all, exactly the number of pairs there are.  The local
    # search need not find a perfect schedule; it must keep every pair to
    # at most two meetings and most pairs to one.
    history = pairing.History()
    for number in range(5):
        tables, _ = pairing.pair_round(
            list(range(16)), 4, 2, history, seed=number, by_points=False
        )
        met_in(tables, history)
    assert max(history.met.values()) <= 2
    assert len(history.met) >= 100


def test_the_circle_method_meets_every_pair_once_at_tables_of_two():
    for count in (6, 5):
        history = pairing.History()
        rounds = count - 1 if count % 2 == 0 else count
        byes: list[int] = []
        for number in range(1, rounds + 1):
            tables, out = pairing.circle_round(list(range(count)), number, history)
            met_in(tables, history)
            byes += out
        assert len(history.met) == count * (count - 1) // 2
        assert set(history.met.values()) == {1}
        assert sorted(byes) == ([] if count % 2 == 0 else list(range(count)))
        # first and second seats alternate: nobody sits first more than
        # one round in two, give or take one
        for seats in history.seats.values():
            assert abs(seats.count(0) - seats.count(1)) <= 1
