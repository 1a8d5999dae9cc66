"""The least a durable, authenticated write can cost on this stack.

POST /bench/floor/<game id>/ goes through the same middleware, authentication
and throttles as a move, reads the game's seq, then commits one UPDATE and
one INSERT in a transaction: a move minus the game itself.  bench_api.py
prints its rate beside the move's, so the move target can be judged against
what the machine allows at all.
"""

from django.db import connection, transaction
from django.urls import include, path
from rest_framework.response import Response
from rest_framework.views import APIView

TABLE = "bench_floor_writes"


def create_table() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE {TABLE} (id serial PRIMARY KEY, game int, body text)")


class FloorView(APIView):
    def post(self, request, pk: int):
        with connection.cursor() as cursor:
            cursor.execute("SELECT seq FROM games_game WHERE id = %s", [pk])
            seq = cursor.fetchone()[0]
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("UPDATE games_game SET updated_at = now() WHERE id = %s", [pk])
            cursor.execute(
                f"INSERT INTO {TABLE} (game, body) VALUES (%s, %s)", [pk, str(request.data)]
            )
        return Response({"seq": seq}, status=201)


urlpatterns = [
    path("bench/floor/<int:pk>/", FloorView.as_view()),
    path("", include("config.urls")),
]
