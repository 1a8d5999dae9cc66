"""Record the golden games again: ``python -m tests.golden.record [--title T]``.

Re-record a title's games only together with a bump of its VERSION (a change
that alters existing games) or after a change to what is recorded here; the
test in tests/engines/test_golden.py tells which.  Each game is a seeded
random legal playout (games.audit.golden.record), so recording twice gives the same
files.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from games.audit import golden
from games.engines import base

HERE = Path(__file__).resolve().parent

# (title, players, options, seed, step at which a seat resigns or None)
GAMES: list[tuple[str, int, dict[str, Any], int, int | None]] = [
    ("havana", 2, {}, 1, None),
    ("havana", 2, {}, 2, None),
    ("havana", 3, {}, 1, None),
    ("havana", 3, {"ages": [41, 29, 34]}, 2, None),
    ("havana", 4, {}, 1, None),
    ("havana", 4, {}, 2, 60),
    ("pointcity", 1, {"solo_level": 1}, 1, None),
    ("pointcity", 1, {"solo_level": 2}, 2, None),
    ("pointcity", 1, {"solo_level": 3}, 3, None),
    ("pointcity", 2, {}, 1, None),
    ("pointcity", 2, {}, 2, None),
    ("pointcity", 3, {}, 1, None),
    ("pointcity", 3, {}, 2, 20),
    ("pointcity", 4, {}, 1, None),
    ("pointcity", 4, {}, 2, None),
    *(
        ("estates", players, {"edition": edition, "rounds": rounds}, seed, resign_at)
        for players in (2, 3, 4, 5)
        for edition in ("neue-heimat", "the-estates")
        for seed, rounds, resign_at in ((1, 1, None), (2, 3, 40 if players > 2 else None))
    ),
    # Every 18Cuba setup; the 2-player easy game on both halves of the map.
    ("18cuba", 2, {"difficulty": "easy", "map_part": "east"}, 1, None),
    ("18cuba", 2, {"difficulty": "easy", "map_part": "west"}, 2, None),
    ("18cuba", 2, {"difficulty": "hard"}, 1, None),
    ("18cuba", 2, {"difficulty": "challenging"}, 1, None),
    ("18cuba", 3, {"difficulty": "easy"}, 1, None),
    ("18cuba", 3, {"difficulty": "hard"}, 1, None),
    *(("18cuba", players, {}, seed, None) for players in (4, 5, 6) for seed in (1, 2)),
]


def name(players: int, options: dict[str, Any], seed: int) -> str:
    tags: list[Any] = [f"{players}p"]
    for key in sorted(options):
        tags += [key, options[key]]
    tags.append(f"seed{seed}")
    flat = ("_".join(map(str, t)) if isinstance(t, list) else str(t) for t in tags)
    return "-".join(flat) + ".json"


def policy_for(title: str) -> golden.Policy:
    """18Cuba's uniform player spends everything in the first auction and
    never starts a company, so its games would end by the export rule
    without an operating round worth the name; its own random player
    (`randomgame.choose`) plays whole games."""
    if title == "18cuba":
        from games.engines.cuba.play.randomgame import choose

        return choose
    return golden.random_policy


def path_of(title: str, players: int, options: dict[str, Any], seed: int) -> Path:
    return HERE / title / name(players, options, seed)


def dump(recording: golden.Recording) -> str:
    """Compact JSON with one step per line, so a re-recording diffs readably."""
    data = recording.to_json()
    steps = data.pop("steps")
    head = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    lines = ",\n".join(json.dumps(s, separators=(",", ":"), sort_keys=True) for s in steps)
    return head[:-1] + ',"steps":[\n' + lines + "\n]}\n"


def load(path: Path) -> golden.Recording:
    return golden.Recording.from_json(json.loads(path.read_text()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--title", help="only this title's games")
    args = parser.parse_args()
    for title, players, options, seed, resign_at in GAMES:
        if args.title and title != args.title:
            continue
        engine = base.get(title)
        recording = golden.record(
            engine, players, options, seed, resign_at=resign_at, policy=policy_for(title)
        )
        path = path_of(title, players, options, seed)
        path.parent.mkdir(exist_ok=True)
        path.write_text(dump(recording))
        print(f"{path.relative_to(HERE)}: {len(recording.steps)} steps")


if __name__ == "__main__":
    main()
