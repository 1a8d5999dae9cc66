"""Thin HTTP views of the moderators' acts, the players' reports and the
moderators' queue; each act is an event in the game's stream, written by
the service (games.services)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors
from games.api import serializers as s
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


class ReplaceSeatView(ModeratorAct):
    @extend_schema(
        summary="Moderators: give a seat to another player (its clock and view go with it)",
        request=s.ReplaceSeatIn,
        responses={201: s.SeqOut},
    )
    def post(self, request, pk: int):
        game = selectors.game(pk)
        data = s.validated(s.ReplaceSeatIn, request.data)
        return _created(check_replace_seat(
            game, request.user, seat=data["seat"], username=data["username"],
            reason=data["reason"],
        ))  # fmt: skip


class ForceResignView(ModeratorAct):
    @extend_schema(
        summary="Moderators: resign a seat for its player",
        request=s.SeatReasonIn,
        responses={201: s.SeqOut},
    )
    def post(self, request, pk: int):
        game = selectors.game(pk)
        data = s.validated(s.SeatReasonIn, request.data)
        return _created(
            check_force_resign(game, request.user, seat=data["seat"], reason=data["reason"])
        )


class AbortView(ModeratorAct):
    @extend_schema(
        summary="Moderators: abort a running game; the reason is shown to its players",
        request=s.ReasonIn,
        responses={201: s.SeqOut},
    )
    def post(self, request, pk: int):
        game = selectors.game(pk)
        data = s.validated(s.ReasonIn, request.data)
        return _created(check_abort(game, request.user, reason=data["reason"]))


class NoteView(ModeratorAct):
    @extend_schema(
        summary="Moderators: pin a note to a game (shown in its events and on its page)",
        request=s.NoteIn,
        responses={201: s.SeqOut},
    )
    def post(self, request, pk: int):
        game = selectors.game(pk)
        data = s.validated(s.NoteIn, request.data)
        return _created(check_pin_note(game, request.user, text=data["text"]))


class LockView(ModeratorAct):
    @extend_schema(
        summary="Moderators: lock a game while a dispute is open (no moves; clocks paused)",
        request=s.ReasonIn,
        responses={201: s.SeqOut},
    )
    def post(self, request, pk: int):
        game = selectors.game(pk)
        data = s.validated(s.ReasonIn, request.data)
        return _created(check_lock(game, request.user, reason=data["reason"]))


class UnlockView(ModeratorAct):
    @extend_schema(
        summary="Moderators: unlock a game (the clocks the lock stopped run again)",
        request=s.ReasonIn,
        responses={201: s.SeqOut},
    )
    def post(self, request, pk: int):
        game = selectors.game(pk)
        data = s.validated(s.ReasonIn, request.data)
        return _created(check_unlock(game, request.user, reason=data["reason"]))


class ReportView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Report a game to the moderators (its players; anyone for a public game)",
        request=s.ReasonIn,
        responses={201: s.ItemOut},
    )
    def post(self, request, pk: int):
        game = selectors.game(pk)
        data = s.validated(s.ReasonIn, request.data)
        item = check_report(game, request.user, reason=data["reason"])
        return Response(selectors.queue_item(item), status=status.HTTP_201_CREATED)


class SuspendView(ModeratorAct):
    @extend_schema(
        summary="Moderators: suspend an account (no login, API, moves or mail)",
        request=s.ReasonIn,
        responses={201: s.SuspensionOut},
    )
    def post(self, request, username: str):
        data = s.validated(s.ReasonIn, request.data)
        user = selectors.account(username)
        suspension = check_suspend(user, request.user, reason=data["reason"])
        return Response(selectors.suspension_record(suspension), status=status.HTTP_201_CREATED)


class UnsuspendView(ModeratorAct):
    @extend_schema(
        summary="Moderators: lift an account's suspension",
        request=s.OptionalReasonIn,
        responses={200: s.SuspensionOut},
    )
    def post(self, request, username: str):
        data = s.validated(s.OptionalReasonIn, request.data)
        user = selectors.account(username)
        suspension = check_unsuspend(user, request.user, reason=data["reason"])
        return Response(selectors.suspension_record(suspension))


class QueueView(ModeratorAct):
    @extend_schema(
        summary="Moderators: the queue of flagged, broken and reported games",
        parameters=[OpenApiParameter("state", str, enum=["open", "taken", "closed"])],
        responses={200: s.QueueOut},
    )
    def get(self, request):
        query = s.validated(s.QueueQuery, request.query_params)
        return Response({"items": selectors.moderation_queue(request.user, query.get("state"))})


class TakeItemView(ModeratorAct):
    @extend_schema(
        summary="Moderators: take an open item (with an optional note)",
        request=s.ItemNoteIn,
        responses={200: s.ItemOut},
    )
    def post(self, request, item: int):
        data = s.validated(s.ItemNoteIn, request.data)
        return Response(selectors.queue_item(check_take(item, request.user, note=data["note"])))


class CloseItemView(ModeratorAct):
    @extend_schema(
        summary="Moderators: close an open or taken item, with a note",
        request=s.ItemNoteIn,
        responses={200: s.ItemOut},
    )
    def post(self, request, item: int):
        data = s.validated(s.ItemNoteIn, request.data)
        return Response(selectors.queue_item(check_close(item, request.user, note=data["note"])))
