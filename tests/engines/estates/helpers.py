"""Small builders shared by the Estates tests: a table, a board, an auction.

Seats are named people: alice (0), bob (1), carol (2), dave (3), erin (4).
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import IllegalAction, canonical_json
from games.engines.estates import ENGINE

ALICE, BOB, CAROL, DAVE, ERIN = range(5)

State = dict[str, Any]
Action = dict[str, Any]


def new_game(players: int = 3, edition: str = "the-estates", rounds: int = 1, seed: int = 7):
    """A game where alice starts, whatever the seed drew."""
    state = ENGINE.setup(players, {"edition": edition, "rounds": rounds}, seed)
    state["active"] = ALICE
    return state


def build(state: State, lot: str, floors: list[str], roof: int | None = None) -> State:
    """Put a building straight onto the board (for setting up a position)."""
    row = "abc".index(lot[0])
    number = int(lot[1:]) - 1
    state["board"][row]["floors"][number] = list(floors)
    state["board"][row]["roofs"][number] = roof
    return state


def own(state: State, company: str, seat: int) -> State:
    state["certificates"][company] = seat
    return state


def put_display(state: State, row: int, cubes: list[str]) -> State:
    """Replace display row ``row`` (1-based)."""
    state["display"][row - 1] = list(cubes)
    return state


def act(state: State, seat: int, action: Action) -> State:
    """Apply, checking the action was in the legal list first."""
    assert action in ENGINE.legal_actions(state, seat), (action, ENGINE.legal_actions(state, seat))
    return ENGINE.apply(state, seat, action)


def auction(
    state: State,
    choose: Action,
    bids: list[int | None] | None = None,
    decision: str | None = None,
) -> State:
    """Choose a piece as the active player, then each bidder in turn (None = pass),
    then give/keep when someone bid.  Returns the state at the placement step."""
    auctioneer = state["active"]
    state = act(state, auctioneer, choose)
    for amount in bids or []:
        (seat,) = ENGINE.to_act(state)
        move = {"type": "pass"} if amount is None else {"type": "bid", "amount": amount}
        state = act(state, seat, move)
    if decision is not None:
        state = act(state, auctioneer, {"type": decision})
    return state


def passes(players: int) -> list[int | None]:
    return [None] * (players - 1)


def rejects(state: State, seat: int, action: Any) -> str:
    """The action raises IllegalAction and leaves the state as it was."""
    before = canonical_json(state)
    try:
        ENGINE.apply(state, seat, action)
    except IllegalAction as exc:
        assert canonical_json(state) == before
        return exc.message
    raise AssertionError(f"{action!r} was accepted")


def random_game(players: int, seed: int, edition: str = "neue-heimat", rounds: int = 1):
    """Yield (state, seat, legal, action) for each step of a seeded random game."""
    state = ENGINE.setup(players, {"edition": edition, "rounds": rounds}, seed)
    rng = random.Random(seed * 7919 + players)
    steps = 0
    while ENGINE.result(state) is None:
        (seat,) = ENGINE.to_act(state)
        legal = ENGINE.legal_actions(state, seat)
        action = rng.choice(legal)
        yield state, seat, legal, action
        state = ENGINE.apply(state, seat, action)
        steps += 1
        assert steps < 20000, "game does not end"
    yield state, None, [], None
