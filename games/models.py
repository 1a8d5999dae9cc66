"""The event store: games, seats, their immutable event streams and snapshots."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .fields import JSONTextField


class Press(models.TextChoices):
    """What the players may say to each other: `full` (to the table and to
    one seat), `public` (to the table only) or `none`."""

    FULL = "full"
    PUBLIC = "public"
    NONE = "none"


def seen_late() -> models.Q:
    """The games strangers see late: public, running, with a spectator delay
    (games.stream.spectators).  ("active" is Game.Status.ACTIVE, not yet
    defined here.)"""
    return models.Q(public=True, spectator_delay__gt=0, status="active")


def listed_at() -> models.Case:
    """When a game last changed as a stranger may know it: its spectators'
    point for a public running game they see late (games.stream.spectators),
    its last change otherwise.  Lists sort by it for every viewer who holds
    no seat in such a game (games.selectors.listing.newest_first), through
    the index of this very expression (Game.Meta): a page reads its rows
    off the index instead of sorting every game the filters let through (a
    second for the dashboard at a million games)."""
    return models.Case(
        models.When(seen_late(), then=models.F("spectator_at")), default=models.F("updated_at")
    )


class Game(models.Model):
    """A game and the denormalised facts of its current state (rebuilt on every append)."""

    class Status(models.TextChoices):
        ACTIVE = "active"
        FINISHED = "finished"
        ABORTED = "aborted"

    title = models.CharField(max_length=32, db_index=True)
    options = JSONTextField(default=dict)
    engine_version = models.PositiveIntegerField()
    # Secrets: never shown to players before the game ends.
    seed = models.BigIntegerField()
    salt = models.CharField(max_length=64)
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.ACTIVE, db_index=True
    )
    seq = models.PositiveIntegerField(default=0)
    head_hash = models.CharField(max_length=64, blank=True)
    # The rule the game's events are hashed under (games.stream.chain); a game keeps
    # the rule it was created under, so older games keep verifying.
    chain_version = models.PositiveSmallIntegerField(default=2)
    to_act = JSONTextField(default=list)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    result = JSONTextField(null=True, blank=True)
    # Who may watch: any logged-in user when public, seats only otherwise;
    # spectators see the game as it stood `spectator_delay` moves ago.
    public = models.BooleanField(default=True)
    spectator_delay = models.PositiveSmallIntegerField(default=0)
    # Where those spectators stand (games.stream.spectators): the seq they see and
    # when its event was appended, which is the game's place in their list.
    # Written with each append that moves it, so lists sort in the database.
    spectator_seq = models.PositiveIntegerField(default=0)
    spectator_at = models.DateTimeField(null=True, blank=True)
    # Table talk (games.services.talk): who may talk to whom, chosen at the
    # table and fixed with the game (its created event records both).
    press = models.CharField(max_length=8, choices=Press.choices, default=Press.FULL)
    # Whether the private messages are shown to the players once the game is over.
    reveal_private = models.BooleanField(default=True)
    # Clock options (games.clocks.options.ClockConfig as JSON); null: no clock.
    clock = JSONTextField(null=True, blank=True)
    paused = models.BooleanField(default=False)
    # The seats whose players are bots (accounts.bots), so that a move in a
    # game without bots costs no look-up of whether a bot must answer it.
    bot_seats = JSONTextField(default=list)
    # Whether a seat ever wrote a standing order here, for the same reason:
    # set under the row's lock with the order's row (games.services.orders),
    # and read back by each append, so a move knows without a query whether
    # orders may fire after it.
    orders_written = models.BooleanField(default=False)
    # Set when a timeout under the `moderator` policy needs a moderator.
    flagged = models.BooleanField(default=False, db_index=True)
    # A moderator's lock while a dispute is open: no moves, clocks paused.
    locked = models.BooleanField(default=False)
    # Why a moderator aborted the game, shown to its players ("" otherwise).
    abort_reason = models.CharField(max_length=500, blank=True, default="")
    # Imported from an export whose seals this server could not check, on a
    # moderator's explicit word (games.services.importing).  A copy of what
    # the events' own seals say, for lists and pages: verify_games holds the
    # two together, so clearing it hides nothing.
    imported_unverified = models.BooleanField(default=False)
    # Whether the result counts towards the players' ratings (the `ratings`
    # app), chosen at the table; the created event records it when false.
    rated = models.BooleanField(default=True)
    # Whether Correo offers a seat in the lobby by itself when its player is
    # suspended or runs out of timeouts (games.services.seat_offers), chosen
    # at the table; otherwise only a moderator offers one.
    offer_seats = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [
            # Strangers' lists, newest first (games.selectors.listing.newest_first);
            # of one status (the archive's finished games) without first passing
            # over every newer game of another (the running ones).
            models.Index(listed_at().desc(), models.F("id").desc(), name="game_listed_idx"),
            models.Index(
                models.F("status"),
                listed_at().desc(),
                models.F("id").desc(),
                name="game_status_listed_idx",
            ),
            # The few running games strangers see late: whether a player sits
            # at one (listing._plays_delayed) without reading all their games.
            models.Index(fields=["id"], condition=seen_late(), name="game_delayed_idx"),
            # Moderators' lists, and every query left in the default order.
            models.Index(fields=["-updated_at", "-id"], name="game_updated_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.title} #{self.pk}"


class Seat(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active"
        RESIGNED = "resigned"
        REPLACED = "replaced"

    # Lookups by game use the (game, index) key's index; a second one would
    # only cost writes.  The same holds for events and snapshots below.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", db_index=False)
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    # Mirrors Game.to_act so "games where I must act" is a query on the
    # user's seats (the user index serves it).  Not indexed itself: a turn
    # flips it on two seats, which with an index on it was two new row
    # versions in every index of the table rather than in-place (HOT) updates.
    to_act = models.BooleanField(default=False)
    # The seat's own clock: when it runs out, how often in a row it did, which
    # reminders went out for this deadline, and the time left while paused.
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    timeouts = models.PositiveSmallIntegerField(default=0)
    reminded = JSONTextField(default=list)
    next_reminder = models.DateTimeField(null=True, blank=True, db_index=True)
    remaining = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index"),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.index}"


class ImmutableQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError("events are immutable: append an event instead")

    def delete(self):
        raise TypeError("events are immutable: append an event instead")


class Event(models.Model):
    """One entry of a game's append-only stream, chained by sha256 hashes."""

    class Kind(models.TextChoices):
        CREATED = "created"
        ACTION = "action"
        TIMEOUT = "timeout"
        UNDO = "undo"
        RESIGN = "resign"
        SEAT_REPLACED = "seat_replaced"
        CLOCK = "clock"
        NOTE = "note"
        TAKEBACK_REQUEST = "takeback_request"
        TAKEBACK_ANSWER = "takeback_answer"
        ABORT = "abort"
        # Table talk: never engine state, never made inert by an undo
        # (games.stream.replay.TALK_KINDS; games.selectors.talk says who reads it).
        MESSAGE = "message"

    # A note's payload says what it is under "note": a moderator's pinned
    # note (written by games.services.notes, shown with the game).
    PINNED_NOTE = "pinned"

    class Source(models.TextChoices):
        API = "api"
        EMAIL = "email"
        WEB = "web"
        TIMER = "timer"
        MODERATOR = "moderator"
        SYSTEM = "system"
        BOT = "bot"
        # A seat's standing order fired (games.services.orders).
        ORDER = "order"
        # Every message, whoever sent it and by which door (its payload says
        # that): a sealed message's public part must not tell the sender.
        TALK = "talk"

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    source = models.CharField(max_length=16, choices=Source.choices)
    payload = JSONTextField(default=dict)
    created_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    # The commitment's random nonce (chain version 2), shown only with what
    # it hides; and the seal on the hash under a key kept outside the database.
    nonce = models.CharField(max_length=32, blank=True, default="")
    key_id = models.CharField(max_length=16, blank=True, default="")
    mac = models.CharField(max_length=64, blank=True, default="")

    objects = ImmutableQuerySet.as_manager()

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_unique_seq"),
        ]
        indexes = [
            # Every load asks for a game's undos; this keeps that cheap for long streams.
            models.Index(
                fields=["game", "seq"], condition=models.Q(kind="undo"), name="event_undo_idx"
            ),
            # Every game detail lists the pinned notes; few events are notes.
            models.Index(
                fields=["game", "seq"], condition=models.Q(kind="note"), name="event_note_idx"
            ),
            # The talk box and the mails read a game's messages alone.
            models.Index(
                fields=["game", "seq"],
                condition=models.Q(kind="message"),
                name="event_message_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq} {self.kind}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise TypeError("events are immutable: append an event instead")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("events are immutable: append an event instead")


class LegacySeal(models.Model):
    """The seal on a version-1 game's head as it stood when seals began.

    Events written before then carry no seal of their own; this one vouches
    for all of them (each hash covers the chain before it), so stripping the
    seals of a game's later events cannot pass it off as an unsealed old game.
    """

    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="legacy_seal")
    seq = models.PositiveIntegerField()
    hash = models.CharField(max_length=64)
    key_id = models.CharField(max_length=16)
    mac = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.game} sealed at {self.seq}"


class VerifiedHead(models.Model):
    """Where `verify_games --incremental` last found a game clean: its head
    then.  A game still at that head is not checked again; one whose stream
    is now shorter, or whose event at that seq differs, was rewritten
    (games.audit.sweep)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True,
                                related_name="verified_head")  # fmt: skip
    seq = models.PositiveIntegerField()
    head_hash = models.CharField(max_length=64)
    verified_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.game} verified at {self.seq}"


class Checkpoint(models.Model):
    """A signed statement that game `game` stood at `seq` with head `head_hash`
    at time `at` (games.audit.checkpoints).  Each was first written to the
    log outside the database; this row serves the feed witnesses mirror.
    Deleting or rolling back rows here cannot undo what was published."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="checkpoints")
    seq = models.PositiveIntegerField()
    head_hash = models.CharField(max_length=64)
    at = models.DateTimeField()
    # Published as the game ended: the last checkpoint it will get.
    final = models.BooleanField(default=False)
    # In the feed everyone may read (games.audit.checkpoint_feed): decided as
    # it is published, from what a stranger to the game was shown then.
    listed = models.BooleanField(default=False)
    key_id = models.CharField(max_length=16)
    signature = models.CharField(max_length=128)

    class Meta:
        ordering = ["at", "game_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="checkpoint_unique_seq"),
        ]
        indexes = [
            models.Index(
                fields=["at", "game"], condition=models.Q(listed=True), name="checkpoint_feed"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} checkpoint at {self.seq}"


class Snapshot(models.Model):
    """Engine state after event `seq`; a disposable cache of replay."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="snapshots", db_index=False
    )
    seq = models.PositiveIntegerField()
    engine_version = models.PositiveIntegerField()
    # The hash of event `seq`: a snapshot is only used while it matches the chain.
    event_hash = models.CharField(max_length=64)
    state = JSONTextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "-seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="snapshot_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.game} snapshot at {self.seq}"


class Mute(models.Model):
    """A player chose not to see one seat's messages in one game.  Theirs
    alone: a preference, not part of the game's record (no event)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game", "seat"], name="mute_unique_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.user} mutes seat {self.seat} of {self.game}"


class Vacation(models.Model):
    """A stretch in which a player's clocks stand still in all their games."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set once every game of the player has its notice (each game is a
    # transaction of its own); until then the sweep finishes the job.
    announced_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return f"{self.user} away {self.starts_at:%Y-%m-%d} to {self.ends_at:%Y-%m-%d}"


class SweepState(models.Model):
    """When the deadline sweep last ran: a gap longer than the outage
    threshold means the server or the workers were down."""

    name = models.CharField(max_length=32, primary_key=True)
    last_run = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.last_run}"


class Outage(models.Model):
    """A silence of the deadline sweep that every running game's deadlines
    must be moved past.  Written together with SweepState.last_run; each game
    is then repaired in a transaction of its own, and `repaired_at` is set
    once all of them are, so a sweep that died midway is finished by the next.
    """

    started_at = models.DateTimeField()
    ended_at = models.DateTimeField()
    repaired_at = models.DateTimeField(null=True, blank=True)
    # The sweep repairing it holds it until then, so two sweeps do not
    # repair the same games side by side (a dead one's hold runs out).
    held_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["started_at"]

    def __str__(self) -> str:
        return f"outage {self.started_at:%Y-%m-%d %H:%M} to {self.ended_at:%H:%M}"

    @property
    def length(self):
        return self.ended_at - self.started_at

    @property
    def reason(self) -> str:
        return (
            f"no sweep from {self.started_at.isoformat()} to {self.ended_at.isoformat()}: "
            "server outage"
        )


class ModerationItem(models.Model):
    """Something a moderator should look at: a game flagged by its clock's
    `moderator` policy or a failed timeout, a game `verify_games --flag`
    found broken, or a player's report."""

    class Kind(models.TextChoices):
        FLAGGED = "flagged"
        VERIFY = "verify"
        REPORT = "report"

    class State(models.TextChoices):
        OPEN = "open"
        TAKEN = "taken"
        CLOSED = "closed"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moderation_items")
    state = models.CharField(
        max_length=16, choices=State.choices, default=State.OPEN, db_index=True
    )
    # What filed it: the flag's reason, the problems found, the report's words.
    reason = models.TextField()
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    # A report of one message (its seq; the audit shows it), not of the game.
    message_seq = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    taken_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    closed_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.kind} on {self.game} ({self.state})"


class Table(models.Model):
    """A game being gathered (games.services.tables): the host's choice of
    title, seats, options and clock, the players seated so far, and once it
    starts the game it became.  Nobody is seated without consent: a seat is
    taken by its player (from the lobby, by a link, by accepting an
    invitation), only bots are seated by the host."""

    class Status(models.TextChoices):
        WAITING = "waiting"
        STARTED = "started"
        EXPIRED = "expired"  # nobody joined for CORREO_TABLE_EXPIRY_DAYS
        CLOSED = "closed"  # its last player left

    class SeatOrder(models.TextChoices):
        RANDOM = "random"
        JOINED = "joined"  # as the players sat down
        HOST = "host"  # the host's order, given when starting

    title = models.CharField(max_length=32)
    # Resolved (the engine's defaults filled in), as the game will have them.
    options = JSONTextField(default=dict)
    # As the host gave it (checked by games.clocks.options when the table
    # was made); the game parses it again when it starts.
    clock = JSONTextField(null=True, blank=True)
    public = models.BooleanField(default=True)
    # Listed in the lobby for anyone to join; otherwise by link or invitation.
    open = models.BooleanField(default=True)
    spectator_delay = models.PositiveSmallIntegerField(default=0)
    seat_order = models.CharField(
        max_length=8, choices=SeatOrder.choices, default=SeatOrder.RANDOM
    )
    # The table talk the game will have (games.services.talk), chosen here
    # so that everyone who sits down knows it before the game starts.
    press = models.CharField(max_length=8, choices=Press.choices, default=Press.FULL)
    reveal_private = models.BooleanField(default=True)
    # Whether its game's result will count towards ratings.
    rated = models.BooleanField(default=True)
    # Whether its game offers a lost player's seat by itself (Game.offer_seats).
    offer_seats = models.BooleanField(default=False)
    # Who may take a seat: {"min_rating": ordinal, "max_timeouts_per_100":
    # number} (games.services.requirements); empty: anyone.
    requirements = JSONTextField(default=dict, blank=True)
    min_seats = models.PositiveSmallIntegerField()
    max_seats = models.PositiveSmallIntegerField()
    # How many seats are taken: kept with every seat taken or given up, under
    # the table's row lock, so that the lobby finds free seats by index.
    seated = models.PositiveSmallIntegerField(default=0)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="table"
    )
    # The seat order the host chose beforehand (usernames, bots as
    # bot:<kind>), used when the table starts by itself: a rematch's rotation.
    planned_order = JSONTextField(default=list, blank=True)
    # A rematch's table names the game it repeats.
    rematch_of = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A waiting table nobody joins expires then; every seat taken moves it on.
    expires_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            # The lobby: open waiting tables, newest first.
            models.Index(
                fields=["-created_at", "-id"],
                condition=models.Q(status="waiting", open=True),
                name="table_lobby_idx",
            ),
            # The expiry sweep reads only waiting tables.
            models.Index(
                fields=["expires_at"],
                condition=models.Q(status="waiting"),
                name="table_expiry_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title} table #{self.pk} ({self.status})"

    @property
    def free(self) -> int:
        return max(self.max_seats - self.seated, 0)


class TableSeat(models.Model):
    """A seat taken at a waiting table: by a player, or by a bot the host asked for."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
        related_name="table_seats",
    )  # fmt: skip
    bot = models.CharField(max_length=16, blank=True, default="")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="table_seat_once"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat of {self.user or 'bot:' + self.bot}"


class Invitation(models.Model):
    """A host's invitation to a table: to an account (answered on the
    dashboard, the API or by mail), or to an address (the mail's link leads
    to sign-up, then to the seat).  `hidden`: the invitee blocked the
    inviter, so they never hear of it (blocks are private; the inviter sees
    it pending until the table starts or expires)."""

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        WITHDRAWN = "withdrawn"  # the table started, expired or closed first

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitations")
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
        related_name="invitations",
    )  # fmt: skip
    email = models.EmailField(blank=True)
    # The secret half of an address invitation's link (games.services.tokens).
    nonce = models.CharField(max_length=32, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    hidden = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "user"], condition=models.Q(status="pending"),
                name="invitation_pending_once",
            ),
        ]  # fmt: skip
        indexes = [
            models.Index(
                fields=["user", "status"], name="invitation_user_idx",
            ),
        ]  # fmt: skip

    def __str__(self) -> str:
        return f"invitation to {self.table} for {self.user or self.email} ({self.status})"


class InviteLink(models.Model):
    """A link to a table that seats whoever follows it: its token is signed
    (games.services.tokens) over the link and its nonce; it may be
    single-use, runs out at `expires_at` and dies when the host revokes it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="links")
    nonce = models.CharField(max_length=32)
    single_use = models.BooleanField(default=False)
    # Null: the link works as long as the table waits.
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    used_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"link to {self.table}"


class SeatOffer(models.Model):
    """A seat of a running game offered to whoever takes it over (its player
    was suspended, stopped playing, kept running out of time): listed beside
    the lobby's tables; taking it is the moderators' `seat_replaced`, with
    the taker's consent.  It lapses when the seat changes hands otherwise or
    the game ends."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_offers")
    seat = models.PositiveSmallIntegerField()
    # Who held the seat when it was offered: the offer is for their seat only.
    holder = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="+")  # fmt: skip
    # None: offered by Correo itself, as the table asked (Game.offer_seats).
    offered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   null=True, blank=True, related_name="+")  # fmt: skip
    reason = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)
    taken_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="+")  # fmt: skip
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seat"], condition=models.Q(closed_at__isnull=True),
                name="seat_offer_open_once",
            ),
        ]  # fmt: skip

    def __str__(self) -> str:
        return f"{self.game} seat {self.seat} offered"


class OrderEvent(models.Model):
    """One entry of a seat's private record of standing orders: an order
    written, cancelled, fired, dropped or lapsed (games.services.orders).

    Kept out of the game's event stream on purpose: every viewer of the
    stream sees its seqs and counts, and an order must leave no trace there
    (docs/orders.md).  Like the stream, it is append-only: the standing
    orders are a fold over it (games.selectors.orders).  `order` is the id of
    the `written` entry an entry is about; `at` the game's seq when it
    happened (for `fired`, the seq of the move it made), which is how an undo
    rewinding past a firing restores the order."""

    class Kind(models.TextChoices):
        WRITTEN = "written"
        CANCELLED = "cancelled"
        FIRED = "fired"
        DROPPED = "dropped"
        LAPSED = "lapsed"

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    order = models.BigIntegerField(null=True, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    at = models.PositiveIntegerField()
    payload = JSONTextField(default=dict)
    created_at = models.DateTimeField()
    # Unique per entry: a firing's is its move's (game, seq), so the entry
    # written with the move (games.hooks rows) is written once at most.
    key = models.CharField(max_length=80, unique=True)

    objects = ImmutableQuerySet.as_manager()

    class Meta:
        ordering = ["game", "id"]
        indexes = [models.Index(fields=["game", "seat"], name="orderevent_game_seat_idx")]

    def __str__(self) -> str:
        return f"{self.game} seat {self.seat} order {self.kind}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise TypeError("order entries are immutable: append another")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)
