"""The publisher's own grids of a crossword pack (`mobius pack crossword --patterns FILE_OR_DIR`).

Covers: `read_given`, which turns the files and directories given into
`GivenGrids`: every grid file of a directory (`GRID_SUFFIXES`, sorted by
name), each read as `mobius crossword fill` reads it (text, JSON, .qxw:
`cpmodel/crossword/grid.py`), and the checks that make them a pack's grids,
each failing in one line naming the file: a directory with no grid file;
a grid with letters or bars (a pack fills empty block grids); grids of
more than one size or surface; a white cell in no light. The pack's
pattern rules (symmetry, word cap, density, seam rules) do not apply to
given grids; what a fill needs does: the shortest light, `min_length`, is
the largest at most `MAX_MIN_LENGTH` that every grid's runs allow (a run
shorter than it would be a cell unchecked in that direction), so a grid
whose shortest runs have two letters gets lights of two.

Leaves out: filling them and walking through them (`plan.py`,
`grid_walk.py`, `pattern_space.PatternSurvey` with a listed space), and
the options that conflict with them (`mobius/pack_cli.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mobius.cpmodel.crossword.grid import BLOCK, WHITE, Grid, read_grid
from mobius.cpmodel.crossword.lights import DIRECTIONS, find_runs
from mobius.cpmodel.errors import InputError

# The files of a directory that are grids: the formats `crossword fill` reads.
GRID_SUFFIXES = (".txt", ".json", ".qxw")
# The pack's shortest light where the grids allow it (its default for drawn grids).
MAX_MIN_LENGTH = 3
# Grids one --patterns may give: a pack walks them all before the first repeat.
MAX_GIVEN = 1000


@dataclass(frozen=True)
class GivenGrids:
    """Grids given to a pack: their rows ('.' and '#'), in the order given, and what they share."""

    rows: tuple[tuple[str, ...], ...]
    sources: tuple[str, ...]  # the file of each
    width: int
    height: int
    surface: str
    min_length: int


def read_given(places: Sequence[Path]) -> GivenGrids:
    """The grids of `places` (files, and directories of grid files), checked (see the module docstring)."""
    files = [path for place in places for path in grid_files(place)]
    if len(files) > MAX_GIVEN:
        raise InputError(f"--patterns gives {len(files)} grids; at most {MAX_GIVEN}")
    grids = [(str(path), _empty_grid(path)) for path in files]
    first_source, first = grids[0]
    for source, grid in grids[1:]:
        if (grid.width, grid.height, grid.surface.name) != (first.width, first.height, first.surface.name):
            raise InputError(f"a {_shape(grid)} grid, where {first_source} is {_shape(first)}: the grids of "
                             "--patterns share one size and surface", source=source)
    for source, grid in grids:
        _check_lit(source, grid)
    return GivenGrids(tuple(grid.rows for _, grid in grids), tuple(source for source, _ in grids), first.width,
                      first.height, first.surface.name, min(_min_length(grid) for _, grid in grids))


def grid_files(place: Path) -> list[Path]:
    """`place` itself, or the grid files of a directory, sorted by name."""
    if not place.is_dir():
        return [place]
    found = sorted(path for path in place.iterdir()
                   if path.suffix.lower() in GRID_SUFFIXES and not path.name.startswith(".") and path.is_file())
    if not found:
        raise InputError(f"no grid file in this directory (expected names ending {', '.join(GRID_SUFFIXES)})",
                         source=str(place))
    return found


def _empty_grid(path: Path) -> Grid:
    grid = read_grid(path)
    if grid.bars_right or grid.bars_below:
        raise InputError("a barred grid; --patterns takes block grids", source=str(path))
    for number, row in enumerate(grid.rows, start=1):
        if any(ch not in (WHITE, BLOCK) for ch in row):
            raise InputError(f"row {number} has letters; --patterns takes empty grids ('{WHITE}' and '{BLOCK}')",
                             source=str(path))
    return grid


def _shape(grid: Grid) -> str:
    return f"{grid.width}x{grid.height} {grid.surface.name}"


def _run_lengths(grid: Grid) -> list[int]:
    return [len(run[0]) for direction in DIRECTIONS for run in find_runs(grid, direction)]


def _min_length(grid: Grid) -> int:
    """The largest shortest light at most MAX_MIN_LENGTH that leaves no run of the grid unchecked."""
    return min([MAX_MIN_LENGTH, *(n for n in _run_lengths(grid) if n > 1)])


def _check_lit(source: str, grid: Grid) -> None:
    """InputError if a white cell is in no run longer than one cell: no light would hold it."""
    lit = {cell for direction in DIRECTIONS for run in find_runs(grid, direction) if len(run[0]) > 1
           for cell in run[0]}
    for y, row in enumerate(grid.rows):
        for x, ch in enumerate(row):
            if ch == WHITE and (x, y) not in lit:
                raise InputError(f"the white cell at column {x + 1}, row {y + 1} is in no light (no white "
                                 "neighbour across or down); a fill could not reach it", source=source)
