"""The greedy bot's score for Havana (games.engines.bots): see README.md,
"The greedy bot"."""

from __future__ import annotations

from typing import Any

from . import data

State = dict[str, Any]

# A victory point against what a player holds: the dearest buildings cost
# around a dozen holding units a VP, so a building bought is always worth
# what it cost, and the bot buys whenever it can.
VP_WEIGHT = 20
# What the others lose counts for less than what the bot gains: taking from
# them is good, but not at the price of building less.
OTHERS_WEIGHT = 0


def holdings(seat: dict[str, Any]) -> int:
    """What a player holds in the rules' own exchange rates: a coloured cube
    is worth 5 gray, a worker 5 pesos."""
    cubes = seat["cubes"]
    coloured = sum(cubes[c] for c in data.COLOURED)
    return 5 * coloured + cubes["gray"] + 5 * seat["workers"] + seat["pesos"]


def value(seat: dict[str, Any]) -> float:
    return VP_WEIGHT * seat["vp"] + holdings(seat)


# Card choices change nothing until the reveal; the bot prefers the cards
# that bring most in a turn.
CARD_WEIGHTS = {"0": 0, "1": 1, "2p": 1, "2d": 2, "3c": 2, "3t": 2, "4w": 3, "4a": 2,
                "5": 2, "6": 2, "7": 3, "8": 3, "9": 4}  # fmt: skip


def cards_value(cards: list[str]) -> float:
    return sum(CARD_WEIGHTS.get(card, 0) for card in cards)


def score(before: State, seat: int, action: dict[str, Any], after: State) -> float:
    """The seat's gain in `value`, less half what the others gained.

    A face-down card choice changes nothing yet, so all of them tie and the
    seed picks one; no action of Havana's lets the after-state show the bot
    something the player could not know (a draw from the bag is counted as
    cubes, whatever their colour... only by number: see `holdings`)."""
    if action["type"] == "choose":
        return cards_value(action["cards"])
    if action["type"] == "replace":
        return cards_value([action["card"]]) - cards_value([action["cover"]])
    mine = value(after["seats"][seat]) - value(before["seats"][seat])
    others = sum(
        value(after["seats"][s]) - value(before["seats"][s])
        for s in range(len(before["seats"]))
        if s != seat
    )
    return mine - OTHERS_WEIGHT * others
