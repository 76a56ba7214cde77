"""Slider packs: starts at an exact optimal distance, spread over a depth range.

Covers: `SliderPackSpec` — the parameters of `mobius pack slider` — and its
job: puzzle i gets depth MIN + i·D/N (so the pack runs from easy to hard
and every depth gets its share), a seeded random walk from the goal gives a
start that is solvable by construction, a registered optimal solver gives
its exact distance and solution, and the start is kept only when that
distance is the depth asked for. The independent re-check replays the
solution, asks the group test (one blank) and checks the length. Leaves out:
running jobs and writing files (`pack.py`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cpmodel.errors import InputError
from cpmodel.slider.board import (
    Board,
    SliderProblem,
    board_from_json,
    default_goal,
    load_board,
    random_walk,
)
from cpmodel.slider.verify import verify
from cpmodel.solver import Status, default_slider_solver, get_solver, parse_spec, require_usable
from cpmodel.store import attach_tables
from generators.cache import user_store
from generators.pack import Avoid, PackError, derive_seed
from generators.puzzles import slider_puzzle

# Random walks rarely end at the deepest distances (the 8-puzzle has 2 states
# at distance 31 of 181,440); past this many tries the depth is reported as
# out of reach rather than searched for ever.
MAX_START_ATTEMPTS = 400
# Walks a little longer than the target depth reach it more often, since
# walks fold back on themselves; the excess grows with failed attempts.
WALK_EXCESS_STEP = 2


def parse_depths(text: str) -> tuple[int, int]:
    """`MIN..MAX` or a single depth."""
    low, dots, high = text.partition("..")
    try:
        lo, hi = int(low), int(high) if dots else int(low)
    except ValueError:
        raise InputError(f"--depth {text!r}: expected MIN..MAX, e.g. 8..14") from None
    if not 0 <= lo <= hi:
        raise InputError(f"--depth {text!r}: expected 0 <= MIN <= MAX")
    return lo, hi


@dataclass(frozen=True)
class SliderPackSpec:
    count: int
    board: str = "ring"
    depth_min: int = 4
    depth_max: int = 12
    blanks: int = 1
    solver: str = ""  # empty: the registry's default for the number of blanks
    seed: int = 0
    time_limit: float | None = 60.0
    kind: str = "slider"
    sequential: bool = False

    @property
    def solver_spec(self) -> str:
        return self.solver or default_slider_solver(self.blanks)

    def parameters(self) -> dict[str, Any]:
        return {"kind": self.kind, "count": self.count, "board": self.board, "depth": [self.depth_min, self.depth_max],
                "blanks": self.blanks, "solver": self.solver_spec, "seed": self.seed, "time_limit": self.time_limit}

    def describe(self) -> dict[str, Any]:
        return {"board": self.load_board().to_json()}

    def load_board(self) -> Board:
        return load_board(self.board)

    def depth_of(self, index: int) -> int:
        span = self.depth_max - self.depth_min + 1
        return self.depth_min + index * span // self.count

    # -- the job -------------------------------------------------------------------------

    def run_job(self, index: int, avoid: Avoid) -> dict[str, Any]:
        board = self.load_board()
        goal = default_goal(board, self.blanks)
        target = self.depth_of(index)
        solver = attach_tables(get_solver("slider", self.solver_spec), user_store())  # this machine's cache
        for attempt in range(MAX_START_ATTEMPTS):
            seed = derive_seed(self.seed, index, attempt)
            start = random_walk(board, goal, target + WALK_EXCESS_STEP * (attempt // 20), random.Random(seed))
            if _key(start) in avoid.keys:
                continue
            problem = SliderProblem(board, start, goal, self.blanks)
            require_usable(solver, problem)
            result = solver.solve(problem, time_limit=self.time_limit, seed=seed)
            # The depth is exact only for a proven optimum.
            if result.status is not Status.SOLVED or result.optimal is not True or len(result.solution) != target:
                continue
            puzzle = slider_puzzle(problem, list(result.solution), puzzle_id=f"{index + 1:04d}",
                                   solver=parse_spec(self.solver_spec)[0], stats=result.stats, seed=seed)
            puzzle["rejected"] = attempt
            return puzzle
        raise PackError(f"puzzle {index + 1}: no start at optimal depth {target} on {self.board} found in "
                        f"{MAX_START_ATTEMPTS} attempts; the depth may exceed the board's diameter")

    # -- what the runner needs ----------------------------------------------------------------

    def key(self, puzzle: Mapping[str, Any]) -> str:
        return _key(puzzle["start"])

    def answers(self, puzzle: Mapping[str, Any]) -> frozenset[str]:
        return frozenset()

    def verify(self, puzzle: Mapping[str, Any]) -> list[str]:
        try:
            board = board_from_json(puzzle["board"], "puzzle")
            problem = SliderProblem(board, tuple(puzzle["start"]), tuple(puzzle["goal"]), puzzle["blanks"])
            moves = [tuple(m) if isinstance(m, list) else m for m in puzzle["solution"]]
        except (KeyError, TypeError, ValueError) as exc:
            return [f"malformed puzzle JSON: {exc}"]
        problems = verify(problem, moves)
        if puzzle["length"] != len(moves):
            problems.append(f"length {puzzle['length']} but {len(moves)} moves")
        if not self.depth_min <= len(moves) <= self.depth_max:
            problems.append(f"length {len(moves)} outside {self.depth_min}..{self.depth_max}")
        if problem.blanks == 1:
            from cpmodel.slider.group import is_reachable

            reachable, reason = is_reachable(problem)
            if not reachable:
                problems.append(f"the group test says the goal is unreachable: {reason}")
        return problems


def _key(start: Any) -> str:
    return " ".join(map(str, start))
