"""What each of a director's legal lays would open, in words, for the page
beside each lay's picture (`map.prospects` computes it).  Said only for the
seat's own legal moves, like a gloss; the mail does not say it (a mail
lists a hundred lays in a line each)."""

from __future__ import annotations

from typing import Any

from ...base import State
from ...i18n import N_
from ..data.hexes import HEXES
from ..map.prospects import Opened, lay_prospects
from ..rules import turn
from .names import HEX_KINDS, WORDS, money, place, printed_name

_ = WORDS.gettext
STOP = {"city": N_("city"), "town": N_("town"), "offboard": N_("harbor"), "red": N_("off-board")}


def prospects(state: State, seat: int, actions: list[dict[str, Any]]) -> list[str | None]:
    """For each action, what it opens if it is a lay of the operating
    company's director, else None."""
    lays = [(i, a) for i, a in enumerate(actions) if a.get("type") == "lay"]
    out: list[str | None] = [None] * len(actions)
    if not lays or turn.current(state) is None or not turn.is_director(state, seat):
        return out
    opened = lay_prospects(
        state["board"],
        turn.layer(state),
        state["phase"],
        turn.fc_paid(state, "track"),
        [a for _i, a in lays],
    )
    for (i, _a), lay in zip(lays, opened, strict=True):
        out[i] = said(lay)
    return out


def said(opened: Opened) -> str:
    """ "reaches Bayamo (F21), city $20", "the hex pays $30 instead of $20",
    "reaches no new stop"."""
    parts = []
    if opened.stops:
        stops = ", ".join(_stop(coord, kind, revenue) for coord, kind, revenue in opened.stops)
        parts.append(_("reaches {stops}").format(stops=stops))
    before, after = opened.hex_revenue
    # A first tile's stops are the new stops already said; an upgrade's gain is news.
    if any(before) and after != before:
        parts.append(
            _("the hex pays {after} instead of {before}").format(
                after=_values(after), before=_values(before)
            )
        )
    return "; ".join(parts) if parts else _("reaches no new stop")


def _values(values: tuple[int, ...]) -> str:
    return ", ".join(money(v) for v in values) or money(0)


def _stop(coord: str, kind: str, revenue: int) -> str:
    """ "Bayamo (F21), city $20"; "A10 (harbor) $10", where the place says the kind."""
    word = STOP.get(kind, kind)
    if printed_name(coord) is None and HEX_KINDS.get(HEXES[coord].kind) == word:
        return _("{place} {revenue}").format(place=place(coord), revenue=money(revenue))
    return _("{place}, {kind} {revenue}").format(
        place=place(coord), kind=_(word), revenue=money(revenue)
    )
