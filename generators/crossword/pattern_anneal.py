"""Block patterns drawn for fill: a valid pattern annealed towards grids that fill readily.

Covers: `anneal_pattern(grid, spec, seed)`, which takes a block pattern that
keeps every rule of `spec` (the constructive search's, `pattern_search.py`)
and moves its blocks — a block and its symmetric image added, removed, or
slid one step along the surface — keeping every rule, towards a higher
first-moment estimate of its fills (`fill_estimate.py`: ln E, the sum over
lights of ln(words of that length) and over checked cells of ln(the chance
that the two lights' letters there agree)). It is simulated annealing
(Kirkpatrick et al. 1983): a move that lowers ln E by d is still taken with
probability e^(−d/T), T falling geometrically from `START_T` to `END_T` over
`STEPS_PER_CELL` moves a cell, so that early moves wander and late ones climb, on a landscape of
the seed's own (each block weighed by a seeded noise of up to `NOISE`), so
that seeds end in grids of their own; the best grid met is returned.
The estimate is what editors' grids show as well: published 15×15 grids with
ln E ≥ 65 fill at once from the embedded list, those below 30 seldom
(benchmarks/RESULTS.md, "Grids drawn for fill").

The statistics are those of the embedded English list at the packs' default
floor (`FILL_MODEL_LIST`, `FILL_MODEL_MIN_SCORE`), the same for every pack, so
a pattern depends on its spec and seed alone; a pack then ranks the grids it
draws by its own words (`grid_walk.py`).

The rules are evaluated on the surface's tracks (each row and column of the
blank surface followed through the glue, `find_runs` of the blank grid), so
any surface works: lights of `min_length` or more (runs of one cell allowed
when cells need not be checked), none longer than `max_length`, no cyclic
light unless allowed, at most `max_seam_crossings` seam crossings a light
and at least `min_seam_lights` lights across a seam, the density range, the
word cap, the share of short lights, clutter, 2×2 squares of blocks, white
cells connected through the glue, and on the plane no row or column all
blocks. The symmetry is one concrete symmetry (the caller resolves "any"). The kernel is compiled with numba;
`rule_violations` reads its count for tests. A grid it returns is checked
once more by `pattern_search.pattern_problem`.

Leaves out: barred patterns (only blocks move here), the first pattern
(`pattern_search.py`), and which generator a spec takes (`patterns.py`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
from numba import njit

from mobius.cpmodel.crossword.grid import BLOCK, WHITE, Grid
from mobius.cpmodel.crossword.lights import ACROSS, DOWN, find_runs
from mobius.cpmodel.surface import surface
from mobius.generators.crossword.fill_estimate import FillEstimate
from mobius.generators.crossword.pattern_layout import layout_of
from mobius.generators.crossword.pattern_rules import SHORT_LIGHT, PatternSpec, density_bounds, with_symmetry
from mobius.generators.crossword.pattern_search import grid_symmetry

# The list whose letter statistics every pattern is annealed by, at the packs' default floor.
FILL_MODEL_LIST = "en"
FILL_MODEL_MIN_SCORE = 30
# Moves per cell of the grid, and the temperatures (in units of ln E) the schedule runs between.
STEPS_PER_CELL = 400
START_T = 3.0
END_T = 0.1
# Of the moves drawn on a block, the shares that slide it one step and that move it anywhere (the rest remove
# it): once the count of blocks reaches its ceiling only moves that keep the count lead anywhere.
SLIDE_SHARE = 0.35
JUMP_SHARE = 0.35
# What a 3×3 square of white cells costs the score, in units of ln E: the estimate takes each crossing
# alone, and so misses how hard stacked long lights are to fill together.
OPEN_SQUARE_COST = 0.5
# Each seed weighs a block on each cell by up to this much either way (in units of ln E), so that seeds
# climb to different grids where the rules leave few good ones (benchmarks/RESULTS.md, "Grids drawn for fill").
NOISE = 1.5
# ln of a chance that never happens: a light length or crossing the list has no words for.
IMPOSSIBLE = -1e9
# An unlimited rule, as the kernel reads it.
UNLIMITED = 1 << 30


@dataclass(frozen=True)
class FillModel:
    """The letter statistics a grid is annealed by: ln(words of length n) and ln(chance that position i of
    an a-letter word and position j of a b-letter word agree), for lengths up to `longest`."""

    log_supply: np.ndarray  # float64[longest + 1]
    log_agree: np.ndarray  # float64[longest + 1, longest, longest + 1, longest]

    @property
    def longest(self) -> int:
        return len(self.log_supply) - 1


def fill_model(estimate: FillEstimate, longest: int) -> FillModel:
    """The tables of `estimate` for lights of up to `longest` letters."""
    log_supply = np.full(longest + 1, IMPOSSIBLE)
    log_agree = np.full((longest + 1, longest, longest + 1, longest), IMPOSSIBLE)
    for n in range(1, longest + 1):
        if estimate.supply.get(n, 0) > 0:
            log_supply[n] = math.log(estimate.supply[n])
    for a in range(1, longest + 1):
        for b in range(1, longest + 1):
            if a in estimate.letters and b in estimate.letters:
                chance = estimate.letters[a] @ estimate.letters[b].T
                log_agree[a, :a, b, :b] = np.log(np.where(chance > 0, chance, 1.0))
                log_agree[a, :a, b, :b][chance <= 0] = IMPOSSIBLE
    return FillModel(log_supply, log_agree)


@cache
def _default_estimate() -> FillEstimate:
    from mobius.dictionaries import load

    words = load(FILL_MODEL_LIST)
    kept = [(w, s) for w, s in zip(words.words, words.scores) if s >= FILL_MODEL_MIN_SCORE]
    return FillEstimate(type(words)(words.name, tuple(w for w, _ in kept), tuple(s for _, s in kept), 0, 0))


@lru_cache(maxsize=8)
def default_model(longest: int) -> FillModel:
    """The fill model of the embedded list at the packs' default floor, for lights up to `longest`."""
    return fill_model(_default_estimate(), longest)


# --- the surface as the kernel reads it -------------------------------------------------

@dataclass(frozen=True)
class _Tracks:
    """Every track of the blank surface: its cells in reading order, end to end (`cells`, track t being
    cells[start[t]:start[t + 1]]), its axis (0 across, 1 down), whether it closes on itself, and per cell of
    a track whether the step to the next crosses a seam; each cell's symmetric image and its neighbours."""

    cells: np.ndarray
    start: np.ndarray
    axis: np.ndarray
    cyclic: np.ndarray
    crosses: np.ndarray
    image: np.ndarray
    neighbours: np.ndarray  # int64[cells, 4], −1 where there is none


@lru_cache(maxsize=16)
def _tracks(width: int, height: int, surface_name: str, symmetry: str) -> _Tracks:
    layout = layout_of(width, height, surface_name, symmetry)
    blank = Grid(tuple(WHITE * width for _ in range(height)), surface(surface_name))
    cells: list[int] = []
    start, axes, cyclic, crosses = [0], [], [], []
    neighbours = np.full((width * height, 4), -1, dtype=np.int64)
    for axis, name in enumerate((ACROSS, DOWN)):
        for run, _, closed in find_runs(blank, name):
            order = [y * width + x for x, y in run]
            for k, cell in enumerate(order):
                crosses.append(layout.crosses[axis][cell])
                nxt = k + 1 if k + 1 < len(order) else (0 if closed else None)
                if nxt is not None and order[nxt] != cell:
                    neighbours[cell, 2 * axis] = order[nxt]
                    neighbours[order[nxt], 2 * axis + 1] = cell
            cells.extend(order)
            start.append(len(cells))
            axes.append(axis)
            cyclic.append(closed)
    return _Tracks(np.array(cells, dtype=np.int64), np.array(start, dtype=np.int64), np.array(axes, dtype=np.int64),
                   np.array(cyclic, dtype=np.bool_), np.array(crosses, dtype=np.bool_),
                   np.array(layout.cell_image, dtype=np.int64), neighbours)


@dataclass(frozen=True)
class _Limits:
    """A spec's rules as the kernel's integers (`UNLIMITED` where a rule is off)."""

    min_length: int
    checked: bool
    max_length: int
    allow_cyclic: bool
    max_crossings: int
    min_seam_lights: int
    low: int
    high: int
    max_words: int
    max_squares: int
    short_share: float  # > 1 when off
    clutter_allowed: bool
    width: int
    height: int
    plane: bool  # no row or column all blocks

    def as_tuple(self) -> tuple:
        return (self.min_length, self.checked, self.max_length, self.allow_cyclic, self.max_crossings,
                self.min_seam_lights, self.low, self.high, self.max_words, self.max_squares, self.short_share,
                self.clutter_allowed, self.width, self.height, self.plane)


def _limits(spec: PatternSpec) -> _Limits:
    low, high = density_bounds(spec)
    off = lambda value: UNLIMITED if value is None else value  # noqa: E731
    return _Limits(spec.min_length, spec.checked, off(spec.max_length), spec.allow_cyclic,
                   off(spec.max_seam_crossings), spec.min_seam_lights, low, high, off(spec.max_words),
                   off(spec.max_block_squares), 2.0 if spec.max_short_share is None else spec.max_short_share,
                   spec.allow_clutter, spec.width, spec.height, surface(spec.surface).name == "plane")


# --- the kernel ---------------------------------------------------------------------------

@njit(cache=True)
def _runs(blocks, cells, start, axis, cyclic, crosses, limits, length, position, scratch):
    """Walk every track: per axis and cell, the length of the light through it (0 where none) and its position
    there; (violations, words, short words, lights across a seam) of the runs. A run on a closed track starts
    after a block, as `find_runs` reads it; a closed track with no block is one cyclic run."""
    (min_length, checked, max_length, allow_cyclic, max_crossings, _, _, _, _, _, _, clutter_allowed, _, _,
     plane) = limits
    violations = 0
    words = 0
    short = 0
    seam_lights = 0
    for t in range(len(start) - 1):
        a = axis[t]
        first = start[t]
        n = start[t + 1] - first
        begin = 0
        loop = False
        if cyclic[t]:
            begin = -1
            for k in range(n):
                if blocks[cells[first + k]]:
                    begin = k + 1
                    break
            if begin < 0:
                begin = 0
                loop = True
                if not allow_cyclic:
                    violations += 1
        track_lights = 0
        track_longest = 0
        whites = 0
        k = 0
        while k < n:
            i = (begin + k) % n
            if blocks[cells[first + i]]:
                length[a, cells[first + i]] = 0
                k += 1
                continue
            m = 0  # the run: track positions scratch[0:m]
            while k + m < n and not blocks[cells[first + (begin + k + m) % n]]:
                scratch[m] = (begin + k + m) % n
                m += 1
            whites += m
            seams = 0
            for q in range(m - 1 + loop):
                seams += crosses[first + scratch[q]]
            is_light = m >= min_length
            if not is_light and not (m == 1 and not checked):
                violations += 1
            if m > max_length:
                violations += 1
            if is_light:
                if seams > max_crossings:
                    violations += 1
                words += 1
                track_lights += 1
                track_longest = max(track_longest, m)
                if m <= SHORT_LIGHT:
                    short += 1
                if seams > 0:
                    seam_lights += 1
            for q in range(m):
                c = cells[first + scratch[q]]
                length[a, c] = m if is_light else 0
                position[a, c] = q
            k += m
        if not clutter_allowed and track_lights > 1 and track_longest <= SHORT_LIGHT:
            violations += 1
        if plane and whites == 0:
            violations += 1
    return violations, words, short, seam_lights


@njit(cache=True)
def _log_fills(blocks, length, position, log_supply, log_agree, longest):
    """ln E of the lights the last `_runs` found; a light longer than the model knows is impossible."""
    total = 0.0
    for c in range(len(blocks)):
        if blocks[c]:
            continue
        a, d = length[0, c], length[1, c]
        if a > longest or d > longest:
            return IMPOSSIBLE
        if a > 0 and position[0, c] == 0:  # each light counted once, at its first cell
            total += log_supply[a]
        if d > 0 and position[1, c] == 0:
            total += log_supply[d]
        if a > 0 and d > 0:
            total += log_agree[a, position[0, c], d, position[1, c]]
    return total


@njit(cache=True)
def _unconnected(blocks, neighbours, stack, seen):
    """White cells not reachable from the first white cell (0: connected; a grid of no white cell is not)."""
    whites = 0
    first = -1
    for c in range(len(blocks)):
        seen[c] = False
        if not blocks[c]:
            whites += 1
            if first < 0:
                first = c
    if first < 0:
        return 1
    top = 0
    stack[0] = first
    top = 1
    seen[first] = True
    found = 1
    while top > 0:
        top -= 1
        c = stack[top]
        for k in range(4):
            d = neighbours[c, k]
            if d >= 0 and not blocks[d] and not seen[d]:
                seen[d] = True
                found += 1
                stack[top] = d
                top += 1
    return whites - found


@njit(cache=True)
def _squares(blocks, width, height, side, block):
    """side×side squares of the unfolded rectangle whose cells are all blocks (`block`) or all white."""
    count = 0
    for y in range(height - side + 1):
        for x in range(width - side + 1):
            uniform = True
            for dy in range(side):
                for dx in range(side):
                    if blocks[(y + dy) * width + x + dx] != block:
                        uniform = False
            if uniform:
                count += 1
    return count


@njit(cache=True)
def _judge(blocks, cells, start, axis, cyclic, crosses, neighbours, limits, log_supply, log_agree, square_cost,
           noise, length, position, scratch, stack, seen):
    """(violations of the rules, ln E) of `blocks`."""
    (_, _, _, _, _, min_seam_lights, low, high, max_words, max_squares, short_share, _, width, height, _) = limits
    violations, words, short, seam_lights = _runs(blocks, cells, start, axis, cyclic, crosses, limits, length,
                                                  position, scratch)
    count = 0
    for c in range(len(blocks)):
        count += blocks[c]
    if count < low or count > high:
        violations += 1
    if words > max_words:
        violations += 1
    if short > short_share * words:
        violations += 1
    if seam_lights < min_seam_lights:
        violations += 1
    if _squares(blocks, width, height, 2, True) > max_squares:
        violations += 1
    violations += _unconnected(blocks, neighbours, stack, seen) > 0
    score = _log_fills(blocks, length, position, log_supply, log_agree, len(log_supply) - 1)
    for c in range(len(blocks)):
        if blocks[c]:
            score += noise[c]
    return violations, score - square_cost * _squares(blocks, width, height, 3, False)


@njit(cache=True)
def _anneal(blocks, cells, start, axis, cyclic, crosses, image, neighbours, limits, log_supply, log_agree, seed,
            steps, schedule):
    """Anneal `blocks` (valid) in place of a copy; (the best valid blocks met, their ln E)."""
    start_t, end_t, square_cost, slide_share, jump_share, noise_span = schedule
    np.random.seed(seed)
    n = len(blocks)
    # each seed its own landscape: a block on cell c is worth noise[c] more or less
    noise = (np.random.random(n) * 2.0 - 1.0) * noise_span
    length = np.zeros((2, n), dtype=np.int64)
    position = np.zeros((2, n), dtype=np.int64)
    scratch = np.zeros(n + 1, dtype=np.int64)
    stack = np.zeros(n + 1, dtype=np.int64)
    seen = np.zeros(n, dtype=np.bool_)
    current = blocks.copy()
    _, score = _judge(current, cells, start, axis, cyclic, crosses, neighbours, limits, log_supply, log_agree,
                      square_cost, noise, length, position, scratch, stack, seen)
    best = current.copy()
    best_score = score
    for k in range(steps):
        temperature = start_t * (end_t / start_t) ** (k / steps)
        c = np.random.randint(n)
        moved = -1
        kind = np.random.random()
        if current[c] and kind < slide_share + jump_share:
            # a block moves: one step (a slide), or anywhere (a jump), keeping the count of blocks
            moved = neighbours[c, np.random.randint(4)] if kind < slide_share else np.random.randint(n)
            if moved < 0 or current[moved] or moved == image[c]:
                continue
        # the move: toggle c (and its image); a slide also sets `moved` (and its image)
        value = 1 - current[c]
        current[c] = value
        current[image[c]] = value
        if moved >= 0:
            current[moved] = 1
            current[image[moved]] = 1
        violations, new = _judge(current, cells, start, axis, cyclic, crosses, neighbours, limits, log_supply,
                                 log_agree, square_cost, noise, length, position, scratch, stack, seen)
        if violations == 0 and (new >= score or np.random.random() < math.exp((new - score) / temperature)):
            score = new
            if score > best_score:
                best_score = score
                best[:] = current
            continue
        if moved >= 0:
            current[moved] = 0
            current[image[moved]] = 0
        current[c] = 1 - value
        current[image[c]] = 1 - value
    return best, best_score


# --- the front ------------------------------------------------------------------------------

def _blocks(grid: Grid) -> np.ndarray:
    return np.array([ch == BLOCK for row in grid.rows for ch in row], dtype=np.uint8)


def _kernel_inputs(spec: PatternSpec) -> tuple[_Tracks, tuple, FillModel]:
    tracks = _tracks(spec.width, spec.height, surface(spec.surface).name, spec.symmetry)
    longest = min(spec.max_length or 2 * max(spec.width, spec.height), 2 * max(spec.width, spec.height))
    return tracks, _limits(spec).as_tuple(), default_model(longest)


def rule_violations(grid: Grid, spec: PatternSpec) -> tuple[int, float]:
    """(the number of rules the kernel finds `grid` breaking, its ln E by the default model): 0 exactly when
    `pattern_search.pattern_problem` finds none, for block patterns keeping the spec's (concrete) symmetry."""
    tracks, limits, model = _kernel_inputs(spec)
    n = spec.width * spec.height
    violations, score = _judge(_blocks(grid), tracks.cells, tracks.start, tracks.axis, tracks.cyclic, tracks.crosses,
                               tracks.neighbours, limits, model.log_supply, model.log_agree, 0.0, np.zeros(n),
                               np.zeros((2, n), dtype=np.int64), np.zeros((2, n), dtype=np.int64),
                               np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64),
                               np.zeros(n, dtype=np.bool_))
    return int(violations), float(score)


def anneal_pattern(grid: Grid, spec: PatternSpec, seed: int) -> Grid:
    """`grid` (a block pattern keeping every rule of `spec`) annealed towards a higher ln E, keeping the
    symmetry it has (one of the spec's); the same grid for the same inputs."""
    kept = grid_symmetry(grid, spec)
    if kept is None:
        raise ValueError(f"the grid to anneal is not {spec.symmetry} symmetric")
    spec = with_symmetry(spec, kept)
    tracks, limits, model = _kernel_inputs(spec)
    best, _ = _anneal(_blocks(grid), tracks.cells, tracks.start, tracks.axis, tracks.cyclic, tracks.crosses,
                      tracks.image, tracks.neighbours, limits, model.log_supply, model.log_agree,
                      seed % (2**31), STEPS_PER_CELL * spec.width * spec.height,
                      (START_T, END_T, OPEN_SQUARE_COST, SLIDE_SHARE, JUMP_SHARE, NOISE))
    w = spec.width
    rows = tuple("".join(BLOCK if best[y * w + x] else WHITE for x in range(w)) for y in range(spec.height))
    return Grid(rows, grid.surface)
