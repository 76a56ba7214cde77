"""The Gecode, Choco and SAT slider backends: optimal lengths equal to the
breadth-first solver's on seeded scrambles of several boards (every answer
replayed by the independent verifier), unreachable goals, several blanks
refused up front, the horizon cap and the time limit."""

from __future__ import annotations

import random
import time

import pytest

from mobius.cpmodel.slider.board import SliderProblem, default_goal, preset, random_walk
from mobius.cpmodel.slider.verify import verify
from mobius.cpmodel.solver import Status, get_solver
from tests.backends.conftest import SLIDER_BACKENDS, usable

TIME_LIMIT = 60.0
# Far more than a run takes once stopped, far less than one that is not.
STOPPED_WITHIN_S = 5.0
# (board, walk length, seed): short enough for every backend within seconds.
SCRAMBLES = [("grid:3x3", 12, 1), ("grid:3x3", 18, 2), ("ring", 10, 3), ("cycle:5", 6, 4), ("petersen", 8, 5),
             ("grid:2x3", 15, 6), ("grid:3x3", 0, 7)]


def scramble(board_name: str, length: int, seed: int) -> SliderProblem:
    board = preset(board_name)
    goal = default_goal(board)
    return SliderProblem(board, random_walk(board, goal, length, random.Random(seed)), goal)


def bfs_length(problem: SliderProblem) -> int:
    result = get_solver("slider", "bfs").solve(problem, time_limit=TIME_LIMIT)
    assert result.status is Status.SOLVED
    return len(result.solution)


@pytest.mark.parametrize("spec", SLIDER_BACKENDS)
@pytest.mark.parametrize("board_name,length,seed", SCRAMBLES)
def test_optimal_lengths_match_breadth_first_search(spec: str, board_name: str, length: int, seed: int) -> None:
    problem = scramble(board_name, length, seed)
    result = usable("slider", spec).solve(problem, time_limit=TIME_LIMIT, seed=seed)
    assert result.status is Status.SOLVED, result.notes
    assert verify(problem, result.solution) == []
    assert result.optimal is True
    assert len(result.solution) == bfs_length(problem)


@pytest.mark.parametrize("spec", SLIDER_BACKENDS)
def test_an_unreachable_goal_is_unsat(spec: str) -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    swapped = list(goal)
    swapped[1], swapped[2] = swapped[2], swapped[1]  # an odd permutation of the tiles: unreachable
    result = usable("slider", spec).solve(SliderProblem(board, tuple(swapped), goal), time_limit=TIME_LIMIT)
    assert result.status is Status.UNSAT and "unreachable" in result.notes


@pytest.mark.parametrize("spec", SLIDER_BACKENDS)
def test_several_blanks_are_refused_up_front(spec: str) -> None:
    board = preset("grid:2x3")
    problem = SliderProblem(board, (2, 0, 0, 3, 4, 5), default_goal(board, 2), 2)
    solver = usable("slider", spec)
    assert "one blank" in (solver.supports(problem) or "")
    assert solver.solve(problem).status is Status.ERROR


@pytest.mark.parametrize("spec", SLIDER_BACKENDS)
def test_a_horizon_cap_below_the_optimum_is_no_answer(spec: str) -> None:
    problem = scramble("grid:3x3", 18, 2)
    optimum = bfs_length(problem)
    separator = "," if ":" in spec else ":"
    solver = usable("slider", f"{spec}{separator}max_horizon={optimum - 1}")
    result = solver.solve(problem, time_limit=TIME_LIMIT)
    assert result.status is Status.TIMEOUT and result.solution is None
    assert result.stats["no_solution_up_to"] >= optimum - 2


@pytest.mark.parametrize("spec", SLIDER_BACKENDS)
def test_the_time_limit_is_kept_on_the_15_puzzle(spec: str) -> None:
    # Korf's first instance (57 moves) is far beyond these models in a second.
    board = preset("grid:4x4")
    start = (14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3)
    solver = usable("slider", spec)
    started = time.perf_counter()
    result = solver.solve(SliderProblem(board, start, default_goal(board)), time_limit=1.0)
    # It stopped rather than went on; how close to the limit each backend
    # stops is measured by benchmarks/time_limits.py.
    assert result.status is Status.TIMEOUT
    assert time.perf_counter() - started < 1.0 + STOPPED_WITHIN_S
