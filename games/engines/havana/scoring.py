"""The result of a finished game and the rule for a leaving player."""

from __future__ import annotations

from typing import Any

from ..base import State
from . import rounds


def result(state: State) -> dict[str, Any] | None:
    """Scores are VP.  The player who reached the target wins alone (the round
    is not finished); if the game ran out of buildings, most VP wins and equal
    VP share the win.  Places: the winners first, then by VP (equal VP share a
    place); players who resigned come last.
    """
    end = state["end"]
    if end is None:
        return None
    scores = [seat["vp"] for seat in state["seats"]]
    winners = list(end["winners"])

    def key(s: int) -> tuple:
        return (s in state["resigned"], s not in winners, -scores[s], s)

    ranking = sorted(range(state["players"]), key=key)
    places: list[int] = [0] * state["players"]
    for pos, s in enumerate(ranking):
        prev = ranking[pos - 1] if pos else None
        same = prev is not None and key(prev)[:3] == key(s)[:3]
        places[s] = places[prev] if same else pos + 1
    return {
        "scores": scores,
        "ranking": ranking,
        "places": places,
        "winners": winners,
        "reason": end["reason"],
    }


def resign(state: State, seat: int) -> State | None:
    """The rules have nothing for a leaving player; our rule: with two or more
    players left the game goes on without them.  Their cubes go to the box,
    their workers to the supply, their pesos to the bank; their buildings
    stay on the table but they rank last.  With one player left it ends.
    """
    if seat in state["resigned"] or state["end"] is not None:
        return None
    if len(rounds.active_seats(state)) - 1 < 2:
        return None
    acting = rounds.current_seat(state) == seat
    state["resigned"].append(seat)
    leaver = state["seats"][seat]
    for colour, n in leaver["cubes"].items():
        state["removed"][colour] += n
        leaver["cubes"][colour] = 0
    state["workers"] += leaver["workers"]
    leaver["workers"] = 0
    leaver["pesos"] = 0
    state["pending"][seat] = None
    if acting:
        rounds.next_turn(state)
    else:
        rounds.maybe_reveal(state)
    rounds.check_end(state)
    return state
