"""The pattern space: canonical keys are the same for every symmetric image
of a grid on its surface and differ for different grids; the enumeration of
a small space lists exactly the patterns a brute-force search finds with the
independent checker; a pack's survey is deterministic, gives distinct grids,
keeps packs of seeds 0 and 1 apart where the space is large, and says when a
small space is used up."""

from __future__ import annotations

import itertools

import pytest

from mobius.cpmodel.crossword.grid import Grid, make_grid
from mobius.cpmodel.crossword.lights import find_lights
from mobius.cpmodel.surface import Direction, step, surface
from mobius.generators.executors import make_executor
from mobius.generators.pack import derive_seed
from mobius.generators.crossword.pattern_check import check_pattern
from mobius.generators.crossword.pattern_enumeration import enumerate_patterns
from mobius.generators.crossword.pattern_space import (DRAW_BATCH, DRAWS_AHEAD, PATTERN_LANES, PatternSurvey, canonical_key, lane_of,
                                     symmetry_count)
from mobius.generators.crossword.pattern_rules import PatternSpec, symmetric_cell
from mobius.generators.crossword.patterns import generate_pattern


def pack_rules(width: int, height: int, surface_name: str, **changes: object) -> PatternSpec:
    rules = dict(max_seam_crossings=1, max_length=max(width, height), min_seam_lights=2, max_short_share=0.25,
                 allow_clutter=False)
    return PatternSpec(width, height, surface_name, **{**rules, **changes})


def moved(grid: Grid, cell_map) -> Grid:
    """The grid with the block of each cell moved to cell_map(cell)."""
    rows = [["."] * grid.width for _ in range(grid.height)]
    for cell in grid.blocks:
        x, y = cell_map(cell)
        rows[y][x] = "#"
    return make_grid(["".join(r) for r in rows], grid.surface)


def along(grid: Grid, direction: Direction, steps: int):
    def cell_map(cell):
        for _ in range(steps):
            cell = step(grid.surface, grid.width, grid.height, cell, direction).cell
        return cell
    return cell_map


@pytest.mark.parametrize("name, width, height", [("mobius", 11, 5), ("torus", 9, 7), ("cylinder", 11, 5),
                                                 ("klein", 9, 6), ("plane", 9, 9)])
def test_every_image_of_a_grid_on_its_surface_has_its_key(name: str, width: int, height: int) -> None:
    spec = PatternSpec(width, height, name, symmetry="none", density=(0.15, 0.3))
    grid = generate_pattern(spec, 5)
    key = canonical_key(grid)
    images = [moved(grid, lambda c: (width - 1 - c[0], c[1])), moved(grid, lambda c: (c[0], height - 1 - c[1]))]
    if surface(name).left_right.value != "border":
        images += [moved(grid, along(grid, Direction.RIGHT, k)) for k in (1, 3, width)]
    if surface(name).top_bottom.value == "plain" and surface(name).left_right.value != "flip":
        images += [moved(grid, along(grid, Direction.DOWN, k)) for k in (1, 2)]
    assert all(canonical_key(image) == key for image in images)
    assert len({image.rows for image in images}) > 1  # the images really are other rectangles


def test_different_grids_have_different_keys() -> None:
    grids = [generate_pattern(pack_rules(9, 7, "torus"), seed) for seed in range(40)]
    by_key: dict[str, set] = {}
    for grid in grids:
        lengths = tuple(sorted(light.length for light in find_lights(grid, 3).lights))
        by_key.setdefault(canonical_key(grid), set()).add(lengths)
    assert len(by_key) > 30
    # Grids with one key have the same lights (the key is a true invariant; lengths are one witness).
    assert all(len(lengths) == 1 for lengths in by_key.values())
    plain = make_grid(["...#...", ".......", "...#..."], "plane")
    shifted = make_grid(["..#....", ".......", "....#.."], "plane")  # not a symmetry of the plane
    assert canonical_key(plain) != canonical_key(shifted)


def test_symmetry_groups_have_the_sizes_of_the_surfaces() -> None:
    assert symmetry_count("mobius", 11, 5) == 4 * 11  # 2W shifts along the strip, each mirrored
    assert symmetry_count("cylinder", 11, 5) == 4 * 11  # W shifts, two mirrors
    assert symmetry_count("torus", 9, 7) == 4 * 9 * 7
    assert symmetry_count("plane", 9, 7) == 4 and symmetry_count("plane", 9, 9) == 8
    assert symmetry_count("projective", 9, 7) == 4  # no shift respects both flipped glues


def brute_force(spec: PatternSpec) -> set[tuple[str, ...]]:
    """Every rot180-symmetric block pattern that the independent checker accepts."""
    w, h = spec.width, spec.height
    orbits = sorted({frozenset({c, symmetric_cell(spec.symmetry, w, h, c)}) for c in itertools.product(range(w),
                                                                                                        range(h))},
                    key=sorted)
    found = set()
    for choice in itertools.product((False, True), repeat=len(orbits)):
        blocks = set().union(*(o for o, take in zip(orbits, choice) if take))
        rows = tuple("".join("#" if (x, y) in blocks else "." for x in range(w)) for y in range(h))
        if check_pattern(make_grid(rows, spec.surface), spec) == []:
            found.add(rows)
    return found


ANY = (0.0, 1.0)


# Small enough for a brute force over every symmetric pattern (at most 2^13),
# and between them every rule: unchecked cells, two-letter lights, seam limits
# and seam lights, the short share and clutter, density.
@pytest.mark.parametrize("spec", [
    pack_rules(5, 5, "torus"), PatternSpec(5, 5, "plane"),
    PatternSpec(7, 3, "mobius", density=ANY, checked=False, min_seam_lights=2, max_seam_crossings=1),
    PatternSpec(7, 3, "projective", density=ANY, min_length=2, max_short_share=0.5, allow_clutter=False),
    PatternSpec(6, 4, "klein", density=ANY, min_length=2, max_length=5),
    PatternSpec(6, 4, "torus", density=ANY, checked=False, allow_cyclic=True, max_seam_crossings=1),
], ids=["torus-5x5-pack", "plane-5x5", "mobius-7x3-unchecked", "projective-7x3-short", "klein-6x4", "torus-6x4"])
def test_enumeration_lists_exactly_the_valid_patterns(spec: PatternSpec) -> None:
    listed = enumerate_patterns(spec)
    assert listed is not None
    assert {grid.rows for grid in listed} == brute_force(spec)


def test_a_large_space_is_not_listed() -> None:
    assert enumerate_patterns(pack_rules(15, 7, "mobius")) is None


def survey(spec: PatternSpec, seed: int) -> PatternSurvey:
    return PatternSurvey(spec, seed, lambda j: derive_seed(seed, "pattern", j))


def test_a_survey_is_deterministic_and_its_grids_distinct_and_valid() -> None:
    spec = pack_rules(9, 7, "torus")
    first, again = survey(spec, 3), survey(spec, 3)
    keys = [first.get(n)[0] for n in range(12)]
    assert keys == [again.get(n)[0] for n in range(12)]
    assert len(set(keys)) == 12 and all(lane_of(k) == 3 % PATTERN_LANES for k in keys)
    assert all(check_pattern(first.get(n)[1], spec) == [] for n in range(12))
    assert first.estimate() >= first.found


def test_packs_of_seeds_zero_and_one_draw_different_grids_from_a_large_space() -> None:
    spec = pack_rules(9, 7, "torus")
    zero, one = survey(spec, 0), survey(spec, 1)
    assert not {zero.get(n)[0] for n in range(15)} & {one.get(n)[0] for n in range(15)}


def test_a_small_space_is_counted_exactly_and_its_walk_ends() -> None:
    small = survey(pack_rules(7, 5, "mobius"), 0)
    assert small.exact and small.complete and small.found == 4 and small.estimate() == 4
    assert [small.get(n) is None for n in range(5)] == [False] * 4 + [True]
    own = [k for k in small.order if lane_of(k) == small.lane]
    assert small.order[:len(own)] == own  # the pack's own lane comes first
    assert survey(pack_rules(3, 3, "mobius"), 0).get(0) is None


@pytest.mark.parametrize("runner", ["inline", "local"])
def test_a_survey_drawing_ahead_where_the_jobs_run_walks_the_same_grids(runner: str) -> None:
    spec = pack_rules(9, 7, "torus")
    executor = make_executor("local", 1 if runner == "inline" else 2)
    try:
        ahead = PatternSurvey(spec, 3, lambda j: derive_seed(3, "pattern", j), executor)
        keys = [ahead.get(n)[0] for n in range(12)]
        assert ahead.started >= ahead.draws and ahead.started - ahead.draws <= DRAWS_AHEAD + DRAW_BATCH
    finally:
        executor.close()
    here = survey(spec, 3)
    assert keys == [here.get(n)[0] for n in range(12)] and ahead.draws == here.draws
