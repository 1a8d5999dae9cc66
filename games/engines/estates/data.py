"""Component data of The Estates / Neue Heimat, loaded and checked at import.

The facts live in ``data.json`` next to this file so that they can be read
and corrected without touching the rules code.  Everything the rules modules
need is exposed as module constants, derived once here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_PATH = Path(__file__).with_name("data.json")


class DataError(ValueError):
    """The shipped component data is inconsistent (a packaging bug)."""


# Component data that is our reading, not a confirmed source (README,
# "Provenance"): the white one-floor lots and the numbered roof values.
PROVISIONAL_KEYS = {"white_lots", "roof_values"}


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise DataError(f"estates data.json: {message}")


def _validate(data: dict[str, Any]) -> None:
    companies = data["companies"]
    _check(len(companies) == len(set(companies)) == 6, "six distinct companies")
    _check(set(data["company_colours"]) == set(companies), "a colour per company")
    _check(data["cube_values"] == [1, 2, 3, 4, 5, 6], "cube values 1-6")
    display = data["display"]
    cubes = len(companies) * len(data["cube_values"])
    _check(display["rows"] * display["cubes_per_row"] <= cubes, "display fits the cubes")
    board = data["board"]
    rows, lots = board["rows"], board["lots_per_row"]
    _check(len(rows) == 3 and all(len(r) == 1 for r in rows), "three one-letter rows")
    _check(1 <= board["min_requirement"] <= board["start_requirement"], "min requirement")
    # A permit sits on the lot just past the requirement, so the longest row
    # must leave one lot for it.
    _check(board["start_requirement"] <= board["max_requirement"] < lots, "max requirement")
    singles = board["single_floor_lots"]
    _check(set(singles) == set(rows), "single-floor lots listed per row")
    _check(all(1 <= n <= lots for r in rows for n in singles[r]), "single lots on the board")
    _check(sum(len(v) for v in singles.values()) == 5, "five single-floor lots")
    _check(data["permits"] == [1, 2, 3], "permits 1, 2 and 3")
    _check(data["start_cheques"] == 12, "12 cheques each")
    for name, edition in data["editions"].items():
        roofs = edition["roofs"]
        numbered = sorted(v for v in roofs if v)
        _check(numbered == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6], f"{name}: 12 numbered roofs")
        _check(all(isinstance(v, int) and 0 <= v <= 6 for v in roofs), f"{name}: roof values")
        _check(isinstance(edition["mayor_moves"], bool), f"{name}: mayor_moves true or false")
        provisional = edition["provisional"]
        _check(
            isinstance(provisional, list) and set(provisional) <= PROVISIONAL_KEYS,
            f"{name}: provisional lists some of {sorted(PROVISIONAL_KEYS)}",
        )


def _load() -> dict[str, Any]:
    with _PATH.open(encoding="utf-8") as handle:
        data = json.load(handle)
    _validate(data)
    return data


DATA = _load()

COMPANIES: list[str] = DATA["companies"]
VALUES: list[int] = DATA["cube_values"]
# A cube is the string "<company>-<value>": immutable, so states share it freely.
CUBES: list[str] = [f"{c}-{v}" for c in COMPANIES for v in VALUES]
CUBE_COMPANY: dict[str, str] = {f"{c}-{v}": c for c in COMPANIES for v in VALUES}
CUBE_VALUE: dict[str, int] = {f"{c}-{v}": v for c in COMPANIES for v in VALUES}

DISPLAY_ROWS: int = DATA["display"]["rows"]
DISPLAY_LEN: int = DATA["display"]["cubes_per_row"]
START_CHEQUES: int = DATA["start_cheques"]

ROWS: list[str] = DATA["board"]["rows"]
ROW_INDEX: dict[str, int] = {r: i for i, r in enumerate(ROWS)}
LOTS: int = DATA["board"]["lots_per_row"]
START_REQ: int = DATA["board"]["start_requirement"]
MIN_REQ: int = DATA["board"]["min_requirement"]
MAX_REQ: int = DATA["board"]["max_requirement"]
# SINGLE[row_index][lot_index] is True on the white lots that take one floor only.
SINGLE: list[list[bool]] = [
    [(n + 1) in DATA["board"]["single_floor_lots"][r] for n in range(LOTS)] for r in ROWS
]

PERMITS: list[int] = DATA["permits"]
SPECIALS: list[str] = [f"permit{v}" for v in PERMITS] + ["cancel", "mayor"]
EDITIONS: dict[str, dict[str, Any]] = DATA["editions"]
NUMBERED_ROOFS: int = 12


def lot_name(row: int, lot: int) -> str:
    """Board row index and lot index (0-based) -> "b3"."""
    return f"{ROWS[row]}{lot + 1}"


def parse_lot(name: Any) -> tuple[int, int] | None:
    """ "b3" -> (1, 2); None for anything that is not a lot on the board."""
    if not isinstance(name, str) or len(name) < 2 or name[0] not in ROW_INDEX:
        return None
    digits = name[1:]
    if not (digits.isascii() and digits.isdigit()) or digits.startswith("0"):
        return None
    lot = int(digits) - 1
    if not 0 <= lot < LOTS:
        return None
    return ROW_INDEX[name[0]], lot
