"""Bots' acts: a bot's move, and a seat handed to a bot.

A bot plays under an account of its own (accounts.bots) and moves through
`moves.do_submit_action` like a player, with source `bot` and the bot's
account as the actor; its event's payload also records how it chose
(`"bot": {"kind", "seed", "choice"}`, `choice` the index into the seat's
legal actions, `seed` from games.bots.seed_for), so anyone who may see the
move can check it by replay (`games.engines.bots.choose` with that seed on
the state before it).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

from accounts import bots as accounts
from games.engines import bots as engine_bots
from games.errors import InvalidRequest, StaleSeq
from games.models import Event, Game, Seat
from games.selectors import bots as seats
from games.services.common import require_active, require_moderator
from games.services.moves import do_submit_action
from games.services.replacement import do_replace_seat
from games.stream import store
from games.stream.derived import engine_for


def do_bot_move(game_id: int, seq: int) -> Event | None:
    """The move of a bot whose seat is to act after event `seq`, or None
    when there is none to make: the game went on meanwhile (whoever moved
    queued what follows their move), ended, or no bot is to act."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.seq != seq or game.status != Game.Status.ACTIVE:
        return None
    player = seats.bot_to_act(game)
    if player is None:
        return None
    engine = engine_for(game)
    state = store.load(game, engine).state
    seed = seats.seed_for(game, seq, player.index)
    kind = player.user.bot
    choice, action = engine_bots.choose(engine, state, player.index, kind, int(seed, 16))
    try:
        return do_submit_action(
            game, player.index, actor=player.user, action=action, text=None,
            expected_seq=seq, source=Event.Source.BOT, kind=Event.Kind.ACTION,
            extra={"bot": {"kind": kind, "seed": seed, "choice": choice}},
        )  # fmt: skip
    except StaleSeq:
        return None  # someone moved first; their move queued the bot's next turn


def check_hand_to_bot(game: Game, moderator, *, seat: Any, kind: Any, reason: Any) -> Event:
    """A moderator hands a vanished player's seat to a bot, with a reason."""
    require_moderator(moderator, gettext_noop("only moderators can hand a seat to a bot"))
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidRequest(gettext_noop("handing a seat to a bot needs a reason"))
    if kind not in accounts.KINDS:
        raise InvalidRequest(gettext_noop("a bot is random or greedy"))
    if type(seat) is not int:
        raise InvalidRequest(gettext_noop("seat must be a seat number"))
    return do_hand_to_bot(game, seat, kind, actor=moderator, reason=reason.strip())


def do_hand_to_bot(game: Game, seat: int, kind: str, *, actor, reason: str) -> Event:
    """`seat` is played by bot `kind` from now on: the seat handed over as a
    moderator hands it to a person (`replacement.do_replace_seat`), the
    event naming the bot's kind."""
    game.refresh_from_db()
    require_active(game)
    engine = engine_for(game)
    if kind not in engine_bots.kinds_for(engine):
        raise InvalidRequest(
            gettext_noop("%(title)s has no %(kind)s bot"), title=engine.TITLE, kind=kind
        )
    held = Seat.objects.filter(game=game, index=seat).select_related("user").first()
    if held is None:
        raise InvalidRequest(gettext_noop("there is no seat %(seat)s"), seat=seat)
    if held.status != Seat.Status.ACTIVE:
        raise InvalidRequest(gettext_noop("seat %(seat)s has left the game"), seat=seat)
    if held.user.bot == kind:
        raise InvalidRequest(gettext_noop("a %(kind)s bot already plays seat %(seat)s"),
                             kind=kind, seat=seat)  # fmt: skip
    return do_replace_seat(
        game, seat, accounts.account(kind, seat), actor=actor, reason=reason,
        source=Event.Source.MODERATOR, bot=kind,
    )  # fmt: skip
