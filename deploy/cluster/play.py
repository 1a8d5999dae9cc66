"""The cluster test's players: only HTTP and SMTP through the load balancer
(and the mail host's folder for the mail they receive), no Django.

They retry as a real script would: on a connection error, a 5xx (502, 503,
504 from the balancer or a 503 "try again" from Correo) and a 429, after a
short backoff, a move with the same seq.  A 409 after such a retry means the
game is no longer at that seq: the player reads the event after it, and if
it is its own move from the API, the earlier try landed (acknowledged late);
otherwise nothing of its own landed.  Every move acknowledged either way is
logged (`--log`, one JSON object per line), and check.py compares that log
with the event streams.

    play.py setup --state FILE --games N        # N Havana games of two players
    play.py bench --state FILE --seconds S      # play them as fast as they go
    play.py chaos --seconds S                   # the mix below, until S is up

The chaos mix: games of every title played over the API by both seats;
public Duel games played the same way while a spectator holds each one's
server-sent event stream open through the balancer (the push process on
either host, fed over Redis by whichever host took the move), reconnecting
whenever a host or Redis drops it;
clocked Duel games whose second seat never plays (its timeouts fire, and it
forfeits after a few); games against a bot, whose players have a webhook on
the mail host; a Duel game played entirely by email (the "your turn" mails
from the mail host's folder, the replies by SMTP to the balancer).  A game
that ends is replaced by a new one of its kind.

Prints one JSON object on stdout at the end: counts of moves, retries and
errors.  Exits 1 if any answer was one a player must never get (a 500, a
400 to a listed move, a move it could not resolve).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import re
import smtplib
import sys
import threading
import time
import traceback
from collections import Counter
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy
from email.utils import make_msgid
from pathlib import Path

HOST_HEADER = "correo.cluster.test"
PASSWORD = "cluster-test-password-5c2"
LEGAL_MOVES = "Your legal moves (reply with one of these lines):\n\n"
# What a script treats as "try again": the balancer's and Correo's.
RETRY_STATUSES = {429, 500, 502, 503, 504}


class GaveUp(Exception):
    pass


class Log:
    """Append-only JSON lines, flushed line by line (a killed run keeps them)."""

    def __init__(self, path: str) -> None:
        self.file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - open for the run
        self.lock = threading.Lock()

    def write(self, **record) -> None:
        record.setdefault("t", round(time.time(), 3))
        with self.lock:
            self.file.write(json.dumps(record, sort_keys=True) + "\n")
            self.file.flush()


class Api:
    def __init__(self, address: str, port: int, log: Log, stats: Counter) -> None:
        self.address, self.port, self.log, self.stats = address, port, log, stats

    async def raw(self, method: str, path: str, token=None, body=None, timeout: float = 30.0):
        """One request on a connection of its own: (status, JSON body, headers).
        Raises OSError or TimeoutError when no whole answer came."""
        payload = json.dumps(body).encode() if body is not None else b""
        head = [f"{method} {path} HTTP/1.1", f"Host: {HOST_HEADER}", "Connection: close",
                "Accept: application/json", f"Content-Length: {len(payload)}"]  # fmt: skip
        if body is not None:
            head.append("Content-Type: application/json")
        if token:
            head.append(f"Authorization: Token {token}")
        connecting = asyncio.open_connection(self.address, self.port)
        reader, writer = await asyncio.wait_for(connecting, 5)
        try:
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
            await writer.drain()
            raw = await asyncio.wait_for(reader.read(), timeout)
        finally:
            writer.close()
        header, _, content = raw.partition(b"\r\n\r\n")
        lines = header.decode("latin-1").split("\r\n")
        if not lines or not lines[0].startswith("HTTP/"):
            raise ConnectionError(f"no HTTP answer ({raw[:60]!r})")
        status = int(lines[0].split(" ", 2)[1])
        headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
        length = headers.get("Content-Length") or headers.get("content-length")
        if length is not None and len(content) < int(length):
            # The host died between the headers and the body: no answer.
            raise ConnectionError(f"an answer cut off ({len(content)} of {length} bytes)")
        try:
            data = json.loads(content) if content else None
        except ValueError:
            data = {"text": content[:200].decode("latin-1")}
        return status, data, headers

    def retrying(self, why: str) -> None:
        """One more try, and why (check.py counts them per failure)."""
        self.stats[f"retry.{why}"] += 1
        self.log.write(kind="retry", why=why)

    def recovered(self, started: float, tries: int) -> None:
        """A request that needed more than one try is settled: how long it took."""
        if tries > 1:
            self.log.write(kind="recovered", waited=round(time.monotonic() - started, 3))

    async def call(self, method: str, path: str, token=None, body=None, patience: float = 150.0):
        """A request that is safe to repeat, repeated until it gets an answer
        that is not "try again" (or `patience` runs out)."""
        started = time.monotonic()
        deadline = started + patience
        delay = 0.2
        tries = 0
        while True:
            tries += 1
            try:
                status, data, _ = await self.raw(method, path, token, body)
            except (OSError, TimeoutError, ConnectionError) as error:
                why = type(error).__name__
                self.retrying(why)
            else:
                if status not in RETRY_STATUSES:
                    self.recovered(started, tries)
                    return status, data
                why = f"http_{status}"
                self.retrying(why)
                if status == 500:  # never a "try again": a bug, though a script retries
                    self.stats["error.http_500"] += 1
                    self.log.write(kind="error", what="500", method=method, path=path, body=data)
            if time.monotonic() > deadline:
                raise GaveUp(f"{method} {path}: still {why} after {patience:.0f}s")
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)

    async def move(self, game: int, seat: int, token: str, seq: int, action) -> bool:
        """Post one move at `seq` until it is settled; True if it landed."""
        body = {"seq": seq, "action": action}
        path = f"/api/games/{game}/actions/"
        unsure = 0  # tries that may have landed without our hearing it
        started = time.monotonic()
        deadline = started + 150
        delay = 0.2
        while True:
            try:
                status, data, _ = await self.raw("POST", path, token, body)
            except (OSError, TimeoutError, ConnectionError) as error:
                status, data = None, None
                self.retrying(type(error).__name__)
            if status in (201, 400, 409):
                self.recovered(started, unsure + 1)
            if status == 201:
                self.log.write(kind="move", game=game, seat=seat, seq=data["seq"], action=action,
                               how="201", unsure_tries=unsure)  # fmt: skip
                self.stats["moves"] += 1
                return True
            if status in (409, 400) and unsure:
                landed = await self.landed(game, seat, token, seq, action)
                self.log.write(kind="move" if landed else "not_landed", game=game, seat=seat,
                               seq=seq + 1, action=action, how=f"{status}-after-retry",
                               unsure_tries=unsure)  # fmt: skip
                self.stats["moves" if landed else "not_landed"] += 1
                self.stats["acknowledged_by_409" if landed else "refused_after_retry"] += 1
                return landed
            if status == 409:
                self.stats["stale"] += 1  # a timeout or the other seat got there first
                return False
            if status == 429:
                await asyncio.sleep(1.0)  # refused before anything was done
                continue
            if status is not None and status not in RETRY_STATUSES:
                self.log.write(kind="error", what=f"move answered {status}", game=game,
                               seq=seq, action=action, body=data)  # fmt: skip
                self.stats[f"error.http_{status}"] += 1
                return False
            if status is not None:
                self.retrying(f"http_{status}")
                if status == 500:
                    self.stats["error.http_500"] += 1
                    self.log.write(kind="error", what="500", method="POST", path=path, body=data)
            unsure += 1
            if time.monotonic() > deadline:
                self.log.write(kind="unresolved", game=game, seat=seat, seq=seq, action=action)
                self.stats["unresolved"] += 1
                return False
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)

    async def landed(self, game: int, seat: int, token: str, seq: int, action) -> bool:
        """Whether the event right after `seq` is this seat's move `action` from the API."""
        status, data = await self.call("GET", f"/api/games/{game}/events/?after={seq}&limit=1",
                                       token)  # fmt: skip
        if status != 200 or not data["events"]:
            return False
        event = data["events"][0]
        return (
            event["seq"] == seq + 1
            and event["kind"] == "action"
            and event["seat"] == seat
            and event["source"] == "api"
            and (event.get("payload") or {}).get("action") == action
        )


class Players:
    """Accounts and games over the API."""

    def __init__(self, api: Api, run: str) -> None:
        self.api = api
        self.run = run
        self.numbers = itertools.count(1)

    async def register(self, prefix: str) -> dict:
        name = f"{prefix}{self.run}n{next(self.numbers)}"
        account = {"username": name, "email": f"{name}@players.cluster.test", "password": PASSWORD}
        status, data = await self.api.call("POST", "/api/auth/register/", body=account)
        if status == 400:  # an earlier try got through after all: log in instead
            status, data = await self.api.call("POST", "/api/auth/token/", body={
                "username": name, "password": PASSWORD})  # fmt: skip
        if status not in (200, 201):
            raise GaveUp(f"register {name}: {status} {data}")
        return {"username": name, "email": account["email"], "token": data["token"]}

    async def new_game(self, players: list[dict], title: str, **extra) -> int:
        """A game gathered at a table: the first player opens it with a seat
        for each, the others join (a bot, named as a string, is seated by
        the host's invitation), and the seat that fills it starts the game.
        A join or an invitation repeated after a lost answer meets a 409
        (already seated, or the table started): the table says which."""
        names = [p["username"] if isinstance(p, dict) else p for p in players]
        host = players[0]["token"]
        body = {"title": title, "seats": len(players), "seat_order": "joined", **extra}
        status, table = await self.api.call("POST", "/api/tables/", host, body)
        if status != 201:
            raise GaveUp(f"open a {title} table: {status} {table}")
        path = f"/api/tables/{table['id']}/"
        for player in players[1:]:
            if isinstance(player, dict):
                status, data = await self.api.call("POST", path + "join/", player["token"], {})
            else:
                status, data = await self.api.call("POST", path + "invite/", host,
                                                   {"usernames": [player]})  # fmt: skip
            if status not in (200, 201, 409):
                raise GaveUp(f"seat {player} at table {table['id']}: {status} {data}")
        status, table = await self.api.call("GET", path, host)
        if status != 200 or not table.get("game"):
            raise GaveUp(f"table {table.get('id')} did not start its game: {status} {table}")
        self.api.log.write(kind="game", game=table["game"], title=title, players=names,
                           clock=extra.get("clock"))  # fmt: skip
        return table["game"]


async def play_turn(api: Api, game: int, tokens: dict[int, str], rng: random.Random,
                    seats=None) -> str:  # fmt: skip
    """Read the game; if one of `seats` (any seat of `tokens`) is to act, make
    one random legal move for it.  Returns "moved", "waiting" or "over"."""
    any_token = next(iter(tokens.values()))
    status, detail = await api.call("GET", f"/api/games/{game}/", any_token)
    if status != 200:
        raise GaveUp(f"game {game}: {status} {detail}")
    if detail["status"] != "active":
        return "over"
    mine = [s for s in detail["to_act"] if s in tokens and (seats is None or s in seats)]
    if not mine:
        return "waiting"
    seat = rng.choice(mine)
    status, listed = await api.call("GET", f"/api/games/{game}/actions/", tokens[seat])
    if status != 200 or not listed["actions"]:
        return "waiting"  # the game moved on between the two reads
    action = rng.choice(listed["actions"])["action"]
    await api.move(game, seat, tokens[seat], listed["seq"], action)
    return "moved"


# -- bench -------------------------------------------------------------------


async def setup(api: Api, state_path: str, games: int, run: str) -> None:
    players = Players(api, run)
    state = []
    for _ in range(games):
        pair = [await players.register("b") for _ in range(2)]
        game = await players.new_game(pair, "havana")
        state.append({"game": game, "players": pair})
    Path(state_path).write_text(json.dumps(state))


async def bench(api: Api, state_path: str, seconds: float, run: str) -> dict:
    state = json.loads(Path(state_path).read_text())
    players = Players(api, run)
    end = time.monotonic() + seconds
    started = time.monotonic()
    moves_before = api.stats["moves"]

    async def loop(entry: dict, rng: random.Random) -> None:
        while time.monotonic() < end:
            tokens = {seat: p["token"] for seat, p in enumerate(entry["players"])}
            if await play_turn(api, entry["game"], tokens, rng) == "over":
                entry["game"] = await players.new_game(entry["players"], "havana")

    rng = random.Random(run)
    await asyncio.gather(*(loop(entry, random.Random(rng.random())) for entry in state))
    elapsed = time.monotonic() - started
    Path(state_path).write_text(json.dumps(state))
    return {"moves": api.stats["moves"] - moves_before, "seconds": round(elapsed, 3)}


# -- chaos -------------------------------------------------------------------


async def chaos(api: Api, options, run: str) -> None:
    players = Players(api, run)
    end = time.monotonic() + options.seconds
    _, data = await api.call("GET", "/api/titles/")
    titles = {t["name"]: t for t in data["titles"]}
    api_titles = [name for name in ("havana", "pointcity", "estates") if name in titles]
    bot_titles = [name for name in api_titles if "random" in titles[name].get("bots", [])]
    hook = f"http://{options.mail_host}:8080/hook"
    clock = {"per_move": f"{options.per_move}s", "reminders": ["2s"], "on_timeout": "auto",
             "max_timeouts": options.max_timeouts, "vacation": False}  # fmt: skip

    async def api_game(index: int) -> None:
        rng = random.Random(f"{run}api{index}")
        pair = [await players.register("a") for _ in range(2)]
        while time.monotonic() < end:
            title = api_titles[index % len(api_titles)]
            game = await players.new_game(pair, title)
            tokens = {seat: p["token"] for seat, p in enumerate(pair)}
            while time.monotonic() < end:
                outcome = await play_turn(api, game, tokens, rng)
                if outcome == "over":
                    api.stats["games_finished"] += 1
                    break
                await asyncio.sleep(0.05 if outcome == "moved" else 0.3)

    async def clock_game(index: int) -> None:
        rng = random.Random(f"{run}clock{index}")
        pair = [await players.register("c") for _ in range(2)]
        while time.monotonic() < end:
            game = await players.new_game(pair, "duel", options={"rounds": 1000}, clock=clock)
            tokens = {0: pair[0]["token"]}  # seat 1 never plays: its clock runs out
            while time.monotonic() < end:
                outcome = await play_turn(api, game, tokens, rng)
                if outcome == "over":
                    api.stats["clock_games_over"] += 1
                    break
                await asyncio.sleep(0.5)

    async def bot_game(index: int) -> None:
        rng = random.Random(f"{run}bot{index}")
        player = await players.register("h")
        me = {"webhook_url": hook}
        status, _ = await api.call("PATCH", "/api/auth/me/", player["token"], me)
        if status != 200:
            raise GaveUp(f"webhook for {player['username']}: {status}")
        while time.monotonic() < end:
            title = bot_titles[index % len(bot_titles)]
            game = await players.new_game([player, "bot:random"], title)
            while time.monotonic() < end:
                outcome = await play_turn(api, game, {0: player["token"]}, rng)
                if outcome == "over":
                    api.stats["bot_games_over"] += 1
                    break
                await asyncio.sleep(0.3)

    async def email_game() -> None:
        pair = [await players.register("m") for _ in range(2)]
        mailer = Mailer(options, api.log, api.stats)
        for player in pair:  # game mail goes only to a confirmed address
            await mailer.confirm(player, api, end)
        game = await players.new_game(pair, "duel", options={"rounds": 1000})
        await asyncio.to_thread(mailer.play, game, pair, end, api, asyncio.get_running_loop())

    async def watched_game(index: int) -> None:
        """Public games played like the others while a spectator's stream
        says where each stands; every acknowledged move must be heard."""
        rng = random.Random(f"{run}watch{index}")
        pair = [await players.register("w") for _ in range(2)]
        tokens = {seat: p["token"] for seat, p in enumerate(pair)}
        while time.monotonic() < end:
            game = await players.new_game(pair, "duel", options={"rounds": 1000}, public=True)
            heard: list[tuple[float, int]] = []
            watching = asyncio.create_task(watch(api, game, heard, end + PUSH_GRACE))
            while time.monotonic() < end:
                if await play_turn(api, game, tokens, rng) == "over":
                    break
                await asyncio.sleep(0.2)
            status, detail = await api.call("GET", f"/api/games/{game}/", tokens[0])
            if status != 200 or not isinstance(detail, dict):
                raise GaveUp(f"game {game}: {status} {detail}")
            head = detail["seq"]
            while time.monotonic() < end + PUSH_GRACE and (not heard or heard[-1][1] < head):
                await asyncio.sleep(0.2)
            watching.cancel()
            api.log.write(kind="pushed", game=game, head=head, heard=[s for _, s in heard],
                          at=[round(t, 3) for t, _ in heard])  # fmt: skip
            api.stats["push.heard"] += len(heard)

    tasks = [api_game(i) for i in range(options.api_games)]
    tasks += [watched_game(i) for i in range(options.watched_games)]
    tasks += [clock_game(i) for i in range(options.clock_games)]
    tasks += [bot_game(i) for i in range(options.bot_games)]
    tasks += [email_game() for _ in range(options.email_games)]
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            where = traceback.extract_tb(result.__traceback__)[-1:]
            api.log.write(kind="error", what=f"player stopped: {result!r}",
                          where=[f"{f.filename}:{f.lineno} {f.line}" for f in where])  # fmt: skip
            api.stats["error.player_stopped"] += 1


# How long after the run a stream may take to say the game's last seq.
PUSH_GRACE = 10.0


async def watch(api: Api, game: int, heard: list[tuple[float, int]], until: float) -> None:
    """A spectator's server-sent event stream of `game` through the
    balancer, opened again (after its `retry`, at most a second here)
    whenever it ends or breaks: each seq said, with when (time.time())."""
    path = f"/games/{game}/stream/"
    while time.monotonic() < until:
        try:
            connecting = asyncio.open_connection(api.address, api.port)
            reader, writer = await asyncio.wait_for(connecting, 5)
        except (OSError, TimeoutError):
            api.stats["push.reconnects"] += 1
            await asyncio.sleep(0.5)
            continue
        try:
            writer.write(
                (
                    f"GET {path} HTTP/1.1\r\nHost: {HOST_HEADER}\r\n"
                    "Accept: text/event-stream\r\nConnection: close\r\n\r\n"
                ).encode()
            )
            await writer.drain()
            status = await asyncio.wait_for(reader.readline(), 10)
            if b" 200 " not in status:
                code = status.split()[1].decode() if len(status.split()) > 1 else "none"
                api.stats[f"push.status_{code}"] += 1
            while line := await asyncio.wait_for(reader.readline(), 40):
                if line.startswith(b"data: "):
                    said = json.loads(line[6:])
                    if said.get("game") == game:
                        heard.append((time.time(), int(said["seq"])))
        except (OSError, TimeoutError, ValueError):
            pass
        finally:
            writer.close()
        api.stats["push.reconnects"] += 1
        await asyncio.sleep(0.5)


class Mailer:
    """Both seats of a game played by email.  A seat to act answers the
    newest mail of the game that lists its legal moves ("your turn", or the
    answer to its previous reply when it is still to act) with the first of
    them, by SMTP through the balancer.  A reply the door did not take (451,
    a dropped connection) is sent again as the same message (same
    Message-ID), as an MTA would."""

    def __init__(self, options, log: Log, stats: Counter) -> None:
        self.folder = Path(options.maildir)
        self.smtp = (options.lb, options.smtp_port)
        self.log, self.stats = log, stats
        self.seen: dict[str, object] = {}

    def mails(self) -> list:
        for path in sorted(self.folder.glob("*.eml")):
            if path.name not in self.seen:
                raw = path.read_bytes().replace(b"\r\n", b"\n")
                message = message_from_bytes(raw, policy=default_policy)
                message.envelope_to = [
                    a.strip() for a in message["X-Smoke-Envelope-To"].split(",")
                ]
                message.number = int(path.stem)
                self.seen[path.name] = message
        return list(self.seen.values())

    def wait_for(self, predicate, until: float):
        while time.monotonic() < until:
            found = [m for m in self.mails() if predicate(m)]
            if found:
                return found[-1]
            time.sleep(0.3)
        return None

    async def confirm(self, player: dict, api: Api, end: float) -> None:
        """Follow the link of the sign-up's confirmation mail, as a person would."""

        def confirming(m, address=player["email"]) -> bool:
            return address in m.envelope_to and "/accounts/verify/" in (
                m.get_body(("plain",)).get_content()
            )

        mail = await asyncio.to_thread(self.wait_for, confirming, end)
        if mail is None:
            raise GaveUp(f"no confirmation mail for {player['email']}")
        body = mail.get_body(("plain",)).get_content()
        path = re.search(r"https?://[^/\s]+(/accounts/verify/[^/\s]+/)", body).group(1)
        status = (await api.raw("GET", path))[0]
        if status not in (200, 302):
            raise GaveUp(f"confirming {player['email']}: {status}")

    def send(self, message: EmailMessage) -> bool:
        deadline = time.monotonic() + 150
        delay = 0.5
        while True:
            try:
                with smtplib.SMTP(*self.smtp, timeout=30) as client:
                    client.send_message(message)
                return True
            except (smtplib.SMTPException, OSError) as error:
                code = getattr(error, "smtp_code", None)
                if code and 500 <= code < 600:
                    self.log.write(kind="error", what=f"reply refused for good: {error}",
                                   message_id=message["Message-ID"])  # fmt: skip
                    self.stats["error.smtp_5xx"] += 1
                    return False
                self.stats[f"retry.smtp_{code or type(error).__name__}"] += 1
                self.log.write(kind="retry", why=f"smtp_{code or type(error).__name__}")
            if time.monotonic() > deadline:
                self.stats["unresolved"] += 1
                self.log.write(kind="unresolved", what="reply never taken",
                               message_id=message["Message-ID"])  # fmt: skip
                return False
            time.sleep(delay)
            delay = min(delay * 2, 4.0)

    def play(self, game: int, pair: list[dict], end: float, api: Api, loop) -> None:
        tag = re.compile(rf"#{game}:")
        answered_up_to = {p["email"]: 0 for p in pair}  # each player's last mail dealt with
        while time.monotonic() < end:
            detail = asyncio.run_coroutine_threadsafe(
                api.call("GET", f"/api/games/{game}/", pair[0]["token"]), loop
            ).result()[1]
            if detail["status"] != "active":
                return
            seat = detail["to_act"][0]
            player = pair[seat]

            def usable(m, address=player["email"]) -> bool:
                return (
                    address in m.envelope_to
                    and m.number > answered_up_to[address]
                    and bool(tag.search(m["Subject"] or ""))
                    and LEGAL_MOVES in m.get_body(("plain",)).get_content()
                )

            mail = self.wait_for(usable, end)
            if mail is None:
                self.stats["email.no_mail_to_answer"] += 1
                continue
            answered_up_to[player["email"]] = mail.number
            body = mail.get_body(("plain",)).get_content()
            line = body.split(LEGAL_MOVES, 1)[1].split("\n\n", 1)[0].strip().splitlines()[0]
            line = line.split("#", 1)[0].strip()
            reply = EmailMessage()
            reply["From"] = player["email"]
            reply["To"] = mail["Reply-To"]
            reply["Subject"] = "Re: " + (mail["Subject"] or "")
            reply["In-Reply-To"] = mail["Message-ID"]
            reply["Message-ID"] = make_msgid(domain="players.cluster.test")
            reply.set_content(f"{line}\n")
            if not self.send(reply):
                continue
            self.log.write(kind="mail_reply", game=game, seat=seat, message_id=reply["Message-ID"],
                           line=line)  # fmt: skip
            self.stats["email.replies_taken"] += 1
            answer = self.wait_for(
                lambda m, r=reply: m["In-Reply-To"] == r["Message-ID"], end + 30
            )
            if answer is None:
                self.stats["email.answer_late"] += 1
            elif (answer["Subject"] or "").endswith(": done"):
                self.stats["email.moves_done"] += 1
            else:
                self.stats["email.answer_not_done"] += 1
                self.log.write(kind="mail_answer", game=game, subject=answer["Subject"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=("setup", "bench", "chaos"))
    parser.add_argument("--lb", required=True, help="the load balancer's address")
    parser.add_argument("--port", type=int, default=80)
    parser.add_argument("--smtp-port", type=int, default=25)
    parser.add_argument("--mail-host", help="the mail host's address (webhooks)")
    parser.add_argument("--maildir", help="the mail host's folder of delivered mail")
    parser.add_argument("--log", required=True)
    parser.add_argument("--state")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=12)
    parser.add_argument("--api-games", type=int, default=6)
    parser.add_argument("--clock-games", type=int, default=3)
    parser.add_argument("--bot-games", type=int, default=2)
    parser.add_argument("--watched-games", type=int, default=2)
    parser.add_argument("--email-games", type=int, default=1)
    parser.add_argument("--per-move", type=int, default=5)
    parser.add_argument("--max-timeouts", type=int, default=4)
    options = parser.parse_args()
    stats: Counter = Counter()
    log = Log(options.log)
    api = Api(options.lb, options.port, log, stats)
    run = f"{os.getpid() % 10000}{int(time.time()) % 10000}"
    if options.mode == "setup":
        asyncio.run(setup(api, options.state, options.games, run))
        summary = {}
    elif options.mode == "bench":
        summary = asyncio.run(bench(api, options.state, options.seconds, run))
    else:
        asyncio.run(chaos(api, options, run))
        summary = {}
    summary["stats"] = dict(sorted(stats.items()))
    print(json.dumps(summary), flush=True)
    bad = [k for k in stats if k.startswith("error.") or k == "unresolved"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
