"""Setup: every random choice of a game is made here, from the seed only.

The bag order and the building layout are fixed into the state, so the rest
of the engine never draws a random number: replay is a pure function of the
created state and the actions.
"""

from __future__ import annotations

import random
from typing import Any

from ..base import IllegalAction, State
from ..i18n import Words
from . import data

refuse = Words("havana").refuse


def empty_cubes() -> dict[str, int]:
    return dict.fromkeys(data.CUBES, 0)


def validate_ages(ages: Any, players: int) -> list[int] | None:
    """The `ages` option: None, or one age in years per seat (lower = younger)."""
    if ages is None:
        return None
    if not isinstance(ages, list) or len(ages) != players:
        raise refuse("option ages must list one age per seat ({players} numbers)", players=players)
    for age in ages:
        if not isinstance(age, int) or isinstance(age, bool) or age < 0:
            raise refuse("option ages must hold whole numbers of years, 0 or more")
    return list(ages)


def _has_cheap_end(rows: list[list[int]], buildings: dict[str, Any]) -> bool:
    ends = [row[0] for row in rows] + [row[-1] for row in rows]
    return any(buildings[str(bid)]["vp"] <= 3 for bid in ends)


def _deal(rng: random.Random, ids: list[int], buildings: dict[str, Any]) -> tuple:
    """Two rows of 6 with a building worth 1-3 VP at one of the four ends.

    When the first deal breaks that rule we re-deal the four end cards from
    the ends and the draw pile together (the middles stay), as players would;
    if no cheap card is outside the middles at all, everything is reshuffled.
    """
    order = list(ids)
    rng.shuffle(order)
    per = data.ROW_LENGTH
    rows = [order[i * per : (i + 1) * per] for i in range(data.ROWS)]
    pile = order[data.ROWS * per :]
    if len(order) < data.ROWS * per or not any(b["vp"] <= 3 for b in buildings.values()):
        return rows, pile  # small test lists: no constraint can be met
    while not _has_cheap_end(rows, buildings):
        loose = [row[0] for row in rows] + [row[-1] for row in rows] + pile
        if not any(buildings[str(bid)]["vp"] <= 3 for bid in loose):
            order = [bid for row in rows for bid in row] + pile
            rng.shuffle(order)
            rows = [order[i * per : (i + 1) * per] for i in range(data.ROWS)]
            pile = order[data.ROWS * per :]
            continue
        rng.shuffle(loose)
        for row in rows:
            row[0], row[-1] = loose.pop(), loose.pop()
        pile = loose
    return rows, pile


def draw(state: State, count: int) -> list[str]:
    """Up to `count` cubes from the bag (fewer when it runs dry)."""
    bag = state["bag"]
    taken = [bag.pop() for _ in range(min(count, len(bag)))]
    return taken


def new_game(
    players: int,
    options: dict[str, Any],
    seed: int,
    buildings: dict[str, dict[str, Any]] | None = None,
) -> State:
    """The whole initial state; `buildings` lets tests use their own list."""
    if not isinstance(players, int) or not 2 <= players <= 4:
        # A guard, not a refusal: a game is created only for MIN_PLAYERS to
        # MAX_PLAYERS players (games.services.creation checks first).
        raise IllegalAction("Havana is for 2 to 4 players")
    ages = validate_ages(options.get("ages"), players)
    buildings = buildings if buildings is not None else data.BUILDINGS
    rng = random.Random(seed)
    bag = [colour for colour, n in data.TOTAL_CUBES.items() for _ in range(n)]
    rng.shuffle(bag)
    rows, pile = _deal(rng, sorted(int(k) for k in buildings), buildings)
    state: State = {
        "players": players,
        "options": {**options, "ages": ages},
        "target": data.VP_TARGET[players],
        "round": 1,
        "phase": "choose",
        "seats": [],
        "pending": [None] * players,
        "order": [],
        "turn": None,
        "done": [],
        "buying": False,
        "flags": {"worker": False, "black_market": False, "conserved": False},
        "centre": {"pesos": data.CENTRE_START_PESOS, "cubes": empty_cubes()},
        "workers": data.TOTAL_WORKERS,
        "bag": bag,
        "removed": empty_cubes(),
        "rows": rows,
        "pile": pile,
        "boxed": [],
        "resigned": [],
        "end": None,
        "buildings": buildings,
    }
    for colour in draw(state, data.CENTRE_START_CUBES):
        state["centre"]["cubes"][colour] += 1
    for _ in range(players):
        cubes = empty_cubes()
        for colour in draw(state, 1):
            cubes[colour] += 1
        state["seats"].append(
            {
                "hand": list(data.CARD_CODES),
                "discard": [],
                "cards": [],
                "pesos": 1,
                "workers": 0,
                "cubes": cubes,
                "buildings": [],
                "vp": 0,
            }
        )
    return state
