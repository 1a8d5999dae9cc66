"""The companies of 18Cuba as static data: the eight majors, the six minors and
the Ferrocarril Central (draft IV.3-IV.5; names and colours from the gamedata,
which agrees with the draft; the draft's abbreviation SB wins over CS).

Homes come from the map (`hexes.MAJOR_HOMES`), so the two can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..refusals import refuse
from .hexes import HAVANA, HEXES, MAJOR_HOMES

Kind = Literal["major", "minor", "fc"]


@dataclass(frozen=True)
class ShareSplit:
    """How a company's 100% is printed: one director's certificate and the rest."""

    director_percent: int
    ordinary_count: int
    ordinary_percent: int

    @property
    def certificates(self) -> int:
        return self.ordinary_count + (1 if self.director_percent else 0)


@dataclass(frozen=True)
class Company:
    sym: str
    name: str
    kind: Kind
    color: str
    # (hex, city index) of the free home station; None: chosen in play (minors
    # choose a mill city, the FEC any empty slot, the FC starts in Havana).
    home: tuple[str, int] | None
    # Phase from which its shares may be bought (the FEC waits for phase 4).
    available_from_phase: int = 1


MAJOR_SHARES = ShareSplit(director_percent=20, ordinary_count=8, ordinary_percent=10)
MINOR_SHARES = ShareSplit(director_percent=40, ordinary_count=3, ordinary_percent=20)
# The FC's certificates are ten 10% shares without a director (IV.5): it has
# no president and nobody floats it.
FC_SHARES = ShareSplit(director_percent=0, ordinary_count=10, ordinary_percent=10)

FLOAT_PERCENT = 50  # draft VI.8 (the implementation's 60 loses to the draft)

_MAJORS = (
    ("Oe", "FC del Oeste", "brown"),
    ("MS", "FC de Matanzas a Sabanillas", "yellow"),
    ("CVC", "FC Cienfuegos y Villa Clara", "dark green"),
    ("NPP", "FC Nuevitas-Puerto Príncipe", "orange"),
    ("SdC", "FC Santiago de Cuba", "light blue"),
    ("TSS", "FC las Tunas – Sancti Spiritus", "red"),  # noqa: RUF001 (as printed)
    ("StSp", "FC de Sancti Spiritus", "black"),
)
_MINORS = (
    ("HG", "FC de Holguin a Gibara", "purple"),
    ("JU", "FC de Júcaro", "pink"),
    ("HY", "FC Cubano de Hershey", "dark blue"),
    ("DQ", "FC de Dubrocq", "dark yellow"),
    ("CO", "FC del Cobre", "light green"),
    ("SB", "Ferrocarril de Cárdenas a Soledad de Bemba", "brown"),
)

MAJORS: tuple[Company, ...] = (
    *(Company(sym, name, "major", color, MAJOR_HOMES[sym]) for sym, name, color in _MAJORS),
    Company("FEC", "Florida East Coast Railroad", "major", "purple", None, available_from_phase=4),
)
MINORS: tuple[Company, ...] = tuple(
    Company(sym, name, "minor", color, None) for sym, name, color in _MINORS
)
FC = Company("FC", "Ferrocarril Central", "fc", "white", (HAVANA, HEXES[HAVANA].homes["FC"]))
FC_TOKEN_COUNT = 8  # laid on the marked hexes at the start (IV.5)

BY_SYM: dict[str, Company] = {c.sym: c for c in (*MAJORS, *MINORS, FC)}


def shares_of(company: Company) -> ShareSplit:
    return {"major": MAJOR_SHARES, "minor": MINOR_SHARES, "fc": FC_SHARES}[company.kind]


def majors_in_play(part: str | None) -> tuple[str, ...]:
    """The majors of a game: all of them on the full map; four on a part (draft X).

    The draft names them; they are the majors whose home lies in the part and
    not under its red tile (the tests check this against the map), and the
    FEC, which has no printed home, in the east.
    """
    if part is None:
        return tuple(c.sym for c in MAJORS)
    by_part = {"east": ("NPP", "TSS", "SdC", "FEC"), "west": ("Oe", "MS", "CVC", "StSp")}
    if part not in by_part:
        raise ValueError(f"there is no part {part!r} of the map (east or west)")
    return by_part[part]


def in_game(held: Any) -> list[str]:
    """The symbols among `held`'s keys (the state's companies, certificates,
    ...) in the printed order of the charters. Rules that walk the companies
    use this order, never the dict's own: a state read back from JSON (a
    snapshot in PostgreSQL's jsonb, a golden file) may hold its keys in
    another order, and the same moves must give the same state."""
    return [sym for sym in BY_SYM if sym in held]


def symbol(held: Any, word: str) -> str:
    """The symbol among `held`'s keys that `word` names in any case ("stsp"
    is StSp), as a mail line writes it."""
    for sym in in_game(held):
        if sym.lower() == word.lower():
            return sym
    raise refuse("there is no company {word} in this game", word=repr(word))
