"""OpenAPI post-processing: every operation documents the JSON errors that
any request can meet, in the one shape the API uses for all of them."""

from __future__ import annotations

ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "error": {"type": "string", "description": "a stable machine-readable code"},
        "detail": {"type": "string", "description": "a message for people"},
        "fields": {"description": "per-field messages (validation errors only)"},
        "seq": {"type": "integer", "description": "the current seq (stale_seq only)"},
    },
    "required": ["error", "detail"],
}

COMMON_ERRORS = {
    "400": "invalid request, malformed JSON or an illegal action",
    "401": "authentication required or invalid token",
    "403": "not allowed: not a seat, not a moderator, or a private game",
    "404": "no such resource",
    "405": "method not allowed",
    "406": "no acceptable response format (ask for application/json)",
    "413": "request body too large",
    "429": "too many requests (throttled)",
    "503": "the database is unavailable; repeat the request (Retry-After)",
}
WRITE_ERRORS = {
    "409": "stale seq (the body carries the current seq) or not your turn",
    "415": "unsupported or malformed body media type (send application/json)",
}


RESULT = {
    "title": "Result",
    "type": "object",
    "description": (
        "A finished game, in one shape for every title (null while the game runs and for "
        "an aborted game). Lists run over the seats in seat order."
    ),
    "properties": {
        "winners": {"type": "array", "items": {"type": "integer", "minimum": 0},
                    "description": "the seats in first place (none when a solo player loses)"},
        "places": {"type": "array", "items": {"type": "integer", "minimum": 1},
                   "description": "per seat, 1 = first; seats the title's tie-breakers "
                                  "leave tied share a place, and the next place skips them"},
        "scores": {"type": "array", "items": {"type": "number"}, "description": "per seat"},
        "ended_by": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$",
                     "description": "why the game ended, a short code stable per title "
                                    "(each title's README lists them)"},
        "breakdown": {"type": "array",
                      "items": {"type": "object", "additionalProperties": {"type": "number"}},
                      "description": "per seat, its points by the scoring parts the rules "
                                     "name; they add up to its score"},
        "opponent": {"type": "object", "properties": {"score": {"type": "number"}},
                     "required": ["score"], "additionalProperties": False,
                     "description": "solo games only: the automated opponent's score"},
    },
    "required": ["winners", "places", "scores", "ended_by", "breakdown"],
    "additionalProperties": False,
}  # fmt: skip

GAME_DETAIL = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "title": {"type": "string"},
        "status": {"type": "string", "enum": ["active", "finished", "aborted"]},
        "seq": {"type": "integer"},
        "to_act": {"type": "array", "items": {"type": "integer"}},
        "view": {"type": "object", "description": "the game as the requester may see it"},
        "provisional_data": {
            "type": "boolean",
            "description": "some of the title's component data is not yet the printed game's",
        },
        "provisional_note": {
            "type": "string",
            "nullable": True,
            "description": "what is provisional, in one sentence (null when nothing is)",
        },
        "result": {**RESULT, "nullable": True},
        "locked": {
            "type": "boolean",
            "description": "a moderator locked the game while a dispute is open: no moves",
        },
        "abort_reason": {
            "type": "string",
            "nullable": True,
            "description": "why a moderator aborted the game (null unless one did)",
        },
        "press": {
            "type": "string",
            "enum": ["full", "public", "none"],
            "description": "table talk: full (to the table and privately), public, none",
        },
        "reveal_private": {
            "type": "boolean",
            "description": "the private messages are shown to the players after the end",
        },
        "notes": {
            "type": "array",
            "description": "the moderators' notes pinned to the game, oldest first",
            "items": {
                "type": "object",
                "properties": {
                    "seq": {"type": "integer"},
                    "text": {"type": "string"},
                    "created_at": {"type": "string", "format": "date-time"},
                },
            },
        },
    },
    "required": ["id", "title", "status", "seq", "to_act", "view", "result"],
}


TABLE = {
    "title": "Table",
    "type": "object",
    "description": "A game being gathered (docs/tables.md).",
    "properties": {
        "id": {"type": "integer"},
        "title": {"type": "string", "description": "the title's API name"},
        "title_name": {"type": "string"},
        "host": {"type": "string", "description": "the host's username"},
        "seats": {"type": "object", "properties": {"min": {"type": "integer"},
                                                   "max": {"type": "integer"}}},
        "players": {"type": "array", "items": {"type": "string"},
                    "description": "usernames seated, as they sat down (bots as bot:<kind>)"},
        "ratings": {"type": "array", "items": {"type": "number", "nullable": True},
                    "description": "in the lobby: each player's rating in the title, as "
                    "`players` lists them (a new player's if unrated; null for a bot)"},
        "free": {"type": "integer", "description": "seats still free"},
        "options": {"type": "object"},
        "clock": {"type": "object", "nullable": True},
        "public": {"type": "boolean"},
        "open": {"type": "boolean"},
        "seat_order": {"type": "string", "enum": ["random", "joined", "host"]},
        "spectator_delay": {"type": "integer"},
        "rated": {"type": "boolean", "description": "the game's result counts towards ratings"},
        "offer_seats": {"type": "boolean",
                        "description": "a lost player's seat is offered in the lobby by itself"},
        "requirements": {
            "type": "object",
            "description": "who may take a seat (docs/ratings.md); empty: anyone",
            "properties": {"min_rating": {"type": "number"},
                           "max_timeouts_per_100": {"type": "number"}},
        },
        "status": {"type": "string", "enum": ["waiting", "started", "expired", "closed"]},
        "game": {"type": "integer", "nullable": True,
                 "description": "the game's id once the table started"},
        "created_at": {"type": "string", "format": "date-time"},
        "expires_at": {"type": "string", "format": "date-time",
                       "description": "when a waiting table nobody joins expires"},
        "your_seat": {"type": "boolean"},
        "host_is_you": {"type": "boolean"},
        "invited": {"type": "array", "items": {"type": "string"},
                    "description": "invitations not yet answered (shown to the players only)"},
        "invite_url": {"type": "string", "nullable": True,
                       "description": "the page link to hand out (the host only)"},
        "invite_token": {"type": "string", "nullable": True,
                         "description": "the link's token, which join takes (the host only)"},
    },
    "required": ["id", "title", "host", "seats", "players", "status", "game"],
}  # fmt: skip

TABLE_PAGE = {
    "type": "object",
    "properties": {
        "count": {"type": "integer"},
        "next": {"type": "string", "nullable": True},
        "previous": {"type": "string", "nullable": True},
        "results": {"type": "array", "items": TABLE},
    },
    "required": ["count", "results"],
}


LINK = {
    "type": "object",
    "properties": {
        "invite_token": {"type": "string"},
        "invite_url": {"type": "string"},
        "single_use": {"type": "boolean"},
        "expires_at": {"type": "string", "format": "date-time", "nullable": True},
    },
    "required": ["invite_token", "invite_url", "single_use", "expires_at"],
}

REVOKED = {
    "type": "object",
    "properties": {"revoked": {"type": "integer", "description": "links revoked"}},
    "required": ["revoked"],
}

INVITATION = {
    "title": "Invitation",
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "table": {"type": "integer"},
        "title": {"type": "string"},
        "title_name": {"type": "string"},
        "from": {"type": "string", "description": "who invited"},
        "host": {"type": "string"},
        "status": {"type": "string",
                   "enum": ["pending", "accepted", "declined", "withdrawn"]},
        "seats": {"type": "object"},
        "seated": {"type": "integer"},
        "created_at": {"type": "string", "format": "date-time"},
    },
    "required": ["id", "table", "status"],
}  # fmt: skip

INVITATIONS = {
    "type": "object",
    "properties": {"invitations": {"type": "array", "items": INVITATION}},
    "required": ["invitations"],
}


PROFILE = {
    "title": "Profile",
    "type": "object",
    "properties": {
        "username": {"type": "string"},
        "member_since": {"type": "string", "format": "date"},
        "titles": {"type": "array", "items": {"type": "object", "properties": {
            "title": {"type": "string"}, "title_name": {"type": "string"},
            "played": {"type": "integer"}, "finished": {"type": "integer"},
            "won": {"type": "integer"}}}},
        "current_games": {"type": "array", "items": {"type": "object", "properties": {
            "id": {"type": "integer"}, "title": {"type": "string"},
            "title_name": {"type": "string"}}},
            "description": "running public games (at most 20)"},
        "reliability": {"type": "object", "properties": {
            "moves": {"type": "integer", "description": "the player's own moves"},
            "timeouts": {"type": "integer"},
            "timeouts_per_100_moves": {"type": "number", "nullable": True},
            "median_seconds_to_move": {
                "type": "number", "nullable": True,
                "description": "over the latest 500 moves, vacations and outages left out"}}},
    },
    "required": ["username", "member_since", "titles", "current_games", "reliability"],
}  # fmt: skip


SEAT_OFFER = {
    "type": "object",
    "properties": {"id": {"type": "integer"}, "game": {"type": "integer"},
                   "seat": {"type": "integer"}},
    "required": ["id", "game", "seat"],
}  # fmt: skip

SEAT_OFFERS = {
    "type": "object",
    "properties": {"seats": {"type": "array", "items": {"type": "object", "properties": {
        "id": {"type": "integer"}, "game": {"type": "integer"}, "title": {"type": "string"},
        "title_name": {"type": "string"}, "seat": {"type": "integer"},
        "reason": {"type": "string"}, "players": {"type": "array", "items": {"type": "string"}},
        "offered_at": {"type": "string", "format": "date-time"}}}}},
    "required": ["seats"],
}  # fmt: skip


INBOUND_EMAIL = {
    "post": {
        "operationId": "inbound_email",
        "summary": "Providers: deliver one raw inbound mail (RFC 822) to the email parser",
        "description": (
            "Authenticate with `Authorization: Bearer <INBOUND_EMAIL_SECRET>`, HTTP basic "
            "with the secret as password, or `X-Correo-Inbound-Secret`. Optional `recipient` "
            "query parameters give the envelope recipients; the body is the message as sent "
            "(any content type). 404 while no secret is configured."
        ),
        "tags": ["inbound"],
        "parameters": [
            {"name": "recipient", "in": "query", "required": False,
             "schema": {"type": "array", "items": {"type": "string"}}},
        ],
        "requestBody": {
            "required": True,
            "content": {
                "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}
            },
        },
        "responses": {
            "200": {
                "description": "what the parser did (applied, answered, rejected, duplicate)",
                "content": {"application/json": {"schema": {
                    "type": "object",
                    "properties": {"status": {"type": "string"}, "reason": {"type": "string"},
                                   "detail": {"type": "string"}},
                }}},
            },
            "404": {"description": "inbound mail over HTTP is not configured"},
        },
    }
}  # fmt: skip


def add_error_responses(result, generator, request, public):
    # The inbound-mail door is a plain Django view (raw MIME body): documented here.
    result.setdefault("paths", {}).setdefault("/api/inbound/email/", INBOUND_EMAIL)
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["Error"] = ERROR_SCHEMA
    error_content = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            errors = dict(COMMON_ERRORS)
            if method in ("post", "put", "patch", "delete"):
                errors.update(WRITE_ERRORS)
            responses = operation.setdefault("responses", {})
            for code, description in errors.items():
                responses[code] = {"description": description, "content": error_content}
    return result
