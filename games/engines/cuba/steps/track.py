"""VII.3.4-5: the company's one own lay or upgrade of the OR, and the
commissioners' extra lays (IV.1) before or after it.

The rules of a lay are `laying`'s (`legal_lays`, `check_lay`, `lay_tile`;
the first turn's lay on the home, a minor's mill with its station) and
`privates`' for a commissioner's card (`commissioner_lays`,
`commissioner_lay`: the card's tile filter, the funding to its owner). This
step decides when a company lays and pays what a lay costs: the terrain cost
(a major's track on sugar cane) to the bank, $20 per FC token newly passed
into the FC's treasury (`turn.pay_fc_passes`). Only lays the company can
pay for are listed or accepted.

Actions: `{"type": "lay", "hex", "tile", "rotation", "fc_passes"}`, with
`"card": "C3"` for a commissioner's lay; the line `lay 57 on B9 rot 1
[with C3] [pass B11]` (`LAY`).
Not blocking: the director may go on to the station or the run without
laying.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...i18n import N_
from ...verbs import ABSENT, Slot, Verb, line
from ..data.hexes import HEXES
from ..map import laying
from ..map.board import company_hexes
from ..refusals import WORDS, refuse
from ..rules import cash, privates, turn
from ..words.names import HEX_KINDS, capital, fc_fees, fit, place, private
from ..words.notation import FC_PASSES, HEX

_ = WORDS.gettext

NAME = "lay track"

State = dict[str, Any]
Action = dict[str, Any]

_KEYS = {"type", "hex", "tile", "rotation", "fc_passes"}


def active(state: State) -> bool:
    # active for the whole turn, so that a late lay is refused with the
    # reason; `legal` offers lays only while the step is open
    return turn.current(state) is not None


def blocking(state: State) -> bool:
    return False


def _cash(state: State, sym: str) -> int:
    return int(state["cash"].get(sym, 0))


def _affordable(state: State, sym: str, lay: dict[str, Any]) -> bool:
    return int(lay["cost"]) + laying.FC_FEE * len(lay["fc_passes"]) <= _cash(state, sym)


def legal(state: State, seat: int) -> list[Action]:
    record = turn.current(state)
    if record is None or not turn.open_at(state, "track") or not turn.is_director(state, seat):
        return []
    who = turn.layer(state)
    paid = turn.fc_paid(state, "track")
    lays: list[dict[str, Any]] = []
    if not record["laid"]:
        lays += laying.legal_lays(state["board"], who, state["phase"], fc_paid=paid)
    lays += privates.commissioner_lays(state, who, fc_paid=paid)
    return [
        {"type": "lay", **{k: v for k, v in lay.items() if k != "cost"}}
        for lay in lays
        if _affordable(state, who.sym, lay)
    ]


def _check_form(action: Action) -> None:
    keys = set(action)
    if keys != _KEYS and keys != _KEYS | {"card"}:
        raise refuse(
            "a lay is {example}, with {card} for a commissioner's lay",
            example='{"type": "lay", "hex": "B9", "tile": "57", "rotation": 1, "fc_passes": []}',
            card='"card": "C2"',
        )


def apply(state: State, seat: int, action: Action) -> None:
    record = turn.current(state)
    if record is None or not turn.open_at(state, "track"):
        raise refuse("track is laid before the station and the run")
    if not turn.is_director(state, seat):
        raise refuse("only the director of {sym} lays its track", sym=str(record["company"]))
    _check_form(action)
    who = turn.layer(state)
    paid = turn.fc_paid(state, "track")
    coord, tile, rot, passes = (action[k] for k in ("hex", "tile", "rotation", "fc_passes"))
    before = state["board"]
    if "card" in action:
        result = privates.commissioner_lay(
            state, action["card"], who, coord, tile, rot, fc_paid=paid, fc_new=passes
        )
    else:
        if record["laid"]:
            raise refuse("{sym} has made its own lay in this OR already", sym=who.sym)
        board, result = laying.lay_tile(
            before, who, coord, tile, rot, state["phase"], fc_paid=paid, fc_new=passes
        )
        state["board"] = board
        record["laid"] = True
    due = result.cost + result.fc_fee
    if due > _cash(state, who.sym):
        raise refuse(
            "{sym} has ${cash}, not the ${due} this lay costs",
            sym=who.sym,
            cash=_cash(state, who.sym),
            due=due,
        )
    if result.cost:
        state["cash"] = cash.transfer(state["cash"], who.sym, cash.BANK, result.cost)
    turn.pay_fc_passes(state, "track", list(passes))
    _count_mill(state, who.sym, before)
    turn.reach(state, "track")


def _count_mill(state: State, sym: str, before: Any) -> None:
    """A minor's mill is its station, put down with its home tile."""
    if not company_hexes(before, sym) and company_hexes(state["board"], sym):
        state["companies"][sym]["tokens_placed"] += 1


# --- the words of a lay ------------------------------------------------------------


def _lay_says(action: Action, who: str, names: Sequence[str]) -> str:
    fields = {
        "who": who,
        "tile": action["tile"],
        "place": place(action["hex"]),
        "rotation": action["rotation"],
    }
    if action.get("card"):
        text = _("{who} lays tile {tile} in {place}, rotation {rotation}, with {card}").format(
            card=private(action["card"]), **fields
        )
    else:
        text = _("{who} lays tile {tile} in {place}, rotation {rotation}").format(**fields)
    return text + fc_fees(action)


def _lay_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    """The line names the hex already: say what it is."""
    h = HEXES.get(action["hex"])
    kind = HEX_KINDS.get(h.kind, "") if h is not None else ""
    kind = _(kind) if kind else ""
    where = h.name if h is not None and h.name else capital(kind) or action["hex"]
    fields = {"where": where, "tile": action["tile"], "rotation": action["rotation"]}
    if action.get("card"):
        text = _("{where}: tile {tile}, rotation {rotation}, by {card}").format(
            card=action["card"], **fields
        )
    else:
        text = _("{where}: tile {tile}, rotation {rotation}").format(**fields)
    return fit(text)


def _commissioner(card: Any) -> str:
    return f"with {card}" if card and card is not ABSENT else ""


LAY = Verb(
    type="lay",
    fields={
        "hex": HEX,
        # tile names are upper case ("L44"); a mail line may not be
        "tile": Slot(read=lambda word, state: word.upper()),
        "rotation": Slot(pattern="[0-5]", read=lambda word, state: int(word)),
        "fc_passes": FC_PASSES,
        # a commissioner's extra lay (IV.1)
        "card": Slot(
            pattern="with c[1-6]",
            write=_commissioner,
            read=lambda words, state: words.split()[1].upper() if words else ABSENT,
            optional=True,
        ),
    },
    lines=line("lay {tile} on {hex} rot {rotation} {card} {fc_passes}"),
    usage=(
        (
            r"lay(?: .*)?",
            N_(
                "write a lay as: lay <tile> on <hex> rot <0-5> [with <commissioner>]"
                " [pass <hex> ...]"
            ),
        ),
    ),
    says=_lay_says,
    gloss=_lay_gloss,
    group=lambda state, seat, action: _("Track: {place}").format(place=place(action["hex"])),
)

VERBS = (LAY,)
ACTIONS = frozenset(verb.type for verb in VERBS)
