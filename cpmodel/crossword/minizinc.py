"""Crossword fill by the shipped MiniZinc model, solved by Gecode: the `gecode` solver.

Covers: `GecodeFillSolver`. The model is written once, in
`cpmodel/models/crossword.mzn` (a table constraint per light over its word
id and letters, all-different on the word ids of each length where repeats
are forbidden); the instance is its .dzn data (`cpmodel.instances.minizinc`),
built from `tables.fill_tables`, i.e. after the project's own AC-3 pre-pass,
as the CP-SAT model's tables are. The `minizinc` program (Debian's package,
whose Gecode backend is `flatzinc`) runs it with the time limit (what the
pre-pass left of it) and the seed; it is killed on overrun.

Why here and not beside Qxw in `benchmarks/`: this is the project's model
in the field's modelling language, a backend like `cpsat.py` that a user can
pick with `mobius crossword fill --solver gecode`; Qxw is someone else's
program with its own model, a baseline only.

Leaves out: maximising the score (the tables carry no scores), other
MiniZinc solvers (Chuffed is packaged neither by Debian nor on PyPI) and
checking fills (`verify.py`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import ClassVar

from cpmodel.crossword import reference
from cpmodel.crossword.problem import FillProblem
from cpmodel.crossword.tables import fill_from_codes, fill_tables
from cpmodel.instances.minizinc import crossword_dzn, model_text
from cpmodel.minizinc import find_minizinc, minizinc_refusal, run_minizinc
from cpmodel.solver import SolveResult, SolverBase, Status, option

PREPASSES = ("ac3", "none")
# MiniZinc's name for the backend: Debian's Gecode.
MINIZINC_SOLVER = "gecode"


@dataclass(frozen=True)
class GecodeFillSolver(SolverBase):
    """Fill a crossword with MiniZinc + Gecode after the shared pre-pass."""

    name: ClassVar[str] = "gecode"

    prepass: str = option("ac3", choices=PREPASSES, help="arc consistency before modelling, or none")
    binary: str = option("", help="path of the minizinc program (default: found on PATH)")

    def available(self) -> str | None:
        return minizinc_refusal(self.binary, MINIZINC_SOLVER)

    def solve(self, problem: FillProblem, *, time_limit: float | None = None, seed: int = 0) -> SolveResult:
        started = time.perf_counter()
        deadline = math.inf if time_limit is None else started + time_limit
        stats: dict[str, int | float] = {}
        notes: dict[str, str] = {}

        def result(status: Status, fill: object | None = None) -> SolveResult:
            return SolveResult(status, fill, self.name, time.perf_counter() - started, stats, notes)

        refusal = self.available()
        if refusal:
            notes["refused"] = refusal
            return result(Status.ERROR)
        # Pre-pass: the shared tables, or UNSAT when one empties.
        try:
            tables = fill_tables(problem, arc_consistent=self.prepass == "ac3", deadline=deadline, seed=seed)
        except reference.DeadlineReached:
            return result(Status.TIMEOUT)
        stats["prepass_s"] = time.perf_counter() - started
        if tables is None:
            return result(Status.UNSAT)
        stats["table_rows"] = tables.rows
        # Solve: model + data through minizinc.
        left = None if time_limit is None else max(0.0, deadline - time.perf_counter())
        run = run_minizinc(find_minizinc(self.binary) or "minizinc", MINIZINC_SOLVER,
                           model_text("crossword") + crossword_dzn(tables), time_limit=left, seed=seed)
        stats.update(run.stats)
        if run.error:
            notes["minizinc"] = run.error
        if run.status is not Status.SOLVED:
            return result(run.status)
        codes = run.arrays.get("letter")
        if codes is None or len(codes) != len(tables.cells):
            notes["minizinc"] = "the solution has no letter for every cell"
            return result(Status.ERROR)
        return result(Status.SOLVED, fill_from_codes(problem, tables, codes))
