"""The table's talk over the API: `GET`, `POST /api/games/{id}/messages/`.

What each requester is shown of each message is games.selectors.talk's to
say; who may send what is games.services.talk's.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import serializers as s
from games.api.views import game_or_404
from games.models import Event
from games.selectors import moderation, talk, viewers
from games.services.queue import check_report_message
from games.services.talk import (
    check_hide_message,
    check_mute_seat,
    check_send_message,
    check_unmute_seat,
)


class MessagesView(APIView):
    @extend_schema(
        summary="The table's talk as the requester may read it",
        description="Messages after seq `after`, oldest first, up to the requester's head "
        "(`seq`; pass it as `after` next time).  Each is `{seq, created_at, to, from, by, "
        "text}`; one a moderator hid is `{seq, created_at, hidden: true}`; in a game with "
        "full press, one the requester may not read is `{seq, created_at, private: true}` "
        "(in other games it is left out).  Messages from seats the requester muted are "
        "left out.",
        parameters=[OpenApiParameter("after", int), OpenApiParameter("limit", int)],
        responses={200: dict},
    )
    def get(self, request, pk: int):
        game = game_or_404(pk)
        viewer = viewers.viewer_of(game, request.user)
        query = s.validated(s.MessagesQuery, request.query_params)
        found = talk.messages(game, viewer, after=query["after"], limit=query["limit"])
        return Response({"seq": viewer.head, "messages": found})

    @extend_schema(
        summary="Say something: to the table, to one seat, to the spectators, or to yourself",
        request=s.MessageIn,
        responses={201: dict},
    )
    def post(self, request, pk: int):
        game = game_or_404(pk)
        data = s.validated(s.MessageIn, request.data)
        event = check_send_message(
            game, request.user, to=data["to"], text=data["text"], source=Event.Source.API
        )
        # A spectator who sees the game late is not told where the stream stands.
        game.refresh_from_db()
        seen = viewers.viewer_of(game, request.user)
        return Response(
            {"seq": event.seq if event.seq <= seen.head else None},
            status=status.HTTP_201_CREATED,
        )


class ReportMessageView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Report a message to the moderators (anyone who may read it)",
        request=s.ReasonIn,
        responses={201: s.ItemOut},
    )
    def post(self, request, pk: int, seq: int):
        game = game_or_404(pk)
        data = s.validated(s.ReasonIn, request.data)
        item = check_report_message(game, request.user, seq=seq, reason=data["reason"])
        return Response(moderation.queue_item(item), status=status.HTTP_201_CREATED)


class HideMessageView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Moderators: hide a message (its readers see that it was hidden; the audit "
        "still shows it)",
        request=s.ReasonIn,
        responses={201: s.SeqOut},
    )
    def post(self, request, pk: int, seq: int):
        game = game_or_404(pk)
        data = s.validated(s.ReasonIn, request.data)
        event = check_hide_message(game, request.user, seq=seq, reason=data["reason"])
        return Response({"seq": event.seq}, status=status.HTTP_201_CREATED)


class MutesView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(summary="The seats whose messages I do not see here", responses={200: dict})
    def get(self, request, pk: int):
        game = game_or_404(pk)
        viewers.viewer_of(game, request.user)
        return Response({"muted": sorted(talk.muted_seats(game.pk, request.user.pk))})

    @extend_schema(
        summary="Mute a seat's messages for myself", request=s.SeatIn, responses={201: dict}
    )
    def post(self, request, pk: int):
        game = game_or_404(pk)
        data = s.validated(s.SeatIn, request.data)
        check_mute_seat(game, request.user, seat=data["seat"])
        muted = sorted(talk.muted_seats(game.pk, request.user.pk))
        return Response({"muted": muted}, status=status.HTTP_201_CREATED)


class MuteView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(summary="Hear a muted seat again", responses={200: dict})
    def delete(self, request, pk: int, seat: int):
        game = game_or_404(pk)
        check_unmute_seat(game, request.user, seat=seat)
        return Response({"muted": sorted(talk.muted_seats(game.pk, request.user.pk))})
