"""The built-in bots (games.engines.bots): their choices are legal and
reproducible, the greedy one follows its title's score, and it beats the
random one in seeded 2-seat games (deterministic, so the share cannot flake)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engines import base, bots

BOT_TITLES = ["18cuba", "estates", "havana", "pointcity"]
SAMPLE_GAMES = 30
# 18Cuba's games take seconds each with the greedy bot trying every move.
SAMPLES = {"18cuba": 6}
TARGET = 0.70


def mid_game(name: str, seed: int = 4, moves: int = 30):
    """A state some random moves into a 2-seat game, and a seat to act."""
    engine = base.get(name)
    state = engine.setup(2, engine.resolve_options({}), seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = min(engine.to_act(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return engine, state, min(engine.to_act(state))


class _NoBot(base.EngineBase):
    """A title without a bot module (this package has no `bot.py`)."""

    NAME = "nobot"

    def legal_actions(self, state, seat):
        return [{"type": "pass"}]


def test_the_titles_with_a_bot_module_have_both_bots_and_others_none():
    for name in BOT_TITLES:
        assert bots.kinds_for(base.get(name)) == ("random", "greedy")
    assert bots.kinds_for(_NoBot()) == ()


@pytest.mark.parametrize("name", BOT_TITLES)
@pytest.mark.parametrize("kind", bots.KINDS)
def test_a_bots_choice_is_the_legal_action_at_its_index_and_the_same_for_the_same_seed(name, kind):
    engine, state, seat = mid_game(name)
    index, action = bots.choose(engine, state, seat, kind, 12345)
    assert engine.legal_actions(state, seat)[index] == action
    assert bots.choose(engine, state, seat, kind, 12345) == (index, action)
    engine.apply(state, seat, action)  # legal


def test_the_random_bot_spreads_its_choices_over_the_legal_actions():
    engine = base.get("havana")
    state = engine.setup(2, {}, 1)  # the first card choice: 78 pairs
    count = len(engine.legal_actions(state, 0))
    picks = Counter(bots.choose(engine, state, 0, "random", seed)[0] for seed in range(4000))
    assert len(picks) == count
    assert max(picks.values()) < 3 * 4000 / count


def test_different_seeds_give_the_random_bot_different_choices():
    engine = base.get("havana")
    state = engine.setup(2, {}, 1)
    assert len({bots.choose(engine, state, 0, "random", seed)[0] for seed in range(20)}) > 10


@pytest.mark.parametrize("name", BOT_TITLES)
def test_the_greedy_bot_picks_an_action_of_the_best_score(name):
    engine, state, seat = mid_game(name)
    score = bots.greedy_score(engine)
    actions = engine.legal_actions(state, seat)
    values = [score(state, seat, a, engine.apply(state, seat, a)) for a in actions]
    for seed in range(5):
        index, _ = bots.choose(engine, state, seat, "greedy", seed)
        assert values[index] == max(values)


def test_the_greedy_havana_bot_buys_the_building_worth_most_when_it_can():
    engine = base.get("havana")
    for seed in range(200):
        _, state, seat = mid_game("havana", seed=seed, moves=60)
        actions = engine.legal_actions(state, seat)
        buys = [a for a in actions if a["type"] == "buy"]
        if len(buys) > 1:
            break
    else:
        pytest.fail("no state with a choice of buildings to buy")
    _, chosen = bots.choose(engine, state, seat, "greedy", 1)
    best = max(state["buildings"][str(a["building"])]["vp"] for a in buys)
    assert chosen["type"] == "buy"
    assert state["buildings"][str(chosen["building"])]["vp"] == best


def test_a_point_city_draw_is_scored_without_looking_at_the_cards_it_brings():
    from games.engines.pointcity import bot

    engine = base.get("pointcity")
    for seed in range(50):
        _, state, seat = mid_game("pointcity", seed=seed, moves=3)
        draws = [a for a in engine.legal_actions(state, seat) if a["type"] == "draw"]
        if draws:
            break
    else:
        pytest.fail("no state where a draw is legal")
    other = dict(state, pile=list(reversed(state["pile"])))  # other cards on top
    for before in (state, other):
        after = engine.apply(before, seat, draws[0])
        assert bot.score(before, seat, draws[0], after) == bot.STOCK_WEIGHT * bot.DRAWN_CARDS


def test_an_unknown_bot_or_a_title_without_greedy_is_refused():
    engine, state, seat = mid_game("havana")
    with pytest.raises(ValueError, match="unknown bot"):
        bots.choose(engine, state, seat, "clever", 1)
    with pytest.raises(ValueError, match="has no greedy bot"):
        bots.choose(_NoBot(), state, seat, "greedy", 1)


@pytest.mark.slow
@pytest.mark.parametrize("name", BOT_TITLES)
def test_the_greedy_bot_wins_at_least_70_percent_of_seeded_2_seat_games_against_random(name):
    engine = base.get(name)
    won = 0.0
    games = SAMPLES.get(name, SAMPLE_GAMES)
    for seed in range(games):
        greedy = seed % 2
        kinds = ["random", "random"]
        kinds[greedy] = "greedy"
        won += bots.greedy_share(bots.play_out(engine, kinds, seed), greedy)
    assert won / games >= TARGET


def test_a_shared_win_counts_by_its_share():
    assert bots.greedy_share({"winners": [0, 1]}, 0) == 0.5
    assert bots.greedy_share({"winners": [1]}, 0) == 0.0
    assert bots.greedy_share({"winners": [0]}, 0) == 1.0
