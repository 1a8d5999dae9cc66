"""A new game of 18Cuba: all randomness resolved from the seed (draft III.2).

The only chance in 18Cuba is the deal of the playing-order cards; it is made
here, so the stored setup holds the order and replay never draws again.
"""

from __future__ import annotations

import random

from .data import market, trains
from .data.companies import BY_SYM, FC, majors_in_play
from .data.variants import BANK, Variant
from .map import board
from .rules import cash, shares
from .state import CompanyState, CubaState, PrivateState, RoundState


def new_game(variant: Variant, seed: int, part: str | None = None) -> CubaState:
    """`part`: the half of the map a 2-player easy game is played on (X)."""
    # The 2-player easy game is played on the eastern or the western part of
    # the map (draft X); a major not in play has no charter and no certificates.
    if variant.partial_map and part is None:
        raise ValueError(f"the {variant.id} game is played on a part: name east or west")
    if not variant.partial_map and part is not None:
        raise ValueError(f"the {variant.id} game is played on the whole map, not a part")
    majors = majors_in_play(part)
    syms = [sym for sym, c in BY_SYM.items() if c.kind != "major" or sym in majors]
    order = list(range(variant.players))
    random.Random(seed).shuffle(order)
    the_board = board.new_board(part)
    companies = {sym: _charter(sym) for sym in syms}
    companies[FC.sym]["tokens_placed"] = fc_markers(the_board)
    # The lowest playing-order card holds the priority deal and starts.
    return {
        "variant": variant.id,
        "players": variant.players,
        "order": order,
        "priority": order[0],
        "phase": 1,
        "cash": cash.new_ledger(BANK, variant.starting_cash, variant.players),
        "certificates": shares.new_certificates(syms),
        "companies": companies,
        "market": _market(),
        "depot": depot(variant),
        "pool": [],
        "fc_trains": [],
        "privates": {card: _private() for card in PRIVATES},
        "board": the_board,
        "round": _first_round(order),
        "ending": None,
        "end": None,
    }


def fc_markers(the_board: board.Board) -> int:
    """The FC's markers on the map: in a city slot or waiting on their hex
    (eight on the whole map; on a part only those in play)."""
    cities = [owners for hex_cities in the_board["tokens"].values() for owners in hex_cities]
    placed = sum(owners.count(FC.sym) for owners in cities)
    return placed + len(the_board["fc_pending"])


# The six commissioners, auctioned first (IV.1), and the six concessions (IV.2).
PRIVATES = (*(f"C{n}" for n in range(1, 7)), *(f"M{n}" for n in range(1, 7)))


def _private() -> PrivateState:
    return {"owner": None, "out": False, "minor": None, "company": None, "machine": None}


def depot(variant: Variant) -> dict[str, int | None]:
    """The stacks beside the bank: standard trains by stack (None: the 8/4D
    is unlimited), narrow trains, wagons and machines by generation."""
    stacks: dict[str, int | None] = {
        stack: counts[variant.id] for stack, counts in trains.STANDARD_COUNTS.items()
    }
    stacks.update({name: counts[variant.players] for name, counts in trains.NARROW_COUNTS.items()})
    stacks.update({wagon.name: wagon.count for wagon in trains.WAGONS})
    stacks.update({f"machine-{m.generation}": m.count for m in trains.MACHINES})
    return stacks


def _charter(sym: str) -> CompanyState:
    fc = sym == FC.sym
    return {
        "floated": fc,  # the FC runs from the start with its preprinted train (IV.5)
        "operated": False,
        "par": None,
        "price": market.FC_START if fc else None,
        "trains": [trains.FC_TRAIN.name] if fc else [],
        "wagons": [],
        "machines": [],
        # The FC's markers are on the map from the start (IV.5): all eight,
        # or those in play on a part of the map (X); new_game counts them.
        "tokens_placed": 0,
        "home": None,
        "cubes": 0,
    }


def _market() -> list[list[str]]:
    cells: list[list[str]] = [[] for _ in market.CELLS]
    cells[market.FC_START].append(FC.sym)
    return cells


def _first_round(order: list[int]) -> RoundState:
    # The game opens with the commissioners' auction (IV.1), started by the
    # holder of the priority deal.
    return {
        "kind": "auction",
        "number": 1,
        "of": 1,
        "index": 1,
        "entity": cash.player(order[0]),
        "steps": {},
    }
