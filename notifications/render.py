"""Building the mail of a notification: subject / text / html templates per
kind (templates/notifications/emails/<kind>-subject.txt, -body.txt, -body.html),
in the manner of healthchecks' hc/lib/emails.py.

Everything is rendered from the game as it stood at the notification's seq, so
rendering the same row twice gives the same message (and the same Message-ID).
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Collection
from typing import Any
from urllib.parse import quote, urlencode

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import EmailMultiAlternatives
from django.db.models import Max
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import get_language, gettext_lazy, override, pgettext_lazy
from django.utils.translation import gettext as _

from accounts import verification
from accounts.models import User
from games.engines import base, i18n
from games.models import Event, Game, Invitation, Seat
from games.selectors import (
    invite_tokens,
    listing,
    narration,
    provisional,
    talk,
    verify_record,
    viewers,
    visibility,
)
from games.selectors import orders as orders_selected
from games.stream import replay, store
from games.stream.derived import engine_for
from notifications import board_image
from notifications.addresses import invitation_address, reply_address, unsubscribe_token
from notifications.models import Notification

MAX_MOVES_LISTED = 300
MAX_SINCE_LINES = 60

HELP_TEXT = gettext_lazy(
    "Reply to this mail; the first lines of your reply (above any quoted text or "
    "signature) are commands, one per line:\n"
    "  any line from the list of legal moves   make that move (anything after # is ignored)\n"
    "  moves                                   list your legal moves\n"
    "  state                                   show the game as you see it\n"
    "  undo-request                            ask to take back your last move\n"
    "  approve / refuse                        answer another player's undo-request\n"
    "  resign                                  leave the game\n"
    "  report <reason>                         ask the moderators to look at this game\n"
    "  help                                    this text"
)
# Apart from HELP_TEXT so that the catalogues' translations of it still hold.
SAY_HELP = gettext_lazy(
    "  say <words>                             say that to the table\n"
    "  say:                                    the rest of your reply goes to the table"
)
ORDERS_HELP = gettext_lazy(
    "  orders:                                 the lines after it are standing orders, played\n"
    "                                          when it is your turn: a move line, a kind of\n"
    "                                          order with its values, or cancel (all of mine)"
)

# What a reply to an invitation may say (notifications.inbound.INVITATION_WORDS).
INVITATION_HELP = gettext_lazy(
    "Reply to this mail with one word on the first line of your reply:\n"
    "  join       take your seat at the table\n"
    "  decline    say no to the invitation\n"
    "  help       this text"
)


def absolute(path: str) -> str:
    return settings.CORREO_BASE_URL.rstrip("/") + path


def unsubscribe_url(user_id: int) -> str:
    return absolute(reverse("email-unsubscribe", args=[unsubscribe_token(user_id)]))


def password_reset_url(user) -> str:
    """A link to choose a new password, made as the mail is built rather than
    when it was asked for: the outbox (which the admin shows) never holds the
    token, and its lifetime counts from the sending.  A mail sent again
    carries a fresh link; each works until the password changes."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return absolute(reverse("password_reset_confirm", args=[uid, token]))


def view_lines(value: Any, indent: str = "") -> list[str]:
    """A view (plain JSON data) as readable `key: value` lines."""
    lines: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, dict) and item:
                lines.append(f"{indent}{key}:")
                lines.extend(view_lines(item, indent + "  "))
            elif isinstance(item, list) and any(isinstance(x, dict | list) for x in item):
                lines.append(f"{indent}{key}:")
                for element in item:
                    text = json.dumps(element, ensure_ascii=False, separators=(", ", ": "))
                    lines.append(f"{indent}  - {text}")
            else:
                lines.append(f"{indent}{key}: {_scalar(item)}")
    else:
        lines.append(indent + _scalar(value))
    return lines


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return "-"
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def result_lines(result: base.Result, players: list[tuple[int, str]]) -> list[str]:
    """A finished game's result, the same for every title: the seats by place
    with their scores and where the points came from, a solo game's
    opponent, and why the game ended."""
    names = dict(players)
    places, scores = result["places"], result["scores"]
    lines = []
    for seat in sorted(range(len(places)), key=lambda s: (places[s], s)):
        score = _scalar(scores[seat]) + (_(", winner") if seat in result["winners"] else "")
        parts = ", ".join(f"{part}: {_scalar(n)}" for part, n in result["breakdown"][seat].items())
        lines.append(
            _("%(place)s. %(name)s (seat %(seat)s): %(score)s (%(parts)s)")
            % {"place": places[seat], "name": names.get(seat, "?"), "seat": seat,
               "score": score, "parts": parts}
        )  # fmt: skip
    if "opponent" in result:
        lines.append(_("opponent: %(score)s") % {"score": _scalar(result["opponent"]["score"])})
    # How a game ends is the engine's word (e.g. "no_moves"): it stays as it is.
    lines.append(_("ended by: %(how)s") % {"how": result["ended_by"].replace("_", " ")})
    return lines


def game_facts(
    game: Game,
    seat: int | None,
    seq: int,
    *,
    since: int | None = None,
    user_id: int | None = None,
) -> dict[str, Any]:
    """What a seat saw of the game at `seq`: the board in words, what
    happened since `since`, the legal moves with their glosses, the head hash."""
    engine = base.get(game.title)
    seq = min(seq, game.seq)
    state = store.load(game, engine, head=seq).state
    to_act = sorted(engine.to_act(state))
    current = seq == game.seq
    actions: list[Any] = []
    if seat is not None and seat in to_act and (game.status == Game.Status.ACTIVE or not current):
        actions = engine.legal_actions(state, seat)
    players = [(s.index, s.user.username) for s in viewers.seats_of(game)]
    names = narration.seat_names(dict(players))
    view = engine.view(state, seat)
    moves = [
        move_facts(engine, state, seat, action, names) for action in actions[:MAX_MOVES_LISTED]
    ]
    return {
        "title": engine.TITLE,
        "game_id": game.pk,
        "seq": seq,
        "head_hash": verify_record.shown_hash(
            game, verify_record.head_hash_at(game, seq), reveal=game.status != Game.Status.ACTIVE
        ),
        "seat": seat,
        "you": names[seat] if seat is not None and seat < len(names) else None,
        "players": players,
        "names": [name for _, name in players],
        "to_act_names": [name for index, name in players if index in to_act],
        "your_turn": bool(actions),
        "board_lines": board_lines(engine, view, seat, names),
        "view": view,
        "since_lines": (
            happened := since_lines(game, engine, seat, since, seq, names, user_id=user_id)
        ),
        "since_text": bulleted(happened),
        "moves": moves,
        "move_groups": grouped(moves),
        "moves_more": max(0, len(actions) - MAX_MOVES_LISTED),
        "deadline": game.deadline.strftime("%Y-%m-%d %H:%M UTC") if game.deadline else None,
        "status": game.status if current else Game.Status.ACTIVE,
        # Every mail about an aborted game says why (a moderator's reason).
        "abort_reason": game.abort_reason if game.status == Game.Status.ABORTED else "",
        "result_lines": result_lines(game.result, players) if game.result and current else [],
        "game_url": absolute(reverse("web:game", args=[game.pk])),
        "provisional_note": provisional.note(engine, game.options),
    }


def board_lines(engine: base.Engine, view: dict[str, Any], seat, names: list[str]) -> list[str]:
    """The title's own words for the view (`describe`), or its keys and values
    for a title that has none."""
    described = (
        engine.describe(view, seat, names, language=get_language())
        if hasattr(engine, "describe")
        else []
    )
    return list(described) or view_lines(view)


def move_facts(
    engine: base.Engine, state, seat: int, action: dict[str, Any], names: list[str]
) -> dict[str, Any]:
    """A legal move as a mail lists it: the line to reply with, a few words
    where the line alone is cryptic, and the heading it is listed under (the
    game page says the same: `narration.move_words`)."""
    return narration.move_words(engine, state, seat, action, names)


def grouped(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The moves under their headings, in the order the engine lists them."""
    groups: dict[Any, list[dict[str, Any]]] = {}
    for move in moves:
        groups.setdefault(move["group"], []).append(move)
    return [{"heading": heading, "moves": listed} for heading, listed in groups.items()]


def bulleted(lines: list[str], width: int = 72) -> list[str]:
    """The lines as a text mail's list: each after "  - ", a long one (a
    long player name) wrapped under its first word rather than sideways."""
    out: list[str] = []
    for line in lines:
        out += textwrap.wrap(
            line, width, initial_indent="  - ", subsequent_indent="    ", break_on_hyphens=False
        ) or ["  -"]
    return out


def since_lines(
    game: Game,
    engine: base.Engine,
    seat: int | None,
    since: int | None,
    seq: int,
    names,
    *,
    user_id: int | None = None,
) -> list[str]:
    """What happened after `since` up to `seq`, as the seat may see it: moves
    in the public form the seat was shown, undos, clock acts, and the
    messages its player may read (games.selectors.talk)."""
    if since is None or since >= seq:
        return []
    reveal = game.status != Game.Status.ACTIVE and seq == game.seq
    rows = Event.objects.filter(game=game, seq__gt=since, seq__lte=seq).order_by("seq")
    count = rows.count()
    shown = rows[max(0, count - MAX_SINCE_LINES) :] if count > MAX_SINCE_LINES else rows
    hidden = count - MAX_SINCE_LINES
    lines = [_("(%(count)s earlier events not shown)") % {"count": hidden}] if hidden > 0 else []
    reader = None
    for event in shown:
        if event.kind in replay.TALK_KINDS:
            reader = reader or talk.reader_of_seat(game, seat, user_id, seq)
            entry = talk.item(event, reader)
            if entry is not None:
                lines.append(talk.line(entry, names))
            continue
        seen = visibility.event_for(
            event, seat, reveal_all=reveal, chain_version=game.chain_version
        )
        lines.append(narration.event_line(engine, seen, names))
        lines += narration.effect_lines(engine, seen, names)
    return lines


# A mail the player was sent (or is being sent, or went out in a digest):
# what it told them need not be told again.
TOLD = (Notification.Status.SENT, Notification.Status.SENDING, Notification.Status.DIGESTED)


def since_for(n: Notification, exclude: Collection[int] = ()) -> int | None:
    """The seq after which a seat's mail tells what happened: its last move
    or the last mail it was sent about this game (not one skipped, held or
    failed, nor one of `exclude`, the rows a digest is folding in),
    whichever is later."""
    if n.game_id is None or n.seat is None:
        return None
    seq = n.seq or n.game.seq
    moved = Event.objects.filter(
        game_id=n.game_id, seat=n.seat, kind__in=listing.MOVE_KINDS, seq__lt=seq
    ).aggregate(last=Max("seq"))["last"]
    mailed = (
        Notification.objects.filter(
            game_id=n.game_id, user_id=n.user_id, pk__lt=n.pk, seq__isnull=False, status__in=TOLD
        )
        .exclude(pk__in=exclude)
        .aggregate(last=Max("seq"))["last"]
    )
    return max((s for s in (moved, mailed) if s is not None), default=1)


def mailto(address: str, subject: str, body: str) -> str:
    """A link that opens a reply to `address` with the move as its body."""
    query = urlencode({"subject": subject, "body": body}, quote_via=quote)
    return f"mailto:{quote(address, safe='@+')}?{query}"


def context_for(n: Notification) -> dict[str, Any]:
    ctx: dict[str, Any] = {
        "n": n,
        "kind": n.kind,
        "extra": n.context,
        "help_text": f"{HELP_TEXT}\n{SAY_HELP}\n{ORDERS_HELP}",
        "username": n.user.username if n.user_id else None,
        "unsubscribe_url": unsubscribe_url(n.user_id) if n.user_id else None,
        "settings_url": absolute(reverse("web:settings")),
    }
    if n.game_id is not None:
        ctx["game"] = game_facts(
            n.game, n.seat, n.seq or n.game.seq, since=since_for(n), user_id=n.user_id
        )
        if n.seat is not None and n.user_id:
            ctx["reply_to"] = reply_address(n.game_id, n.seat, n.user_id)
    if n.kind in ORDERS_SHOWN and ctx.get("game") and n.seat is not None and n.user_id:
        ctx["my_orders"] = my_orders(n)
    if n.kind == Notification.Kind.DIGEST:
        ctx["items"] = digest_items(n)
    if n.kind == Notification.Kind.REPLY:
        ctx["results"] = [{**r, "message": said(r)} for r in n.context.get("results", [])]
        if (invitation := n.context.get("invitation")) and n.user_id:
            # The answer about an invitation may be answered in turn.
            ctx["reply_to"] = invitation_address(invitation, n.user_id)
            ctx["help_text"] = INVITATION_HELP
    if n.kind == Notification.Kind.REJECTION:
        ctx["reason"] = said(n.context, "reason")
    if n.kind == Notification.Kind.PASSWORD_RESET:
        ctx["reset_url"] = password_reset_url(n.user)
        ctx["reset_hours"] = settings.PASSWORD_RESET_TIMEOUT // 3600
    if n.kind in (Notification.Kind.PASSWORD_CHANGED, Notification.Kind.EMAIL_CHANGED):
        ctx["reset_page_url"] = absolute(reverse("password_reset"))
    if n.kind in TABLE_KINDS:
        ctx.update(table_links(n))
    if n.kind == Notification.Kind.VERIFY_EMAIL:
        token = verification.token_for(n.user, email=n.to_email)
        ctx["verify_url"] = absolute(reverse("web:verify-email", args=[token]))
        ctx["verify_days"] = verification.VERIFY_DAYS
    return ctx


# The mails to a seat's own player about its turn list its standing orders.
ORDERS_SHOWN = {Notification.Kind.YOUR_TURN, Notification.Kind.REMINDER}


def my_orders(n: Notification) -> list[dict[str, Any]]:
    """The seat's standing orders its reader wrote, in words: a seat handed
    on shows neither player the other's."""
    game = n.game
    if not orders_selected.has_orders(game):
        return []
    return orders_selected.written_by(game, engine_for(game), n.seat, n.user_id)


def table_links(n: Notification) -> dict[str, Any]:
    """The links a table's mail carries.  An address invitation's link
    carries its token, made as the mail is built (the outbox, which the
    admin shows, never holds it), so it can only come from the mail."""
    table = n.context.get("table")
    links = {
        "table_url": absolute(reverse("web:table", args=[table])) if table else None,
        "lobby_url": absolute(reverse("web:lobby")),
    }
    if game := n.context.get("game"):
        links["game_url"] = absolute(reverse("web:game", args=[game]))
    if tournament := n.context.get("tournament"):
        links["tournament_url"] = absolute(reverse("web:tournament", args=[tournament]))
    if n.kind == Notification.Kind.INVITATION:
        invitation = Invitation.objects.filter(pk=n.context.get("invitation")).first()
        if n.user_id is None and invitation is not None:
            token = invite_tokens.invitation_token(invitation)
            links["answer_url"] = absolute(reverse("web:invitation", args=[token]))
        else:
            links["answer_url"] = links["table_url"]
        if n.user_id and invitation is not None and invitation.user_id == n.user_id:
            # An account's invitation is answered by reply too; one to an
            # address has no account to answer for yet.
            links["reply_to"] = invitation_address(invitation.pk, n.user_id)
    return links


# What a digest lists for each game, by the kind of mail it stands for.
EVENT_NAMES = {
    Notification.Kind.YOUR_TURN: pgettext_lazy("digest event", "Your Turn"),
    Notification.Kind.GAME_OVER: pgettext_lazy("digest event", "Game Over"),
    Notification.Kind.UNDONE: pgettext_lazy("digest event", "Undone"),
    Notification.Kind.REMINDER: pgettext_lazy("digest event", "Reminder"),
    Notification.Kind.TAKEBACK: pgettext_lazy("digest event", "Takeback"),
    Notification.Kind.CLOCK: pgettext_lazy("digest event", "Clock"),
    Notification.Kind.JOINED: pgettext_lazy("digest event", "Joined"),
    Notification.Kind.TALK: pgettext_lazy("digest event", "Messages"),
    Notification.Kind.ORDER_DROPPED: pgettext_lazy("digest event", "Standing order dropped"),
}


def digest_items(n: Notification) -> list[dict[str, Any]]:
    """Each game of a digest as a turn mail tells it: what happened since
    the seat's last move or the last mail it was sent (the rows the digest
    folds in were not), the board, the moves with one-tap links."""
    rows = list(
        Notification.objects.filter(pk__in=n.context.get("items", []))
        .select_related("game")
        .order_by("id")
    )
    games: dict[int, dict[str, Any]] = {}
    for row in rows:
        if row.game_id is None or not holds_seat(row):
            continue
        item = games.setdefault(row.game_id, {"game": row.game, "events": [], "last": row})
        name = str(EVENT_NAMES.get(row.kind, row.get_kind_display()))
        if row.kind != Notification.Kind.TALK or name not in item["events"]:
            item["events"].append(name)  # "Messages" once, however many there were
        if row.seat is not None:
            item["last"] = row
    folded = [row.pk for row in rows]
    items = []
    for game_id, item in games.items():
        last, game = item["last"], item["game"]
        seat = last.seat
        facts = game_facts(
            game, seat, game.seq, since=since_for(last, exclude=folded), user_id=n.user_id
        )
        reply = reply_address(game_id, seat, n.user_id) if seat is not None else None
        if reply:
            subject = f"Re: {game.title} #{game_id}"
            for move in facts["moves"]:
                move["mailto"] = mailto(reply, subject, move["line"])
        items.append({"facts": facts, "events": item["events"], "reply_to": reply})
    return items


def holds_seat(n: Notification) -> bool:
    """Whether the row's user still holds the seat it was written for: a
    seat handed to another player takes its view with it, so a mail not yet
    sent to the one who held it is no longer theirs to read."""
    if n.game_id is None or n.seat is None or n.user_id is None:
        return True
    return Seat.objects.filter(game_id=n.game_id, index=n.seat, user_id=n.user_id).exists()


def language_of(n: Notification) -> str:
    """The language the recipient chose; a refusal, which names no user,
    goes to an account's address (no other is answered), so that account's."""
    if n.user_id:
        return n.user.language
    user = User.objects.filter(email__iexact=n.to_email, is_active=True).first()
    return user.language if user else settings.LANGUAGE_CODE


def said(message: dict[str, Any], key: str = "message") -> str:
    """A message kept in the notification's context, in the active language:
    inbound keeps its English words (for the ledger) and their msgid and
    values, Django's (its own and the service's) or a title's catalogue's
    (an engine's refusal); a message kept without them stays as it is."""
    engine = message.get(f"{key}_engine")
    if isinstance(engine, dict):
        said_so = i18n.translated(
            engine.get("domain"), engine.get("template"), engine.get("params") or {},
            get_language(),
        )  # fmt: skip
        return said_so or message.get(key, "")
    template = message.get(f"{key}_template")
    if not template:
        return message.get(key, "")
    params = message.get(f"{key}_params")
    return _(template) % params if params else _(template)


def build_message(n: Notification) -> EmailMultiAlternatives:
    # Everything the mail says is rendered in the recipient's language, the
    # context too: the narration and result lines are made in it.
    with override(language_of(n)):
        return _build_message(n)


def _build_message(n: Notification) -> EmailMultiAlternatives:
    ctx = context_for(n)
    prefix = f"notifications/emails/{n.kind}"
    subject = " ".join(render_to_string(f"{prefix}-subject.txt", ctx).split())
    if ctx.get("reply_to"):
        reply_subject = subject if subject.startswith("Re: ") else f"Re: {subject}"
        for move in ctx["game"]["moves"] if ctx.get("game") else ():
            move["mailto"] = mailto(ctx["reply_to"], reply_subject, move["line"])
        if n.kind == Notification.Kind.INVITATION:
            ctx["join_mailto"] = mailto(ctx["reply_to"], reply_subject, "join")
            ctx["decline_mailto"] = mailto(ctx["reply_to"], reply_subject, "decline")
    picture = board_picture(n, ctx)
    if picture is not None:
        ctx["board_image"] = f"cid:{board_image.CONTENT_ID}"
    text = render_to_string(f"{prefix}-body.txt", ctx)
    html = render_to_string(f"{prefix}-body.html", ctx)
    headers = {
        "Message-ID": n.message_id,
        "Auto-Submitted": "auto-replied" if n.kind in REPLY_KINDS else "auto-generated",
        "X-Auto-Response-Suppress": "All",
    }
    if n.game_id is not None:
        thread = f"<correo.game.{n.game_id}@{settings.REPLY_DOMAIN}>"
        headers["References"] = thread
        headers["X-Correo-Game"] = str(n.game_id)
        headers["X-Correo-Seq"] = str(ctx["game"]["seq"])
    in_reply_to = n.context.get("in_reply_to")
    if in_reply_to:
        headers["In-Reply-To"] = in_reply_to
        headers["References"] = " ".join(filter(None, [headers.get("References"), in_reply_to]))
    if n.user_id and n.kind not in ACCOUNT_KINDS:
        url = ctx["unsubscribe_url"]
        headers["List-Unsubscribe"] = f"<{url}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[n.to_email],
        reply_to=[ctx["reply_to"]] if ctx.get("reply_to") else None,
        headers=headers,
    )
    message.attach_alternative(html, "text/html")
    if picture is not None:
        # The picture belongs to the HTML part (cid:), not beside it.
        message.mixed_subtype = "related"
        message.attach(board_image.attachment(picture))
    return message


def board_picture(n: Notification, ctx: dict[str, Any]) -> bytes | None:
    """The seat's board drawn for the mail, when the mail shows the game."""
    facts = ctx.get("game")
    if not settings.NOTIFICATIONS_BOARD_IMAGE or facts is None or n.kind in NO_PICTURE:
        return None
    return board_image.png(n.game.title, facts["view"], facts["seat"], dict(facts["players"]))


REPLY_KINDS = {Notification.Kind.REPLY, Notification.Kind.REJECTION}
TABLE_KINDS = {
    Notification.Kind.INVITATION,
    Notification.Kind.TABLE_STARTED,
    Notification.Kind.TABLE_EXPIRED,
    Notification.Kind.ROUND_READY,
}
# A digest tells of several games; a rejection answers a mail that was refused.
NO_PICTURE = {Notification.Kind.DIGEST, Notification.Kind.REJECTION}
# Mail about the account itself, which no mail preference turns off: it
# offers no unsubscribe link.
ACCOUNT_KINDS = {
    Notification.Kind.PASSWORD_RESET,
    Notification.Kind.WEBHOOK_PAUSED,
    Notification.Kind.PASSWORD_CHANGED,
    Notification.Kind.EMAIL_CHANGED,
    Notification.Kind.VERIFY_EMAIL,
}
