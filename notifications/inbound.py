"""Inbound mail: the one function behind the three doors (the receive_email
command, POST /api/inbound/email/ and the smtpd command).

`receive(raw, door=...)` never raises.  It reads the mail (refusing what is
not fit to read), rejects what it cannot trust (too large, not addressed to a
valid signed reply address, not sent from that seat's player's address,
automatic mail), then carries out the command lines through the service's
`check_*` entry points (games.services) with source "email" and answers by
mail with what was done, the state and the legal moves.  A reply to an
invitation's address (notifications.addresses) answers that invitation,
`join` or `decline`, through the same doors and the same checks.  Nothing is
applied from a message that fails authentication.

Each Message-ID is processed once: its record, the outcome, the events the
commands append and the answer are written in one transaction, so a failure
anywhere leaves nothing behind and the sender's retry starts afresh, and a
retry of a message that was committed is a duplicate.  A database that is
unreachable gives the outcome "retry", which each door turns into the answer
that makes its sender try again; a mail that can never be processed is
refused for good ("malformed", "unprocessable") and recorded.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr

from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.models import User
from games.engines.base import IllegalAction
from games.engines.orders import Unreadable, read_value
from games.errors import InvalidRequest, ServiceError, StaleSeq
from games.models import Event, Game, Seat
from games.selectors import orders as orders_selected
from games.services.invitations import check_accept_invitation, check_decline_invitation
from games.services.moves import check_submit_action
from games.services.orders import check_cancel_order, check_write_order
from games.services.queue import check_report
from games.services.seats import check_resign
from games.services.takeback import check_answer_takeback, check_request_takeback
from games.services.talk import check_send_message
from games.stream.derived import engine_for
from notifications import parse, tasks
from notifications.addresses import (
    is_reply_address,
    verify_invitation_address,
    verify_reply_address,
)
from notifications.models import InboundMessage, Notification
from ops.logging import game_id_var

log = logging.getLogger(__name__)

HELP_WORDS = {"help", "?", "commands"}
STATE_WORDS = {"state", "status", "board"}
MOVES_WORDS = {"moves", "legal", "list"}
RESIGN_WORDS = {"resign"}
TAKEBACK_WORDS = {"undo-request", "undo request", "takeback", "take back"}
ANSWER_WORDS = {"approve": "approve", "refuse": "refuse", "undo-approve": "approve",
                "undo-refuse": "refuse"}  # fmt: skip
# What a reply to an invitation may say, and what each word does.
INVITATION_WORDS = {"join": "join", "accept": "join", "yes": "join", "decline": "decline",
                    "no": "decline"}  # fmt: skip
OUR_MESSAGE_ID = re.compile(r"<correo\.(\d+)\.[a-z_]+@([^>]+)>", re.IGNORECASE)

# The database is out of reach (down, restarting, the connection dropped, a
# lock or serialisation conflict): the same mail later will go through.
UNAVAILABLE = (OperationalError, InterfaceError)
# Refusals that no retry can change: the door answers them permanently.
PERMANENT = {"malformed", "unprocessable", "no_sender"}
UNPROCESSABLE = gettext_noop("the mail could not be processed; nothing was applied")


@dataclass
class Outcome:
    status: str  # applied, answered, rejected, duplicate; retry (nothing was recorded)
    reason: str = ""
    detail: str = ""
    inbound_id: int | None = None
    results: list[dict] = field(default_factory=list)

    @property
    def retry(self) -> bool:
        """Nothing was done: the sender must send the mail again later."""
        return self.status == "retry"

    @property
    def permanent(self) -> bool:
        """The mail can never be processed: the door refuses it for good."""
        return self.status == "rejected" and self.reason in PERMANENT


class Rejected(Exception):
    """Refuse the message; `reply` says whether the sender is told why.
    `message` is a msgid with `params`: the ledger keeps it in English, the
    mail says it in the sender's language."""

    def __init__(self, reason: str, message: str, *, reply: bool = True, **params) -> None:
        super().__init__(message % params if params else message)
        self.reason, self.template, self.params, self.reply = reason, message, params, reply
        self.message = str(self)


@dataclass(frozen=True)
class Answering:
    """A mail to an invitation's address, from the account it was sent to."""

    invitation_id: int
    user: User


class AlreadyRecorded(Exception):
    """Another delivery of the same Message-ID committed first."""


@dataclass
class Letter:
    """A mail as read: its headers always, its text only when it is readable."""

    message: EmailMessage
    message_id: str
    sender: str
    subject: str
    size: int
    too_large: bool = False
    unreadable: str = ""  # why the mail cannot be read, when it cannot
    text: str = ""


def receive(
    raw: bytes, *, door: str, recipients: Iterable[str] = (), mail_from: str = ""
) -> Outcome:
    """Process one raw RFC 822 message; never raises."""
    game_id_var.set(None)  # a listener thread handles many messages: no stale game id
    recipients = list(recipients)
    try:
        return _receive(raw, door=door, recipients=recipients)
    except UNAVAILABLE as error:
        return _try_again(door, error)
    except Exception:  # a mail that breaks our code would break it on every retry
        log.exception("inbound mail through %s could not be processed", door)
    return refuse(raw, door=door, reason="unprocessable", message=UNPROCESSABLE)


def refuse(raw: bytes, *, door: str, reason: str, message: str) -> Outcome:
    """Record `raw` as refused for good without reading more than its headers
    (for a mail that broke the processing, or that a door could not hand over
    whole), and tell its sender if that is an account of ours; never raises."""
    try:
        return _refuse(raw, door=door, rejection=Rejected(reason, message))
    except UNAVAILABLE as error:
        return _try_again(door, error)
    except Exception:
        log.exception("inbound mail through %s could not even be recorded", door)
        return Outcome("rejected", reason, message)


def _try_again(door: str, error: Exception) -> Outcome:
    log.warning("inbound mail through %s deferred, the database is unavailable: %s", door, error)
    return Outcome("retry", "unavailable", "the database is unavailable; try again later")


def read(raw: bytes) -> Letter:
    """The mail's headers, and its text when it is fit to read; never raises
    for any bytes (what cannot be read is named in `unreadable`)."""
    too_large = len(raw) > settings.NOTIFICATIONS_INBOUND_MAX_BYTES
    message, unreadable, text = None, "", ""
    try:
        parse.check_raw(raw)
        if too_large:
            message = parse.parse_headers(raw)
        else:
            message = parse.parse_bytes(raw)
            parse.check_parsed(message)
            text = parse.message_text(message)
        parse.check_headers(message)
    except parse.Unreadable as error:
        unreadable = str(error)
    if message is None:
        message = parse.parse_headers(raw)
    return Letter(
        message=message, message_id=_message_id(message, raw),
        sender=parseaddr(parse.header(message, "From"))[1].strip().lower(),
        subject=parse.subject(message)[:255], size=len(raw), too_large=too_large,
        unreadable=unreadable, text=text,
    )  # fmt: skip


def _message_id(message, raw: bytes) -> str:
    """The Message-ID, or (absent, too long or not plain ASCII) one made of
    the mail's sha256, so that the same bytes sent again are still one mail."""
    value = parse.header(message, "Message-ID")
    if not value or len(value) > 250 or not value.isascii() or not value.isprintable():
        value = "<sha256." + hashlib.sha256(raw).hexdigest() + "@correo.invalid>"
    return value


def _receive(raw: bytes, *, door: str, recipients: list[str]) -> Outcome:
    letter = read(raw)
    if InboundMessage.objects.filter(message_id=letter.message_id).exists():
        return _duplicate(letter)
    try:
        with transaction.atomic():
            return _process(letter, door, recipients)
    except AlreadyRecorded:
        return _duplicate(letter)


def _duplicate(letter: Letter) -> Outcome:
    return Outcome("duplicate", "duplicate", f"{letter.message_id} was already processed")


def _process(letter: Letter, door: str, recipients: list[str]) -> Outcome:
    """Inside the one transaction: authenticate, act, record, answer."""
    try:
        found = authenticate(letter, recipients)
    except Rejected as rejection:
        return _reject(letter, door, rejection)
    if isinstance(found, Answering):
        return _process_invitation(letter, door, found)
    game, seat, user = found
    commands = parse.reply_lines(letter.text)
    results, show_help = execute(game, seat, user, commands, _replied_seq(letter.message, game))
    return _conclude(letter, door, user, results, show_help or not commands, game=game, seat=seat)


def _process_invitation(letter: Letter, door: str, answering: Answering) -> Outcome:
    commands = parse.reply_lines(letter.text)
    results, show_help = answer_invitation(answering, commands)
    return _conclude(letter, door, answering.user, results, show_help or not commands,
                     invitation=answering.invitation_id)  # fmt: skip


def _conclude(letter: Letter, door: str, user, results: list[dict], show_help: bool, *,
              game: Game | None = None, **about) -> Outcome:  # fmt: skip
    """Record what the commands did and answer the sender (about the game,
    or the invitation, the mail was for)."""
    applied = any(r["ok"] and r.get("applied") for r in results)
    record = _record(
        letter, door, game=game, user=user, detail=_detail(results),
        status=InboundMessage.Status.APPLIED if applied else InboundMessage.Status.ANSWERED,
    )  # fmt: skip
    _answer(record, user, results, show_help=show_help, game=game, **about)
    return Outcome(record.status, "", record.detail, record.pk, results)


def _detail(results: list[dict]) -> str:
    """What the ledger keeps of the results: one line each."""
    return "\n".join(
        f"{r['command']}: {'ok' if r['ok'] else 'refused'}: {r['message']}" for r in results
    )[:5000]


def _record(letter: Letter, door: str, **fields) -> InboundMessage:
    """The ledger row, written last so that it commits with the outcome."""
    try:
        with transaction.atomic():
            return InboundMessage.objects.create(
                message_id=letter.message_id, door=door[:16], sender=letter.sender[:320],
                subject=letter.subject[:255], size=letter.size, **fields,
            )  # fmt: skip
    except IntegrityError as error:
        # A delivery of the same mail running at the same time committed first
        # (its row held ours at the unique index until then).
        if InboundMessage.objects.filter(message_id=letter.message_id).exists():
            raise AlreadyRecorded from error
        raise


def _refuse(raw: bytes, *, door: str, rejection: Rejected) -> Outcome:
    try:
        message = parse.parse_headers(raw)
    except Exception:
        message = EmailMessage()
    letter = Letter(message, _message_id(message, raw), "", "", len(raw))
    try:
        letter.sender = parseaddr(parse.header(message, "From"))[1].strip().lower()
        letter.subject = parse.subject(message)[:255]
    except Exception:
        pass
    if InboundMessage.objects.filter(message_id=letter.message_id).exists():
        return _duplicate(letter)
    rejection.reply = not _is_automatic(message, letter.sender)
    try:
        with transaction.atomic():
            return _reject(letter, door, rejection)
    except AlreadyRecorded:
        return _duplicate(letter)


def _recipients(message, envelope: list[str]) -> list[str]:
    fields = []
    for name in ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To"):
        fields.extend(parse.headers(message, name))
    found = [address for _, address in getaddresses(fields)]
    return [a.strip().lower() for a in [*envelope, *found] if a and "@" in a]


def _is_automatic(message, sender: str) -> bool:
    auto = parse.header(message, "Auto-Submitted").lower()
    precedence = parse.header(message, "Precedence").lower()
    local = sender.split("@", 1)[0]
    own = parseaddr(settings.DEFAULT_FROM_EMAIL)[1].lower()
    return (
        (auto and auto != "no")
        or precedence in ("bulk", "junk", "list", "auto_reply")
        or local in ("mailer-daemon", "postmaster", "noreply", "no-reply")
        or sender == own
        or sender.endswith("@" + settings.REPLY_DOMAIN.lower())
    )


def authenticate(letter: Letter, recipients: list[str]):
    """(game, seat, user) of a message whose address verifies and whose sender is
    that seat's player now (a seat handed to another player expires the
    old player's addresses) and not suspended, or the `Answering` of a
    message to an invitation's address from its account; raises Rejected
    otherwise."""
    ours = _addresses_of_ours(letter, recipients)
    answering = next(filter(None, map(verify_invitation_address, ours)), None)
    if answering is not None:
        user = User.objects.filter(pk=answering.user_id, is_active=True).first()
        if user is None:
            raise Rejected("expired", gettext_noop(
                "this reply address has expired: its account is closed"))  # fmt: skip
        _check_sender(letter, user)
        return Answering(answering.invitation_id, user)
    token = next((t for t in map(verify_reply_address, ours) if t is not None), None)
    if token is None:
        raise Rejected("bad_signature", gettext_noop(
            "the reply address is not valid (its signature does "
            "not verify): reply to the mail Correo sent you"))  # fmt: skip
    game_id_var.set(token.game_id)  # every log line from here on names the game
    game = Game.objects.filter(pk=token.game_id).first()
    seat = Seat.objects.filter(game_id=token.game_id, index=token.seat).first()
    user = User.objects.filter(pk=token.user_id, is_active=True).first()
    if game is None or seat is None or user is None or seat.user_id != user.pk:
        raise Rejected("expired", gettext_noop(
            "this reply address has expired: that seat is no longer held "
            "by its player"))  # fmt: skip
    _check_sender(letter, user)
    return game, token.seat, user


def _addresses_of_ours(letter: Letter, recipients: list[str]) -> list[str]:
    """The reply addresses a mail fit to read was sent to; raises Rejected
    for a mail that is not (unreadable, automatic, too large, not to us)."""
    message, sender = letter.message, letter.sender
    if letter.unreadable:
        raise Rejected("malformed", gettext_noop("the mail cannot be read: %(why)s; nothing was "
                       "applied"), reply=not _is_automatic(message, sender),
                       why=letter.unreadable)  # fmt: skip
    if not sender or "@" not in sender:
        raise Rejected("no_sender", "the mail has no sender address", reply=False)
    if _is_automatic(message, sender):
        raise Rejected("automatic", "automatic mail (auto-reply, bounce, list) is ignored",
                       reply=False)  # fmt: skip
    if letter.too_large:
        limit = settings.NOTIFICATIONS_INBOUND_MAX_BYTES // 1000
        raise Rejected("too_large", gettext_noop("the mail is larger than %(limit)s kB; send "
                       "your command as a short reply without attachments"),
                       limit=limit)  # fmt: skip
    ours = [a for a in _recipients(message, recipients) if is_reply_address(a)]
    if not ours:
        raise Rejected("no_reply_address", gettext_noop(
            "the mail was not sent to a game's reply address; "
            "reply to the mail Correo sent you for that game"))  # fmt: skip
    return ours


def _check_sender(letter: Letter, user: User) -> None:
    """The account may send mail, and this mail came from its address."""
    if user.suspended:
        raise Rejected("suspended", gettext_noop(
            "your account is suspended: no mail is accepted from it"))  # fmt: skip
    if not user.email or user.email.strip().lower() != letter.sender:
        raise Rejected("wrong_sender", gettext_noop(
            "this mail was not sent from the address of the player "
            "of that seat; reply from the address of your Correo account"))  # fmt: skip


def _replied_seq(message, game: Game) -> int | None:
    """The seq of our notification that this mail answers (In-Reply-To, References)."""
    headers = " ".join(parse.header(message, name) for name in ("In-Reply-To", "References"))
    ids = [int(pk) for pk, domain in OUR_MESSAGE_ID.findall(headers)
           if domain.lower() == settings.REPLY_DOMAIN.lower()]  # fmt: skip
    if not ids:
        return None
    row = Notification.objects.filter(pk__in=ids, game=game, seq__isnull=False).order_by("-pk")
    return row.values_list("seq", flat=True).first()


def execute(
    game: Game, seat: int, user, commands: list[str | parse.Said | parse.Orders],
    replied_seq: int | None,
):  # fmt: skip
    """Carry out the command lines in order, stopping at the first refusal;
    what the reply says to the table is sent where it stands among them."""
    results: list[dict] = []
    show_help = False
    expected = replied_seq
    for item in commands[: parse.MAX_COMMANDS]:
        command = _as_command(item)
        word = " ".join(command.lower().split())
        game.refresh_from_db()
        if isinstance(item, parse.Orders):
            left = leave_orders(game, seat, user, item)
            results.extend(left)
            if not all(result["ok"] for result in left):
                break
            continue
        try:
            if isinstance(item, parse.Said):
                # Talk changes no seat's moves: the seq the reply answers holds.
                event = check_send_message(
                    game, user, to="table", text=item.text, source=Event.Source.EMAIL
                )
                results.append(_ok(command, gettext_noop("said to the table (seq %(seq)s)"),
                                   applied=True, seq=event.seq))  # fmt: skip
            elif word in HELP_WORDS:
                show_help = True
                results.append(_ok(command, gettext_noop("the commands are listed below")))
            elif word in STATE_WORDS:
                results.append(_ok(command, gettext_noop("the game as you see it is below")))
            elif word in MOVES_WORDS:
                results.append(_ok(command, gettext_noop("your legal moves are listed below")))
            elif parse.report_reason(command) is not None:
                check_report(game, user, reason=parse.report_reason(command))
                results.append(_ok(command, gettext_noop(
                    "your report went to the moderators")))  # fmt: skip
            elif word in RESIGN_WORDS:
                event = check_resign(game, user, source=Event.Source.EMAIL, reason="by mail")
                results.append(_ok(command, gettext_noop("you resigned (seq %(seq)s)"),
                                   applied=True, seq=event.seq))  # fmt: skip
                expected = event.seq
            elif word in TAKEBACK_WORDS:
                event = check_request_takeback(game, user, expected_seq=game.seq, source="email")
                results.append(_ok(command, gettext_noop("you asked to take back your last move; "
                                   "the other players are asked to agree"),
                                   applied=True))  # fmt: skip
                expected = event.seq
            elif word in ANSWER_WORDS:
                answer = ANSWER_WORDS[word]
                event = check_answer_takeback(
                    game, user, answer=answer, expected_seq=game.seq, source="email"
                )
                said = (gettext_noop("you answered approve (seq %(seq)s)") if answer == "approve"
                        else gettext_noop("you answered refuse (seq %(seq)s)"))  # fmt: skip
                results.append(_ok(command, said, applied=True, seq=event.seq))
                expected = event.seq
            else:
                event = _move(game, user, command, expected)
                results.append(_ok(command, gettext_noop("applied as seq %(seq)s"),
                                   applied=True, seq=event.seq))  # fmt: skip
                expected = event.seq
        except MovedOn as error:
            results.append({"command": command, "ok": False, **error.said})
            break
        except (IllegalAction, ServiceError) as error:
            # A refusal of the service or the engine, kept in English with
            # what the mail needs to say it in the player's language.
            results.append({"command": command, "ok": False, **refusal(error)})
            break
        if len(results) > parse.MAX_COMMANDS - 1:
            break
    if len(commands) > parse.MAX_COMMANDS and results and results[-1]["ok"]:
        extra = commands[parse.MAX_COMMANDS]
        extra = _as_command(extra)
        results.append({"command": extra, "ok": False,
                        **_message(gettext_noop("at most %(count)s commands per mail"),
                                   count=parse.MAX_COMMANDS)})  # fmt: skip
    return results, show_help


def answer_invitation(answering: Answering, commands: list[str | parse.Said | parse.Orders]):
    """Carry out the lines of a reply to an invitation (join or decline, or
    help), stopping at the first refusal."""
    results: list[dict] = []
    show_help = False
    for item in commands[: parse.MAX_COMMANDS]:
        command = _as_command(item)
        word = " ".join(command.lower().split())
        try:
            if word in HELP_WORDS:
                show_help = True
                results.append(_ok(command, gettext_noop("the commands are listed below")))
            elif INVITATION_WORDS.get(word) == "join":
                table = check_accept_invitation(answering.invitation_id, answering.user,
                                                source=Event.Source.EMAIL)  # fmt: skip
                results.append(_joined(command, table))
            elif INVITATION_WORDS.get(word) == "decline":
                check_decline_invitation(answering.invitation_id, answering.user)
                results.append(_ok(command, gettext_noop("you declined the invitation"),
                                   applied=True))  # fmt: skip
            else:
                show_help = True
                results.append({"command": command, "ok": False, **_message(gettext_noop(
                    "an invitation is answered with one word: join or decline"))})  # fmt: skip
                break
        except ServiceError as error:
            results.append({"command": command, "ok": False, **refusal(error)})
            break
    return results, show_help


CANCEL_WORDS = {"cancel", "cancel all"}


def leave_orders(game: Game, seat: int, user, orders: parse.Orders) -> list[dict]:
    """Write a reply's `orders:` lines as standing orders through the service
    (as the page and the API do), in order, stopping at the first refusal:
    `cancel` cancels every order of mine; a kind of order the title offers,
    followed by its values (`auction_pass 60`, `dividend SC payout`); any
    other line is a move (a `play` order), read as the game stands."""
    results: list[dict] = []
    for line in orders.lines:
        command = f"orders: {line}"
        try:
            if " ".join(line.lower().split()) in CANCEL_WORDS:
                cancelled = check_cancel_order(game, user, number=None)
                results.append(_ok(command, gettext_noop(
                    "cancelled your standing orders (%(count)s)"), applied=True,
                    count=len(cancelled)))  # fmt: skip
                continue
            before = game.seq
            written = check_write_order(game, user, order=_order_of(game, line), source="email")
            said = _what_became_of(game, seat, written["id"], before)
            results.append(_ok(command, said, applied=True, id=written["id"],
                               says=written["says"]))  # fmt: skip
        except (IllegalAction, ServiceError) as error:
            results.append({"command": command, "ok": False, **refusal(error)})
            break
    return results


# What the answer says of an order just written, by what became of it.
BECAME_OF = {
    orders_selected.PLAYED_AND_STANDING: gettext_noop(
        "standing order %(id)s, played at once (it was your turn) and standing on: %(says)s"
    ),
    orders_selected.PLAYED: gettext_noop(
        "order %(id)s played at once, it was your turn: %(says)s"
    ),
    orders_selected.STANDING: gettext_noop("standing order %(id)s: %(says)s"),
    orders_selected.DROPPED: gettext_noop(
        "order %(id)s was dropped at once (its note says why): %(says)s"
    ),
}


def _what_became_of(game: Game, seat: int, number: int, before: int) -> str:
    game.refresh_from_db()
    return BECAME_OF[orders_selected.became_of(game, seat, number, before)]


def _order_of(game: Game, line: str) -> dict:
    """The order a line names: a kind the title offers (not `play`) with its
    values in the order of its fields, or else a move line."""
    first, _, rest = line.partition(" ")
    programmes = {p["kind"]: p for p in orders_selected.programme_list(engine_for(game))}
    programme = programmes.get(first.lower())
    if programme is None or programme["kind"] == "play":
        return {"kind": "play", "text": line}
    order: dict = {"kind": programme["kind"]}
    fields = programme["fields"]
    names = list(fields)
    if names and fields[names[0]] == "cards":
        order[names[0]] = _word_value(fields[names[0]], rest)  # the two cards
        return order
    words = rest.split()
    if len(words) > len(names):
        raise InvalidRequest(gettext_noop("%(kind)s takes at most these values: %(names)s"),
                             kind=programme["kind"], names=" ".join(names) or "none")  # fmt: skip
    for name, word in zip(names, words, strict=False):  # a value may be left out
        order[name] = _word_value(fields[name], word)
    return order


def _word_value(kind: str, words: str):
    """The value as the page reads it; words that are none are left as they
    are, for the programme to refuse with its own reason."""
    try:
        return read_value(kind, words)
    except Unreadable:
        return words


def _joined(command: str, table) -> dict:
    if table.game_id is not None:
        return _ok(command, gettext_noop("you took your seat; the table is full and game "
                   "%(game)s has started"), applied=True, game=table.game_id)  # fmt: skip
    return _ok(command, gettext_noop("you took your seat at the table (%(seated)s of "
               "%(most)s seats taken)"), applied=True, seated=table.seated,
               most=table.max_seats)  # fmt: skip


def _as_command(item: str | parse.Said | parse.Orders) -> str:
    """A line as the answer names it; a message by its first words."""
    if isinstance(item, parse.Orders):
        return "orders:"
    if isinstance(item, parse.Said):
        first = " ".join(item.text.split())
        return "say: " + (first if len(first) <= 60 else first[:59] + "…")
    return item


def _ok(command: str, message: str, *, applied: bool = False, **params) -> dict:
    return {"command": command, "ok": True, **_message(message, **params), "applied": applied}


def _message(template: str, key: str = "message", **params) -> dict:
    """A message to the player, kept in English (the ledger's language) and
    as its msgid and values, which the mail says in the player's language
    (notifications.render.said)."""
    return {
        key: template % params if params else template,
        f"{key}_template": template,
        f"{key}_params": params,
    }


def refusal(error: IllegalAction | ServiceError) -> dict:
    """An engine's refusal keeps its title's msgid and values
    (`message_engine`), a service's its Django msgid and values."""
    if isinstance(error, IllegalAction):
        kept = error.kept()
        return {"message": error.message, **({"message_engine": kept} if kept else {})}
    return _message(error.template, **error.params)


def _move(game: Game, user, command: str, replied: int | None) -> Event:
    """A move line.  A reply to an older mail still goes through when the
    player's legal moves are the same now as then (the service's rule for
    every door); otherwise the game has moved on since that mail."""
    seen = game.seq if replied is None else replied
    try:
        return check_submit_action(
            game, user, text=command, expected_seq=seen, source=Event.Source.EMAIL
        )
    except StaleSeq as stale:
        raise MovedOn(seen, stale.current) from None


class MovedOn(StaleSeq):
    """The stale seq of a reply to an older mail, told in the player's words."""

    def __init__(self, replied: int, now: int) -> None:
        super().__init__(replied, now)
        self.said = _message(
            gettext_noop(
                "the game has moved on since the mail you answered (seq %(replied)s, now "
                "%(now)s); nothing was applied: see the current state and your legal moves below"
            ),
            replied=replied,
            now=now,
        )
        self.message = self.said["message"]


def _within_rate(address: str, kind: str, limit: int) -> bool:
    since = timezone.now() - timedelta(hours=1)
    sent = Notification.objects.filter(to_email=address, kind=kind, created_at__gte=since)
    return sent.count() < limit


def _answer(record, user, results, *, show_help: bool, game=None, seat=None,
            invitation: int | None = None) -> None:  # fmt: skip
    """The answer to a mail that authenticated: about its game, or about the
    invitation it answered."""
    address = user.email.strip().lower()
    ok = all(r["ok"] for r in results) and results
    if not ok and not _within_rate(address, Notification.Kind.REPLY,
                                   settings.NOTIFICATIONS_ERROR_REPLIES_PER_HOUR):  # fmt: skip
        return
    context = {
        "results": results,
        "applied": any(r.get("applied") for r in results),
        "show_help": show_help,
        "in_reply_to": record.message_id,
    }
    if invitation is not None:
        context["invitation"] = invitation
    if game is not None:
        game.refresh_from_db()
    row = Notification.objects.create(
        key=f"reply:{record.pk}", kind=Notification.Kind.REPLY, user=user, to_email=address,
        game=game, seq=game.seq if game is not None else None, seat=seat, context=context,
    )  # fmt: skip
    tasks.queue_after_commit(row)


def _is_registered(address: str) -> bool:
    """Refusals are mailed only to the addresses of our accounts: anyone else
    may be a forged sender, and answering them would be backscatter."""
    return bool(address) and User.objects.filter(email__iexact=address, is_active=True).exists()


def _reject(letter: Letter, door: str, rejection: Rejected) -> Outcome:
    record = _record(letter, door, status=InboundMessage.Status.REJECTED,
                     reason=rejection.reason, detail=rejection.message)  # fmt: skip
    log.info("inbound %s from %r rejected: %s", record.message_id, letter.sender,
             rejection.reason)  # fmt: skip
    sender = letter.sender
    limit = settings.NOTIFICATIONS_REJECTIONS_PER_HOUR
    if (
        rejection.reply
        and _is_registered(sender)
        and _within_rate(sender, Notification.Kind.REJECTION, limit)
    ):
        # The sender is not authenticated (a From is anyone's to write): the
        # answer carries none of the mail's words, neither its subject nor
        # its Message-ID, or a forged From would make Correo deliver a
        # stranger's text to one of its players.  Its reason is ours alone.
        context = _message(rejection.template, "reason", **rejection.params)
        row = Notification.objects.create(
            key=f"rejection:{record.pk}", kind=Notification.Kind.REJECTION,
            to_email=sender[:320], context=context,
        )  # fmt: skip
        tasks.queue_after_commit(row)
    return Outcome("rejected", rejection.reason, rejection.message, record.pk)
