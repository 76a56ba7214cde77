"""Both fill solvers against each other on random instances, and the seed's
5×5 example: every answer passes the independent verifier."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.problem import FillProblem, FillRules
from mobius.cpmodel.crossword.verify import verify
from mobius.cpmodel.solver import Status, get_solver
from mobius.cpmodel.surface import SURFACES
from mobius.dictionaries import from_words, load
from tests.crossword.test_compiled import caps

SOLVERS = ("reference", "reference:select=domwdeg,inference=fc", "cpsat", "cpsat:prepass=none", "cpsat:search=cpsat")
TIME_LIMIT = 20.0


def solve_all(problem: FillProblem) -> dict[str, Status]:
    outcomes = {}
    for spec in SOLVERS:
        result = get_solver("crossword", spec).solve(problem, time_limit=TIME_LIMIT, seed=1)
        assert result.status in (Status.SOLVED, Status.UNSAT), f"{spec}: {result.status}"
        if result.status is Status.SOLVED:
            assert verify(problem, result.solution) == [], spec
        outcomes[spec] = result.status
    return outcomes


@st.composite
def instances(draw: st.DrawFn, capped: bool = False) -> FillProblem:
    """Small random grids and word lists; with `capped`, a cap on words of one kind too (which only
    the reference solver and CP-SAT keep: the other backends draw these without one)."""
    w, h = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    rows = ["".join(draw(st.lists(st.sampled_from("....#"), min_size=w, max_size=w))) for _ in range(h)]
    grid = make_grid(rows, draw(st.sampled_from(sorted(SURFACES))))
    # A three-letter alphabet keeps dictionaries small while mixing SAT and UNSAT.
    word = st.text(alphabet="ABC", min_size=2, max_size=2 * max(w, h))
    listed = draw(st.lists(word, min_size=1, max_size=30))
    rules = FillRules(allow_repeats=draw(st.booleans()), cap=draw(caps(listed)) if capped else None)
    words = from_words(listed)
    return FillProblem(grid, words, rules)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances(capped=True))
def test_solvers_agree_on_random_grids_of_every_surface(problem: FillProblem) -> None:
    outcomes = solve_all(problem)
    assert len(set(outcomes.values())) == 1, outcomes


# The seed's example: a 5×5 pattern whose lights have 2, 3 and 5 letters,
# and a 25-word list of five-letter words only.
SEED_PATTERN = ["#...#", ".....", ".....", ".....", "#...#"]
SEED_WORDS = ["APPLE", "BREAD", "CHAIR", "DANCE", "EAGLE", "FLAME", "GRAPE", "HOUSE", "IVORY", "JUICE",
              "KNIFE", "LEMON", "MANGO", "NIGHT", "OCEAN", "PIANO", "QUEEN", "RIVER", "STONE", "TIGER",
              "UNCLE", "VOICE", "WATER", "YOUTH", "ZEBRA"]


@pytest.mark.parametrize("spec", SOLVERS)
def test_seed_example_has_no_fill_from_its_25_words(spec: str) -> None:
    problem = FillProblem(make_grid(SEED_PATTERN), from_words(SEED_WORDS))
    assert {lt.length for lt in problem.lights.lights} == {3, 5}
    result = get_solver("crossword", spec).solve(problem, time_limit=TIME_LIMIT)
    assert result.status is Status.UNSAT


@pytest.mark.parametrize("spec", ["reference", "cpsat"])
@pytest.mark.parametrize("surface", ["plane", "mobius"])
def test_seed_example_fills_from_en(spec: str, surface: str) -> None:
    problem = FillProblem(make_grid(SEED_PATTERN, surface), load("en"))
    result = get_solver("crossword", spec).solve(problem, time_limit=60)
    assert result.status is Status.SOLVED
    assert verify(problem, result.solution) == []
