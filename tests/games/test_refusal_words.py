"""A refusal in the active language: the service's through Django's
catalogue, a title's through its own; English when nothing is active."""

from __future__ import annotations

from django.utils import translation

from games.engines import base
from games.errors import NotYourTurn, StaleSeq, in_words


def test_a_service_refusal_is_said_in_the_active_language():
    refusal = StaleSeq(3, 5)
    assert in_words(refusal) == refusal.message
    with translation.override("de"):
        assert in_words(refusal).startswith("das Spiel ist weitergegangen")
        assert "seq 3" in in_words(refusal) and "bei 5" in in_words(refusal)
        assert in_words(NotYourTurn("it is not your turn")) == "du bist nicht am Zug"


def test_a_titles_refusal_is_said_in_the_active_language():
    engine = base.get("havana")
    state = engine.setup(2, {}, 1)
    try:
        engine.parse("flurble", state, 0)
    except base.IllegalAction as exc:
        refusal = exc
    assert in_words(refusal) == refusal.message
    with translation.override("de"):
        assert "nicht lesbar" in in_words(refusal)
