"""Creating and starting a game."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop

from games.clocks import options as clock_options
from games.engines import base
from games.errors import Forbidden, InvalidRequest
from games.models import Event, Game, Press, Seat
from games.selectors.bots import bot_seats, seat_holders
from games.services import common
from games.stream import chain, commitment, store
from games.stream.derived import derived_fields


def check_create_game(
    creator,
    *,
    title: str,
    players: list,
    options: dict[str, Any] | None,
    public: bool,
    spectator_delay: int,
    clock: dict[str, Any] | None,
    press: str = Press.FULL,
    reveal_private: bool = True,
    rated: bool = True,
) -> Game:
    """A person's request to start a game with players they name: they must
    sit at it, every other person named must have accepted an invitation
    from them (bots need none), and they may not have more running games
    they started than CORREO_MAX_ACTIVE_GAMES; a moderator may set up any
    game for others.  Games are otherwise gathered at tables
    (games.services.tables), where each player takes their own seat."""
    moderator = getattr(creator, "is_moderator", False)
    if creator not in players and not moderator:
        raise Forbidden(gettext_noop("you must be one of the players (or a moderator)"))
    if not moderator:
        common.require_consent(creator, players)
    with transaction.atomic():
        if not moderator:
            common.require_room_for_a_game(creator)
        return do_create_game(
            title=title, players=players, options=options, creator=creator, public=public,
            spectator_delay=spectator_delay, clock=clock, press=press,
            reveal_private=reveal_private, rated=rated,
        )  # fmt: skip


def do_create_game(
    *,
    title: str,
    players: list,
    options: dict[str, Any] | None = None,
    creator=None,
    seed: int | None = None,
    source: str = Event.Source.API,
    public: bool = True,
    spectator_delay: int = 0,
    clock: dict[str, Any] | None = None,
    press: str = Press.FULL,
    reveal_private: bool = True,
    rated: bool = True,
    offer_seats: bool = False,
) -> Game:
    """Create and start a game; `players` are users in seat order, or bots
    wanted (accounts.bots.Wanted) for the seats bots play.  `press` and
    `reveal_private` are the table's talk (games.services.talk); `rated`
    whether the result counts towards ratings (the `ratings` app)."""
    try:
        engine = base.get(title)
    except KeyError:
        raise InvalidRequest(gettext_noop("unknown title %(title)r"), title=title) from None
    if not engine.MIN_PLAYERS <= len(players) <= engine.MAX_PLAYERS:
        raise InvalidRequest(
            gettext_noop("%(title)s takes %(least)s-%(most)s players, not %(count)s"),
            title=engine.TITLE, least=engine.MIN_PLAYERS, most=engine.MAX_PLAYERS,
            count=len(players),
        )  # fmt: skip
    players = seat_holders(engine, players)
    if len({user.pk for user in players}) != len(players):
        raise InvalidRequest(gettext_noop("each player may hold only one seat"))
    if not isinstance(options, dict | None):
        raise InvalidRequest(gettext_noop("options must be an object"))
    if not isinstance(public, bool):
        raise InvalidRequest(gettext_noop("public must be true or false"))
    if type(spectator_delay) is not int or not 0 <= spectator_delay <= 1000:
        raise InvalidRequest(
            gettext_noop("spectator_delay must be a number of moves from 0 to 1000")
        )
    if press not in Press.values:
        raise InvalidRequest(gettext_noop("press must be full, public or none"))
    if not isinstance(reveal_private, bool):
        raise InvalidRequest(gettext_noop("reveal_private must be true or false"))
    if not isinstance(rated, bool):
        raise InvalidRequest(gettext_noop("rated must be true or false"))
    resolved = engine.resolve_options(options)
    clock_config = clock_options.parse(clock)
    seed = secrets.randbits(63) if seed is None else seed
    setup = engine.setup(len(players), resolved, seed)
    salt = commitment.new_salt()
    with transaction.atomic():
        game = Game.objects.create(
            title=title,
            options=resolved,
            engine_version=engine.VERSION,
            seed=seed,
            salt=salt,
            created_by=creator,
            public=public,
            spectator_delay=spectator_delay,
            clock=clock_config,
            bot_seats=bot_seats(players),
            press=press,
            reveal_private=reveal_private,
            rated=rated,
            offer_seats=offer_seats,
        )
        Seat.objects.bulk_create(
            Seat(game=game, index=i, user=user) for i, user in enumerate(players)
        )
        payload = {
            "title": title,
            "engine_version": engine.VERSION,
            "options": resolved,
            "seats": [user.pk for user in players],
            "public": public,
            "spectator_delay": spectator_delay,
            "clock": clock_config,
            "press": press,
            "reveal_private": reveal_private,
            "commitment": commitment.commit(setup, salt),
            "setup": setup,
        }
        if not rated:
            # Recorded only when false, so the events of rated games are as
            # they always were; the ratings read it from here (ratings.ledger).
            payload["rated"] = False
        store.append(
            game,
            expected_seq=0,
            kind=Event.Kind.CREATED,
            source=source,
            payload=payload,
            actor=creator,
            head_hash=chain.GENESIS_HASH,
            derived=derived_fields(engine, setup),
        )
    return game
