"""Crossword fill as SAT, solved by `python-sat`: the `sat` solver.

Covers: `fill_cnf(tables)`, the encoding SAT-based fillers use, built on
`tables.fill_tables` (the project's AC-3 pre-pass):
- one Boolean per candidate word per light, exactly one per light;
- one Boolean per letter a cell may take, exactly one per cell;
- channelling: a word implies each of its letters, and a letter in a cell
  implies one of the words of each light through the cell that put it there
  (so unit propagation does what arc consistency does on each table);
- where repeats are forbidden, at most one light per word (word ids are
  global, so only lights of one length share them).
`SatFillSolver` encodes and solves it with CaDiCaL (default) or Glucose
(``solver=glucose4``) in a child under the time limit
(`mobius.cpmodel.sat.solve_encoded`; the encoding looks at the deadline
light by light, the largest grids taking long to encode) and reads the
letters back.
`cnf_comments` names every variable for the DIMACS writer.

Why here and not in `benchmarks/`: it is the project's model as clauses, a
backend like `cpsat.py` (`mobius crossword fill --solver sat`).

Leaves out: maximising the score, and the seed (pysat gives no way to seed
these solvers; runs are the same for every seed).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from mobius.cpmodel.crossword.problem import FillProblem
from mobius.cpmodel.crossword.propagation import ALPHABET
from mobius.cpmodel.crossword.tabled import TableAnswer, TableBackend, TableRun
from mobius.cpmodel.crossword.tables import FillTables
from mobius.cpmodel.deadline import check_deadline
from mobius.cpmodel.sat import DEFAULT_SAT_SOLVER, SAT_SOLVERS, Cnf, Encoded, sat_refusal, solve_encoded
from mobius.cpmodel.solver import Status, option


@dataclass(frozen=True)
class FillCnf:
    """The formula and what its variables stand for."""

    cnf: Cnf
    letter_vars: np.ndarray  # (cells, 26): the variable "cell holds letter", 0 where the letter is ruled out
    word_vars: tuple[np.ndarray, ...]  # per light, the variable of each table row


def fill_cnf(tables: FillTables, deadline: float = math.inf) -> FillCnf:
    """The formula; DeadlineExceeded once `deadline` has passed (looked at light by light)."""
    cnf = Cnf()
    letter_vars = _letter_variables(cnf, tables)
    word_vars = tuple(cnf.new_vars(len(t.word_ids)) for t in tables.lights)
    for table, words in zip(tables.lights, word_vars):
        check_deadline(deadline)
        cnf.exactly_one(words)
        for pos, cell in enumerate(table.cells):
            _channel(cnf, words, table.rows[:, pos], letter_vars[cell])
    if tables.distinct:
        _no_repeats(cnf, tables, word_vars, deadline)
    return FillCnf(cnf, letter_vars, word_vars)


def _letter_variables(cnf: Cnf, tables: FillTables) -> np.ndarray:
    letter_vars = np.zeros((len(tables.cells), len(ALPHABET)), dtype=np.int64)
    for cell, allowed in enumerate(tables.allowed):
        chosen = cnf.new_vars(len(allowed))
        letter_vars[cell, list(allowed)] = chosen
        cnf.exactly_one(chosen)  # an empty list is the empty clause: a cell with no letter left
    return letter_vars


def _channel(cnf: Cnf, words: np.ndarray, letters: np.ndarray, cell_vars: np.ndarray) -> None:
    """word → its letter here; letter here → one of the words that place it."""
    placed = cell_vars[letters]
    impossible = placed == 0  # the letter is ruled out in this cell (only without AC-3)
    for word in words[impossible]:
        cnf.add((-word,))
    cnf.add_binary(-words[~impossible], placed[~impossible])
    for code in np.flatnonzero(cell_vars):
        cnf.add_array(np.concatenate(([-cell_vars[code]], words[letters == code])))


def _no_repeats(cnf: Cnf, tables: FillTables, word_vars: tuple[np.ndarray, ...], deadline: float) -> None:
    """At most one light per word, among the lights of each length."""
    for group in tables.repeat_groups():
        check_deadline(deadline)
        ids = np.concatenate([tables.lights[i].word_ids for i in group])
        lits = np.concatenate([word_vars[i] for i in group])
        order = np.argsort(ids, kind="stable")
        ids, lits = ids[order], lits[order]
        starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
        for begin, end in zip(starts, np.r_[starts[1:], len(ids)]):
            if end - begin > 1:
                cnf.at_most_one(lits[begin:end])


def cnf_comments(problem: FillProblem, tables: FillTables, encoded: FillCnf) -> Iterator[str]:
    """Comment lines naming every variable: letters per cell, words per light."""
    yield "crossword fill; variables past those named are auxiliary (at-most-one counters)"
    for (x, y), row in zip(tables.cells, encoded.letter_vars):
        named = " ".join(f"{ALPHABET[code]}={row[code]}" for code in np.flatnonzero(row))
        yield f"cell {x} {y}: {named}"
    for light, table, words in zip(problem.lights.lights, tables.lights, encoded.word_vars):
        yield f"light {light.label} cells " + " ".join(f"{x},{y}" for x, y in light.cells)
        for var, word in zip(words.tolist(), table.words):
            yield f"word {var} {light.label} {word}"


@dataclass(frozen=True)
class SatFillSolver(TableBackend):
    """Fill a crossword with a SAT solver after the shared pre-pass."""

    name: ClassVar[str] = "sat"

    solver: str = option(DEFAULT_SAT_SOLVER, choices=SAT_SOLVERS, help="pysat solver")

    def available(self) -> str | None:
        return sat_refusal()

    def solve_tables(self, tables: FillTables, run: TableRun, seed: int) -> TableAnswer:
        # Encoded and solved in a child, in what is left of the limit.
        answer = solve_encoded(functools.partial(_encoded, tables), self.solver, deadline=run.deadline)
        run.stats.update(answer.stats)
        return answer.status, answer.value if answer.status is Status.SOLVED else None


def _encoded(tables: FillTables, deadline: float) -> Encoded[list[int]]:
    """The formula of `tables`, read back as one letter code per cell."""
    encoded = fill_cnf(tables, deadline)

    def letters(true_vars: frozenset[int]) -> list[int]:
        return [next(code for code in np.flatnonzero(row) if int(row[code]) in true_vars)
                for row in encoded.letter_vars]

    return Encoded(encoded.cnf, letters)
