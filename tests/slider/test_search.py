"""Tests for the slider search solvers (BFS, A*, IDA*) and their heuristics.

Covers: the 8-puzzle distance distributions against the published counts,
agreement of the three searches on seeded ring scrambles (every answer
replayed by the independent verifier), the compiled IDA* against the
pure-Python reference node for node (random walks on several boards, short
Korf 15-puzzles with small tables), short Korf 15-puzzles at their known
optimal lengths, pattern-database admissibility against exact distances,
the caller's table store (and no disk without one), `slider prepare`,
deadlines, several blanks against a networkx brute force, and unreachable
goals. Leaves out: the compact tables themselves (test_pdb.py) and timing
(the `slider-*` benchmark suites).
"""

from __future__ import annotations

import itertools
import math
import random
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from mobius.benchmarks.datasets import distance_counts, korf_table
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.slider import reference_pdb
from mobius.cpmodel.slider.board import (
    BLANK,
    Board,
    SliderProblem,
    default_goal,
    preset,
    random_walk,
)
from mobius.cpmodel.slider.heuristics import (
    default_partition,
    distance_heuristic,
    make_heuristic,
)
from mobius.cpmodel.slider.reference_pdb import (
    build_pattern_table,
    distance_table,
    pattern_table,
    rank_state,
)
from mobius.cpmodel.slider.search import BfsSolver, ida_star
from mobius.cpmodel.slider.verify import verify
from mobius.cpmodel.solver import Status, get_solver
from mobius.cpmodel.store import DirectoryStore, attach_tables
from mobius.cli import app

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


def solve_korf(spec: str, numbers: tuple[int, ...], heuristic: str) -> list[int]:
    """Korf's instances `numbers` (1-based) solved optimally by `spec`; the nodes each took."""
    instances = korf_table()
    board = preset("grid:4x4")
    solver = get_solver("slider", spec)
    nodes = []
    for number in numbers:
        start, length = instances[number - 1]
        problem = SliderProblem(board, start, default_goal(board))
        result = solver.solve(problem)
        assert verify(problem, result.solution) == []
        assert len(result.solution) == length
        assert result.notes["heuristic"] == heuristic
        nodes.append(result.stats["nodes"])
    return nodes


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_korf_short_instances_with_distance_heuristic(engine: str) -> None:
    # The three cheapest for Manhattan IDA* (< 0.5 M nodes).
    solve_korf(f"idastar:heuristic=distance,engine={engine}", (42, 55, 79), "distance")


# Rows of the 15-puzzle: groups the numpy reference builds in a second or two.
ROWS_5_5_5 = "1-2-3-4-5/6-7-8-9-10/11-12-13-14-15"


def test_compiled_and_pure_ida_star_expand_the_same_korf_nodes() -> None:
    numbers = (42, 55, 79)
    compiled = solve_korf(f"idastar:partition={ROWS_5_5_5}", numbers, "pdb:5-5-5+mirror")
    pure = solve_korf(f"idastar:partition={ROWS_5_5_5},engine=python", numbers, "pdb:5-5-5+mirror")
    assert compiled == pure
    manhattan = [solve_korf(f"idastar:heuristic=distance,engine={engine}", numbers, "distance")
                 for engine in ("compiled", "python")]
    assert manhattan[0] == manhattan[1]


@pytest.mark.slow
def test_korf_short_instances_with_the_663_tables_both_engines() -> None:
    # Optimal lengths 42, 42, 41, 42; the same nodes in either engine.
    numbers = (16, 42, 55, 79)
    compiled = solve_korf("idastar:partition=6-6-3", numbers, "pdb:6-6-3+mirror")
    assert compiled == solve_korf("idastar:engine=python", numbers, "pdb:6-6-3+mirror")


@settings(max_examples=40, deadline=None)
@given(board_name=st.sampled_from(["grid:3x3", "ring", "theta0", "grid:2x4", "petersen"]),
       walk=st.integers(0, 60), seed=st.integers(0, 2**32), reflect=st.booleans())
def test_compiled_ida_star_matches_the_reference_node_for_node(board_name: str, walk: int, seed: int,
                                                               reflect: bool) -> None:
    board = preset(board_name)
    goal = default_goal(board)
    problem = SliderProblem(board, random_walk(board, goal, walk, random.Random(seed)), goal)
    compiled = get_solver("slider", f"idastar:reflect={reflect}").solve(problem)
    pure = get_solver("slider", f"idastar:reflect={reflect},engine=python").solve(problem)
    assert compiled.status == pure.status == Status.SOLVED
    assert verify(problem, compiled.solution) == []
    assert compiled.solution == pure.solution
    assert compiled.stats["nodes"] == pure.stats["nodes"] and compiled.stats["h0"] == pure.stats["h0"]
    assert compiled.notes["heuristic"] == pure.notes["heuristic"]


# --- heuristics -----------------------------------------------------------------------

@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_pattern_databases_are_admissible_on_the_8_puzzle(engine: str) -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    dist = distance_table(board, goal)
    assert default_partition(board, goal, engine) == ((1, 2, 3, 4), (5, 6, 7, 8))
    plain = make_heuristic("pdb", board, goal, engine=engine, reflect=False)
    mirrored = make_heuristic("pdb", board, goal, engine=engine)
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


def test_both_engines_give_the_same_estimates() -> None:
    for board_name in ("grid:3x3", "ring", "petersen", "theta0"):
        board = preset(board_name)
        goal = default_goal(board)
        compiled = make_heuristic("pdb", board, goal, engine="compiled")
        pure = make_heuristic("pdb", board, goal, engine="python")
        rng = random.Random(board_name)
        for _ in range(300):
            state = random_walk(board, goal, rng.randint(0, 40), rng)
            assert compiled.estimate(state) == pure.estimate(state), (board_name, state)


def test_single_tile_pattern_is_the_graph_distance() -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    table = build_pattern_table(board, goal, (5,))
    assert table.tolist() == list(board.distances[5])


def test_pattern_table_is_written_to_the_store_once_and_reused(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    store = DirectoryStore(tmp_path)
    built = pattern_table(board, goal, (1, 2, 3), store=store)
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".json", ".npy"]  # no temporary file left behind

    def must_not_build(*args: object) -> None:
        raise AssertionError("the stored table should have been loaded")

    monkeypatch.setattr(reference_pdb, "build_pattern_table", must_not_build)
    assert np.array_equal(pattern_table(board, goal, (1, 2, 3), store=store), built)
    other_goal = (1, 0, 2, 3, 4, 5, 6, 7, 8)
    with pytest.raises(AssertionError):  # a different goal is a different table
        pattern_table(board, other_goal, (1, 2, 3), store=store)


def test_partition_option_through_the_registry() -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    problem = SliderProblem(board, random_walk(board, goal, 25, random.Random(3)), goal)
    for engine in ("compiled", "python"):
        result = get_solver("slider", f"idastar:partition=1-2-5/3-4-6-7,reflect=false,engine={engine}").solve(problem)
        assert result.notes["heuristic"] == "pdb:3-4"  # tile 8, in no group, counts its distance
        assert verify(problem, result.solution) == []
        assert len(result.solution) == distance_table(board, goal)[rank_state(problem.start)]


def test_partition_presets_and_single_groups() -> None:
    board = preset("grid:4x4")
    goal = default_goal(board)
    from mobius.cpmodel.slider.heuristics import resolve_partition

    assert resolve_partition(board, goal, "7-8", "compiled") == (tuple(range(1, 8)), tuple(range(8, 16)))
    assert resolve_partition(board, goal, None, "compiled") == resolve_partition(board, goal, "7-8", "python")
    assert resolve_partition(board, goal, None, "python") == resolve_partition(board, goal, "6-6-3", "compiled")
    assert resolve_partition(board, goal, "7-8/", "compiled") == ((7, 8),)  # a trailing / means tiles


def test_bad_heuristic_options_are_input_errors() -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    with pytest.raises(InputError, match="unknown heuristic"):
        make_heuristic("euclid", board, goal)
    with pytest.raises(InputError, match="heuristic='euclid': expected one of distance, manhattan, pdb"):
        get_solver("slider", "idastar:heuristic=euclid")
    with pytest.raises(InputError, match="engine='numba': expected one of compiled, python"):
        get_solver("slider", "idastar:engine=numba")
    with pytest.raises(InputError, match="unknown option 'tables'"):
        get_solver("slider", "idastar:tables=/tmp")  # the store comes from the caller, never from a spec
    with pytest.raises(InputError, match="disjoint"):
        get_solver("slider", "astar:partition=1-2/2-3").solve(SliderProblem(board, goal, goal))
    big = preset("grid:4x4")
    with pytest.raises(InputError, match="python engine"):
        get_solver("slider", "idastar:engine=python,partition=7-8").solve(
            SliderProblem(big, korf_table()[54][0], default_goal(big)))


# --- the caller's table store ------------------------------------------------------------

def test_without_a_store_nothing_touches_the_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    board = preset("ring")
    goal = default_goal(board)
    problem = SliderProblem(board, random_walk(board, goal, 30, random.Random(4)), goal)
    for spec in ("astar", "idastar", "idastar:engine=python", "astar:engine=python", "cpsat"):
        assert get_solver("slider", spec).solve(problem).status == Status.SOLVED
    assert list(tmp_path.iterdir()) == []


def test_a_store_keeps_the_tables_unless_cache_is_off(tmp_path: Path) -> None:
    board = preset("grid:2x4")
    goal = default_goal(board)
    problem = SliderProblem(board, random_walk(board, goal, 30, random.Random(5)), goal)
    off = attach_tables(get_solver("slider", "idastar:cache=false"), DirectoryStore(tmp_path / "off"))
    assert off.solve(problem).status == Status.SOLVED and not (tmp_path / "off").exists()
    for spec in ("idastar", "idastar:engine=python"):
        solver = attach_tables(get_solver("slider", spec), DirectoryStore(tmp_path / spec))
        assert solver.solve(problem).status == Status.SOLVED
        assert any(p.suffix == ".npy" for p in (tmp_path / spec).iterdir())
        assert not any(p.suffix in (".work", ".tmp") for p in (tmp_path / spec).iterdir())


def test_prepare_builds_the_tables_into_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    stopped = CliRunner().invoke(app, ["slider", "prepare", "grid:2x4", "--partition", "1-2-3-4-5/6-7",
                                       "--time-limit", "0.001"])
    assert stopped.exit_code == 3 and "run the same command to continue" in stopped.stderr
    result = CliRunner().invoke(app, ["slider", "prepare", "grid:2x4", "--partition", "1-2-3-4-5/6-7"])
    assert result.exit_code == 0, result.output
    assert "pdb:5-2 tables for grid:2x4 ready" in result.stdout
    cache = tmp_path / "mobius-puzzles"
    assert [p.suffix for p in cache.iterdir() if p.suffix in (".npy", ".work")] == [".npy"]
    # the solve command reads them from the same cache
    start = " ".join(map(str, random_walk(preset("grid:2x4"), default_goal(preset("grid:2x4")), 20,
                                          random.Random(6))))
    solved = CliRunner().invoke(app, ["slider", "solve", "grid:2x4", "--start", start, "--solver",
                                      "idastar:partition=1-2-3-4-5/6-7", "--json"])
    assert solved.exit_code == 0, solved.output


# --- deadlines ------------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["bfs", "astar:heuristic=distance", "idastar:heuristic=distance", "idastar"])
def test_tiny_time_limit_gives_timeout(spec: str) -> None:
    board = preset("grid:4x4")
    start = (14, 7, 8, 2, 13, 11, 10, 4, 9, 12, 5, 0, 3, 6, 1, 15)  # Korf #3: 59 moves
    # Out of reach in 0.3 s, so a search that did not check its deadline would answer late or never;
    # how close to the limit it stops is measured by benchmarks/time_limits.py, not asserted here.
    result = get_solver("slider", spec).solve(SliderProblem(board, start, default_goal(board)), time_limit=0.3)
    assert result.status == Status.TIMEOUT


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
