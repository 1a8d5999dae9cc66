"""Every move a title can make has all its words, declared once.

A title with declared verbs (``MOVES``: a title's ``moves.py``, 18Cuba's
steps) gets ``text``, ``narrate``, ``gloss`` and ``move_group`` from them,
and ``parse`` too (18Cuba reads a line with the verbs of the steps it can
reach now).  Random games play every kind of move the rules produce; each
legal move met must be a declared verb whose line reads back to the move
itself, and every move played is narrated in English and German, for its
own seat and in the public form, with no fallback to hide a bug ("bob
moves").
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engines import base, i18n
from games.engines.cuba.map.laying import legal_lays
from games.engines.cuba.map.tokens import legal_tokens
from games.engines.cuba.play import randomgame, simulate
from games.engines.cuba.steps import emergency, token, track
from games.engines.verbs import Lines, Moves, Verb, line

DECLARING = ("havana", "pointcity", "estates", "18cuba")
LANGUAGES = ("en", "de")
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]
# (players, seed) of the random games per title: enough for every verb to
# come up, except those the rules make rare.
GAMES = {
    "havana": [(2, 1), (3, 2), (4, 3)],
    "pointcity": [(1, 1), (2, 2), (3, 3)],
    "estates": [(2, 1), (3, 2), (5, 3)],
    # 18Cuba's are `play.randomgame`'s games; 2 players, seed 4 sells
    # shares in an emergency
    "18cuba": [(2, 1), (2, 4), (3, 2), (4, 3), (6, 5)],
}
# Verbs random play seldom meets: Point City's pass is a last turn with no
# draft possible (under 3 % of random games: games/engines/pointcity/README.md);
# 18Cuba's bankruptcy is listed alone, and a move that is the only one is made for the player
# (`rounds.operating`), so it is tested by itself below.
RARE = {"pointcity": {"pass"}, "18cuba": {"bankrupt", "discard"}}
# The legal moves whose words are checked at each step, at most (Havana's
# purchases list every payment plan); None: every one (18Cuba's, to hold
# each lay of a track step and each par price to its words).
CHECKED: dict[str, int | None] = {"18cuba": None}
CHECKED_AT_MOST = 40
# The moves a game may take to end: 18Cuba's run to the bank's break.
MOVES_AT_MOST = {"18cuba": randomgame.MAX_MOVES}


def engine(name: str) -> Any:
    return base.get(name)


def test_the_titles_declare_their_verbs_once():
    for name in DECLARING:
        moves = engine(name).MOVES
        assert isinstance(moves, Moves), name
        assert moves.verbs, name


def test_a_verb_cannot_forget_its_narration_gloss_or_group():
    """Each is a keyword without a default: a verb says it has none (None)
    or it does not even import."""
    with pytest.raises(TypeError):
        Verb(type="x", fields={}, lines=line("x"), says="{who} x", gloss=None)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Verb(type="x", fields={}, lines=line("x"), gloss=None, group=None)  # type: ignore[call-arg]


def test_a_line_names_only_fields_of_its_verb():
    with pytest.raises(ValueError, match="names no field"):
        Verb(type="x", fields={}, lines=line("x {y}"), says="", gloss=None, group=None)


def words_of(title: Any, state: dict, seat: int, action: dict) -> None:
    """The words of a legal move in a list of moves: its line reads back
    to the same move, and gloss and heading are said (or None) in every
    language."""
    said = title.text(action)
    assert isinstance(said, str) and said, action
    back = title.parse(said, state, seat)
    assert back == action and base.same_json(back, action), (said, back, action)
    for language in LANGUAGES:
        gloss = title.gloss(state, seat, action, NAMES, language=language)
        assert gloss is None or (isinstance(gloss, str) and gloss), action
        group = title.move_group(state, seat, action, language=language)
        assert group is None or (isinstance(group, str) and group), action
        if title.MOVES.verb(action).recalled is not None:
            with i18n.speaking(language):
                assert title.MOVES.recall(action, NAMES[seat]).startswith(NAMES[seat])


def narrated(title: Any, state: dict, seat: int, action: dict) -> None:
    """A move as the log says it, whole and in the form other seats see."""
    public = title.public_action(state, seat, action) or action
    names = NAMES[: state_players(state)]
    for told in (action, public):
        for language in LANGUAGES:
            line_ = title.narrate(told, seat, names, language=language)
            assert isinstance(line_, str) and line_.startswith(names[seat]), (told, line_)


def state_players(state: dict) -> int:
    return int(state["players"]) if "players" in state else len(state["seats"])


def choose(name: str, rng: random.Random, legal: list[dict]) -> dict:
    """The move played: 18Cuba's random player (`play.randomgame`) picks a
    kind of move first, or the forty-nine par prices drown the one pass."""
    return randomgame.choose(rng, legal) if name == "18cuba" else rng.choice(legal)


def play(name: str, players: int, seed: int) -> set[str]:
    """One random game; the verbs it met."""
    title = engine(name)
    moves: Moves = title.MOVES
    rng = random.Random(seed)
    state = title.setup(players, {}, seed)
    met: set[str] = set()
    checked = CHECKED.get(name, CHECKED_AT_MOST)
    for _ in range(MOVES_AT_MOST.get(name, 2000)):
        acting = sorted(title.to_act(state))
        if not acting or title.result(state) is not None:
            break
        # 18Cuba has one seat to act, as its random games choose it
        seat = min(acting) if name == "18cuba" else rng.choice(acting)
        legal = title.legal_actions(state, seat)
        looked_at = legal if checked is None else rng.sample(legal, min(checked, len(legal)))
        for action in looked_at:
            assert action["type"] in moves.verbs, f"{name}: no verb for {action}"
            met.add(action["type"])
            words_of(title, state, seat, action)
            narrated(title, state, seat, action)
        action = choose(name, rng, legal)
        narrated(title, state, seat, action)
        state = title.apply(state, seat, action)
    assert title.result(state) is not None, f"{name} {players}p seed {seed} did not end"
    return met


@pytest.mark.slow
@pytest.mark.parametrize("name", DECLARING)
def test_every_move_of_random_games_has_all_its_words(name):
    met: set[str] = set()
    for players, seed in GAMES[name]:
        met |= play(name, players, seed)
    declared = set(engine(name).MOVES.verbs)
    assert met <= declared
    assert declared - met <= RARE.get(name, set()), f"{name}: never met {declared - met}"


@pytest.mark.parametrize("name", DECLARING)
def test_a_move_without_a_verb_is_an_error_not_a_vague_line(name):
    title = engine(name)
    with pytest.raises(ValueError, match="declares no verb"):
        title.narrate({"type": "no-such-move"}, 0, NAMES, language="de")
    with pytest.raises(base.IllegalAction):
        title.text({"type": "no-such-move"})


@pytest.mark.slow
def test_every_lay_and_station_on_randomly_built_maps_has_all_its_words():
    """18Cuba's track and stations on maps built further than random games
    get (`play.simulate`: every phase, every tile colour): each legal lay's
    and station's line reads back to it, and it is narrated, glossed and
    headed in English and German."""
    title = engine("18cuba")
    state = title.setup(3, {}, 1)
    map_lines = Lines(title.WORDS, (*track.VERBS, *token.VERBS))
    rng = random.Random(7)
    board, layers = simulate.start(rng, majors=5, minors=3)
    seen = 0
    for n in range(16):
        phase = simulate.phase_for_round(n, 16)
        for who in layers:
            actions = [
                {"type": "lay", **{k: v for k, v in lay.items() if k != "cost"}}
                for lay in legal_lays(board, who, phase)
            ]
            if who.kind == "major":
                actions += [{"type": "station", **t} for t in legal_tokens(board, who.sym)]
            for action in actions:
                said = title.text(action)
                # read as the track step and the station step read their lines
                back = map_lines.read(title.MOVES.normalise(said), state, 0)
                assert back == action, (said, back, action)
                for language in LANGUAGES:
                    assert title.gloss(state, 0, action, NAMES, language=language)
                    assert title.move_group(state, 0, action, language=language)
                    assert title.narrate(action, 1, NAMES, language=language).startswith("bob")
                seen += 1
        board, layers = simulate.one_round(board, layers, phase, rng)
    assert seen > 500


def test_18cubas_surplus_discard_has_all_its_words():
    """A phase change that leaves a major over its limit is rare in random
    games (see `RARE`); its discard still has its line, narration, gloss
    and heading."""
    from games.engines.cuba.steps import surplus

    title = engine("18cuba")
    state = title.setup(4, {}, 1)
    action = {"type": "discard", "company": "MS", "card": "4+"}
    said = title.text(action)
    assert said == "discard MS 4+"
    assert Lines(title.WORDS, surplus.VERBS).read(said, state, 0) == action
    for language in LANGUAGES:
        assert title.narrate(action, 0, NAMES, language=language).startswith("alice")
        assert title.gloss(state, 0, action, NAMES, language=language)
        assert title.move_group(state, 0, action, language=language)


def test_18cubas_bankruptcy_has_all_its_words():
    """The verb random games never list (see `RARE`) still has its line,
    narration, gloss and heading."""
    title = engine("18cuba")
    state = title.setup(2, {}, 1)
    action = {"type": "bankrupt"}
    said = title.text(action)
    assert Lines(title.WORDS, emergency.VERBS).read(said, state, 0) == action
    for language in LANGUAGES:
        assert title.narrate(action, 0, NAMES, language=language).startswith("alice")
        assert title.gloss(state, 0, action, NAMES, language=language) is None
        assert title.move_group(state, 0, action, language=language)
