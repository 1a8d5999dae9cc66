"""Thin HTTP views of the moderators' acts, the players' reports and the
moderators' queue; each act is an event in the game's stream, written by
the service (games.services)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import serializers as s
from games.selectors import moderation, people, viewers
from games.services.abort import check_abort
from games.services.clocks import check_lock, check_unlock
from games.services.notes import check_pin_note
from games.services.queue import check_close, check_report, check_take
from games.services.replacement import check_replace_seat
from games.services.seats import check_force_resign
from games.services.suspension import check_suspend, check_unsuspend


def _created(event) -> Response:
    return Response({"seq": event.seq}, status=status.HTTP_201_CREATED)


class ModeratorAct(APIView):
    permission_classes = [permissions.IsAuthenticated]


def game_act(summary: str, body: type, act: Callable[..., Any]) -> type[ModeratorAct]:
    """The view of one moderator's act on a game: `body` validated, then
    `act(game, moderator, **body)` (a service's check_*); 201 with the
    event's seq."""

    class GameAct(ModeratorAct):
        @extend_schema(summary=summary, request=body, responses={201: s.SeqOut})
        def post(self, request, pk: int):
            game = viewers.game(pk)
            return _created(act(game, request.user, **s.validated(body, request.data)))

    return GameAct


ReplaceSeatView = game_act(
    "Moderators: give a seat to another player (its clock and view go with it)",
    s.ReplaceSeatIn, check_replace_seat,
)  # fmt: skip
ForceResignView = game_act(
    "Moderators: resign a seat for its player", s.SeatReasonIn, check_force_resign
)
AbortView = game_act(
    "Moderators: abort a running game; the reason is shown to its players",
    s.ReasonIn, check_abort,
)  # fmt: skip
NoteView = game_act(
    "Moderators: pin a note to a game (shown in its events and on its page)",
    s.NoteIn, check_pin_note,
)  # fmt: skip
LockView = game_act(
    "Moderators: lock a game while a dispute is open (no moves; clocks paused)",
    s.ReasonIn, check_lock,
)  # fmt: skip
UnlockView = game_act(
    "Moderators: unlock a game (the clocks the lock stopped run again)",
    s.ReasonIn, check_unlock,
)  # fmt: skip


class ReportView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Report a game to the moderators (its players; anyone for a public game)",
        request=s.ReasonIn,
        responses={201: s.ItemOut},
    )
    def post(self, request, pk: int):
        game = viewers.game(pk)
        data = s.validated(s.ReasonIn, request.data)
        item = check_report(game, request.user, reason=data["reason"])
        return Response(moderation.queue_item(item), status=status.HTTP_201_CREATED)


class SuspendView(ModeratorAct):
    @extend_schema(
        summary="Moderators: suspend an account (no login, API, moves or mail)",
        request=s.ReasonIn,
        responses={201: s.SuspensionOut},
    )
    def post(self, request, username: str):
        data = s.validated(s.ReasonIn, request.data)
        user = people.account(username)
        suspension = check_suspend(user, request.user, reason=data["reason"])
        return Response(people.suspension_record(suspension), status=status.HTTP_201_CREATED)


class UnsuspendView(ModeratorAct):
    @extend_schema(
        summary="Moderators: lift an account's suspension",
        request=s.OptionalReasonIn,
        responses={200: s.SuspensionOut},
    )
    def post(self, request, username: str):
        data = s.validated(s.OptionalReasonIn, request.data)
        user = people.account(username)
        suspension = check_unsuspend(user, request.user, reason=data["reason"])
        return Response(people.suspension_record(suspension))


class QueueView(ModeratorAct):
    @extend_schema(
        summary="Moderators: the queue of flagged, broken and reported games",
        parameters=[OpenApiParameter("state", str, enum=["open", "taken", "closed"])],
        responses={200: s.QueueOut},
    )
    def get(self, request):
        query = s.validated(s.QueueQuery, request.query_params)
        return Response({"items": moderation.moderation_queue(request.user, query.get("state"))})


class TakeItemView(ModeratorAct):
    @extend_schema(
        summary="Moderators: take an open item (with an optional note)",
        request=s.ItemNoteIn,
        responses={200: s.ItemOut},
    )
    def post(self, request, item: int):
        data = s.validated(s.ItemNoteIn, request.data)
        return Response(moderation.queue_item(check_take(item, request.user, note=data["note"])))


class CloseItemView(ModeratorAct):
    @extend_schema(
        summary="Moderators: close an open or taken item, with a note",
        request=s.ItemNoteIn,
        responses={200: s.ItemOut},
    )
    def post(self, request, item: int):
        data = s.validated(s.ItemNoteIn, request.data)
        return Response(moderation.queue_item(check_close(item, request.user, note=data["note"])))
