"""Standing orders as the rules see them: what a seat may program, and what
an order means at the moment the seat comes to act.

A standing order is plain JSON data, `{"kind": K, ...}`, where `K` names one
of the title's programmes (`engine.standing_orders`).  A programme is three
pure functions of the engine, the state and the seat:

- `legal(engine, state, seat, order)`: may this order be written now?  It
  returns the order as it is kept (its fields checked, and what it needs to
  remember filled in: the round it is for, the state it saw), or raises
  IllegalAction with the reason.
- `describe(order)`: the order in words, for its owner's page and mail.
- `decide(engine, state, seat, order, previous)`: called when `seat` is to
  act; what the order does now (a `Decision`): fire an action, wait (it is
  not for this moment), drop (its condition failed: the owner is told why)
  or lapse (the game moved past the round it named).  `previous` is the last
  move before this moment as the seat sees it, or None.

The service (games.services.orders) never reads a title's state: it asks
the programme, and a fired action is checked again by `apply` like any move.
Every title has the generic `play` programme; a title adds its own
(`PROGRAMMES`), and names its rounds for orders (`ORDER_PHASES`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalAction
from .jsondata import canonical_json, same_json
from .protocol import Action, State

Order = dict[str, Any]

FIRE, WAIT, DROP, LAPSE = "fire", "wait", "drop", "lapse"


@dataclass(frozen=True)
class Decision:
    """What an order does when its seat is to act.  A fired order is spent
    unless `done` is False (a programme that stands for a whole round)."""

    verdict: str
    action: Action | None = None
    done: bool = True
    reason: str = ""


def fire(action: Action, *, done: bool = True) -> Decision:
    return Decision(FIRE, action=action, done=done)


def wait() -> Decision:
    return Decision(WAIT)


def drop(reason: str) -> Decision:
    return Decision(DROP, reason=reason)


def lapse(reason: str) -> Decision:
    return Decision(LAPSE, reason=reason)


@dataclass(frozen=True)
class Phases:
    """How a title names its rounds for orders: `key(state)` is where the
    game is, a tuple that only grows as the game goes on; `words(key)` says
    it ("SR 2", "round 3"); `read(text)` is the key of those words, or None."""

    key: Callable[[State], tuple[int, ...]]
    words: Callable[[tuple[int, ...]], str]
    read: Callable[[str], tuple[int, ...] | None]


def numbered(word: str, key: Callable[[State], int]) -> Phases:
    """Rounds named `<word> N` (Havana's and The Estates' rounds)."""
    pattern = re.compile(rf"\s*{re.escape(word)}\s+(\d{{1,4}})\s*", re.IGNORECASE)

    def read(text: str) -> tuple[int, ...] | None:
        found = pattern.fullmatch(text)
        return (int(found.group(1)),) if found else None

    return Phases(key=lambda state: (key(state),), words=lambda k: f"{word} {k[0]}", read=read)


@dataclass(frozen=True)
class Programme:
    """One kind of standing order a title offers.  `fields` names the
    order's own fields and how each is typed (`int`, `str`, `action`,
    `bool`, `cards`, `choice:a|b`), for the forms that write them;
    `required` those that must be given."""

    kind: str
    summary: str
    legal: Callable[[Any, State, int, Order], Order]
    describe: Callable[[Order], str]
    decide: Callable[[Any, State, int, Order, Action | None], Decision]
    fields: Mapping[str, str] = field(default_factory=dict)
    required: tuple[str, ...] = ()


class Unreadable(ValueError):
    """Words that are no value of a field's kind; the message says what is wanted."""


def read_value(kind: str, raw: str) -> Any:
    """A field's value as a person writes it, in a form's input or in a mail
    line's words, by the field's kind (`Programme.fields`).  Both doors read
    with this, so a value means the same by page and by mail; whether it is
    legal is the programme's `legal` to say.  Cards are kept as written
    (Havana's are words like `2p` as well as numbers)."""
    raw = raw.strip()
    if len(raw) > 400:
        raise Unreadable("too long")
    base = kind.split(":")[0]
    if base == "int":
        if not re.fullmatch(r"-?\d{1,9}", raw):
            raise Unreadable("a whole number, please")
        return int(raw)
    if base == "cards":
        words = [word for word in re.split(r"[\s,;]+", raw) if word]
        if len(words) != 2:
            raise Unreadable("two cards as your hand shows them, like 2p 5")
        return words
    if base == "choice":
        options = kind.removeprefix("choice:").split("|")
        if raw not in options:
            raise Unreadable(f"one of {', '.join(options)}")
    return raw


def digest(engine: Any, state: State, seat: int) -> str:
    """What `seat` sees of the game, as 16 hex digits: two states the seat
    cannot tell apart have the same digest."""
    return hashlib.sha256(canonical_json(engine.view(state, seat)).encode()).hexdigest()[:16]


def phase_of(engine: Any, state: State) -> tuple[int, ...] | None:
    phases = getattr(engine, "ORDER_PHASES", None)
    return None if phases is None else phases.key(state)


def _action(value: Any, name: str) -> Action:
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise IllegalAction(f'{name} is an action: an object with a "type"')
    try:
        canonical_json(value)
    except (TypeError, ValueError):
        raise IllegalAction(f"{name} must be plain JSON data") from None
    return value


def only(order: Order, names: tuple[str, ...]) -> None:
    """Refuse fields a programme does not know (a typo must not pass silently)."""
    unknown = sorted(set(order) - {"kind", *names})
    if unknown:
        raise IllegalAction(f"this order has no field {unknown[0]!r}")


# --- the generic order: play action A when it is my turn --------------------------------


def _play_legal(engine: Any, state: State, seat: int, order: Order) -> Order:
    only(order, ("action", "phase", "if_unchanged", "after"))
    kept: Order = {"kind": "play", "action": _action(order.get("action"), "action")}
    if order.get("phase") is not None:
        phases = getattr(engine, "ORDER_PHASES", None)
        if phases is None:
            raise IllegalAction(f"{engine.TITLE} has no rounds to name")
        if not isinstance(order["phase"], str):
            raise IllegalAction("phase is the round's name, as the game says it")
        key = phases.read(order["phase"])
        if key is None:
            raise IllegalAction(f"no round is called {order['phase'][:40]!r}")
        if key < phases.key(state):
            raise IllegalAction(f"the game is past {phases.words(key)}")
        kept["phase"] = list(key)
    if order.get("if_unchanged") not in (None, False, True):
        raise IllegalAction("if_unchanged is true or false")
    if order.get("if_unchanged"):
        kept["digest"] = digest(engine, state, seat)
    if order.get("after") is not None:
        kept["after"] = _action(order["after"], "after")
    return kept


def _play_describe(order: Order) -> str:
    words = f"play {canonical_json(order.get('action'))}"
    if order.get("phase"):
        words += f" in round {'.'.join(str(n) for n in order['phase'])}"
    if order.get("digest"):
        words += ", only if the game stands as when written"
    if order.get("after"):
        words += f", only if the previous move was {canonical_json(order['after'])}"
    return words


def _play_decide(
    engine: Any, state: State, seat: int, order: Order, previous: Action | None
) -> Decision:
    if order.get("phase"):
        now, named = phase_of(engine, state), tuple(order["phase"])
        if now is not None and now < named:
            return wait()
        if now is not None and now > named:
            return lapse(f"the game moved past {engine.ORDER_PHASES.words(named)}")
    if order.get("digest") and order["digest"] != digest(engine, state, seat):
        return drop("the game no longer stands as it did when you wrote this order")
    if order.get("after") is not None and (
        previous is None or not same_json(previous, order["after"])
    ):
        return drop("the previous move was not the one this order waits for")
    return fire(order["action"])


PLAY = Programme(
    kind="play",
    summary="when it is my turn, play this move",
    legal=_play_legal,
    describe=_play_describe,
    decide=_play_decide,
    fields={"action": "action", "phase": "str", "if_unchanged": "bool", "after": "action"},
    required=("action",),
)


# --- the default move: a title's timeout move, every turn --------------------------------


def _default_legal(engine: Any, state: State, seat: int, order: Order) -> Order:
    only(order, ())
    return {"kind": "default"}


def _default_decide(
    engine: Any, state: State, seat: int, order: Order, previous: Action | None
) -> Decision:
    if seat not in engine.to_act(state):
        return wait()
    return fire(engine.timeout_action(state, seat), done=False)


DEFAULT = Programme(
    kind="default",
    summary="take the default move every turn (the move a clock would play)",
    legal=_default_legal,
    describe=lambda order: "take the default move every turn",
    decide=_default_decide,
)


def programmes(engine: Any) -> dict[str, Programme]:
    """The programmes of `engine`'s title: `play`, then the title's own."""
    found = {PLAY.kind: PLAY}
    for programme in getattr(engine, "PROGRAMMES", ()):
        found[programme.kind] = programme
    return found


def write(engine: Any, state: State, seat: int, order: Any) -> Order:
    """The order as it is kept, or IllegalAction: the one door for every programme."""
    if not isinstance(order, dict) or not isinstance(order.get("kind"), str):
        raise IllegalAction('an order is an object with a "kind"')
    programme = programmes(engine).get(order["kind"])
    if programme is None:
        kinds = ", ".join(sorted(programmes(engine)))
        raise IllegalAction(f"{engine.TITLE} has no order {order['kind'][:40]!r} (it has {kinds})")
    for name in programme.required:
        if order.get(name) is None:
            raise IllegalAction(f"this order needs {name}")
    return programme.legal(engine, state, seat, order)


def decide(
    engine: Any, state: State, seat: int, order: Order, previous: Action | None
) -> Decision:
    programme = programmes(engine).get(order.get("kind", ""))
    if programme is None:  # a programme the title no longer offers
        return drop("this kind of order is no longer offered")
    return programme.decide(engine, state, seat, order, previous)


def describe(engine: Any, order: Order) -> str:
    programme = programmes(engine).get(order.get("kind", ""))
    return order.get("kind", "?") if programme is None else programme.describe(order)
