"""The 18Cuba engine object: the protocol of `games.engines.base`, wired to
the modules that hold the rules, and nothing else.

    setup           -> setup.new_game (variants, shuffled playing order, depot)
                       and the first round's own set-up (`rounds.flow`)
    to_act / legal  -> the current round (`rounds.flow.current`)
    apply           -> EngineBase's template: copy_state (`state.py`), then
                       Round.process and `flow.settle` (the next round)
    view            -> words/view.py (everything is open in 18Cuba)
    text, narrate, gloss, move_group -> EngineBase, from the verbs each step
                       declares (`MOVES`: the steps' VERBS, one of each)
    parse           -> the lines of the current round's reachable steps
                       (`Round.parse`: `buy MS` in a stock round, `buy 3`
                       while a company buys trains)
    describe        -> words/describe.py (the board in a mail's words)
    effects, tell_effects -> rules/log.py (what a move set off without a
                       decision, recorded where the rules act) and
                       words/events.py (those events in words)
    result          -> scoring.py (cash + shares at market value, IX.2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import i18n
from ..base import Action, EngineBase, IllegalAction, Result, State
from ..i18n import N_
from ..verbs import Moves
from . import orders, scoring, setup
from .data.variants import variant
from .refusals import WORDS, refuse
from .rounds import flow, opening, operating, stock  # noqa: F401 (each registers its rounds)
from .rules import log, turn
from .state import CubaState, copy_state
from .steps import emergency, offer, route
from .words import describe, events, prospects, view
from .words.names import seat_name

ENDED_BY = (operating.BANK_BROKEN, emergency.BANKRUPTCY, operating.SECOND_8_EXPORTED)
# What a seat that runs out of time does, by preference: end what may be
# ended, run the best routes, keep the income, and otherwise the cheapest
# move the rules force (a bid, a train the company must own).
TIMEOUT_PREFERENCE = ("pass", "run", "retain", "refuse")
# Never chosen for an absent player: a price offered for another company's
# train is a negotiation, not a default.
NEVER_BY_TIMEOUT = frozenset({"offer"})


def _normalise(text: str) -> str:
    """A mail line as the steps' lines are read: lower case (company symbols
    and hexes are matched without regard to case), commas as spaces."""
    return " ".join(text.lower().replace(",", " ").split())


def _unread(text: Any) -> IllegalAction:
    return refuse("a move is a line of text, e.g.: pass")


MOVES = Moves(WORDS, flow.verbs(), normalise=_normalise, unread=_unread, name=seat_name)


class CubaEngine(EngineBase):
    NAME = "18cuba"
    TITLE = "18Cuba"
    VERSION = 3
    MIN_PLAYERS = 2
    MAX_PLAYERS = 6
    STATE_TYPE = CubaState
    # Three market prices, the narrow-train and wagon tables, the machine
    # prices and the 2-player easy map's two edge tiles are our reading of a
    # draft with gaps (README); the view says which in `provisional`.
    PROVISIONAL_DATA = True
    OPTIONS = {
        "difficulty": {
            "default": "easy",
            "choices": ["easy", "hard", "challenging"],
            "help": "2 players: easy (one minor each, half the map), hard (two) or "
            "challenging (three); 3 players: easy or hard; ignored from 4 players",
        },
        "map_part": {
            "default": "east",
            "choices": ["east", "west"],
            "help": "2-player easy only: the part of the map played (draft X)",
        },
    }

    # EngineBase's own refusals, said in the reader's language (`WORDS`).
    WORDS = WORDS
    SAYS = describe  # the board in words (EngineBase.describe)
    MOVES = MOVES  # each verb's line, narration, gloss and heading, declared by its step
    PROGRAMMES = orders.PROGRAMMES  # its standing orders (games/engines/orders.py)
    ORDER_PHASES = orders.PHASES
    GAME_OVER = N_("the game is over")
    NOT_YOUR_TURN = N_("it is not your turn")
    NOT_AN_ACTION = N_('an action is an object with a "type", e.g. {{"type": "pass"}}')
    NOT_JSON = N_("an action must be plain JSON data")

    def provisional(self, options: dict[str, Any]) -> list[str]:
        return ["draft_data"]

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        opts = self.resolve_options(options)
        difficulty = opts["difficulty"] if players <= 3 else None
        try:
            chosen = variant(players, difficulty)
        except ValueError as exc:
            raise refuse(
                "18Cuba has no {difficulty} game for {players} players",
                difficulty=difficulty,
                players=players,
            ) from exc
        part = opts["map_part"] if chosen.partial_map else None
        state: State = dict(setup.new_game(chosen, seed, part))
        flow.begin_game(state)
        return state

    def to_act(self, state: State) -> set[int]:
        if state["end"] is not None:
            return set()
        account = turn.acting_account(state)
        return set() if account is None else {int(account[1:])}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return flow.current(state).legal(state, seat)

    def candidates(self, state: State, seat: int, action: Action) -> list[Action]:
        """Only the moves of the step that owns the action's type, so that a
        stock move is not checked against every tile lay on the map; and a
        director's own routes and an offer at a price not listed, which no
        list can hold (too many), as their own candidate: `apply` validates
        them in full (`steps.route`, `steps.offer`)."""
        if seat not in self.to_act(state):
            return []
        claim = route.candidates(state, seat, action) or offer.candidates(state, seat, action)
        if claim:
            return claim
        kind = action.get("type") if isinstance(action, dict) else None
        return flow.current(state).legal_of(state, seat, kind)

    def is_over(self, state: State) -> bool:
        return state["end"] is not None

    def copy_state(self, state: State) -> State:
        return dict(copy_state(state))

    def play(self, state: State, seat: int, action: Action) -> None:
        log.start(state)
        flow.current(state).process(state, seat, action)
        flow.settle(state)

    def effects(self, state: State) -> list[dict[str, Any]]:
        """What the latest move set off without a decision (`rules.log`):
        routes run, dividends, price moves, phase changes, forced moves."""
        return log.events(state)

    def tell_effects(
        self, effects: list[dict[str, Any]], names: Sequence[str], language: str = "en"
    ) -> list[str]:
        with i18n.speaking(language):
            return events.tell(effects, names, self._narrate_forced(names))

    def prospects(
        self, state: State, seat: int, actions: list[Action], language: str = "en"
    ) -> list[str | None]:
        """What each legal lay opens: the stops newly reached, the laid hex's
        gain (`words.prospects`)."""
        with i18n.speaking(language):
            return prospects.prospects(state, seat, actions)

    @staticmethod
    def _narrate_forced(names: Sequence[str]) -> events.Narrate:
        def said(action: Action, seat: int) -> str:
            return MOVES.narrate(action, seat, names)

        return said

    def why_not(self, state: State, seat: int, action: Action) -> IllegalAction:
        """The step that owns the action says why (it validates on its own);
        only a move no step of this round knows gets the round's sentence."""
        probe = self.copy_state(state)
        log.start(probe)  # the copy shares the log: its notes go to a list of its own
        try:
            flow.current(probe).process(probe, seat, action)
        except IllegalAction as exc:
            return exc
        return refuse("that is not a legal move now")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def text(self, action: Action) -> str:
        kind = action.get("type") if isinstance(action, dict) else None
        if not isinstance(kind, str) or kind not in MOVES.verbs:
            raise refuse("{kind} is not an 18Cuba move", kind=repr(kind))
        return MOVES.text(action)

    def parse(self, text: str, state: State, seat: int) -> Action:
        said = _normalise(text) if isinstance(text, str) else ""
        if not said:
            raise _unread(text)
        return flow.current(state).parse(said, state, seat)

    def skip_action(self, state: State, seat: int) -> Action | None:
        """Pass, wherever the rules let this seat pass now."""
        passing = {"type": "pass"}
        return passing if passing in self.legal_actions(state, seat) else None

    def timeout_action(self, state: State, seat: int) -> Action:
        """The safe default of each decision: a step's own where it has one
        (a surplus train: the cheapest), else `TIMEOUT_PREFERENCE`: pass,
        run the optimum, retain, refuse an offer; where none of these is
        allowed (the starter of a commissioner's auction, a train the company
        must buy) the cheapest move, else the first one listed."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise refuse("this seat has nothing to do")
        chosen = flow.current(state).timeout(state, seat)
        if chosen is not None and chosen in legal:
            return chosen
        for kind in TIMEOUT_PREFERENCE:
            for action in legal:
                if action == {"type": kind}:
                    return action
        legal = [a for a in legal if a["type"] not in NEVER_BY_TIMEOUT] or legal
        priced = [(_cost(a), i) for i, a in enumerate(legal) if _cost(a) is not None]
        return legal[min(priced)[1]] if priced else legal[0]

    def takeback_allowed(self, before: State, seat: int, action: Action, after: State) -> bool:
        """Always: nothing in 18Cuba is hidden and nothing is drawn after setup."""
        return True

    def result(self, state: State) -> Result | None:
        return scoring.result(state)


def _cost(action: Action) -> int | None:
    """What a move costs its mover, where it names a sum (a bid, a price)."""
    for key in ("amount", "price"):
        if isinstance(action.get(key), int):
            return int(action[key])
    return None
