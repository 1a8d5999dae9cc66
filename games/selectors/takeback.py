"""Undo by consent, as the stream tells it: the open request and its answers.

Requests and answers are events (`takeback_request`, `takeback_answer`) that do
not touch engine state.  A request is open while nothing but answers to it
followed it (and talk, which changes nothing); any other event makes it lapse.  They are written by
`games.services.takeback`.
"""

from __future__ import annotations

from typing import Any

from games.models import Event, Game, Seat
from games.stream import replay

ANSWERS = ("approve", "refuse")
# What may follow an open request without making it lapse.
SKIPPED = (*replay.TALK_KINDS, Event.Kind.TAKEBACK_ANSWER)


def open_request(game: Game, head: int | None = None) -> Event | None:
    """The pending request, if the only events after it are answers to it
    (as the game stood at `head`; default: now).

    One row is read: the latest event that is neither talk nor an answer.
    Each seat answers a request at most once, so nothing is lost by not
    counting the answers here, and a page or a detail asks this at every
    head."""
    events = Event.objects.filter(game=game).exclude(kind__in=SKIPPED)
    if head is not None:
        events = events.filter(seq__lte=head)
    latest = events.order_by("-seq").first()
    return latest if latest is not None and latest.kind == Event.Kind.TAKEBACK_REQUEST else None


def latest_beside_talk(game: Game) -> Event | None:
    """The game's latest event that is not talk."""
    events = Event.objects.filter(game=game, seq__lte=game.seq)
    return events.exclude(kind__in=replay.TALK_KINDS).order_by("-seq").first()


def answers_to(game: Game, request: Event, head: int | None = None) -> dict[int, str]:
    rows = Event.objects.filter(game=game, kind=Event.Kind.TAKEBACK_ANSWER, seq__gt=request.seq)
    if head is not None:
        rows = rows.filter(seq__lte=head)
    return {event.seat: event.payload["answer"] for event in rows}


def other_seats(game: Game, seat: int) -> set[int]:
    active = Seat.objects.filter(game=game, status=Seat.Status.ACTIVE)
    return set(active.values_list("index", flat=True)) - {seat}


def status(
    game: Game, *, head: int | None = None, playing: set[int] | None = None
) -> dict[str, Any] | None:
    """The open request now, or as the game stood at `head`, when the seats
    in `playing` had not left it."""
    request = open_request(game, head)
    if request is None:
        return None
    answers = answers_to(game, request, head)
    others = other_seats(game, request.seat) if playing is None else playing - {request.seat}
    return {
        "request_seq": request.seq,
        "by": request.seat,
        "move_seq": request.payload["move_seq"],
        "answers": {str(seat): answer for seat, answer in answers.items()},
        "waiting_for": sorted(others - set(answers)),
    }
