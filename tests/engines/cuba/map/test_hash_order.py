"""The geography is the same in every process: nothing follows a set's order.

Python orders sets of strings by their hashes, and those change with each
process's hash seed (PYTHONHASHSEED).  An engine that let such an order into a
legal list, the order of routes or a tie between equal plans would replay the
same game differently on another machine (docs/design.md: engines are
deterministic).  Two processes with different hash seeds build the same maps
and must write the same lists and plans, byte for byte.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# slow: plays the same positions under several hash seeds, in subprocesses.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[4]
SEEDS = (0,)  # a map with FC passes in plans and stations, and cubes delivered
HASH_SEEDS = ("1", "2")


def dump() -> None:
    """Print the legal lays, stations and best plans on a few built maps (run in a subprocess)."""
    from games.engines.cuba.map.board import MINORS
    from games.engines.cuba.map.laying import Layer, legal_lays
    from games.engines.cuba.map.optimiser import optimise, plan_json
    from games.engines.cuba.map.routes import Train
    from games.engines.cuba.map.tokens import legal_tokens
    from games.engines.cuba.play.simulate import build_map

    trains = [Train("5+", 5, plus=True), Train("4", 4)]
    cubes = dict.fromkeys(sorted(MINORS), 2)
    maps = []
    for seed in SEEDS:
        board = build_map(seed, 30, majors=5, minors=3)
        syms = sorted({s for cities in board["tokens"].values() for o in cities for s in o})
        out: dict[str, object] = {"board": board}
        for sym in syms:
            if sym == "FC":
                continue
            kind = "minor" if sym in MINORS else "major"
            out[f"{sym} lays"] = legal_lays(board, Layer(sym, kind), 5)
            if kind == "minor":
                plan = optimise(board, sym, kind, [Train("3n", 3)])
                out[f"{sym} plan"] = plan_json(board, plan, [Train("3n", 3)], kind)
                continue
            out[f"{sym} stations"] = legal_tokens(board, sym)
            plan = optimise(board, sym, kind, trains, wagons=[2, 3], cubes=cubes)
            out[f"{sym} plan"] = {**plan_json(board, plan, trains, kind), "net": plan.net}
        maps.append(out)
    # not compared: shows that the hash seeds took effect
    print(json.dumps({"set order": list(MINORS), "maps": maps}))


def run(hash_seed: str) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", "from tests.engines.cuba.map.test_hash_order import dump; dump()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(done.stdout)


def entries(maps: list[dict], suffix: str) -> list:
    return [v for m in maps for k, v in m.items() if k.endswith(suffix)]


def test_legal_lists_and_plans_do_not_depend_on_the_hash_seed() -> None:
    first, second = (run(h) for h in HASH_SEEDS)
    assert first["set order"] != second["set order"]
    assert first["maps"] == second["maps"]
    plans = entries(first["maps"], " plan")
    stations = [t for found in entries(first["maps"], " stations") for t in found]
    # the maps exercise what a set could order: FC passes and wagons
    assert any(r["fc_passes"] for p in plans for r in p["routes"])
    assert any(p["sugar"] for p in plans)
    assert any(t["fc_passes"] for t in stations)
