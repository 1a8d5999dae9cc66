"""The Havana engine object: the protocol of games.engines.base, wired to the
modules that hold the rules."""

from __future__ import annotations

from typing import Any

from .. import i18n
from ..base import EngineBase, IllegalAction, Result, State
from ..i18n import N_
from . import data, orders, rounds, scoring, setup, view
from . import describe as words
from .moves import MOVES
from .order import number
from .state import HavanaState, copy_state

Action = dict[str, Any]

refuse = i18n.Words("havana").refuse


def _timeout_key(action: Action) -> tuple:
    """Optional cards are skipped first; purchases never happen on a timeout."""
    kind = action["type"]
    return (0 if kind == "skip" else 2 if kind == "buy" else 1,)


class HavanaEngine(EngineBase):
    NAME = "havana"
    TITLE = "Havana"
    VERSION = 2
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    STATE_TYPE = HavanaState
    # The building list is not the printed one yet (see README.md); the API
    # shows this flag next to the title.
    PROVISIONAL_DATA = data.PROVISIONAL
    OPTIONS = {
        "ages": {
            "default": None,
            "type": "list[int] | null",
            "help": (
                "Ages of the players in years, one per seat in seat order, e.g. [34, 29, 41]; "
                "the younger player goes first on a full turn-order tie. "
                "Omitted: the lower seat number counts as younger."
            ),
        },
    }

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        return setup.new_game(players, self.resolve_options(options), seed)

    def to_act(self, state: State) -> set[int]:
        return rounds.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return rounds.legal(state, seat)

    # The template's own refusals, said from the title's catalogue.
    WORDS = i18n.Words("havana")
    SAYS = words  # the board in words (EngineBase.describe)
    MOVES = MOVES  # each verb's line, narration, gloss and group (EngineBase)
    PROGRAMMES = orders.PROGRAMMES  # its standing orders (games/engines/orders.py)
    ORDER_PHASES = orders.PHASES
    GAME_OVER = N_("the game is over")
    NOT_YOUR_TURN = N_("it is not your turn to act")
    NOT_AN_ACTION = N_("an action must be an object with a 'type'")
    NOT_JSON = N_("an action must be plain JSON data")

    def is_over(self, state: State) -> bool:
        return state["end"] is not None

    def candidates(self, state: State, seat: int, action: Action) -> list[Action]:
        return rounds.candidates(state, seat, action)

    def copy_state(self, state: State) -> State:
        return copy_state(state)

    def play(self, state: State, seat: int, action: Action) -> None:
        rounds.play(state, seat, action)

    def why_not(self, state: State, seat: int, action: Action) -> IllegalAction:
        try:
            line = self.text(action)
        except IllegalAction:
            line = str(action.get("type"))
        buying = state["phase"] == "actions" and state["buying"]
        if buying and action["type"] not in ("buy", "end"):
            return refuse(
                "'{line}' is not possible now: your actions are done; buy or end turn", line=line
            )
        return refuse("'{line}' is not a legal move now", line=line)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def timeout_action(self, state: State, seat: int) -> Action:
        """Choices: the pair (or replacement) giving the lowest number; optional
        cards: skip; other cards: the first listed way; buying: end the turn."""
        actions = rounds.legal(state, seat)
        if not actions:
            # A guard, not a refusal: the clock asks only for a seat to act.
            raise IllegalAction("this seat has nothing to do")
        if state["phase"] in ("choose", "replace"):
            return min(actions, key=lambda a: _resulting_number(state, seat, a))
        return min(actions, key=_timeout_key)

    def skip_action(self, state: State, seat: int) -> Action | None:
        """Skip an optional card, or end the turn once buying: the first of
        those in the legal list.  Choosing cards cannot be skipped."""
        skips = (a for a in rounds.legal(state, seat) if a["type"] in ("skip", "end"))
        return next(skips, None)

    def result(self, state: State) -> Result | None:
        return scoring.result(state)

    def resign(self, state: State, seat: int) -> State | None:
        if not isinstance(seat, int) or not 0 <= seat < state["players"]:
            return None
        return scoring.resign(copy_state(state), seat)

    def public_action(self, state: State, seat: int, action: Action) -> Action | None:
        return view.public_action(state, seat, action)

    def provisional(self, options: dict[str, Any]) -> list[str]:
        return ["buildings"] if data.PROVISIONAL else []

    def takeback_allowed(self, before: State, seat: int, action: Action, after: State) -> bool:
        """Only a move that revealed nothing and drew nothing (README, "Takeback").

        A face-down choice may be taken back while it is still face down; the
        choice that completed the round's choices turned every card up.  A move
        that drew from the bag (Black Market, the resupply after the round's
        last turn) or turned up buildings from the pile (a refill after a
        purchase or a Conservation) stands, and so does the move that ended
        the game.
        """
        if before["end"] is not None or after["end"] is not None:
            return False
        if len(after["bag"]) != len(before["bag"]) or after["pile"] != before["pile"]:
            return False
        if action.get("type") in ("choose", "replace"):
            return after["phase"] == before["phase"] and after["pending"][seat] is not None
        return True


def _resulting_number(state: State, seat: int, action: Action) -> int:
    if action["type"] == "choose":
        return number(action["cards"])
    cards = [c for c in state["seats"][seat]["cards"] if c != action["cover"]]
    return number([*cards, action["card"]])
