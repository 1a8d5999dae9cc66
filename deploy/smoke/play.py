"""The smoke test's player: only HTTP, SMTP and the sink's folder, no Django.

1. registers players through the API and plays one complete game of every
   title listed by GET /api/titles/ (a random legal action each turn, with
   the seq it was listed at);
2. plays one short game by email: the "your turn" mails arrive in the sink
   (sent by the Celery worker), each player replies with the first legal
   move to the smtpd listener and waits for the "done" answer;
3. sets a webhook for a player of a new game and waits for its POST (sent by
   the webhook worker, on its own queue);
4. waits for the outbox and the webhooks to drain (/metrics) and checks the
   counters.

Exits non-zero with a message on the first thing that goes wrong.
Environment: SMOKE_BASE_URL, SMOKE_MAILDIR, SMOKE_SMTPD_PORT, optionally
SMOKE_EMAIL_TITLE (default duel), SMOKE_MAX_MOVES, SMOKE_SEED.
"""

from __future__ import annotations

import json
import os
import random
import re
import smtplib
import sys
import threading
import time
import urllib.error
import urllib.request
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy
from email.utils import make_msgid
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

BASE_URL = os.environ.get("SMOKE_BASE_URL", "http://127.0.0.1:8000")
MAILDIR = Path(os.environ.get("SMOKE_MAILDIR", "var/smoke-mail"))
SMTPD_PORT = int(os.environ.get("SMOKE_SMTPD_PORT", "2525"))
EMAIL_TITLE = os.environ.get("SMOKE_EMAIL_TITLE", "duel")
MAX_MOVES = int(os.environ.get("SMOKE_MAX_MOVES", "5000"))
RUN = f"{int(time.time()) % 100000}"
PASSWORD = "smoke-test-password-8d1"
LEGAL_MOVES = "Your legal moves (reply with one of these lines):\n\n"


class SmokeFailure(Exception):
    pass


def say(message: str) -> None:
    print(f"smoke: {message}", flush=True)


def api(method: str, path: str, token: str | None = None, body=None, expect=(200, 201)):
    request = urllib.request.Request(BASE_URL + path, method=method)
    request.add_header("Accept", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, data, timeout=30) as response:
            status, text = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read()
    if status not in expect:
        raise SmokeFailure(f"{method} {path} -> {status}: {text[:500]!r}")
    return json.loads(text) if text else None


def register(name: str) -> dict:
    username = f"{name}{RUN}"
    email = f"{username}@players.smoke.test"
    body = {"username": username, "email": email, "password": PASSWORD}
    token = api("POST", "/api/auth/register/", body=body)["token"]
    confirm_address(email)
    return {"username": username, "email": email, "token": token}


VERIFY_LINK = re.compile(r"https?://[^/\s]+(/accounts/verify/[^/\s]+/)")


def confirm_address(email: str) -> None:
    """Follow the link of the sign-up's confirmation mail, as a person
    would: game mail goes only to a confirmed address."""

    def confirming(m) -> bool:
        return email in m.envelope_to and "/accounts/verify/" in plain(m)

    message = wait_for_mail(f"confirming {email}", confirming)
    fetch(VERIFY_LINK.search(plain(message)).group(1))


def plain(message) -> str:
    return message.get_body(("plain",)).get_content()


def new_game(players: list[dict], title: str, options: dict | None = None) -> int:
    """A game gathered as players meet: the first opens a table with a seat
    for each, the others join it, and the seat that fills it starts the game
    (nobody is seated without taking the seat)."""
    body = {
        "title": title,
        "seats": len(players),
        "seat_order": "joined",
        "options": options or {},
    }
    table = api("POST", "/api/tables/", players[0]["token"], body)
    for player in players[1:]:
        table = api("POST", f"/api/tables/{table['id']}/join/", player["token"], {})
    if table["status"] != "started" or not table["game"]:
        raise SmokeFailure(f"table {table['id']} did not start its game: {table}")
    return table["game"]


def whole_result(result: dict | None, seats: int) -> bool:
    """The one result shape every title gives (docs/api.md, "What a client is shown")."""
    if not isinstance(result, dict) or not isinstance(result.get("ended_by"), str):
        return False
    if any(len(result.get(key) or []) != seats for key in ("places", "scores", "breakdown")):
        return False
    return result.get("winners") == [s for s, place in enumerate(result["places"]) if place == 1]


def play_over_http(title: dict, rng: random.Random) -> tuple[int, int]:
    count = title["min_players"]
    players = [register(f"{title['name'][:6]}{seat}x") for seat in range(count)]
    game_id = new_game(players, title["name"])
    for moves in range(MAX_MOVES):
        detail = api("GET", f"/api/games/{game_id}/", players[0]["token"])
        if detail["status"] != "active":
            if detail["status"] != "finished" or not whole_result(detail["result"], count):
                raise SmokeFailure(f"{title['name']} game {game_id} ended badly: {detail}")
            return game_id, moves
        seat = rng.choice(detail["to_act"])
        token = players[seat]["token"]
        listed = api("GET", f"/api/games/{game_id}/actions/", token)
        choice = rng.choice(listed["actions"])
        api("POST", f"/api/games/{game_id}/actions/", token,
            {"seq": listed["seq"], "action": choice["action"]})  # fmt: skip
    raise SmokeFailure(f"{title['name']} game {game_id} did not end within {MAX_MOVES} moves")


def mails() -> list:
    found = []
    for path in sorted(MAILDIR.glob("*.eml")):
        raw = path.read_bytes().replace(b"\r\n", b"\n")
        message = message_from_bytes(raw, policy=default_policy)
        message.envelope_to = [a.strip() for a in message["X-Smoke-Envelope-To"].split(",")]
        found.append(message)
    return found


def wait_for_mail(what: str, predicate, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [m for m in mails() if predicate(m)]
        if found:
            return found[-1]
        time.sleep(0.2)
    seen = [(m["To"], m["Subject"]) for m in mails()][-10:]
    raise SmokeFailure(f"no mail {what} within {timeout:.0f}s; last ones: {seen}")


def legal_moves(message) -> list[str]:
    body = message.get_body(("plain",)).get_content()
    if LEGAL_MOVES not in body:
        raise SmokeFailure(f"no legal moves in {message['Subject']!r}")
    block = body.split(LEGAL_MOVES, 1)[1].split("\n\n", 1)[0]
    return [line.strip() for line in block.splitlines() if line.strip()]


def reply(message, sender: str, text: str) -> EmailMessage:
    answer = EmailMessage()
    answer["From"] = sender
    answer["To"] = message["Reply-To"]
    answer["Subject"] = "Re: " + message["Subject"]
    answer["In-Reply-To"] = message["Message-ID"]
    answer["References"] = message["Message-ID"]
    answer["Message-ID"] = make_msgid(domain="players.smoke.test")
    quoted = "\n".join(
        "> " + line for line in message.get_body(("plain",)).get_content().split("\n")
    )
    answer.set_content(f"{text}\n\nOn Sunday, Correo wrote:\n{quoted}\n")
    with smtplib.SMTP("127.0.0.1", SMTPD_PORT, timeout=30) as client:
        client.send_message(answer)
    return answer


def play_by_email(title: str) -> tuple[int, int]:
    players = [register(f"mail{seat}x") for seat in range(2)]
    options = {"rounds": 1} if title == "duel" else {}
    game_id = new_game(players, title, options)
    tag = re.compile(rf"#{game_id}:")
    answered: set[str] = set()
    for moves in range(200):  # noqa: B007 - the count is returned
        detail = api("GET", f"/api/games/{game_id}/", players[0]["token"])
        if detail["status"] != "active":
            break
        player = players[detail["to_act"][0]]

        def is_turn(m, player=player) -> bool:
            return (
                player["email"] in m.envelope_to
                and bool(tag.search(m["Subject"]))
                and m["Subject"].endswith(": your turn")
                and m["Message-ID"] not in answered
            )

        turn = wait_for_mail(f"'your turn' to {player['username']} in game {game_id}", is_turn)
        answered.add(turn["Message-ID"])
        sent = reply(turn, player["email"], legal_moves(turn)[0])
        done = wait_for_mail(
            f"answering {sent['Message-ID']}",
            lambda m, s=sent: m["In-Reply-To"] == s["Message-ID"],
        )
        if not done["Subject"].endswith(": done"):
            body = done.get_body(("plain",)).get_content()
            raise SmokeFailure(f"reply refused: {done['Subject']!r}\n{body[:1000]}")
    else:
        raise SmokeFailure(f"game {game_id} by email did not end within 200 moves")
    if detail["status"] != "finished":
        raise SmokeFailure(f"game {game_id} by email ended as {detail['status']}")
    for player in players:
        wait_for_mail(
            f"'game over' to {player['username']}",
            lambda m, p=player: (
                p["email"] in m.envelope_to
                and bool(tag.search(m["Subject"]))
                and "game over" in m["Subject"]
            ),
        )
    events = api("GET", f"/api/games/{game_id}/events/", players[0]["token"])
    rows = events["events"] if isinstance(events, dict) else events
    sources = {e.get("source") for e in rows if e.get("kind") == "action"}
    if sources != {"email"}:
        raise SmokeFailure(f"game {game_id}: action sources {sources}, expected only email")
    return game_id, moves


class _Hook(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.server.received.append(json.loads(body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def webhook_round_trip(title: str) -> int:
    """A player sets a webhook (PATCH /api/auth/me/); a new game's "your turn"
    reaches it as a JSON POST.  Returns the game's id."""
    server = HTTPServer(("127.0.0.1", 0), _Hook)
    server.received = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        players = [register(f"hook{seat}x") for seat in range(2)]
        url = f"http://127.0.0.1:{server.server_port}/hook"
        api("PATCH", "/api/auth/me/", players[0]["token"], {"webhook_url": url})
        options = {"rounds": 1} if title == "duel" else {}
        game_id = new_game([players[1], players[0]], title, options)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for posted in list(server.received):
                if posted.get("game") == game_id and posted.get("kind") == "your_turn":
                    if posted.get("user") != players[0]["username"]:
                        raise SmokeFailure(f"the webhook got another player's notice: {posted}")
                    return game_id
            time.sleep(0.2)
        raise SmokeFailure(f"no webhook POST for game {game_id} within 60s: {server.received}")
    finally:
        server.shutdown()


def metrics() -> dict[str, float]:
    request = urllib.request.Request(BASE_URL + "/metrics")
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read().decode()
    samples = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, number = line.rpartition(" ")
            samples[name] = float(number)
    return samples


def total(samples: dict[str, float], prefix: str) -> float:
    return sum(v for k, v in samples.items() if k.startswith(prefix))


def wait_for_drained_outbox(timeout: float = 90.0) -> dict[str, float]:
    deadline = time.monotonic() + timeout
    while True:
        samples = metrics()
        backlog = total(samples, "correo_notification_backlog{")
        backlog += total(samples, "correo_webhook_backlog{")
        if backlog == 0:
            return samples
        if time.monotonic() > deadline:
            raise SmokeFailure(f"notification backlog still {backlog:.0f} after {timeout:.0f}s")
        time.sleep(0.5)


def fetch(path: str) -> str:
    try:
        with urllib.request.urlopen(BASE_URL + path, timeout=30) as response:
            return response.read().decode()
    except urllib.error.HTTPError as error:
        raise SmokeFailure(f"GET {path}: {error.code}") from None


def check_pages(game_ids: list[int]) -> None:
    """The web pages as deployed (DEBUG off): the welcome page, its CSS and
    JS from our own static files, and each finished game's page."""
    home = fetch("/")
    assets = re.findall(r'(?:href|src)="(/static/[^"]+)"', home)
    if not any(a.endswith(".css") for a in assets) or not any("htmx" in a for a in assets):
        raise SmokeFailure(f"the welcome page links no stylesheet or htmx: {assets}")
    for asset in assets:
        fetch(asset)
    for game_id in game_ids:
        if 'class="board-area"' not in fetch(f"/games/{game_id}/"):
            raise SmokeFailure(f"/games/{game_id}/ shows no board")


def main() -> int:
    rng = random.Random(int(os.environ.get("SMOKE_SEED", "7")))
    started = time.monotonic()
    titles = api("GET", "/api/titles/")["titles"]
    if not titles:
        raise SmokeFailure("GET /api/titles/ lists no title")
    moves = 0
    finished = []
    for title in titles:
        t0 = time.monotonic()
        game_id, count = play_over_http(title, rng)
        finished.append(game_id)
        moves += count
        say(f"{title['name']}: game {game_id} finished over HTTP after {count} moves "
            f"({time.monotonic() - t0:.1f}s)")  # fmt: skip
    check_pages(finished)
    say(f"web pages: /, its static files and {len(finished)} game pages served")
    if EMAIL_TITLE not in {t["name"] for t in titles}:
        raise SmokeFailure(f"{EMAIL_TITLE} is not registered (CORREO_EXTRA_ENGINES?)")
    t0 = time.monotonic()
    game_id, count = play_by_email(EMAIL_TITLE)
    moves += count
    say(f"{EMAIL_TITLE}: game {game_id} finished by email after {count} moves "
        f"({time.monotonic() - t0:.1f}s)")  # fmt: skip
    t0 = time.monotonic()
    game_id = webhook_round_trip(EMAIL_TITLE)
    say(f"webhook: game {game_id}'s notice posted ({time.monotonic() - t0:.1f}s)")
    samples = wait_for_drained_outbox()
    applied = total(samples, "correo_moves_applied_total{")
    if applied < moves:
        raise SmokeFailure(f"/metrics counts {applied:.0f} moves applied, {moves} were made")
    lag = [v for k, v in samples.items() if k.startswith("correo_sweep_lag_seconds{")]
    if not lag or max(lag) > 120:
        raise SmokeFailure(f"the beat's deadline sweep has not run recently: {lag}")
    say(f"{moves} moves in {time.monotonic() - started:.1f}s; outbox drained; "
        f"{applied:.0f} moves counted by /metrics; sweep lag {max(lag):.1f}s; "
        f"{len(mails())} mails delivered")  # fmt: skip
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except SmokeFailure as failure:
        print(f"smoke: FAILED: {failure}", file=sys.stderr, flush=True)
        sys.exit(1)
