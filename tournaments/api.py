"""The tournaments' API door: thin views over tournaments.services and
tournaments.selectors; every refusal in the usual {"error", "detail"}."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import EmptyIn, Flag, GivenChoice, validated
from tournaments import selectors, services

PAGE_SIZE = 50

SUMMARY = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "title": {"type": "string"},
        "title_name": {"type": "string"},
        "format": {"type": "string", "enum": ["round_robin", "swiss"]},
        "table_size": {"type": "integer"},
        "rounds_planned": {"type": "integer"},
        "round_days": {"type": "integer"},
        "rated": {"type": "boolean"},
        "organiser": {"type": "string"},
        "status": {"type": "string", "enum": ["signup", "running", "finished"]},
        "seed": {"type": "string", "description": "the seed the pairings are drawn from"},
        "entries": {"type": "integer"},
        "created_at": {"type": "string", "format": "date-time"},
        "started_at": {"type": "string", "format": "date-time", "nullable": True},
        "finished_at": {"type": "string", "format": "date-time", "nullable": True},
    },
    "required": ["id", "name", "title", "format", "status"],
}
LIST = {
    "title": "TournamentList",
    "type": "object",
    "properties": {"tournaments": {"type": "array", "items": SUMMARY}},
    "required": ["tournaments"],
}
DETAIL = {
    "title": "Tournament",
    "type": "object",
    "properties": {
        **SUMMARY["properties"],
        "options": {"type": "object"},
        "clock": {"type": "object", "nullable": True},
        "rules": {"type": "string"},
        "players": {"type": "array", "items": {"type": "string"}},
        "rounds": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "number": {"type": "integer"},
                    "deadline": {"type": "string", "format": "date-time"},
                    "finished_at": {"type": "string", "format": "date-time", "nullable": True},
                    "tables": {"type": "array", "items": {"type": "object"}},
                    "byes": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
        "standings": {
            "type": "array",
            "description": "best first: points, Buchholz, first places, rating, sign-up order",
            "items": {
                "type": "object",
                "properties": {
                    "rank": {"type": "integer"},
                    "username": {"type": "string"},
                    "points": {"type": "number"},
                    "buchholz": {"type": "number"},
                    "firsts": {"type": "integer"},
                    "rating": {"type": "number"},
                    "played": {"type": "integer"},
                    "byes": {"type": "integer"},
                    "dropped": {"type": "boolean"},
                    "dropped_in": {"type": "integer", "nullable": True},
                },
            },
        },
        "you": {"type": "object"},
    },
    "required": ["id", "name", "rounds", "standings"],
}


class ListQuery(serializers.Serializer):
    status = GivenChoice(choices=["signup", "running", "finished"], required=False)


class CreateIn(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    title = serializers.CharField(max_length=32)
    format = serializers.ChoiceField(choices=["round_robin", "swiss"], default="swiss")
    table_size = serializers.IntegerField(min_value=2, max_value=6)
    rounds = serializers.IntegerField(min_value=1, max_value=20)
    options = serializers.DictField(required=False, default=dict)
    clock = serializers.DictField(required=False, allow_null=True, default=None)
    round_days = serializers.IntegerField(min_value=1, max_value=90, default=14)
    rated = Flag(required=False, default=True)
    rules = serializers.CharField(
        required=False, default="", allow_blank=True, max_length=2000,
        help_text="the organiser's words for late and dropped players, shown on the page",
    )  # fmt: skip


def _detail(request, pk: int, code: int = status.HTTP_200_OK) -> Response:
    return Response(selectors.detail(selectors.get(pk), request.user), status=code)


class TournamentsView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="Tournaments, newest first (the latest 50)",
        operation_id="tournaments_list",
        parameters=[OpenApiParameter("status", str, enum=["signup", "running", "finished"])],
        responses={200: LIST},
    )
    def get(self, request):
        query = validated(ListQuery, request.query_params)
        found = selectors.listed(query.get("status"))[:PAGE_SIZE]
        return Response({"tournaments": [selectors.summary(t) for t in found]})

    @extend_schema(
        summary="Create a tournament (moderators and organisers)",
        request=CreateIn,
        responses={201: DETAIL},
    )
    def post(self, request):
        data = validated(CreateIn, request.data)
        tournament = services.check_create_tournament(request.user, **data)
        return _detail(request, tournament.pk, status.HTTP_201_CREATED)


class TournamentView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(summary="A tournament: rounds, tables and standings", responses={200: DETAIL})
    def get(self, request, pk: int):
        return _detail(request, pk)


class SignUpView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(summary="Sign up (while it takes sign-ups)", request=None,
                   responses={201: DETAIL})  # fmt: skip
    def post(self, request, pk: int):
        validated(EmptyIn, request.data)
        services.check_sign_up(pk, request.user)
        return _detail(request, pk, status.HTTP_201_CREATED)


class WithdrawView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(summary="Withdraw (before the start)", request=None, responses={200: DETAIL})
    def post(self, request, pk: int):
        validated(EmptyIn, request.data)
        services.check_withdraw(pk, request.user)
        return _detail(request, pk)


class StartView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Start: the first round's games begin (organiser or moderator)",
        request=None, responses={200: DETAIL},
    )  # fmt: skip
    def post(self, request, pk: int):
        validated(EmptyIn, request.data)
        services.check_start_tournament(pk, request.user)
        return _detail(request, pk)


class AdvanceView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Finish the round and start the next, once all its games have ended",
        description="What happens by itself when a round's last game ends; for the organiser "
        "when that message was lost.",
        request=None, responses={200: DETAIL},
    )  # fmt: skip
    def post(self, request, pk: int):
        validated(EmptyIn, request.data)
        services.check_advance(pk, request.user)
        return _detail(request, pk)
