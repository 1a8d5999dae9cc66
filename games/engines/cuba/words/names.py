"""How 18Cuba names things in a mail: players, companies, privates, hexes,
cards and money, as the board (`describe`) and the moves' words (each
step's verbs) both say them, so a move's line and the board never name one
thing two ways.

Naming decisions (README, "Mail text"): a player by name; a company by its
symbol and full name where a move is narrated; a commissioner or concession
by its number and the person's name without the title; a hex by its printed
name and coordinate, an unnamed one by its kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...base import Action, State
from ...i18n import N_, Words
from ..data import market
from ..data.companies import BY_SYM
from ..data.hexes import HEXES
from ..rules.privates import COMMISSIONER_BY_CARD, CONCESSION_BY_CARD

WORDS = Words("cuba")
_ = WORDS.gettext
pgettext = WORDS.pgettext

GLOSS_WIDTH = 50
# What an unnamed hex is, as the map prints it (cities all have names).
HEX_KINDS = {"sugar": N_("sugar field"), "harbor": N_("harbor"), "blank": N_("plain")}


def who(account: Any, names: Sequence[str]) -> str:
    """A player account ("p1") by the player's name; anything else as is."""
    if isinstance(account, str) and account[:1] == "p" and account[1:].isdigit():
        seat = int(account[1:])
        if 0 <= seat < len(names):
            return names[seat]
    return str(account)


def seat_name(names: Sequence[str], seat: int) -> str:
    """The player at `seat`, who makes a move a narration tells."""
    return names[seat] if 0 <= seat < len(names) else _("seat {seat}").format(seat=seat)


def company(sym: Any) -> str:
    """ "MS (FC de Matanzas a Sabanillas)", or the bare word if unknown."""
    known = BY_SYM.get(sym) if isinstance(sym, str) else None
    return f"{sym} ({known.name})" if known else str(sym)


def private(card: Any) -> str:
    """A commissioner or concession by its number and printed name."""
    if card in COMMISSIONER_BY_CARD:
        return f"{card} {COMMISSIONER_BY_CARD[card].name}"
    if card in CONCESSION_BY_CARD:
        return f"{card} {short(CONCESSION_BY_CARD[card].name)}"
    return str(card)


def short(name: str) -> str:
    """A concession's holder without the title after the comma."""
    return name.split(",")[0]


def place(coord: Any) -> str:
    """A hex by its printed name and coordinate: "Havana (B7)"; an unnamed
    one by its kind: "B13 (sugar field)"."""
    h = HEXES.get(coord) if isinstance(coord, str) else None
    if h is None:
        return str(coord)
    if not h.name:
        kind = HEX_KINDS.get(h.kind)
        return f"{coord} ({_(kind)})" if kind else str(coord)
    return f"{h.name} ({coord})"


def printed_name(coord: Any) -> str | None:
    """A hex's printed name, None for an unnamed one: a gloss after a line
    that names the coordinate already ("station B11  (Matanzas)")."""
    h = HEXES.get(coord) if isinstance(coord, str) else None
    return h.name if h is not None and h.name else None


def card_name(name: Any) -> str:
    """A train or wagon card as its name is written in a move line ("3",
    "2n", "1-wagon"); a language may wrap it ("den 3-Zug")."""
    if isinstance(name, str) and name.endswith("-wagon"):
        return pgettext("wagon card", "{card}").format(card=name)
    return pgettext("train card", "{card}").format(card=name)


def money(amount: Any) -> str:
    return f"${amount}"


def fit(text: str, width: int = GLOSS_WIDTH) -> str:
    """A gloss cut to the width a list of moves leaves it."""
    return text if len(text) <= width else text[: width - 1] + "…"


def capital(text: str) -> str:
    """The first letter upper case, the rest as it is ("leeres Feld")."""
    return text[:1].upper() + text[1:]


def fc_fees(action: Action) -> str:
    """What a lay or a station pays the FC for passing its tokens, said
    after the move: ", passing the FC in B11 C14"."""
    passes = action.get("fc_passes") or []
    return _(", passing the FC in {hexes}").format(hexes=" ".join(passes)) if passes else ""


def share_gloss(state: State, action: Action) -> str | None:
    """A share bought or sold: the company and the price a share trades at
    (a purchase from the IPO at the par price)."""
    sym = str(action.get("company"))
    if sym not in BY_SYM:
        return None
    name = BY_SYM[sym].name
    ipo = action.get("source") == "ipo"
    price = _share_price(state, sym, "par" if ipo else "price")
    if price is None:
        price = _share_price(state, sym, "price")
    if price is None:
        return fit(name)
    return fit(_("{name}: {price} a share").format(name=name, price=money(price)))


def _share_price(state: State, sym: str, which: str) -> int | None:
    cell = state["companies"].get(sym, {}).get(which)
    return None if cell is None else market.CELLS[cell].price
