"""Seeded random playouts and the invariants every state must keep."""

from __future__ import annotations

import random
from collections import Counter

from games.engines.havana import ENGINE, data


def pick(rng: random.Random, actions: list[dict]) -> dict:
    """Random, but buying more often than chance so games end in reasonable time."""
    buys = [a for a in actions if a["type"] == "buy"]
    if buys and rng.random() < 0.7:
        return rng.choice(buys)
    return rng.choice(actions)


def playout(players: int, seed: int, step=None, max_actions: int = 5000):
    """Play one game to its end; `step(state, seat, action, after)` sees every move."""
    rng = random.Random(seed)
    state = ENGINE.setup(players, {}, seed)
    moves = []
    while ENGINE.result(state) is None:
        assert len(moves) < max_actions, "the game does not end"
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        action = pick(rng, ENGINE.legal_actions(state, seat))
        after = ENGINE.apply(state, seat, action)
        if step:
            step(state, seat, action, after)
        moves.append((seat, action))
        state = after
    return state, moves


def check_invariants(state) -> None:
    # The 80 cubes, colour by colour: bag + centre + players + box.
    count = Counter(state["bag"])
    for holder in [
        state["centre"]["cubes"],
        state["removed"],
        *(s["cubes"] for s in state["seats"]),
    ]:
        for colour, n in holder.items():
            assert n >= 0
            count[colour] += n
    assert dict(count) == data.TOTAL_CUBES
    # The 15 workers: supply + players, never more.
    held = [s["workers"] for s in state["seats"]]
    assert all(n >= 0 for n in held) and state["workers"] >= 0
    assert state["workers"] + sum(held) == data.TOTAL_WORKERS
    assert state["centre"]["pesos"] >= 0
    assert all(s["pesos"] >= 0 for s in state["seats"])
    # Every building exactly once: rows, pile, box, or someone's.
    places = [b for row in state["rows"] for b in row] + state["pile"] + state["boxed"]
    for seat in state["seats"]:
        places += seat["buildings"]
        assert seat["vp"] == sum(state["buildings"][str(b)]["vp"] for b in seat["buildings"])
        cards = seat["hand"] + seat["discard"] + seat["cards"]
        assert sorted(cards) == sorted(data.CARD_CODES)
    assert sorted(places) == sorted(int(k) for k in state["buildings"])
    assert all(len(row) <= data.ROW_LENGTH for row in state["rows"])
