"""The in-process LRU behind the state, row and view memories."""

from __future__ import annotations

from games.stream.lru import LRU


def test_the_least_recently_used_entry_goes_first():
    lru = LRU(2)
    lru.put("a", 1)
    lru.put("b", 2)
    assert lru.get("a") == 1  # a is now the most recent
    lru.put("c", 3)
    assert (lru.get("a"), lru.get("b"), lru.get("c")) == (1, None, 3)


def test_get_or_compute_computes_once_even_a_none():
    lru, calls = LRU(4), []

    def compute():
        calls.append(1)

    assert lru.get_or_compute("k", compute) is None
    assert lru.get_or_compute("k", compute) is None
    assert calls == [1]
    assert lru.get("missing", "default") == "default"
