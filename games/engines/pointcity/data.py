"""Component data: loaded from cards.json next to this module and validated at import.

The card list is unofficial (see README.md, Provenance), so everything the rules
need from a card lives in the data file: correcting a card is a data change only.
Validation is strict so a bad edit fails loudly at import, not mid-game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).with_name("cards.json")

RESOURCES: tuple[str, ...] = ("community", "economy", "energy", "ecology", "industry")
WILD = "ingenuity"
BUILDING_KINDS = ("producer", "civic", "points_only")
TOKEN_KINDS = (
    "per_full_set",
    "flat",
    "per_type_with_at_least",
    "per_missing_type",
    "per_unspent_ingenuity_card",
    "per_permanent_resource",
    "per_pair_set",
)
# The stock-card "kinds": what a resource card is worth when paying.  Cards of the
# same kind are interchangeable, which is what keeps the payment plans few.
STOCK_KINDS: tuple[str, ...] = (*RESOURCES, *(r + "2" for r in RESOURCES), WILD)
KIND_INDEX = {kind: i for i, kind in enumerate(STOCK_KINDS)}


class DataError(ValueError):
    """cards.json does not describe a playable Point City set."""


@dataclass(frozen=True)
class Card:
    id: int
    tier: int  # 1-3; 0 for the Ingenuity starting cards
    resource: str  # resource side: one of RESOURCES or WILD
    symbols: int  # 1, or 2 for a double-symbol resource side
    building: str | None  # producer / civic / points_only; None for starting cards
    cost: dict[str, int]
    points: int
    produces: str | None
    name: str
    first_player: bool = False

    @property
    def stock_kind(self) -> str:
        return self.resource if self.symbols == 1 else f"{self.resource}{self.symbols}"

    @property
    def kind_index(self) -> int:
        """Position of the resource side in STOCK_KINDS (for counting vectors)."""
        return KIND_INDEX[self.stock_kind]

    @property
    def cost_vector(self) -> tuple[int, ...]:
        return tuple(self.cost.get(r, 0) for r in RESOURCES)


@dataclass(frozen=True)
class Token:
    id: int
    kind: str
    params: dict[str, Any]
    text: str


def _fail(message: str) -> None:
    raise DataError(f"pointcity cards.json: {message}")


def _card(raw: dict[str, Any]) -> Card:
    card = Card(
        id=raw["id"],
        tier=raw["tier"],
        resource=raw["resource"],
        symbols=raw["symbols"],
        building=raw["building"],
        cost=dict(raw["cost"]),
        points=raw["points"],
        produces=raw["produces"],
        name=raw["name"],
    )
    where = f"card {card.id}"
    if card.tier not in (1, 2, 3):
        _fail(f"{where}: tier {card.tier}")
    if card.resource not in (*RESOURCES, WILD) or card.symbols not in (1, 2):
        _fail(f"{where}: resource side {card.resource} x{card.symbols}")
    if card.resource == WILD and card.symbols != 1:
        _fail(f"{where}: an Ingenuity side has one symbol")
    if card.building not in BUILDING_KINDS:
        _fail(f"{where}: building kind {card.building}")
    if not card.cost or any(r not in RESOURCES or n <= 0 for r, n in card.cost.items()):
        _fail(f"{where}: cost {card.cost}")
    if (card.building == "producer") != (card.produces in RESOURCES):
        _fail(f"{where}: only producers produce, and they produce a resource")
    if card.building == "civic" and card.points:
        _fail(f"{where}: civic buildings print no points")
    return card


def _tokens(raw: list[dict[str, Any]]) -> dict[int, Token]:
    tokens = {t["id"]: Token(t["id"], t["kind"], dict(t["params"]), t["text"]) for t in raw}
    if len(tokens) != 22 or len(raw) != 22:
        _fail("there are 22 civic tokens")
    for token in tokens.values():
        if token.kind not in TOKEN_KINDS or not isinstance(token.params.get("points"), int):
            _fail(f"token {token.id}: kind {token.kind} / params {token.params}")
        named = token.params.get("resources", [token.params.get("resource", RESOURCES[0])])
        if any(r not in RESOURCES for r in named):
            _fail(f"token {token.id}: unknown resource in {token.params}")
    return tokens


def _check_setup(raw: dict[str, Any], tiers: dict[int, int]) -> None:
    """Each count must leave an even pile so every player gets the same turns."""
    for players in ("1", "2", "3", "4"):
        entry = raw["setup"][players]
        removed = entry["remove_per_tier"]
        if len(removed) != 3 or any(not 0 <= removed[t] <= tiers[t + 1] for t in range(3)):
            _fail(f"setup {players}: remove_per_tier {removed}")
        deck = sum(tiers.values()) - sum(removed)
        takers = max(2, int(players))  # solo: the automated opponent takes turns too
        if deck - 16 != 2 * (raw["turns_per_player"] * takers - 1):
            _fail(f"setup {players}: a deck of {deck} does not give equal turns")
        if not 0 < entry["civic_tokens_shown"] <= 22:
            _fail(f"setup {players}: civic tokens shown")


def load(path: Path = DATA_FILE) -> dict[str, Any]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    if tuple(raw["resources"]) != RESOURCES or raw["wild"] != WILD:
        _fail("resource list changed; the engine names five resources and Ingenuity")
    cards = [_card(c) for c in raw["cards"]]
    by_id = {c.id: c for c in cards}
    if len(by_id) != len(cards) or sorted(by_id) != list(range(1, len(cards) + 1)):
        _fail("card ids must run 1..N without gaps")
    tiers = {t: sum(1 for c in cards if c.tier == t) for t in (1, 2, 3)}
    if {str(t): n for t, n in tiers.items()} != raw["tiers"] or len(cards) != 160:
        _fail(f"tier sizes {tiers} disagree with {raw['tiers']}")
    for start in raw["starting_cards"]:
        by_id[start["id"]] = Card(
            id=start["id"],
            tier=0,
            resource=start["resource"],
            symbols=start["symbols"],
            building=None,
            cost={},
            points=0,
            produces=None,
            name="Ingenuity starting card",
            first_player=start["first_player"],
        )
    starts = [s["id"] for s in raw["starting_cards"]]
    if (
        len(starts) != 4
        or starts[0] != 161
        or sum(s["first_player"] for s in raw["starting_cards"]) != 1
    ):
        _fail("four starting cards 161-164, the first-player mark on 161")
    _check_setup(raw, tiers)
    return {"raw": raw, "cards": by_id, "tokens": _tokens(raw["civic_tokens"]), "tiers": tiers}


_DATA = load()
CARDS: dict[int, Card] = _DATA["cards"]
TOKENS: dict[int, Token] = _DATA["tokens"]
DECK_IDS: tuple[int, ...] = tuple(i for i, c in CARDS.items() if c.tier)
STARTING_IDS: tuple[int, ...] = tuple(i for i, c in CARDS.items() if not c.tier)
FIRST_PLAYER_CARD: int = next(i for i in STARTING_IDS if CARDS[i].first_player)
SETUP: dict[int, dict[str, Any]] = {int(k): v for k, v in _DATA["raw"]["setup"].items()}
TURNS_PER_PLAYER: int = _DATA["raw"]["turns_per_player"]
FINAL_MARKET_CARDS: int = _DATA["raw"]["final_market_cards"]
SOLO: dict[str, Any] = _DATA["raw"]["solo"]
TOTAL_CARDS = len(CARDS)  # 160 + 4 starting cards
# Hot-path lookups for listing payment plans, by card id.
KIND_OF: dict[int, int] = {i: c.kind_index for i, c in CARDS.items()}
COST_OF: dict[int, tuple[int, ...]] = {i: c.cost_vector for i, c in CARDS.items()}
