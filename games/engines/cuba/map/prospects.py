"""What a lay would open: the stops the company's routes reach after it that
they did not reach before, and what the laid hex's own stops are worth
before and after (an upgrade's gain).

This is what an 18xx player weighs when choosing among a hex's tiles and
rotations: the page shows it beside each lay.  It asks the same question the
lay rules ask (which stops the company's legal partial routes reach from its
stations, draft VII.2), once on the board as it is and once per lay on the
board the lay would make, so it is exact, and it passes the FC tokens the
company has paid to pass this OR and the ones the lay pays for, as the
company would.  It does not run trains: the best routes also depend on
trains and other companies' tokens, and their search costs far more than a
page may spend per lay.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..data.hexes import revenue_of
from .board import Board, content
from .graph import build, reach
from .laying import Layer, apply_lay


@dataclass(frozen=True)
class Opened:
    """Stops the company reaches only after the lay, as (hex, stop type,
    revenue), and what each of the laid hex's stops is worth before and
    after (a route counts each stop it visits)."""

    stops: tuple[tuple[str, str, int], ...]
    hex_revenue: tuple[tuple[int, ...], tuple[int, ...]]


def lay_prospects(
    board: Board, who: Layer, phase: int, fc_paid: Any, lays: list[dict[str, Any]]
) -> list[Opened]:
    """What each lay (``{"hex", "tile", "rotation", "fc_passes"}``) opens,
    in the lays' order."""
    key = json.dumps(
        [board, [who.sym, who.kind, who.home, who.first_turn], phase, sorted(fc_paid),
         [[lay["hex"], lay["tile"], lay["rotation"], sorted(lay["fc_passes"])] for lay in lays]],
        sort_keys=True,
    )  # fmt: skip
    return list(_prospects_of(key))


# The page asks this on every request of a director's page, for the same
# position; the answer depends on the key alone (as `laying._lays_of`).
@lru_cache(maxsize=16)
def _prospects_of(key: str) -> tuple[Opened, ...]:
    board, (sym, kind, home, first_turn), phase, fc_paid, lays = json.loads(key)
    who = Layer(sym, kind, home=home, first_turn=first_turn)
    before = _reached(board, who, fc_paid)
    out = []
    for coord, tile, rotation, passes in lays:
        after_board = apply_lay(board, who, coord, tile, rotation)
        after = _reached(after_board, who, [*fc_paid, *passes])
        # An upgrade renumbers its hex's stops: reached before is not new.
        renumbered = coord if any(hexc == coord for hexc, _idx in before) else None
        new = tuple(
            (hexc, stop.type, revenue_of(stop, phase))
            for (hexc, idx), stop in sorted(after.items())
            if (hexc, idx) not in before and hexc != renumbered
        )
        out.append(Opened(new, (_worth(board, coord, phase), _worth(after_board, coord, phase))))
    return tuple(out)


def _reached(board: Board, who: Layer, fc_paid: Any) -> dict[tuple[str, int], Any]:
    """Each stop the company's legal partial routes reach, by (hex, index)."""
    net = build(board, who.gauge)
    reached = reach(board, net, who.sym, frozenset(fc_paid))
    return {net.stops[v][:2]: net.stops[v][2] for v in reached.stops}


def _worth(board: Board, coord: str, phase: int) -> tuple[int, ...]:
    return tuple(revenue_of(stop, phase) for stop in content(board, coord).stops)
