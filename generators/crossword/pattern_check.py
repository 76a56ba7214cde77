"""Independent check of a grid pattern against a `PatternSpec`.

Covers: `check_pattern(grid, spec)`, every rule of the spec that the grid
breaks, one message each, prefixed by the rule ("size:", "style:",
"symmetry:", "length:", "checked:", "connected:", "cyclic:", "seams:",
"seam-lights:", "short:", "clutter:", "density:", "words:", "clumps:", "edges:"). It reads the finished
grid's runs and lights from `mobius.cpmodel.crossword.lights` and its glue from
`mobius.cpmodel.surface`, and shares no bookkeeping with the generators
(`pattern_search.py`, `pattern_anneal.py`; only the spec and its definitions, from
`pattern_rules.py`), as `cpmodel/crossword/verify.py` does for fills.

Leaves out: generating patterns, and whether two patterns are the same grid
(`generators/crossword/pattern_space.py`).
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from mobius.cpmodel.crossword.grid import WHITE, Grid
from mobius.cpmodel.crossword.lights import ACROSS, DIRECTIONS, DOWN, Light, find_lights, find_runs
from mobius.cpmodel.surface import Cell, step, surface
from mobius.generators.crossword.pattern_rules import (SHORT_LIGHT, PatternSpec, concrete_symmetries, density_bounds,
                                                      symmetric_cell)

_AXES = (ACROSS, DOWN)
_Runs = dict[str, list[tuple[tuple[Cell, ...], int, bool]]]  # find_runs per direction


def check_pattern(grid: Grid, spec: PatternSpec) -> list[str]:
    """Every rule of `spec` that `grid` breaks; empty means valid."""
    runs = {name: find_runs(grid, name) for name in _AXES}
    lights = find_lights(grid, spec.min_length).lights
    return [*_check_size(grid, spec), *_check_style(grid, spec), *_check_symmetry(grid, spec),
            *_check_lengths(runs, spec), *_check_checked(grid, spec), *_check_connected(grid, runs),
            *_check_loops(runs, spec), *_check_seams(runs, spec), *_check_seam_lights(lights, spec),
            *_check_short(lights, spec), *_check_clutter(grid, lights, spec), *_check_density(grid, spec),
            *_check_words(lights, spec), *_check_clumps(grid, spec), *_check_edges(grid)]


def _check_size(grid: Grid, spec: PatternSpec) -> list[str]:
    wanted = (spec.width, spec.height, surface(spec.surface).name)
    actual = (grid.width, grid.height, grid.surface.name)
    if wanted == actual:
        return []
    return [(f"size: grid is {actual[0]}x{actual[1]} {actual[2]}, "
             f"spec asks for {wanted[0]}x{wanted[1]} {wanted[2]}")]


def _real_bars(grid: Grid) -> tuple[list[tuple[Cell, str, Cell, bool]], list[Cell]]:
    """Bars as (owner cell, axis, cell across the bar, seam), and bars lying on a border."""
    real, border = [], []
    for name, owners in ((ACROSS, grid.bars_right), (DOWN, grid.bars_below)):
        for cell in sorted(owners):
            nxt = step(grid.surface, grid.width, grid.height, cell, DIRECTIONS[name])
            if nxt is None:
                border.append(cell)
            else:
                real.append((cell, name, nxt.cell, nxt.crossed))
    return real, border


def _check_style(grid: Grid, spec: PatternSpec) -> list[str]:
    real, border = _real_bars(grid)
    problems = [f"style: bar on the border at {cell}" for cell in border]
    if spec.style == "blocks" and real:
        problems.append(f"style: a blocks pattern has {len(real)} bars")
    if spec.style == "barred" and grid.blocks:
        problems.append(f"style: a barred pattern has {len(grid.blocks)} blocks")
    return problems


def _check_symmetry(grid: Grid, spec: PatternSpec) -> list[str]:
    """The problems of the spec's one symmetry, or, under "any", of the first of its concrete symmetries
    if the grid keeps none of them."""
    found = [_symmetry_problems(grid, symmetry) for symmetry in concrete_symmetries(spec)]
    return [] if any(not problems for problems in found) else found[0]


def _symmetry_problems(grid: Grid, symmetry: str) -> list[str]:
    def image(cell: Cell) -> Cell:
        return symmetric_cell(symmetry, grid.width, grid.height, cell)

    problems = []
    odd_blocks = sorted((c for c in grid.blocks if not grid.is_block(image(c))), key=lambda c: (c[1], c[0]))
    if odd_blocks:
        problems.append(f"symmetry: blocks at {odd_blocks} have no {symmetry} image")
    real, _ = _real_bars(grid)
    bar_set = {(frozenset((a, b)), name, seam) for a, name, b, seam in real}
    odd_bars = [a for a, name, b, seam in real if (frozenset((image(a), image(b))), name, seam) not in bar_set]
    if odd_bars:
        problems.append(f"symmetry: bars owned by {odd_bars} have no {symmetry} image")
    return problems


def _check_lengths(runs: _Runs, spec: PatternSpec) -> list[str]:
    short = [f"length: {name} run from {cells[0]} has {len(cells)} cells, fewer than {spec.min_length}"
             for name in _AXES for cells, _, _ in runs[name] if 2 <= len(cells) < spec.min_length]
    longest = spec.max_length
    long = [] if longest is None else [
        f"length: {name} run from {cells[0]} has {len(cells)} cells, more than {longest}"
        for name in _AXES for cells, _, _ in runs[name] if len(cells) > longest]
    return short + long


def _check_checked(grid: Grid, spec: PatternSpec) -> list[str]:
    if not spec.checked:
        return []
    unchecked = find_lights(grid, spec.min_length).unchecked
    return [f"checked: cells {list(unchecked)} are not in both an across and a down light"] if unchecked else []


def _check_connected(grid: Grid, runs: _Runs) -> list[str]:
    parent = {c: c for c in grid.white_cells()}

    def root(c: Cell) -> Cell:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for name in _AXES:
        for cells, _, _ in runs[name]:
            for a, b in pairwise(cells):
                parent[root(a)] = root(b)
    sizes = Counter(root(c) for c in parent)
    if not parent:
        return ["connected: the grid has no white cell"]
    if len(sizes) > 1:
        return [(f"connected: white cells fall into {len(sizes)} separate regions of "
                 f"{sorted(sizes.values(), reverse=True)} cells")]
    return []


def _check_loops(runs: _Runs, spec: PatternSpec) -> list[str]:
    if spec.allow_cyclic:
        return []
    return [f"cyclic: {name} light through {cells[0]} is a loop of {len(cells)} cells with no block or bar"
            for name in _AXES for cells, _, cyclic in runs[name] if cyclic]


def _check_seams(runs: _Runs, spec: PatternSpec) -> list[str]:
    limit = spec.max_seam_crossings
    if limit is None:
        return []
    return [f"seams: {name} light from {cells[0]} crosses the seam {crossings} times (limit {limit})"
            for name in _AXES for cells, crossings, _ in runs[name] if crossings > limit]


def _check_seam_lights(lights: tuple[Light, ...], spec: PatternSpec) -> list[str]:
    crossing = sum(1 for light in lights if light.seam_crossings)
    if crossing >= spec.min_seam_lights:
        return []
    return [f"seam-lights: {crossing} lights cross the seam, fewer than {spec.min_seam_lights}"]


def _check_short(lights: tuple[Light, ...], spec: PatternSpec) -> list[str]:
    if spec.max_short_share is None or not lights:
        return []
    short = sum(1 for light in lights if light.length <= SHORT_LIGHT)
    if short <= spec.max_short_share * len(lights):
        return []
    return [f"short: {short} of {len(lights)} lights ({short / len(lights):.0%}) have {SHORT_LIGHT} or fewer "
            f"letters, more than {spec.max_short_share:.0%}"]


def _check_clutter(grid: Grid, lights: tuple[Light, ...], spec: PatternSpec) -> list[str]:
    """A row or column of the blank surface (a loop through the glue where it
    has one) holding two or more lights, all short."""
    if spec.allow_clutter:
        return []
    blank = Grid(tuple(WHITE * grid.width for _ in range(grid.height)), grid.surface)
    line_of = {(name, cell): k for name in _AXES for k, (cells, _, _) in enumerate(find_runs(blank, name))
               for cell in cells}
    per_line: dict[tuple[str, int], list[Light]] = {}
    for light in lights:
        per_line.setdefault((light.direction, line_of[light.direction, light.cells[0]]), []).append(light)
    return [f"clutter: the {name} line through {group[0].cells[0]} holds only lights of {SHORT_LIGHT} or fewer "
            f"letters ({', '.join(str(light.length) for light in group)})"
            for (name, _), group in sorted(per_line.items())
            if len(group) > 1 and max(light.length for light in group) <= SHORT_LIGHT]


def _check_edges(grid: Grid) -> list[str]:
    """On the plane, a row or column all blocks."""
    if grid.surface.name != "plane":
        return []
    rows = [y for y in range(grid.height) if all(grid.is_block((x, y)) for x in range(grid.width))]
    columns = [x for x in range(grid.width) if all(grid.is_block((x, y)) for y in range(grid.height))]
    return [f"edges: row {y} is all blocks" for y in rows] + [f"edges: column {x} is all blocks" for x in columns]


def _check_density(grid: Grid, spec: PatternSpec) -> list[str]:
    barred = spec.style == "barred"
    count = len(_real_bars(grid)[0]) if barred else len(grid.blocks)
    floor, ceiling = density_bounds(spec)
    if floor <= count <= ceiling:
        return []
    cells = grid.width * grid.height
    return [(f"density: {count} {'bars' if barred else 'blocks'} in {cells} cells ({count / cells:.0%}) is outside "
             f"{spec.density[0]:.0%}-{spec.density[1]:.0%} ({floor}-{ceiling})")]


def _check_words(lights: tuple[Light, ...], spec: PatternSpec) -> list[str]:
    if spec.max_words is None or len(lights) <= spec.max_words:
        return []
    return [f"words: {len(lights)} lights, more than {spec.max_words}"]


def _check_clumps(grid: Grid, spec: PatternSpec) -> list[str]:
    """2×2 squares of blocks, named by their top-left cells."""
    if spec.max_block_squares is None:
        return []
    squares = sorted((x, y) for x, y in grid.blocks if x + 1 < grid.width and y + 1 < grid.height
                     and all(grid.is_block(c) for c in ((x + 1, y), (x, y + 1), (x + 1, y + 1))))
    if len(squares) <= spec.max_block_squares:
        return []
    return [f"clumps: {len(squares)} 2x2 squares of blocks (top-left cells {squares}), "
            f"more than {spec.max_block_squares}"]
