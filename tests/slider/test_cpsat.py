"""Tests for the slider CP-SAT solver (`cpmodel.slider.cpsat`).

Covers: optimal lengths against a brute-force BFS written here (one blank on
ring, theta0 and the 8-puzzle; two blanks on small boards), every solution
replayed by the independent verifier, each search trick switched from its
default on its own still giving the optimum, unreachable instances (parity
proof and exhaustion), the horizon cap, the time limit, determinism and the
registry.
Leaves out: speed, which benchmarks/slider_cpsat.py measures.
"""

from __future__ import annotations

import functools
import random
from collections import deque

import pytest

from cpmodel.slider.board import BLANK, SliderProblem, State, default_goal, preset
from cpmodel.slider.cpsat import CpSatSliderSolver, Tricks
from cpmodel.slider.verify import verify
from cpmodel.solver import Status, get_solver

# --- an independent brute force ---------------------------------------------------

def neighbours_of(state: State, edges: tuple[tuple[int, int], ...]) -> list[State]:
    """Every state one slide away: for each edge with one blank end and one tile end, swap."""
    out = []
    for u, v in edges:
        if (state[u] == BLANK) != (state[v] == BLANK):
            nxt = list(state)
            nxt[u], nxt[v] = nxt[v], nxt[u]
            out.append(tuple(nxt))
    return out


def bfs_layers(problem: SliderProblem, depth: int | None = None) -> dict[State, int]:
    """Distance from the goal of every state within `depth` (all reachable ones if None)."""
    seen = {problem.goal: 0}
    queue = deque([problem.goal])
    while queue:
        state = queue.popleft()
        if depth is not None and seen[state] == depth:
            continue
        for nxt in neighbours_of(state, problem.board.edges):
            if nxt not in seen:
                seen[nxt] = seen[state] + 1
                queue.append(nxt)
    return seen


@functools.cache
def goal_distances(board_name: str, blanks: int = 1) -> dict[State, int]:
    """BFS distances to the default goal, once per board (the ring has 9!/2 states)."""
    board = preset(board_name)
    goal = default_goal(board, blanks)
    return bfs_layers(SliderProblem(board, goal, goal, blanks))


def bfs_length(problem: SliderProblem) -> int | None:
    if problem.goal == default_goal(problem.board, problem.blanks):
        return goal_distances(problem.board.label, problem.blanks).get(problem.start)
    return bfs_layers(problem).get(problem.start)


def scramble(board_name: str, depth: int, rng: random.Random, blanks: int = 1) -> SliderProblem:
    """A random walk of `depth` slides from the default goal."""
    board = preset(board_name)
    goal = default_goal(board, blanks)
    state = goal
    for _ in range(depth):
        state = rng.choice(neighbours_of(state, board.edges))
    return SliderProblem(board, state, goal, blanks)


def check_optimal(problem: SliderProblem, solver: CpSatSliderSolver, expected: int) -> None:
    result = solver.solve(problem, time_limit=60, seed=0)
    assert result.status is Status.SOLVED, result
    assert len(result.solution) == expected == result.stats["horizon"]
    assert result.optimal is True
    assert verify(problem, result.solution) == []


# --- optimal lengths -------------------------------------------------------------------

@pytest.mark.parametrize(("board_name", "count"), [("ring", 30), ("theta0", 15)])
def test_one_blank_scrambles_match_bfs(board_name: str, count: int) -> None:
    rng = random.Random(1)
    for _ in range(count):
        problem = scramble(board_name, rng.randint(0, 12), rng)
        check_optimal(problem, CpSatSliderSolver(), bfs_length(problem))


@pytest.mark.slow
def test_hundred_deep_ring_scrambles_match_bfs() -> None:
    rng = random.Random(2)
    for _ in range(100):
        problem = scramble("ring", rng.randint(0, 60), rng)
        check_optimal(problem, CpSatSliderSolver(), bfs_length(problem))


def test_eight_puzzle_depth_twenty() -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    layers = bfs_layers(SliderProblem(board, goal, goal), depth=20)
    start = random.Random(3).choice(sorted(s for s, d in layers.items() if d == 20))
    check_optimal(SliderProblem(board, start, goal), CpSatSliderSolver(), 20)


@pytest.mark.parametrize("board_name", ["grid:2x3", "theta0", "cycle:5"])
def test_two_blanks_match_bfs(board_name: str) -> None:
    rng = random.Random(4)
    for _ in range(6):
        problem = scramble(board_name, rng.randint(1, 10), rng, blanks=2)
        result = CpSatSliderSolver().solve(problem, time_limit=60)
        assert result.status is Status.SOLVED
        assert len(result.solution) == bfs_length(problem)
        assert all(len(move) == 2 for move in result.solution)
        assert verify(problem, result.solution) == []


@pytest.mark.parametrize("trick", ["prune", "sums", "budget", "symmetry", "parity", "search"])
def test_each_trick_switched_keeps_the_optimum(trick: str) -> None:
    rng = random.Random(5)
    switched = not getattr(Tricks(), trick)
    solver = CpSatSliderSolver(**{trick: switched})
    assert getattr(solver.tricks, trick) is switched
    for board_name, blanks in [("ring", 1), ("grid:2x3", 2), ("theta0", 1)]:
        problem = scramble(board_name, 9, rng, blanks)
        check_optimal(problem, solver, bfs_length(problem))


def test_start_equal_to_goal_needs_no_moves() -> None:
    board = preset("ring")
    problem = SliderProblem(board, default_goal(board), default_goal(board))
    check_optimal(problem, CpSatSliderSolver(), 0)


# --- unreachable goals and limits ----------------------------------------------------

def test_swapped_tiles_on_a_bipartite_grid_are_unsat() -> None:
    board = preset("grid:2x3")
    goal = default_goal(board)
    start = (0, 2, 1, 3, 4, 5)
    assert bfs_length(SliderProblem(board, start, goal)) is None
    result = CpSatSliderSolver().solve(SliderProblem(board, start, goal), time_limit=30)
    assert result.status is Status.UNSAT
    assert result.solution is None
    assert "unreachable" in result.notes


def test_unreachable_on_an_odd_cycle_is_unsat() -> None:
    # An odd cycle is not bipartite, so no parity argument proves this.
    board = preset("cycle:5")
    goal = default_goal(board)
    start = (0, 2, 1, 3, 4)
    assert bfs_length(SliderProblem(board, start, goal)) is None
    result = CpSatSliderSolver().solve(SliderProblem(board, start, goal), time_limit=30)
    assert result.status is Status.UNSAT
    assert "unreachable" in result.notes


def test_several_blanks_unsat_only_after_exhausting_every_horizon() -> None:
    # On a path tiles can never pass each other; no invariant here proves it,
    # so UNSAT must come from every horizon up to 4!/2 − 1 being infeasible.
    board = preset("path:4")
    problem = SliderProblem(board, (1, 2, 0, 0), (2, 1, 0, 0), blanks=2)
    result = CpSatSliderSolver().solve(problem, time_limit=60)
    assert result.status is Status.UNSAT
    assert result.stats["no_solution_up_to"] == 11
    assert "unreachable" not in result.notes


def test_horizon_cap_reports_timeout_not_unsat() -> None:
    problem = scramble("ring", 12, random.Random(6))
    optimum = bfs_length(problem)
    result = CpSatSliderSolver(max_horizon=optimum - 1).solve(problem, time_limit=60)
    assert result.status is Status.TIMEOUT
    assert result.stats["no_solution_up_to"] == optimum - 1


def test_time_limit_is_respected() -> None:
    board = preset("grid:4x4")
    start = (13, 8, 14, 3, 9, 1, 0, 7, 15, 5, 4, 10, 12, 2, 6, 11)  # Korf #55, 41 moves
    limit = 0.5
    result = CpSatSliderSolver().solve(SliderProblem(board, start, default_goal(board)), time_limit=limit)
    assert result.status is Status.TIMEOUT
    assert result.wall_s < limit + 1.0


# --- determinism and the registry -------------------------------------------------------

def test_same_seed_same_solution() -> None:
    problem = scramble("grid:3x3", 16, random.Random(7))
    first = CpSatSliderSolver().solve(problem, seed=3)
    second = CpSatSliderSolver().solve(problem, seed=3)
    assert first.solution == second.solution


def test_registry_builds_the_solver_with_options() -> None:
    solver = get_solver("slider", "cpsat:workers=2,max_horizon=40,sums=true,budget=false")
    assert isinstance(solver, CpSatSliderSolver)
    assert (solver.name, solver.workers, solver.max_horizon) == ("cpsat", 2, 40)
    assert (solver.tricks.sums, solver.tricks.budget) == (True, False)
