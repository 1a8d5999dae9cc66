"""The result of a finished game and the rule for a leaving player."""

from __future__ import annotations

from ..base import Result, Score, State, finished, rank
from . import rounds


def result(state: State) -> Result | None:
    """Scores are VP, all of them from buildings.  The player who reached the
    target wins alone (the round is not finished); if the game ran out of
    buildings, most VP wins and equal VP share the win.  Places: the winners
    first, then by VP (equal VP share a place); players who resigned come
    last.  `ended_by` is the state's own end reason: ``target`` or
    ``exhausted``.
    """
    end = state["end"]
    if end is None:
        return None
    scores = [seat["vp"] for seat in state["seats"]]
    keys = [
        (s not in state["resigned"], s in end["winners"], scores[s])
        for s in range(state["players"])
    ]
    breakdown: list[dict[str, Score]] = [{"buildings": vp} for vp in scores]
    return finished(rank(keys), scores, end["reason"], breakdown)


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
