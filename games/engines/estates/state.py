"""The shape of an Estates state (EstatesState below), setup, and the copy
``apply`` plays on.

Parts marked SHARED are never changed in place, only replaced or appended
to, so copies share them: the setups of every round, the scores of finished
rounds, the previous turn's record and the result.
"""

from __future__ import annotations

import random
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from ..typed import SHARED, copier
from .board import empty_row
from .data import COMPANIES, CUBES, DISPLAY_LEN, DISPLAY_ROWS, EDITIONS, SPECIALS, START_CHEQUES

State = dict[str, Any]

Special = Literal["supply", "auction", "board", "gone"]


class RoundSetup(TypedDict):
    display: list[list[str]]
    roofs: list[int]
    start: int


class Row(TypedDict):
    """A row of lots on the board (board.py)."""

    floors: list[list[str]]  # the cubes on each lot, bottom up
    roofs: list[int | None]  # the roof on each lot
    permits: list[int]  # signed: see board.py


class Piece(TypedDict, total=False):
    kind: Literal["cube", "roof", "permit", "cancel", "mayor"]
    cube: str
    at: str  # the display end a cube came from
    value: int  # a roof's or permit's number


class Auction(TypedDict):
    """The auction of this turn (turn.py)."""

    piece: Piece
    auctioneer: int
    bidders: list[int]  # still to bid, in order
    bids: list[list[int | None]]  # [seat, amount or None for a pass]
    high: int
    high_bidder: int | None
    decision: NotRequired[Literal["give", "keep"]]  # once resolved


class EstatesState(TypedDict):
    edition: str
    players: int
    rounds: int
    round: int  # 1-based
    turn: int  # counter
    setups: Annotated[list[RoundSetup], SHARED]  # per round, hidden from every view
    money: list[int]  # cheques in hand, per seat (hidden)
    stash: list[int]  # cheques stashed as illegal earnings, per seat (hidden)
    round_results: list[Annotated[dict[str, Any], SHARED]]  # scores of finished rounds
    wins: list[int]  # rounds won, per seat
    result: Annotated[dict[str, Any] | None, SHARED]  # once the game is over
    last: Annotated[dict[str, Any] | None, SHARED]  # the previous turn, for the mail
    resigned: list[int]
    display: list[list[str]]  # 3 rows of cubes, either end may be auctioned
    roofs: list[int]  # face-down roofs in the supply, in drawn order (hidden)
    blanks: int  # blank roofs turned over this round
    board: list[Row]
    specials: dict[str, Special]  # permit1..3, cancel, mayor
    mayor: int | None  # row of the mayor on Main Street
    certificates: dict[str, int | None]  # company -> seat holding its certificate
    active: int  # the seat whose turn it is (the auctioneer)
    phase: Literal["start", "bid", "resolve", "place", "over"]
    auction: Auction | None
    recipient: int | None  # the seat placing the piece, during "place"


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


copy_state = copier(EstatesState)
