"""Tests for the slider search solvers (BFS, A*, IDA*) and their heuristics.

Covers: the 8-puzzle distance distributions against the published counts,
agreement of the three searches on seeded ring scrambles (every answer
replayed by the independent verifier), short Korf 15-puzzles at their known
optimal lengths, pattern-database admissibility against exact distances, the
disk cache, deadlines, several blanks against a networkx brute force, and
unreachable goals. Leaves out: timing (benchmarks/slider_search.py).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from benchmarks.datasets import distance_counts, korf_table
from cpmodel.errors import InputError
from cpmodel.slider import heuristics
from cpmodel.slider.board import (
    BLANK,
    Board,
    SliderProblem,
    default_goal,
    preset,
    random_walk,
)
from cpmodel.slider.heuristics import (
    build_pattern_table,
    default_partition,
    distance_heuristic,
    distance_table,
    make_heuristic,
    pattern_table,
    rank_state,
)
from cpmodel.slider.search import BfsSolver, ida_star
from cpmodel.slider.verify import verify
from cpmodel.solver import Status, get_solver

SOLVERS = ["bfs", "astar:heuristic=distance", "idastar:heuristic=manhattan", "astar", "idastar"]


# --- the full distance table --------------------------------------------------------

@pytest.mark.parametrize("label, blank_vertex", [("3x3-corner", 0), ("3x3-centre", 4)])
def test_8_puzzle_distance_distribution(label: str, blank_vertex: int) -> None:
    expected = distance_counts(label)
    board = preset("grid:3x3")
    tiles = iter(range(1, 9))
    goal = tuple(BLANK if v == blank_vertex else next(tiles) for v in range(9))
    dist = distance_table(board, goal)
    assert np.bincount(dist[dist >= 0]).tolist() == expected
    assert dist[rank_state(goal)] == 0


def test_distance_table_agrees_with_bfs_solver() -> None:
    board = preset("grid:2x3")
    goal = default_goal(board)
    dist = distance_table(board, goal)
    for start in itertools.islice(itertools.permutations(range(6)), 0, 720, 37):
        result = BfsSolver().solve(SliderProblem(board, start, goal))
        expected = dist[rank_state(start)]
        assert (result.status == Status.UNSAT) if expected < 0 else len(result.solution) == expected


# --- the solvers agree and are verified -------------------------------------------------

def test_bfs_astar_idastar_cpsat_agree_on_100_ring_scrambles() -> None:
    board = preset("ring")
    goal = default_goal(board)
    solvers = {spec: get_solver("slider", spec) for spec in [*SOLVERS, "cpsat"]}
    for seed in range(100):
        problem = SliderProblem(board, random_walk(board, goal, 4 + seed % 17, random.Random(seed)), goal)
        lengths = {}
        for spec, solver in solvers.items():
            result = solver.solve(problem)
            assert result.status == Status.SOLVED, (seed, spec)
            assert verify(problem, result.solution) == [], (seed, spec)
            lengths[spec] = len(result.solution)
        assert len(set(lengths.values())) == 1, (seed, lengths)


def test_solvers_agree_on_8_puzzle_against_the_table() -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    dist = distance_table(board, goal)
    solvers = [get_solver("slider", spec) for spec in SOLVERS[1:]]
    for seed in range(15):
        start = random_walk(board, goal, 30 + seed, random.Random(seed))
        problem = SliderProblem(board, start, goal)
        for solver in solvers:
            result = solver.solve(problem)
            assert verify(problem, result.solution) == []
            assert len(result.solution) == dist[rank_state(start)], (seed, solver.name)


def solve_korf(spec: str, numbers: tuple[int, ...], heuristic: str) -> None:
    """Korf's instances `numbers` (1-based) solved optimally by `spec`."""
    instances = korf_table()
    board = preset("grid:4x4")
    solver = get_solver("slider", spec)
    for number in numbers:
        start, length = instances[number - 1]
        problem = SliderProblem(board, start, default_goal(board))
        result = solver.solve(problem)
        assert verify(problem, result.solution) == []
        assert len(result.solution) == length
        assert result.notes["heuristic"] == heuristic


def test_korf_short_instances_with_distance_heuristic() -> None:
    # The three cheapest for Manhattan IDA* (< 0.5 M nodes).
    solve_korf("idastar:heuristic=distance", (42, 55, 79), "distance")


@pytest.mark.slow
def test_korf_short_instances_with_pattern_databases() -> None:
    # Optimal lengths 42, 42, 41, 42.
    solve_korf("idastar:heuristic=pdb", (16, 42, 55, 79), "pdb:3-6-6+mirror")


# --- heuristics -----------------------------------------------------------------------

def test_pattern_databases_are_admissible_on_the_8_puzzle(tmp_path: Path) -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    dist = distance_table(board, goal)
    assert default_partition(board, goal) == ((1, 2, 3, 4), (5, 6, 7, 8))
    plain = make_heuristic("pdb", board, goal, reflect=False, directory=tmp_path)
    mirrored = make_heuristic("pdb", board, goal, directory=tmp_path)
    distance = distance_heuristic(board, goal)
    assert mirrored.name == "pdb:4-4+mirror"
    rng = random.Random(7)
    reachable = np.flatnonzero(dist >= 0)
    permutations = list(itertools.permutations(range(9)))  # rank r is the r-th in lexicographic order
    for rank in rng.sample(list(reachable), 3000):
        state = permutations[rank]
        true = int(dist[rank])
        assert distance.estimate(state) <= plain.estimate(state) <= mirrored.estimate(state) <= true
        assert (mirrored.estimate(state) == 0) == (true == 0)


def test_single_tile_pattern_is_the_graph_distance() -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    table = build_pattern_table(board, goal, (5,))
    assert table.tolist() == list(board.distances[5])


def test_pattern_table_cache_is_written_once_and_reused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    built = pattern_table(board, goal, (1, 2, 3), directory=tmp_path)
    files = list(tmp_path.iterdir())
    assert len(files) == 1 and files[0].suffix == ".npy"  # no temporary file left behind

    def must_not_build(*args: object) -> None:
        raise AssertionError("the cached table should have been loaded")

    monkeypatch.setattr(heuristics, "build_pattern_table", must_not_build)
    assert np.array_equal(pattern_table(board, goal, (1, 2, 3), directory=tmp_path), built)
    other_goal = (1, 0, 2, 3, 4, 5, 6, 7, 8)
    with pytest.raises(AssertionError):  # a different goal is a different file
        pattern_table(board, other_goal, (1, 2, 3), directory=tmp_path)


def test_partition_option_through_the_registry() -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    problem = SliderProblem(board, random_walk(board, goal, 25, random.Random(3)), goal)
    result = get_solver("slider", "idastar:partition=1-2-5/3-4-6-7,reflect=false").solve(problem)
    assert result.notes["heuristic"] == "pdb:3-4"  # tile 8, in no group, counts its distance
    assert verify(problem, result.solution) == []
    assert len(result.solution) == distance_table(board, goal)[rank_state(problem.start)]


def test_bad_heuristic_options_are_input_errors() -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    with pytest.raises(InputError, match="unknown heuristic"):
        make_heuristic("euclid", board, goal)
    with pytest.raises(InputError, match="heuristic='euclid': expected one of distance, manhattan, pdb"):
        get_solver("slider", "idastar:heuristic=euclid")
    with pytest.raises(InputError, match="disjoint"):
        get_solver("slider", "astar:partition=1-2/2-3").solve(SliderProblem(board, goal, goal))


# --- deadlines ------------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["bfs", "astar:heuristic=distance", "idastar:heuristic=distance", "idastar"])
def test_tiny_time_limit_gives_timeout(spec: str) -> None:
    board = preset("grid:4x4")
    start = (14, 7, 8, 2, 13, 11, 10, 4, 9, 12, 5, 0, 3, 6, 1, 15)  # Korf #3: 59 moves
    began = time.perf_counter()
    result = get_solver("slider", spec).solve(SliderProblem(board, start, default_goal(board)), time_limit=0.3)
    assert result.status == Status.TIMEOUT
    assert time.perf_counter() - began < 2.0  # the deadline is checked inside the search and the pdb build


# --- several blanks ---------------------------------------------------------------------

def brute_force_distance(board: Board, start: tuple[int, ...], goal: tuple[int, ...]) -> int | None:
    """Shortest path in the explicit state graph of every arrangement (networkx), None if unreachable."""
    graph = nx.Graph()
    for state in set(itertools.permutations(start)):
        for u, v in board.edges:
            if (state[u] == BLANK) != (state[v] == BLANK):
                other = list(state)
                other[u], other[v] = state[v], state[u]
                graph.add_edge(state, tuple(other))
    try:
        return nx.shortest_path_length(graph, start, goal)
    except nx.NetworkXNoPath:
        return None


@pytest.mark.parametrize("board_name, blanks", [("theta0", 2), ("cycle:6", 2), ("path:5", 2), ("grid:2x3", 3)])
def test_bfs_with_several_blanks_matches_brute_force(board_name: str, blanks: int) -> None:
    board = preset(board_name)
    goal = default_goal(board, blanks)
    rng = random.Random(board_name)
    for _ in range(12):
        start = tuple(rng.sample(goal, len(goal)))
        problem = SliderProblem(board, start, goal, blanks=blanks)
        result = BfsSolver().solve(problem)
        expected = brute_force_distance(board, start, goal)
        if expected is None:
            assert result.status == Status.UNSAT
        else:
            assert result.status == Status.SOLVED and len(result.solution) == expected
            assert verify(problem, result.solution) == []


def test_heuristic_searches_refuse_several_blanks() -> None:
    board = preset("cycle:5")
    goal = default_goal(board, 2)
    for spec in ("astar", "idastar"):
        with pytest.raises(InputError, match="one blank"):
            get_solver("slider", spec).solve(SliderProblem(board, goal, goal, blanks=2))


# --- unreachable goals ----------------------------------------------------------------------

@pytest.mark.parametrize("spec", [*SOLVERS, "cpsat"])
def test_unreachable_goal_is_unsat_without_searching(spec: str) -> None:
    board = preset("grid:2x3")
    goal = default_goal(board)
    start = (0, 2, 1, 3, 4, 5)  # one transposition: odd, and the 2×3 group holds only even ones
    result = get_solver("slider", spec).solve(SliderProblem(board, start, goal))
    assert result.status == Status.UNSAT and result.solution is None
    assert result.stats.get("nodes", 0) == 0 and result.stats.get("horizons_tried", 0) == 0


def test_ida_star_proves_unreachable_on_a_tree_without_the_group_test() -> None:
    board = preset("path:3")
    goal = default_goal(board)
    problem = SliderProblem(board, (0, 2, 1), goal)
    stats: dict = {"nodes": 0}
    assert ida_star(problem, distance_heuristic(board, goal), math.inf, stats) is None
    assert stats["nodes"] > 0
