"""Crossword fill by the shipped MiniZinc model, solved by Gecode: the `gecode` solver.

Covers: `GecodeFillSolver`. The model is written once, in
`cpmodel/models/crossword.mzn` (a table constraint per light over its word
id and letters, all-different on the word ids of each length where repeats
are forbidden); the instance is its .dzn data (`mobius.cpmodel.instances.minizinc`),
built from `tables.fill_tables`, i.e. after the project's own AC-3 pre-pass,
as the CP-SAT model's tables are. The `minizinc` program (Debian's package,
whose Gecode backend is `flatzinc`) runs it with the time limit (what the
pre-pass and writing the data left of it) and the seed; it is killed at the
deadline (`mobius.cpmodel.minizinc.run_minizinc`), and writing the data looks
at the deadline light by light.

Why here and not beside Qxw in `benchmarks/`: this is the project's model
in the field's modelling language, a backend like `cpsat.py` that a user can
pick with `mobius crossword fill --solver gecode`; Qxw is someone else's
program with its own model, a baseline only.

Leaves out: maximising the score (the tables carry no scores), other
MiniZinc solvers (Chuffed is packaged neither by Debian nor on PyPI) and
checking fills (`verify.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from mobius.cpmodel.crossword.tabled import TableAnswer, TableBackend, TableRun
from mobius.cpmodel.crossword.tables import FillTables
from mobius.cpmodel.instances.minizinc import crossword_dzn, model_text
from mobius.cpmodel.minizinc import find_minizinc, minizinc_refusal, run_minizinc
from mobius.cpmodel.solver import Status, option

# MiniZinc's name for the backend: Debian's Gecode.
MINIZINC_SOLVER = "gecode"


@dataclass(frozen=True)
class GecodeFillSolver(TableBackend):
    """Fill a crossword with MiniZinc + Gecode after the shared pre-pass."""

    name: ClassVar[str] = "gecode"

    binary: str = option("", help="path of the minizinc program (default: found on PATH)")

    def available(self) -> str | None:
        return minizinc_refusal(self.binary, MINIZINC_SOLVER)

    def solve_tables(self, tables: FillTables, run: TableRun, seed: int) -> TableAnswer:
        text = model_text("crossword") + crossword_dzn(tables, run.deadline)  # DeadlineExceeded at the deadline
        answer = run_minizinc(find_minizinc(self.binary) or "minizinc", MINIZINC_SOLVER, text,
                              deadline=run.deadline, seed=seed)
        run.stats.update(answer.stats)
        if answer.error:
            run.notes["minizinc"] = answer.error
        return answer.status, answer.arrays.get("letter") if answer.status is Status.SOLVED else None
