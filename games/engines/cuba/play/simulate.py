"""Random legal track building: a stand-in for rounds, used by tests and the benchmark.

Every company in turn lays a random legal tile (and majors sometimes a random
legal station), while the phase advances with the number of rounds played.
It exercises the lay and token rules on realistic maps; it is not a game.
"""

from __future__ import annotations

import random
from typing import Any

from ...base import IllegalAction
from ..data.hexes import MAJOR_HOMES
from ..map.board import Board, company_hexes, new_board
from ..map.laying import Layer, lay_tile, legal_lays
from ..map.tokens import (
    check_token,
    choose_minor_home,
    home_token,
    legal_tokens,
    minor_home_options,
    place_token,
)

MINOR_SYMS = ("HG", "JU", "HY", "DQ", "CO", "SB")


def phase_for_round(n: int, rounds: int) -> int:
    """Phases 1..7 spread evenly over the simulated rounds."""
    return min(7, 1 + (7 * n) // max(1, rounds))


def start(rng: random.Random, majors: int = 5, minors: int = 3) -> tuple[Board, list[Layer]]:
    board = new_board()
    layers: list[Layer] = []
    for sym in rng.sample(MINOR_SYMS, minors):
        options = minor_home_options(board)
        home = rng.choice(options)
        board = choose_minor_home(board, sym, home)
        layers.append(Layer(sym, "minor", home=home, first_turn=True))
    for sym in rng.sample(sorted(MAJOR_HOMES), majors):
        coord, city = MAJOR_HOMES[sym]
        board = home_token(board, sym, coord, city)
        layers.append(Layer(sym, "major", home=coord, first_turn=True))
    return board, layers


def one_round(
    board: Board,
    layers: list[Layer],
    phase: int,
    rng: random.Random,
    log: list[dict[str, Any]] | None = None,
) -> tuple[Board, list[Layer]]:
    """Every company lays one random legal tile (if any) and maybe a station."""
    out = []
    for who in layers:
        lays = legal_lays(board, who, phase)
        fresh = [lay for lay in lays if lay["hex"] not in board["tiles"]]
        if fresh and rng.random() < 0.6:
            lays = fresh  # spread the track: new hexes before more upgrades
        if lays:
            pick = rng.choice(lays)
            board, _res = lay_tile(
                board,
                who,
                pick["hex"],
                pick["tile"],
                pick["rotation"],
                phase,
                fc_new=pick["fc_passes"],
            )
            if log is not None:
                log.append({"company": who.sym, **pick})
        if who.kind == "major" and len(company_hexes(board, who.sym)) < 4 and rng.random() < 0.3:
            options = legal_tokens(board, who.sym)
            if options:
                t = rng.choice(options)
                try:
                    check_token(board, who.sym, t["hex"], t["city"], fc_new=t["fc_passes"])
                except IllegalAction as exc:  # pragma: no cover - legal_tokens must be right
                    raise AssertionError(exc.message) from exc
                board = place_token(board, who.sym, t["hex"], t["city"])
        out.append(Layer(who.sym, who.kind, home=who.home, first_turn=False))
    return board, out


def build_map(seed: int, rounds: int = 40, majors: int = 5, minors: int = 3) -> Board:
    rng = random.Random(seed)
    board, layers = start(rng, majors, minors)
    for n in range(rounds):
        board, layers = one_round(board, layers, phase_for_round(n, rounds), rng)
    return board
