"""Setups by player count and difficulty (draft III.2, VI.3, VI.6 and the final
summary table; where the draft contradicts itself the summary table wins, as
`docs/sources/gamedata/18cuba.md` records: 5 and 6 players start with 650, not the
setup table's 480 and 400, and the bank holds 8,000, not 9,000)."""

from __future__ import annotations

from dataclasses import dataclass

BANK = 8000


@dataclass(frozen=True)
class Variant:
    id: str  # the key of the train-count tables
    players: int
    difficulty: str | None  # "easy", "hard", "challenging"; None from 4 players
    starting_cash: int
    certificate_limit: int
    concessions_per_player: int
    # Minors a player may start; from 4 players one each (one concession each).
    minors_per_player: int
    # Only the 2-player easy game uses half the map (draft X).
    partial_map: bool = False


VARIANTS: tuple[Variant, ...] = (
    Variant("2e", 2, "easy", 720, 20, 1, 1, partial_map=True),
    Variant("2h", 2, "hard", 880, 24, 2, 2),
    Variant("2c", 2, "challenging", 1100, 35, 3, 3),
    Variant("3e", 3, "easy", 700, 22, 1, 1),
    Variant("3h", 3, "hard", 850, 25, 2, 2),
    Variant("4", 4, None, 680, 20, 1, 1),
    Variant("5", 5, None, 650, 17, 1, 1),
    Variant("6", 6, None, 650, 15, 1, 1),
)
VARIANT_IDS: tuple[str, ...] = tuple(v.id for v in VARIANTS)
BY_ID: dict[str, Variant] = {v.id: v for v in VARIANTS}


def variant(players: int, difficulty: str | None) -> Variant:
    """The setup for a player count; 2 and 3 players name a difficulty."""
    for v in VARIANTS:
        if v.players == players and v.difficulty == difficulty:
            return v
    raise ValueError(f"no 18Cuba setup for {players} players at {difficulty!r}")
