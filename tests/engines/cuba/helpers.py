"""Hand-built map situations for the 18Cuba geography tests."""

from __future__ import annotations

from games.engines.cuba.data.hexes import edge_open
from games.engines.cuba.data.tiles import TILES, exits, rotated_paths
from games.engines.cuba.map.board import Board, content, new_board


def put(board: Board, coord: str, tile: str, rotation: int = 0) -> Board:
    """Place a tile without the lay rules (setting up a situation).

    Its track must still stay on the map: a situation no game can reach would
    prove nothing.
    """
    bad = [e for e in exits(rotated_paths(tile, rotation)) if not edge_open(coord, e)]
    assert not bad, f"{tile}@{rotation} in {coord} runs off the map at side {bad}"
    old = board["tiles"].get(coord)
    if old:
        board["supply"][TILES[old[0]].group] += 1
    board["supply"][TILES[tile].group] -= 1
    board["tiles"][coord] = [tile, rotation]
    stops = TILES[tile].stops
    tokens = board["tokens"].get(coord, [])
    if stops:
        cities = [list(tokens[i]) if i < len(tokens) else [] for i in range(len(stops))]
        board["tokens"][coord] = cities
    return board


def token(board: Board, coord: str, company: str, city: int = 0) -> Board:
    stops = content(board, coord).stops
    cities = board["tokens"].setdefault(coord, [[] for _ in stops])
    cities[city].append(company)
    held = board["reserved"].get(coord)
    if held:
        held.pop(company, None)
        if not held:
            del board["reserved"][coord]
    return board


def empty_board() -> Board:
    """The start map without reservations (so tests control homes explicitly)."""
    b = new_board()
    b["reserved"] = {}
    return b
