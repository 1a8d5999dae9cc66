"""The ratings' API door: a title's leaderboard and a player's ratings."""

from __future__ import annotations

from django.utils.translation import gettext_noop
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import validated
from games.engines import base
from games.errors import NotFound
from games.selectors import profile
from ratings import selectors

PAGE_SIZE = 50
MOST = 200

ENTRY = {
    "type": "object",
    "properties": {
        "rank": {"type": "integer", "description": "1 for the best rating"},
        "username": {"type": "string"},
        "rating": {"type": "number", "description": "mu - 3 sigma, to one decimal"},
        "mu": {"type": "number"},
        "sigma": {"type": "number"},
        "games": {"type": "integer", "description": "rated games in this title"},
    },
    "required": ["rank", "username", "rating", "games"],
}
BOARD = {
    "title": "Leaderboard",
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "title_name": {"type": "string"},
        "count": {"type": "integer", "description": "rated players in this title"},
        "page": {"type": "integer"},
        "page_size": {"type": "integer"},
        "ratings": {"type": "array", "items": ENTRY},
    },
    "required": ["title", "count", "ratings"],
}
PLAYER_RATINGS = {
    "title": "PlayerRatings",
    "type": "object",
    "properties": {
        "username": {"type": "string"},
        "ratings": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "title": {"type": "string"},
                    "title_name": {"type": "string"},
                    "rating": {"type": "number"},
                    "games": {"type": "integer"},
                    "history": {
                        "type": "array",
                        "description": "the latest 50 rated games, newest first; a private "
                        "game's without its id and time",
                        "items": {
                            "type": "object",
                            "properties": {
                                "game": {"type": "integer", "nullable": True},
                                "finished_at": {"type": "string", "nullable": True},
                                "place": {"type": "integer"},
                                "share": {"type": "number"},
                                "before": {"type": "number"},
                                "after": {"type": "number"},
                            },
                        },
                    },
                },
            },
        },
    },
    "required": ["username", "ratings"],
}


class BoardQuery(serializers.Serializer):
    page = serializers.IntegerField(min_value=1, max_value=1_000_000, required=False, default=1)
    page_size = serializers.IntegerField(
        min_value=1, max_value=MOST, required=False, default=PAGE_SIZE
    )


def known_title(title: str) -> str:
    if title not in base.available():
        raise NotFound(gettext_noop("no such title"))
    return title


class LeaderboardView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A title's leaderboard: rated players, best rating first",
        description="The rating is mu - 3 sigma of openskill's Plackett-Luce model "
        "(docs/ratings.md); equal ratings put the older account first.",
        parameters=[
            OpenApiParameter("page", {"type": "integer", "minimum": 1}),
            OpenApiParameter(
                "page_size", {"type": "integer", "minimum": 1, "maximum": MOST},
                description=f"{PAGE_SIZE} unless given",
            ),
        ],
        responses={200: BOARD},
    )  # fmt: skip
    def get(self, request, title: str):
        query = validated(BoardQuery, request.query_params)
        size = query["page_size"]
        board = selectors.leaderboard(
            known_title(title), offset=(query["page"] - 1) * size, limit=size
        )
        return Response({**board, "page": query["page"], "page_size": size})


class PlayerRatingsView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A player's ratings per title, with their latest changes",
        responses={200: PLAYER_RATINGS},
    )
    def get(self, request, username: str):
        user = profile.account(username)
        return Response({"username": user.username, "ratings": selectors.of_player(user)})
