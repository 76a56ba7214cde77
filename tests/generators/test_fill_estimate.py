"""The fill estimate against fills counted by brute force, and the pack plan's use of it."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.lights import find_lights
from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.crossword.plan import FIRST_TRY_SHARE, FULL_BUDGET_AFTER
from mobius.generators.crossword.fill_estimate import FillEstimate
from mobius.generators.crossword.grid_walk import DRY_LANE_DRAWS, EASY_LOG_FILLS, HOPELESS_LOG_FILLS, GridWalk
from mobius.generators.crossword.pattern_space import canonical_key, lane_of
from mobius.dictionaries.wordlist import from_words

WORDS = st.lists(st.text(alphabet="ABCE", min_size=3, max_size=3), min_size=1, max_size=12, unique=True)


def fills_counted(grid_rows: tuple[str, ...], words: list[str]) -> int:
    """Every assignment of a word to each light (repeats allowed) whose crossings agree."""
    grid = make_grid(grid_rows, "plane")
    lights = find_lights(grid, 3).lights
    count = 0
    for choice in itertools.product(words, repeat=len(lights)):
        letters: dict[tuple[int, int], str] = {}
        if all(letters.setdefault(cell, word[i]) == word[i]
               for light, word in zip(lights, choice) for i, cell in enumerate(light.cells)):
            count += 1
    return count


@settings(max_examples=40, deadline=None)
@given(WORDS)
def test_with_independent_crossings_the_estimate_is_the_exact_count(words: list[str]) -> None:
    # A plus: two lights crossing once, so the estimate's independence is exact.
    rows = ("#.#", "...", "#.#")
    estimate = FillEstimate(from_words(words)).log_fills(make_grid(rows, "plane"), 3)
    assert math.isclose(math.exp(estimate), fills_counted(rows, words), rel_tol=1e-9)


@settings(max_examples=20, deadline=None)
@given(WORDS)
def test_a_ring_of_crossings_is_impossible_exactly_when_estimated_so_and_barred_words_lower_it(
        words: list[str]) -> None:
    # Four lights around a square: its crossings are not independent, but a crossing no two
    # words can agree on (estimate -inf) still means no fill, and a fill means some agreement.
    rows = ("...", ".#.", "...")
    grid = make_grid(rows, "plane")
    estimate = FillEstimate(from_words(words))
    value = estimate.log_fills(grid, 3)
    assert (value == -math.inf) <= (fills_counted(rows, words) == 0)
    if len(words) > 1 and math.isfinite(value):
        lower = value - 4 * (math.log(len(words)) - math.log(len(words) - 1))
        assert math.isclose(estimate.log_fills(grid, 3, {3: 1}), lower, abs_tol=1e-9)
    assert estimate.log_fills(grid, 3, {3: len(words)}) == -math.inf


def test_a_pack_hands_out_the_grids_expected_to_fill_first() -> None:
    small = CrosswordPackSpec(count=30, width=11, height=5).plan()
    assert small.walk.window == 1  # little room: each attempt moves the walk on by one grid
    spec = CrosswordPackSpec(count=30, width=9, height=7, surface="torus")
    plan = spec.plan()
    walk, estimate = plan.walk, FillEstimate(spec.words())
    assert walk.window > 1  # room for many more grids than the pack needs: each attempt chooses
    for index in range(8):
        job = plan.job_input(index, 0).assignment
        chosen = estimate.log_fills(make_grid(job.rows, spec.surface), spec.min_length)
        # the best of the grids drawn so far, after moving the walk on by its window
        passed_over = walk.waiting()
        assert chosen >= EASY_LOG_FILLS and passed_over and max(passed_over) <= chosen
        assert walk.drawn >= (index + 1) * walk.window


def test_a_puzzles_first_attempts_get_a_share_of_the_budget_in_a_large_space_even_on_a_grid_that_filled() -> None:
    large = CrosswordPackSpec(count=30, width=9, height=7, surface="torus").plan()
    first = large.job_input(0, 0).assignment
    refused = {"rows": list(first.rows)}  # filled, but refused: the next attempt keeps the grid
    for attempt, share in ((1, FIRST_TRY_SHARE), (FULL_BUDGET_AFTER, 1.0)):
        large.failed(0, "answers taken", puzzle=refused, proven=False)
        job = large.job_input(0, attempt).assignment
        assert job.pattern == first.pattern and large.walk.fills(job.pattern) > 0 and job.budget_share == share
    assert first.budget_share == FIRST_TRY_SHARE
    listed = CrosswordPackSpec(count=10, width=7, height=5).plan()  # a space of four grids, listed exactly
    assert listed.survey.exact and listed.job_input(0, 0).assignment.budget_share == 1.0


def test_grids_expected_to_fill_too_rarely_are_tried_only_while_no_grid_has_filled(
        monkeypatch: pytest.MonkeyPatch) -> None:
    spec = CrosswordPackSpec(count=10, width=7, height=5)  # a space small enough to list
    for filled in (True, False):
        survey = spec.plan().survey
        estimate = FillEstimate(spec.words())
        monkeypatch.setattr(estimate, "log_fills", lambda grid, *_: HOPELESS_LOG_FILLS - 1)
        notes: list[str] = []
        walk = GridWalk(survey, estimate, spec.min_length, 1, notes.append)
        first = walk.next_grid(0, frozenset())  # every grid hopeless and none filled yet: the walk goes on
        grids = len(survey.order)
        assert survey.exact and first == survey.order[0] and walk.drawn == grids
        if filled:
            walk.accepted(0)
            chosen = walk.next_grid(1, frozenset())
            assert chosen == first and len(walk.waiting()) == grids - 1 and walk.exhausted
            assert notes == [f"every grid likely to fill has been tried (1, of which 1 filled; {grids - 1} others "
                             "are expected to fill too rarely): grids now repeat, each with a new fill"]
        else:
            walk.failed(0, proven=False)
            chosen = walk.next_grid(1, frozenset())
            assert chosen == survey.order[1] and len(walk.waiting()) == grids - 2 and not walk.exhausted and not notes
            assert walk.retired == {first}  # it never filled


def test_a_lane_with_no_grid_likely_to_fill_is_left_for_the_grids_of_the_other_lanes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    spec = CrosswordPackSpec(count=30, width=11, height=5)  # drawn, not listed: little room per puzzle
    survey = spec.plan().survey
    first_key = survey.order[0]
    estimate = FillEstimate(spec.words())
    # the walk's first grid fills; every other grid is hopeless
    monkeypatch.setattr(estimate, "log_fills", lambda grid, *_: EASY_LOG_FILLS if canonical_key(grid) == first_key
                        else HOPELESS_LOG_FILLS - 1)
    notes: list[str] = []
    walk = GridWalk(survey, estimate, spec.min_length, 1, notes.append)
    assert walk.next_grid(0, frozenset()) == first_key
    walk.accepted(0)
    start = survey.draws
    walk.next_grid(1, frozenset())
    # drawing stopped soon after DRY_LANE_DRAWS (not at the survey's limit), and the other lanes' grids,
    # drawn meanwhile, were walked
    assert survey.complete and survey.draws - start < 4 * DRY_LANE_DRAWS
    assert any(lane_of(key) != survey.lane for key in survey.order[:walk.drawn])
    assert notes[0].startswith("the pack's share of the grids ran dry after")
