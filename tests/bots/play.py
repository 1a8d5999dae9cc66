"""A person at a table of bots: plays at random whenever their seat is to act."""

from __future__ import annotations

import random
import time

from games.models import Game
from games.services.common import seat_of
from games.services.moves import check_submit_action
from games.stream import store
from games.stream.derived import engine_for

BOT_TITLES = ["estates", "havana", "pointcity"]
MAX_MOVES = 5000


def person_moves(game: Game, user, rng: random.Random) -> bool:
    """The person's move if their seat is to act; False if it is not."""
    game.refresh_from_db()
    seat = seat_of(game, user)
    if game.status != Game.Status.ACTIVE or seat not in game.to_act:
        return False
    engine = engine_for(game)
    state = store.load(game, engine).state
    action = rng.choice(engine.legal_actions(state, seat))
    check_submit_action(game, user, action=action, expected_seq=game.seq)
    return True


def play_to_the_end(game: Game, user, seed: int = 1, timeout: float = 0.0) -> Game:
    """`user` moves whenever it is their turn until the game is over; the
    bots move by themselves (at once when Celery runs eagerly; `timeout`
    seconds at most, in all, for a worker's moves)."""
    rng = random.Random(seed)
    deadline = time.monotonic() + timeout
    for _ in range(MAX_MOVES):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        if not person_moves(game, user, rng):
            if time.monotonic() > deadline:
                raise AssertionError(f"stuck at seq {game.seq}, to act {game.to_act}")
            time.sleep(0.01)
    raise AssertionError("the game did not end")
