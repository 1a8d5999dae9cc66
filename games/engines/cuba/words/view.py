"""What a seat sees: everything. 18Cuba hides nothing (III.1: "all player
and company holdings and all other game material should be open and clearly
visible"), and its only chance, the playing-order deal, is made at setup and
shown at once. So every seat and every spectator gets the same view.
"""

from __future__ import annotations

from typing import Any

from ...base import State
from .. import scoring
from ..data import market
from ..data.companies import BY_SYM, shares_of
from ..data.variants import BY_ID
from ..rules import shares
from ..rules.cash import player
from . import mapview

PROVISIONAL = (
    "Some 18Cuba data is provisional: the rules draft has gaps, so three "
    "share prices, the narrow-train and wagon prices and counts and the "
    "machine prices come from an unfinished implementation and may change; "
    "the mail contract's amount in each phase is our reading."
)

# A rule the draft states outright that sits badly with another (README,
# "Where a purchase price goes"): shown, not settled silently.
RULES_CONFLICTS = (
    "A share bought from a major's treasury is paid to the bank, as the "
    'draft\'s VI.5 says ("The purchase price is paid to the bank"), so the '
    "company receives nothing for it; yet when the company itself issues the "
    "same share (VII.3.3, VII.3.10) it receives the price. The designer may "
    "mean the company to be paid in both cases.",
)


def view(state: State, seat: int | None) -> dict[str, Any]:
    variant = BY_ID[state["variant"]]
    return {
        "variant": state["variant"],
        "phase": state["phase"],
        "round": _round(state),
        "order": list(state["order"]),
        "priority": state["priority"],
        "certificate_limit": variant.certificate_limit,
        "bank": state["cash"]["bank"],
        "players": [_player(state, s) for s in range(state["players"])],
        "companies": {sym: _company(state, sym) for sym in state["companies"]},
        "market": _market(state),
        "privates": {card: dict(p) for card, p in state["privates"].items()},
        "depot": dict(state["depot"]),
        "pool_trains": list(state["pool"]),
        # the FC runs with the newest (last) of these, else its preprinted 1-train
        "fc_trains": list(state["fc_trains"]),
        "map": mapview.map_view(state["board"], phase=state["phase"]),
        "provisional": [PROVISIONAL, *RULES_CONFLICTS, *mapview.provisional(state["board"])],
        # the bank ran out: the game ends after the set of ORs numbered `set` (IX.1)
        "ending": None if state["ending"] is None else dict(state["ending"]),
        "end": None if state["end"] is None else dict(state["end"]),
        # what the latest move set off without a decision (`rules.log`,
        # said by `words.events`)
        "log": [dict(e) for e in state.get("log") or []],
    }


def _round(state: State) -> dict[str, Any]:
    r = state["round"]
    return {
        "kind": r["kind"],
        "number": r["number"],
        "of": r["of"],
        "index": r["index"],
        "entity": r["entity"],
        "steps": r["steps"],
    }


def _player(state: State, seat: int) -> dict[str, Any]:
    account = player(seat)
    return {
        "seat": seat,
        "cash": state["cash"][account],
        "certificates": shares.certificate_count(state["certificates"], seat),
        "shares": {
            sym: list(held[account])
            for sym, held in state["certificates"].items()
            if account in held
        },
        "privates": sorted(c for c, p in state["privates"].items() if p["owner"] == account),
        "worth": scoring.wealth(state, seat),
    }


def _company(state: State, sym: str) -> dict[str, Any]:
    c = state["companies"][sym]
    company = BY_SYM[sym]
    certs = state["certificates"][sym]
    return {
        "name": company.name,
        "kind": company.kind,
        "color": company.color,
        "director": shares.director(state["certificates"], sym),
        "share_percent": shares_of(company).ordinary_percent,
        "par": None if c["par"] is None else market.CELLS[c["par"]].price,
        "price": None if c["price"] is None else market.CELLS[c["price"]].price,
        "floated": c["floated"],
        "operated": c["operated"],
        "treasury": state["cash"].get(sym, 0),
        "certificates": {holder: list(held) for holder, held in certs.items()},
        "trains": list(c["trains"]),
        "wagons": list(c["wagons"]),
        "machines": list(c["machines"]),
        "tokens_placed": c["tokens_placed"],
        "home": c["home"],
        "cubes": c["cubes"],
    }


def _market(state: State) -> list[dict[str, Any]]:
    """Every cell with its price and the markers on it, top first (IX.1)."""
    return [
        {
            "price": cell.price,
            "par": cell.par,
            "provisional": cell.provisional,
            "markers": list(on),
        }
        for cell, on in zip(market.CELLS, state["market"], strict=True)
    ]
