"""A time limit bounds the whole fill: set-up gives up at the deadline too.

Behaviour only (what was built when the limit was spent); how close to the
limit runs end is measured by benchmarks/time_limits.py, not asserted here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mobius.cpmodel.crossword import cpsat, propagation, reference
from mobius.cpmodel.crossword.grid import read_grid
from mobius.cpmodel.crossword.problem import FillProblem
from mobius.cpmodel.deadline import DeadlineExceeded
from mobius.cpmodel.solver import Status
from mobius.dictionaries import from_words, load

VANBEEK = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "crossword" / "vanbeek"


@pytest.fixture()
def cold_problem() -> FillProblem:
    """A 23x23 grid with a word list no solver has indexed yet (a new WordList object)."""
    words = load("en-small")
    fresh = from_words(words.words, words.scores, name="en-small-copy")
    return FillProblem(read_grid(VANBEEK / "23.06.txt"), fresh)


def test_reference_set_up_stops_at_the_deadline(cold_problem: FillProblem) -> None:
    result = reference.ReferenceSolver().solve(cold_problem, time_limit=0.0)
    assert result.status is Status.TIMEOUT and result.stats["nodes"] == 0
    # Past the deadline no word index was built (23.06 needs eight lengths).
    assert len(propagation._INDEX_CACHE.get(id(cold_problem.words), {})) <= 1


def test_cpsat_pre_pass_stops_at_the_deadline(cold_problem: FillProblem) -> None:
    result = cpsat.CpSatFillSolver().solve(cold_problem, time_limit=0.0)
    assert result.status is Status.TIMEOUT and result.stats["table_rows"] == 0


def test_cpsat_model_building_stops_at_the_deadline() -> None:
    problem = FillProblem(read_grid(VANBEEK / "05.01.txt"), load("en-small"))
    domains = cpsat._prepass(problem, fixpoint=False, deadline=float("inf"))
    with pytest.raises(DeadlineExceeded):
        cpsat._build_model(problem, domains, maximize=False, deadline=0.0)


def test_a_timed_cpsat_run_gives_the_same_fill_as_an_untimed_one() -> None:
    """The child process that carries a timed run changes nothing but the bound."""
    problem = FillProblem(read_grid(VANBEEK / "05.02.txt"), load("en-small"))
    untimed = cpsat.CpSatFillSolver(workers=1).solve(problem, seed=3)
    timed = cpsat.CpSatFillSolver(workers=1).solve(problem, seed=3, time_limit=600)
    assert untimed.status is timed.status is Status.SOLVED
    assert untimed.solution == timed.solution
