"""The Point City engine object: the contract of games.engines.base, wired up."""

from __future__ import annotations

from typing import Any

from .. import i18n
from ..base import Action, EngineBase, IllegalAction, Result, State
from ..i18n import N_
from ..orders import DEFAULT
from . import describe, scoring, turn, view
from .data import TOKENS
from .market import BUILDING, INDEX, PAIR_SET, flippable
from .moves import MOVES
from .payment import KIND_ORDER, permanent
from .setup import setup_state
from .state import PointCityState, copy_state

WORDS = i18n.Words("pointcity")
refuse = WORDS.refuse


def _explain(state: State, seat: int, action: dict[str, Any]) -> IllegalAction:
    """Why a well-formed-looking action is not among the legal ones."""
    kind = action.get("type")
    if state["phase"] == "civic":
        tokens = ", ".join(str(t) for t in sorted(state["display"]))
        return refuse(
            "first choose a civic token for your civic building: civic <id> ({tokens})",
            tokens=tokens,
        )
    if kind == "flip":
        space = action.get("space")
        if state["flipped"]:
            return refuse("you have already flipped a card this turn")
        if not isinstance(space, str) or space not in INDEX:
            return refuse("flip needs a market space, e.g.: flip b3")
        if state["market"][INDEX[space]]["side"] == BUILDING:
            return refuse("{space} already shows its building side", space=space)
        if INDEX[space] not in flippable(state["market"]):
            return refuse(
                "{space} can be flipped only when its whole row or column shows resources",
                space=space,
            )
    if kind == "draw" and len(state["pile"]) < 2:
        return refuse("the pile has fewer than two cards; take from the market")
    if kind == "take":
        return _explain_take(state, seat, action)
    if kind == "pass":
        return refuse("you may pass only when no draft is possible")
    if kind not in ("flip", "draw", "take", "civic", "pass"):
        # moves.HELP's words, whole in each msgid.
        return refuse(
            "unknown action {kind}; "
            "commands: flip b3 | draw | take a1 b1 [pay energy energy2 ingenuity] | "
            "civic 8 | pass",
            kind=repr(kind),
        )
    return refuse(
        "that action is not legal now; "
        "commands: flip b3 | draw | take a1 b1 [pay energy energy2 ingenuity] | "
        "civic 8 | pass"
    )


def _explain_take(state: State, seat: int, action: dict[str, Any]) -> IllegalAction:
    spaces = action.get("spaces")
    if (
        not isinstance(spaces, list)
        or len(spaces) != 2
        or not all(isinstance(s, str) and s in INDEX for s in spaces)
    ):
        return refuse("take names two market spaces, e.g.: take a1 b1")
    if tuple(INDEX[s] for s in spaces) not in PAIR_SET:
        return refuse(
            "take two orthogonally adjacent cards, first in reading order, e.g.: take a1 b1"
        )
    options = [a for a in turn.take_actions(state, seat) if a["spaces"] == spaces]
    if not options:
        return refuse(
            "you cannot pay for every building in {first} and {second}",
            first=spaces[0],
            second=spaces[1],
        )
    pay = action.get("pay")
    if not isinstance(pay, list) or not all(isinstance(k, str) and k in KIND_ORDER for k in pay):
        return refuse("pay is a list of card kinds, e.g. ['energy', 'ingenuity']")
    choices = " | ".join(MOVES.text(a) for a in options)
    return refuse("that payment does not fit; the ways to pay are: {choices}", choices=choices)


class PointCity(EngineBase):
    NAME = "pointcity"
    TITLE = "Point City"
    VERSION = 1
    # Every card's values come from a fan port (gamedata/pointcity.md): no
    # official card list is public; the building names are placeholders.
    PROVISIONAL_DATA = True
    MIN_PLAYERS = 1
    MAX_PLAYERS = 4
    STATE_TYPE = PointCityState
    OPTIONS = {
        "solo_level": {
            "default": 2,
            "choices": [1, 2, 3],
            "help": "solo only: the automated opponent's scoring level in stars "
            "(1 easiest, 3 hardest); ignored with 2-4 players",
        }
    }

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        return setup_state(players, self.resolve_options(options), seed)

    def to_act(self, state: State) -> set[int]:
        return set() if state["phase"] == "over" else {state["current"]}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return turn.legal(state, seat)

    # The template's own refusals, said from the title's catalogue (a
    # refusal's text is a format string: the example's braces are doubled).
    WORDS = WORDS
    SAYS = describe  # the board in words (EngineBase.describe)
    MOVES = MOVES  # each verb's line, narration, gloss and group (EngineBase)
    PROGRAMMES = (DEFAULT,)  # its standing orders: take the default move
    GAME_OVER = N_("the game is over")
    NOT_YOUR_TURN = N_("it is not your turn")
    NOT_AN_ACTION = N_('an action is an object with a "type", e.g. {{"type": "draw"}}')
    NOT_JSON = N_("that action is not plain JSON")

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def candidates(self, state: State, seat: int, action: Action) -> list[Action]:
        return turn.candidates(state, seat, action)

    def copy_state(self, state: State) -> State:
        return copy_state(state)

    def play(self, state: State, seat: int, action: Action) -> None:
        turn.APPLY[action["type"]](state, seat, action)

    def why_not(self, state: State, seat: int, action: Action) -> IllegalAction:
        return _explain(state, seat, action)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def provisional(self, options: dict[str, Any]) -> list[str]:
        return ["cards"]

    def timeout_action(self, state: State, seat: int) -> Action:
        """Civic step: the token worth most now.  Turn: draw, else the cheapest take."""
        actions = self.legal_actions(state, seat)
        if not actions:
            # A guard, not a refusal: the clock asks only a seat to act, and
            # a seat to act always has a move (at worst the final turn's pass).
            raise IllegalAction("this seat has nothing to do")
        if state["phase"] == "civic":
            return max(actions, key=lambda a: (self._token_value(state, seat, a), -a["token"]))
        drafts = [a for a in actions if a["type"] != "flip"]
        rank = {"draw": 0, "take": 1, "pass": 2}
        return min(drafts, key=lambda a: (rank[a["type"]], len(a.get("pay", []))))

    def skip_action(self, state: State, seat: int) -> Action | None:
        """Pass, where the rules allow it (no draft possible on the final turn)."""
        passing = {"type": "pass"}
        return passing if passing in self.legal_actions(state, seat) else None

    @staticmethod
    def _token_value(state: State, seat: int, action: Action) -> int:
        player = state["seats"][seat]
        perm = permanent(player["city"])
        return scoring.token_points(
            TOKENS[action["token"]], perm, scoring.ingenuity_cards(player["stock"])
        )

    def result(self, state: State) -> Result | None:
        return scoring.result(state)

    def takeback_allowed(self, before: State, seat: int, action: Action, after: State) -> bool:
        """Only a market draft or civic choice that turned up no card (README, "Takeback").

        A flip shows a card's hidden building side, a pile draw takes unseen
        cards, a refill turns up pile cards (and shows the new top card), the
        solo opponent's turn refills too, and a pass ends the game: those stand.
        """
        if action.get("type") not in ("take", "civic") or after["phase"] == "over":
            return False
        return after["pile"] == before["pile"]

    def resign(self, state: State, seat: int) -> State | None:
        """Multiplayer: the seat drops out (its cards stay, it cannot win) and the
        others play on; with one player left the game ends.  Solo cannot go on."""
        if state["bot"] is not None:
            return None
        new = copy_state(state)
        if new["phase"] == "over" or new["seats"][seat]["resigned"]:
            return new
        new["seats"][seat]["resigned"] = True
        if len(turn.active_seats(new)) < 2:
            turn.end_game(new, "resignation")
        elif new["current"] == seat:
            # A pending civic choice is forfeited; the refill it held back happens.
            refill = new["pending"]["refill"] if new["phase"] == "civic" else None
            turn.finish_turn(new, refill)
        return new
