"""Tables for the Havana tests: named people, small building lists, set rounds.

Seats: Vanessa 0, Sarah 1, Tobias 2, Peter 3 (the people of the rules'
examples).  Tests build the exact situation they need on a real game state
rather than depending on the provisional building list.
"""

from __future__ import annotations

from typing import Any

from games.engines.havana import ENGINE, data, rounds
from games.engines.havana.order import arrange
from games.engines.havana.setup import new_game

VANESSA, SARAH, TOBIAS, PETER = 0, 1, 2, 3

# Twelve buildings of the tests' own: cheap, easy to read costs.
SMALL = {
    str(i): {"vp": 1 + (i % 3), "cost": {"gray": 1}, "architect": False} for i in range(1, 21)
}


def buildings(spec: dict[int, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """A building table: id -> {vp, cost, architect}, filled with defaults."""
    table = dict(SMALL)
    for bid, fields in spec.items():
        table[str(bid)] = {"vp": 1, "cost": {"gray": 1}, "architect": False, **fields}
    return table


def table(players: int = 4, spec: dict[int, dict[str, Any]] | None = None, seed: int = 1):
    """A fresh game with empty centre and empty-handed players (cubes back to the bag)."""
    state = new_game(players, {"ages": None}, seed, buildings=buildings(spec or {}))
    for holder in [state["centre"]["cubes"], *(s["cubes"] for s in state["seats"])]:
        for colour in data.CUBES:
            state["bag"].extend([colour] * holder[colour])
            holder[colour] = 0
    state["centre"]["pesos"] = 0
    for seat in state["seats"]:
        seat["pesos"] = 0
    return state


def give(state, seat: int, pesos: int = 0, workers: int = 0, **cubes: int) -> None:
    """Move resources to a seat from the bag and the supply (keeps the totals)."""
    own = state["seats"][seat]
    own["pesos"] += pesos
    own["workers"] += workers
    state["workers"] -= workers
    for colour, n in cubes.items():
        for _ in range(n):
            state["bag"].remove(colour)
        own["cubes"][colour] += n


def centre(state, pesos: int = 0, **cubes: int) -> None:
    state["centre"]["pesos"] += pesos
    for colour, n in cubes.items():
        for _ in range(n):
            state["bag"].remove(colour)
        state["centre"]["cubes"][colour] += n


def start(state, cards: dict[int, list[str]], order: list[int] | None = None, turn: int = 0):
    """Phase 1 with these face-up cards; `order` forces the turn order.

    Seats not named play Siesta and Refreshment (nothing that touches others).
    """
    cards = {s: cards.get(s, ["0", "1"]) for s in range(state["players"])}
    for seat, pair in cards.items():
        own = state["seats"][seat]
        for card in pair:
            if card in own["hand"]:
                own["hand"].remove(card)
        own["cards"] = arrange(pair)
    rounds.start_round(state)
    if order is not None:
        state["order"] = list(order)
    state["turn"] = state["order"].index(turn) if order is not None else state["turn"]
    rounds.begin_turn(state)
    return state


def act(state, seat: int, action: dict) -> dict:
    return ENGINE.apply(state, seat, action)


def kinds(state, seat: int) -> set[str]:
    return {a["type"] for a in ENGINE.legal_actions(state, seat)}


def cube_total(state) -> int:
    held = sum(sum(s["cubes"].values()) for s in state["seats"])
    return (
        len(state["bag"])
        + sum(state["centre"]["cubes"].values())
        + held
        + sum(state["removed"].values())
    )
