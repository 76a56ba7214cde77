"""Every pattern of a small pattern space, listed exactly with CP-SAT.

Covers: `enumerate_patterns(spec)`, the complete list of block patterns
that satisfy a `PatternSpec`, or None when the space is larger than
`ENUMERATION_CAP` rectangles (then packs sample it with the constructive
generator instead). A CP-SAT model with one Boolean per cell ("a block")
states the rules that are local to a track — a row or column of the blank
surface, followed through the glue, from `find_runs` on the blank grid:

- symmetry: a cell and its image are alike (under "any", each concrete
  symmetry's patterns are listed and joined);
- on the plane, a white cell in every row and column;
- density: the number of blocks within the range;
- no run of white cells of a forbidden length (1 when cells must be
  checked, 2 … min_length − 1), with blocks or borders on both sides;
- no window of max_length + 1 cells of a track without a block;
- a block on every closed track (no cyclic light) unless cycles are allowed;
- a block between the first and the (limit+1)-th of any limit + 1
  consecutive seam steps of a track (no light crosses the seam more often);
- at least min_seam_lights seam steps with white cells on both sides;
- at most max_words *starts* — a white cell after a block or a border of
  the rectangle, in either direction (the count of lights once the runs
  too short are gone; on the plane, exactly it);
- at most max_block_squares 2×2 squares of blocks.

`pattern_model(spec)` is that model; `word_starts` and `block_squares`
give it their indicators.

That is a relaxation of the rules (connectivity, the short-light share and
clutter are left out, and two seam steps of one light count twice), so every
solution is then judged by the generator's own rule check
(`pattern_search.pattern_problem`), which keeps exactly the valid ones; the
independent checker (`pattern_check.py`) still verifies every puzzle made.
Enumerating all solutions needs one search worker, which also makes the
list the same on every machine; it is sorted before use.

Leaves out: barred patterns (sampled only), canonical forms and walks
(`pattern_space.py`).
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from mobius.cpmodel.crossword.grid import BLOCK, WHITE, Grid
from mobius.cpmodel.solver import cpsat_solver
from mobius.cpmodel.crossword.lights import DIRECTIONS, find_runs
from mobius.cpmodel.surface import Cell, step, surface
from mobius.generators.crossword.pattern_rules import (AXES, PatternSpec, annealed, concrete_symmetries, density_bounds,
                                                      symmetric_cell, with_symmetry)
from mobius.generators.crossword.pattern_search import pattern_problem

# Rectangles a space may have to count as small: about a second of
# enumeration and checking, which the default 11×5 strip stays well under.
ENUMERATION_CAP = 4000
# CP-SAT deterministic time for one enumeration: spaces that take longer are
# sampled, so a large space costs little before the pack starts.
ENUMERATION_TIME = 4.0
# The same for a word-capped spec below CAPPED_LISTED_CELLS, whose other way is drawing annealed grids,
# which climb to a few of a small space's grids (a 9×9's 180 grids take about 6 s to list).
CAPPED_ENUMERATION_TIME = 10.0
# Cells from which a word-capped spec (`pattern_rules.annealed`) is taken for a
# large space without listing: from 11×11 up, listing only reaches ENUMERATION_CAP.
CAPPED_LISTED_CELLS = 121


class _Collect(cp_model.CpSolverSolutionCallback):
    def __init__(self, blocks: list[cp_model.IntVar], cap: int) -> None:
        super().__init__()
        self.blocks, self.cap = blocks, cap
        self.found: list[tuple[int, ...]] = []
        self.over = False

    def on_solution_callback(self) -> None:
        if len(self.found) >= self.cap:
            self.over = True
            self.stop_search()
            return
        self.found.append(tuple(self.value(b) for b in self.blocks))


def enumerate_patterns(spec: PatternSpec) -> list[Grid] | None:
    """All patterns satisfying `spec`, sorted by their rows; None if there
    are too many rectangles to list (or the spec is barred, or word-capped
    and of CAPPED_LISTED_CELLS or more)."""
    if spec.style != "blocks" or (annealed(spec) and spec.width * spec.height >= CAPPED_LISTED_CELLS):
        return None
    found: dict[tuple[str, ...], Grid] = {}
    for symmetry in concrete_symmetries(spec):  # "any": each symmetry's patterns, once each
        listed = _enumerate(with_symmetry(spec, symmetry))
        if listed is None:
            return None
        found.update((grid.rows, grid) for grid in listed)
    return [found[rows] for rows in sorted(found)]


def _enumerate(spec: PatternSpec) -> list[Grid] | None:
    """`enumerate_patterns` of a spec with one concrete symmetry."""
    w, h = spec.width, spec.height
    model, blocks = pattern_model(spec)
    solver = cpsat_solver(0, 1)  # one worker: enumerating needs it, and the list is the same everywhere
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.max_deterministic_time = CAPPED_ENUMERATION_TIME if annealed(spec) else ENUMERATION_TIME
    collect = _Collect(blocks, ENUMERATION_CAP)
    status = solver.solve(model, collect)
    if collect.over or status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        return None  # stopped at the cap or the time limit: a large space
    surf = surface(spec.surface)
    grids = []
    for values in collect.found:
        rows = tuple("".join(BLOCK if values[y * w + x] else WHITE for x in range(w)) for y in range(h))
        grid = Grid(rows, surf)
        if pattern_problem(grid, spec) is None:
            grids.append(grid)
    return sorted(grids, key=lambda g: g.rows)


def pattern_model(spec: PatternSpec) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The model of the rules above: one Boolean per cell, y * W + x, true for a block."""
    w, h = spec.width, spec.height
    surf = surface(spec.surface)
    model = cp_model.CpModel()
    cells = [(x, y) for y in range(h) for x in range(w)]
    block = {c: model.new_bool_var(f"block_{c[0]}_{c[1]}") for c in cells}
    # Symmetry and density.
    for c in cells:
        model.add(block[c] == block[symmetric_cell(spec.symmetry, w, h, c)])
    floor, ceiling = density_bounds(spec)
    model.add_linear_constraint(sum(block.values()), floor, ceiling)
    blank = Grid(tuple(WHITE * w for _ in range(h)), surf)
    open_seams = []
    for name in AXES:
        for track, _, closed in find_runs(blank, name):
            seams = [step(surf, w, h, c, DIRECTIONS[name]).crossed for c in track[:len(track) if closed else -1]]
            _forbid_short_runs(model, block, track, closed, spec)
            _limit_long_runs(model, block, track, closed, spec.max_length)
            if closed and not spec.allow_cyclic:
                model.add_bool_or([block[c] for c in track])
            _limit_seam_crossings(model, block, track, closed, seams, spec.max_seam_crossings)
            for i, crossed in enumerate(seams):
                if crossed:
                    both_white = model.new_bool_var("")
                    a, b = track[i], track[(i + 1) % len(track)]
                    model.add_bool_and([block[a].Not(), block[b].Not()]).only_enforce_if(both_white)
                    # … and the other way, so that each pattern is one solution, not several
                    model.add_bool_or([block[a], block[b], both_white])
                    open_seams.append(both_white)
    if spec.min_seam_lights:
        model.add(sum(open_seams) >= spec.min_seam_lights)
    blocks = [block[c] for c in cells]
    if surf.name == "plane":  # no row or column all blocks
        for y in range(h):
            model.add_bool_or([block[(x, y)].Not() for x in range(w)])
        for x in range(w):
            model.add_bool_or([block[(x, y)].Not() for y in range(h)])
    if spec.max_words is not None:
        model.add(sum(word_starts(model, blocks, w, h)) <= spec.max_words)
    if spec.max_block_squares is not None:
        model.add(sum(block_squares(model, blocks, w, h)) <= spec.max_block_squares)
    return model, blocks


def word_starts(model: cp_model.CpModel, blocks: list[cp_model.IntVar], w: int, h: int) -> list[cp_model.IntVar]:
    """Per cell and direction of the rectangle, a Boolean true exactly when a
    light may start there: the cell is white and the one before it a block or
    beyond the border. (Across a glued edge that over-counts; the final
    check counts the lights themselves.)"""
    starts = []
    for y in range(h):
        for x in range(w):
            here = blocks[y * w + x]
            for before in ((x - 1, y), (x, y - 1)):
                if min(before) < 0:
                    starts.append(here.Not())
                    continue
                start, previous = model.new_bool_var(""), blocks[before[1] * w + before[0]]
                model.add_bool_and([here.Not(), previous]).only_enforce_if(start)
                model.add_bool_or([here, previous.Not(), start])
                starts.append(start)
    return starts


def block_squares(model: cp_model.CpModel, blocks: list[cp_model.IntVar], w: int, h: int) -> list[cp_model.IntVar]:
    """Per 2×2 window of the rectangle, a Boolean true when all four cells are blocks."""
    squares = []
    for y in range(h - 1):
        for x in range(w - 1):
            four = [blocks[(y + j) * w + x + i] for j in (0, 1) for i in (0, 1)]
            square = model.new_bool_var("")
            model.add_bool_or([b.Not() for b in four] + [square])
            squares.append(square)
    return squares


def _forbid_short_runs(model: cp_model.CpModel, block: dict[Cell, cp_model.IntVar], track: tuple[Cell, ...],
                       closed: bool, spec: PatternSpec) -> None:
    """No maximal run of a forbidden length: not (block, k whites, block)."""
    n = len(track)
    forbidden = [k for k in range(1, spec.min_length) if k > 1 or spec.checked]
    for k in forbidden:
        if k >= n:
            continue  # a whole open track of k cells (or a loop) is handled below
        for start in range(n if closed else n - k + 1):
            before = (start - 1) % n if closed or start > 0 else None
            after = (start + k) % n if closed or start + k < n else None
            literals = [block[track[(start + j) % n]] for j in range(k)]  # one of them must be a block …
            literals += [block[track[i]].Not() for i in (before, after) if i is not None]  # … or a neighbour white
            model.add_bool_or(literals)
    if n in forbidden:
        model.add_bool_or([block[c] for c in track])  # the whole track as one short run (or loop)


def _limit_long_runs(model: cp_model.CpModel, block: dict[Cell, cp_model.IntVar], track: tuple[Cell, ...],
                     closed: bool, longest: int | None) -> None:
    """A block in every window of longest + 1 consecutive cells."""
    n = len(track)
    if longest is None or longest >= n:
        return
    for start in range(n if closed else n - longest):
        model.add_bool_or([block[track[(start + j) % n]] for j in range(longest + 1)])


def _limit_seam_crossings(model: cp_model.CpModel, block: dict[Cell, cp_model.IntVar], track: tuple[Cell, ...],
                          closed: bool, seams: list[bool], limit: int | None) -> None:
    """Between the first and the (limit+1)-th of consecutive seam steps, a block."""
    n = len(track)
    at = [i for i, crossed in enumerate(seams) if crossed]
    if limit is None or len(at) <= limit:
        return
    for k in range(len(at) if closed else len(at) - limit):
        first, last = at[k], at[(k + limit) % len(at)]
        span = (last - first) % n if closed else last - first
        model.add_bool_or([block[track[(first + j) % n]] for j in range(span + 2)])
