"""Grid patterns: every generated pattern passes the independent checker, the
checker reports each rule broken by a hand-made grid, generation is
deterministic per seed, and impossible specs fail with a clear PatternError."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mobius.cpmodel.crossword.grid import Grid, make_grid
from mobius.cpmodel.crossword.lights import find_lights
from mobius.generators.crossword.pattern_layout import layout_of
from mobius.generators.crossword.pattern_check import check_pattern
from mobius.generators.crossword.pattern_rules import PatternError, PatternSpec, concrete_symmetries
from mobius.generators.crossword.pattern_search import pattern_problem
from mobius.generators.crossword.patterns import generate_pattern, generate_pattern_with_stats

# The benchmark sizes, small ones repeated so that a surface gets 100 patterns
# in a few seconds; 15×15 appears in its own test.
SMALL_SIZES = [(5, 8), (7, 5), (9, 5), (11, 5), (11, 7), (13, 7), (15, 7)]
PATTERNS_PER_SURFACE = 100
ANY = (0.0, 1.0)  # a density range that never objects, to isolate another rule


def rules_broken(grid: Grid, spec: PatternSpec) -> set[str]:
    return {message.split(":")[0] for message in check_pattern(grid, spec)}


# --- generated patterns ------------------------------------------------------------

@pytest.mark.parametrize("surface", ["mobius", "cylinder", "torus", "klein", "plane", "projective"])
def test_seeded_patterns_pass_the_checker(surface: str) -> None:
    for seed in range(PATTERNS_PER_SURFACE):
        width, height = SMALL_SIZES[seed % len(SMALL_SIZES)]
        spec = PatternSpec(width, height, surface)
        grid = generate_pattern(spec, seed)
        assert check_pattern(grid, spec) == [], (spec, seed, grid.rows)


@pytest.mark.parametrize("surface", ["mobius", "torus", "plane"])
def test_fifteen_by_fifteen_patterns_pass_the_checker(surface: str) -> None:
    spec = PatternSpec(15, 15, surface)
    for seed in range(5):
        assert check_pattern(generate_pattern(spec, seed), spec) == []


@given(width=st.integers(3, 11), height=st.integers(3, 9),
       surface=st.sampled_from(["plane", "cylinder", "mobius", "torus", "klein", "projective", "mobius-v"]),
       min_length=st.integers(2, 4), checked=st.booleans(), symmetry=st.sampled_from(["rot180", "mirror", "none"]),
       allow_cyclic=st.booleans(), max_seam_crossings=st.sampled_from([None, 0, 1, 2]),
       style=st.sampled_from(["blocks", "barred"]), seed=st.integers(0, 2**32))
@settings(max_examples=40, deadline=None)
def test_any_spec_gives_a_valid_pattern_or_a_pattern_error(width: int, height: int, surface: str, min_length: int,
                                                           checked: bool, symmetry: str, allow_cyclic: bool,
                                                           max_seam_crossings: int | None, style: str,
                                                           seed: int) -> None:
    spec = PatternSpec(width, height, surface, min_length=min_length, checked=checked, symmetry=symmetry,
                       allow_cyclic=allow_cyclic, max_seam_crossings=max_seam_crossings, style=style)
    try:
        grid = generate_pattern(spec, seed)
    except PatternError as exc:
        assert str(exc).startswith("no "), str(exc)
        return
    assert check_pattern(grid, spec) == []


def test_options_are_honoured() -> None:
    cases = [PatternSpec(11, 7, "mobius", max_seam_crossings=1), PatternSpec(13, 7, "klein", max_seam_crossings=1),
             PatternSpec(11, 7, "cylinder", max_seam_crossings=0),
             PatternSpec(9, 9, "plane", checked=False), PatternSpec(11, 5, "mobius", symmetry="mirror"),
             PatternSpec(11, 7, "torus", symmetry="none"), PatternSpec(7, 5, "cylinder", allow_cyclic=True),
             PatternSpec(12, 12, "plane", style="barred", checked=False), PatternSpec(11, 5, "mobius", style="barred")]
    for spec in cases:
        for seed in range(3):
            grid = generate_pattern(spec, seed)
            assert check_pattern(grid, spec) == [], (spec, seed)
            if spec.style == "barred":
                assert not grid.blocks and (grid.bars_right or grid.bars_below)


def test_odd_height_mobius_cuts_its_middle_row_with_a_whole_column() -> None:
    # The middle row of an odd-height strip is a loop of its own; on height 5
    # a block there leaves two-cell runs above and below unless the whole
    # column is blocked, so every checked pattern has a full block column.
    for seed in range(10):
        grid = generate_pattern(PatternSpec(11, 5, "mobius"), seed)
        assert any(all(grid.is_block((x, y)) for y in range(5)) for x in range(11)), grid.rows


def test_same_seed_same_pattern_and_seeds_vary() -> None:
    spec = PatternSpec(11, 7, "mobius")
    assert generate_pattern(spec, 42) == generate_pattern(spec, 42)
    assert len({generate_pattern(spec, seed).rows for seed in range(10)}) >= 8


def test_stats_count_the_attempts() -> None:
    grid, stats = generate_pattern_with_stats(PatternSpec(7, 5, "cylinder"), 3)
    assert grid == generate_pattern(PatternSpec(7, 5, "cylinder"), 3)
    assert stats.pattern_attempts >= 1 and stats.rejected_moves >= 0


# --- impossible and malformed specs -----------------------------------------------

def test_no_room_for_long_lights_fails_at_once() -> None:
    with pytest.raises(PatternError, match="no 3x3 plane .*no white cell can lie in both an across and a down light"):
        generate_pattern(PatternSpec(3, 3, "plane", min_length=4), 0)


def test_a_loop_that_cannot_be_cut_within_the_density_fails_after_bounded_attempts() -> None:
    # Cutting the middle row of a Möbius 11x5 takes a whole column: 5 blocks, 9 %.
    with pytest.raises(PatternError, match="found in 200 attempts.*no block could cut a light running all the way "
                                           "round the surface") as raised:
        generate_pattern(PatternSpec(11, 5, "mobius", density=(0.0, 0.05)), 0)
    assert raised.value.reason.startswith("all 200 attempts failed because")  # why, without the spec's rules


def test_a_density_range_without_a_whole_number_of_blocks_fails() -> None:
    with pytest.raises(PatternError, match="no whole number of blocks"):
        generate_pattern(PatternSpec(3, 3, "plane", density=(0.12, 0.2)), 0)


@pytest.mark.parametrize("kwargs, message", [
    ({"surface": "moon"}, "unknown surface"),
    ({"symmetry": "spiral"}, "unknown symmetry"),
    ({"symmetry": "diagonal", "width": 7, "height": 5}, "symmetry diagonal needs a square block grid"),
    ({"density": (0.5, 0.2)}, "density must be"),
    ({"min_length": 0}, "min_length"),
    ({"max_seam_crossings": -1}, "max_seam_crossings"),
    ({"style": "cryptic"}, "unknown style"),
    ({"width": 0}, "width 0"),
])
def test_malformed_specs_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(PatternError, match=message):
        PatternSpec(**{"width": 5, "height": 5, "surface": "plane", **kwargs})


# --- the checker on hand-made grids ----------------------------------------------

def test_checker_accepts_a_valid_grid() -> None:
    grid = make_grid(["#...#", ".....", ".....", ".....", "#...#"], "plane")
    assert check_pattern(grid, PatternSpec(5, 5, "plane")) == []


def test_checker_reports_asymmetry() -> None:
    grid = make_grid(["#....", ".....", ".....", ".....", "....."], "plane")
    assert rules_broken(grid, PatternSpec(5, 5, "plane", density=ANY)) == {"symmetry"}
    assert check_pattern(grid, PatternSpec(5, 5, "plane", density=ANY, symmetry="none")) == []


def test_checker_reports_mirror_asymmetry() -> None:
    grid = make_grid(["#...#", ".....", ".....", ".....", "....#"], "plane")
    assert rules_broken(grid, PatternSpec(5, 5, "plane", density=ANY, symmetry="mirror")) == {"symmetry"}


def test_checker_reports_a_two_letter_light() -> None:
    grid = make_grid(["..#..", ".....", ".....", ".....", "..#.."], "plane")
    assert rules_broken(grid, PatternSpec(5, 5, "plane", checked=False, density=ANY)) == {"length"}
    # Checked, its cells are also in no across light.
    assert rules_broken(grid, PatternSpec(5, 5, "plane", density=ANY)) == {"length", "checked"}


def test_checker_reports_an_unchecked_cell() -> None:
    grid = make_grid(["...", ".#.", "..."], "plane")
    assert rules_broken(grid, PatternSpec(3, 3, "plane")) == {"checked"}
    assert check_pattern(grid, PatternSpec(3, 3, "plane", checked=False)) == []


def test_checker_reports_disconnected_white_cells_but_follows_the_glue() -> None:
    rows = ["...#...", "...#...", "...#..."]
    # (and on the plane its column of blocks is a dead line)
    assert rules_broken(make_grid(rows, "plane"), PatternSpec(7, 3, "plane")) == {"connected", "edges"}
    # On a cylinder the two halves meet across the seam.
    assert check_pattern(make_grid(rows, "cylinder"), PatternSpec(7, 3, "cylinder")) == []


def test_checker_reports_a_row_of_blocks_on_the_plane_only() -> None:
    rows = ["#####", ".....", ".....", ".....", "....."]
    spec = PatternSpec(5, 5, "plane", symmetry="mirror", density=ANY)
    assert rules_broken(make_grid(rows, "plane"), spec) == {"edges"}
    assert pattern_problem(make_grid(rows, "plane"), spec) == "a row or column would be all blocks"
    assert check_pattern(make_grid(rows, "cylinder"), PatternSpec(5, 5, "cylinder", symmetry="mirror",
                                                                  density=ANY, allow_cyclic=True)) == []


def test_any_symmetry_takes_each_of_its_symmetries_and_no_other() -> None:
    spec = PatternSpec(5, 5, "plane", symmetry="any", density=ANY)
    for rows in (["#....", ".....", ".....", ".....", "....#"],  # rot180 and diagonal
                 ["#...#", ".....", ".....", ".....", "....."],  # mirror
                 ["##...", "#....", ".....", ".....", "....."]):  # diagonal only
        assert check_pattern(make_grid(rows, "plane"), spec) == [], rows
        assert pattern_problem(make_grid(rows, "plane"), spec) is None, rows
    lopsided = make_grid(["##...", ".....", ".....", ".....", "....."], "plane")
    assert rules_broken(lopsided, spec) == {"symmetry"}
    assert pattern_problem(lopsided, spec) == "not rot180 or mirror or diagonal symmetric"
    # on a glued surface "any" leaves the diagonal out: the transpose does not keep the glue
    assert concrete_symmetries(PatternSpec(5, 5, "mobius", symmetry="any", density=ANY)) == ("rot180", "mirror")


def test_checker_reports_a_cyclic_light() -> None:
    grid = make_grid(["....", "....", "...."], "mobius")  # rows 0+2 and row 1 are loops
    spec = PatternSpec(4, 3, "mobius", density=ANY)
    problems = check_pattern(grid, spec)
    assert [p.split(":")[0] for p in problems] == ["cyclic", "cyclic"]
    assert check_pattern(grid, PatternSpec(4, 3, "mobius", density=ANY, allow_cyclic=True)) == []


def test_checker_reports_too_many_seam_crossings() -> None:
    # One block on row 0 of a Möbius 5x4: rows 0 and 3 form one light crossing
    # the seam twice; rows 1 and 2 stay a loop that crosses it twice too.
    grid = make_grid(["..#..", ".....", ".....", "....."], "mobius")
    spec = PatternSpec(5, 4, "mobius", symmetry="none", allow_cyclic=True, density=ANY, max_seam_crossings=1)
    problems = check_pattern(grid, spec)
    assert [p.split(":")[0] for p in problems] == ["seams", "seams"]
    assert check_pattern(grid, PatternSpec(5, 4, "mobius", symmetry="none", allow_cyclic=True, density=ANY,
                                           max_seam_crossings=2)) == []


def test_checker_reports_density_out_of_range() -> None:
    grid = make_grid(["....."] * 5, "plane")
    problems = check_pattern(grid, PatternSpec(5, 5, "plane"))
    assert len(problems) == 1 and problems[0].startswith("density: 0 blocks in 25 cells")


def test_checker_reports_size_and_style() -> None:
    rows = ["#...#", ".....", ".....", ".....", "#...#"]
    border_bar = make_grid(rows, "plane", bars_right=[(4, 2)])
    assert rules_broken(border_bar, PatternSpec(5, 5, "plane")) == {"style"}
    assert rules_broken(border_bar, PatternSpec(5, 6, "plane")) == {"size", "style"}
    seam_bars = make_grid(["....."] * 5, "cylinder", bars_right=[(4, y) for y in range(5)])
    assert rules_broken(seam_bars, PatternSpec(5, 5, "cylinder", density=ANY)) == {"style"}  # bars in a blocks grid
    assert "style" in rules_broken(make_grid(rows, "plane"), PatternSpec(5, 5, "plane", style="barred", density=ANY))


def test_checker_maps_bars_by_the_symmetry_including_seam_bars() -> None:
    spec = PatternSpec(6, 6, "plane", style="barred", density=ANY)
    one_bar = make_grid(["......"] * 6, "plane", bars_right=[(2, 0)])
    assert rules_broken(one_bar, spec) == {"symmetry"}
    pair = make_grid(["......"] * 6, "plane", bars_right=[(2, 0), (2, 5)])
    assert check_pattern(pair, spec) == []
    # On a Möbius strip the seam edge right of (5, y) joins (0, 2−y): rotation maps it to itself.
    seam_bars = make_grid(["......"] * 3, "mobius", bars_right=[(5, 0), (5, 1)])
    assert check_pattern(seam_bars, PatternSpec(6, 3, "mobius", style="barred", density=ANY)) == []


@pytest.mark.parametrize("surface", ["mobius", "cylinder", "torus", "klein", "plane"])
def test_max_length_caps_every_light(surface: str) -> None:
    spec = PatternSpec(15, 7, surface, max_seam_crossings=1, max_length=9)
    for seed in range(30):
        grid = generate_pattern(spec, seed)
        assert check_pattern(grid, spec) == []
        assert max(light.length for light in find_lights(grid, 3).lights) <= 9


def test_checker_reports_a_light_over_the_length_limit() -> None:
    grid = make_grid(["......", "......", "......"], "plane")
    problems = check_pattern(grid, PatternSpec(6, 3, "plane", density=(0.0, 1.0), max_length=5))
    assert any(p.startswith("length:") and "more than 5" in p for p in problems)
    with pytest.raises(PatternError, match="max_length 2 is below min_length 3"):
        PatternSpec(6, 3, "plane", max_length=2)


# --- the rules that make a glued grid use its surface -------------------------------

def pack_rules(width: int, height: int, surface: str) -> PatternSpec:
    return PatternSpec(width, height, surface, max_seam_crossings=1, max_length=max(width, height),
                       min_seam_lights=0 if surface == "plane" else 2, max_short_share=0.25, allow_clutter=False)


@pytest.mark.parametrize("surface", ["mobius", "cylinder", "torus", "klein", "plane", "projective"])
def test_patterns_under_the_pack_rules_pass_the_checker(surface: str) -> None:
    for seed in range(30):
        width, height = SMALL_SIZES[seed % len(SMALL_SIZES)]
        spec = pack_rules(width, height, surface)
        try:
            grid = generate_pattern(spec, seed)
        except PatternError:
            continue  # a size these rules rule out (e.g. 7×5 on the torus): checked elsewhere
        assert check_pattern(grid, spec) == [], (spec, seed, grid.rows)
        lights = find_lights(grid, 3).lights
        if surface != "plane":
            assert sum(1 for light in lights if light.seam_crossings) >= 2
        assert sum(1 for light in lights if light.length <= 3) <= 0.25 * len(lights)


def test_checker_reports_too_few_seam_lights() -> None:
    # Blocks down both edge columns: nothing crosses the Möbius seam.
    grid = make_grid(["#...#", "#...#", "#...#"], "mobius")
    spec = PatternSpec(5, 3, "mobius", density=ANY, min_seam_lights=2)
    assert rules_broken(grid, spec) == {"seam-lights"}
    assert check_pattern(grid, PatternSpec(5, 3, "mobius", density=ANY)) == []


def test_checker_reports_too_many_short_lights() -> None:
    grid = make_grid(["...#...", ".......", "...#..."], "plane")  # 10 of its 11 lights have 3 letters
    assert rules_broken(grid, PatternSpec(7, 3, "plane", checked=False, density=ANY, max_short_share=0.25)) == {"short"}
    assert check_pattern(grid, PatternSpec(7, 3, "plane", checked=False, density=ANY, max_short_share=0.95)) == []


def test_checker_reports_a_row_of_three_letter_clutter() -> None:
    grid = make_grid(["...#...", ".......", "...#..."], "plane")
    spec = PatternSpec(7, 3, "plane", checked=False, density=ANY, allow_clutter=False)
    problems = check_pattern(grid, spec)
    assert [p.split(":")[0] for p in problems] == ["clutter", "clutter"]  # rows 0 and 2, not the full row 1
    assert check_pattern(grid, PatternSpec(7, 3, "plane", checked=False, density=ANY)) == []


def test_a_seam_rule_on_a_surface_without_a_seam_is_refused() -> None:
    with pytest.raises(PatternError, match="the plane has no seam"):
        PatternSpec(9, 9, "plane", min_seam_lights=2)
    with pytest.raises(PatternError, match="no light may cross"):
        PatternSpec(9, 5, "mobius", min_seam_lights=1, max_seam_crossings=0)


@pytest.mark.parametrize("surface", ["projective", "klein", "mobius", "torus"])
@pytest.mark.parametrize(("width", "height"), [(4, 5), (5, 4), (3, 3), (7, 5)])
def test_a_mirror_or_a_half_turn_keeps_each_edge_on_its_axis(surface: str, width: int, height: int) -> None:
    # On a small projective plane two cells can be neighbours across and down at once: the image of an
    # across edge is still an across edge, or a barred grid's bars lose their symmetry.
    for symmetry in ("mirror", "rot180"):
        layout = layout_of(width, height, surface, symmetry)
        assert all(key % 2 == image % 2 for key, image in layout.edge_image.items())
        assert all(layout.edge_image[image] == key for key, image in layout.edge_image.items())
