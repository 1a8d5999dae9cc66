"""Points and standings (tournaments.standings), worked by hand."""

from __future__ import annotations

from fractions import Fraction as F

from tournaments import standings
from tournaments.standings import Table


def test_a_full_table_of_four_gives_three_two_one_nothing():
    assert standings.place_points([2, 1, 4, 3], 4) == [2, 3, 0, 1]


def test_tied_places_share_the_points_they_cover():
    # two first: (3 + 2) / 2 each; then 3rd (1 point) and 4th (0)
    assert standings.place_points([1, 1, 3, 4], 4) == [F(5, 2), F(5, 2), 1, 0]
    # three tied second: (2 + 1 + 0) / 3 each
    assert standings.place_points([2, 1, 2, 2], 4) == [1, 3, 1, 1]


def test_a_smaller_table_spreads_first_to_last_over_the_same_range():
    assert standings.place_points([1, 2, 3], 4) == [3, F(3, 2), 0]
    assert standings.bye_points(4) == F(3, 2)


def test_standings_with_ties_broken_by_buchholz_then_firsts_then_rating_then_sign_up():
    # Players 1..8, two rounds of two tables of four.
    tables = [
        Table([1, 2, 3, 4], [1, 2, 3, 4]),  # 1:3 2:2 3:1 4:0
        Table([5, 6, 7, 8], [1, 2, 3, 4]),  # 5:3 6:2 7:1 8:0
        Table([1, 5, 2, 6], [3, 4, 1, 2]),  # 1:1 5:0 2:3 6:2
        Table([3, 7, 4, 8], [1, 1, 3, 4]),  # 3:2.5 7:2.5 4:1 8:0
    ]
    lines = standings.standings([1, 2, 3, 4, 5, 6, 7, 8], tables, [], 4, {7: 5.0})
    points = {line.key: line.points for line in lines}
    assert points == {1: 4, 2: 5, 3: F(7, 2), 4: 1, 5: 3, 6: 4, 7: F(7, 2), 8: 0}
    # 1 and 6 both have 4 points. Buchholz: 1 met 2,3,4 (5+3.5+1) and 5,2,6
    # (3+5+4) = 21.5; 6 met 5,7,8 (3+3.5+0) and 1,5,2 (4+3+5) = 18.5.
    by_key = {line.key: line for line in lines}
    assert by_key[1].buchholz == F(43, 2) and by_key[6].buchholz == F(37, 2)
    # 3 and 7 both have 3.5: Buchholz 3: 1,2,4 (4+5+1) + 7,4,8 (3.5+1+0) =
    # 14.5; 7: 5,6,8 (3+4+0) + 3,4,8 (3.5+1+0) = 11.5, so 3 is ahead of 7
    # whatever 7's rating.
    assert [line.key for line in lines] == [2, 1, 6, 3, 7, 5, 4, 8]


def test_equal_points_and_buchholz_go_to_more_firsts_then_rating_then_sign_up_order():
    # Tables of three in a tournament of fours (3, 1.5 and 0 points): 1 wins
    # once and is last once, 3 the other way round, 2 is second twice.  All
    # have 3 points and, having met only each other twice, 12 Buchholz; 1
    # and 3 have a first place each, 2 none; sign-up order (2, 1, 3) then
    # puts 1 before 3.
    tables = [Table([1, 2, 3], [1, 2, 3]), Table([3, 2, 1], [1, 2, 3])]
    lines = standings.standings([2, 1, 3], tables, [], 4)
    assert {line.points for line in lines} == {3} and {line.buchholz for line in lines} == {12}
    assert [line.key for line in lines] == [1, 3, 2]
    # rating comes before sign-up order
    lines = standings.standings([2, 1, 3], tables, [], 4, {3: 2.5})
    assert [line.key for line in lines] == [3, 1, 2]
    # no games at all: rating, then sign-up order
    assert [line.key for line in standings.standings([5, 6, 7], [], [], 4, {7: 1.0})] == [7, 5, 6]


def test_an_aborted_table_is_worth_nothing_and_a_bye_half_of_first():
    lines = standings.standings([1, 2, 3], [Table([1, 2], None)], [3], 4)
    points = {line.key: line.points for line in lines}
    assert points == {1: 0, 2: 0, 3: F(3, 2)}


def test_a_game_that_could_not_go_on_ranks_who_stayed_before_who_left():
    # a four whose game ended when 3 resigned: 1, 2 and 4 share places 1 to
    # 3, (3 + 2 + 1) / 3 = 2 each, and nobody counts a first place
    table = standings.after_leaving([1, 2, 3, 4], [False, False, True, False])
    lines = {line.key: line for line in standings.standings([1, 2, 3, 4], [table], [], 4)}
    assert [lines[k].points for k in (1, 2, 3, 4)] == [2, 2, 0, 2]
    assert all(line.firsts == 0 for line in lines.values())
    # a two whose game ended when 2 resigned: 1 takes the first place
    alone = standings.after_leaving([1, 2], [False, True])
    lines = {line.key: line for line in standings.standings([1, 2], [alone], [], 2)}
    assert (lines[1].points, lines[1].firsts, lines[2].points) == (1, 1, 0)
