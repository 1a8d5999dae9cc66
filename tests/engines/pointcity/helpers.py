"""Shared helpers: games set up through the engine, then arranged card by card.

Arranging always *moves* a card from wherever it is (swapping with what was in
its place), so a arranged state still holds every card exactly once.
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import IllegalAction, canonical_json
from games.engines.pointcity import ENGINE
from games.engines.pointcity.data import CARDS
from games.engines.pointcity.market import INDEX, NAMES

ALICE, BOB, CHARLIE, DANA = 0, 1, 2, 3
LIST_ZONES = ("pile", "removed", "discard")
PLAYER_ZONES = ("stock", "city")


def new_game(players: int = 2, seed: int = 1, **options: Any) -> dict[str, Any]:
    """A fresh game where Alice (seat 0) drew the first-player card and starts."""
    state = ENGINE.setup(players, options, seed)
    first = state["first"]
    seats = state["seats"]
    seats[0]["stock"], seats[first]["stock"] = seats[first]["stock"], seats[0]["stock"]
    state["first"] = state["current"] = ALICE
    return state


def pick(**props: Any) -> list[int]:
    """Deck card ids whose attributes match, e.g. pick(building="civic", tier=1)."""
    return [
        c.id
        for c in CARDS.values()
        if c.tier and all(getattr(c, k) == v for k, v in props.items())
    ]


def _owners(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [*state["seats"], *([state["bot"]] if state["bot"] else [])]


def _lists(state: dict[str, Any]) -> list[list[int]]:
    lists = [state[z] for z in LIST_ZONES]
    for owner in _owners(state):
        lists += [owner[z] for z in PLAYER_ZONES]
    return lists


def set_space(state: dict[str, Any], name: str, card: int, side: str = "resource") -> None:
    """Put `card` in market space `name`; the card it displaces takes its old place."""
    space = INDEX[name]
    old = state["market"][space]
    for j, slot in enumerate(state["market"]):
        if slot is not None and slot["card"] == card:
            state["market"][j] = {"card": old["card"], "side": old["side"]}
            break
    else:
        for cards in _lists(state):
            if card in cards:
                cards[cards.index(card)] = old["card"]
                break
        else:
            raise AssertionError(f"card {card} not found")
    state["market"][space] = {"card": card, "side": side}


def set_market(state: dict[str, Any], side: str, cards: list[int]) -> None:
    """Fill the whole market in reading order with these cards, all one side up."""
    for name, card in zip(NAMES, cards, strict=True):
        set_space(state, name, card, side)


def move_to(state: dict[str, Any], card: int, target: list[int]) -> None:
    """Move a card out of a list zone (or a market space, refilled from the
    pile's bottom) into `target`."""
    for cards in _lists(state):
        if card in cards:
            cards.remove(card)
            target.append(card)
            return
    for j, slot in enumerate(state["market"]):
        if slot is not None and slot["card"] == card:
            state["market"][j] = {"card": state["pile"].pop(), "side": slot["side"]}
            target.append(card)
            return
    raise AssertionError(f"card {card} not found")


def give(state: dict[str, Any], seat: int, cards: list[int]) -> None:
    for card in cards:
        move_to(state, card, state["seats"][seat]["stock"])


def build(state: dict[str, Any], seat: int, cards: list[int]) -> None:
    for card in cards:
        move_to(state, card, state["seats"][seat]["city"])


def empty_stock(state: dict[str, Any], seat: int) -> None:
    stock = state["seats"][seat]["stock"]
    state["discard"] += stock
    stock.clear()


def all_cards(state: dict[str, Any]) -> list[int]:
    cards = [slot["card"] for slot in state["market"] if slot is not None]
    for cards_list in _lists(state):
        cards += cards_list
    return cards


def takes(state: dict[str, Any], seat: int, spaces: list[str]) -> list[dict[str, Any]]:
    return [
        a
        for a in ENGINE.legal_actions(state, seat)
        if a["type"] == "take" and a["spaces"] == spaces
    ]


def act(state: dict[str, Any], seat: int, line: str) -> dict[str, Any]:
    """Play one email line, as a player would."""
    return ENGINE.apply(state, seat, ENGINE.parse(line, state, seat))


def seat_to_act(state: dict[str, Any]) -> int:
    (seat,) = ENGINE.to_act(state)
    return seat


def random_game(players: int, seed: int, step=None) -> dict[str, Any]:
    """Play random legal actions to the end; `step(state, seat, action)` sees each."""
    rng = random.Random(seed)
    state = ENGINE.setup(players, {"solo_level": rng.choice([1, 2, 3])}, seed)
    while ENGINE.result(state) is None:
        seat = seat_to_act(state)
        action = rng.choice(ENGINE.legal_actions(state, seat))
        if step is not None:
            step(state, seat, action)
        state = ENGINE.apply(state, seat, action)
    return state


def assert_illegal(state: dict[str, Any], seat: int, action: Any) -> str:
    """The action raises IllegalAction and leaves the state untouched."""
    before = canonical_json(state)
    try:
        ENGINE.apply(state, seat, action)
    except IllegalAction as exc:
        assert canonical_json(state) == before
        return exc.message
    raise AssertionError(f"{action!r} was accepted")
