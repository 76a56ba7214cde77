"""The space of patterns a pack draws from: when two patterns are the same
grid, how many distinct grids the rules allow, and how a pack walks them.

Covers:

- `canonical_key(grid)`: two patterns are the *same grid* when an isometry
  of the surface maps one onto the other. The unfolded rectangle is only
  one way of cutting the surface open: a Möbius grid shifted along the strip
  (the columns leaving the right edge re-entering on the left, flipped) is
  the same puzzle to a solver with the seam drawn elsewhere, and so are its
  mirror images (the shape of every light and crossing is kept; only the
  reading direction of some lights changes). The symmetry group of the
  surface is built once per size from the glue itself (`mobius.cpmodel.surface`):
  the shifts along each glued pair of edges (by every number of steps) and
  the reflections of the rectangle (and, on a square, the transposition that swaps across and
  down), keeping those that map the surface's adjacency onto itself, and
  closed under composition. The key is the least image of the pattern's
  blocks and bars over the group; a pattern's symmetric images all get the
  same key, different grids different keys.
- `lane_of(key)`: a hash partition of the space into `PATTERN_LANES` lanes,
  fixed and independent of any seed. A pack with seed S draws from lane
  S mod `PATTERN_LANES` first, so packs whose seeds differ modulo the lane
  count never share a grid while their lanes last.
- `PatternSurvey`: the distinct grids one pack may use, deduplicated by
  canonical key before any filling, in the order the pack uses them. A small
  space is listed whole by `pattern_enumeration.enumerate_patterns` — then
  its size is exact and known before the first puzzle — and walked in an
  order seeded by the pack seed, the pack's lane first. A large one is drawn
  on demand from the pack's seeded stream (`generate_pattern` with seeds
  derived from the pack seed), keeping grids of the pack's lane until the
  draws stop finding new grids (`SATURATION_DRAWS` draws in a row without
  one: the space is used up as far as the generator reaches); then the
  other lanes' grids follow, lane by lane (also when the pack's walk finds
  its lane dry and calls `stop_drawing`). `estimate()` is the Chao1
  estimate of the number of distinct grids from how often each was drawn
  (Chao 1984: seen-once² / 2·seen-twice added to those seen), exact when
  the space is listed or used up. Where a draw is annealed (a second or more
  each), the survey keeps each draw in a `WorkMemo` by its seed when given
  one: a pack stopped before its first puzzle, whose folder is removed, does
  not draw again what it drew (a kept grid is used only if it still keeps
  the rules, `pattern_check`). A pack of given grids (`--patterns`,
  `given_grids.py`) hands them over as its listed space (`given`): exact,
  walked in the order the pack hands them over (hardest first), each grid
  shown as one of its files shows it.

Leaves out: the rules themselves (`pattern_rules.py`), checking them
(`pattern_check.py`), and filling.
"""

from __future__ import annotations

import hashlib
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from mobius.cpmodel.crossword.grid import Grid, make_grid
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.crossword.lights import ACROSS, DIRECTIONS, DOWN
from mobius.cpmodel.surface import Surface, step, surface
from mobius.generators.crossword.pattern_check import check_pattern
from mobius.generators.crossword.pattern_enumeration import enumerate_patterns
from mobius.generators.crossword.pattern_rules import PatternError, PatternSpec, annealed
from mobius.generators.crossword.patterns import generate_pattern

if TYPE_CHECKING:
    from mobius.generators.executors import Executor
    from mobius.generators.memo import WorkMemo

# Lanes of the hash partition. Four keep seeds 0-3 (the volumes of a small
# series) apart while costing each pack only four draws per pattern kept; a
# pack drawing from a lane of a large space sees one new grid in four draws.
PATTERN_LANES = 4
# Draws in a row that found no grid not seen before: then a space too large
# to list is taken as used up. The generator draws unevenly (on the 11×5
# Möbius strip, which is listed instead, one grid of 40 came up in a quarter
# of the draws and the longest run without a new grid was 500), so this only
# ends a survey whose lane is nearly used up, at a cost of a few seconds.
SATURATION_DRAWS = 150
# Draws a survey keeps running ahead of the walk when it has a runner, and
# how many one task holds: the eight puzzles in flight need a few hundred draws
# of an 11×5 strip late in a pack, about a second of work, which the workers
# then do beside the fills instead of the main process doing it between them.
DRAWS_AHEAD = 128
DRAW_BATCH = 16
# The same where a draw is annealed (`pattern_rules.annealed`, about a second for
# a 15×15 grid against milliseconds): enough to keep two workers drawing beside
# the fills without drawing far past the pack's end.
ANNEALED_DRAWS_AHEAD = 8
ANNEALED_DRAW_BATCH = 2
# The most draws a survey makes in all: a bound for rules that the generator
# meets only rarely (it then reports what it found).
MAX_DRAWS = 20_000


# --- the symmetry group of a surface -----------------------------------------------

@dataclass(frozen=True)
class _Group:
    cells: np.ndarray  # (elements, W*H): element g sends cell c to cells[g, c]
    edges: np.ndarray  # (elements, 2*W*H): the same for edge keys 2*cell + axis (-1: no such edge)


def _index(width: int, x: int, y: int) -> int:
    return y * width + x


def _edge_table(surf: Surface, width: int, height: int) -> dict[int, tuple[int, int]]:
    """Edge key 2*a + axis -> (a, b): the edge leaving cell a rightwards (axis 0) or downwards (axis 1)."""
    table = {}
    for y in range(height):
        for x in range(width):
            for axis, name in enumerate((ACROSS, DOWN)):
                nxt = step(surf, width, height, (x, y), DIRECTIONS[name])
                if nxt is not None:
                    table[2 * _index(width, x, y) + axis] = (_index(width, x, y), _index(width, *nxt.cell))
    return table


def _candidates(surf: Surface, width: int, height: int) -> list[tuple[list[int], bool]]:
    """Maps of cells that may be symmetries: (image of each cell, swaps the axes)."""
    cells = [(x, y) for y in range(height) for x in range(width)]
    found = []
    for name, size in ((ACROSS, width), (DOWN, height)):
        # k steps along a glued pair of edges, for every k: on a Klein bottle
        # one step down is no symmetry but half the height may be.
        moved = [_index(width, *c) for c in cells]
        for _ in range(1, size):
            nxt = [step(surf, width, height, cells[c], DIRECTIONS[name]) for c in moved]
            if any(m is None for m in nxt):
                break
            moved = [_index(width, *m.cell) for m in nxt]
            found.append((moved, False))
    found.append(([_index(width, width - 1 - x, y) for x, y in cells], False))
    found.append(([_index(width, x, height - 1 - y) for x, y in cells], False))
    if width == height:
        found.append(([_index(width, y, x) for x, y in cells], True))
    return found


def _edge_map(cell_map: list[int], swaps: bool, edges: dict[int, tuple[int, int]]) -> list[int] | None:
    """The edge permutation a cell map induces, or None if it is no symmetry
    (an edge whose ends are not joined by an edge of the right axis)."""
    joined = {(a, b, key % 2): key for key, (a, b) in edges.items()}
    image = [-1] * (2 * len(cell_map))
    for key, (a, b) in edges.items():
        axis = 1 - key % 2 if swaps else key % 2
        ia, ib = cell_map[a], cell_map[b]
        there = {joined.get((ia, ib, axis)), joined.get((ib, ia, axis))} - {None}
        if len(there) != 1:
            return None  # no edge, or two (a surface too small to tell its edges apart)
        image[key] = there.pop()
    return image if sorted(k for k in image if k >= 0) == sorted(edges) else None


@lru_cache(maxsize=32)
def _group(surface_name: str, width: int, height: int) -> _Group:
    """Every symmetry of the surface that maps cells to cells, closed under composition."""
    surf = surface(surface_name)
    edges = _edge_table(surf, width, height)
    generators = []
    for cell_map, swaps in _candidates(surf, width, height):
        edge_map = _edge_map(cell_map, swaps, edges)
        if edge_map is not None:
            generators.append((tuple(cell_map), tuple(edge_map)))
    identity = (tuple(range(width * height)), tuple(k if k in edges else -1 for k in range(2 * width * height)))
    elements = {identity[0]: identity}
    frontier = [identity]
    while frontier:
        grown = []
        for cell_map, edge_map in frontier:
            for gen_cells, gen_edges in generators:
                cells = tuple(gen_cells[c] for c in cell_map)
                if cells not in elements:
                    elements[cells] = (cells, tuple(gen_edges[e] if e >= 0 else -1 for e in edge_map))
                    grown.append(elements[cells])
        frontier = grown
    ordered = sorted(elements.values())
    return _Group(np.array([c for c, _ in ordered], dtype=np.int32), np.array([e for _, e in ordered], dtype=np.int32))


def symmetry_count(surface_name: str, width: int, height: int) -> int:
    """How many symmetries the surface has (the size of the group keys are taken over)."""
    return len(_group(surface(surface_name).name, width, height).cells)


def canonical_key(grid: Grid) -> str:
    """The same hex string for every image of the pattern under the surface's
    symmetries, a different one for a different grid (letters are ignored)."""
    w, h = grid.width, grid.height
    group = _group(grid.surface.name, w, h)
    blocks = np.zeros(w * h, dtype=bool)
    for x, y in grid.blocks:
        blocks[_index(w, x, y)] = True
    bars = np.zeros(2 * w * h + 1, dtype=bool)  # the last slot takes the "no edge" images
    for axis, owners in enumerate((grid.bars_right, grid.bars_below)):
        for x, y in owners:
            bars[2 * _index(w, x, y) + axis] = True
    elements = np.arange(len(group.cells))[:, None]
    cell_images = np.zeros((len(group.cells), w * h), dtype=bool)
    cell_images[elements, group.cells] = blocks[None, :]
    edge_images = np.zeros((len(group.cells), 2 * w * h + 1), dtype=bool)
    edge_images[elements, np.where(group.edges >= 0, group.edges, 2 * w * h)] = bars[None, :-1]
    packed = np.packbits(np.hstack([cell_images, edge_images[:, :-1]]), axis=1)
    least = packed[np.lexsort(packed.T[::-1])[0]]
    return hashlib.sha256(f"{grid.surface.name}:{w}x{h}:".encode() + least.tobytes()).hexdigest()


def lane_of(key: str) -> int:
    """The lane of a canonical key (a fixed hash partition)."""
    return int(key[:8], 16) % PATTERN_LANES


# --- a pack's survey ---------------------------------------------------------------

def draw_patterns(spec: PatternSpec, seeds: list[int]) -> list[Grid | str]:
    """`generate_pattern` for each seed: its grid, or the generator's reason for
    finding none (a task a survey runs ahead where the pack's jobs run)."""
    found: list[Grid | str] = []
    for seed in seeds:
        try:
            found.append(generate_pattern(spec, seed))
        except PatternError as exc:
            found.append(exc.reason)
    return found


def _draw_json(draw: Grid | str) -> Any:
    """A draw as a memo keeps it: the generator's reason, or the grid's rows and bars."""
    if isinstance(draw, str):
        return draw
    return {"rows": list(draw.rows), "bars_right": sorted(draw.bars_right), "bars_below": sorted(draw.bars_below)}


def _seeded_order(keys: list[str], seed: int) -> list[str]:
    """A fixed shuffle of `keys` for a pack seed (a hash, so no generator state is involved)."""
    return sorted(keys, key=lambda k: hashlib.sha256(f"{seed}:{k}".encode()).digest())


class PatternSurvey:
    """The distinct patterns one pack may use, in the order it uses them.

    A small space (`enumerate_patterns` lists it) is known at once: its
    grids in a seeded order, the pack's lane first. A large one is drawn on
    demand from the pack's seeded stream (`draw_seed(j)` is the seed of draw
    j), keeping grids of the pack's lane until the draws stop finding new
    grids; then the other lanes' grids follow. `get(n)` is pattern n of the
    walk, or None once the space has run out before it. `memo`: where draws
    are kept between runs (see the module docstring); `given`: the grids of
    the space, listed by the caller (the pack's own), instead of the rules'.
    """

    def __init__(self, spec: PatternSpec, seed: int, draw_seed: Callable[[int], int],
                 runner: Executor | None = None, memo: WorkMemo | None = None,
                 given: list[Grid] | None = None) -> None:
        self.spec, self.seed, self.draw_seed, self.memo = spec, seed, draw_seed, memo
        self.runner = runner  # where draws run ahead of the walk; None: here, when needed
        # draws kept running ahead, in tasks of `batch`: fewer where a draw is annealed
        self.draws_ahead, self.batch = (ANNEALED_DRAWS_AHEAD, ANNEALED_DRAW_BATCH) if annealed(spec) else \
            (DRAWS_AHEAD, DRAW_BATCH)
        # An annealed draw costs a second and is another grid almost every time: each one is taken,
        # whatever its lane (lanes keep packs of other seeds apart in spaces a pack can use up).
        self.lanes = not annealed(spec)
        self.ahead: deque[Any] = deque()  # handles of batches of draws started, in order
        self.started = 0  # draws started ahead
        self.drawn: deque[Grid | str] = deque()  # draws finished and not yet taken
        self.lane = seed % PATTERN_LANES
        self.draws = 0
        self.seen: Counter[str] = Counter()  # draws per key (sampling), for the estimate
        self.grids: dict[str, Grid] = {}
        self.order: list[str] = []  # the walk: the pack's lane first
        self.others: list[str] = []  # grids of other lanes found while sampling, not yet in the walk
        self.since_new = 0
        self.failure: str | None = None  # why the generator failed, if it did
        listed = given if given is not None else enumerate_patterns(spec)
        self.given = given is not None  # the caller's grids (--patterns), not the rules'
        self.exact = listed is not None  # the whole space is listed
        self.complete = self.exact  # no further grid will be found
        if listed is not None:
            self._take_list(listed, given is not None)

    def _take_list(self, listed: list[Grid], given: bool) -> None:
        members: dict[str, list[Grid]] = {}
        for grid in listed:
            members.setdefault(canonical_key(grid), []).append(grid)
        for key, grids in members.items():
            # Which rectangle shows a grid is the pack's choice: they are all the same grid. A given grid is
            # shown as the first file that gives it shows it.
            self.grids[key] = grids[0] if given else \
                min(grids, key=lambda g: hashlib.sha256(f"{self.seed}:{g.rows}".encode()).digest())
        if given:  # walked in the caller's order, all of them the pack's own
            self.order = list(members)
            return
        self.others = list(members)
        self._finish()

    def get(self, n: int) -> tuple[str, Grid] | None:
        """Pattern n of the walk (its canonical key and grid), drawing as needed."""
        while n >= len(self.order) and not self.complete:
            self._draw()
        if n < len(self.order):
            key = self.order[n]
            return key, self.grids[key]
        return None

    @property
    def found(self) -> int:
        return len(self.grids)

    def estimate(self) -> int:
        """How many distinct grids the space holds: exact when listed or used
        up, else the Chao1 estimate from the draws so far."""
        if self.complete or not self.seen:
            return self.found
        once = sum(1 for n in self.seen.values() if n == 1)
        twice = sum(1 for n in self.seen.values() if n == 2)
        unseen = once * once / (2 * twice) if twice else once * (once - 1) / 2
        return round(self.found + unseen)

    def _draw(self) -> None:
        if self.draws >= MAX_DRAWS:
            self._finish()
            return
        grid = self._next_draw()
        self.draws += 1
        if isinstance(grid, str):
            # A spec the generator cannot meet: a draw without a new grid, so
            # an impossible spec ends the survey after SATURATION_DRAWS.
            self.failure = grid
            self._miss()
            return
        key = canonical_key(grid)
        self.seen[key] += 1
        if self.seen[key] > 1:
            self._miss()
            return
        self.since_new = 0
        self.grids[key] = grid
        (self.order if lane_of(key) == self.lane or not self.lanes else self.others).append(key)

    def _next_draw(self) -> Grid | str:
        """Draw number `self.draws`: its grid, or why the generator found none.
        With a runner, DRAWS_AHEAD draws are kept running there in batches of
        DRAW_BATCH (or the ANNEALED_ values), so the walk seldom waits; every draw is a function of its
        number alone, so where it ran changes nothing, and nor does taking it from the memo."""
        if self.memo is not None and not self.ahead and not self.drawn:  # none of it in flight
            kept = self._kept(self.draw_seed(self.draws))
            if kept is not None:
                self.started = max(self.started, self.draws + 1)
                return kept
        grid = self._run_draw()
        if self.memo is not None:
            self.memo.put(str(self.draw_seed(self.draws)), _draw_json(grid))
        return grid

    def _run_draw(self) -> Grid | str:
        if self.runner is None:
            return draw_patterns(self.spec, [self.draw_seed(self.draws)])[0]
        while self.started < min(self.draws + self.draws_ahead, MAX_DRAWS):
            seeds = [self.draw_seed(j) for j in range(self.started, min(self.started + self.batch, MAX_DRAWS))]
            self.ahead.append(self.runner.call(draw_patterns, self.spec, seeds))
            self.started += len(seeds)
        if not self.drawn:
            self.drawn.extend(self.runner.outcome(self.ahead.popleft()))
        return self.drawn.popleft()

    def _kept(self, seed: int) -> Grid | str | None:
        """The draw of `seed` as the memo keeps it, if it is one the generator could have made."""
        kept = self.memo.get(str(seed)) if self.memo is not None else None
        if isinstance(kept, str):
            return kept
        if not isinstance(kept, dict):
            return None
        try:
            grid = make_grid(kept["rows"], self.spec.surface, bars_right=map(tuple, kept["bars_right"]),
                             bars_below=map(tuple, kept["bars_below"]))
        except (InputError, KeyError, TypeError, ValueError):
            return None
        return None if check_pattern(grid, self.spec) else grid

    def _miss(self) -> None:
        self.since_new += 1
        if self.since_new >= SATURATION_DRAWS:
            self._finish()

    def stop_drawing(self) -> None:
        """Take the space as used up now (a walk that finds the pack's lane dry): see `_finish`."""
        if not self.complete:
            self._finish()

    def _finish(self) -> None:
        """No new grid will come: the walk goes on with the grids of the other
        lanes, lane by lane after the pack's own, each in the seeded order."""
        self.complete = True
        own = [k for k in self.others if lane_of(k) == self.lane]
        rest = [k for k in self.others if lane_of(k) != self.lane]
        self.order.extend(_seeded_order(own, self.seed))
        for step_ in range(1, PATTERN_LANES):
            lane = (self.lane + step_) % PATTERN_LANES
            self.order.extend(_seeded_order([k for k in rest if lane_of(k) == lane], self.seed))
        self.others = []
