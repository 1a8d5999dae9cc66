"""What the boards you click must offer, shared by the page tests and the
browser tests."""

# Every kind of move each title's engine offers, and the seed of a random
# walk that meets them all (The Estates' cancel cube comes up in few walks).
KINDS = {
    "havana": {"choose", "replace", "buy", "conserve", "debris", "skip", "pesos", "worker",
               "refreshment", "black_market", "architect", "mama", "steal_cubes",
               "steal_pesos", "tax", "end"},
    "pointcity": {"take", "draw", "flip", "civic"},
    "estates": {"auction", "bid", "pass", "place", "give", "keep", "discard", "mayor", "cancel"},
}  # fmt: skip
WALK_SEEDS = {"havana": 2, "pointcity": 0, "estates": 2}
