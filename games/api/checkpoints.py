"""The checkpoint feed over the API: `GET /api/checkpoints/?since=`.

What is listed, and why it is paged by a cursor, is games.audit.checkpoint_feed's
to say; what a checkpoint is, games.audit.checkpoints's.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import serializers as s
from games.audit import checkpoint_feed


class CheckpointsView(APIView):
    # Any account: the feed lists only what any signed-in user is shown of
    # the games (public ones, at a head a stranger sees).
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Signed checkpoints of the public games, oldest first, to mirror",
        description="Each checkpoint says that game `game` stood at `seq` with head "
        "`head_hash` at time `at` (`final`: as it ended), signed with Ed25519 by key "
        "`key_id`; `keys` maps each key id to its public key (hex).  The signature covers "
        "`correo-checkpoint:` followed by canonical JSON of `{at, final, game, head_hash, "
        "seq}`.  Pass `next` as `since` for the ones published after; the newest minute is "
        "held back until its writes are done.",
        parameters=[
            OpenApiParameter("since", str, description="a previous answer's `next`"),
            OpenApiParameter("limit", int, description="at most this many (1 to 1000)"),
        ],
        responses={200: dict},
    )
    def get(self, request):
        query = s.validated(s.CheckpointsQuery, request.query_params)
        return Response(checkpoint_feed.feed(query.get("since"), query["limit"]))
