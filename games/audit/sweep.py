"""How `verify_games` walks the games: every one, or only those changed since
they were last found clean (`incremental`), in this process or in several
(`jobs`).

Incremental: a clean game's head (seq and hash) is remembered
(`VerifiedHead`); the next incremental run skips a game still at that head
and checks the others whole.  What it gives up is an event rewritten in
place under an unchanged head, which only a whole run (the release gate's)
finds; what it adds is a look back: a game whose stream is now shorter than
its remembered head, or whose event at that seq is not the one found clean,
was rewritten, and is reported so.  The remembered heads live in the same
database, so someone who can rewrite it can rewrite them too: signed
checkpoints kept outside it (`--checkpoints`) are the answer to that.

Jobs: the games are dealt to the processes by id (`id % jobs`), so each
reads its own chunks and the replay, which is most of the time, runs on
every core.  The processes are forked after the connections are closed,
and each opens its own.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from django.db import connections
from django.db.models import Exists, F, OuterRef, QuerySet
from django.db.models.functions import Mod
from django.utils import timezone

from games.audit import verification
from games.audit.verification import CHUNK, Row
from games.models import Game, VerifiedHead


@dataclass(frozen=True)
class Checked:
    """One game checked: its head as read, and what is wrong with it."""

    game_id: int
    title: str
    seq: int
    head_hash: str
    problems: tuple[str, ...]


def chosen(status: str | None = None, incremental: bool = False) -> QuerySet[Game]:
    """The games a run checks: of one `status` if given; incremental, only
    those not at the head they were last found clean at."""
    games = Game.objects.all() if status is None else Game.objects.filter(status=status)
    if incremental:
        same = VerifiedHead.objects.filter(
            game=OuterRef("pk"), seq=OuterRef("seq"), head_hash=OuterRef("head_hash")
        )
        games = games.exclude(Exists(same))
    return games


def checked(
    status: str | None = None, incremental: bool = False, jobs: int = 1, chunk: int = CHUNK
) -> Iterator[Checked]:
    """Every chosen game checked, in id order within each process."""
    if jobs <= 1:
        yield from _shard(status, incremental, 0, 1, chunk)
        return
    connections.close_all()
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        shards = [
            pool.submit(_shard_list, status, incremental, i, jobs, chunk) for i in range(jobs)
        ]
        for shard in shards:
            yield from shard.result()


def _shard_list(status, incremental, index, jobs, chunk) -> list[Checked]:
    try:
        return list(_shard(status, incremental, index, jobs, chunk))
    finally:
        connections.close_all()


def _shard(
    status: str | None, incremental: bool, index: int, jobs: int, chunk: int
) -> Iterator[Checked]:
    games = chosen(status, incremental)
    if jobs > 1:
        games = games.annotate(shard=Mod(F("pk"), jobs)).filter(shard=index)
    last = 0
    while True:
        batch = list(games.filter(pk__gt=last).order_by("pk")[:chunk])
        if not batch:
            return
        last = batch[-1].pk
        # Through the module: a test puts a move between the game rows' read
        # and this one (tests/games/test_release_gate.py).
        facts = verification.stored(batch)
        heads = {
            head.game_id: head
            for head in VerifiedHead.objects.filter(game_id__in=[g.pk for g in batch])
        }
        for game in batch:
            found = list(verification.game_problems(game, facts[game.pk]))
            if game.pk in heads:
                found.extend(rewritten(heads[game.pk], facts[game.pk].events))
            yield Checked(game.pk, game.title, game.seq, game.head_hash, tuple(found))


def rewritten(head: VerifiedHead, events: list[Row]) -> Iterator[str]:
    """Whether the stream still holds the head it was found clean at."""
    when = head.verified_at.isoformat(timespec="seconds")
    at = next((event for event in events if event.seq == head.seq), None)
    if at is None:
        ends = events[-1].seq if events else 0
        yield (
            f"the stream ends at seq {ends}, but it was verified clean up to seq {head.seq} "
            f"on {when}: events were removed"
        )
    elif at.hash != head.head_hash:
        yield (
            f"seq {head.seq} is not the event verified clean there on {when}: "
            "the history was rewritten"
        )


def remember(clean: list[Checked]) -> int:
    """Remember the heads of the games found clean (each as it was read:
    a game that moved since is simply checked again next time)."""
    now = timezone.now()
    rows = [
        VerifiedHead(game_id=c.game_id, seq=c.seq, head_hash=c.head_hash, verified_at=now)
        for c in clean
    ]
    VerifiedHead.objects.bulk_create(
        rows, batch_size=1000, update_conflicts=True, unique_fields=["game"],
        update_fields=["seq", "head_hash", "verified_at"],
    )  # fmt: skip
    return len(rows)
