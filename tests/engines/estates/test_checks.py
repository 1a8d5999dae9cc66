"""Each phase's checks accept exactly the legal actions.

``apply`` accepts an action when it equals a legal one (the engine template);
the phase checks only word the refusal.  If the two disagreed, a legal move
would be refused with a reason, or an illegal one refused with none.
"""

from __future__ import annotations

import random

import pytest

from games.engines.base import IllegalAction, canonical_json
from games.engines.estates import ENGINE
from games.engines.estates.engine import _CHECK
from games.engines.estates.pieces import ENDS


def _variants(action: dict, rng: random.Random) -> list[dict]:
    """Near misses of a legal action: each value changed, a key added or lost."""
    out = [{**action, "extra": 1}, {"type": action["type"]}]
    for key, value in action.items():
        if key == "type":
            continue
        out += [{**action, key: other} for other in (True, None, "zz", [value], 1.0)]
        if type(value) is int:
            out += [{**action, key: value + 1}, {**action, key: value - 1}]
        if isinstance(value, str):
            out.append({**action, key: value.upper()})
    kinds = ("auction", "bid", "pass", "give", "keep", "place", "cancel", "mayor", "discard")
    out += [{"type": rng.choice(kinds)}, {"type": "auction", "piece": "roof", "stash": False}]
    return out


def _accepted(state, seat, action) -> bool:
    try:
        _CHECK[state["phase"]](state, seat, action)
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_the_checks_accept_the_legal_actions_and_nothing_else(players, seed):
    rng = random.Random(seed)
    state = ENGINE.setup(players, {"rounds": 2}, seed)
    while ENGINE.result(state) is None:
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        legal = ENGINE.legal_actions(state, seat)
        shown = {canonical_json(a) for a in legal}
        for action in legal:
            assert _accepted(state, seat, action), action
        for action in _variants(rng.choice(legal), rng):
            assert _accepted(state, seat, action) == (canonical_json(action) in shown), action
        state = ENGINE.apply(state, seat, rng.choice(legal))


def test_a_bid_is_checked_against_the_legal_bids_without_listing_them():
    rng = random.Random(5)
    state = ENGINE.setup(3, {}, 5)
    seen = 0
    while ENGINE.result(state) is None:
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        legal = ENGINE.legal_actions(state, seat)
        if state["phase"] == "bid":
            shown = {canonical_json(a) for a in legal}
            high, money = state["auction"]["high"], state["money"][seat]
            tries = [{"type": "bid", "amount": n} for n in range(high - 1, money + 3)]
            tries += [{"type": "pass"}, {"type": "bid", "amount": True}, {"type": "bid"}]
            for action in tries:
                found = ENGINE.candidates(state, seat, action)
                assert all(canonical_json(a) in shown for a in found), action
                assert (canonical_json(action) in shown) == (action in found), action
                seen += 1
        state = ENGINE.apply(state, seat, rng.choice(legal))
    assert seen > 100


def test_a_choice_is_checked_against_the_legal_choices_of_that_piece():
    rng = random.Random(6)
    state = ENGINE.setup(4, {"rounds": 2}, 6)
    seen = 0
    pieces = [{"piece": p} for p in ("roof", "permit1", "permit2", "permit3", "cancel", "mayor")]
    pieces += [{"piece": "cube", "at": f"row{r}-{e}"} for r in (1, 2, 3, 4) for e in ENDS]
    pieces += [{"piece": "cube", "at": None}, {"piece": "cube"}, {}]
    while ENGINE.result(state) is None:
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        legal = ENGINE.legal_actions(state, seat)
        if state["phase"] == "start":
            for piece in pieces:
                action = {"type": "auction", **piece}
                like = [a for a in legal if a.get("piece") == piece.get("piece")]
                if piece.get("piece") == "cube":
                    like = [a for a in like if a["at"] == piece.get("at")]
                assert ENGINE.candidates(state, seat, action) == like, action
                seen += 1
        state = ENGINE.apply(state, seat, rng.choice(legal))
    assert seen > 100
