"""Request shapes; responses are the plain dicts the selectors build."""

from __future__ import annotations

import datetime

from rest_framework import serializers


def validated(serializer_class: type[serializers.Serializer], data) -> dict:
    """`serializer_class(data=data)`'s validated data, or its ValidationError.

    A new serializer per call: reusing one by resetting DRF's private result
    attributes saved 0.1 to 0.3 ms per call, lost in a move's spread
    (docs/benchmarks.md, "Django and DRF internals").
    """
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class Given:
    """A query field that, given empty (`?limit=`), is refused rather than
    read as absent.  DRF reads an empty value of a query or form field as
    if the field were absent and takes the default: a client that meant
    something by it would never learn it was ignored."""

    def get_value(self, dictionary):
        if hasattr(dictionary, "getlist") and dictionary.get(self.field_name) == "":
            return ""  # refused by to_internal_value: not a value of the field's kind
        return super().get_value(dictionary)  # type: ignore[misc]


class Flag(Given, serializers.BooleanField):
    """A yes or no that, given, must say yes or no."""


class GivenInteger(Given, serializers.IntegerField):
    """A number that, given, must be a number."""


class GivenChoice(Given, serializers.ChoiceField):
    """A choice that, given, must be one of the choices."""


class CreateGameIn(serializers.Serializer):
    title = serializers.CharField(max_length=32)
    players = serializers.ListField(
        child=serializers.CharField(max_length=150),
        min_length=1,
        max_length=8,
        help_text="usernames in seat order; bot:random or bot:greedy seats a bot",
    )
    options = serializers.DictField(required=False, default=dict)
    clock = serializers.DictField(required=False, allow_null=True, default=None)
    public = Flag(required=False, default=True)
    spectator_delay = serializers.IntegerField(
        required=False, default=0, min_value=0, max_value=1000
    )
    press = serializers.ChoiceField(
        choices=["full", "public", "none"], required=False, default="full",
        help_text="table talk: full (to the table and privately), public (table only), none",
    )  # fmt: skip
    reveal_private = Flag(
        required=False, default=True,
        help_text="show the private messages to the players once the game is over",
    )  # fmt: skip


SUBMIT_TEXT_LENGTH = 500


class SubmitIn(serializers.Serializer):
    seq = serializers.IntegerField(min_value=0)
    action = serializers.DictField(required=False)
    text = serializers.CharField(
        required=False, max_length=SUBMIT_TEXT_LENGTH, trim_whitespace=True
    )

    def validate(self, data):
        if ("action" in data) == ("text" in data):
            raise serializers.ValidationError("give exactly one of action or text")
        return data


_ABSENT = object()


def submission(data) -> dict:
    """`SubmitIn`'s validated data for a move's body.

    The body players send (an object with a whole seq of at least 0 and
    either an object `action` or a printable line of `text`) is taken here
    as SubmitIn would give it; any other body goes through SubmitIn itself,
    for its verdict and its words.  The serializer was a twentieth of a
    move's time in the server (docs/benchmarks.md, "A move's cost from
    outside"); tests/api/test_submission.py holds the two to the same
    answer for generated bodies of every shape.
    """
    if type(data) is dict and type(data.get("seq")) is int and data["seq"] >= 0:
        action, text = data.get("action", _ABSENT), data.get("text", _ABSENT)
        if type(action) is dict and text is _ABSENT:
            return {"seq": data["seq"], "action": {str(k): v for k, v in action.items()}}
        if action is _ABSENT and type(text) is str:
            line = text.strip()
            # A control character or a surrogate has words of its own in
            # CharField's validators: those bodies take the long way.
            if line and len(line) <= SUBMIT_TEXT_LENGTH and line.isprintable():
                return {"seq": data["seq"], "text": line}
    return validated(SubmitIn, data)


class UndoIn(serializers.Serializer):
    to_seq = serializers.IntegerField(min_value=1)
    reason = serializers.CharField(max_length=500)


class HandToBotIn(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=32)
    kind = serializers.ChoiceField(choices=["random", "greedy"])
    reason = serializers.CharField(max_length=500)


class TakebackIn(serializers.Serializer):
    seq = serializers.IntegerField(min_value=0)
    answer = serializers.ChoiceField(choices=["approve", "refuse"], required=False)


class EventsQuery(serializers.Serializer):
    after = GivenInteger(min_value=0, required=False, default=0)
    limit = GivenInteger(min_value=1, max_value=500, required=False, default=100)


class GamesQuery(serializers.Serializer):
    mine = Flag(required=False, default=False)
    to_act = Flag(required=False, default=False)
    player = serializers.CharField(max_length=150, required=False)
    title = serializers.CharField(max_length=32, required=False)
    status = GivenChoice(choices=["active", "finished", "aborted"], required=False)
    # Read by the paginator; checked here so that a page that cannot exist
    # (0, -1, "x") is a 400 instead of DRF's 404 or a silent default.
    page = GivenInteger(min_value=1, required=False)
    page_size = GivenInteger(min_value=1, required=False)


class SeqOut(serializers.Serializer):
    seq = serializers.IntegerField()


class ClockIn(serializers.Serializer):
    action = serializers.ChoiceField(choices=["pause", "resume", "extend"])
    reason = serializers.CharField(max_length=500)
    by = serializers.CharField(max_length=20, required=False, help_text="e.g. '24h' (extend)")
    seat = serializers.IntegerField(min_value=0, max_value=10, required=False)

    def validate(self, data):
        if data["action"] == "extend" and "by" not in data:
            raise serializers.ValidationError("extend needs 'by', e.g. '24h'")
        return data


class VacationIn(serializers.Serializer):
    days = serializers.IntegerField(min_value=1, max_value=366)


class ReasonIn(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class OptionalReasonIn(serializers.Serializer):
    reason = serializers.CharField(max_length=500, required=False, default="", allow_blank=True)


class SeatReasonIn(ReasonIn):
    seat = serializers.IntegerField(min_value=0, max_value=10)


class ReplaceSeatIn(SeatReasonIn):
    username = serializers.CharField(max_length=150, help_text="the player who takes the seat")


class NoteIn(serializers.Serializer):
    text = serializers.CharField(max_length=500)


class ItemNoteIn(serializers.Serializer):
    note = serializers.CharField(max_length=2000, required=False, default="", allow_blank=True)


class QueueQuery(serializers.Serializer):
    state = serializers.ChoiceField(choices=["open", "taken", "closed"], required=False)


class ItemOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["flagged", "verify", "report"])
    game = serializers.IntegerField()
    title = serializers.CharField()
    state = serializers.ChoiceField(choices=["open", "taken", "closed"])
    reason = serializers.CharField()
    reported_by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    taken_by = serializers.CharField(allow_null=True)
    taken_at = serializers.DateTimeField(allow_null=True)
    closed_by = serializers.CharField(allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)
    note = serializers.CharField()


class QueueOut(serializers.Serializer):
    items = ItemOut(many=True)


class SuspensionOut(serializers.Serializer):
    username = serializers.CharField()
    suspended = serializers.BooleanField()
    reason = serializers.CharField()
    suspended_by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    lifted_at = serializers.DateTimeField(allow_null=True)
    lifted_by = serializers.CharField(allow_null=True)


class ImportIn(serializers.Serializer):
    document = serializers.DictField(help_text="a complete export (docs/export-format.md)")
    map = serializers.DictField(
        child=serializers.CharField(max_length=150), required=False, default=dict,
        help_text="the export's account name: this server's account name",
    )  # fmt: skip
    placeholders = Flag(
        required=False, default=False,
        help_text="create an inactive account for each account not in map",
    )  # fmt: skip
    accept_unverified_seals = Flag(
        required=False, default=False,
        help_text="import even events whose seals this server cannot check (another "
        "server's key, or none); the game is then marked imported_unverified",
    )  # fmt: skip


class ImportedOut(serializers.Serializer):
    id = serializers.IntegerField()
    seq = serializers.IntegerField()
    title = serializers.CharField()
    accounts = serializers.DictField(
        child=serializers.CharField(),
        help_text="each account of the export: its account here (a placeholder whose name "
        "a sign-up could not take gets a derived one)",
    )  # fmt: skip
    imported_unverified = serializers.BooleanField()
    unverified = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="the runs [first, last] of events imported with unverified seals",
    )  # fmt: skip


# A mailed head: the seq and the head hash a mail (or any answer) carried.
SEEN_PATTERN = r"^[1-9][0-9]{0,9}:[0-9a-fA-F]{64}\Z"


class VerifyQuery(serializers.Serializer):
    seen = serializers.RegexField(
        SEEN_PATTERN, required=False, trim_whitespace=False,
        help_text="SEQ:HASH, a head you were shown (a mail's seq and head hash): whether "
        "the chain still has that hash at that seq",
    )  # fmt: skip

    def validate_seen(self, value: str) -> tuple[int, str]:
        seq, _, hash_ = value.partition(":")
        if int(seq) > 2**31 - 1:
            raise serializers.ValidationError("the seq is out of range")
        return int(seq), hash_.lower()


class CheckpointsQuery(serializers.Serializer):
    since = serializers.CharField(
        required=False, max_length=80, trim_whitespace=False,
        help_text="the previous answer's `next`: the checkpoints published after it",
    )  # fmt: skip
    limit = GivenInteger(min_value=1, max_value=1000, required=False, default=500)

    def validate_since(self, value: str) -> tuple:
        at, _, rest = value.partition("/")
        game, _, seq = rest.partition("/")
        try:
            moment = datetime.datetime.fromisoformat(at)
        except ValueError:
            moment = None
        if (
            moment is None
            or moment.tzinfo is None
            or not (game.isdigit() and seq.isdigit() and len(game) <= 19 and len(seq) <= 10)
        ):
            raise serializers.ValidationError("not a cursor this feed gave: TIME/GAME/SEQ")
        return moment, int(game), int(seq)


class SeatsField(serializers.JSONField):
    """A table's seats: a number, or {min, max} (the service checks the range)."""

    def to_internal_value(self, data):
        if type(data) is int or (isinstance(data, dict) and set(data) <= {"min", "max"}):
            if isinstance(data, dict) and not all(type(v) is int for v in data.values()):
                raise serializers.ValidationError("min and max must be whole numbers")
            return data
        raise serializers.ValidationError("a number of seats, or {min, max}")


class CreateTableIn(serializers.Serializer):
    title = serializers.CharField(max_length=32)
    seats = SeatsField(
        required=False, default=None,
        help_text="a number, or {min, max}; omitted: the title's whole range",
    )  # fmt: skip
    options = serializers.DictField(required=False, default=dict)
    clock = serializers.DictField(required=False, allow_null=True, default=None)
    public = Flag(required=False, default=True, help_text="anyone may watch")
    open = Flag(
        required=False, default=True,
        help_text="listed in the lobby for anyone to join (else by link or invitation)",
    )  # fmt: skip
    seat_order = serializers.ChoiceField(
        choices=["random", "joined", "host"], required=False, default="random",
        help_text="random; as the players joined; or the host's order, given at the start",
    )  # fmt: skip
    spectator_delay = serializers.IntegerField(
        required=False, default=0, min_value=0, max_value=1000
    )
    press = serializers.ChoiceField(
        choices=["full", "public", "none"], required=False, default="full",
        help_text="table talk: to the table and to one seat (full), to the table only, or none",
    )  # fmt: skip
    reveal_private = Flag(
        required=False, default=True,
        help_text="private messages shown to the players once the game has ended",
    )  # fmt: skip
    rated = Flag(
        required=False, default=True, help_text="the result counts towards the ratings",
    )  # fmt: skip
    offer_seats = Flag(
        required=False, default=False,
        help_text="a seat whose player is suspended or runs out of timeouts is offered in the "
        "lobby by itself (a public game's only)",
    )  # fmt: skip
    requirements = serializers.DictField(
        required=False, default=dict,
        help_text="who may take a seat: {min_rating, max_timeouts_per_100} (docs/ratings.md)",
    )  # fmt: skip


class TablesQuery(serializers.Serializer):
    title = serializers.CharField(max_length=32, required=False)
    open = Flag(required=False, default=False)
    page = GivenInteger(min_value=1, required=False)
    page_size = GivenInteger(min_value=1, required=False)


class TableQuery(serializers.Serializer):
    token = serializers.CharField(max_length=200, required=False)


class JoinIn(serializers.Serializer):
    token = serializers.CharField(
        max_length=200, required=False, help_text="the invite_token of a link to the table"
    )


class RemoveIn(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="a seated player, or bot:<kind>")


class StartIn(serializers.Serializer):
    order = serializers.ListField(
        child=serializers.CharField(max_length=150), required=False, max_length=8,
        help_text="the seated players in seat order (tables whose host orders the seats)",
    )  # fmt: skip


class EmptyIn(serializers.Serializer):
    """A body that carries nothing the act needs: read all the same, so that
    a malformed one is refused as at every other door."""


class InviteIn(serializers.Serializer):
    usernames = serializers.ListField(
        child=serializers.CharField(max_length=150), required=False, default=list, max_length=20,
        help_text="accounts to invite; bot:random or bot:greedy seats a bot at once",
    )  # fmt: skip
    emails = serializers.ListField(
        child=serializers.CharField(max_length=254), required=False, default=list, max_length=20,
        help_text="addresses of people without an account (the mail leads to sign-up)",
    )  # fmt: skip


class LinkIn(serializers.Serializer):
    single_use = Flag(required=False, default=False)
    expires_in = serializers.IntegerField(
        required=False, min_value=60, max_value=90 * 86400,
        help_text="seconds; omitted: the link works as long as the table waits",
    )  # fmt: skip


class RevokeIn(serializers.Serializer):
    token = serializers.CharField(
        max_length=200, required=False, help_text="the link to revoke; omitted: every link"
    )


class InvitationsQuery(serializers.Serializer):
    all = Flag(required=False, default=False, help_text="answered invitations too")


class MessageIn(serializers.Serializer):
    to = serializers.JSONField(help_text='"table", "spectators", "me", or a seat number')
    # The service holds a message to CORREO_MESSAGE_LENGTH; this only bounds
    # what is read at all.
    text = serializers.CharField(max_length=20_000, trim_whitespace=False)


class MessagesQuery(serializers.Serializer):
    after = GivenInteger(min_value=0, required=False, default=0)
    limit = GivenInteger(min_value=1, max_value=500, required=False, default=200)


class SeatIn(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=32)


class RematchIn(serializers.Serializer):
    order = serializers.ChoiceField(
        choices=["rotate", "keep", "random"], required=False, default="rotate",
        help_text="the seats: rotated by one (the default), kept, or drawn at random",
    )  # fmt: skip


class OfferSeatIn(SeatReasonIn):
    pass


class OrderIn(serializers.Serializer):
    order = serializers.DictField(
        help_text='the standing order: {"kind": K, ...}; the kinds a seat may write, with '
        "their fields, are under `programmes` in GET .../orders/.  A `play` order gives "
        'its move as "action" (an object) or "text" (a line, as a mail reply says it)',
    )


class OrderCancelQuery(serializers.Serializer):
    id = serializers.IntegerField(
        min_value=1, max_value=2**31 - 1, required=False, default=None,
        help_text="the order to cancel; without it, every standing order of yours",
    )  # fmt: skip
