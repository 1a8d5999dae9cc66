"""What the web pages show, read through the same selectors as the API.

Every page of a game is built from `shown.game_detail` (or the view at an
earlier seq for the replay) and `history.events`, for the viewer that
`viewers.viewer_of` decides: a page can show no more than the API would.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings

import boards
from games.engines import base
from games.models import Event, Game, Press, Seat
from games.selectors import history, narration, shown, talk, viewers
from games.selectors import orders as orders_selected
from games.selectors.takeback import latest_beside_talk
from games.stream import store
from games.stream.lru import LRU
from web import moves

LOG_LINES = 40

# A drawn board is a pure function of the stream up to the seq shown and the
# seat (the head hash fixes the stream), so it is drawn once per position and
# viewer, like the views `shown.seen_at` keeps.
_boards = LRU(settings.CORREO_STATE_CACHE_SIZE)


@dataclass
class GamePage:
    """A game as one viewer sees it, at their head or at an earlier seq."""

    game: Game
    seats: list[Seat]
    viewer: viewers.Viewer
    at: int  # the seq shown: the viewer's head, or earlier in a replay

    @property
    def replaying(self) -> bool:
        return self.at < self.viewer.head


def page_for(pk: int, user, at: int | None = None) -> GamePage:
    """The viewer's page of game `pk`; `at` (clamped to what they may see)
    picks an earlier seq for the replay."""
    game, seats = viewers.game_with_seats(pk)
    viewer = viewers.viewer_of(game, user, seats)
    shown = viewer.head if at is None else max(1, min(at, viewer.head))
    return GamePage(game=game, seats=seats, viewer=viewer, at=shown)


def etag(page: GamePage) -> str:
    return shown.etag(page.game, page.viewer)


def names(seats: list[Seat]) -> dict[int, str]:
    return {seat.index: seat.user.username for seat in seats}


def context(page: GamePage) -> dict[str, Any]:
    """Everything the game page draws."""
    game, viewer = page.game, page.viewer
    detail = shown.game_detail(game, viewer, page.seats)
    engine = base.get(game.title)
    who = names(page.seats)
    legal = [] if page.replaying else legal_moves(game, viewer, who)
    actions = [move["action"] for move in legal]
    # A title whose board offers every move itself (18Cuba's map and
    # auction) gets no list beside it; the others' boards offer clicks
    # above the list.
    own = board_controls(game, detail, viewer, legal, who)
    return {
        "game": game,
        "detail": detail,
        "engine": engine,
        "names": who,
        "viewer": viewer,
        "at": page.at,
        "replaying": page.replaying,
        "etag": etag(page),
        "board": board(page, detail, who, actions),
        "board_controls": own,
        "groups": [] if own else moves.groups(legal),
        "controls": []
        if own
        else boards.clickable(game.title, detail["view"], viewer.seat, who, legal),
        "players": players(detail, who),
        "to_act_names": [who.get(seat, "?") for seat in detail["to_act"]],
        "my_deadline": my_deadline(detail, viewer),
        "log": log_lines(game, viewer, engine, who, up_to=page.at, last=LOG_LINES),
        "takeback": takeback_context(detail["takeback"], viewer, who),
        "may_ask_takeback": may_ask_takeback(page, detail),
        "provisional": detail["provisional_note"],
        "result": result_rows(detail["result"], who),
        "talk": talk_context(game, viewer, who),
        "quick_orders": quick_orders(game, viewer, engine, page.replaying),
    }


def quick_orders(game: Game, viewer: viewers.Viewer, engine, replaying: bool) -> list:
    """The kinds of standing order a seat may leave from beside the board
    without filling in a value (a move line aside, which the form takes):
    the same for every seat, whether it has orders or not, so that nothing
    another viewer is sent tells whether it has any."""
    if viewer.seat is None or game.status != Game.Status.ACTIVE or replaying:
        return []
    return [p for p in orders_selected.programme_list(engine)
            if p["kind"] != "play" and not p["required"]]  # fmt: skip


# The talk box shows the latest messages; the API pages through all of them.
TALK_SHOWN = 60


def talk_context(
    game: Game, viewer: viewers.Viewer, who: dict[int, str], **form: Any
) -> dict[str, Any]:
    """The talk box: the latest messages as this viewer reads them (each one
    line, told as the log tells it) and whom they may write to."""
    after = max(0, viewer.head - TALK_SHOWN * 4)
    entries = talk.messages(game, viewer, after=after)[-TALK_SHOWN:]
    seats = narration.seat_names(who)
    return {
        "seq": viewer.head,
        "lines": [_talk_line(entry, seats) for entry in entries],
        "choices": talk_choices(game, viewer, who),
        "max_length": settings.CORREO_MESSAGE_LENGTH,
        "may_report": viewer.user_id is not None,
        "may_hide": viewer.moderator,
        "mutable": _mutable(viewer, who, talk.muted_seats(game.pk, viewer.user_id)),
        **form,
    }


def _talk_line(entry: dict[str, Any], seats: list[str]) -> dict[str, Any]:
    return {
        "seq": entry["seq"],
        "text": talk.line(entry, seats),
        "at": entry["created_at"],
        "when": entry["created_at"][5:16].replace("T", " "),  # MM-DD HH:MM, UTC
        "private": entry.get("private", False),
        # A message one may read, and so report (a moderator: hide).
        "readable": "text" in entry and not entry.get("hidden"),
    }


def _mutable(viewer: viewers.Viewer, who: dict[int, str], muted) -> list[dict[str, Any]]:
    """The seats this viewer may mute or hear again (not their own)."""
    if viewer.user_id is None:
        return []
    return [
        {"seat": seat, "name": name, "muted": seat in muted}
        for seat, name in sorted(who.items())
        if seat != viewer.seat
    ]


def talk_choices(game: Game, viewer: viewers.Viewer, who: dict[int, str]) -> list[tuple[str, str]]:
    """Whom this viewer may write to, as (value, label), as the service
    would allow it (games.services.talk); none for someone logged out."""
    if viewer.user_id is None:
        return []
    if viewer.seat is None:
        choices = [("spectators", "the spectators")]
        if viewer.moderator and game.press != Press.NONE:
            choices.insert(0, ("table", "the table"))
        return choices
    choices = [("table", "the table")] if game.press != Press.NONE else []
    if game.press == Press.FULL:
        choices += [(str(seat), f"{name} (private)") for seat, name in sorted(who.items())
                    if seat != viewer.seat]  # fmt: skip
    return [*choices, ("me", "myself (a note)")]


def board(page: GamePage, detail: dict[str, Any], who: dict[int, str], legal=()):
    game, viewer = page.game, page.viewer

    def draw():
        view = view_at(game, viewer, page.at) if page.replaying else detail["view"]
        return boards.render(game.title, view, viewer.seat, who, actions=legal)

    key = (game.pk, game.seq, game.head_hash, viewer.seat, page.at, len(legal))
    return _boards.get_or_compute(key, draw)


def board_controls(
    game: Game,
    detail: dict[str, Any],
    viewer: viewers.Viewer,
    legal: list[dict[str, Any]],
    who: dict[int, str],
) -> dict[str, Any] | None:
    """The title's own controls for the viewer's legal moves (`boards.own_moves`),
    each with the words the mail gives it, as `legal_moves` already said
    them (no second load of the state, no second gloss); None: the generic
    list."""
    if not legal or not boards.has_own_moves(game.title):
        return None
    said = {moves.encode(move["action"]): move for move in legal}

    def words(key: str) -> Callable[[dict[str, Any]], str | None]:
        return lambda action: said.get(moves.encode(action), {}).get(key)

    return boards.own_moves(
        game.title, detail["view"], viewer.seat, who, [move["action"] for move in legal],
        text=base.get(game.title).text,
        gloss=words("gloss"), group=words("group"), prospect=words("prospect"),
    )  # fmt: skip


def view_at(game: Game, viewer: viewers.Viewer, seq: int) -> dict[str, Any]:
    """What the viewer's seat saw at `seq` (never past their own head)."""
    engine = base.get(game.title)
    state = store.load(game, engine, head=min(seq, viewer.head)).state
    return engine.view(state, viewer.seat)


def legal_moves(game: Game, viewer: viewers.Viewer, who: dict[int, str]) -> list[dict[str, Any]]:
    """The viewer's legal moves with their words as the turn mail says them."""
    return shown.legal_moves_in_words(game, viewer, narration.seat_names(who))


def players(detail: dict[str, Any], who: dict[int, str]) -> list[dict[str, Any]]:
    to_act = set(detail["to_act"])
    return [
        {
            "seat": row["seat"],
            "name": who.get(row["seat"], "?"),
            "status": row["status"],
            "deadline": row["deadline"],
            "to_act": row["seat"] in to_act,
            "you": row["seat"] == detail["your_seat"],
        }
        for row in detail["players"]
    ]


def my_deadline(detail: dict[str, Any], viewer: viewers.Viewer) -> str | None:
    if viewer.seat is None:
        return None
    for row in detail["players"]:
        if row["seat"] == viewer.seat and viewer.seat in detail["to_act"]:
            return row["deadline"] or detail["deadline"]
    return None


def may_ask_takeback(page: GamePage, detail: dict[str, Any]) -> bool:
    """Offer "take back my move" only when the latest event is my own move
    (the service refuses anything else); whether the title lets that move be
    taken back is the service's answer to give."""
    game, viewer = page.game, page.viewer
    if viewer.seat is None or page.replaying or detail["takeback"] is not None:
        return False
    if game.status != Game.Status.ACTIVE:
        return False
    last = latest_beside_talk(game)
    return last is not None and (last.kind, last.seat) == (Event.Kind.ACTION, viewer.seat)


def takeback_context(
    takeback: dict[str, Any] | None, viewer: viewers.Viewer, who: dict[int, str]
) -> dict[str, Any] | None:
    if takeback is None:
        return None
    return {
        **takeback,
        "by_name": who.get(takeback["by"], "?"),
        "waiting_names": [who.get(seat, "?") for seat in takeback["waiting_for"]],
        "mine_to_answer": viewer.seat in takeback["waiting_for"],
    }


def result_rows(result: dict[str, Any] | None, who: dict[int, str]) -> dict[str, Any] | None:
    """The one result shape of every title, as rows by place."""
    if not result:
        return None
    places, scores = result["places"], result["scores"]
    rows = [
        {
            "place": places[seat],
            "name": who.get(seat, "?"),
            "score": scores[seat],
            "winner": seat in result["winners"],
            "breakdown": result["breakdown"][seat],
        }
        for seat in sorted(range(len(places)), key=lambda s: (places[s], s))
    ]
    return {
        "rows": rows,
        "ended_by": result["ended_by"].replace("_", " "),
        "opponent": result.get("opponent"),
    }


def log_lines(
    game: Game,
    viewer: viewers.Viewer,
    engine: base.Engine,
    who: dict[int, str],
    *,
    up_to: int,
    last: int | None = None,
) -> list[dict[str, Any]]:
    """The log as the viewer may see it (the API's events), up to `up_to`,
    each line told with the players' names (`games.selectors.narration`)."""
    after = max(0, up_to - last) if last else 0
    shown = viewers.Viewer(
        seat=viewer.seat,
        moderator=viewer.moderator,
        head=up_to,
        delayed=viewer.delayed,
        user_id=viewer.user_id,
    )
    rows = history.events(game, shown, after=after, limit=up_to - after)
    seats = narration.seat_names(who)
    said = _talk_in(game, shown, rows)
    lines = []
    for row in reversed(rows):
        if talk.is_talk(row):
            entry = said.get(row["seq"])
            if entry is None:
                continue  # nothing of it is shown to this viewer (games.selectors.talk)
            text = talk.line(entry, seats)
            effects: list[str] = []
        else:
            text = narration.event_line(engine, row, seats)
            effects = narration.effect_lines(engine, row, seats)
        lines.append({"seq": row["seq"], "text": text, "effects": effects,
                      "kind": row["kind"], "at": row["created_at"]})  # fmt: skip
    return lines


def _talk_in(
    game: Game, viewer: viewers.Viewer, rows: list[dict[str, Any]]
) -> dict[int, dict[str, Any]]:
    """The messages among `rows` as the talk box shows them, by seq."""
    seqs = [row["seq"] for row in rows if talk.is_talk(row)]
    if not seqs:
        return {}
    entries = talk.messages(game, viewer, after=seqs[0] - 1, limit=len(rows))
    return {entry["seq"]: entry for entry in entries}
