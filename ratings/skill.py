"""The rating update of one game: openskill's Plackett-Luce model (Weng and
Lin 2011, algorithm 4) over the seats, ranked by the result's places (ties
as the result gives them), plus the one thing the library does not know: a
seat held by several players in turn.

A seat held by one player is a one-player team, updated exactly as the
library says.  A seat held by several (a replacement took it over) is
shown to the other seats as one player whose mean is the holders' means
weighted by their shares of the seat's turns, and whose variance is their
variances so weighted; each holder then moves by their share of the update
they would have had sitting the whole game themselves.  A holder with a
share of 1 is thus the plain case, and shares of 0 are never rated.

Pure Python: no Django, so the maths is tested without a database.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


def ordinal(mu: float, sigma: float) -> float:
    """The number shown and ranked by: a cautious estimate, mu - 3 sigma."""
    return mu - 3 * sigma


def update(seats: list[list[tuple[Skill, float]]], places: list[int]) -> list[list[Skill]]:
    """The new skills of every holder of every seat: `seats[s]` lists
    (skill, share) per holder of seat s (shares of a seat add up to 1),
    `places[s]` its 1-based place."""
    if len(seats) != len(places) or len(seats) < 2:
        raise ValueError("one place per seat, at least two seats")
    shown = [_composite(holders) for holders in seats]
    plain = _rate(shown, places)
    out = []
    for s, holders in enumerate(seats):
        if len(holders) == 1:
            out.append([plain[s]])
            continue
        moved = []
        for skill, share in holders:
            alone = _rate([*shown[:s], skill, *shown[s + 1 :]], places)[s]
            variance = skill.sigma**2 + share * (alone.sigma**2 - skill.sigma**2)
            moved.append(
                Skill(skill.mu + share * (alone.mu - skill.mu), math.sqrt(max(variance, 0.0)))
            )
        out.append(moved)
    return out


def _composite(holders: list[tuple[Skill, float]]) -> Skill:
    if len(holders) == 1:
        return holders[0][0]
    mu = sum(skill.mu * share for skill, share in holders)
    variance = sum(skill.sigma**2 * share for skill, share in holders)
    return Skill(mu, math.sqrt(variance))


def _rate(skills: list[Skill], places: list[int]) -> list[Skill]:
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    rated = MODEL.rate(teams, ranks=[float(place) for place in places])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]
