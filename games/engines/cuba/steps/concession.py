"""The concession draft (draft IV.2, VI.6): in playing order each player may
choose one concession per turn, paying its cost to the bank, or refuse
(pass); the table goes round as many times as the variant gives turns
(`variants.Variant.concessions_per_player`). Unchosen concessions leave the
game when the draft ends.

Round data (`state["round"]["steps"]["concessions"]`):
    turns    the seats still to choose, in order; the first is to act
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...i18n import N_
from ...verbs import Slot, Verb, line
from ..data.variants import BY_ID
from ..refusals import WORDS, refuse
from ..rules import cash, privates
from ..words.names import fit, private
from . import PASS

_ = WORDS.gettext

NAME = "choose a concession"
KEY = "concessions"

State = dict[str, Any]
Action = dict[str, Any]


def begin(state: State) -> None:
    """Turns round the table in the (new) playing order, once per concession
    a player may take."""
    rounds = BY_ID[state["variant"]].concessions_per_player
    state["round"]["steps"][KEY] = {"turns": list(state["order"]) * rounds}
    _show_turn(state)


def over(state: State) -> bool:
    # No setup gives more turns than there are concessions.
    return not _data(state)["turns"]


def finish(state: State) -> None:
    """Unchosen concessions are out of the game."""
    for card in left(state):
        state["privates"][card]["out"] = True


def left(state: State) -> list[str]:
    return [
        c.card
        for c in privates.CONCESSIONS
        if state["privates"][c.card]["owner"] is None and not state["privates"][c.card]["out"]
    ]


def _data(state: State) -> dict[str, Any]:
    return state["round"]["steps"][KEY]


def _show_turn(state: State) -> None:
    turns = _data(state)["turns"]
    state["round"]["entity"] = cash.player(turns[0]) if turns else None


def active(state: State) -> bool:
    return state["round"]["kind"] == "concessions" and not over(state)


def blocking(state: State) -> bool:
    return True


def legal(state: State, seat: int) -> list[Action]:
    if not active(state) or _data(state)["turns"][0] != seat:
        return []
    money = state["cash"][cash.player(seat)]
    return [
        {"type": "choose", "card": card}
        for card in left(state)
        if privates.CONCESSION_BY_CARD[card].cost <= money
    ] + [{"type": "pass"}]


def apply(state: State, seat: int, action: Action) -> None:
    if not active(state):
        raise refuse("the concession draft is over")
    turns = _data(state)["turns"]
    if turns[0] != seat:
        raise refuse("it is not your turn to choose a concession")
    if action["type"] == "choose":
        privates.take_concession(state, seat, action.get("card"))
    turns.pop(0)
    _show_turn(state)


# --- the words of a choice ----------------------------------------------------


def _choose_says(action: Action, who: str, names: Sequence[str]) -> str:
    return _("{who} chooses concession {card}").format(who=who, card=private(action["card"]))


def _choose_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    return fit(private(action["card"]))


CHOOSE = Verb(
    type="choose",
    fields={"card": Slot(read=lambda word, state: word.upper())},
    lines=line("choose {card}"),
    usage=((r"choose(?: .*)?", N_("a choice reads: choose M3")),),
    says=_choose_says,
    gloss=_choose_gloss,
    group=N_("Concessions"),
)

VERBS = (CHOOSE, PASS)
ACTIONS = frozenset(verb.type for verb in VERBS)
