"""Text commands for email: one line per action, and back.

``parse(text(a)) == a`` for every legal action.  Seats are named by their
number (0 is the first seat) because ``text`` sees only the action, not the
players' names.  Cards are written by code (0, 1, 2p, 2d, 3c, 3t, 4w, 4a, 5-9)
or by key (siesta, debris, black-market, ...); buildings as B<id>.
"""

from __future__ import annotations

import re
from typing import Any

from ..base import IllegalAction, State
from ..i18n import Words
from . import data
from .order import arrange

Action = dict[str, Any]

refuse = Words("havana").refuse

SIMPLE = {
    "refreshment": "refreshment",
    "debris": "debris",
    "worker": "worker",
    "architect": "architect",
    "black_market": "black market",
    "pesos": "pesos",
}
SIMPLE_PARSE = {v: k for k, v in SIMPLE.items()} | {"black-market": "black_market"}
PAY_NAMES = {"workers": "worker", "pesos": "peso"}
PAY_PARSE = {
    "red": "red",
    "yellow": "yellow",
    "blue": "blue",
    "brown": "brown",
    "gray": "gray",
    "grey": "gray",
    "worker": "workers",
    "workers": "workers",
    "peso": "pesos",
    "pesos": "pesos",
}


def _amount(field: str, n: int) -> str:
    name = PAY_NAMES.get(field, field)
    if n == 1:
        return name
    return f"{n}{name}s" if field in PAY_NAMES else f"{n}{name}"


def text(action: Action) -> str:
    kind = action.get("type")
    if kind in SIMPLE:
        return SIMPLE[kind]
    if kind == "choose":
        return "choose " + " ".join(action["cards"])
    if kind == "replace":
        return f"play {action['card']} on {action['cover']}"
    if kind == "skip":
        return f"skip {action['card']}"
    if kind == "conserve":
        return f"conserve B{action['building']}"
    if kind == "tax":
        taken = sorted(action["take"].items(), key=lambda item: int(item[0]))
        parts = [f"{s} {what}" for s, what in taken]
        return " ".join(["tax", *parts])
    if kind == "steal_pesos":
        return f"steal pesos {_who(action['victim'])}"
    if kind == "steal_cubes":
        return " ".join(["steal cubes", _who(action["victim"]), *action["cubes"]])
    if kind == "mama":
        return " ".join(["mama", *action["cubes"]])
    if kind == "buy":
        pay = [_amount(f, action["pay"][f]) for f in data.COST_FIELDS if action["pay"].get(f)]
        return " ".join([f"buy B{action['building']} pay", *pay])
    if kind == "end":
        return "end turn"
    # A guard, not a refusal: ``text`` only ever sees the engine's own legal
    # actions (why_not catches this for an action a player sent).
    raise IllegalAction(f"unknown action type {kind!r}")


def _who(victim: int | None) -> str:
    return "nobody" if victim is None else str(victim)


# --- parsing -----------------------------------------------------------------


def _card(token: str) -> str:
    if token in data.CARD_BY_CODE:
        return token
    if token in data.CARD_BY_KEY:
        return data.CARD_BY_KEY[token]["code"]
    same = [c for c in data.CARDS if str(c["value"]) == token]
    if same:
        # Each shared value has two cards (2p/2d, 3c/3t, 4w/4a).
        names = [f"{c['code']} ({c['key']})" for c in same]
        raise refuse(
            "card {token} is ambiguous: write {first} or {second}",
            token=token,
            first=", ".join(names[:-1]),
            second=names[-1],
        )
    raise refuse("unknown card {token}", token=repr(token))


def _seat(token: str, state: State) -> int:
    if token.isdigit() and int(token) < state["players"]:
        return int(token)
    last = state["players"] - 1
    raise refuse(
        "unknown seat {token}: name a seat by its number, 0 to {last}",
        token=repr(token),
        last=last,
    )


def _building(token: str) -> int:
    match = re.fullmatch(r"b?(\d+)", token)
    if not match:
        raise refuse("unknown building {token}: write it as B<number>, e.g. B7", token=repr(token))
    return int(match.group(1))


def _colours(tokens: list[str]) -> list[str]:
    out = []
    for token in tokens:
        colour = "gray" if token == "grey" else token
        if colour not in data.CUBES:
            raise refuse("unknown cube colour {token}", token=repr(token))
        out.append(colour)
    return sorted(out, key=data.CUBES.index)


def _pay(tokens: list[str]) -> dict[str, int]:
    pay: dict[str, int] = {}
    for token in tokens:
        match = re.fullmatch(r"(\d*)([a-z]+)", token)
        if not match or match.group(2) not in PAY_PARSE:
            example = "red 2yellow 5gray worker 3pesos"
            raise refuse(
                "cannot read payment {token}: write e.g. {example}",
                token=repr(token),
                example=example,
            )
        field = PAY_PARSE[match.group(2)]
        pay[field] = pay.get(field, 0) + int(match.group(1) or 1)
    return {f: pay[f] for f in data.COST_FIELDS if pay.get(f)}


def _parse_tax(rest: list[str], state: State) -> Action:
    if len(rest) % 2:
        raise refuse(
            "tax takes pairs: a seat and worker or a cube colour, e.g. tax 1 worker 3 red"
        )
    take = {}
    for seat_token, what in zip(rest[::2], rest[1::2], strict=True):
        what = "gray" if what == "grey" else what
        if what != "worker" and what not in data.CUBES:
            raise refuse("tax takes a worker or a cube colour, not {what}", what=repr(what))
        take[str(_seat(seat_token, state))] = what
    return {"type": "tax", "take": take}


def _parse_steal(rest: list[str], state: State) -> Action:
    if len(rest) < 2 or rest[0] not in ("pesos", "cubes", "materials"):
        raise refuse("write steal pesos <seat> or steal cubes <seat> <colours>")
    victim = None if rest[1] == "nobody" else _seat(rest[1], state)
    if rest[0] == "pesos":
        if len(rest) != 2:
            raise refuse("steal pesos takes only a seat number")
        return {"type": "steal_pesos", "victim": victim}
    return {"type": "steal_cubes", "victim": victim, "cubes": _colours(rest[2:])}


def parse(line: str, state: State, seat: int) -> Action:
    if not isinstance(line, str):
        raise refuse("a command must be text")
    words = line.lower().replace(",", " ").split()
    if not words:
        raise refuse("empty command")
    joined = " ".join(words)
    if joined in SIMPLE_PARSE:
        return {"type": SIMPLE_PARSE[joined]}
    head, rest = words[0], words[1:]
    if head in ("end", "done", "pass") and rest in ([], ["turn"]):
        return {"type": "end"}
    if head == "choose" and len(rest) == 2:
        return {"type": "choose", "cards": arrange([_card(rest[0]), _card(rest[1])])}
    if head == "play" and len(rest) == 3 and rest[1] == "on":
        return {"type": "replace", "card": _card(rest[0]), "cover": _card(rest[2])}
    if head == "skip" and len(rest) == 1:
        return {"type": "skip", "card": data.CARD_BY_CODE[_card(rest[0])]["key"]}
    if head == "conserve" and len(rest) == 1:
        return {"type": "conserve", "building": _building(rest[0])}
    if head == "tax":
        return _parse_tax(rest, state)
    if head == "steal":
        return _parse_steal(rest, state)
    if head == "mama":
        return {"type": "mama", "cubes": _colours(rest)}
    if head == "buy" and rest:
        tokens = rest[1:]
        if tokens and tokens[0] == "pay":
            tokens = tokens[1:]
        return {"type": "buy", "building": _building(rest[0]), "pay": _pay(tokens)}
    raise refuse("cannot read {line}; reply 'help' for the list of moves", line=repr(line.strip()))
