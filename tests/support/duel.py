"""A small engine for testing the store: hidden hands, a hidden simultaneous
choice, a sequential step and a seeded deck.

Each round every seat secretly commits one card from its hand (simultaneous);
when all have committed, the cards are revealed and the highest card's owner
scores the sum of the revealed cards (ties: nobody scores).  Then, in seat
order, each seat may draw the top card of the deck or pass.  The game ends
after `rounds` rounds or when a seat has no card left to commit.
Played cards go under the deck, so the 24 cards are always conserved.
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import (
    Action,
    EngineBase,
    IllegalAction,
    Result,
    Score,
    State,
    clone,
    finished,
    rank,
)


class Duel(EngineBase):
    NAME = "duel"
    TITLE = "Duel (test engine)"
    VERSION = 1
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    OPTIONS = {"rounds": {"default": 3, "type": "int", "min": 1, "max": 10_000, "help": "rounds"}}

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        options = self.resolve_options(options)
        deck = list(range(1, 25))
        random.Random(seed).shuffle(deck)
        hands = [sorted(deck[2 * i : 2 * i + 2]) for i in range(players)]
        return {
            "players": players,
            "rounds": options["rounds"],
            "round": 1,
            "phase": "commit",
            "deck": deck[2 * players :],
            "hands": hands,
            "committed": [None] * players,
            "revealed": [],
            "scores": [0] * players,
            "drawer": 0,
            "log": [],
        }

    def to_act(self, state: State) -> set[int]:
        if state["phase"] == "commit":
            return {s for s, card in enumerate(state["committed"]) if card is None}
        if state["phase"] == "draw":
            return {state["drawer"]}
        return set()

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state["phase"] == "commit":
            return [{"type": "commit", "card": card} for card in state["hands"][seat]]
        actions = [{"type": "pass"}]
        if state["deck"]:
            actions.insert(0, {"type": "draw"})
        return actions

    def skip_action(self, state: State, seat: int) -> Action | None:
        """Pass instead of drawing; a commit cannot be skipped."""
        return {"type": "pass"} if {"type": "pass"} in self.legal_actions(state, seat) else None

    def apply(self, state: State, seat: int, action: Action) -> State:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(f"not a legal move now: {self._shown(action)}")
        state = clone(state)
        if action["type"] == "commit":
            state["hands"][seat].remove(action["card"])
            state["committed"][seat] = action["card"]
            if all(card is not None for card in state["committed"]):
                self._reveal(state)
        else:
            if action["type"] == "draw":
                state["hands"][seat].append(state["deck"].pop(0))
                state["hands"][seat].sort()
            self._next_drawer(state)
        return state

    def _reveal(self, state: State) -> None:
        cards = state["committed"]
        best = max(cards)
        if cards.count(best) == 1:
            state["scores"][cards.index(best)] += sum(cards)
        state["revealed"] = cards
        state["deck"].extend(cards)  # played cards go under the deck: nothing is lost
        state["committed"] = [None] * state["players"]
        state["phase"], state["drawer"] = "draw", 0

    def _next_drawer(self, state: State) -> None:
        state["drawer"] += 1
        if state["drawer"] < state["players"]:
            return
        if state["round"] == state["rounds"] or not all(state["hands"]):
            state["phase"] = "over"
        else:
            state["round"] += 1
            state["phase"] = "commit"

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        view = {
            "round": state["round"],
            "phase": state["phase"],
            "deck_size": len(state["deck"]),
            "hand_sizes": [len(hand) for hand in state["hands"]],
            "committed": [card is not None for card in state["committed"]],
            "revealed": state["revealed"],
            "scores": state["scores"],
        }
        if seat is not None:
            view["hand"] = state["hands"][seat]
            view["my_commitment"] = state["committed"][seat]
        return view

    def _shown(self, action: Any) -> str:
        return self.text(action) if isinstance(action, dict) else repr(action)

    def text(self, action: Action) -> str:
        if action.get("type") == "commit":
            # Another seat's commit is shown without its card (public_action).
            return f"commit {action['card']}" if "card" in action else "commit (face down)"
        return str(action.get("type"))

    def parse(self, text: str, state: State, seat: int) -> Action:
        words = text.lower().split()
        if words == ["draw"] or words == ["pass"]:
            return {"type": words[0]}
        if len(words) == 2 and words[0] == "commit" and words[1].isdigit():
            return {"type": "commit", "card": int(words[1])}
        raise IllegalAction(f"unknown command: {text!r} (try 'commit N', 'draw' or 'pass')")

    def timeout_action(self, state: State, seat: int) -> Action:
        return self.legal_actions(state, seat)[-1]

    def result(self, state: State) -> Result | None:
        """Most points wins; equal points share the place."""
        if state["phase"] != "over":
            return None
        scores = state["scores"]
        ended_by = "last_round" if state["round"] == state["rounds"] else "no_card_left"
        breakdown: list[dict[str, Score]] = [{"cards won": s} for s in scores]
        return finished(rank([(s,) for s in scores]), scores, ended_by, breakdown)

    def takeback_allowed(self, before: State, seat: int, action: Action, after: State) -> bool:
        # A draw takes a hidden card; a commit that completed the round revealed all.
        if action["type"] == "draw":
            return False
        return not (action["type"] == "commit" and after["phase"] != "commit")

    def public_action(self, state: State, seat: int, action: Action) -> Action | None:
        if action["type"] == "commit":
            return {"type": "commit"}
        return None


DUEL = Duel()
