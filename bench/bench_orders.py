"""Standing orders: how many fewer waits a stock round of 18Cuba takes when
three of four players keep stock-round pass orders.  One JSON line per
figure (docs/benchmarks.md, docs/orders.md).

    .venv/bin/python bench/bench_orders.py [--games N]

A wait is a moment a person must be waited on: a seat to act whose move no
order plays.  Each seeded 4-player game is played by 18Cuba's own random
player up to a stock round (SR 1, then SR 2 in half the games), twice from
there: once with nobody's orders, once with seats 1-3 holding `stock_pass`
(written when the round opens) and seat 0 playing by hand.  An order's move
is decided by `games.engines.orders.decide`, the function the service
(games.services.orders) fires orders by; the player's own moves come from
the same seeded generator, so both runs start from the same position.

- orders.stock_round_waits.without / .with: waits per stock round (mean);
- orders.stock_round_waits.fewer: how many fewer (mean), and as a share.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import emit
from games.engines import base, orders
from games.engines.cuba.play import randomgame

ORDERED = (1, 2, 3)


def to_stock_round(engine, seed: int, number: int):
    state = engine.setup(4, {}, seed)
    rng = random.Random(seed)
    for _ in range(5000):
        if state["round"]["kind"] == "stock" and state["round"]["number"] == number:
            return state
        if engine.result(state) is not None:
            return None
        seat = sorted(engine.to_act(state))[0]
        state = engine.apply(
            state, seat, randomgame.choose(rng, engine.legal_actions(state, seat))
        )
    return None


def waits(engine, state, seed: int, with_orders: bool) -> int:
    """Play the stock round out; count the moves a person had to make."""
    rng = random.Random(seed * 7919)
    written = {s: orders.write(engine, state, s, {"kind": "stock_pass"}) for s in ORDERED}
    number, count = state["round"]["number"], 0
    while state["round"]["kind"] == "stock" and state["round"]["number"] == number:
        seat = sorted(engine.to_act(state))[0]
        action = None
        if seat in written:
            decision = orders.decide(engine, state, seat, written[seat], None)
            if decision.verdict == orders.FIRE:
                # the same pass either way: by the order, or by a person waited on
                action = decision.action
                count += 0 if with_orders else 1
            elif decision.verdict == orders.DROP:
                del written[seat]
        if action is None:
            count += 1
            action = randomgame.choose(rng, engine.legal_actions(state, seat))
        state = engine.apply(state, seat, action)
    return count


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    engine = base.get("18cuba")
    without, with_, rounds = 0, 0, 0
    for seed in range(1, args.games + 1):
        state = to_stock_round(engine, seed, 1 + seed % 2)
        if state is None:
            continue
        without += waits(engine, state, seed, with_orders=False)
        with_ += waits(engine, state, seed, with_orders=True)
        rounds += 1
    emit("orders.stock_round_waits.without", round(without / rounds, 2), "waits", rounds=rounds)
    emit("orders.stock_round_waits.with", round(with_ / rounds, 2), "waits", rounds=rounds)
    emit(
        "orders.stock_round_waits.fewer", round((without - with_) / rounds, 2), "waits",
        share=round((without - with_) / without, 3), rounds=rounds,
    )  # fmt: skip


if __name__ == "__main__":
    main()
