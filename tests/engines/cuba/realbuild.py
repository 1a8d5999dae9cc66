"""Building real 18Cuba positions through the package's own rules.

Every tile goes down through ``laying.lay_tile`` and every station through
``tokens.home_token`` / ``tokens.check_token`` + ``place_token``, so a position
built here is one a game can reach (lay order included).  Tiles are given by
the hex sides their track must leave by, which is how a reader checks them
against the map; the helper finds the rotation.
"""

from __future__ import annotations

from games.engines.cuba.data.tiles import exits, rotated_paths
from games.engines.cuba.map import laying, tokens
from games.engines.cuba.map.board import Board, new_board
from games.engines.cuba.map.optimiser import Plan, plan_json
from games.engines.cuba.map.routes import Train, train_from_name


def start() -> Board:
    """The start map (FC in Havana, FC markers pending) with no homes kept."""
    b = new_board()
    b["reserved"] = {}
    return b


def rotation(tile: str, std: tuple[int, ...], nar: tuple[int, ...] = ()) -> int:
    """The first rotation whose standard and narrow track leave by exactly these sides."""
    for r in range(6):
        paths = rotated_paths(tile, r)
        s = exits(tuple(p for p in paths if p.gauge == "s"))
        n = exits(tuple(p for p in paths if p.gauge == "n"))
        if s == frozenset(std) and n == frozenset(nar):
            return r
    raise AssertionError(f"tile {tile} has no rotation with sides {std} / narrow {nar}")


def lay(
    b: Board,
    company: str,
    coord: str,
    tile: str,
    std: tuple[int, ...] = (),
    nar: tuple[int, ...] = (),
    *,
    phase: int,
    kind: str = "major",
    home: str | None = None,
    first: bool = False,
    fc_new: tuple[str, ...] = (),
) -> Board:
    """A legal lay or upgrade (raises IllegalAction if the rules forbid it)."""
    who = laying.Layer(company, kind, home=home, first_turn=first)
    rot = rotation(tile, std, nar)
    b, _res = laying.lay_tile(b, who, coord, tile, rot, phase, fc_new=list(fc_new))
    return b


def home(b: Board, company: str, coord: str, city: int = 0) -> Board:
    return tokens.home_token(b, company, coord, city)


def station(b: Board, company: str, coord: str, city: int = 0) -> Board:
    tokens.check_token(b, company, coord, city)
    return tokens.place_token(b, company, coord, city)


def minor_home(b: Board, minor: str, coord: str) -> Board:
    return tokens.choose_minor_home(b, minor, coord)


def norm(*routes: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Expected routes written in running order, made direction-free like ``runs``."""
    return [min(tuple(r), tuple(r)[::-1]) for r in routes]


def trains(*names: str) -> list[Train]:
    return [train_from_name(n) for n in names]


def runs(b: Board, plan: Plan, ts: list[Train], kind: str = "major") -> list[tuple[str, ...]]:
    """Each train's stops ("hex.city"), in the order of the trains, direction-free.

    A route and its reverse are the same route: the lexically smaller direction
    is returned.  A train without a route gives ().
    """
    js = plan_json(b, plan, ts, kind)["routes"]
    by_train = iter(js)
    out = []
    for route in plan.routes:
        if route is None:
            out.append(())
            continue
        stops = tuple(next(by_train)["stops"])
        out.append(min(stops, stops[::-1]))
    return out
