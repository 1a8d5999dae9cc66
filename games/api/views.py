"""Thin HTTP views: parse, call a service or selector, shape the answer."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import schema
from games.api import serializers as s
from games.api.pagination import GamesPagination
from games.audit import exchange
from games.audit.exchange import import_record
from games.clocks import options as clock_options
from games.clocks import vacation
from games.engines import base, bots
from games.models import Game
from games.selectors import history, listing, people, shown, verify_record, viewers
from games.services.bots import check_hand_to_bot
from games.services.clocks import check_extend, check_pause, check_resume
from games.services.creation import check_create_game
from games.services.importing import check_import_game
from games.services.moves import check_submit_action_by_id
from games.services.takeback import check_answer_takeback, check_request_takeback
from games.services.undo import check_undo
from games.services.vacation import check_start_vacation
from ops.parsers import ImportParser
from ops.throttling import CreateRateThrottle, CreationThrottled


def game_or_404(pk: int) -> Game:
    return viewers.game(pk)


class PingView(APIView):
    """The cheapest JSON answer the stack can give: the benchmarks' ceiling."""

    permission_classes = [permissions.AllowAny]
    authentication_classes = []
    throttle_classes = []

    @extend_schema(summary="A trivial JSON answer (no database)", responses={200: dict})
    def get(self, request):
        return Response({"ok": True})


class TitlesView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(summary="Titles with player counts and options", responses={200: dict})
    def get(self, request):
        titles = [
            {
                "name": name,
                "title": engine.TITLE,
                "min_players": engine.MIN_PLAYERS,
                "max_players": engine.MAX_PLAYERS,
                "options": engine.OPTIONS,
                "version": engine.VERSION,
                "provisional_data": bool(getattr(engine, "PROVISIONAL_DATA", False)),
                "bots": list(bots.kinds_for(engine)),
            }
            for name, engine in sorted(base.available().items())
        ]
        return Response({"titles": titles})


class GamesView(APIView):
    @extend_schema(
        summary="Games the requester may see",
        operation_id="games_list",
        parameters=[
            OpenApiParameter("mine", bool, description="only games where I hold a seat"),
            OpenApiParameter("to_act", bool, description="only games where I must act"),
            OpenApiParameter("player", str, description="only games this username plays"),
            OpenApiParameter("title", str, description="only games of this title"),
            OpenApiParameter(
                "status", {"type": "string", "enum": ["active", "finished", "aborted"]}
            ),
            OpenApiParameter("page", {"type": "integer", "minimum": 1}),
            OpenApiParameter(
                "page_size",
                {"type": "integer", "minimum": 1},
                description="25 unless given; 100 at most",
            ),
        ],
        responses={200: dict},
    )
    def get(self, request):
        query = s.validated(s.GamesQuery, request.query_params)
        games = listing.games_for(
            request.user, mine=query["mine"], to_act=query["to_act"],
            player=query.get("player"), title=query.get("title"), status=query.get("status"),
        )  # fmt: skip
        paginator = GamesPagination()
        page = paginator.paginate_queryset(
            listing.newest_first(games, request.user), request, self
        )
        return paginator.get_paginated_response(
            [listing.summary(game, request.user) for game in page]
        )

    @extend_schema(
        summary="Create and start a game",
        request=s.CreateGameIn,
        responses={201: dict},
    )
    def post(self, request):
        # Its own rate, beside the user's: starting games is what floods
        # everyone's lists, and a person starts few.
        starts = CreateRateThrottle()
        if not starts.allow_request(request, self):
            raise CreationThrottled(starts.wait())
        data = s.validated(s.CreateGameIn, request.data)
        game = check_create_game(
            request.user, title=data["title"], players=people.users_in_order(data["players"]),
            options=data["options"], public=data["public"],
            spectator_delay=data["spectator_delay"], clock=data["clock"], press=data["press"],
            reveal_private=data["reveal_private"],
        )  # fmt: skip
        viewer = viewers.viewer_of(game, request.user)
        return Response(shown.game_detail(game, viewer), status=status.HTTP_201_CREATED)


class GameDetailView(APIView):
    @extend_schema(
        summary="A game as the requester may see it",
        responses={
            200: schema.GAME_DETAIL,
            304: OpenApiResponse(description="not modified (ETag)"),
        },
    )
    def get(self, request, pk: int):
        game, seats = viewers.game_with_seats(pk)
        viewer = viewers.viewer_of(game, request.user, seats)
        etag = shown.etag(game, viewer)
        if etag in request.headers.get("If-None-Match", ""):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        detail = shown.game_detail(game, viewer, seats)
        return Response(detail, headers={"ETag": etag, "Vary": "Authorization, Cookie"})


class ActionsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="My legal actions, each with its email text",
        responses={200: dict},
    )
    def get(self, request, pk: int):
        game, viewer = viewers.seen_by(pk, request.user)
        return Response(shown.legal_actions(game, viewer))

    @extend_schema(
        summary="Submit an action (as data or as a text line)",
        request=s.SubmitIn,
        responses={201: s.SeqOut},
    )
    def post(self, request, pk: int):
        data = s.submission(request.data)
        event = check_submit_action_by_id(
            pk, request.user, action=data.get("action"), text=data.get("text"),
            expected_seq=data["seq"], source="api",
        )  # fmt: skip
        return Response({"seq": event.seq}, status=status.HTTP_201_CREATED)


class EventsView(APIView):
    @extend_schema(
        summary="The event log as the requester may see it",
        parameters=[OpenApiParameter("after", int), OpenApiParameter("limit", int)],
        responses={200: dict},
    )
    def get(self, request, pk: int):
        game, viewer = viewers.seen_by(pk, request.user)
        query = s.validated(s.EventsQuery, request.query_params)
        events = history.events(game, viewer, after=query["after"], limit=query["limit"])
        more = bool(events) and events[-1]["seq"] < viewer.head
        return Response({"seq": viewer.head, "events": events, "more": more})


class AuditView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Moderators: every event unredacted, with the hash-chain check",
        responses={200: dict},
    )
    def get(self, request, pk: int):
        game = game_or_404(pk)
        return Response(history.audit(game, viewers.viewer_of(game, request.user)))


class UndoView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Moderators: append an undo back to to_seq",
        request=s.UndoIn,
        responses={201: s.SeqOut},
    )
    def post(self, request, pk: int):
        game = game_or_404(pk)
        data = s.validated(s.UndoIn, request.data)
        event = check_undo(game, request.user, to_seq=data["to_seq"], reason=data["reason"])
        return Response({"seq": event.seq}, status=status.HTTP_201_CREATED)


class HandToBotView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Moderators: a bot takes over a seat whose player has vanished",
        request=s.HandToBotIn,
        responses={201: s.SeqOut},
    )
    def post(self, request, pk: int):
        game = game_or_404(pk)
        data = s.validated(s.HandToBotIn, request.data)
        event = check_hand_to_bot(
            game, request.user, seat=data["seat"], kind=data["kind"], reason=data["reason"]
        )
        return Response({"seq": event.seq}, status=status.HTTP_201_CREATED)


class TakebackView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Ask to take back my last move, or answer another seat's request",
        request=s.TakebackIn,
        responses={201: s.SeqOut},
    )
    def post(self, request, pk: int):
        game = game_or_404(pk)
        data = s.validated(s.TakebackIn, request.data)
        if "answer" in data:
            event = check_answer_takeback(
                game, request.user, answer=data["answer"], expected_seq=data["seq"]
            )
        else:
            event = check_request_takeback(game, request.user, expected_seq=data["seq"])
        return Response({"seq": event.seq}, status=status.HTTP_201_CREATED)

    @extend_schema(summary="The open takeback request, if any", responses={200: dict})
    def get(self, request, pk: int):
        game, viewer = viewers.seen_by(pk, request.user)
        return Response({"takeback": shown.open_takeback(game, viewer)})


class VerifyView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="The setup commitment; after the end, the setup and salt to check it",
        description="With `seen=SEQ:HASH` (a head a mail or an answer carried) the answer's "
        "`seen` says whether the chain still has that hash at that seq: `in_chain`, "
        "`not_in_chain`, `beyond_view` (a delayed spectator's seq past what they may see) "
        "or `hidden` (a version-1 chain while its hashes are not shown to you).",
        parameters=[
            OpenApiParameter(
                "seen", {"type": "string", "pattern": s.SEEN_PATTERN},
                description="SEQ:HASH, e.g. 41:3f0c... (64 hex digits)",
            ),
        ],
        responses={200: dict},
    )  # fmt: skip
    def get(self, request, pk: int):
        game, viewer = viewers.seen_by(pk, request.user)
        query = s.validated(s.VerifyQuery, request.query_params)
        return Response(verify_record.verification(game, viewer, query.get("seen")))


class ClockView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Moderators: pause, resume, or extend a deadline (each is a clock event)",
        request=s.ClockIn,
        responses={201: s.SeqOut},
    )
    def post(self, request, pk: int):
        game = game_or_404(pk)
        data = s.validated(s.ClockIn, request.data)
        if data["action"] == "pause":
            event = check_pause(game, request.user, reason=data["reason"])
        elif data["action"] == "resume":
            event = check_resume(game, request.user, reason=data["reason"])
        else:
            by = clock_options.seconds(data.get("by"), "by")
            event = check_extend(
                game, request.user, by_seconds=by, reason=data["reason"], seat=data.get("seat")
            )
        return Response({"seq": event.seq}, status=status.HTTP_201_CREATED)


class VacationView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(summary="My vacation budget this year", responses={200: dict})
    def get(self, request):
        return Response(vacation.budget(request.user))

    @extend_schema(
        summary="Start a vacation now: my clocks stop in every game for that many days",
        request=s.VacationIn,
        responses={201: dict},
    )
    def post(self, request):
        data = s.validated(s.VacationIn, request.data)
        check_start_vacation(request.user, days=data["days"])
        return Response(vacation.budget(request.user), status=status.HTTP_201_CREATED)


class ExportView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="The whole game as one JSON document, as the requester may see it",
        description="docs/export-format.md: complete for moderators and after the end; "
        "a player of a running game gets exactly what the events API shows them.",
        responses={200: dict},
    )
    def get(self, request, pk: int):
        game = game_or_404(pk)
        return Response(exchange.export(game, viewers.viewer_of(game, request.user)))


class ImportView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    # Exports outgrow the API's usual body limit; this one has its own.
    parser_classes = [ImportParser]

    @extend_schema(
        summary="Moderators: import a game from a complete export",
        request=s.ImportIn,
        responses={201: s.ImportedOut},
    )
    def post(self, request):
        data = s.validated(s.ImportIn, request.data)
        game = check_import_game(
            request.user, data["document"], mapping=data["map"],
            placeholders=data["placeholders"],
            accept_unverified_seals=data["accept_unverified_seals"],
        )  # fmt: skip
        return Response(
            {"id": game.pk, "seq": game.seq, "title": game.title, **import_record(game)},
            status=status.HTTP_201_CREATED,
        )
