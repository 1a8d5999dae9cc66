"""The rating maths against Weng and Lin's Plackett-Luce update worked out
here, independently of the library (algorithm 4 of "A Bayesian
Approximation Method for Online Ranking", JMLR 12, 2011, with openskill's
parameters: mu 25, sigma 25/3, beta 25/6, tau 25/300, kappa 0.0001, and
gamma = sigma_i / c).  Ties count as the paper counts them (A_q).  Plain
Python: no database."""

from __future__ import annotations

import math

import pytest

from ratings.skill import MU, SIGMA, Skill, update

BETA = 25 / 6
TAU = 25 / 300
KAPPA = 0.0001


def plackett_luce(
    skills: list[tuple[float, float]], places: list[int]
) -> list[tuple[float, float]]:
    """One game of one-player teams, by the paper's formulas."""
    sigma2 = [s * s + TAU * TAU for _, s in skills]  # the dynamics step first
    mus = [m for m, _ in skills]
    k = len(skills)
    c = math.sqrt(sum(v + BETA * BETA for v in sigma2))
    # C_q: the teams placed at q's place or below; A_q: the teams sharing q's place
    sum_q = [
        sum(math.exp(mus[s] / c) for s in range(k) if places[s] >= places[q]) for q in range(k)
    ]
    a_q = [sum(1 for s in range(k) if places[s] == places[q]) for q in range(k)]
    out = []
    for i in range(k):
        omega = delta = 0.0
        for q in range(k):
            if places[q] > places[i]:
                continue
            p = math.exp(mus[i] / c) / sum_q[q]
            delta += p * (1 - p) / a_q[q]
            omega += ((1 if q == i else 0) - p) / a_q[q]
        omega *= sigma2[i] / c
        gamma = math.sqrt(sigma2[i]) / c
        delta *= gamma * sigma2[i] / c**2
        out.append((mus[i] + omega, math.sqrt(sigma2[i]) * math.sqrt(max(1 - delta, KAPPA))))
    return out


def rated(skills: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    seats = [[(Skill(mu, sigma), 1.0)] for mu, sigma in skills]
    return [(seat[0].mu, seat[0].sigma) for seat in update(seats, places)]


def test_two_new_players_worked_by_hand():
    # sigma^2 = (25/3)^2 + (25/300)^2 = 69.45139; c = sqrt(2 (69.45139 + (25/6)^2)) = 13.17668;
    # the winner's p = 1/2, so mu moves by 1/2 * 69.45139 / 13.17668 = 2.63539 either way;
    # delta = 1/2 * 1/2 * 69.45139 / 13.17668^2 * sqrt(69.45139) / 13.17668 = 0.063274,
    # sigma = sqrt(69.45139) * sqrt(1 - 0.063274) = 8.06590.
    (winner, loser) = rated([(MU, SIGMA), (MU, SIGMA)], [1, 2])
    assert winner[0] == pytest.approx(27.63539, abs=1e-5)
    assert loser[0] == pytest.approx(22.36461, abs=1e-5)
    assert winner[1] == loser[1] == pytest.approx(8.06590, abs=1e-5)


@pytest.mark.parametrize(
    ("skills", "places"),
    [
        ([(25.0, 8.333), (28.0, 6.0)], [2, 1]),
        ([(25.0, 8.333), (30.0, 5.0), (20.0, 7.0)], [1, 2, 3]),
        ([(22.0, 4.0), (31.0, 2.5), (25.0, 8.333), (27.0, 6.0)], [3, 1, 4, 2]),
        ([(25.0, 8.333), (29.0, 3.0), (18.0, 7.5), (26.0, 5.0), (24.0, 6.5)], [2, 5, 1, 4, 3]),
    ],
    ids=["2 players", "3 players", "4 players", "5 players"],
)
def test_the_update_is_plackett_luce_for_two_to_five_players(skills, places):
    for got, want in zip(rated(skills, places), plackett_luce(skills, places), strict=True):
        assert got == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize(
    ("skills", "places"),
    [
        ([(MU, SIGMA)] * 3, [1, 1, 3]),
        ([(25.0, 8.333), (28.0, 6.0), (21.0, 7.0), (25.0, 5.0)], [2, 1, 2, 4]),
        ([(25.0, 8.333), (28.0, 6.0), (21.0, 7.0), (25.0, 5.0), (30.0, 3.0)], [1, 1, 1, 4, 4]),
    ],
    ids=["3 players, two share first", "4 players, two share second", "5 players, two ties"],
)
def test_ties_as_the_result_gives_them(skills, places):
    got = rated(skills, places)
    for mine, want in zip(got, plackett_luce(skills, places), strict=True):
        assert mine == pytest.approx(want, abs=1e-9)
    # seats tied for a place with the same skill before move alike
    for place in set(places):
        tied = [i for i in range(len(places)) if places[i] == place]
        for i in tied:
            for j in tied:
                if skills[i] == skills[j]:
                    assert got[i] == pytest.approx(got[j], abs=1e-12)


def test_sharing_first_place_gains_less_than_winning_it_and_no_less_than_second():
    first, shared, second = (
        rated([(MU, SIGMA)] * 3, places)[0][0] for places in ([1, 2, 3], [1, 1, 3], [2, 1, 3])
    )
    assert second <= shared < first


def test_a_whole_seat_is_the_plain_update_and_a_shared_seat_moves_by_shares():
    alone = update([[(Skill(), 1.0)], [(Skill(), 1.0)]], [1, 2])
    shared = update([[(Skill(), 0.25), (Skill(), 0.75)], [(Skill(), 1.0)]], [1, 2])
    gain = alone[0][0].mu - MU
    # both holders are new: each moves by their share of the whole seat's gain
    assert shared[0][0].mu - MU == pytest.approx(0.25 * gain, abs=1e-9)
    assert shared[0][1].mu - MU == pytest.approx(0.75 * gain, abs=1e-9)
    # the other seat met a seat as strong as a new player: the plain update
    assert shared[1][0].mu == pytest.approx(alone[1][0].mu, abs=1e-9)
