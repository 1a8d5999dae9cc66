"""Station tokens (draft VII.3.2 and VII.3.6) and the homes of the companies.

A major starts with its free home station and one $40 token; a third ($60)
comes when only 30% of its shares remain in its treasury, a fourth ($80) when
none remain (VII.3.6; VI.8 says 10% — see README).  Minors have one station,
their sugar mill, placed with their home tile.
"""

from __future__ import annotations

from typing import Any

from ...i18n import N_
from ..data.hexes import HAVANA, HEXES
from ..refusals import reason, refusal, refuse
from .board import (
    MINORS,
    Board,
    buildable,
    city_tokens,
    company_hexes,
    content,
    copy_board,
    free_slots,
    in_play,
)
from .graph import build, cheapest_reach, reach
from .laying import FC_FEE, _check_passes, _fc_blocks

TOKEN_COSTS = (40, 60, 80)


def tokens_available(treasury_percent: int) -> int:
    """Station tokens a major may hold, home included, for its treasury holding."""
    if treasury_percent <= 0:
        return 4
    if treasury_percent <= 30:
        return 3
    return 2


def token_cost(extra_placed: int) -> int:
    """Price of the next station after ``extra_placed`` non-home stations."""
    if not 0 <= extra_placed < len(TOKEN_COSTS):
        raise refuse("the company has no station token left")
    return TOKEN_COSTS[extra_placed]


def _city_fault(board: Board, coord: Any, city: Any) -> str | None:
    if not isinstance(coord, str) or coord not in HEXES:
        return reason(N_("there is no hex {coord} on the map"), coord=repr(coord))
    if not in_play(board, coord):
        return reason(N_("{coord} lies outside the part of the map in play"), coord=coord)
    if not buildable(board, coord):
        return reason(N_("{coord} is the edge of the map: no station goes there"), coord=coord)
    stops = content(board, coord).stops
    if not isinstance(city, int) or isinstance(city, bool) or not 0 <= city < len(stops):
        return reason(N_("{coord} has no city number {city}"), coord=coord, city=repr(city))
    if stops[city].type != "city":
        return reason(N_("{coord} has no city number {city}"), coord=coord, city=city)
    return None


def reserved_elsewhere(board: Board, coord: str, city: int, company: str) -> int:
    """Slots in this city held back for homes of other companies not yet operating."""
    held = board["reserved"].get(coord, {})
    return sum(1 for sym, c in held.items() if c == city and sym != company)


def check_token(
    board: Board,
    company: str,
    coord: str,
    city: int,
    *,
    fc_paid: Any = (),
    fc_new: Any = (),
) -> int:
    """Validate a (non-home) station for a major; returns the FC fee due."""
    _check_passes(fc_new)
    fault = _city_fault(board, coord, city)
    if fault:
        raise refusal(fault)
    if any(c == coord for c, _i in company_hexes(board, company)):
        raise refuse("{company} already has a station in {coord}", company=company, coord=coord)
    if free_slots(board, coord, city) <= 0:
        raise refuse("the city in {coord} has no free station space", coord=coord)
    if free_slots(board, coord, city) - 1 < reserved_elsewhere(board, coord, city, company):
        raise refuse("the last space in {coord} is kept for a company's home station", coord=coord)
    fc_new = sorted(set(fc_new))
    for token in fc_new:
        if token in fc_paid or not _fc_blocks(board, token, company):
            raise refuse(
                "the FC token in {token} does not block {company}", token=token, company=company
            )
    net = build(board, "s")
    passes = set(fc_paid) | set(fc_new)
    target = net.stop_ids.get((coord, city))
    if target is None or target not in reach(board, net, company, passes).stops:
        raise refuse(
            "{coord} is not connected to a station of {company}", coord=coord, company=company
        )
    for token in fc_new:
        if target in reach(board, net, company, passes - {token}).stops:
            raise refuse("passing the FC token in {token} is not needed here", token=token)
    return FC_FEE * len(fc_new)


def place_token(board: Board, company: str, coord: str, city: int) -> Board:
    """Put a station down (checks are the caller's: ``check_token`` or a home rule)."""
    new = copy_board(board)
    stops = content(board, coord).stops
    cities = new["tokens"].setdefault(coord, [[] for _ in stops])
    cities[city].append(company)
    held = new["reserved"].get(coord)
    if held is not None:
        held.pop(company, None)
        if not held:
            del new["reserved"][coord]
    return new


def legal_tokens(board: Board, company: str, *, fc_paid: Any = ()) -> list[dict[str, Any]]:
    """Every legal station for a major now: ``{"hex", "city", "fc_passes"}``.

    ``fc_passes`` is the fewest FC tokens to pay $20 each to pass on the way.
    """
    net = build(board, "s")
    mine = {c for c, _i in company_hexes(board, company)}
    cheap = cheapest_reach(board, net, company, fc_paid)
    out = []
    for (coord, city), vid in sorted(net.stop_ids.items()):
        stop = content(board, coord).stops[city]
        if stop.type != "city" or coord in mine or vid not in cheap.stops:
            continue
        free = free_slots(board, coord, city)
        if free <= 0 or free - 1 < reserved_elsewhere(board, coord, city, company):
            continue
        out.append({"hex": coord, "city": city, "fc_passes": list(cheap.stops[vid])})
    return out


def home_token(board: Board, company: str, coord: str, city: int) -> Board:
    """A major's free home station at its first operation (VII.3.2)."""
    fault = _city_fault(board, coord, city)
    if fault:
        raise refusal(fault)
    if free_slots(board, coord, city) <= 0:
        raise refuse("the home city in {coord} is full", coord=coord)
    return place_token(board, company, coord, city)


def release_home(board: Board, company: str) -> Board:
    """Drop a kept home, e.g. of a major not in this game (2-player easy)."""
    new = copy_board(board)
    for coord in list(new["reserved"]):
        new["reserved"][coord].pop(company, None)
        if not new["reserved"][coord]:
            del new["reserved"][coord]
    return new


def fec_home_options(board: Board) -> list[dict[str, Any]]:
    """The FEC may take any empty city slot, on a tile or a printed hex (VII.3.2)."""
    out = []
    for coord in sorted(c for c in HEXES if buildable(board, c)):
        for city, stop in enumerate(content(board, coord).stops):
            if stop.type != "city":
                continue
            if free_slots(board, coord, city) - reserved_elsewhere(board, coord, city, "FEC") > 0:
                out.append({"hex": coord, "city": city})
    return out


def minor_home_options(board: Board) -> list[str]:
    """Cities a minor may choose as home: not Y, not Havana, untiled, not another minor's."""
    minors_homes = {c for c, held in board["reserved"].items() for sym in held if sym in MINORS}
    minors_homes |= {c for c, cities in board["tokens"].items() if _has_minor(cities)}
    return [
        c
        for c, h in sorted(HEXES.items())
        if h.kind == "city"
        and buildable(board, c)
        and h.label is None
        and c not in board["tiles"]
        and c not in minors_homes
    ]


def choose_minor_home(board: Board, minor: str, coord: str) -> Board:
    if coord not in minor_home_options(board):
        raise refuse("{coord} cannot be the home of a minor company", coord=coord)
    new = copy_board(board)
    new["reserved"].setdefault(coord, {})[minor] = 0
    return new


def _has_minor(cities: list[list[str]]) -> bool:
    return any(sym in MINORS for owners in cities for sym in owners)


__all__ = [
    "HAVANA",
    "check_token",
    "choose_minor_home",
    "city_tokens",
    "fec_home_options",
    "home_token",
    "legal_tokens",
    "minor_home_options",
    "place_token",
    "token_cost",
    "tokens_available",
]
