"""Phase 1: the effects of the thirteen action cards.

Each card that needs a decision has an enumerator (every legal way to carry
it out) and an effect.  Siesta and Protection need nothing from the player:
Protection is passive and shields its owner for the whole round, also from
thieves who act before the owner's own turn.
"""

from __future__ import annotations

from itertools import combinations_with_replacement, product
from typing import Any

from ..base import State
from . import data
from .buying import open_buildings, take_from_row
from .setup import draw

Action = dict[str, Any]

# The action type that carries out each card (skip is shared by the optional ones).
CARD_OF_TYPE = {
    "refreshment": "1",
    "debris": "2d",
    "conserve": "3c",
    "tax": "3t",
    "worker": "4w",
    "architect": "4a",
    "steal_pesos": "5",
    "steal_cubes": "6",
    "black_market": "7",
    "pesos": "8",
    "mama": "9",
}
PASSIVE = ("0", "2p")  # Siesta, Protection: nothing to carry out


def half_up(n: int) -> int:
    return (n + 1) // 2


def active_order(state: State) -> list[int]:
    return [s for s in state["order"] if s not in state["resigned"]]


def later_seats(state: State, me: int) -> list[int]:
    order = active_order(state)
    return order[order.index(me) + 1 :]


def protected(state: State, seat: int) -> bool:
    return "2p" in state["seats"][seat]["cards"]


def thief_targets(state: State, me: int) -> list[int]:
    """Unprotected players after the thief; anyone else if nobody follows.

    When players do follow but all are protected, the thief steals nothing:
    the fallback to "any player" is only for a thief who acts last.
    """
    later = later_seats(state, me)
    pool = later or [s for s in active_order(state) if s != me]
    return sorted(s for s in pool if not protected(state, s))


def cube_multisets(pool: dict[str, int], size: int) -> list[list[str]]:
    """Every distinct choice of `size` cubes from `pool` (colour counts)."""
    size = min(size, sum(pool.values()))
    present = [c for c in data.CUBES if pool[c]]
    out = []
    for combo in combinations_with_replacement(present, size):
        if all(combo.count(c) <= pool[c] for c in present):
            out.append(list(combo))
    return out


def colour_count(seat: dict) -> int:
    return sum(seat["cubes"][c] for c in data.COLOURED)


# --- enumerators -----------------------------------------------------------


def _tax_actions(state: State, me: int) -> list[Action]:
    victims, choices = [], []
    for s in later_seats(state, me):
        if protected(state, s):
            continue
        seat = state["seats"][s]
        options = (["worker"] if seat["workers"] else []) + [
            c for c in data.CUBES if seat["cubes"][c]
        ]
        if options:
            victims.append(str(s))
            choices.append(options)
    return [
        {"type": "tax", "take": dict(zip(victims, combo, strict=True))}
        for combo in product(*choices)
    ]


def _steal_cubes_actions(state: State, me: int) -> list[Action]:
    actions = []
    for s in thief_targets(state, me):
        victim = state["seats"][s]
        size = 2 if colour_count(victim) > 3 else 1
        for cubes in cube_multisets(victim["cubes"], size):
            actions.append({"type": "steal_cubes", "victim": s, "cubes": cubes})
    if not actions:
        actions.append({"type": "steal_cubes", "victim": None, "cubes": []})
    return actions


def _steal_pesos_actions(state: State, me: int) -> list[Action]:
    targets: list[int | None] = [*thief_targets(state, me)] or [None]
    return [{"type": "steal_pesos", "victim": s} for s in targets]


def _mama_actions(state: State) -> list[Action]:
    centre = state["centre"]["cubes"]
    coloured = {c: centre[c] if c != "gray" else 0 for c in data.CUBES}
    gray = ["gray"] * half_up(centre["gray"])
    picks = cube_multisets(coloured, half_up(sum(coloured.values())))
    return [{"type": "mama", "cubes": pick + gray} for pick in picks]


def _conserve_actions(state: State) -> list[Action]:
    if state["flags"]["conserved"]:
        return []
    return [{"type": "conserve", "building": bid} for bid in open_buildings(state)]


def card_actions(state: State, me: int, code: str) -> list[Action]:
    """Every legal way for `me` to carry out (or skip) the face-up card `code`."""
    key = data.CARD_BY_CODE[code]["key"]
    if code == "3t":
        return _tax_actions(state, me)
    if code == "5":
        return _steal_pesos_actions(state, me)
    if code == "6":
        return _steal_cubes_actions(state, me)
    if code == "9":
        return _mama_actions(state)
    if code == "3c":
        return [*_conserve_actions(state), {"type": "skip", "card": key}]
    if code == "1":
        return [{"type": "refreshment"}, {"type": "skip", "card": key}]
    simple = {"2d": "debris", "4w": "worker", "4a": "architect", "7": "black_market", "8": "pesos"}
    return [{"type": simple[code]}]


# --- effects ---------------------------------------------------------------


def _take_workers(state: State, seat: dict, wanted: int) -> int:
    n = min(wanted, state["workers"])
    state["workers"] -= n
    seat["workers"] += n
    return n


def _take_cubes(source: dict[str, int], target: dict[str, int], cubes: list[str]) -> None:
    for colour in cubes:
        source[colour] -= 1
        target[colour] += 1


def _refreshment(state: State, me: int, action: Action) -> None:
    centre, seat = state["centre"], state["seats"][me]
    n = min(1, centre["pesos"])
    centre["pesos"] -= n
    seat["pesos"] += n


def _debris(state: State, me: int, action: Action) -> None:
    state["seats"][me]["cubes"]["gray"] += state["centre"]["cubes"]["gray"]
    state["centre"]["cubes"]["gray"] = 0


def _conserve(state: State, me: int, action: Action) -> None:
    take_from_row(state, action["building"])
    state["boxed"].append(action["building"])
    state["flags"]["conserved"] = True


def _tax(state: State, me: int, action: Action) -> None:
    state["seats"][me]["pesos"] += 1  # from the bank
    for victim, what in action["take"].items():
        other = state["seats"][int(victim)]
        if what == "worker":
            other["workers"] -= 1
            state["workers"] += 1
        else:
            other["cubes"][what] -= 1
            state["removed"][what] += 1


def _worker(state: State, me: int, action: Action) -> None:
    # Only a Worker action that actually takes workers counts as the first.
    wanted = 1 if state["flags"]["worker"] else 2
    if _take_workers(state, state["seats"][me], wanted):
        state["flags"]["worker"] = True


def _architect(state: State, me: int, action: Action) -> None:
    _take_workers(state, state["seats"][me], 1)


def _steal_pesos(state: State, me: int, action: Action) -> None:
    if action["victim"] is not None:
        other = state["seats"][action["victim"]]
        n = other["pesos"] // 2
        other["pesos"] -= n
        state["seats"][me]["pesos"] += n


def _steal_cubes(state: State, me: int, action: Action) -> None:
    if action["victim"] is not None:
        victim = state["seats"][action["victim"]]["cubes"]
        _take_cubes(victim, state["seats"][me]["cubes"], action["cubes"])


def _black_market(state: State, me: int, action: Action) -> None:
    drawn = draw(state, 1 if state["flags"]["black_market"] else 2)
    state["flags"]["black_market"] = True
    for colour in drawn:
        state["seats"][me]["cubes"][colour] += 1


def _pesos(state: State, me: int, action: Action) -> None:
    centre = state["centre"]
    n = half_up(centre["pesos"])
    centre["pesos"] -= n
    state["seats"][me]["pesos"] += n


def _mama(state: State, me: int, action: Action) -> None:
    _take_cubes(state["centre"]["cubes"], state["seats"][me]["cubes"], action["cubes"])


def _skip(state: State, me: int, action: Action) -> None:
    return None


EFFECTS = {
    "refreshment": _refreshment,
    "debris": _debris,
    "conserve": _conserve,
    "tax": _tax,
    "worker": _worker,
    "architect": _architect,
    "steal_pesos": _steal_pesos,
    "steal_cubes": _steal_cubes,
    "black_market": _black_market,
    "pesos": _pesos,
    "mama": _mama,
    "skip": _skip,
}


def perform(state: State, me: int, action: Action) -> None:
    """Apply one validated card action to `state` (already a private copy)."""
    EFFECTS[action["type"]](state, me, action)
