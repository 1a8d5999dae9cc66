"""The shape of an Estates state, setup, and the cheap copy used by ``apply``.

State (plain JSON data)::

    edition, players, rounds, round (1-based), turn (counter)
    setups        one {"display", "roofs", "start"} per round, fixed by setup();
                  hidden from every view (future displays, roof order)
    display       3 display rows of cube strings, either end may be auctioned
    roofs         the face-down roofs still in the supply, in drawn order (hidden)
    blanks        blank roofs turned over and discarded this round
    board         3 rows, see board.py
    specials      permit1..3, cancel, mayor -> "supply" | "auction" | "board" | "gone"
    mayor         row index of the mayor on Main Street, or None
    certificates  company -> seat holding its ownership certificate, or None
    money, stash  cheques in hand / stashed as illegal earnings, per seat (hidden)
    active        the seat whose turn it is (the auctioneer)
    phase         "start" | "bid" | "resolve" | "place" | "over"
    auction       the auction of this turn (see turn.py), or None
    recipient     the seat placing the piece, during "place"
    last          what the previous turn did (for the players' mail)
    round_results scores of finished rounds; wins: rounds won per seat
    result        the final result once the game is over
"""

from __future__ import annotations

import random
from typing import Any

from .board import empty_row
from .data import COMPANIES, CUBES, DISPLAY_LEN, DISPLAY_ROWS, EDITIONS, SPECIALS, START_CHEQUES

State = dict[str, Any]


def draw_round(rng: random.Random, players: int, edition: str) -> dict[str, Any]:
    """Shuffle one round: 24 of the 36 cubes in 3 rows of 8, the roofs, a start player."""
    cubes = list(CUBES)
    rng.shuffle(cubes)
    display = [cubes[i * DISPLAY_LEN : (i + 1) * DISPLAY_LEN] for i in range(DISPLAY_ROWS)]
    roofs = list(EDITIONS[edition]["roofs"])
    rng.shuffle(roofs)
    return {"display": display, "roofs": roofs, "start": rng.randrange(players)}


def new_state(players: int, edition: str, rounds: int, seed: int) -> State:
    rng = random.Random(seed)
    setups = [draw_round(rng, players, edition) for _ in range(rounds)]
    state: State = {
        "edition": edition,
        "players": players,
        "rounds": rounds,
        "round": 0,
        "turn": 0,
        "setups": setups,
        "money": [START_CHEQUES] * players,
        "stash": [0] * players,
        "round_results": [],
        "wins": [0] * players,
        "result": None,
        "last": None,
        "resigned": [],
    }
    start_round(state)
    return state


def start_round(state: State) -> None:
    """Set the board up for the next round (in place, on a fresh copy).

    Money is not dealt again: cheques carry over, and the stash of the round
    just scored goes back into the hand (it was scored once already).
    """
    setup = state["setups"][state["round"]]
    state["round"] += 1
    state["display"] = [list(row) for row in setup["display"]]
    state["roofs"] = list(setup["roofs"])
    state["blanks"] = 0
    state["board"] = [empty_row() for _ in range(3)]
    state["specials"] = dict.fromkeys(SPECIALS, "supply")
    state["mayor"] = None
    state["certificates"] = dict.fromkeys(COMPANIES)
    state["money"] = [m + s for m, s in zip(state["money"], state["stash"], strict=True)]
    state["stash"] = [0] * state["players"]
    start = setup["start"]
    state["active"] = start if start not in state["resigned"] else next_seat(state, start)
    state["phase"] = "start"
    state["auction"] = None
    state["recipient"] = None


def next_seat(state: State, seat: int) -> int:
    """The next seat clockwise that is still playing (see leaving.py)."""
    players, gone = state["players"], state["resigned"]
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if candidate not in gone:
            return candidate
    return seat


def _copy_row(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "floors": [list(f) for f in row["floors"]],
        "roofs": list(row["roofs"]),
        "permits": list(row["permits"]),
    }


def _copy_auction(auction: dict[str, Any] | None) -> dict[str, Any] | None:
    if auction is None:
        return None
    copy = dict(auction)
    copy["piece"] = dict(auction["piece"])
    copy["bidders"] = list(auction["bidders"])
    copy["bids"] = [list(b) for b in auction["bids"]]
    return copy


def copy_state(state: State) -> State:
    """A copy that ``apply`` may change freely.

    Cheaper than a JSON round trip: ``setups``, finished round results and
    ``result`` are never changed in place, so they are shared, not copied.
    """
    new = dict(state)
    new["display"] = [list(row) for row in state["display"]]
    new["roofs"] = list(state["roofs"])
    new["board"] = [_copy_row(row) for row in state["board"]]
    new["specials"] = dict(state["specials"])
    new["certificates"] = dict(state["certificates"])
    new["money"] = list(state["money"])
    new["stash"] = list(state["stash"])
    new["wins"] = list(state["wins"])
    new["round_results"] = list(state["round_results"])
    new["resigned"] = list(state["resigned"])
    new["auction"] = _copy_auction(state["auction"])
    return new
