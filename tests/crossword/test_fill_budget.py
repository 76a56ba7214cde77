"""A fill that stops without an answer says what it ran out of: a solver's deterministic budget
(`solver.budget_spent`, and the spec that raises it, `budget_text`) is not its wall-clock time limit,
and neither is a proof that no fill exists (`mobius crossword fill`'s note)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.problem import FillProblem
from mobius.cpmodel.solver import Status, budget_spent, budget_text, get_solver
from mobius.dictionaries import load

ROWS = (".......", ".#...#.", ".......", "...#...", ".......", ".#...#.", ".......")


def problem() -> FillProblem:
    return FillProblem(make_grid(ROWS, "plane"), load("en"))


def test_a_fill_stopped_by_its_backtracks_ran_out_of_its_budget() -> None:
    solver = get_solver("crossword", "reference:max_backtracks=3,choices=8")
    result = solver.solve(problem(), time_limit=60.0, seed=1)
    assert result.status is Status.TIMEOUT and budget_spent(solver, result)
    assert budget_text(solver) == "3 backtracks (--solver reference:max_backtracks=6,choices=8 raises it)"
    assert budget_text(solver, "reference") == "3 backtracks (--solver reference:max_backtracks=6 raises it)"


def test_a_fill_stopped_by_the_clock_spent_no_budget() -> None:
    bounded = get_solver("crossword", "reference:max_backtracks=1000000")
    stopped = bounded.solve(problem(), time_limit=0.0, seed=1)
    assert stopped.status is Status.TIMEOUT and not budget_spent(bounded, stopped)
    unbounded = get_solver("crossword", "reference")
    assert budget_text(unbounded) == "" and not budget_spent(unbounded, unbounded.solve(problem(), time_limit=0.0))


def test_a_budget_of_none_is_raised_to_one() -> None:
    assert "(--solver reference:max_backtracks=1 raises it)" in budget_text(get_solver("crossword",
                                                                                      "reference:max_backtracks=0"))


def fill(tmp_path: Path, solver: str) -> str:
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(ROWS) + "\n")
    run = subprocess.run([sys.executable, "-m", "mobius", "crossword", "fill", str(grid), "--surface", "plane",
                          "--solver", solver], capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 3, run.stderr  # TIMEOUT
    return run.stderr.strip()


def test_crossword_fill_says_the_budget_it_ran_out_of_and_what_raises_it(tmp_path: Path) -> None:
    note = fill(tmp_path, "reference:max_backtracks=3")
    assert note.startswith("no fill within the budget of 3 backtracks (--solver reference:max_backtracks=6 "
                           "raises it); not proven that none exists")
    assert "--time-limit" not in note  # a longer time limit would not raise it
