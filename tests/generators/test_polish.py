"""The CP-SAT polish never lowers a fill's score (nor its score net of
penalties), keeps every rule — the fill stays valid by the independent
`verify`, no excluded word comes in — and is the same for the same seed."""

from __future__ import annotations

import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mobius.cpmodel.crossword.problem import FillProblem, FillRules
from mobius.cpmodel.crossword.verify import verify
from mobius.cpmodel.solver import Status, get_solver
from mobius.dictionaries import load
from mobius.generators.crossword.pattern_rules import PatternSpec
from mobius.generators.crossword.patterns import generate_pattern
from mobius.generators.crossword.polish import polish, repair, total
from mobius.generators.crossword.word_policy import share_bonus

SPECS = [PatternSpec(7, 5, "mobius", max_seam_crossings=1, max_length=7), PatternSpec(9, 7, "torus", max_length=9),
         PatternSpec(9, 9, "plane", max_length=9)]


def filled(spec: PatternSpec, seed: int, **problem: object) -> tuple[FillProblem, dict] | None:
    words = load("en", min_score=30)
    fill_problem = FillProblem(generate_pattern(spec, seed), words, **problem)
    result = get_solver("crossword", "reference:max_backtracks=3000,choices=8").solve(fill_problem, seed=seed)
    return (fill_problem, result.solution) if result.status is Status.SOLVED else None


@given(which=st.integers(0, len(SPECS) - 1), seed=st.integers(0, 10_000))
@settings(max_examples=12, deadline=None)
def test_polish_never_lowers_the_score_and_keeps_the_fill_valid(which: int, seed: int) -> None:
    found = filled(SPECS[which], seed, rules=FillRules(min_length=3, min_score=30))
    if found is None:
        return
    problem, fill = found
    polished = polish(problem, fill, budget=0.1, seed=seed)
    assert verify(problem, polished.fill) == []
    assert polished.score_before == total(problem, fill, net=False)
    assert polished.score_after == total(problem, polished.fill, net=False) >= polished.score_before
    assert polish(problem, fill, budget=0.1, seed=seed) == polished  # deterministic


def test_polish_raises_the_mean_score_of_weak_fills() -> None:
    gains = []
    for seed in range(6):
        found = filled(SPECS[0], seed, rules=FillRules(min_length=3, min_score=30))
        if found:
            problem, fill = found
            polished = polish(problem, fill, budget=0.2, seed=seed)
            gains.append(polished.score_after - polished.score_before)
    assert gains and sum(gains) > 0


def test_polish_keeps_the_pack_rules_and_the_preferences() -> None:
    found = filled(SPECS[1], 3, rules=FillRules(min_length=3, min_score=30))
    assert found is not None
    problem, fill = found
    words = problem.words
    # Bar the fill's own words of some lights' length plus a third of the list, prefer a share of the rest.
    barred = frozenset(w for w in words.words if zlib.crc32(w.encode()) % 3 == 0) - set(problem.entries(fill))
    penalties = share_bonus(words.words, 1, 16)
    ruled = FillProblem(problem.grid, words, FillRules(min_length=3, min_score=30, excluded=barred), penalties)
    polished = polish(ruled, fill, budget=0.2, seed=1)
    assert verify(ruled, polished.fill) == []
    assert not set(ruled.entries(polished.fill)) & barred
    assert total(ruled, polished.fill, net=True) >= total(ruled, fill, net=True)
    assert total(ruled, polished.fill, net=False) >= total(ruled, fill, net=False)


@pytest.mark.parametrize("budget", [0.0, 0.001])
def test_a_tiny_budget_still_gives_a_valid_fill(budget: float) -> None:
    found = filled(SPECS[0], 1, rules=FillRules(min_length=3, min_score=30))
    assert found is not None
    problem, fill = found
    polished = polish(problem, fill, budget=budget, seed=0)
    assert verify(problem, polished.fill) == [] and polished.score_after >= polished.score_before


def test_a_mend_replaces_the_taken_answer_and_keeps_the_rest() -> None:
    """`repair` of a fill with each of its answers excluded in turn, on a fill of every spec: a fill of
    the problem without that answer, every cell outside its light and the lights crossing it unchanged,
    or None; on these fills most answers of the torus and some of the plane's can be mended."""
    mends = 0
    for spec in SPECS:
        problem, fill = next(found for seed in range(10) if (found := filled(spec, seed)) is not None)
        lights = problem.lights
        for light, taken in zip(lights.lights, problem.entries(fill)):
            excluding = FillProblem(problem.grid, problem.words, FillRules(excluded=frozenset({taken})))
            mended = repair(excluding, fill, seed=0)
            if mended is None:
                continue
            mends += 1
            near = {b for cell in light.cells for b, _ in lights.cell_lights[cell]}
            freed = {cell for i in near for cell in lights.lights[i].cells}
            assert verify(excluding, mended) == [] and taken not in excluding.entries(mended)
            assert all(mended[cell] == letter for cell, letter in fill.items() if cell not in freed)
    assert mends > 0
