"""``EngineBase``: the one ``apply`` every title shares, the words of its
moves made from the title's verbs, and the defaults a title overrides."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import i18n, orders
from .errors import IllegalAction
from .jsondata import canonical_json, clone, same_json
from .protocol import Action, State
from .results import Result
from .verbs import Moves


class EngineBase:
    """The one ``apply`` every title shares, and defaults a title overrides.

    ``apply`` is a template: the game must still run, the seat must be one to
    act, the action an object with a str ``type`` that equals one of the
    title's ``candidates`` exactly (as canonical JSON would, so True never
    passes for 1 nor 8.0 for 8); then the engine's own copy of that action is
    played on ``copy_state(state)``.  A refused action is worded by
    ``NOT_JSON`` when it is not plain JSON, else by the title's ``why_not``.
    A title supplies only those parts (``is_over``, ``candidates``,
    ``copy_state``, ``play``, ``why_not``) and the words of the refusals.
    """

    NAME = ""
    TITLE = ""
    VERSION = 1
    MIN_PLAYERS = 1
    MAX_PLAYERS = 1
    OPTIONS: dict[str, Any] = {}
    # The TypedDict of the title's state (``<title>/state.py``), which its
    # ``copy_state`` is derived from and real states are checked against.
    STATE_TYPE: Any = None

    # What the template's own checks say to the player, per title.
    GAME_OVER = "the game is over"
    NOT_YOUR_TURN = "it is not your turn"
    NOT_AN_ACTION = 'an action is an object with a "type"'
    NOT_JSON = "an action must be plain JSON data"

    # The title's catalogue (``i18n.Words``), for the template's refusals
    # above to be said in a mail's language; None: English only.
    WORDS: Any = None

    # Standing orders (games/engines/orders.py): the title's own programmed
    # actions beside the generic `play`, and how it names its rounds (None:
    # an order cannot name a round).
    PROGRAMMES: tuple[Any, ...] = ()
    ORDER_PHASES: Any = None

    @property
    def standing_orders(self) -> dict[str, Any]:
        """The programmes a seat may leave orders with, by kind."""
        return orders.programmes(self)

    def refusal(self, message: str) -> IllegalAction:
        """One of the template's own refusals, translatable when the title
        has a catalogue (mark the constants with ``N_``)."""
        return self.WORDS.refuse(message) if self.WORDS is not None else IllegalAction(message)

    def apply(self, state: State, seat: int, action: Action) -> State:
        """Validate and apply; never mutates ``state``; raises IllegalAction."""
        match = self.legal_match(state, seat, action)
        new = self.copy_state(state)
        self.play(new, seat, match)
        return new

    def advance(self, state: State, seat: int, action: Action) -> State:
        """``apply`` for a caller that owns ``state`` (a replay folding
        thousands of steps): the template plays on ``state`` itself instead of
        a copy and returns it; a title with an ``apply`` of its own gives
        what that returns.  A refused action leaves ``state`` as it was."""
        if type(self).apply is not EngineBase.apply:
            return self.apply(state, seat, action)
        self.play(state, seat, self.legal_match(state, seat, action))
        return state

    def apply_recorded(self, state: State, seat: int, action: Action) -> State:
        """``apply`` for an action this engine accepted when its event was
        appended, read back from the chain: played on a copy without listing
        the candidates it was matched against then.  A process that catches
        up on the moves others appended uses it; a verification replays
        with every check (``advance``).  A title with an ``apply`` of its
        own gives what that returns."""
        if type(self).apply is not EngineBase.apply:
            return self.apply(state, seat, action)
        new = self.copy_state(state)
        self.play(new, seat, action)
        return new

    def legal_match(self, state: State, seat: int, action: Action) -> Action:
        """The engine's own copy of ``action`` if it is legal now; else the
        refusal, worded for the player."""
        if self.is_over(state):
            raise self.refusal(self.GAME_OVER)
        if type(seat) is not int or seat not in self.to_act(state):
            raise self.refusal(self.NOT_YOUR_TURN)
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise self.refusal(self.NOT_AN_ACTION)
        # Python equality is fast but lets True pass for 1 and 1.0 for 1; an
        # equal candidate must also match type for type (as its canonical
        # JSON would).
        match = next(
            (
                legal
                for legal in self.candidates(state, seat, action)
                if legal == action and same_json(legal, action)
            ),
            None,
        )
        if match is None:
            try:
                canonical_json(action)
            except (TypeError, ValueError) as exc:
                raise self.refusal(self.NOT_JSON) from exc
            reason = self.why_not(state, seat, action)
            raise reason if isinstance(reason, IllegalAction) else IllegalAction(reason)
        return match

    # -- the parts a title supplies to the template ------------------------

    def is_over(self, state: State) -> bool:
        return self.result(state) is not None

    def candidates(self, state: State, seat: int, action: Action) -> list[Action]:
        """The legal actions ``action`` is checked against: all of them, or a
        cheaper subset that holds every legal action like it."""
        return self.legal_actions(state, seat)

    def copy_state(self, state: State) -> State:
        """A copy ``play`` may change in place without touching ``state``."""
        return clone(state)

    def play(self, state: State, seat: int, action: Action) -> None:
        """Apply a legal ``action`` to ``state`` (a private copy) in place."""
        raise NotImplementedError(f"{type(self).__name__} must define play or apply")

    def why_not(self, state: State, seat: int, action: Action) -> str | IllegalAction:
        """Why ``action`` (an object with a str type) is not legal now: the
        words, or the refusal itself (``Words.refuse``, to be translatable)."""
        return "that is not a legal move now"

    # -- the protocol's methods every title has ----------------------------

    def to_act(self, state: State) -> set[int]:
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        raise NotImplementedError

    # -- the words of a move: from the title's verbs (``verbs.Moves``) -------

    # The title's verbs, each declared once (a title's ``moves.py``, or
    # 18Cuba's steps): the line a player types (``text`` and ``parse``), the
    # narration, gloss and group.  None (a test engine): ``text`` and
    # ``parse`` are the title's own, and the words around a move the plain
    # defaults.
    MOVES: Moves | None = None

    def text(self, action: Action) -> str:
        if self.MOVES is None:
            raise NotImplementedError
        return self.MOVES.text(action)

    def parse(self, text: str, state: State, seat: int) -> Action:
        if self.MOVES is None:
            raise NotImplementedError
        return self.MOVES.parse(text, state, seat)

    def result(self, state: State) -> Result | None:
        raise NotImplementedError

    def public_action(self, state: State, seat: int, action: Action) -> Action | None:
        return None

    def skip_action(self, state: State, seat: int) -> Action | None:
        return None

    def resign(self, state: State, seat: int) -> State | None:
        return None

    def takeback_allowed(self, before: State, seat: int, action: Action, after: State) -> bool:
        return False

    # -- how the game reads in a mail ----------------------------------------

    # The title's board in words (its describe.py), whose `describe` takes
    # the arguments below but `language`, said in that language.  None: the
    # mail falls back to the view's keys and values.  A move's words are
    # never here but in the title's verbs (``MOVES``).
    SAYS: Any = None

    def describe(
        self, view: dict[str, Any], seat: int | None, names: Sequence[str], language: str = "en"
    ) -> list[str]:
        """The viewing seat's `view` as lines of text that read like the
        table in front of them: what is mine first, then the shared board,
        then each opponent as far as the view shows them, players by their
        names (`names[seat]`), things by their printed names, each line 72
        characters at most, in the same order every time.  Built from the
        view alone, so it can show nothing the view hides.  Empty: the mail
        falls back to the view's keys and values.  These four methods say
        their words in `language` (a Django language code) where the title
        has a catalogue for it (`games.engines.i18n`), else in English."""
        if self.SAYS is None:
            return []
        with i18n.speaking(language):
            return self.SAYS.describe(view, seat, names)

    def narrate(
        self, action: Action, seat: int, names: Sequence[str], language: str = "en"
    ) -> str:
        """One line saying what `seat` did, naming players and things as the
        printed game does ("alice buys the Villa (B9)").  `action` may be the
        public form another seat sees (a face-down choice without its cards):
        say only what it holds."""
        if self.MOVES is None:
            return f"{names[seat]}: {self.text(action)}"
        with i18n.speaking(language):
            return self.MOVES.narrate(action, seat, names)

    def effects(self, state: State) -> list[dict[str, Any]]:
        """What the latest move set off without anyone's decision (a
        title's automatic events: routes run, dividends, price moves, forced
        moves), as plain JSON that every seat may see, in order; the service
        stores it with the move's event.  Empty: the move's narration says
        all there is."""
        return []

    def tell_effects(
        self, effects: list[dict[str, Any]], names: Sequence[str], language: str = "en"
    ) -> list[str]:
        """`effects` (as `effects` gave them) in words, a line or more each,
        players by `names[seat]`; the web log and the mails put them after
        the move's own line."""
        return []

    def gloss(
        self,
        state: State,
        seat: int,
        action: Action,
        names: Sequence[str] = (),
        language: str = "en",
    ) -> str | None:
        """A few words after a legal move's line where the line alone is
        cryptic (`conserve B9` -> "Villa: 3 VP, 2 red 1 $"), else None; a
        player the line names by seat number is named by `names[seat]`."""
        if self.MOVES is None:
            return None
        with i18n.speaking(language):
            return self.MOVES.gloss(state, seat, action, names)

    def prospects(
        self, state: State, seat: int, actions: list[Action], language: str = "en"
    ) -> list[str | None]:
        """For each of the seat's legal `actions`, what it would lead to
        where the game page can say more than its gloss (18Cuba: what a lay
        opens), else None.  The page shows it beside the move; the mail
        does not (it would cost a search per move)."""
        return [None] * len(actions)

    def move_group(
        self, state: State, seat: int, action: Action, language: str = "en"
    ) -> str | None:
        """The heading a legal move is listed under in a mail when a title has
        many (Point City's takes by row), or None: listed in one block."""
        if self.MOVES is None:
            return None
        with i18n.speaking(language):
            return self.MOVES.group(state, seat, action)

    def provisional(self, options: dict[str, Any]) -> list[str]:
        """What component data of a game with these (resolved) options is our
        reading rather than a confirmed source, as short keys (Havana's
        "buildings"); `games.selectors.provisional` says each in a sentence.  A title's
        `PROVISIONAL_DATA` says whether any of its games can have some."""
        return ["data"] if getattr(self, "PROVISIONAL_DATA", False) else []

    def resolve_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Fill defaults and reject unknown or invalid options."""
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.OPTIONS))
        if unknown:
            raise IllegalAction(f"unknown option(s) for {self.NAME}: {', '.join(unknown)}")
        resolved = {}
        for name, spec in self.OPTIONS.items():
            value = options.get(name, spec.get("default"))
            resolved[name] = _check_option(name, spec, value)
        return resolved


def _check_option(name: str, spec: dict[str, Any], value: Any) -> Any:
    choices = spec.get("choices")
    if choices is not None and value not in choices:
        allowed = ", ".join(map(str, choices))
        raise IllegalAction(f"option {name} must be one of: {allowed}")
    if spec.get("type") == "int":
        low, high = spec.get("min"), spec.get("max")
        if not isinstance(value, int) or isinstance(value, bool):
            raise IllegalAction(f"option {name} must be a whole number")
        if (low is not None and value < low) or (high is not None and value > high):
            raise IllegalAction(f"option {name} must be between {low} and {high}")
    return value
