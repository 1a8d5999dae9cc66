"""Setup: every shuffle of the game happens here, from one seeded generator.

The state it makes is declared in state.py.
"""

from __future__ import annotations

import random
from typing import Any

from ..base import IllegalAction, State
from .data import CARDS, DECK_IDS, FIRST_PLAYER_CARD, SETUP, SOLO, STARTING_IDS, TOKENS
from .market import RESOURCE, SPACES


def _seat(start_card: int) -> dict[str, Any]:
    return {"stock": [start_card], "city": [], "tokens": [], "turns": 0, "resigned": False}


def _deal_pile(rng: random.Random, players: int) -> tuple[list[int], list[int]]:
    """Shuffle each tier, box the removed cards, stack tier 1 on 2 on 3."""
    pile: list[int] = []
    removed: list[int] = []
    for tier, remove in zip((1, 2, 3), SETUP[players]["remove_per_tier"], strict=True):
        cards = sorted(c for c in DECK_IDS if CARDS[c].tier == tier)
        rng.shuffle(cards)
        removed += cards[:remove]
        pile += cards[remove:]  # tier 1 ends up on top: it is dealt first
    return pile, removed


def _deal_starting_cards(
    rng: random.Random, players: int
) -> tuple[list[int], int | None, list[int]]:
    """(cards for the seats, the solo opponent's card, cards back to the box).

    The first-player card is always dealt (someone must start); the others are
    dealt at random.  Solo: the human starts, so holds the first-player card,
    and the opponent gets another Ingenuity card (fan port; it scores at 3 stars).
    """
    others = [c for c in STARTING_IDS if c != FIRST_PLAYER_CARD]
    rng.shuffle(others)
    if players == 1:
        return [FIRST_PLAYER_CARD], others[0], sorted(others[1:])
    dealt = [FIRST_PLAYER_CARD, *others[: players - 1]]
    rng.shuffle(dealt)
    return dealt, None, sorted(others[players - 1 :])


def setup_state(players: int, options: dict[str, Any], seed: int) -> State:
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
        # A guard, not a refusal: a game is created only for MIN_PLAYERS to
        # MAX_PLAYERS players (games.services.creation checks first).
        raise IllegalAction("Point City is for 1 to 4 players")
    rng = random.Random(seed)
    pile, removed = _deal_pile(rng, players)
    market = [{"card": pile.pop(0), "side": RESOURCE} for _ in range(SPACES)]

    tokens = sorted(TOKENS)
    rng.shuffle(tokens)
    shown = SETUP[players]["civic_tokens_shown"]

    dealt, bot_card, unused = _deal_starting_cards(rng, players)
    bot = None
    if bot_card is not None:
        bot = {"stock": [bot_card], "city": [], "tokens": [], "turns": 0}
        bot["column"] = SOLO["column_token_start"] - 1
        bot["row"] = SOLO["row_token_start"] - 1
    first = dealt.index(FIRST_PLAYER_CARD)
    return {
        "players": players,
        "level": options["solo_level"],
        "pile": pile,
        "removed": removed + unused,
        "market": market,
        "display": tokens[:shown],
        "token_box": tokens[shown:],
        "seats": [_seat(card) for card in dealt],
        "bot": bot,
        "discard": [],
        "first": first,
        "current": first,
        "phase": "turn",
        "flipped": False,
        "pending": None,
        "end": None,
    }
