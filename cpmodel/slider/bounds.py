"""Bounds on the length of a slider solution, shared by the solvers that step
through horizons (`cpsat.py`, `timed.py`, `sat.py`) and the instance writers:
the sum of graph distances (a lower bound), the parity every solution length
must have where an invariant fixes it, and the number of arrangements (no
shortest solution is longer than it minus one).

Leaves out: the models themselves (`cpsat.py`, `timed.py`, `sat.py`), the
pattern-database bounds (`heuristics.py`), and solvability (`group.py`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from mobius.cpmodel.slider.board import BLANK, Board, SliderProblem
from mobius.cpmodel.slider.heuristics import distance_heuristic


def two_colouring(board: Board) -> tuple[int, ...] | None:
    """Colour 0/1 per vertex if the board is bipartite, else None."""
    colour = [d % 2 for d in board.distances[0]]
    if any(colour[u] == colour[v] for u, v in board.edges):
        return None
    return tuple(colour)


def _permutation_parity(start: Sequence[int], goal: Sequence[int]) -> int:
    """Parity of the permutation taking `start` to `goal` (one blank, all entries distinct)."""
    where = {item: v for v, item in enumerate(goal)}
    target = [where[item] for item in start]
    seen = [False] * len(target)
    parity = 0
    for v in range(len(target)):
        length = 0
        while not seen[v]:
            seen[v] = True
            v = target[v]
            length += 1
        parity ^= (length - 1) % 2 if length else 0
    return parity


def _blank_colour_count(state: Sequence[int], colour: Sequence[int]) -> int:
    return sum(1 for v, item in enumerate(state) if item == BLANK and colour[v] == 1)


def horizon_parity(problem: SliderProblem) -> int | None:
    """The parity every solution length must have, or None when no invariant fixes it.

    One blank: every move swaps the blank with a tile, so the length has the
    parity of the start→goal permutation on any board. Several blanks on a
    bipartite board: each move flips the colour of one blank, so the number of
    blanks on colour 1 changes parity at every step.
    """
    if problem.blanks == 1:
        return _permutation_parity(problem.start, problem.goal)
    colour = two_colouring(problem.board)
    if colour is None:
        return None
    return (_blank_colour_count(problem.goal, colour) - _blank_colour_count(problem.start, colour)) % 2


def distance_bound(problem: SliderProblem) -> int:
    """Sum over tiles of the graph distance to the goal vertex: each move moves one tile one edge."""
    return distance_heuristic(problem.board, problem.goal).estimate(problem.start)


def arrangement_count(problem: SliderProblem) -> int:
    """Distinct arrangements of the tiles: no shortest solution is longer than this minus one."""
    return math.factorial(problem.board.n) // math.factorial(problem.blanks)
