"""Tests for the annealer of block patterns (`generators/crossword/pattern_anneal.py`).

Covers: the kernel's rules against the generator's own judgement
(`pattern_search.pattern_problem`) on random and nearly valid grids of every
surface (hypothesis: any grid, the kernel finds no fault exactly when the
judgement finds none), its ln E against `FillEstimate` on the same word
statistics, and the annealer itself: a valid grid in, a valid grid out, the
same for the same seed, other seeds other grids, and higher ln E than the
grid it started from on the 15×15 American rules.

Leaves out: how readily the grids fill (benchmarks/RESULTS.md, "Grids drawn
for fill") and the packs that use them (test_pack.py).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mobius.cpmodel.crossword.grid import Grid
from mobius.cpmodel.surface import surface
from mobius.generators.crossword import pattern_anneal
from mobius.generators.crossword.american import american_rules
from mobius.generators.crossword.pattern_anneal import anneal_pattern, rule_violations
from mobius.generators.crossword.pattern_layout import layout_of
from mobius.generators.crossword.pattern_rules import PatternSpec
from mobius.generators.crossword.pattern_search import pattern_problem, search_pattern

SPECS = [
    PatternSpec(15, 15, "plane", max_short_share=0.25, allow_clutter=False, **american_rules(15, 15)),
    PatternSpec(11, 5, "mobius", symmetry="none", density=(0.1, 0.3), max_length=11, max_seam_crossings=1,
                min_seam_lights=2, max_short_share=0.25, allow_clutter=False),
    PatternSpec(9, 7, "torus", symmetry="none", density=(0.1, 0.3), max_length=9, max_seam_crossings=1,
                min_seam_lights=2, max_short_share=0.25, allow_clutter=False),
    PatternSpec(9, 7, "klein", symmetry="none", density=(0.1, 0.3), max_length=9, max_seam_crossings=1,
                min_seam_lights=2),
    PatternSpec(9, 7, "projective", symmetry="none", density=(0.1, 0.3), max_length=9, max_seam_crossings=1),
    PatternSpec(9, 7, "cylinder", symmetry="none", density=(0.1, 0.3), max_seam_crossings=2, min_seam_lights=1),
    PatternSpec(7, 7, "plane", symmetry="mirror", density=(0.0, 0.3), checked=False, min_length=2),
    PatternSpec(9, 9, "plane", density=(0.1, 0.3), max_words=30, max_block_squares=1),
    PatternSpec(8, 6, "mobius", density=(0.05, 0.3), allow_cyclic=True),
    # specs whose valid grids sit at the edge of one rule: a light crossing the seam twice, few seam
    # lights, block squares
    PatternSpec(6, 4, "mobius", symmetry="none", density=(0.05, 0.4), max_seam_crossings=1),
    PatternSpec(8, 5, "torus", symmetry="none", density=(0.1, 0.3), min_seam_lights=7),
    PatternSpec(9, 9, "plane", symmetry="none", density=(0.25, 0.4), max_block_squares=1, min_length=2),
]


def _grid(spec: PatternSpec, blocked: list[bool]) -> Grid:
    w = spec.width
    rows = tuple("".join("#" if blocked[y * w + x] else "." for x in range(w)) for y in range(spec.height))
    return Grid(rows, surface(spec.surface))


@st.composite
def spec_and_grid(draw: st.DrawFn) -> tuple[PatternSpec, Grid]:
    """A spec, and a grid near one of its valid patterns (a few symmetric cells toggled) or a random symmetric one."""
    spec = draw(st.sampled_from(SPECS))
    layout = layout_of(spec.width, spec.height, surface(spec.surface).name, spec.symmetry)
    n = spec.width * spec.height
    if draw(st.booleans()):
        start, _ = search_pattern(spec, draw(st.integers(0, 3)))
        blocked = [ch == "#" for row in start.rows for ch in row]
        toggles = draw(st.lists(st.integers(0, n - 1), max_size=2))
    else:
        blocked = [False] * n
        toggles = draw(st.lists(st.integers(0, n - 1), max_size=n // 3))
    for cell in toggles:
        value = not blocked[cell]
        blocked[cell] = blocked[layout.cell_image[cell]] = value
    return spec, _grid(spec, blocked)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec_and_grid())
def test_the_kernel_finds_a_fault_exactly_when_the_judgement_does(case: tuple[PatternSpec, Grid]) -> None:
    spec, grid = case
    violations, _ = rule_violations(grid, spec)
    assert (violations == 0) == (pattern_problem(grid, spec) is None), (pattern_problem(grid, spec), grid.rows)


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: f"{spec.width}x{spec.height}-{spec.surface}")
def test_every_single_move_from_valid_grids_is_judged_alike(spec: PatternSpec) -> None:
    # Each rule is broken, or kept, by some move of one block (and its image) from a valid grid.
    layout = layout_of(spec.width, spec.height, surface(spec.surface).name, spec.symmetry)
    for seed in range(3):
        start, _ = search_pattern(spec, seed)
        blocked = [ch == "#" for row in start.rows for ch in row]
        for cell in range(len(blocked)):
            moved = list(blocked)
            moved[cell] = moved[layout.cell_image[cell]] = not blocked[cell]
            grid = _grid(spec, moved)
            problem = pattern_problem(grid, spec)
            assert (rule_violations(grid, spec)[0] == 0) == (problem is None), (problem, grid.rows)


# Grids at the edge of one rule: (surface, rows, the rule's field, the most it holds, other spec fields).
EDGES = [
    ("plane", (".....",) * 5, "max_words", 10, {}),
    ("plane", ("##..##", "##..##", "......", "......", "......", "......"), "max_block_squares", 2,
     {"min_length": 2}),
    # across: (3,0) crosses to row 2, crosses back to row 0 and stops at the block (2,0): two crossings
    ("mobius", ("..#.", ".#..", "...."), "max_seam_crossings", 2, {"min_length": 2, "checked": False}),
]


@pytest.mark.parametrize(("surface_name", "rows", "field", "most", "others"), EDGES, ids=lambda v: str(v)[:20])
def test_a_grid_at_a_rules_edge_is_judged_alike_on_both_sides(surface_name: str, rows: tuple[str, ...],
                                                              field: str, most: int, others: dict) -> None:
    for limit, keeps in ((most, True), (most - 1, False)):
        spec = PatternSpec(len(rows[0]), len(rows), surface_name, symmetry="none", density=(0.0, 0.5),
                           **{field: limit, **others})
        grid = Grid(rows, surface(surface_name))
        assert (pattern_problem(grid, spec) is None) == keeps
        assert (rule_violations(grid, spec)[0] == 0) == keeps


def test_its_estimate_is_the_fill_estimate_of_the_same_words() -> None:
    estimate = pattern_anneal._default_estimate()
    for spec in SPECS[:3]:
        grid, _ = search_pattern(spec, 1)
        _, score = rule_violations(grid, spec)
        assert score == pytest.approx(estimate.log_fills(grid, spec.min_length), abs=1e-6)


@pytest.mark.parametrize("spec", SPECS[:3], ids=lambda spec: f"{spec.width}x{spec.height}-{spec.surface}")
def test_an_annealed_grid_keeps_the_rules_and_its_seed(spec: PatternSpec) -> None:
    start, _ = search_pattern(spec, 5)
    grids = [anneal_pattern(start, spec, seed) for seed in range(6)]
    for grid in grids:
        assert pattern_problem(grid, spec) is None
    assert anneal_pattern(start, spec, 0) == grids[0]
    # Two seeds may climb to one grid where the rules leave few good ones; the noise still spreads six.
    assert len(set(grids)) > 1


def test_annealing_raises_the_estimate_of_american_grids() -> None:
    spec = SPECS[0]
    gains = []
    for seed in range(4):
        start, _ = search_pattern(spec, seed)
        before = rule_violations(start, spec)[1]
        after = rule_violations(anneal_pattern(start, spec, seed), spec)[1]
        assert after > -math.inf
        gains.append(after - before)
    assert min(gains) > 0 and sorted(gains)[len(gains) // 2] > 10
