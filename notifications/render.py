"""Building the mail of a notification: subject / text / html templates per
kind (templates/notifications/emails/<kind>-subject.txt, -body.txt, -body.html),
in the manner of healthchecks' hc/lib/emails.py.

Everything is rendered from the game as it stood at the notification's seq, so
rendering the same row twice gives the same message (and the same Message-ID).
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from games import selectors, store
from games.engines import base
from games.models import Game
from notifications.addresses import reply_address, unsubscribe_token
from notifications.models import Notification

MAX_MOVES_LISTED = 300

HELP_TEXT = (
    "Reply to this mail; the first lines of your reply (above any quoted text or "
    "signature) are commands, one per line:\n"
    "  any line from the list of legal moves   make that move\n"
    "  moves                                   list your legal moves\n"
    "  state                                   show the game as you see it\n"
    "  undo-request                            ask to take back your last move\n"
    "  approve / refuse                        answer another player's undo-request\n"
    "  resign                                  leave the game\n"
    "  help                                    this text"
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
        score = _scalar(scores[seat]) + (", winner" if seat in result["winners"] else "")
        parts = ", ".join(f"{part}: {_scalar(n)}" for part, n in result["breakdown"][seat].items())
        lines.append(f"{places[seat]}. {names.get(seat, '?')} (seat {seat}): {score} ({parts})")
    if "opponent" in result:
        lines.append(f"opponent: {_scalar(result['opponent']['score'])}")
    lines.append(f"ended by: {result['ended_by'].replace('_', ' ')}")
    return lines


def game_facts(game: Game, seat: int | None, seq: int) -> dict[str, Any]:
    """What a seat saw of the game at `seq`: view, legal moves, head hash."""
    engine = base.get(game.title)
    seq = min(seq, game.seq)
    state = store.load(game, engine, head=seq).state
    to_act = sorted(engine.to_act(state))
    moves: list[str] = []
    current = seq == game.seq
    if seat is not None and seat in to_act and (game.status == Game.Status.ACTIVE or not current):
        moves = [engine.text(action) for action in engine.legal_actions(state, seat)]
    players = [(s.index, s.user.username) for s in selectors.seats_of(game)]
    return {
        "title": engine.TITLE,
        "game_id": game.pk,
        "seq": seq,
        "head_hash": selectors.shown_hash(
            game, selectors.head_hash_at(game, seq), reveal=game.status != Game.Status.ACTIVE
        ),
        "seat": seat,
        "players": players,
        "to_act_names": [name for index, name in players if index in to_act],
        "your_turn": bool(moves),
        "view_lines": view_lines(engine.view(state, seat)),
        "moves": moves[:MAX_MOVES_LISTED],
        "moves_more": max(0, len(moves) - MAX_MOVES_LISTED),
        "deadline": game.deadline.strftime("%Y-%m-%d %H:%M UTC") if game.deadline else None,
        "status": game.status if current else Game.Status.ACTIVE,
        "result_lines": result_lines(game.result, players) if game.result and current else [],
    }


def context_for(n: Notification) -> dict[str, Any]:
    ctx: dict[str, Any] = {
        "n": n,
        "kind": n.kind,
        "extra": n.context,
        "help_text": HELP_TEXT,
        "username": n.user.username if n.user_id else None,
        "unsubscribe_url": unsubscribe_url(n.user_id) if n.user_id else None,
        "settings_url": absolute(reverse("web:settings")),
    }
    if n.game_id is not None:
        ctx["game"] = game_facts(n.game, n.seat, n.seq or n.game.seq)
        if n.seat is not None and n.user_id:
            ctx["reply_to"] = reply_address(n.game_id, n.seat, n.user_id)
    if n.kind == Notification.Kind.DIGEST:
        ctx["items"] = digest_items(n)
    if n.kind == Notification.Kind.PASSWORD_RESET:
        ctx["reset_url"] = password_reset_url(n.user)
        ctx["reset_hours"] = settings.PASSWORD_RESET_TIMEOUT // 3600
    return ctx


def digest_items(n: Notification) -> list[dict[str, Any]]:
    rows = Notification.objects.filter(pk__in=n.context.get("items", [])).select_related("game")
    games: dict[int, dict[str, Any]] = {}
    for row in rows.order_by("id"):
        if row.game_id is None:
            continue
        item = games.setdefault(row.game_id, {"game": row.game, "events": []})
        item["events"].append(row.get_kind_display())
    items = []
    for game_id, item in games.items():
        seat = next((r.seat for r in rows if r.game_id == game_id and r.seat is not None), None)
        facts = game_facts(item["game"], seat, item["game"].seq)
        reply = reply_address(game_id, seat, n.user_id) if seat is not None else None
        items.append({"facts": facts, "events": item["events"], "reply_to": reply})
    return items


def build_message(n: Notification) -> EmailMultiAlternatives:
    ctx = context_for(n)
    prefix = f"notifications/emails/{n.kind}"
    subject = " ".join(render_to_string(f"{prefix}-subject.txt", ctx).split())
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
    return message


REPLY_KINDS = {Notification.Kind.REPLY, Notification.Kind.REJECTION}
# Mail about the account itself, which no mail preference turns off: it
# offers no unsubscribe link.
ACCOUNT_KINDS = {Notification.Kind.PASSWORD_RESET}
