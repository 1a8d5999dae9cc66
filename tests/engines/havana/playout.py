"""Seeded random playouts and the invariants every state must keep."""

from __future__ import annotations

import random
from collections import Counter

from games.engines.havana import ENGINE, data
from games.engines.havana.setup import new_game


def pick(rng: random.Random, actions: list[dict]) -> dict:
    """Random, but buying more often than chance so games end in reasonable time."""
    buys = [a for a in actions if a["type"] == "buy"]
    if buys and rng.random() < 0.7:
        return rng.choice(buys)
    return rng.choice(actions)


def random_policy(rng: random.Random, state, seat: int, actions: list[dict]) -> dict:
    """The tests' random player (`pick`) in the shape of a policy."""
    return pick(rng, actions)


def holdings(seat: dict) -> int:
    """A greedy player's worth of what it holds: a coloured cube as 5 gray, a
    worker as 5 pesos (the rules' own exchange rates)."""
    cubes = seat["cubes"]
    coloured = sum(cubes[c] for c in data.COLOURED)
    return 5 * coloured + cubes["gray"] + 5 * seat["workers"] + seat["pesos"]


def greedy_policy(rng: random.Random, state, seat: int, actions: list[dict]) -> dict:
    """A simple greedy player.

    Buying: the affordable building with most VP (its first listed payment,
    which spends the least gray, then the fewest pesos), else end the turn.
    A card: the way of carrying it out that leaves the player holding most
    (`holdings`), ties broken at random.  Choosing cards: at random.
    """
    buys = [a for a in actions if a["type"] == "buy"]
    if buys:
        return max(buys, key=lambda a: state["buildings"][str(a["building"])]["vp"])
    if state["phase"] != "actions" or state["buying"]:
        return rng.choice(actions)
    scored = [(holdings(ENGINE.apply(state, seat, a)["seats"][seat]), a) for a in actions]
    best = max(score for score, _ in scored)
    return rng.choice([a for score, a in scored if score == best])


POLICIES = {"random": random_policy, "greedy": greedy_policy}


def playout(
    players: int,
    seed: int,
    step=None,
    max_actions: int = 5000,
    policy=random_policy,
    buildings=None,
):
    """Play one game to its end; `step(state, seat, action, after)` sees every move.

    `buildings` replaces the game's building list (setup.new_game's hook).
    """
    rng = random.Random(seed)
    if buildings is None:
        state = ENGINE.setup(players, {}, seed)
    else:
        state = new_game(players, ENGINE.resolve_options({}), seed, buildings=buildings)
    moves = []
    while ENGINE.result(state) is None:
        assert len(moves) < max_actions, "the game does not end"
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        action = policy(rng, state, seat, ENGINE.legal_actions(state, seat))
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
