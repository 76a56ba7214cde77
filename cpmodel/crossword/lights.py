"""Lights (slots) of a crossword grid on any surface, and their numbering.

Covers: the maximal runs of white cells across and down, followed through the
glue with `mobius.cpmodel.surface.step` and stopped by blocks, bars and borders; the
cells of each light in reading order, its seam crossings; which light
positions share a cell (crossings); unchecked cells; clue numbering.

Cyclic lights: a run that closes on itself with no block or bar (on a Möbius
strip a pair of rows y and H−1−y with no separator is one loop of length 2W;
the middle row of an odd-height strip is a loop of length W) has no natural
start. It is kept as a *cyclic* light that is read from its cell that comes
first in reading order of the unfolded rectangle (top row first, then left to
right) and is numbered there like any other light.

Leaves out: the surface geometry itself (asked of `mobius.cpmodel.surface`), words
and fills.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from mobius.cpmodel.crossword.grid import BLOCK, Grid
from mobius.cpmodel.surface import Cell, Direction, Step, Surface, step

ACROSS, DOWN = "across", "down"
DIRECTIONS = {ACROSS: Direction.RIGHT, DOWN: Direction.DOWN}
DEFAULT_MIN_LENGTH = 2
# Block states remembered per track (`runs_of_blocks`): the pattern generator
# asks for the runs of tens of thousands of grids per pack, each differing from
# the last in a cell or two, so most tracks come back unchanged.
TRACK_MEMO_LIMIT = 4096

Run = tuple[tuple[Cell, ...], int, bool]  # cells, seam crossings, cyclic


@dataclass(frozen=True)
class Light:
    number: int
    direction: str  # "across" or "down"
    cells: tuple[Cell, ...]  # in reading order
    seam_crossings: int  # steps between consecutive cells (and, if cyclic, the closing step) through a seam
    cyclic: bool = False

    @property
    def length(self) -> int:
        return len(self.cells)

    @property
    def label(self) -> str:
        return f"{self.number}{'A' if self.direction == ACROSS else 'D'}"

    def to_json(self) -> dict[str, object]:
        return {"number": self.number, "direction": self.direction, "cells": [list(c) for c in self.cells],
                "length": self.length, "seam_crossings": self.seam_crossings, "cyclic": self.cyclic}


@dataclass(frozen=True)
class Crossing:
    """Two light positions that share a cell."""

    light_a: int  # index into Lights.lights
    pos_a: int
    light_b: int
    pos_b: int
    cell: Cell


@dataclass(frozen=True)
class Lights:
    grid: Grid
    lights: tuple[Light, ...]  # by number, across before down
    min_length: int

    @cached_property
    def cell_lights(self) -> dict[Cell, tuple[tuple[int, int], ...]]:
        """For each white cell, the (light index, position) pairs through it."""
        table: dict[Cell, list[tuple[int, int]]] = {c: [] for c in self.grid.white_cells()}
        for i, light in enumerate(self.lights):
            for pos, cell in enumerate(light.cells):
                table[cell].append((i, pos))
        return {c: tuple(v) for c, v in table.items()}

    @cached_property
    def crossings(self) -> tuple[Crossing, ...]:
        found = []
        for cell, uses in self.cell_lights.items():
            for k, (a, pa) in enumerate(uses):
                for b, pb in uses[k + 1:]:
                    found.append(Crossing(a, pa, b, pb, cell))
        return tuple(found)

    @cached_property
    def unchecked(self) -> tuple[Cell, ...]:
        """White cells in fewer than two lights, in reading order."""
        return tuple(c for c in self.grid.white_cells() if len(self.cell_lights[c]) < 2)

    def to_json(self) -> dict[str, object]:
        return {"width": self.grid.width, "height": self.grid.height, "surface": self.grid.surface.name,
                "lights": [light.to_json() for light in self.lights],
                "unchecked": [list(c) for c in self.unchecked]}


def _move(grid: Grid, cell: Cell, direction: Direction) -> Step | None:
    """One step along a light: None at a border, a block, or a bar."""
    nxt = step(grid.surface, grid.width, grid.height, cell, direction)
    if nxt is None or grid.is_block(nxt.cell):
        return None
    # The edge crossed belongs to the cell on its left/top side: the start
    # cell when moving right/down, the cell reached when moving left/up.
    owner, moving_on = (cell, direction) if direction in (Direction.RIGHT, Direction.DOWN) \
        else (nxt.cell, direction.reverse)
    bars = grid.bars_right if moving_on is Direction.RIGHT else grid.bars_below
    if owner in bars:
        return None
    return nxt


def _run_start(grid: Grid, cell: Cell, direction: Direction) -> tuple[Cell, bool]:
    """Walk back from `cell` to the first cell of its run; (cell, True) if the run is a loop."""
    back = direction.reverse
    current = cell
    while (prev := _move(grid, current, back)) is not None:
        current = prev.cell
        if current == cell:
            return cell, True
    return current, False


def _run_from(grid: Grid, start: Cell, direction: Direction) -> tuple[tuple[Cell, ...], int]:
    """The cells of the run starting at `start`, and its seam crossings."""
    cells = [start]
    crossings = 0
    current = start
    while (nxt := _move(grid, current, direction)) is not None:
        crossings += nxt.crossed
        if nxt.cell == start:  # a loop closes: its closing step counts too
            break
        cells.append(nxt.cell)
        current = nxt.cell
    return tuple(cells), crossings


def _reading_key(cell: Cell) -> tuple[int, int]:
    return cell[1], cell[0]


@dataclass(frozen=True)
class _Track:
    """A run of the blank grid: every run of any grid of this size and
    surface is a stretch of one track, cut by blocks and bars."""

    cells: tuple[Cell, ...]
    crossed: tuple[bool, ...]  # crossed[i]: the step from cells[i] to the next goes through a seam
    closed: bool
    reading: tuple[int, ...]  # reading-order index of each cell
    # the blocks (and bars) along the track -> its runs; see TRACK_MEMO_LIMIT
    memo: dict[tuple[bytes, tuple[bool, ...]], list[tuple[int, Run]]] = field(
        default_factory=dict, compare=False, repr=False)


@lru_cache(maxsize=256)  # packs and the pattern generator ask for the same few shapes again and again
def _tracks(surf: Surface, width: int, height: int, direction: Direction) -> tuple[_Track, ...]:
    """The tracks of one direction, found by walking the blank grid with `step`."""
    blank = Grid(tuple("." * width for _ in range(height)), surf)
    seen: set[Cell] = set()
    tracks = []
    for cell in blank.white_cells():
        if cell in seen:
            continue
        start, closed = _run_start(blank, cell, direction)
        if closed:
            loop, _ = _run_from(blank, cell, direction)
            start = min(loop, key=_reading_key)
        cells, _ = _run_from(blank, start, direction)
        seen.update(cells)
        steps = len(cells) if closed else len(cells) - 1
        crossed = tuple(step(surf, width, height, cells[i], direction).crossed for i in range(steps))
        tracks.append(_Track(cells, crossed, closed, tuple(y * width + x for x, y in cells)))
    return tuple(tracks)


def find_runs(grid: Grid, direction: str) -> list[Run]:
    """All maximal runs in one direction: (cells, seam crossings, cyclic).

    Runs come in reading order of their first cell met (the order of walking
    the white cells row by row); a run starts at its first cell along the
    direction, a cyclic one at its cell first in reading order."""
    bars = grid.bars_right if DIRECTIONS[direction] is Direction.RIGHT else grid.bars_below
    blocked = bytes(ch == BLOCK for row in grid.rows for ch in row)
    return runs_of_blocks(grid.surface, grid.width, grid.height, direction, blocked, bars)


def runs_of_blocks(surf: Surface, width: int, height: int, direction: str, blocked: bytes | bytearray,
                   bars: Container[Cell]) -> list[Run]:
    """`find_runs` of the grid whose cell (x, y) is a block where
    `blocked[y * width + x]` is non-zero, with bars after the cells `bars`
    in `direction` (for callers that keep a grid as such an array)."""
    found: list[tuple[int, Run]] = []
    for track in _tracks(surf, width, height, DIRECTIONS[direction]):
        state = bytes(map(blocked.__getitem__, track.reading))
        key = (state, tuple(c in bars for c in track.cells) if bars else ())
        runs = track.memo.get(key)
        if runs is None:
            if len(track.memo) >= TRACK_MEMO_LIMIT:
                track.memo.clear()
            runs = track.memo[key] = _track_runs(track, state, key[1])
        found.extend(runs)
    found.sort(key=lambda item: item[0])
    return [run for _, run in found]


def _track_runs(track: _Track, state: bytes, barred: tuple[bool, ...]) -> list[tuple[int, Run]]:
    """The runs along one track, each with the reading index it is ordered by,
    given the blocks (`state`, per cell of the track) and bars after its cells."""
    cells, n, steps = track.cells, len(track.cells), len(track.crossed)
    white = [not b for b in state]
    # joined[i]: cells[i] and the next cell of the track are in one run
    joined = [white[i] and white[(i + 1) % n] and not (barred and barred[i]) for i in range(steps)]
    if track.closed and all(joined):
        return [(min(track.reading), (cells, sum(track.crossed), True))]
    found = []
    for i in range(n):
        if not white[i] or (joined[i - 1] if i or track.closed else False):
            continue  # a block, or not the first cell of its run
        j = i  # the run is cells[i..j], wrapping past the end of a closed track
        while joined[j % n] if j < steps or track.closed else False:
            j += 1
        if j < n:
            run, reading, crossings = cells[i:j + 1], track.reading[i:j + 1], sum(track.crossed[i:j])
        else:
            run, reading = cells[i:] + cells[:j + 1 - n], track.reading[i:] + track.reading[:j + 1 - n]
            crossings = sum(track.crossed[i:]) + sum(track.crossed[:j - n])
        found.append((min(reading), (run, crossings, False)))
    return found


def find_lights(grid: Grid, min_length: int = DEFAULT_MIN_LENGTH) -> Lights:
    """The numbered lights of `grid`: runs of at least `min_length` cells."""
    if min_length < 1:
        raise ValueError(f"min_length must be at least 1, got {min_length}")
    runs = {direction: [r for r in find_runs(grid, direction) if len(r[0]) >= min_length]
            for direction in DIRECTIONS}
    numbers = _number_starts({r[0][0] for rs in runs.values() for r in rs})
    lights = [Light(numbers[cells[0]], direction, cells, crossings, cyclic)
              for direction, rs in runs.items() for cells, crossings, cyclic in rs]
    lights.sort(key=lambda light: (light.number, light.direction != ACROSS))
    return Lights(grid, tuple(lights), min_length)


def _number_starts(starts: set[Cell]) -> dict[Cell, int]:
    """Clue numbers: start cells numbered in reading order of the unfolded rectangle."""
    return {cell: i for i, cell in enumerate(sorted(starts, key=_reading_key), start=1)}
