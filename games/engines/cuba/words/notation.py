"""How the map's things are written in a move line, for the steps' lines
that name them (`steps.track`, `steps.token`, `steps.route` declare the
lines themselves):

    lay 57 on B9 rot 1            lay 9 on B13 rot 1 pass B11
    lay 57 on B9 rot 1 with C2    (a commissioner's extra lay, IV.1)
    station B11                   station B7 city 1 pass B11 C14
    run B7:e4-s1 B9:e1-s0 B9:e4-s0 B11:e1-s0

A line is read lower case (`engine._normalise`); a hex and a tile are
written upper case ("B9", "L44"), as the map prints them. Reading checks
only the form; the rules are checked by the steps (`check_lay` etc.).
"""

from __future__ import annotations

from typing import Any

from ...verbs import ABSENT, Slot

# A hex coordinate: a column letter and a row number.
COORD = r"[a-z]\d+"


def _passes_text(passes: Any) -> str:
    return f"pass {' '.join(passes)}" if passes and passes is not ABSENT else ""


def _passes(words: str, state: Any) -> list[str]:
    return [word.upper() for word in words.split()[1:]]


# A hex, as the map prints it.
HEX = Slot(pattern=COORD, read=lambda word, state: word.upper())
# The FC tokens a lay or a station passes and pays for ("pass B11 C14"); none
# is no words, and an action always says them (`[]`).
FC_PASSES = Slot(pattern=rf"pass(?: {COORD})+", write=_passes_text, read=_passes, optional=True)
