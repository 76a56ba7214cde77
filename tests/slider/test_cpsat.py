"""Tests for the slider CP-SAT solver (`mobius.cpmodel.slider.cpsat`).

Covers: optimal lengths against a brute-force BFS written here (one blank on
ring, theta0 and the 8-puzzle; two blanks on small boards), every solution
replayed by the independent verifier, each search trick switched from its
default on its own still giving the optimum, unreachable instances (parity
proof and exhaustion), the horizon cap, the first horizon at a built
pattern database's bound, the time limit (model building included, never a
zero or negative limit handed to CP-SAT), determinism and the registry.
Leaves out: speed, which the `slider-cpsat` benchmark suites measure.
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections import deque
from pathlib import Path

import pytest

from mobius.cpmodel.deadline import DeadlineExceeded
from mobius.cpmodel.slider.board import BLANK, SliderProblem, State, default_goal, preset
from mobius.cpmodel.slider.bounds import distance_bound
from mobius.cpmodel.slider.cpsat import MIN_CPSAT_TIME_S, CpSatSliderSolver, Tricks, build_model
from mobius.cpmodel.slider import cpsat as slider_cpsat
from mobius.cpmodel.slider import heuristics
from mobius.cpmodel.slider.heuristics import make_heuristic
from mobius.cpmodel.slider.verify import verify
from mobius.cpmodel.solver import Status, get_solver
from mobius.cpmodel.store import DirectoryStore, attach_tables

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
    """Korf #55 is out of reach in half a second: the answer is a timeout (how close to the limit the
    run ends is measured by benchmarks/time_limits.py, not asserted here)."""
    board = preset("grid:4x4")
    start = (13, 8, 14, 3, 9, 1, 0, 7, 15, 5, 4, 10, 12, 2, 6, 11)  # Korf #55, 41 moves
    result = CpSatSliderSolver().solve(SliderProblem(board, start, default_goal(board)), time_limit=0.5)
    assert result.status is Status.TIMEOUT


class CountedDeadline:
    """A deadline that passes at the `expires_at`-th check; counts the checks made."""

    def __init__(self, expires_at: float) -> None:
        self.expires_at = expires_at
        self.checks = 0

    def __call__(self, deadline: float | None) -> None:
        self.checks += 1
        if self.checks >= self.expires_at:
            raise DeadlineExceeded


def test_model_building_checks_the_deadline_step_by_step_and_stops_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    board = preset("grid:4x4")
    start = (13, 8, 14, 3, 9, 1, 0, 7, 15, 5, 4, 10, 12, 2, 6, 11)
    problem = SliderProblem(board, start, default_goal(board))
    horizon = 12
    whole = CountedDeadline(math.inf)
    monkeypatch.setattr(slider_cpsat, "check_deadline", whole)
    build_model(problem, horizon)
    assert whole.checks > 4 * horizon  # every step of every part of the model
    cut = CountedDeadline(whole.checks // 2)
    monkeypatch.setattr(slider_cpsat, "check_deadline", cut)
    with pytest.raises(DeadlineExceeded):
        build_model(problem, horizon)
    assert cut.checks == whole.checks // 2


def test_cpsat_never_gets_a_zero_or_negative_time_limit() -> None:
    solver = CpSatSliderSolver()._configured_solver(time.perf_counter() - 5.0, 0)
    assert solver.parameters.max_time_in_seconds == MIN_CPSAT_TIME_S > 0
    assert CpSatSliderSolver()._configured_solver(math.inf, 0).parameters.max_time_in_seconds > 1e9  # no limit


# --- the first horizon ---------------------------------------------------------------

def test_first_horizon_is_a_built_pattern_database_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heuristics, "_HEURISTICS", {})  # forget heuristics other tests left in memory
    board = preset("grid:3x3")
    goal = default_goal(board)
    store = DirectoryStore(tmp_path)
    rng = random.Random(8)
    problems = [scramble("grid:3x3", 30, rng) for _ in range(6)]
    plain = [CpSatSliderSolver().solve(p) for p in problems]
    # Only tables already built count: the solver reads the store but never builds into it.
    assert all(r.stats["lower_bound"] == r.stats["distance_bound"] == distance_bound(p) and "pdb_bound" not in r.stats
               for p, r in zip(problems, plain))
    heuristic = make_heuristic("pdb", board, goal, store=store)
    solver = attach_tables(CpSatSliderSolver(), store)
    for problem, before in zip(problems, plain):
        after = solver.solve(problem)
        assert after.stats["pdb_bound"] == heuristic.estimate(problem.start) >= after.stats["distance_bound"]
        assert after.stats["lower_bound"] == after.stats["pdb_bound"] and after.notes["bound"] == heuristic.name
        assert len(after.solution) == len(before.solution) and verify(problem, after.solution) == []
        assert after.stats["horizons_tried"] <= before.stats["horizons_tried"]
    assert get_solver("slider", "cpsat:pdb_bound=false").with_tables(store).solve(problems[0]).stats[
        "lower_bound"] == plain[0].stats["lower_bound"]


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
