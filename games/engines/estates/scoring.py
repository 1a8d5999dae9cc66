"""Scoring a round and the final result.

A building (floors + roof) is worth the sum of its pips and its roof; it
counts for the holder of its top floor's certificate, positive in a complete
row and negative in an incomplete one (unroofed buildings included), doubled
in the mayor's row.  Each stashed cheque is one point.  Ties go to the most
cheques (hand plus stash).
"""

from __future__ import annotations

from typing import Any

from .board import requirement, row_complete
from .data import CUBE_COMPANY, CUBE_VALUE, LOTS, ROWS, lot_name

State = dict[str, Any]


def _score_row(state: State, r: int, scores: list[int]) -> dict[str, Any]:
    row = state["board"][r]
    complete = row_complete(row)
    mayor = state["mayor"] == r
    factor = (1 if complete else -1) * (2 if mayor else 1)
    buildings = []
    for lot in range(LOTS):
        floors = row["floors"][lot]
        if not floors:
            continue
        roof = row["roofs"][lot]
        value = sum(CUBE_VALUE[c] for c in floors) + (roof or 0)
        company = CUBE_COMPANY[floors[-1]]
        owner = state["certificates"][company]
        points = factor * value
        if owner is not None:
            scores[owner] += points
        buildings.append(
            {
                "lot": lot_name(r, lot),
                "floors": list(floors),
                "roof": roof,
                "value": value,
                "company": company,
                "owner": owner,
                "points": points,
            }
        )
    return {
        "row": ROWS[r],
        "requirement": requirement(row),
        "complete": complete,
        "mayor": mayor,
        "buildings": buildings,
        "total": sum(b["points"] for b in buildings),
    }


def order(keys: list[tuple[int, ...]]) -> tuple[list[int], list[int]]:
    """Seats best first by descending key (ties keep seat order), and the winners."""
    ranking = sorted(range(len(keys)), key=lambda s: tuple(-k for k in keys[s]))
    best = keys[ranking[0]]
    return ranking, [s for s in ranking if keys[s] == best]


def score_round(state: State) -> dict[str, Any]:
    """The scores of the round that just ended, with the full breakdown."""
    players = state["players"]
    scores = [0] * players
    rows = [_score_row(state, r, scores) for r in range(len(ROWS))]
    buildings = list(scores)
    for seat in range(players):
        scores[seat] += state["stash"][seat]
    cheques = [m + s for m, s in zip(state["money"], state["stash"], strict=True)]
    ranking, winners = order([(scores[s], cheques[s]) for s in range(players)])
    return {
        "round": state["round"],
        "scores": scores,
        "buildings": buildings,
        "stash": list(state["stash"]),
        "rows": rows,
        "ranking": ranking,
        "winners": winners,
    }


def final_result(state: State) -> dict[str, Any]:
    """Totals over all rounds; two round wins beat any total."""
    players = state["players"]
    rounds = state["round_results"]
    totals = [sum(r["scores"][s] for r in rounds) for s in range(players)]
    cheques = [m + s for m, s in zip(state["money"], state["stash"], strict=True)]
    wins = state["wins"]
    keys = [(int(wins[s] >= 2), totals[s], cheques[s]) for s in range(players)]
    ranking, winners = order(keys)
    return {
        "scores": totals,
        "cheques": cheques,
        "round_wins": list(wins),
        "ranking": ranking,
        "winners": winners,
        "rounds": rounds,
    }
