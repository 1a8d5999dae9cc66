"""The Estates / Neue Heimat as a Correo engine: the protocol glue.

Each phase of a turn has its legal-action generator and its apply step
(turn.py for choosing, bidding and give/keep, placement.py for using the
piece); this class only routes to them and guards the contract.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import i18n
from ..base import EngineBase, Result
from ..i18n import N_
from . import describe, leaving, orders, scoring, turn, view
from .data import EDITIONS
from .errors import IllegalAction, refuse
from .moves import MOVES
from .placement import apply_place, check_place, place_actions
from .state import EstatesState, copy_state, new_state

State = dict[str, Any]
Action = dict[str, Any]

_LEGAL: dict[str, Callable[[State, int], list[Action]]] = {
    "start": turn.start_actions,
    "bid": turn.bid_actions,
    "resolve": turn.resolve_actions,
    "place": place_actions,
}
# Each phase's checks, for the words of a refusal.
_CHECK: dict[str, Callable[[State, int, Action], None]] = {
    "start": turn.check_choose,
    "bid": turn.check_bid,
    "resolve": turn.check_resolve,
    "place": check_place,
}
_APPLY: dict[str, Callable[[State, int, Action], None]] = {
    "start": turn.apply_choose,
    "bid": turn.apply_bid,
    "resolve": turn.apply_resolve,
    "place": apply_place,
}


class EstatesEngine(EngineBase):
    NAME = "estates"
    TITLE = "The Estates / Neue Heimat"
    VERSION = 2
    MIN_PLAYERS = 2
    MAX_PLAYERS = 5
    STATE_TYPE = EstatesState
    # Some games have provisional component data: which, depends on the
    # edition (`provisional`).
    PROVISIONAL_DATA = any(e["provisional"] for e in EDITIONS.values())
    # The template's own refusals (EngineBase's English), said from the
    # title's catalogue.
    WORDS = i18n.Words("estates")
    SAYS = describe  # the board in words (EngineBase.describe)
    MOVES = MOVES  # each verb's line, narration and gloss (EngineBase)
    PROGRAMMES = orders.PROGRAMMES  # its standing orders (games/engines/orders.py)
    ORDER_PHASES = orders.PHASES
    GAME_OVER = N_("the game is over")
    NOT_YOUR_TURN = N_("it is not your turn")
    NOT_AN_ACTION = N_('an action is an object with a "type"')
    NOT_JSON = N_("an action must be plain JSON data")
    OPTIONS = {
        "edition": {
            "default": "neue-heimat",
            "choices": sorted(EDITIONS),
            "help": "neue-heimat: 17 roofs, 12 numbered and 5 blank; the-estates: 12 roofs",
        },
        "rounds": {
            "default": 1,
            "choices": [1, 2, 3, 4, 5],
            "help": "rounds to play; cheques carry over, two round wins win at once",
        },
    }

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        if type(players) is not int or not self.MIN_PLAYERS <= players <= self.MAX_PLAYERS:
            # A guard, not a refusal: game creation checks the player count
            # against MIN_PLAYERS and MAX_PLAYERS first.
            raise IllegalAction("The Estates is for 2 to 5 players")
        resolved = self.resolve_options(options)
        return new_state(players, resolved["edition"], resolved["rounds"], seed)

    def provisional(self, options: dict[str, Any]) -> list[str]:
        """Neue Heimat's white lots and numbered roof values are copied from
        The Estates, unverified; The Estates' data is confirmed."""
        edition = self.resolve_options(options)["edition"]
        return list(EDITIONS[edition]["provisional"])

    def to_act(self, state: State) -> set[int]:
        return view.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in view.to_act(state):
            return []
        return _LEGAL[state["phase"]](state, seat)

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def candidates(self, state: State, seat: int, action: Action) -> list[Action]:
        if state["phase"] == "bid":
            return turn.bid_candidates(state, seat, action)
        if state["phase"] == "start":
            return turn.start_candidates(state, seat, action)
        return _LEGAL[state["phase"]](state, seat)

    def copy_state(self, state: State) -> State:
        return copy_state(state)

    def play(self, state: State, seat: int, action: Action) -> None:
        _APPLY[state["phase"]](state, seat, action)
        if state["resigned"]:
            leaving.settle(state)

    def why_not(self, state: State, seat: int, action: Action) -> IllegalAction:
        try:
            _CHECK[state["phase"]](state, seat, action)
        except IllegalAction as exc:
            return exc
        # The checks accept exactly the legal actions (test_checks.py holds them
        # to it), so this is not reached.
        return refuse("that is not a legal move now")

    def resign(self, state: State, seat: int) -> State | None:
        """The seat leaves and the others play on (rule in leaving.py / README)."""
        if type(seat) is not int or not 0 <= seat < state["players"]:
            # A guard, not a refusal: a seat leaves by its holder's own seat.
            raise IllegalAction("no such seat")
        return leaving.resign(copy_state(state), seat)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def timeout_action(self, state: State, seat: int) -> Action:
        """Pass on bids, give to the high bidder, the first placement, no stash."""
        legal = self.legal_actions(state, seat)
        if not legal:
            # A guard, not a refusal: the clock asks only a seat to act.
            raise IllegalAction("it is not this seat's turn")
        return legal[0]

    def skip_action(self, state: State, seat: int) -> Action | None:
        """Pass on a bid; every other step needs a choice."""
        if state["phase"] == "bid" and seat in view.to_act(state):
            return {"type": "pass"}
        return None

    def result(self, state: State) -> Result | None:
        return scoring.result(state)

    def public_action(self, state: State, seat: int, action: Action) -> Action | None:
        return view.public_action(state, seat, action)

    def takeback_allowed(self, before: State, seat: int, action: Action, after: State) -> bool:
        """Only a move that revealed nothing (README, "Takeback").

        Choosing a roof turns the next face-down roof over, and the move that
        ends a round shows its scores (every stash) and lays out the next
        round's display: those stand.  A choice of any other piece (with or
        without a stash), a bid or pass, give or keep, and a placement that
        does not end the round may be taken back.
        """
        if after["phase"] == "over" or after["round"] != before["round"]:
            return False
        if len(after["round_results"]) != len(before["round_results"]):
            return False
        return len(after["roofs"]) == len(before["roofs"]) and after["blanks"] == before["blanks"]
