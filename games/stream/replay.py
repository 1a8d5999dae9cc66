"""Which events count, and folding them through an engine.  No database here.

Undo semantics: an `undo` event at seq U with `to_seq` T makes the stream look
as it did at T; events T+1..U stay in the log but are inert.  Seen as a tree,
every event's parent is the event before it, except an undo, whose parent is
T.  The live events are the path from the head back to `created`.  Undoing to
a point inside an earlier undone stretch therefore restores history as it was
then (an undo of an undo is a redo).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping
from typing import Any

from games.engines.base import Engine, State

# Event kinds that change engine state; the rest (clock, note, ...) do not.
ENGINE_KINDS = frozenset({"action", "timeout", "resign"})
# The table's talk: never engine state, and never made inert by an undo (an
# undo takes back moves, not what was said), so it counts wherever it stands
# in the tree.  Nor does it make a seat's view of the game stale: a move
# naming the seq before it still applies (games.services.common.current_seq).
TALK_KINDS = frozenset({"message"})


def live_ranges(head: int, undos: Mapping[int, int]) -> list[tuple[int, int]]:
    """The live path from `head` back to seq 1 as ascending inclusive ranges.

    `undos` maps an undo event's seq to its `to_seq`.  There is one range per
    live undo plus one, so this stays cheap for streams of any length.
    """
    undo_seqs = sorted(undos)
    ranges: list[tuple[int, int]] = []
    seq = head
    while seq >= 1:
        i = bisect.bisect_right(undo_seqs, seq) - 1
        if i < 0:
            ranges.append((1, seq))
            break
        undo_seq = undo_seqs[i]
        ranges.append((undo_seq, seq))
        seq = undos[undo_seq]
    ranges.reverse()
    return ranges


def is_live(seq: int, ranges: list[tuple[int, int]]) -> bool:
    return any(lo <= seq <= hi for lo, hi in ranges)


def apply_event(
    engine: Engine,
    state: State,
    kind: str,
    seat: int | None,
    payload: dict,
    recorded: bool = False,
) -> State:
    """The engine state after one live event; `recorded`: its action was
    judged legal when the event was appended (EngineBase.apply_recorded)."""
    if kind in ("action", "timeout"):
        play = getattr(engine, "apply_recorded", engine.apply) if recorded else engine.apply
        return play(state, seat, payload["action"])
    if kind == "resign":
        after = engine.resign(state, seat)
        return state if after is None else after
    return state


def fold(engine: Engine, state: State, events: Iterable[Any], recorded: bool = False) -> State:
    """Apply events (objects with kind, seat, payload) in order; `recorded`:
    events of this game's own chain, whose actions were checked when they
    were appended, played without their legality listed again."""
    for event in events:
        if event.kind == "created":
            state = event.payload["setup"]
        else:
            state = apply_event(engine, state, event.kind, event.seat, event.payload, recorded)
    return state
