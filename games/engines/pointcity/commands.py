"""Email text commands: one line per action, and the parser that reads them back.

    flip b3                       turn b3 to its building side
    draw                          take the top two pile cards
    take a1 b1                    take two adjacent market cards (nothing to pay)
    take a2 a3 pay energy2 ingenuity
                                  ... discarding a double energy and an Ingenuity card
    civic 8                       take civic token 8 from the display
    pass                          only when no draft is possible on the final turn

``take`` without ``pay`` picks the payment when there is only one way to pay.
"""

from __future__ import annotations

from ..base import Action, IllegalAction, State
from ..i18n import N_, Words
from .data import STOCK_KINDS
from .market import INDEX
from .payment import canonical
from .turn import take_actions

refuse = Words("pointcity").refuse

# The list of commands; a refusal that ends with it says it whole in its own
# msgid (one sentence for the translator), so those copies must match it.
HELP = N_("commands: flip b3 | draw | take a1 b1 [pay energy energy2 ingenuity] | civic 8 | pass")


def text(action: Action) -> str:
    try:
        return _line(action)
    except (KeyError, TypeError, AttributeError) as exc:
        # A guard, not a refusal: ``text`` only ever sees the engine's own
        # legal actions (a player's action is refused by apply's why_not).
        raise IllegalAction(f"not a Point City action: {action!r}") from exc


def _line(action: Action) -> str:
    kind = action["type"]
    if kind == "flip":
        return f"flip {action['space']}"
    if kind == "take":
        line = f"take {' '.join(action['spaces'])}"
        return f"{line} pay {' '.join(action['pay'])}" if action["pay"] else line
    if kind == "civic":
        return f"civic {action['token']}"
    if kind in ("draw", "pass"):
        return kind
    raise KeyError(kind)


def _space(word: str) -> str:
    if word not in INDEX:
        raise refuse("'{word}' is not a market space (a1 to d4)", word=word)
    return word


def _parse_take(words: list[str], state: State, seat: int) -> Action:
    if len(words) < 2 or (len(words) > 2 and words[2] != "pay"):
        raise refuse("take two market spaces, e.g.: take a1 b1 pay energy")
    spaces = sorted((_space(w) for w in words[:2]), key=INDEX.__getitem__)
    if len(words) > 2:
        unknown = [w for w in words[3:] if w not in STOCK_KINDS]
        if unknown:
            kinds = ", ".join(STOCK_KINDS)
            raise refuse(
                "cannot pay with '{kind}'; card kinds are: {kinds}", kind=unknown[0], kinds=kinds
            )
        return {"type": "take", "spaces": spaces, "pay": canonical(words[3:])}
    options = [a for a in take_actions(state, seat) if a["spaces"] == spaces]
    if len(options) > 1:
        choices = " | ".join(text(a) for a in options)
        raise refuse("say how to pay, one of: {choices}", choices=choices)
    return options[0] if options else {"type": "take", "spaces": spaces, "pay": []}


def parse(line: str, state: State, seat: int) -> Action:
    if not isinstance(line, str):
        raise refuse(HELP)
    words = line.lower().replace(",", " ").split()
    if not words:
        raise refuse(HELP)
    verb, args = words[0], words[1:]
    if verb in ("draw", "pass") and not args:
        return {"type": verb}
    if verb == "flip" and len(args) == 1:
        return {"type": "flip", "space": _space(args[0])}
    if verb == "take":
        return _parse_take(args, state, seat)
    if verb == "civic" and len(args) == 1 and args[0].isdecimal():
        return {"type": "civic", "token": int(args[0])}
    raise refuse(
        "cannot read '{line}'; "
        "commands: flip b3 | draw | take a1 b1 [pay energy energy2 ingenuity] | "
        "civic 8 | pass",
        line=line.strip(),
    )
