"""Lights follow the glue, stop at blocks, bars and borders, and are numbered
as printed puzzles number them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mobius.cpmodel.crossword.grid import Grid, make_grid
from mobius.cpmodel.crossword.lights import ACROSS, DOWN, find_lights
from mobius.cpmodel.surface import SURFACES, Direction, step


def lights_by_label(grid: Grid, min_length: int = 2) -> dict[str, tuple]:
    return {light.label: light for light in find_lights(grid, min_length).lights}


def test_seed_example_light_crosses_the_mobius_seam() -> None:
    grid = make_grid(["........", "......#.", "........", "........"], "mobius")
    found = lights_by_label(grid)
    # Row 1 runs (7,1) then (0,2): the right edge of row 1 continues on row 4-1-1 = 2.
    light = next(lt for lt in found.values() if (7, 1) in lt.cells and lt.direction == ACROSS)
    i = light.cells.index((7, 1))
    assert light.cells[i + 1] == (0, 2)
    assert light.seam_crossings == 2
    assert not light.cyclic


def test_mobius_row_pair_without_separator_is_one_cyclic_light() -> None:
    grid = make_grid(["....", "....", "...."], "mobius")
    across = [lt for lt in find_lights(grid).lights if lt.direction == ACROSS]
    assert [(lt.number, lt.length, lt.cyclic, lt.seam_crossings) for lt in across] == [(1, 8, True, 2), (5, 4, True, 1)]
    # The loop of rows 0 and 2 reads from (0, 0), its first cell in reading order.
    assert across[0].cells == ((0, 0), (1, 0), (2, 0), (3, 0), (0, 2), (1, 2), (2, 2), (3, 2))
    assert across[1].cells == ((0, 1), (1, 1), (2, 1), (3, 1))


def test_cylinder_row_is_a_loop_until_a_block_cuts_it() -> None:
    loop = make_grid(["...."], "cylinder")
    assert [(lt.cells, lt.cyclic) for lt in find_lights(loop).lights] == [(((0, 0), (1, 0), (2, 0), (3, 0)), True)]
    cut = make_grid([".#.."], "cylinder")
    assert [lt.cells for lt in find_lights(cut).lights] == [((2, 0), (3, 0), (0, 0))]


def test_bars_separate_lights_and_a_seam_bar_cuts_the_glue() -> None:
    grid = make_grid(["....", "...."], "torus", bars_right=[(1, 0), (3, 0), (3, 1)], bars_below=[(0, 1), (1, 1),
                                                                                           (2, 1), (3, 1), (2, 0)])
    found = find_lights(grid)
    across = sorted(lt.cells for lt in found.lights if lt.direction == ACROSS)
    assert across == [((0, 0), (1, 0)), ((0, 1), (1, 1), (2, 1), (3, 1)), ((2, 0), (3, 0))]
    down = sorted(lt.cells for lt in found.lights if lt.direction == DOWN)
    assert down == [((0, 0), (0, 1)), ((1, 0), (1, 1)), ((3, 0), (3, 1))]


def test_torus_down_light_wraps_to_the_top() -> None:
    grid = make_grid(["..", "#.", ".."], "torus")
    down = [lt for lt in find_lights(grid).lights if lt.direction == DOWN and (0, 2) in lt.cells]
    assert down[0].cells == ((0, 2), (0, 0)) and down[0].seam_crossings == 1


def test_projective_down_light_flips_column() -> None:
    grid = make_grid(["#..", "...", "..#"], "projective")
    light = next(lt for lt in find_lights(grid).lights if lt.direction == DOWN and (1, 0) in lt.cells)
    assert light.cyclic
    col = next(lt for lt in find_lights(grid).lights if lt.direction == DOWN and (0, 1) in lt.cells)
    # Down from (0, 2) leaves the bottom and enters the top at column 3-1-0 = 2.
    assert col.cells == ((0, 1), (0, 2), (2, 0), (2, 1)) and col.seam_crossings == 1


def test_numbering_reading_order_one_number_per_start_cell() -> None:
    grid = make_grid(["...#", "....", "#..."], "plane")
    found = lights_by_label(grid)
    assert sorted(found) == ["1A", "1D", "2D", "3D", "4A", "5D", "6A"]
    assert found["1A"].cells[0] == found["1D"].cells[0] == (0, 0)
    assert found["4A"].cells == ((0, 1), (1, 1), (2, 1), (3, 1))
    assert found["5D"].cells == ((3, 1), (3, 2))
    assert found["6A"].cells[0] == (1, 2)


def test_min_length_and_unchecked_cells() -> None:
    grid = make_grid(["..#..", ".....", "..#.."], "plane")
    two = find_lights(grid, 2)
    assert two.unchecked == ((2, 1),)
    three = find_lights(grid, 3)
    assert {lt.length for lt in three.lights} == {3, 5}
    assert set(three.unchecked) == {(0, 0), (1, 0), (3, 0), (4, 0), (0, 2), (1, 2), (3, 2), (4, 2), (2, 1)}


def test_crossings_list_every_shared_cell() -> None:
    grid = make_grid(["...", "...", "..."], "plane")
    found = find_lights(grid)
    assert len(found.crossings) == 9
    for c in found.crossings:
        assert found.lights[c.light_a].cells[c.pos_a] == c.cell == found.lights[c.light_b].cells[c.pos_b]


def test_json_shape() -> None:
    data = find_lights(make_grid(["..", ".."], "mobius")).to_json()
    assert set(data) == {"width", "height", "surface", "lights", "unchecked"}
    assert set(data["lights"][0]) == {"number", "direction", "cells", "length", "seam_crossings", "cyclic"}


@st.composite
def grids(draw: st.DrawFn) -> Grid:
    w, h = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    rows = ["".join(draw(st.lists(st.sampled_from("...#"), min_size=w, max_size=w))) for _ in range(h)]
    cells = st.tuples(st.integers(0, w - 1), st.integers(0, h - 1))
    return make_grid(rows, draw(st.sampled_from(sorted(SURFACES))),
                     bars_right=draw(st.sets(cells, max_size=3)), bars_below=draw(st.sets(cells, max_size=3)))


def _open_edge(grid: Grid, cell: tuple[int, int], d: Direction) -> bool:
    """Whether one step from `cell` in `d` reaches a white cell with no bar between."""
    nxt = step(grid.surface, grid.width, grid.height, cell, d)
    if nxt is None or grid.is_block(nxt.cell):
        return False
    if d in (Direction.RIGHT, Direction.DOWN):
        owner, bars = cell, grid.bars_right if d is Direction.RIGHT else grid.bars_below
    else:
        owner, bars = nxt.cell, grid.bars_right if d is Direction.LEFT else grid.bars_below
    return owner not in bars


@settings(max_examples=300, deadline=None)
@given(grids())
def test_every_white_cell_in_a_run_lies_in_exactly_one_light(grid: Grid) -> None:
    found = find_lights(grid, 2)
    for direction, d in ((ACROSS, Direction.RIGHT), (DOWN, Direction.DOWN)):
        count: dict[tuple[int, int], int] = {}
        for light in found.lights:
            if light.direction != direction:
                continue
            for a, b in zip(light.cells, light.cells[1:] + ((light.cells[0],) if light.cyclic else ())):
                nxt = step(grid.surface, grid.width, grid.height, a, d)
                assert nxt is not None and nxt.cell == b and _open_edge(grid, a, d)
            if not light.cyclic:
                assert not _open_edge(grid, light.cells[0], d.reverse)
                assert not _open_edge(grid, light.cells[-1], d)
            for cell in light.cells:
                count[cell] = count.get(cell, 0) + 1
        for cell in grid.white_cells():
            # A cell glued to itself (width or height 1) is a run of length 1.
            in_run = any(_open_edge(grid, cell, e) and step(grid.surface, grid.width, grid.height, cell, e).cell != cell
                         for e in (d, d.reverse))
            assert count.get(cell, 0) == (1 if in_run else 0), (direction, cell)
    starts = [lt.cells[0] for lt in found.lights]
    numbers = {lt.cells[0]: lt.number for lt in found.lights}
    assert sorted(set(numbers.values())) == list(range(1, len(set(starts)) + 1))
    ordered = sorted(set(starts), key=lambda c: (c[1], c[0]))
    assert [numbers[c] for c in ordered] == list(range(1, len(ordered) + 1))


def test_the_longest_light_of_any_grid_is_the_longest_word_a_list_keeps() -> None:
    """A word list drops entries longer than `MAX_WORD_LETTERS` (its layer cannot ask the grid's): no
    light of any surface is longer than a pair of rows of the widest Möbius strip read as one loop."""
    from mobius.cpmodel.crossword.grid import MAX_SIZE
    from mobius.dictionaries.wordlist import MAX_WORD_LETTERS

    longest = {name: max(light.length for light in find_lights(make_grid(["." * MAX_SIZE] * MAX_SIZE, name)).lights)
               for name in SURFACES}
    assert max(longest.values()) == longest["mobius"] == MAX_WORD_LETTERS == 2 * MAX_SIZE
