"""The table's talk over the API: `GET`, `POST /api/games/{id}/messages/`.

What each requester is shown of each message is games.selectors.talk's to
say; who may send what is games.services.talk's.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import serializers as s
from games.api.views import game_or_404
from games.models import Event
from games.selectors import talk, viewers
from games.services.talk import check_send_message


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
