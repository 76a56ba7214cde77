"""The Gecode, Choco and SAT crossword backends: small fills checked by the
independent verifier, agreement with the reference solver on random grids
of every surface, the no-repeat rule, prefilled letters, time limits, and
a clean refusal where the program or package is missing."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.problem import FillProblem, FillRules
from mobius.cpmodel.crossword.verify import verify
from mobius.cpmodel.solver import Status, get_solver
from mobius.dictionaries import from_words
from tests.backends.conftest import CROSSWORD_BACKENDS, usable
from tests.crossword.test_fill_agreement import instances  # random small grids of every surface

TIME_LIMIT = 30.0
# Gecode runs are a `minizinc` process each (about a second on a busy
# machine), so its random cross-check draws fewer grids.
EXAMPLES = {"gecode": 12}
DEFAULT_EXAMPLES = 40

# A 3×3 square whose rows and columns must be words, and a double word
# square (CAT/ORE/WED across, COW/ARE/TED down) with six distinct words.
SQUARE = ["...", "...", "..."]
SQUARE_WORDS = ["CAT", "ORE", "WED", "COW", "ARE", "TED"]


def solve(spec: str, problem: FillProblem, **kwargs: object) -> Status:
    result = usable("crossword", spec).solve(problem, time_limit=TIME_LIMIT, seed=3, **kwargs)
    if result.status is Status.SOLVED:
        assert verify(problem, result.solution) == [], (spec, result.solution)
    return result.status


@pytest.mark.parametrize("spec", CROSSWORD_BACKENDS)
def test_a_word_square_is_filled_and_verified(spec: str) -> None:
    problem = FillProblem(make_grid(SQUARE), from_words(SQUARE_WORDS), FillRules(min_length=3))
    assert solve(spec, problem) is Status.SOLVED


@pytest.mark.parametrize("spec", CROSSWORD_BACKENDS)
def test_repeats_are_forbidden_unless_allowed(spec: str) -> None:
    # "AA" is the only word: a 2×2 square reads it four times, which only
    # the allow-repeats rule accepts.
    grid = make_grid(["..", ".."])
    words = from_words(["AA"])
    assert solve(spec, FillProblem(grid, words, FillRules())) is Status.UNSAT
    assert solve(spec, FillProblem(grid, words, FillRules(allow_repeats=True))) is Status.SOLVED


@pytest.mark.parametrize("spec", CROSSWORD_BACKENDS)
@pytest.mark.parametrize("prepass", ["ac3", "none"])
def test_prefilled_letters_are_kept(spec: str, prepass: str) -> None:
    # The prefilled W bottom-left forces the square's one fill with WED and COW.
    problem = FillProblem(make_grid(["...", "...", "W.."]), from_words(SQUARE_WORDS), FillRules(min_length=3))
    separator = "," if ":" in spec else ":"
    assert solve(f"{spec}{separator}prepass={prepass}", problem) is Status.SOLVED


def _agrees_with_reference(spec: str, problem: FillProblem) -> None:
    if not problem.lights.lights:
        return
    expected = get_solver("crossword", "reference").solve(problem, time_limit=TIME_LIMIT).status
    assert expected in (Status.SOLVED, Status.UNSAT)
    assert solve(spec, problem) is expected


@pytest.mark.parametrize("spec", CROSSWORD_BACKENDS)
def test_backends_agree_with_the_reference_on_random_grids(spec: str) -> None:
    usable("crossword", spec)
    examples = EXAMPLES.get(spec.partition(":")[0], DEFAULT_EXAMPLES)

    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(instances())
    def check(problem: FillProblem) -> None:
        _agrees_with_reference(spec, problem)

    check()


@pytest.mark.parametrize("spec", CROSSWORD_BACKENDS)
def test_a_tiny_time_limit_ends_in_timeout_or_an_answer(spec: str) -> None:
    # 4×4 of two-letter words over ABC: large enough that a 1 ms limit cannot
    # finish, small enough that a real answer would still be checked.
    problem = FillProblem(make_grid(["....", "....", "....", "...."]),
                          from_words(["".join(p) for p in itertools.product("ABC", repeat=4)]))
    result = usable("crossword", spec).solve(problem, time_limit=0.001)
    assert result.status in (Status.TIMEOUT, Status.SOLVED)
    if result.status is Status.SOLVED:
        assert verify(problem, result.solution) == []


def test_missing_programs_and_packages_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    import mobius.cpmodel.minizinc

    monkeypatch.setattr(mobius.cpmodel.minizinc.shutil, "which", lambda name: None)
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in ("pychoco", "pysat") else real_find_spec(name, *a))
    problem = FillProblem(make_grid(SQUARE), from_words(SQUARE_WORDS), FillRules(min_length=3))
    for spec, needle in (("gecode", "minizinc"), ("choco", "pychoco"), ("sat", "python-sat")):
        solver = get_solver("crossword", spec)
        assert needle in (solver.available() or ""), spec
        result = solver.solve(problem)
        assert result.status is Status.ERROR and needle in result.notes["refused"]


def test_a_minizinc_without_gecode_is_reported(tmp_path: Path) -> None:
    # A stand-in program that lists no solvers.
    fake = tmp_path / "minizinc"
    fake.write_text("#!/bin/sh\necho '[]'\n")
    fake.chmod(0o755)
    reason = get_solver("crossword", f"gecode:binary={fake}").available()
    assert reason is not None and "gecode" in reason
