"""Slider packs: depths from MIN to MAX, the census against an independent
BFS, depth bins refused up front when the board cannot fill them, and the
deepest starts drawn exactly."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from mobius.cpmodel.errors import InputError
from mobius.cpmodel.slider.board import default_goal, preset
from mobius.cpmodel.slider.reference_pdb import distance_table
from mobius.generators.pack import build_pack
from mobius.generators.slider.pack import MAX_PACK_DEPTH, SliderPackSpec, census, parse_depths


def test_depths_run_from_min_to_max() -> None:
    spec = SliderPackSpec(count=10, board="ring", depth_min=10, depth_max=24)
    assert [spec.depth_of(i) for i in range(10)] == [10, 12, 13, 15, 16, 18, 19, 21, 22, 24]
    spec = SliderPackSpec(count=18, board="ring", depth_min=4, depth_max=12)
    assert Counter(spec.depth_of(i) for i in range(18)) == {d: 2 for d in range(4, 13)}
    assert SliderPackSpec(count=1, board="ring", depth_min=7, depth_max=9).depth_of(0) == 7
    assert [SliderPackSpec(count=3, board="ring", depth_min=5, depth_max=5).depth_of(i) for i in range(3)] == [5] * 3


def test_census_agrees_with_the_numpy_distance_table() -> None:
    board = preset("ring")
    found = census(board, default_goal(board))
    table = distance_table(board, default_goal(board))
    assert found.complete
    assert [len(layer) for layer in found.layers] == np.bincount(table[table >= 0]).tolist()


def test_census_with_two_blanks_covers_every_arrangement() -> None:
    board = preset("grid:2x3")
    found = census(board, default_goal(board, 2))
    assert found.complete and sum(len(layer) for layer in found.layers) == 720 // 2  # 6!/2!: blanks alike
    assert all(state.count(0) == 2 for layer in found.layers for state in layer)


def test_census_of_a_large_board_stops_at_whole_levels() -> None:
    board = preset("grid:4x4")
    found = census(board, default_goal(board), cells=16 * 1000)
    assert not found.complete
    assert [len(layer) for layer in found.layers[:6]] == [1, 2, 4, 10, 24, 54]  # Korf's 15-puzzle levels


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"depth_min": 40, "depth_max": 50}, r"--depth 40\.\.50: no start on ring is 40 moves from the goal; "
                                         r"the farthest is 31"),
    ({"count": 20, "depth_min": 28, "depth_max": 31}, "ring has 2 distinct starts at depth 31, and the pack "
                                                      "puts 4 puzzles there"),
    ({"count": 12, "depth_min": 0, "depth_max": 5}, "ring has 1 distinct start at depth 0"),
    ({"count": 0}, "--count: expected 1 to 100,000 puzzles, got 0"),
    ({"count": 10 ** 20}, "got 100,000,000,000,000,000,000"),
    ({"depth_min": 5, "depth_max": MAX_PACK_DEPTH + 1}, "<= 1000"),
    ({"board": "grid:2x3", "blanks": 6}, "takes 1 to 5 blanks, not 6"),
])
def test_impossible_packs_are_refused_up_front(kwargs: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        SliderPackSpec(**{"count": 10, "board": "ring", **kwargs})


def test_a_large_board_only_checks_what_its_census_knows() -> None:
    SliderPackSpec(count=4, board="grid:4x4", depth_min=40, depth_max=50)  # possible, and not refused
    with pytest.raises(InputError, match="grid:4x4 has 2 distinct starts at depth 1, and the pack puts 3"):
        SliderPackSpec(count=6, board="grid:4x4", depth_min=1, depth_max=2)


@pytest.mark.parametrize(("text", "message"), [
    ("9..4", "MIN <= MAX"),
    ("a..5", r"--depth 'a\.\.5', MIN: expected a whole number from 0 to 1,000, got 'a'"),
    ("4..", "MAX: expected a whole number"),
    ("4..9..12", "MAX: expected a whole number"),
    ("-3..4", "got '-3'"),
    ("4.." + "9" * 5000, "got a 5,000-digit number"),
    ("1001", "got 1,001"),
])
def test_parse_depths_bounds_and_messages(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        parse_depths(text)
    assert len(str(caught.value)) < 200
    assert parse_depths(" 4 .. 9 ") == (4, 9) and parse_depths("7") == (7, 7)


def test_the_deepest_starts_are_drawn_exactly(tmp_path: Path) -> None:
    # The 8-puzzle has exactly two states 31 moves from the goal; random walks almost never find them.
    spec = SliderPackSpec(count=2, board="grid:3x3", depth_min=31, depth_max=31, solver="bfs")
    puzzles = build_pack(spec, tmp_path / "deep")
    assert sorted(p["length"] for p in puzzles.values()) == [31, 31]
    assert len({tuple(p["start"]) for p in puzzles.values()}) == 2
    assert all(spec.verify(p) == [] for p in puzzles.values())


def test_cli_refuses_impossible_depths_and_leaves_nothing(tmp_path: Path) -> None:
    out = tmp_path / "pack"
    done = subprocess.run([sys.executable, "-m", "mobius", "pack", "slider", "--depth", "40..50", "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == ("mobius: error: --depth 40..50: no start on ring is 40 moves from the goal; "
                           "the farthest is 31\n")
    assert not out.exists()
