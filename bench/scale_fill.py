"""Fill a PostgreSQL database as a large site would hold it: players, a
million finished games and twenty thousand active ones, with their seats,
events, snapshots, mails and checkpoints.  bench_scale.py measures on it;
it also runs alone, on a migrated database of DATABASE_URL:

    DATABASE_URL=postgres://... .venv/bin/python bench/scale_fill.py --finished N --active N

Every row is of a kind the service writes, because it comes from games the
service played.  First a few whole games of each kind in the mix are played
through the move service by the greedy bots (the templates); while each is
played, its game and seat rows, snapshots and mails are read back now and
then, so that it can also be copied as it stood in the middle.  Then the
templates are cloned by COPY: each clone has its own id, players (drawn from
the pool of accounts), times spread over weeks, nonces, and so its own
chain: every hash is computed again and sealed under the server's key,
every snapshot names its clone's event hash and every checkpoint is signed,
so `verify_games` finds a generated database clean.  A game's rows are the
template's otherwise (payloads, states, results): the database's shape and
sizes are those of real play, which is what the bench needs.

The filled tables lose their indexes, unique and foreign-key constraints
for the COPY and get them back after it, as pg_restore does: one sort per
index instead of a B-tree insert per row.  Two processes clone (one per
core), each COPYing its own share of the games.

Generated games are unrated: ratings are a sequence over each player's
games (ratings.updates) that clones could not continue consistently, and
the rating bench measures them on its own.
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import multiprocessing
import os
import random
import time
from dataclasses import dataclass, field
from typing import Any

from support import database_url, django_setup

# The title mix of the generated games: (title, players, share).  Shorter
# titles are played more, as on every platform; 18Cuba's long games are few
# but hold a large part of the events.
MIX = (
    ("pointcity", 2, 0.22), ("pointcity", 3, 0.08), ("pointcity", 4, 0.08),
    ("havana", 2, 0.22), ("havana", 3, 0.06), ("havana", 4, 0.04),
    ("estates", 2, 0.14), ("estates", 3, 0.06), ("estates", 4, 0.04),
    ("18cuba", 2, 0.03), ("18cuba", 3, 0.02), ("18cuba", 4, 0.01),
)  # fmt: skip
# A mix of short games only (Point City, and two-player Havana): about 60
# events a game, against 167 in MIX, for a disk that cannot hold a million
# games of MIX (about 130 GB).
SHORT = (
    ("pointcity", 2, 0.60), ("pointcity", 3, 0.15), ("pointcity", 4, 0.10), ("havana", 2, 0.15),
)  # fmt: skip
MIXES = {"realistic": MIX, "short": SHORT}
# Templates played per kind: clones of the same template differ in all but
# the moves, so a few per kind are enough for the sizes to be typical.
TEMPLATES_PER_KIND = 2
# A template's rows are read back every CUT_EVERY moves: where active clones stand.
CUT_EVERY = 7
# One player is seated at this many games (the dashboard bench's player).
BUSY_GAMES, BUSY_ACTIVE = 500, 20
BUSY_NAME = "busy"
GAMES_PER_PLAYER = 50
CHUNK = 1000  # games per COPY round of a cloning process
PASSWORD = "correo scale bench"  # every generated account's, hashed once

TABLES = (
    "accounts_user", "games_game", "games_seat", "games_event", "games_snapshot",
    "games_checkpoint", "games_verifiedhead", "notifications_notification",
)  # fmt: skip


# --- COPY's text format ------------------------------------------------------------


def text(value: Any) -> str:
    """One field in COPY's text format."""
    if value is None:
        return "\\N"
    if value is True:
        return "t"
    if value is False:
        return "f"
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    if isinstance(value, dict | list):
        value = json.dumps(value, sort_keys=True, separators=(",", ":"))
    value = str(value)
    if "\\" in value or "\t" in value or "\n" in value or "\r" in value:
        value = (value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
                 .replace("\r", "\\r"))  # fmt: skip
    return value


@dataclass
class Rows:
    """A table's rows of one template, each as its columns in COPY text,
    the columns a clone rewrites left as they were."""

    columns: list[str]
    rows: list[list[str]]
    raw: list[dict[str, Any]]  # the same rows as read, for what a clone computes from


@dataclass
class Cut:
    """A template as it stood after a move, for an active clone."""

    seq: int
    game: Rows
    seats: Rows
    snapshots: Rows
    notifications: int  # how many of the template's mails were written by then


@dataclass
class Template:
    title: str
    players: int
    game: Rows
    seats: Rows
    events: Rows
    snapshots: Rows
    notifications: Rows
    cuts: list[Cut] = field(default_factory=list)
    # Per event: kind, seat, source, those and the payload as COPY text, the
    # payload's JSON whole and public (what the chain hashes), the seat of
    # its actor (None: nobody's).
    chained: list[tuple] = field(default_factory=list)
    # Per mail: its columns before `to_email` and between it and `sent_at`
    # as COPY text (MAIL_COLUMNS), the seq it tells of, the seat it goes to.
    mails: list[tuple[str, str, int, int]] = field(default_factory=list)


def read_rows(cursor, table: str, where: str, params: tuple, order: str = "id") -> Rows:
    cursor.execute(f"SELECT * FROM {table} WHERE {where} ORDER BY {order}", params)
    columns = [c.name for c in cursor.description]
    raw = [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]
    return Rows(columns, [[text(r[c]) for c in columns] for r in raw], raw)


# --- the templates: whole games played through the service -----------------------------


def play_templates(mix=MIX, per_kind: int = TEMPLATES_PER_KIND, seed: int = 1,
                   log=print) -> list[Template]:  # fmt: skip
    """Play `per_kind` games of every kind in `mix` through the move service,
    greedy bots choosing, and read back their rows."""
    from django.db import connection

    from accounts.models import User
    from games.engines import bots
    from games.models import Game
    from games.services.creation import do_create_game
    from games.services.moves import check_submit_action
    from games.stream import store
    from games.stream.derived import engine_for

    # Mail is held for a digest: the rows are the turn mails a player gets,
    # without rendering hundreds of them here.
    players = [User.objects.create_user(username=f"template{n}", email=f"template{n}@example.org",
                                        notify_mode="daily_digest") for n in range(4)]  # fmt: skip
    templates = []
    rng = random.Random(seed)
    for title, count, _share in mix:
        for _ in range(per_kind):
            started = time.perf_counter()
            game = do_create_game(title=title, players=players[:count], seed=rng.getrandbits(31),
                                  clock={"per_move": "72h"}, rated=False)  # fmt: skip
            engine = engine_for(game)
            cuts = []
            with connection.cursor() as cursor:
                while game.status == Game.Status.ACTIVE:
                    state = store.load(game, engine).state
                    seat = min(engine.to_act(state))
                    _, action = bots.choose(engine, state, seat, "greedy", rng.getrandbits(64))
                    check_submit_action(game, players[seat], action=action, expected_seq=game.seq)
                    game.refresh_from_db()
                    if game.status == Game.Status.ACTIVE and game.seq % CUT_EVERY == 0:
                        cuts.append(_cut(cursor, game.pk, game.seq))
                template = _template(cursor, game.pk, title, count, players)
            template.cuts = cuts
            templates.append(template)
            log(f"template {title}, {count} players: {game.seq} events, {len(cuts)} cuts, "
                f"{time.perf_counter() - started:.1f} s")  # fmt: skip
    return templates


def _cut(cursor, game_id: int, seq: int) -> Cut:
    return Cut(
        seq=seq,
        game=read_rows(cursor, "games_game", "id = %s", (game_id,)),
        seats=read_rows(cursor, "games_seat", "game_id = %s", (game_id,), "index"),
        snapshots=read_rows(cursor, "games_snapshot", "game_id = %s", (game_id,), "seq"),
        notifications=_count(cursor, game_id),
    )


def _count(cursor, game_id: int) -> int:
    cursor.execute("SELECT count(*) FROM notifications_notification WHERE game_id = %s",
                   (game_id,))  # fmt: skip
    return cursor.fetchone()[0]


def _template(cursor, game_id: int, title: str, count: int, players) -> Template:
    from games.engines.base import canonical_json
    from games.stream import chain

    template = Template(
        title=title, players=count,
        game=read_rows(cursor, "games_game", "id = %s", (game_id,)),
        seats=read_rows(cursor, "games_seat", "game_id = %s", (game_id,), "index"),
        events=read_rows(cursor, "games_event", "game_id = %s", (game_id,), "seq"),
        snapshots=read_rows(cursor, "games_snapshot", "game_id = %s", (game_id,), "seq"),
        notifications=read_rows(cursor, "notifications_notification", "game_id = %s",
                                (game_id,)),
    )  # fmt: skip
    seat_of = {p.pk: n for n, p in enumerate(players)}
    for raw in template.events.raw:
        kind, seat, source = raw["kind"], raw["seat"], raw["source"]
        payload = json.loads(raw["payload"])
        public = chain.public_payload(_Event(kind=kind, payload=payload))
        fixed = f"{text(kind)}\t{text(seat)}\t{text(source)}\t{text(raw['payload'])}"
        hashed = canonical_json(payload), canonical_json(public)
        template.chained.append((kind, seat, source, fixed, *hashed, seat_of.get(raw["actor_id"])))
    for raw in template.notifications.raw:
        template.mails.append((
            "\t".join(text(raw[c]) for c in _MAIL_KEPT), "sent", raw["seq"] or 1,
            seat_of.get(raw["user_id"], 0),
        ))  # fmt: skip
    return template


# A clone's mail: what it rewrites around what it keeps of the template's.
_MAIL_KEPT = ("kind", "seq", "seat", "context", "attempts", "claimed_at", "next_attempt_at",
              "webhook_sent_at", "last_error", "needs_attention", "webhook_attempts",
              "webhook_claimed_at", "webhook_error", "webhook_status")  # fmt: skip
MAIL_COLUMNS = ("key", *_MAIL_KEPT, "to_email", "status", "sent_at", "game_id", "user_id",
                "created_at")  # fmt: skip


@dataclass
class _Event:
    kind: str
    payload: dict


# --- cloning ---------------------------------------------------------------------------


@dataclass
class Plan:
    """What to generate: the same plan gives the same rows."""

    finished: int
    active: int
    first_game: int  # the id of the first generated game
    first_user: int  # the id of the first generated account (the busy player)
    users: int
    now: datetime.datetime
    seed: int
    weights: list[float]

    def busy_games(self) -> set[int]:
        """The indices (0..finished+active) of the games the busy player sits at."""
        finished = min(BUSY_GAMES - BUSY_ACTIVE, self.finished)
        active = min(BUSY_ACTIVE, self.active)
        step_f = max(1, self.finished // max(1, finished))
        step_a = max(1, self.active // max(1, active))
        return ({n * step_f for n in range(finished)}
                | {self.finished + n * step_a for n in range(active)})  # fmt: skip


def clone_range(
    url: str, templates: list[Template], plan: Plan, start: int, stop: int
) -> dict[str, int]:
    """COPY games `start`..`stop` of the plan (indices; the finished ones
    first), in chunks; returns the rows written per table."""
    import psycopg

    written = dict.fromkeys(TABLES, 0)
    busy = plan.busy_games()
    by_kind = _by_kind(templates)
    with psycopg.connect(url, autocommit=False) as connection:
        for chunk in range(start, stop, CHUNK):
            buffers = {table: io.StringIO() for table in TABLES[1:]}
            for index in range(chunk, min(stop, chunk + CHUNK)):
                rng = random.Random(plan.seed * 1_000_003 + index)
                kind = rng.choices(by_kind, weights=plan.weights)[0]
                template = rng.choice(kind)
                _clone(template, plan, index, index in busy, rng, buffers, written)
            with connection.cursor() as cursor:
                for table, buffer in buffers.items():
                    columns = _COLUMNS[table]
                    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                        copy.write(buffer.getvalue())
            connection.commit()
    return written


def _by_kind(templates: list[Template]) -> list[list[Template]]:
    """The templates by kind, in the mix's order (that of its weights)."""
    kinds: dict[tuple[str, int], list[Template]] = {}
    for template in templates:
        kinds.setdefault((template.title, template.players), []).append(template)
    return list(kinds.values())


_COLUMNS: dict[str, list[str]] = {}  # per table, the columns COPY writes (set by fill)
DAY = datetime.timedelta(days=1)


def _clone(template: Template, plan: Plan, index: int, busy: bool, rng: random.Random,
           buffers: dict[str, io.StringIO], written: dict[str, int]) -> None:  # fmt: skip
    from games.audit import checkpoints
    from games.stream import chain

    gid = plan.first_game + index
    finished = index < plan.finished
    cut = None if finished or not template.cuts else rng.choice(template.cuts)
    head = len(template.events.rows) if cut is None else cut.seq
    game_rows = template.game if cut is None else cut.game
    seat_rows = template.seats if cut is None else cut.seats
    snapshot_rows = template.snapshots if cut is None else cut.snapshots
    mails = len(template.mails) if cut is None else cut.notifications

    # Players: the busy player in seat 0 of their games, the rest drawn.
    count = len(seat_rows.rows)
    users = [plan.first_user + n for n in rng.sample(range(1, plan.users), count)]
    if busy:
        users[0] = plan.first_user

    # Times: a finished game ended in the last two years after two to sixty
    # days; an active one began up to thirty days ago, its last move in the
    # last three.
    if finished:
        end = plan.now - rng.uniform(1, 730) * DAY
        begin = end - rng.uniform(2, 60) * DAY
    else:
        end = plan.now - rng.uniform(0, 3) * DAY
        begin = end - rng.uniform(1, 30) * DAY
    step = (end - begin) / max(1, head - 1)
    times = [begin + step * n for n in range(head)]  # seq n + 1's
    stamps = [moment.isoformat() for moment in times]

    # Events, chained and sealed again.
    key_id, mac_of = _SEALER
    hash_of = chain.v2_hash_of
    prev = chain.GENESIS_HASH
    hashes = [prev]
    out = []
    for seq, (kind, seat, source, fixed, payload_json, public_json, actor_seat) in enumerate(
        template.chained[:head], start=1
    ):
        actor = None if actor_seat is None else users[actor_seat]
        if kind == "created":  # it names the players
            payload_json, public_json = _created(payload_json, users)
            fixed = f"{text(kind)}\t{text(seat)}\t{text(source)}\t{text(payload_json)}"
        nonce = f"{rng.getrandbits(128):032x}"
        created = stamps[seq - 1]
        hash_ = hash_of(payload_json, public_json, actor=actor, nonce=nonce, created_at=created,
                        game=gid, kind=kind, seat=seat, seq=seq, source=source,
                        prev_hash=prev)  # fmt: skip
        out.append(f"{gid}\t{seq}\t{fixed}\t{text(actor)}\t{created}\t{prev}\t{hash_}\t"
                   f"{nonce}\t{key_id}\t{mac_of(hash_)}\n")  # fmt: skip
        hashes.append(hash_)
        prev = hash_
    buffers["games_event"].write("".join(out))
    written["games_event"] += head

    # The game row as the template's stood, with the clone's own fields.  The
    # seed and salt stay the template's: its setup, and the commitment to it
    # in the first event, follow from them.
    raw_game = game_rows.raw[0]
    deadline = None if finished else plan.now + rng.uniform(1 / 24, 3) * DAY
    watched = stamps[raw_game["spectator_seq"] - 1] if raw_game["spectator_at"] else None
    _write(buffers, "games_game", game_rows, 0, id=gid, head_hash=prev, deadline=deadline,
           created_at=stamps[0], updated_at=stamps[-1], created_by_id=users[0],
           spectator_at=watched)  # fmt: skip
    written["games_game"] += 1

    # Reminders fall due before the deadline, none before the bench runs.
    reminder = max(deadline - DAY / 2, plan.now + DAY / 24) if deadline else None
    for n, raw in enumerate(seat_rows.raw):
        mine = raw["deadline"] is not None
        _write(buffers, "games_seat", seat_rows, n, game_id=gid, user_id=users[raw["index"]],
               deadline=deadline if mine else None,
               next_reminder=reminder if mine else None)  # fmt: skip
    written["games_seat"] += count

    for n, raw in enumerate(snapshot_rows.raw):
        _write(buffers, "games_snapshot", snapshot_rows, n, game_id=gid,
               event_hash=hashes[raw["seq"]], created_at=stamps[raw["seq"] - 1])  # fmt: skip
    written["games_snapshot"] += len(snapshot_rows.rows)

    # The mails, sent a few seconds after the event they tell of.
    out = []
    for number, (before, after, seq, seat) in enumerate(template.mails[:mails]):
        user = users[seat]
        moment = (times[seq - 1] + FIVE_SECONDS).isoformat()
        out.append(f"scale:{gid}:{number}\t{before}\tp{user}@example.org\t{after}\t{moment}"
                   f"\t{gid}\t{user}\t{stamps[seq - 1]}\n")  # fmt: skip
    buffers["notifications_notification"].write("".join(out))
    written["notifications_notification"] += mails

    # Signed by the server's own hand, with the game's row as it stands.
    shown = dict({f: raw_game.get(f) for f in checkpoints.FIELDS}, pk=gid, seq=head,
                 head_hash=prev)  # fmt: skip
    checkpoint = checkpoints.signed(shown, end if finished else end - DAY / 4)
    buffers["games_checkpoint"].write(
        "\t".join(text(getattr(checkpoint, column)) for column in _CHECKPOINT) + "\n")  # fmt: skip
    written["games_checkpoint"] += 1
    if finished:
        buffers["games_verifiedhead"].write(f"{gid}\t{head}\t{prev}\t{text(end + DAY)}\n")
        written["games_verifiedhead"] += 1


FIVE_SECONDS = datetime.timedelta(seconds=5)
_SEALER: tuple = ()  # chain.sealer(), read once per process


def _write(buffers, table: str, rows: Rows, n: int, **overrides) -> None:
    row = dict(zip(rows.columns, rows.rows[n], strict=True))
    row.update((column, text(value)) for column, value in overrides.items())
    buffers[table].write("\t".join(row[c] for c in _COLUMNS[table]) + "\n")


def _created(payload_json: str, users: list[int]) -> tuple[str, str]:
    from games.engines.base import canonical_json
    from games.stream import chain

    payload = dict(json.loads(payload_json), seats=users)
    public = chain.public_payload(_Event("created", payload))
    return canonical_json(payload), canonical_json(public)


_CHECKPOINT = ("game_id", "seq", "head_hash", "at", "final", "listed", "key_id", "signature")


# --- the accounts ----------------------------------------------------------------------


def copy_users(cursor, plan: Plan, password_hash: str) -> None:
    """The pool of players: the busy one first, then p<id>."""
    from accounts import usernames

    columns = ["id", "password", "is_superuser", "username", "first_name", "last_name",
               "is_staff", "is_active", "date_joined", "email", "is_moderator", "notify_mode",
               "webhook_url", "language", "suspended", "bot", "username_key",
               "username_look_key", "email_verified", "every_mail"]  # fmt: skip
    joined = text(plan.now - 800 * DAY)
    with cursor.copy(f"COPY accounts_user ({', '.join(columns)}) FROM STDIN") as copy:
        for n in range(plan.users):
            uid = plan.first_user + n
            name = BUSY_NAME if n == 0 else f"p{uid}"
            copy.write("\t".join((
                str(uid), password_hash, "f", name, "", "", "f", "t", joined,
                f"{name}@example.org" if n == 0 else f"p{uid}@example.org", "f", "every_turn",
                "", "en", "f", "", usernames.key(name), usernames.look_key(name), "t", "f",
            )) + "\n")  # fmt: skip


# --- constraints and indexes out of the way ------------------------------------------


def drop_constraints(cursor) -> list[str]:
    """Drop the filled tables' unique and foreign-key constraints and their
    other indexes (primary keys stay); the statements that make them again."""
    tables = ", ".join(f"'{t}'::regclass" for t in TABLES)
    cursor.execute(f"""
        SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid), contype
        FROM pg_constraint WHERE contype IN ('u', 'f')
        AND (conrelid IN ({tables}) OR confrelid IN ({tables}))
    """)  # fmt: skip
    constraints = cursor.fetchall()
    cursor.execute(f"""
        SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index
        WHERE indrelid IN ({tables}) AND NOT indisprimary
        AND indexrelid NOT IN (SELECT conindid FROM pg_constraint WHERE contype IN ('u', 'p'))
    """)  # fmt: skip
    indexes = cursor.fetchall()
    for table, name, _definition, _kind in constraints:
        cursor.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
    for name, _definition in indexes:
        cursor.execute(f"DROP INDEX {name}")
    remake = [definition for _name, definition in indexes]
    # Unique constraints before foreign keys, which may need them.
    for table, name, definition, _kind in sorted(constraints, key=lambda c: c[3] != "u"):
        remake.append(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
    return remake


def refresh_clocks() -> None:
    """Every running game's deadline an hour to three days ahead again, and
    no outage, as a fill leaves them: a database kept from an earlier run
    would otherwise meet its first sweep with hundreds of timeouts due and
    the silence since then taken for an outage."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("UPDATE games_game SET deadline = now() + interval '1 hour' "
                       "+ random() * interval '71 hours' WHERE status = 'active'")  # fmt: skip
        cursor.execute("""UPDATE games_seat SET deadline = g.deadline,
                          next_reminder = greatest(g.deadline - interval '12 hours',
                                                   now() + interval '1 hour')
                          FROM games_game g WHERE g.id = games_seat.game_id
                          AND games_seat.deadline IS NOT NULL""")  # fmt: skip
        cursor.execute("DELETE FROM games_outage")
        cursor.execute("UPDATE games_sweepstate SET last_run = now()")


# --- the whole fill --------------------------------------------------------------------


def prepare(template: Template) -> None:
    """What every cloning process needs: the columns each COPY writes (the
    template's, checked against the generator's) and the sealer."""
    from games.stream import chain

    global _SEALER
    _COLUMNS["games_game"] = template.game.columns
    _COLUMNS["games_seat"] = [c for c in template.seats.columns if c != "id"]
    _COLUMNS["games_snapshot"] = [c for c in template.snapshots.columns if c != "id"]
    _COLUMNS["notifications_notification"] = list(MAIL_COLUMNS)
    _COLUMNS["games_event"] = [
        "game_id", "seq", "kind", "seat", "source", "payload", "actor_id", "created_at",
        "prev_hash", "hash", "nonce", "key_id", "mac",
    ]  # fmt: skip
    for table, rows in (("notifications_notification", template.notifications),
                        ("games_event", template.events)):  # fmt: skip
        # A column a migration added must be cloned too: say so, not a COPY error.
        if set(rows.columns) - {"id"} != set(_COLUMNS[table]):
            raise RuntimeError(f"{table} has columns {rows.columns}; the generator writes "
                               f"{_COLUMNS[table]}: teach it the difference")  # fmt: skip
    _COLUMNS["games_checkpoint"] = list(_CHECKPOINT)
    _COLUMNS["games_verifiedhead"] = ["game_id", "seq", "head_hash", "verified_at"]
    _SEALER = chain.sealer()


def fill(finished: int, active: int, *, users: int | None = None, seed: int = 1,
         mix=MIX, per_kind: int = TEMPLATES_PER_KIND, processes: int | None = None,
         templates: list[Template] | None = None, log=print) -> dict[str, Any]:  # fmt: skip
    """Fill Django's default database (PostgreSQL, migrated, otherwise
    empty of games) with `finished` + `active` games; what was written, and
    under "templates" the templates (played here unless given: another
    database's, for figures that differ only in the number of games)."""
    from django.contrib.auth.hashers import make_password
    from django.db import connection

    started = time.perf_counter()
    if templates is None:
        templates = play_templates(mix, per_kind, seed, log)
        log(f"templates: {time.perf_counter() - started:.0f} s")
    pool = users or max(BUSY_GAMES, (finished + active) * 3 // GAMES_PER_PLAYER)
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(max(id), 0) FROM games_game")
        first_game = cursor.fetchone()[0] + 1
        cursor.execute("SELECT coalesce(max(id), 0) FROM accounts_user")
        first_user = cursor.fetchone()[0] + 1
    plan = Plan(finished=finished, active=active, first_game=first_game, first_user=first_user,
                users=pool, now=datetime.datetime.now(datetime.UTC), seed=seed,
                weights=[share for _t, _p, share in mix])  # fmt: skip
    prepare(templates[0])

    url = database_url()
    with connection.cursor() as cursor:
        remake = drop_constraints(cursor)
    try:
        with connection.cursor() as cursor:
            copy_users(cursor, plan, make_password(PASSWORD))
        connection.close()  # the cloning processes are forked: none may share it
        total = finished + active
        cloning = time.perf_counter()
        written = _clone_all(url, templates, plan, processes or len(os.sched_getaffinity(0)))
        written["accounts_user"] = pool
        log(f"cloned {total} games: {time.perf_counter() - cloning:.0f} s")
    finally:  # a failed fill leaves no table without its constraints
        indexing = time.perf_counter()
        _remake(remake)
        log(f"indexes and constraints again, analysed: {time.perf_counter() - indexing:.0f} s")
    written["seconds"] = round(time.perf_counter() - started)
    written["busy_user"], written["first_game"] = first_user, first_game
    written["templates"] = templates
    return written


def _clone_all(url: str, templates: list[Template], plan: Plan, processes: int) -> dict[str, int]:
    total = plan.finished + plan.active
    bounds = [total * n // processes for n in range(processes + 1)]
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        results = pool.starmap(clone_range, [
            (url, templates, plan, bounds[n], bounds[n + 1]) for n in range(processes)
        ])  # fmt: skip
    return {table: sum(r[table] for r in results) for table in TABLES}


def _remake(statements: list[str]) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '1GB'")
        for statement in statements:
            cursor.execute(statement)
        for table in TABLES:
            if table != "games_verifiedhead":  # keyed by its game
                cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                               f"(SELECT max(id) FROM {table}))")  # fmt: skip
        for table in TABLES:
            cursor.execute(f"VACUUM ANALYZE {table}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--finished", type=int, default=1_000_000)
    parser.add_argument("--active", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    django_setup(None)
    written = fill(arguments.finished, arguments.active, seed=arguments.seed)
    written.pop("templates")
    print(json.dumps(written))


if __name__ == "__main__":
    main()
