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
what is left of the time limit once the model is posted; it runs in a forked
child (`mobius.cpmodel.choco.run_choco`), killed on a Ctrl-C at once and at
the deadline (posting a large model looks at no clock), and a Choco out of
memory is ERROR with a note saying so.

Why here and not in `benchmarks/`: the same reason as the Gecode backend
(`minizinc.py`): it is the project's model on another engine.

Leaves out: maximising the score, Choco's LCG mode, and the seed (dom/wdeg
breaks ties by variable order, so runs are the same for every seed).
"""

from __future__ import annotations

import contextlib
import functools
import io
import time
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from mobius.cpmodel.choco import choco_limit, choco_refusal, choco_stats, choco_status, run_choco
from mobius.cpmodel.crossword.tabled import TableAnswer, TableBackend, TableRun
from mobius.cpmodel.crossword.tables import FillTables
from mobius.cpmodel.solver import Status, option

# Choco's all-different propagators: bound consistency is cheap but blind on
# word ids (their domains are scattered), full arc consistency (Régin) costs
# a matching per change over thousands of values; DEFAULT is Choco's mix.
ALLDIFF = ("DEFAULT", "BC", "AC")


@dataclass(frozen=True)
class ChocoFillSolver(TableBackend):
    """Fill a crossword with Choco after the shared pre-pass."""

    name: ClassVar[str] = "choco"

    alldiff: str = option("DEFAULT", choices=ALLDIFF, help="Choco's all-different consistency on word ids")

    def available(self) -> str | None:
        return choco_refusal()

    def solve_tables(self, tables: FillTables, run: TableRun, seed: int) -> TableAnswer:
        return run_choco(functools.partial(self._solve, tables, run.deadline), run.deadline, run.stats, run.notes)

    def _solve(self, tables: FillTables, deadline: float) -> tuple[Status, list[int] | None, dict[str, float]]:
        """In the child (`run_choco`): build, solve in what is left of the limit, and answer with the counters."""
        build_started = time.perf_counter()
        model, letters, words = self._build(tables)
        solver = model.get_solver()
        with contextlib.redirect_stdout(io.StringIO()):  # pychoco 0.4 prints the variables here
            solver.set_dom_over_w_deg_search(*words)
        stats: dict[str, float] = {"build_s": time.perf_counter() - build_started}
        if time.perf_counter() >= deadline:
            return Status.TIMEOUT, None, stats
        solution = solver.find_solution(time_limit=choco_limit(deadline))
        stats.update(choco_stats(solver))
        status = choco_status(solver, solution is not None)
        if status is not Status.SOLVED:
            return status, None, stats
        return Status.SOLVED, [solution.get_int_val(v) for v in letters], stats

    def _build(self, tables: FillTables) -> tuple[Any, list[Any], list[Any]]:
        from pychoco import Model  # imported here: an optional package

        model = Model()
        letters = [model.intvar(list(allowed)) for allowed in tables.allowed]
        words = [model.intvar(t.word_ids.tolist()) for t in tables.lights]
        for word, table in zip(words, tables.lights):
            model.table([word] + [letters[c] for c in table.cells],
                        np.column_stack([table.word_ids, table.rows]).tolist()).post()
        if tables.distinct:
            for group in tables.repeat_groups():
                model.all_different([words[i] for i in group], self.alldiff).post()
        return model, letters, words
