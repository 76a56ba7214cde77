"""The frame every table-based outside crossword backend (Gecode, Choco, SAT)
shares: `TableBackend`.

Covers: the steps around the engine — refuse with the reason when the
program or package is missing, run the shared pre-pass
(`tables.fill_tables`: AC-3 unless ``prepass=none``; an emptied table is
UNSAT, a spent limit TIMEOUT), count table rows and times, hand the tables
and the deadline to the backend's `solve_tables` (whose encoding may raise
`DeadlineExceeded`: TIMEOUT), report an answer that came after the limit
(`deadline.too_late`) as TIMEOUT, and turn the letter codes it returns into
a `Fill`. Leaves out: the engines themselves
(`minizinc.py`, `choco.py`, `sat.py`) and checking fills (`verify.py`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from mobius.cpmodel.crossword.problem import FillProblem, cap_refusal
from mobius.cpmodel.crossword.tables import FillTables, fill_from_codes, fill_tables
from mobius.cpmodel.deadline import DeadlineExceeded, deadline_of, too_late
from mobius.cpmodel.solver import SolveResult, SolverBase, Status, option

PREPASSES = ("ac3", "none")
# What a backend answers: SOLVED with one letter code per cell of the
# tables, or UNSAT / TIMEOUT / ERROR with None.
TableAnswer = tuple[Status, list[int] | None]


@dataclass
class TableRun:
    """The counters and notes of one run, and its deadline (`time.perf_counter()`; inf: none)."""

    deadline: float
    stats: dict[str, int | float] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TableBackend(SolverBase):
    """A crossword solver that decides the problem from its shared tables."""

    prepass: str = option("ac3", choices=PREPASSES, help="arc consistency before modelling, or none")

    def solve_tables(self, tables: FillTables, run: TableRun, seed: int) -> TableAnswer:
        raise NotImplementedError

    def supports(self, problem: FillProblem) -> str | None:
        return cap_refusal(problem, self.name)

    def solve(self, problem: FillProblem, *, time_limit: float | None = None, seed: int = 0) -> SolveResult:
        started = time.perf_counter()
        run = TableRun(deadline_of(time_limit))

        def result(status: Status, codes: list[int] | None = None, tables: FillTables | None = None) -> SolveResult:
            fill = None if codes is None or tables is None else fill_from_codes(problem, tables, codes)
            return SolveResult(status, fill, self.name, time.perf_counter() - started, run.stats, run.notes)

        refusal = self.available()
        if refusal:
            run.notes["refused"] = refusal
            return result(Status.ERROR)
        # Pre-pass: the shared tables, or UNSAT when one empties.
        try:
            tables = fill_tables(problem, arc_consistent=self.prepass == "ac3", deadline=run.deadline)
        except DeadlineExceeded:
            return result(Status.TIMEOUT)
        run.stats["prepass_s"] = time.perf_counter() - started
        if tables is None:
            return result(Status.UNSAT)
        run.stats["table_rows"] = tables.rows
        # The engine, in what is left of the limit; its encoding looks at the deadline too.
        try:
            status, codes = self.solve_tables(tables, run, seed)
        except DeadlineExceeded:
            return result(Status.TIMEOUT)
        if status in (Status.SOLVED, Status.UNSAT) and too_late(run.deadline):
            # An answer after the limit is no answer within it.
            run.stats["answered_after_limit"] = 1
            return result(Status.TIMEOUT)
        if status is Status.SOLVED and (codes is None or len(codes) != len(tables.cells)):
            run.notes["error"] = "the answer has no letter for every cell"
            return result(Status.ERROR)
        return result(status, codes if status is Status.SOLVED else None, tables)
