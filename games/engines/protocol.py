"""The engine protocol every title implements.

Engines are pure Python: nothing below ``games/engines`` imports Django, reads
the clock or uses global randomness.  State is plain JSON data (dicts with
string keys, lists, str, int, bool, None) so that a snapshot is the state
itself and replay is byte-for-byte reproducible.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from .results import Result

State = dict[str, Any]
Action = dict[str, Any]


@runtime_checkable
class Engine(Protocol):
    """What docs/design.md calls a title: one object per title, stateless itself."""

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

    @property
    def standing_orders(self) -> dict[str, Any]:
        """The programmes a seat may leave standing orders with, by kind: each
        pure functions `legal`, `describe` and `decide` (games/engines/orders.py)."""
        ...

    def public_action(self, state: State, seat: int, action: Action) -> Action | None:
        """The form of `action` other seats may see while the game runs.

        ``state`` is the state *before* the action.  Return None when the
        whole action is public; otherwise a redacted copy (e.g. a face-down
        card choice without the cards).
        """
        ...
