"""Scoring a round and the final result.

A building (floors + roof) is worth the sum of its pips and its roof; it
counts for the holder of its top floor's certificate, positive in a complete
row and negative in an incomplete one (unroofed buildings included), doubled
in the mayor's row.  Each stashed cheque is one point.  Ties go to the most
cheques (hand plus stash).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..base import Result, Score, finished, rank
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


def order(keys: Sequence[tuple[int, ...]]) -> dict[str, list[int]]:
    """Seats best first by descending key (ties keep seat order), 1-based places
    (equal keys share a place), and the winners (everyone in first place)."""
    ranking = sorted(range(len(keys)), key=lambda s: tuple(-k for k in keys[s]))
    places = rank(keys)
    return {
        "ranking": ranking,
        "places": places,
        "winners": [s for s in ranking if places[s] == 1],
    }


def score_round(state: State) -> dict[str, Any]:
    """The scores of the round that just ended, with the full breakdown."""
    players = state["players"]
    scores = [0] * players
    rows = [_score_row(state, r, scores) for r in range(len(ROWS))]
    buildings = list(scores)
    for seat in range(players):
        scores[seat] += state["stash"][seat]
    cheques = [m + s for m, s in zip(state["money"], state["stash"], strict=True)]
    # A seat that has left cannot win; it ranks below everyone who stayed.
    stayed = [int(s not in state["resigned"]) for s in range(players)]
    return {
        "round": state["round"],
        "scores": scores,
        "buildings": buildings,
        "stash": list(state["stash"]),
        "rows": rows,
        **order([(stayed[s], scores[s], cheques[s]) for s in range(players)]),
    }


def final_result(state: State) -> dict[str, Any]:
    """Totals over all rounds; two round wins beat any total; ties go to the
    most cheques; seats that left rank last."""
    players = state["players"]
    rounds = state["round_results"]
    totals = [sum(r["scores"][s] for r in rounds) for s in range(players)]
    cheques = [m + s for m, s in zip(state["money"], state["stash"], strict=True)]
    wins = state["wins"]
    stayed = [int(s not in state["resigned"]) for s in range(players)]
    keys = [(stayed[s], int(wins[s] >= 2), totals[s], cheques[s]) for s in range(players)]
    return {
        "scores": totals,
        "cheques": cheques,
        "round_wins": list(wins),
        **order(keys),
        "resigned": list(state["resigned"]),
        "rounds": rounds,
    }


# The reasons a round ends, as the state records them (part of the state, and
# so of its hash), and the short `ended_by` each one is reported as.
ENDED_BY = {
    "two rows complete": "two_rows_complete",
    "no numbered roof left": "no_numbered_roof",
    "no floor cube left and every building roofed": "nothing_to_build",
    "nothing left to choose": "nothing_to_choose",
    "resignation": "resignation",
}


def ended_by(state: State) -> str:
    """Why the game is over: a resignation, two round wins before the last
    round, or else the reason its last round ended."""
    rounds = state["round_results"]
    reason = rounds[-1]["reason"]
    if reason != "resignation" and len(rounds) < state["rounds"]:
        return "two_round_wins"
    return ENDED_BY[reason]


def breakdown(state: State) -> list[dict[str, Score]]:
    """Each seat's points over all rounds by where they came from: its
    buildings row by row (complete rows add, incomplete ones subtract), what
    the mayor's doubling added to (or took from) its buildings, and its
    stashed cheques."""
    parts: list[dict[str, Score]] = [
        {**{f"row {name}": 0 for name in ROWS}, "mayor": 0, "stash": 0}
        for _ in range(state["players"])
    ]
    for scored in state["round_results"]:
        for row in scored["rows"]:
            for building in row["buildings"]:
                owner = building["owner"]
                if owner is None:
                    continue
                points = building["points"]
                single = points // 2 if row["mayor"] else points
                parts[owner][f"row {row['row']}"] += single
                parts[owner]["mayor"] += points - single
        for seat, stash in enumerate(scored["stash"]):
            parts[seat]["stash"] += stash
    return parts


def result(state: State) -> Result | None:
    """The game's result once it is over; the places are the final ones
    worked out when it ended (two round wins, total, cheques, leavers last)."""
    final = state["result"]
    if final is None:
        return None
    return finished(final["places"], final["scores"], ended_by(state), breakdown(state))
