"""The cluster test's checks, run on an app host with the apps' settings
(through PgBouncer, as an operator's shell would be).

    check.py --work DIR --wait-quiet SECONDS   # wait until the cluster is idle
    check.py --work DIR                        # then check and print the figures

Idle: no clocked game still running (their absent seats forfeit after a few
timeouts), and nothing pending or sending in the outbox, mail or webhook.

What is checked, against what the players and the mail host recorded
(DIR/client/moves.jsonl, DIR/mail/out, DIR/mail/hooks.jsonl):
- every move a player saw acknowledged (a 201, or a 409 after a retry with
  its own move found right after its seq) is in its game's stream exactly
  once, at that seq, with that seat and action; and every move from the API
  in the streams is one a player made (none applied twice, none it was told
  did not land);
- every reply the smtpd door took (SMTP 250) is in the ledger, and each game
  has exactly as many moves by email as the ledger has mails applied;
- every mail recorded sent reached the sink, once; and every webhook POST
  recorded sent reached the receiver, once.  A second copy is allowed only in
  the window docs/guarantees.md ("A mail is sent once") names: its first copy sent by a
  host that was killed within a few seconds after, before it could record it;
- every timeout applied once: a seat's expiries at least `per_move` apart,
  and for a seat that never moved itself, as many expiries in its stream
  as its row counts; no clock left overdue.

Prints what it found, and the figures as bench JSON lines (bench/support.py);
exits 1 if any check failed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import time
from collections import Counter, defaultdict
from email import message_from_bytes
from email.policy import default as default_policy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["LOG_LEVEL"] = "WARNING"

import django  # noqa: E402

django.setup()

from django.db import transaction  # noqa: E402
from django.utils import timezone  # noqa: E402
from support import emit  # noqa: E402

from games.jobs.timeouts import MAX_ACTIONS_PER_EXPIRY  # noqa: E402
from games.models import Event, Game, Seat  # noqa: E402
from notifications.models import InboundMessage, Notification  # noqa: E402

# A duplicate mail is explained only if its first copy left a host this
# shortly before the host was killed (the worker died before recording it).
KILL_WINDOW_SECONDS = 5.0
OWN_SOURCES = (Event.Source.API, Event.Source.EMAIL, Event.Source.WEB)

failures: list[str] = []


def say(message: str) -> None:
    print(f"cluster: check: {message}", flush=True)


def fail(message: str) -> None:
    failures.append(message)
    print(f"cluster: check: FAILED: {message}", flush=True)


def read_lines(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def busy() -> dict[str, int]:
    """What is still going on: clocked games running, mail and hooks in flight."""
    running = Game.objects.filter(status=Game.Status.ACTIVE, clock__isnull=False)
    return {
        "clocked_games": sum(1 for clock in running.values_list("clock", flat=True) if clock),
        "mail": Notification.objects.filter(status__in=("pending", "sending")).count(),
        "webhooks": Notification.objects.filter(webhook_status__in=("pending", "sending")).count(),
    }


def wait_quiet(seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while True:
        left = busy()
        if not any(left.values()):
            say(f"idle: no clocked game running, outbox and webhooks drained ({left})")
            return
        if time.monotonic() > deadline:
            fail(f"not idle after {seconds:.0f}s: {left}")
            return
        time.sleep(2)


def check_moves(log: list[dict], timeline: list[dict]) -> dict:
    acknowledged = {}
    not_landed = {}
    unresolved = {}
    for record in log:
        key = (record.get("game"), record.get("seq"))
        if record["kind"] == "move":
            if key in acknowledged:
                fail(f"the client logged game {key[0]} seq {key[1]} as its move twice")
            acknowledged[key] = record
        elif record["kind"] == "not_landed":
            not_landed[key] = record
        elif record["kind"] == "unresolved":
            unresolved[(record.get("game"), record.get("seq", 0) + 1)] = record
    events = {
        (game, seq): (seat, payload)
        for game, seq, seat, payload in Event.objects.filter(
            kind=Event.Kind.ACTION, source=Event.Source.API
        ).values_list("game_id", "seq", "seat", "payload")
    }
    lost = []
    for key, record in acknowledged.items():
        found = events.get(key)
        same = found and found[0] == record["seat"] and found[1].get("action") == record["action"]
        if not same:
            lost.append((key, record, found))
    unknown = []
    late = 0
    for key, (seat, payload) in events.items():
        if key in acknowledged:
            continue
        if key in unresolved and unresolved[key]["action"] == payload.get("action"):
            late += 1  # landed, and the player never heard: allowed, told below
            continue
        unknown.append((key, seat, payload, not_landed.get(key)))
    for key, record, found in lost[:10]:
        fail(f"acknowledged move lost: game {key[0]} seq {key[1]} {record} -> stream has {found}")
    for key, seat, payload, told in unknown[:10]:
        contradiction = f" (the player was told it did not: {told})" if told else ""
        fail(f"a move from the API nobody was told landed: game {key[0]} seq {key[1]} "
             f"seat {seat} {payload}{contradiction}")  # fmt: skip
    starts = [m["t"] for m in timeline if m["what"].startswith("chaos starts")]
    in_chaos = sum(1 for r in acknowledged.values() if starts and r["t"] >= starts[0])
    by_409 = sum(1 for r in acknowledged.values() if r["how"] != "201")
    after_retry = sum(1 for r in acknowledged.values() if r.get("unsure_tries"))
    say(f"moves: {len(acknowledged)} acknowledged ({in_chaos} during the chaos, "
        f"{by_409} by a 409 after a retry, "
        f"{after_retry} after at least one unanswered try), {len(lost)} lost, "
        f"{len(unknown)} in a stream unacknowledged, {late} landed after the player gave up; "
        f"{len(events)} moves from the API in the streams")  # fmt: skip
    return {"acknowledged": len(acknowledged), "lost": len(lost), "doubled": len(unknown),
            "acknowledged_by_409": by_409, "in_chaos": in_chaos}  # fmt: skip


def check_email_moves(log: list[dict]) -> dict:
    taken = [r for r in log if r["kind"] == "mail_reply"]
    ids = [r["message_id"] for r in taken]
    ledger = dict(
        InboundMessage.objects.filter(message_id__in=ids).values_list("message_id", "status")
    )
    missing = [i for i in ids if i not in ledger]
    for message_id in missing[:10]:
        fail(f"a reply the door took (250) is not in the ledger: {message_id}")
    games = {r["game"] for r in taken}
    mismatched = 0
    for game in games:
        moves = Event.objects.filter(
            game_id=game, kind=Event.Kind.ACTION, source=Event.Source.EMAIL
        ).count()
        applied = InboundMessage.objects.filter(game_id=game, status="applied").count()
        if moves != applied:
            mismatched += 1
            fail(f"game {game}: {moves} moves by email, {applied} mails applied")
    outcomes = Counter(ledger.values())
    say(f"email: {len(ids)} replies taken by smtpd behind the balancer, {len(missing)} missing "
        f"from the ledger, outcomes {dict(outcomes)}; moves by email = mails applied in "
        f"{len(games) - mismatched} of {len(games)} games")  # fmt: skip
    return {"replies": len(ids), "lost": len(missing), "mismatched_games": mismatched}


def killed_at(timeline: list[dict], host_address: str) -> list[float]:
    kills = [m for m in timeline if m["what"].startswith("kill ")]
    return [m["t"] for m in kills if host_address in m["what"]]


def explained(copies: list[tuple[float, str]], timeline: list[dict]) -> bool:
    first_at, first_peer = min(copies)
    return any(
        0 <= kill - first_at <= KILL_WINDOW_SECONDS for kill in killed_at(timeline, first_peer)
    )


def check_mail(folder: Path, timeline: list[dict]) -> dict:
    copies: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for path in folder.glob("*.eml"):
        head = path.read_bytes().split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n"
        message = message_from_bytes(head, policy=default_policy)
        copies[str(message["Message-ID"]).strip()].append(
            (float(message["X-Smoke-Received"]), str(message["X-Smoke-Peer"]))
        )
    rows = list(Notification.objects.exclude(to_email="").only("id", "kind", "status"))
    statuses = Counter(n.status for n in rows)
    sent = [n for n in rows if n.status == Notification.Status.SENT]
    ids = {n.message_id: n for n in rows}
    lost = [n for n in sent if n.message_id not in copies]
    duplicates = {mid: c for mid, c in copies.items() if len(c) > 1}
    unexplained = {mid: c for mid, c in duplicates.items() if not explained(c, timeline)}
    strangers = [mid for mid in copies if mid not in ids]
    never_recorded = [mid for mid in copies if mid in ids and ids[mid].status != "sent"]
    for n in lost[:10]:
        fail(f"mail recorded sent never reached the sink: {n.message_id} ({n.kind})")
    for mid, c in list(unexplained.items())[:10]:
        fail(f"mail delivered {len(c)} times: {mid} {sorted(c)}")
    for mid in strangers[:10]:
        fail(f"the sink has a mail the outbox does not know: {mid}")
    for mid in never_recorded[:10]:
        fail(f"the sink has {mid}, recorded {ids[mid].status}, not sent")
    if statuses.get("failed"):
        fail(f"{statuses['failed']} mails failed for good")
    say(f"mail: {len(sent)} recorded sent, {sum(len(c) for c in copies.values())} reached the "
        f"sink; {len(lost)} lost, {len(duplicates)} delivered twice ({len(unexplained)} outside "
        f"the documented window); outbox {dict(statuses)}")  # fmt: skip
    return {"sent": len(sent), "lost": len(lost), "duplicates": len(duplicates),
            "unexplained_duplicates": len(unexplained)}  # fmt: skip


def check_webhooks(hooks: list[dict], timeline: list[dict]) -> dict:
    copies: dict[int, list[tuple[float, str]]] = defaultdict(list)
    for line in hooks:
        copies[line["body"].get("id")].append((line["received"], line["peer"]))
    rows = Notification.objects.exclude(webhook_status="")
    statuses = Counter(rows.values_list("webhook_status", flat=True))
    sent = set(rows.filter(webhook_status="sent").values_list("id", flat=True))
    lost = sent - set(copies)
    duplicates = {i: c for i, c in copies.items() if len(c) > 1}
    unexplained = {i: c for i, c in duplicates.items() if not explained(c, timeline)}
    strangers = set(copies) - set(rows.values_list("id", flat=True))
    for i in sorted(lost)[:10]:
        fail(f"webhook recorded sent never reached the receiver: notification {i}")
    for i, c in list(unexplained.items())[:10]:
        fail(f"webhook POSTed {len(c)} times: notification {i} {sorted(c)}")
    for i in sorted(strangers, key=str)[:10]:
        fail(f"the receiver got a POST the outbox does not know: {i}")
    if statuses.get("failed"):
        fail(f"{statuses['failed']} webhook POSTs failed")
    say(f"webhooks: {len(sent)} recorded sent, {sum(len(c) for c in copies.values())} received; "
        f"{len(lost)} lost, {len(duplicates)} twice ({len(unexplained)} outside the window); "
        f"{dict(statuses)}")  # fmt: skip
    return {"sent": len(sent), "lost": len(lost), "unexplained_duplicates": len(unexplained)}


def expiries(events: list[tuple], per_move: float) -> list[list[tuple]]:
    """A seat's timer events grouped into expiries: one expiry plays the
    seat's turn out (up to MAX_ACTIONS_PER_EXPIRY events, one transaction);
    the next cannot come before a fresh deadline, per_move later."""
    groups: list[list[tuple]] = []
    for event in events:
        if groups and (event[1] - groups[-1][-1][1]).total_seconds() < per_move / 2:
            groups[-1].append(event)
        else:
            groups.append([event])
    return groups


def check_timeouts() -> dict:
    clocked = [g for g in Game.objects.filter(clock__isnull=False).only("id", "clock") if g.clock]
    applied = 0
    seats_checked = 0
    problems = 0
    for game in clocked:
        per_move = float(game.clock["per_move"])
        rows = list(
            Event.objects.filter(game=game, seat__isnull=False)
            .order_by("seq")
            .values_list("seq", "created_at", "kind", "source", "seat")
        )
        for seat in Seat.objects.filter(game=game).only("index", "timeouts"):
            mine = [r for r in rows if r[4] == seat.index]
            timer = [r for r in mine if r[3] == Event.Source.TIMER]
            groups = expiries(timer, per_move)
            applied += len(groups)
            for earlier, later in itertools.pairwise(groups):
                gap = (later[0][1] - earlier[-1][1]).total_seconds()
                if gap < per_move * 0.9:
                    problems += 1
                    fail(f"game {game.pk} seat {seat.index}: expiries {gap:.1f}s apart (per_move "
                         f"{per_move:.0f}s) at seq {earlier[0][0]} and {later[0][0]}")  # fmt: skip
            for group in groups:
                if len(group) > MAX_ACTIONS_PER_EXPIRY:
                    problems += 1
                    fail(f"game {game.pk} seat {seat.index}: {len(group)} timer events in one "
                         f"expiry at seq {group[0][0]}")  # fmt: skip
            if not any(r[3] in OWN_SOURCES for r in mine):
                seats_checked += 1
                if seat.timeouts != len(groups):
                    problems += 1
                    fail(f"game {game.pk} seat {seat.index}: the row counts {seat.timeouts} "
                         f"timeouts, the stream has {len(groups)} expiries")  # fmt: skip
    overdue = Game.objects.filter(
        status=Game.Status.ACTIVE,
        deadline__lt=timezone.now() - timezone.timedelta(seconds=30),
        paused=False,
    ).count()
    if overdue:
        fail(f"{overdue} running games are more than 30 s past a deadline: timeouts not applied")
    say(f"timeouts: {applied} expiries in {len(clocked)} clocked games; the seats that never "
        f"moved ({seats_checked}) each count exactly their expiries; {problems} problems, "
        f"{overdue} overdue")  # fmt: skip
    return {"expiries": applied, "problems": problems + overdue}


def what_players_saw(log: list[dict], timeline: list[dict]) -> None:
    """Per stretch of the timeline (from one failure or recovery to the
    next), the tries players had to make again and the longest a request
    took to settle through them."""
    marks = sorted(timeline, key=lambda m: m["t"])
    if not marks:
        return
    stretches = [("before the chaos", 0.0)] + [(m["what"], m["t"]) for m in marks]

    def stretch_of(t: float) -> str:
        return [name for name, start in stretches if start <= t][-1]

    retries: dict[str, Counter] = defaultdict(Counter)
    longest: dict[str, float] = defaultdict(float)
    for record in log:
        if record["kind"] == "retry":
            retries[stretch_of(record["t"])][record["why"]] += 1
        elif record["kind"] == "recovered":
            began = stretch_of(record["t"] - record["waited"])
            longest[began] = max(longest[began], record["waited"])
    for name, _ in stretches:
        if retries[name] or longest[name]:
            tried = ", ".join(f"{why} x{n}" for why, n in retries[name].most_common())
            say(f"players, {name}: tries again: {tried or 'none'}; the longest request took "
                f"{longest[name]:.1f}s to settle")  # fmt: skip


def check_push(log: list[dict]) -> dict:
    """Each watched game's stream said every seq a player was told landed,
    within the grace after the run, and never a seq beyond the stream; how
    long after each acknowledged move it was heard (the stream was held
    through the balancer while hosts and Redis failed, and reopened)."""
    watched = [r for r in log if r["kind"] == "pushed"]
    moves = [r for r in log if r["kind"] == "move"]
    delays: list[float] = []
    for record in watched:
        game, heard, at = record["game"], record["heard"], record["at"]
        head = Event.objects.filter(game_id=game).order_by("-seq").values_list("seq", flat=True)
        last = head.first() or 0
        if not heard or max(heard) < record["head"]:
            fail(f"push: game {game} is at seq {record['head']}, its stream said only "
                 f"{max(heard) if heard else 'nothing'}")  # fmt: skip
        if heard and max(heard) > last:
            fail(f"push: game {game}'s stream said seq {max(heard)}, the stream ends at {last}")
        for move in (m for m in moves if m["game"] == game):
            later = [t for t, seq in zip(at, heard, strict=True) if seq >= move["seq"]]
            if later:
                delays.append(max(0.0, min(later) - move["t"]))
    if watched:
        delays.sort()
        p50 = delays[len(delays) // 2] if delays else None
        p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))] if delays else None
        say(f"push: {len(watched)} watched game(s), {sum(len(r['heard']) for r in watched)} "
            f"seqs heard, a move heard after {p50}s (median), {p99}s (p99), reconnects "
            "counted in the players' figures")  # fmt: skip
    return {"watched": len(watched), "delays": delays}


def figures(work: Path, context: dict) -> None:
    runs = read_lines(work / "client" / "bench.jsonl")
    by_hosts: dict[int, list[float]] = defaultdict(list)
    for run in runs:
        by_hosts[run["hosts"]].append(run["moves"] / run["seconds"])
    for hosts, rates in sorted(by_hosts.items()):
        emit("cluster.moves_per_second", statistics.median(rates), "moves/s", app_hosts=hosts,
             runs=[round(r, 1) for r in rates], min=round(min(rates), 1),
             max=round(max(rates), 1), **context)  # fmt: skip
    if 1 in by_hosts and 2 in by_hosts:
        ratio = statistics.median(by_hosts[2]) / statistics.median(by_hosts[1])
        emit("cluster.two_hosts_over_one", ratio, "x", **context)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--wait-quiet", type=float)
    options = parser.parse_args()
    if options.wait_quiet is not None:
        wait_quiet(options.wait_quiet)
        return 1 if failures else 0
    work = options.work
    log = read_lines(work / "client" / "moves.jsonl")
    timeline = read_lines(work / "timeline.jsonl")
    context = {"cores": os.cpu_count(), "loadavg_1m": round(os.getloadavg()[0], 2)}
    # One snapshot of everything: the streams, the ledger and the outbox as of one moment.
    with transaction.atomic():
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        moves = check_moves(log, timeline)
        email = check_email_moves(log)
        mail = check_mail(work / "mail" / "out", timeline)
        hooks = check_webhooks(read_lines(work / "mail" / "hooks.jsonl"), timeline)
        timeouts = check_timeouts()
        push = check_push(log)
    what_players_saw(log, timeline)
    bots = Event.objects.filter(source=Event.Source.BOT).count()
    say(f"bots: {bots} moves, each by the task of its seq (verify_games checks them)")
    errors = [r for r in log if r["kind"] == "error"]
    for record in errors[:10]:
        fail(f"a player got an answer it must never get: {record}")
    figures(work, context)
    for name, value, unit in [
        # The whole run, throughput phases and chaos together.
        ("cluster.moves_acknowledged", moves["acknowledged"], "moves"),
        ("cluster.moves_acknowledged_during_chaos", moves["in_chaos"], "moves"),
        ("cluster.moves_acknowledged_by_409", moves["acknowledged_by_409"], "moves"),
        ("cluster.moves_lost", moves["lost"], "moves"),
        ("cluster.moves_doubled", moves["doubled"], "moves"),
        ("cluster.email_replies_taken", email["replies"], "mails"),
        ("cluster.email_replies_lost", email["lost"], "mails"),
        ("cluster.mails_sent", mail["sent"], "mails"),
        ("cluster.mails_lost", mail["lost"], "mails"),
        ("cluster.mails_twice", mail["duplicates"], "mails"),
        ("cluster.webhooks_sent", hooks["sent"], "posts"),
        ("cluster.webhooks_lost", hooks["lost"], "posts"),
        ("cluster.timeouts_applied", timeouts["expiries"], "expiries"),
        ("cluster.timeout_problems", timeouts["problems"], "expiries"),
        ("cluster.push_watched_games", push["watched"], "games"),
    ]:
        emit(name, value, unit, **context)
    if push["delays"]:
        delays = push["delays"]
        emit("cluster.push_heard_p50_seconds", delays[len(delays) // 2], "s", **context)
        emit("cluster.push_heard_p99_seconds", delays[min(len(delays) - 1,
             int(len(delays) * 0.99))], "s", moves=len(delays), **context)  # fmt: skip
    if failures:
        say(f"{len(failures)} check(s) failed")
        return 1
    say("every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
