"""Hand-computed optima on a late-game Oriente (east end) position.

Santiago (G24, gray Y 512, 60, SdC's station): sides to harbors H23 and H25,
to Guantánamo (G26) and, over plain track in F23, to Holguin (E24, brown Y 216,
50).  Guantánamo is brown: 611 (40) or CO's sugar mill L72 (40).  Holguin
reaches harbors D23 and D25; Guantánamo reaches H25 and H27.  Every harbor
counts 10.  From Santiago the branches are worth:

    H23 10 | H25 10 | Guantánamo 40 (+ harbor 10) | Holguin 50 (+ harbor 10)
"""

from __future__ import annotations

import pytest

from games.engines.cuba.map.optimiser import optimise
from games.engines.cuba.map.routes import Train

from ..helpers import empty_board, put, token


def trains(*spec: str) -> list[Train]:
    out = []
    for s in spec:
        if s.endswith("D"):
            out.append(Train(s, int(s[:-1]), double=True))
        else:
            out.append(Train(s, int(s.rstrip("+")), plus=s.endswith("+")))
    return out


@pytest.fixture
def oriente():
    b = empty_board()
    put(b, "G24", "512", 0)
    token(b, "G24", "SdC")
    token(b, "G24", "FC")
    put(b, "G26", "611", 0)  # sides 0 (H25) 1 (G24) 2 3 4
    put(b, "E24", "216", 0)  # sides 0 (F23) 1 2 (D23) 3 (D25) 4
    put(b, "F23", "8", 3)  # 3 (Holguin) - 5 (Santiago)
    return b


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (("2",), 110),  # Santiago 60 + Holguin 50
        (("3",), 150),  # Guantánamo 40 + Santiago 60 + Holguin 50
        (("4",), 160),  # + a harbor at either end
        (("5",), 170),  # harbor, Guantánamo, Santiago, Holguin, harbor
        (("6",), 170),  # no sixth stop on the line
        (("4D",), 320),  # (10 + 40 + 60 + 50) x 2
        (("3", "3"), 230),  # 60+40+50 and 60+10+10 (two branches each)
        (("5", "2"), 240),  # 170 and Santiago + a harbor (60 + 10)
    ],
)
def test_sdc_optimum(oriente, spec, expected) -> None:
    assert optimise(oriente, "SdC", "major", trains(*spec)).revenue == expected


def test_sdc_delivers_cubes_from_co_mill_in_guantanamo(oriente) -> None:
    put(oriente, "G26", "L72", 0)  # the same sides as the 611, plus narrow 3 and 4
    token(oriente, "G26", "CO")
    # harbor H27 beyond range (0) - Guantánamo 40 - Santiago 60 - Holguin 50,
    # and the 3-wagon loads CO's 2 cubes: 150 + 60
    plan = optimise(oriente, "SdC", "major", trains("3"), wagons=[3], cubes={"CO": 2})
    assert (plan.revenue, plan.sugar) == (210, 60)


def test_tss_pays_to_pass_the_fc_in_a_full_santiago(oriente) -> None:
    token(oriente, "E24", "TSS")
    token(oriente, "G24", "NPP")  # Santiago full: SdC, FC, NPP
    # without a pass: D23 10 + Holguin 50 + Santiago 60 (an end) = 120;
    # past the FC: + Guantánamo 40 = 160, less $20 = 140
    plan = optimise(oriente, "TSS", "major", trains("4"))
    assert (plan.revenue, plan.fees, plan.net) == (160, 20, 140)
    plus = optimise(oriente, "TSS", "major", trains("4+"))
    assert (plus.revenue, plus.fees) == (160, 0)


def test_co_runs_its_mill_and_fields_on_two_tracks(oriente) -> None:
    put(oriente, "G26", "L72", 0)
    token(oriente, "G26", "CO")
    put(oriente, "F27", "L64", 0)  # green field 20: sides 0 (mill), 1, 5 (G28)
    put(oriente, "G28", "L50", 2)  # yellow field 10: sides 1 (mill), 2 (F27)
    co = "CO"
    assert optimise(oriente, co, "minor", trains("2")).revenue == 60  # mill 40 + F27 20
    assert optimise(oriente, co, "minor", trains("3")).revenue == 70  # + G28 10
    # mill-G28-F27 (70) and mill-F27 (60) on separate track, sharing F27
    assert optimise(oriente, co, "minor", trains("3", "2")).revenue == 130
