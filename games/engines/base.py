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
    """An action the rules do not allow now; the message is shown to the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


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
    """Defaults shared by the titles; a title overrides what it needs."""

    NAME = ""
    TITLE = ""
    VERSION = 1
    MIN_PLAYERS = 1
    MAX_PLAYERS = 1
    OPTIONS: dict[str, Any] = {}

    def public_action(self, state: State, seat: int, action: Action) -> Action | None:
        return None

    def resign(self, state: State, seat: int) -> State | None:
        return None

    def takeback_allowed(self, before: State, seat: int, action: Action, after: State) -> bool:
        return False

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


def canonical_json(value: Any) -> str:
    """The one serialisation used for hashing and byte-for-byte comparisons."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


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
