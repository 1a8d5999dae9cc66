"""What a title's provisional component data means, in one sentence a player
reads in the game itself (the game detail, the page, every mail of the game),
not only next to the title in `GET /api/titles/`."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

NOTES = {
    ("havana", "buildings"): _(
        "The building costs and VP are provisional: no public source lists "
        "Havana's 36 printed cards, so those in your box may differ."
    ),
    ("pointcity", "cards"): _(
        "The card values come from a fan-made version and the building names "
        "are placeholders: no official list of Point City's 160 cards is public, "
        "so those in your box may differ."
    ),
    ("18cuba", "draft_data"): _(
        "Some component data (three market prices, the narrow-train, wagon and "
        "machine tables, two edge tiles) is our reading of the designer's draft "
        "and may differ from the printed game."
    ),
    ("estates", "white_lots"): _(
        "Neue Heimat's five one-floor lots are placed as on The Estates board; "
        "we have not seen the Neue Heimat board, so yours may differ."
    ),
    ("estates", "roof_values"): _(
        "Neue Heimat's 12 numbered roofs are taken to be 1 to 6 twice, as in "
        "The Estates; one source says 1 to 5, so those in your box may differ."
    ),
}
GENERIC = _(
    "Some of this title's component data is provisional: it may differ from the printed game."
)


def note(engine, options: dict[str, Any] | None = None) -> str | None:
    """What is provisional in a game of `engine` with these options, in the
    active language, or None."""
    keys = engine.provisional(engine.resolve_options(options))
    if not keys:
        return None
    sentences = dict.fromkeys(str(NOTES.get((engine.NAME, key), GENERIC)) for key in keys)
    return " ".join(sentences)
