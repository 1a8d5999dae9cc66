"""The Estates' things by name, as the board and the moves both say them.

Cubes are named by their company and pips ("sienna 5"), the companies by
the names in data.json with their colour, the specials as the rules text
names them (permit I-III, the cancel cube, the mayor).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..i18n import N_, Words
from .data import CUBE_COMPANY, CUBE_VALUE, DATA

_ = Words("estates").gettext

ROMAN = {1: "I", 2: "II", 3: "III"}
COLOURS: dict[str, str] = DATA["company_colours"]
# The colours of data.json, for translation where a company is shown.
COLOUR_WORDS = (N_("blue"), N_("green"), N_("gray"), N_("yellow"), N_("red"), N_("purple"))
SPECIAL_NAMES = {
    "permit1": N_("permit I"),
    "permit2": N_("permit II"),
    "permit3": N_("permit III"),
    "cancel": N_("cancel cube"),
    "mayor": N_("mayor"),
}


def cube_name(cube: str) -> str:
    """ "sienna-5" -> "sienna 5"."""
    return f"{CUBE_COMPANY[cube]} {CUBE_VALUE[cube]}"


def piece_name(piece: dict[str, Any]) -> str:
    """A piece in an auction or the last turn, as the table calls it (as an
    object: "auctions ...", "for ...", "keep ...")."""
    kind = piece.get("kind")
    if kind == "cube" and "cube" in piece:
        return _("the {cube} cube").format(cube=cube_name(piece["cube"]))
    if kind == "roof":
        value = piece.get("value")
        if value is None:
            return _("a roof")
        return _("roof {value}").format(value=value) if value else _("a blank roof")
    if kind == "permit":
        return _("permit {roman}").format(roman=ROMAN.get(piece.get("value", 0), "?"))
    if kind == "cancel":
        return _("the cancel cube")
    if kind == "mayor":
        return _("the mayor")
    return _("the piece")


def seat_name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return _("nobody")
