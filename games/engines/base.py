"""The engine protocol every title implements, and the registry of titles.

Engines are pure Python: nothing below ``games/engines`` imports Django, reads
the clock or uses global randomness.  State is plain JSON data (dicts with
string keys, lists, str, int, bool, None) so that a snapshot is the state
itself and replay is byte-for-byte reproducible.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Sequence
from typing import Any, NotRequired, Protocol, TypedDict, runtime_checkable

from . import i18n

State = dict[str, Any]
Action = dict[str, Any]
Score = int | float


class Opponent(TypedDict):
    """A solo game's automated opponent: it holds no seat, only a score."""

    score: Score


class Result(TypedDict):
    """A finished game, in the one shape pages, mails and the API read.

    Lists run over the seats in seat order.  `places` are 1-based, and seats
    share a place only when the title's tie-breakers leave them tied; the
    `winners` are exactly the seats in place 1 (none when a solo player loses
    to the opponent).  `ended_by` is a short reason, stable per title (each
    title's README lists its values).  `breakdown` gives per seat the
    scoring parts the rules name; they add up to that seat's score.
    """

    winners: list[int]
    places: list[int]
    scores: list[Score]
    ended_by: str
    breakdown: list[dict[str, Score]]
    opponent: NotRequired[Opponent]


# API name -> module path; titles are imported lazily so a broken or missing
# title never stops the others from loading.
KNOWN_TITLES: dict[str, str] = {
    "havana": "games.engines.havana",
    "18cuba": "games.engines.cuba",
    "pointcity": "games.engines.pointcity",
    "estates": "games.engines.estates",
}


class IllegalAction(Exception):
    """An action the rules do not allow now; the message is shown to the player.

    ``message`` is English.  A refusal made with a title's ``Words.refuse``
    also keeps its msgid (``template``), its values (``params``, plain JSON)
    and the catalogue it is in (``domain``), so a mail can say it in its
    reader's language later (``said``); the API answers in English."""

    def __init__(
        self,
        message: str,
        *,
        template: str | None = None,
        params: dict[str, Any] | None = None,
        domain: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.template = template
        self.params = dict(params or {})
        self.domain = domain

    def said(self, language: str | None) -> str:
        """The message in `language` where the title's catalogue has it."""
        return i18n.translated(self.domain, self.template, self.params, language) or self.message

    def kept(self) -> dict[str, Any]:
        """What a mail's ledger keeps to say it again in another language."""
        if not (self.template and self.domain):
            return {}
        return {"template": self.template, "params": self.params, "domain": self.domain}


@runtime_checkable
class Engine(Protocol):
    """What DESIGN.md calls a title: one object per title, stateless itself."""

    NAME: str  # API name, e.g. "havana"
    TITLE: str  # display name
    VERSION: int  # bumped when a change alters the outcome of existing streams
    MIN_PLAYERS: int
    MAX_PLAYERS: int
    OPTIONS: dict[str, Any]  # option name -> {"default": ..., "choices"|"type": ..., "help": ...}

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        """Resolve all randomness; the result is the stored `created` setup."""
        ...

    def to_act(self, state: State) -> set[int]: ...

    def legal_actions(self, state: State, seat: int) -> list[Action]: ...

    def apply(self, state: State, seat: int, action: Action) -> State:
        """Validate and apply; never mutates `state`; raises IllegalAction."""
        ...

    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...

    def text(self, action: Action) -> str: ...

    def parse(self, text: str, state: State, seat: int) -> Action: ...

    def timeout_action(self, state: State, seat: int) -> Action: ...

    def skip_action(self, state: State, seat: int) -> Action | None:
        """The legal move by which ``seat`` does nothing now (passes a bid,
        skips an optional step, ends its turn), or None when it must act.
        A clock whose policy is "skip" plays this when it runs out."""
        ...

    def result(self, state: State) -> Result | None:
        """None while the game runs (and for a game that cannot end)."""
        ...

    def resign(self, state: State, seat: int) -> State | None:
        """The state after `seat` leaves the game under the title's rules for a
        leaving player, or None when the game cannot continue without it."""
        ...

    def takeback_allowed(self, before: State, seat: int, action: Action, after: State) -> bool:
        """May `seat` take `action` back (with the other seats' consent)?

        Only when applying it revealed no hidden information and drew nothing
        from a shuffled order; a title that cannot tell returns False.
        """
        ...

    def public_action(self, state: State, seat: int, action: Action) -> Action | None:
        """The form of `action` other seats may see while the game runs.

        ``state`` is the state *before* the action.  Return None when the
        whole action is public; otherwise a redacted copy (e.g. a face-down
        card choice without the cards).
        """
        ...


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

    def text(self, action: Action) -> str:
        raise NotImplementedError

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

    # The title's module of words (its describe.py), whose `describe`,
    # `narrate`, `gloss` and `move_group` take the arguments below but
    # `language`: the methods here speak that language around each call.
    # None, or a function it lacks: the plain defaults.
    SAYS: Any = None

    def _say(self, name: str, *args: Any, language: str) -> Any:
        said = getattr(self.SAYS, name, None)
        if said is None:
            return NotImplemented
        with i18n.speaking(language):
            return said(*args)

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
        said = self._say("describe", view, seat, names, language=language)
        return [] if said is NotImplemented else said

    def narrate(
        self, action: Action, seat: int, names: Sequence[str], language: str = "en"
    ) -> str:
        """One line saying what `seat` did, naming players and things as the
        printed game does ("alice buys the Villa (B9)").  `action` may be the
        public form another seat sees (a face-down choice without its cards):
        say only what it holds."""
        said = self._say("narrate", action, seat, names, language=language)
        if said is not NotImplemented:
            return said
        try:
            return f"{names[seat]}: {self.text(action)}"
        except Exception:
            return f"{names[seat]}: {action.get('type', 'move')}"

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
        said = self._say("gloss", state, seat, action, names, language=language)
        return None if said is NotImplemented else said

    def move_group(
        self, state: State, seat: int, action: Action, language: str = "en"
    ) -> str | None:
        """The heading a legal move is listed under in a mail when a title has
        many (Point City's takes by row), or None: listed in one block."""
        said = self._say("move_group", state, seat, action, language=language)
        return None if said is NotImplemented else said

    def provisional(self, options: dict[str, Any]) -> list[str]:
        """What component data of a game with these (resolved) options is our
        reading rather than a confirmed source, as short keys (Havana's
        "buildings"); `games.provisional` says each in a sentence.  A title's
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


def rank(keys: Sequence[tuple[Any, ...]]) -> list[int]:
    """1-based places from per-seat sort keys, higher keys better.

    A title builds each seat's key from its own rules, most important part
    first and its tie-breakers after, so seats share a place exactly when
    every tie-breaker leaves them level; the next place skips the shared ones
    (1, 1, 3).
    """
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def finished(
    places: list[int],
    scores: list[Score],
    ended_by: str,
    breakdown: list[dict[str, Score]],
    opponent: Score | None = None,
) -> Result:
    """A `Result` whose winners are the seats in first place."""
    out = Result(
        winners=[seat for seat, place in enumerate(places) if place == 1],
        places=list(places),
        scores=list(scores),
        ended_by=ended_by,
        breakdown=breakdown,
    )
    if opponent is not None:
        out["opponent"] = Opponent(score=opponent)
    return out


def clone(state: State) -> State:
    """A deep copy of JSON state; faster than copy.deepcopy for plain data."""
    return json.loads(json.dumps(state))


def same_json(a: Any, b: Any) -> bool:
    """Equal as canonical JSON: equal, and of the same type all the way down
    (True is not 1, 1.0 is not 1), without serialising either."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return a.keys() == b.keys() and all(same_json(v, b[k]) for k, v in a.items())
    if type(a) is list:
        return len(a) == len(b) and all(map(same_json, a, b))
    return bool(a == b)


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
# json.dumps builds an encoder, and the encoder its C core, on every call:
# for a small payload that was two thirds of the cost.  The C core is built
# once here with the same options (JSONEncoder.iterencode shows them), except
# the check for circular data, which JSON never is (it would recurse until
# Python's limit instead).
_make_c_encoder = getattr(json.encoder, "c_make_encoder", None)  # absent in pure-Python builds
_C_CANONICAL = (
    None
    if _make_c_encoder is None
    else _make_c_encoder(
        None, _CANONICAL.default, json.encoder.encode_basestring, None, ":", ",", True, False, True
    )
)


def canonical_json(value: Any) -> str:
    """The one serialisation used for hashing and byte-for-byte comparisons."""
    if _C_CANONICAL is None:
        return _CANONICAL.encode(value)
    return "".join(_C_CANONICAL(value, 0))


_registry: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    """Add a title (tests register their own small engines this way)."""
    _registry[engine.NAME] = engine
    return engine


def unregister(name: str) -> None:
    _registry.pop(name, None)


def get(name: str) -> Engine:
    """The engine for an API name; raises KeyError for an unknown title."""
    if name not in _registry and name in KNOWN_TITLES:
        module = importlib.import_module(KNOWN_TITLES[name])
        # A title package still under construction has no ENGINE yet.
        if hasattr(module, "ENGINE"):
            register(module.ENGINE)
    return _registry[name]


def available() -> dict[str, Engine]:
    """Every title that imports cleanly, by API name."""
    for name in KNOWN_TITLES:
        try:
            get(name)
        except KeyError:
            continue
        except ModuleNotFoundError as exc:
            # Only a title whose package is absent is skipped; a title that
            # fails inside must not disappear silently.
            if exc.name != KNOWN_TITLES[name]:
                raise
    return dict(_registry)
