"""Component data: the action cards and the building list, validated at import.

Both live in JSON files beside this module so that replacing the provisional
building list with the printed one is a data change only.  The validation is
hand-written (no third-party schema library) and fails loudly at import: a
broken data file must never produce a game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent

COLOURED = ("red", "yellow", "blue", "brown")
CUBES = (*COLOURED, "gray")
# Order of the fields of a building cost and of a payment plan.
COST_FIELDS = (*CUBES, "workers", "pesos")
ALL_COST_FIELDS = (*COST_FIELDS, "any_colored")

TOTAL_CUBES = {"red": 10, "yellow": 10, "blue": 10, "brown": 10, "gray": 40}
TOTAL_WORKERS = 15
VP_TARGET = {2: 25, 3: 20, 4: 15}
CENTRE_START_PESOS = 4
CENTRE_START_CUBES = 3
RESUPPLY_PESOS = 3
RESUPPLY_CUBES = 3
ROWS = 2
ROW_LENGTH = 6
REFILL_AT = 2  # a row with this many cards (or fewer) gets 4 from the pile
REFILL_COUNT = 4
HAND_REFILL_AT = 2


class DataError(ValueError):
    """A data file does not match its schema."""


def _load(name: str) -> dict[str, Any]:
    with (HERE / name).open(encoding="utf-8") as handle:
        return json.load(handle)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_cards(doc: dict[str, Any]) -> list[dict[str, Any]]:
    cards = doc.get("cards")
    if not isinstance(cards, list) or len(cards) != 13:
        raise DataError("cards.json: 'cards' must list the 13 cards of one set")
    seen: set[str] = set()
    for card in cards:
        if set(card) != {"code", "value", "key", "name", "kind"}:
            raise DataError(f"cards.json: bad fields in {card!r}")
        if card["kind"] not in ("none", "optional", "mandatory"):
            raise DataError(f"cards.json: bad kind in {card!r}")
        if not _is_int(card["value"]) or not 0 <= card["value"] <= 9:
            raise DataError(f"cards.json: bad value in {card!r}")
        for field in ("code", "key"):
            if card[field] in seen:
                raise DataError(f"cards.json: duplicate {card[field]!r}")
            seen.add(card[field])
    values = sorted(card["value"] for card in cards)
    if values != [0, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9]:
        raise DataError("cards.json: the values must be 0,1,2,2,3,3,4,4,5,6,7,8,9")
    return cards


def validate_building(building: Any) -> dict[str, Any]:
    """Check one building record; returns it in the normalised engine form."""
    if not isinstance(building, dict) or not {"id", "vp", "cost", "architect"} <= set(building):
        raise DataError(f"building needs id, vp, cost, architect: {building!r}")
    bid, vp, cost = building["id"], building["vp"], building["cost"]
    if not _is_int(bid) or bid < 1:
        raise DataError(f"building id must be a positive integer: {building!r}")
    if not _is_int(vp) or not 1 <= vp <= 7:
        raise DataError(f"building {bid}: vp must be 1..7")
    if not isinstance(building["architect"], bool):
        raise DataError(f"building {bid}: architect must be true or false")
    if not isinstance(cost, dict) or not set(cost) <= set(ALL_COST_FIELDS):
        raise DataError(f"building {bid}: cost fields must be among {ALL_COST_FIELDS}")
    if not all(_is_int(n) and n >= 0 for n in cost.values()) or not any(cost.values()):
        raise DataError(f"building {bid}: cost must be non-negative integers, not all zero")
    clean = {field: cost[field] for field in ALL_COST_FIELDS if cost.get(field)}
    return {"vp": vp, "cost": clean, "architect": building["architect"]}


def validate_buildings(records: Any, *, full_set: bool = True) -> dict[str, dict[str, Any]]:
    """The building list as the state stores it: str(id) -> {vp, cost, architect}.

    ``full_set`` asks for the 36 cards of the game; tests pass their own small
    lists with ``full_set=False``.
    """
    if not isinstance(records, list) or not records:
        raise DataError("buildings must be a non-empty list")
    out: dict[str, dict[str, Any]] = {}
    for record in records:
        clean = validate_building(record)
        key = str(record["id"])
        if key in out:
            raise DataError(f"duplicate building id {key}")
        out[key] = clean
    if full_set:
        if len(out) != 36:
            raise DataError("the game has 36 building cards")
        if not any(b["vp"] <= 3 for b in out.values()):
            raise DataError("setup needs buildings worth 1-3 VP")
    return out


CARDS: list[dict[str, Any]] = validate_cards(_load("cards.json"))
CARD_BY_CODE = {card["code"]: card for card in CARDS}
CARD_BY_KEY = {card["key"]: card for card in CARDS}
CARD_CODES = [card["code"] for card in CARDS]  # sorted by value: the hand order

_BUILDINGS_DOC = _load("buildings.json")
if not isinstance(_BUILDINGS_DOC.get("provisional"), bool):
    raise DataError("buildings.json: 'provisional' must be true or false")
BUILDINGS = validate_buildings(_BUILDINGS_DOC.get("buildings"))
PROVISIONAL = _BUILDINGS_DOC["provisional"]


def card_value(code: str) -> int:
    return CARD_BY_CODE[code]["value"]


def card_sort_key(code: str) -> int:
    return CARD_CODES.index(code)
