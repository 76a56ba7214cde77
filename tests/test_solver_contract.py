"""The solver contract (`cpmodel/solver.py`): typed options, availability and
support, optimality as part of the result, any 64-bit seed for every solver."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.problem import FillProblem
from mobius.cpmodel.crossword.verify import verify as verify_fill
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.slider.board import SliderProblem, default_goal, preset
from mobius.cpmodel.slider.verify import verify as verify_moves
from mobius.cpmodel.solver import (
    MAX_OPTION_CHARS,
    Solver,
    Status,
    cpsat_seed,
    describe_options,
    get_solver,
    require_usable,
    solver_class,
    solver_names,
    spec_of,
)
from mobius.dictionaries import from_words

ROOT = Path(__file__).resolve().parents[1]
GRID = ROOT / "generators" / "examples" / "mobius-8x4.txt"
WORDS = ["CAT", "ACE", "TEA", "ATE", "EAT", "TAE"]
SEEDS = [0, 1, 2**31 - 1, 2**31, 3_000_000_000, 2**63 - 1, 2**64 + 5]


def every_spec() -> list[tuple[str, str]]:
    return [(family, name) for family in ("crossword", "slider") for name in solver_names(family)]


@pytest.mark.parametrize("family, name", every_spec())
def test_every_registered_solver_follows_the_protocol(family: str, name: str) -> None:
    solver = get_solver(family, name)
    assert isinstance(solver, Solver)
    assert solver.name == name
    assert solver.available() is None  # the built-in solvers need nothing outside the package
    assert spec_of(solver) == name  # defaults only
    assert describe_options(solver_class(family, name)) is not None


@pytest.mark.parametrize("family, spec, expected", [
    ("crossword", "reference:max_backtracks=abc", "max_backtracks='abc': expected a whole number"),
    ("crossword", "reference:max_backtracks=-5", "max_backtracks=-5: expected at least 0"),
    ("crossword", "reference:select=random", "select='random': expected one of"),
    ("crossword", "reference:randomize=maybe", "randomize='maybe': expected true or false"),
    ("crossword", "cpsat:deterministic_time=abc", "deterministic_time='abc': expected a number"),
    ("crossword", "cpsat:deterministic_time=-1", "expected at least"),
    ("crossword", "cpsat:deterministic_time=nan", "expected a finite number"),
    ("crossword", "cpsat:workers=99999999999999999999", "expected at most"),
    ("crossword", "cpsat:colour=red", "unknown option 'colour'"),
    ("slider", "cpsat:workers=abc", "workers='abc': expected a whole number"),
    ("slider", "cpsat:max_horizon=-1", "max_horizon=-1: expected at least 0"),
    ("slider", "idastar:heuristic=euclid", "expected one of distance, manhattan, pdb"),
    ("slider", "bfs:depth=3", "unknown option 'depth'; its options are: none"),
    ("slider", "nosuch", "unknown slider solver 'nosuch'"),
])
def test_bad_options_are_input_errors_naming_the_value(family: str, spec: str, expected: str) -> None:
    with pytest.raises(InputError) as caught:
        get_solver(family, spec)
    assert expected in str(caught.value)


def test_huge_option_values_are_refused_before_conversion() -> None:
    with pytest.raises(InputError, match=f"longer than {MAX_OPTION_CHARS} characters"):
        get_solver("crossword", "reference:max_backtracks=" + "9" * 5000)


def test_options_round_trip_through_their_spec() -> None:
    solver = get_solver("crossword", "reference:select=mrv,randomize=true,max_backtracks=50")
    assert (solver.select, solver.randomize, solver.max_backtracks) == ("mrv", True, 50)
    assert get_solver("crossword", spec_of(solver)) == solver
    assert get_solver("crossword", "cpsat:deterministic_time=none").deterministic_time is None


def test_cpsat_seed_fits_cp_sat_and_keeps_seeds_apart() -> None:
    derived = [cpsat_seed(s) for s in SEEDS]
    assert all(0 <= d < 2**31 for d in derived)
    assert len(set(derived)) == len(derived)
    assert cpsat_seed(12345) == cpsat_seed(12345)


@pytest.mark.parametrize("seed", SEEDS)
def test_crossword_solvers_take_any_seed(seed: int) -> None:
    problem = FillProblem(make_grid(["...", "#.#", "#.#"]), from_words(WORDS))
    for spec in ("reference:randomize=true", "cpsat"):
        result = get_solver("crossword", spec).solve(problem, time_limit=30, seed=seed)
        assert result.status is Status.SOLVED, (spec, result)
        assert verify_fill(problem, result.solution) == []


@pytest.mark.parametrize("seed", [3_000_000_000, 2**63 - 1])
def test_slider_cpsat_takes_any_seed(seed: int) -> None:
    board = preset("grid:2x3")
    goal = default_goal(board)
    problem = SliderProblem(board, (1, 0, 2, 3, 4, 5), goal)
    result = get_solver("slider", "cpsat").solve(problem, time_limit=30, seed=seed)
    assert result.status is Status.SOLVED and result.optimal is True
    assert verify_moves(problem, result.solution) == [] and len(result.solution) == 1


def test_optimality_is_part_of_the_result() -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    problem = SliderProblem(board, (1, 0, 2, 3, 4, 5, 6, 7, 8), goal)
    for name in solver_names("slider"):
        result = get_solver("slider", name).solve(problem, time_limit=30)
        assert result.optimal is True, name
        assert all(isinstance(v, (int, float)) for v in result.stats.values()), (name, result.stats)
    # A plain fill answers no optimisation question; a maximising one does.
    fill_problem = FillProblem(make_grid(["...", "#.#", "#.#"]), from_words(WORDS))
    assert get_solver("crossword", "reference").solve(fill_problem).optimal is None
    assert get_solver("crossword", "cpsat:maximize=true").solve(fill_problem, time_limit=30).optimal is True


def test_unsupported_problems_are_refused_up_front() -> None:
    board = preset("grid:2x3")
    two_blanks = SliderProblem(board, (0, 0, 2, 3, 4, 5), default_goal(board, 2), 2)
    solver = get_solver("slider", "idastar")
    assert "one blank" in solver.supports(two_blanks)
    with pytest.raises(InputError, match="one blank"):
        require_usable(solver, two_blanks)
    assert get_solver("slider", "bfs").supports(two_blanks) is None


def mobius(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobius", *map(str, args)], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("args", [
    ("crossword", "fill", GRID, "--solver", "reference:max_backtracks=abc"),
    ("crossword", "fill", GRID, "--solver", "cpsat:deterministic_time=-1"),
    ("slider", "solve", "grid:3x3", "--start", "1 0 2 3 4 5 6 7 8", "--solver", "cpsat:workers=abc"),
    ("slider", "solve", "grid:2x3", "--blanks", "2", "--start", "0 0 2 3 4 5", "--solver", "idastar"),
])
def test_cli_reports_bad_solver_options_in_one_line(args: tuple[str, ...]) -> None:
    out = mobius(*args)
    assert out.returncode == 2, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


def test_cli_fill_with_cpsat_takes_a_large_seed() -> None:
    out = mobius("crossword", "fill", GRID, "--solver", "cpsat", "--seed", "3000000000", "--time-limit", "60")
    assert out.returncode in (0, 1), out.stderr
    assert "Traceback" not in out.stderr
