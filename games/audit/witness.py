"""A witness: mirrors a server's checkpoint feed into a file of its own and
says when the server contradicts what it published before.

A witness runs apart from the server (another host, another operator,
a player's machine) and needs nothing of it but an account's API token.  It
pins the public keys it first saw (or the ones it is given), so a server
that later signs with a key it never announced is reported, not believed.
What it mirrors is a checkpoint log like the server's own, so
`verify_games --checkpoints MIRROR` can hold the database to it.

Reported, and not mirrored:
- a checkpoint whose signature does not hold under the pinned keys;
- one for a seq the mirror holds with another hash (the history diverged);
- one for a game at a seq lower than the mirror's last for it (the server
  went back: events were cut off and the game went on from there).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.audit import checkpoint_keys as keys
from games.audit.checkpoints import read_source

PAGE = 1000
TIMEOUT = 30.0


class FeedError(Exception):
    """The feed could not be read (network, status, not JSON)."""


@dataclass
class Mirror:
    path: Path
    # (game, seq): head hash, for every checkpoint mirrored
    hashes: dict[tuple[int, int], str] = field(default_factory=dict)
    last_seq: dict[int, int] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)
    cursor: str | None = None

    @property
    def state_path(self) -> Path:
        return self.path.with_name(self.path.name + ".state")

    @classmethod
    def open(cls, path: Path) -> Mirror:
        mirror = cls(path)
        if path.exists():
            for number, record in read_source(path):
                if record is None:
                    raise FeedError(f"{path} line {number} is not a checkpoint record")
                mirror.remember(record)
        if mirror.state_path.exists():
            state = json.loads(mirror.state_path.read_text())
            mirror.keys, mirror.cursor = state["keys"], state["cursor"]
        return mirror

    def remember(self, record: dict[str, Any]) -> None:
        game, seq = int(record["game"]), int(record["seq"])
        self.hashes[(game, seq)] = record["head_hash"]
        self.last_seq[game] = max(seq, self.last_seq.get(game, 0))

    def contradiction(self, record: dict[str, Any]) -> str | None:
        game, seq = int(record["game"]), int(record["seq"])
        held = self.hashes.get((game, seq))
        if held is not None and held != record["head_hash"]:
            return (
                f"game {game}: seq {seq} was published with head {held[:12]}..., now with "
                f"{record['head_hash'][:12]}...: the history diverged"
            )
        if held is None and seq < self.last_seq.get(game, 0):
            return (
                f"game {game}: a checkpoint at seq {seq} after one at seq "
                f"{self.last_seq[game]}: the server went back"
            )
        return None

    def append(self, records: list[dict[str, Any]], cursor: str | None) -> None:
        if records:
            with self.path.open("a", encoding="utf-8") as out:
                for record in records:
                    out.write(json.dumps(record, sort_keys=True) + "\n")
                    self.remember(record)
        self.cursor = cursor or self.cursor
        self.state_path.write_text(json.dumps({"keys": self.keys, "cursor": self.cursor}))


Fetch = Callable[[str], dict[str, Any]]


def http_fetch(token: str | None) -> Fetch:
    def fetch(url: str) -> dict[str, Any]:
        request = urllib.request.Request(url, headers={"Accept": "application/json"})
        if token:
            request.add_header("Authorization", f"Token {token}")
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                return json.load(response)
        except (urllib.error.URLError, OSError, ValueError) as error:
            raise FeedError(f"{url}: {error}") from error

    return fetch


@dataclass
class Report:
    mirrored: int = 0
    problems: list[str] = field(default_factory=list)


def witness(feed_url: str, mirror: Mirror, fetch: Fetch, pinned: dict[str, str]) -> Report:
    """Read the feed from where the mirror stopped; mirror what holds, report
    what does not."""
    report = Report()
    if pinned:
        mirror.keys = dict(pinned)
    while True:
        query = {"limit": PAGE, **({"since": mirror.cursor} if mirror.cursor else {})}
        page = fetch(f"{feed_url}?{urllib.parse.urlencode(query)}")
        if not mirror.keys:  # trust on first use, written down with the mirror
            mirror.keys = dict(page.get("keys") or {})
        for key_id, public in (page.get("keys") or {}).items():
            if mirror.keys.get(key_id, public) != public:
                report.problems.append(f"key {key_id} is announced with another public key")
        good = []
        for record in page.get("checkpoints") or []:
            problem = keys.signature_problem(record, mirror.keys) or mirror.contradiction(record)
            if problem:
                where = f"game {record.get('game')} seq {record.get('seq')}"
                report.problems.append(f"{where}: {problem}")
            else:
                good.append(record)
        mirror.append(good, page.get("next"))
        report.mirrored += len(good)
        if not page.get("checkpoints"):
            return report
