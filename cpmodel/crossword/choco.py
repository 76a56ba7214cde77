"""Crossword fill by the Choco solver through `pychoco`: the `choco` solver.

Covers: `ChocoFillSolver`, the model of `cpmodel/models/crossword.mzn`
posted through Choco's Python API rather than MiniZinc: a letter variable per
cell (its domain the letters the pre-pass left), a word variable per light
(its domain the light's word ids), one table constraint per light over
(word, letters) with Choco's compact-table propagator (CT+), and
all-different on the word variables of each length where repeats are
forbidden. The tables are `tables.fill_tables`, i.e. after the project's
AC-3 pre-pass. Search: dom/wdeg over the word variables, smallest id (best
score) first, as the MiniZinc model asks of Gecode. Choco stops itself at
the time limit; it runs in this process (pychoco wraps a native build of
Choco), so the harness's backstop is what kills a stuck run.

Why here and not in `benchmarks/`: the same reason as the Gecode backend
(`minizinc.py`): it is the project's model on another engine.

Leaves out: maximising the score, Choco's LCG mode, and the seed (dom/wdeg
breaks ties by variable order, so runs are the same for every seed).
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import math
import time
from dataclasses import dataclass
from typing import Any, ClassVar

from cpmodel.crossword import reference
from cpmodel.crossword.problem import FillProblem
from cpmodel.crossword.tables import FillTables, fill_from_codes, fill_tables
from cpmodel.solver import SolveResult, SolverBase, Status, option

PREPASSES = ("ac3", "none")
# Choco's all-different propagators: bound consistency is cheap but blind on
# word ids (their domains are scattered), full arc consistency (Régin) costs
# a matching per change over thousands of values; DEFAULT is Choco's mix.
ALLDIFF = ("DEFAULT", "BC", "AC")
# Choco reads a duration string such as "2.5s" ("2500ms" is silently read
# as no limit at all); a millisecond is the least it is handed.
MIN_LIMIT_S = 0.001


def choco_refusal() -> str | None:
    """Why pychoco cannot run here, or None (shared with the slider backend)."""
    if importlib.util.find_spec("pychoco") is None:
        return "the pychoco package is not installed (pip install 'mobius-puzzles[choco]')"
    return None


def choco_limit(seconds: float) -> str:
    return f"{max(MIN_LIMIT_S, seconds):.3f}s"


def choco_status(solver: Any, found: bool) -> Status:
    """SOLVED if a solution came back; else UNSAT when the search ran to its end, TIMEOUT when stopped."""
    if found:
        return Status.SOLVED
    return Status.UNSAT if solver.get_search_state() == "TERMINATED" else Status.TIMEOUT


def choco_stats(solver: Any) -> dict[str, int | float]:
    return {"backtracks": int(solver.get_backtrack_count()), "failures": int(solver.get_fail_count()),
            "choco_s": float(solver.get_time_count())}


@dataclass(frozen=True)
class ChocoFillSolver(SolverBase):
    """Fill a crossword with Choco after the shared pre-pass."""

    name: ClassVar[str] = "choco"

    prepass: str = option("ac3", choices=PREPASSES, help="arc consistency before modelling, or none")
    alldiff: str = option("DEFAULT", choices=ALLDIFF, help="Choco's all-different consistency on word ids")

    def available(self) -> str | None:
        return choco_refusal()

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
        # Model: variables and constraints.
        build_started = time.perf_counter()
        model, letters, words = self._build(tables)
        solver = model.get_solver()
        with contextlib.redirect_stdout(io.StringIO()):  # pychoco 0.4 prints the variables here
            solver.set_dom_over_w_deg_search(*words)
        stats["build_s"] = time.perf_counter() - build_started
        # Solve in what is left of the limit.
        left = None if time_limit is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            return result(Status.TIMEOUT)
        solution = solver.find_solution(time_limit=None if left is None else choco_limit(left))
        stats.update(choco_stats(solver))
        status = choco_status(solver, solution is not None)
        if status is not Status.SOLVED:
            return result(status)
        return result(Status.SOLVED, fill_from_codes(problem, tables, [solution.get_int_val(v) for v in letters]))

    def _build(self, tables: FillTables) -> tuple[Any, list[Any], list[Any]]:
        from pychoco import Model  # imported here: an optional package

        model = Model()
        letters = [model.intvar(list(allowed)) for allowed in tables.allowed]
        words = [model.intvar(list(t.word_ids)) for t in tables.lights]
        for word, table in zip(words, tables.lights):
            model.table([word] + [letters[c] for c in table.cells],
                        [[word_id, *row] for word_id, row in zip(table.word_ids, table.rows)]).post()
        if tables.distinct:
            for group in tables.repeat_groups():
                model.all_different([words[i] for i in group], self.alldiff).post()
        return model, letters, words
