"""The forger's step of the cluster test: cut the newest events off a game
the checkpoint log has published, as someone with the table owner's rights
would (triggers off, events deleted, the game row moved back), so that
`verify_games --checkpoints` must report it.

    truncate.py LOG   # prints the game cut and the seq its stream now ends at

The game is the one with the most events among those whose newest published
checkpoint is still its head (a finished game, most likely): two events come
off it, and every hash and seal of what is left holds.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from games.audit.checkpoints import read_source  # noqa: E402
from games.models import Game  # noqa: E402
from tests.support.tamper import cut_off  # noqa: E402

CUT = 2  # events taken off


def main(log: str) -> None:
    published: dict[int, int] = {}
    for _, record in read_source(log):
        if record is not None:
            game, seq = int(record["game"]), int(record["seq"])
            published[game] = max(seq, published.get(game, 0))
    heads = dict(Game.objects.filter(pk__in=published).values_list("pk", "seq"))
    candidates = [g for g, seq in published.items() if heads.get(g) == seq and seq > CUT + 1]
    if not candidates:
        sys.exit(f"no checkpointed game at its head with more than {CUT + 1} events")
    game = Game.objects.get(pk=max(candidates, key=lambda g: (heads[g], g)))
    cut_off(game, game.seq - CUT)
    print(f"game {game.pk} cut back to seq {game.seq}")


if __name__ == "__main__":
    main(sys.argv[1])
