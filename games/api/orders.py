"""Standing orders over the API: `GET`, `POST`, `DELETE /api/games/{id}/orders/`.

Only the seat's own player is shown its orders; anyone else is answered 404,
as for a game with no orders at all.  What an order means is the title's
(games.engines.orders); writing and cancelling are games.services.orders'.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import serializers as s
from games.api.views import game_or_404
from games.models import Event
from games.selectors import orders as selected
from games.services.orders import check_cancel_order, check_write_order
from games.stream.derived import engine_for


class OrdersView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="My standing orders in this game, my latest notes, and what I may program",
        description="`orders`: each standing order `{id, order, says, written_at}`, in the "
        "order they are tried; `notes`: orders dropped (their condition failed or their move "
        "was refused) or lapsed, newest first, `{id, kind, reason, says, at}`; `programmes`: "
        "the kinds of order this title offers `{kind, summary, fields, required}`.  Only "
        "the seat's own player may read them: anyone else gets 404.",
        responses={200: dict, 404: dict},
    )
    def get(self, request, pk: int):
        game = game_or_404(pk)
        seat = selected.owner_seat(game, request.user)
        return Response(selected.for_owner(game, engine_for(game), seat))

    @extend_schema(
        summary="Leave a standing order: played as my move when my turn comes, if it holds",
        request=s.OrderIn,
        responses={201: dict, 400: dict, 403: dict, 409: dict},
    )
    def post(self, request, pk: int):
        game = game_or_404(pk)
        data = s.validated(s.OrderIn, request.data)
        written = check_write_order(
            game, request.user, order=data["order"], source=Event.Source.API
        )
        game.refresh_from_db()
        seat = selected.owner_seat(game, request.user)
        written["standing"] = selected.stands(game, seat, written["id"])
        return Response(written, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Cancel one standing order (?id=N) or all of mine",
        parameters=[OpenApiParameter("id", int)],
        responses={200: dict, 404: dict},
    )
    def delete(self, request, pk: int):
        game = game_or_404(pk)
        query = s.validated(s.OrderCancelQuery, request.query_params)
        cancelled = check_cancel_order(game, request.user, number=query["id"])
        return Response({"cancelled": cancelled})
