"""The blacksquare backend: its fills read back and checked by the independent verifier, prefilled letters
kept, no fill never called a proof, the problems it cannot take refused in one line, and on random plane grids
no fill where the reference solver proves there is none."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings

from mobius.cpmodel.crossword import blacksquare
from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.problem import FillProblem, FillRules
from mobius.cpmodel.crossword.verify import verify
from mobius.cpmodel.solver import Status, get_solver
from mobius.dictionaries import from_words
from tests.backends.conftest import usable
from tests.crossword.test_fill_agreement import instances

TIME_LIMIT = 30.0
SQUARE_WORDS = ["CAT", "ORE", "WED", "COW", "ARE", "TED"]


def solve(problem: FillProblem) -> Status:
    result = usable("crossword", "blacksquare").solve(problem, time_limit=TIME_LIMIT)
    if result.status is Status.SOLVED:
        assert verify(problem, result.solution) == [], result.solution
    return result.status


def test_a_word_square_is_filled_and_verified() -> None:
    assert solve(FillProblem(make_grid(["...", "...", "..."]), from_words(SQUARE_WORDS), FillRules(min_length=3))) \
        is Status.SOLVED


def test_prefilled_letters_are_kept() -> None:
    # The prefilled W bottom-left forces the square's one fill with WED across and COW down.
    problem = FillProblem(make_grid(["...", "...", "W.."]), from_words(SQUARE_WORDS), FillRules(min_length=3))
    result = usable("crossword", "blacksquare").solve(problem, time_limit=TIME_LIMIT)
    assert result.status is Status.SOLVED and verify(problem, result.solution) == []
    assert "".join(result.solution[(x, 2)] for x in range(3)) == "WED"


def test_no_fill_is_never_reported_as_a_proof() -> None:
    # "AA" is the only word and a 2×2 square reads it four times: no fill without repeats. blacksquare
    # returns nothing both when its search ends and at its timeout, so the answer is TIMEOUT, not UNSAT.
    problem = FillProblem(make_grid(["..", ".."]), from_words(["AA"]), FillRules())
    assert solve(problem) is Status.TIMEOUT
    assert solve(FillProblem(problem.grid, problem.words, FillRules(allow_repeats=True))) is Status.SOLVED


def test_the_words_handed_over_keep_the_rules() -> None:
    words = from_words(["CAT", "COT", "DOG", "TACO"], [60, 20, 50, 70])
    # COT scores under the minimum and DOG is excluded.
    assert blacksquare.allowed_words(words, 30, frozenset({"DOG"})) == {"CAT": 60.0, "TACO": 70.0}


@pytest.mark.parametrize(("rows", "surface", "min_length", "why"), [
    (["...", "...", "..."], "mobius", 3, "plane grids only"),
    (["...", "...", "..#"], "plane", 3, "every run of 2+ white cells"),
])
def test_problems_it_cannot_take_are_refused_in_one_line(rows: list[str], surface: str, min_length: int,
                                                          why: str) -> None:
    problem = FillProblem(make_grid(rows, surface), from_words(SQUARE_WORDS), FillRules(min_length=min_length))
    refusal = get_solver("crossword", "blacksquare").supports(problem)
    assert refusal is not None and why in refusal and "\n" not in refusal
    result = get_solver("crossword", "blacksquare").solve(problem)
    assert result.status is Status.ERROR and why in result.notes["refused"]


def test_runs_are_every_two_or_more_white_cells_across_and_down() -> None:
    assert blacksquare.grid_runs(("#..", "...", "..#")) == {
        ((1, 0), (2, 0)), ((0, 1), (1, 1), (2, 1)), ((0, 2), (1, 2)),
        ((0, 1), (0, 2)), ((1, 0), (1, 1), (1, 2)), ((2, 0), (2, 1)),
    }


def test_a_missing_package_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(blacksquare, "installed", lambda: False)
    solver = get_solver("crossword", "blacksquare")
    assert "pip install 'mobius-puzzles[blacksquare]'" in (solver.available() or "")
    result = solver.solve(FillProblem(make_grid(["..", ".."]), from_words(["AA"]), FillRules(allow_repeats=True)))
    assert result.status is Status.ERROR


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(instances())
def test_no_fill_where_the_reference_proves_none_on_random_plane_grids(problem: FillProblem) -> None:
    usable("crossword", "blacksquare")
    problem = FillProblem(make_grid(problem.grid.rows), problem.words, FillRules(min_length=2, allow_repeats=True))
    assume(problem.lights.lights and get_solver("crossword", "blacksquare").supports(problem) is None)
    expected = get_solver("crossword", "reference").solve(problem, time_limit=TIME_LIMIT).status
    got = solve(problem)  # a fill it returns is verified there
    assert got in (Status.SOLVED, Status.TIMEOUT)
    if expected is Status.UNSAT:
        assert got is Status.TIMEOUT
