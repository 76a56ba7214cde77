"""The constructive search for block and barred patterns (the rules are
`pattern_rules.py`'s): `search_pattern`, a seeded, randomised search, and
`pattern_problem`, its own judgement of a finished grid. The surface it
works on, indexed and with its symmetry precomputed, is `pattern_layout.py`'s;
canonical form, counting and the per-seed walk through the patterns are
`pattern_space.py`'s.

The search reads every run from `mobius.cpmodel.crossword.lights.runs_of_blocks`
(the project's one run finder, which `find_runs` reads a grid with) on the
blocks as they stand. An attempt starts from
all white and only ever adds symmetric orbits:

1. repair: after every move, each run too short to be a light is filled
   with blocks (barred style cannot fill, so a bar that leaves a short run
   is refused);
2. required cuts: every cyclic run (unless allowed), every run over the
   seam limit and every run over the length limit is split, by the candidate
   block or bar needing least repair;
3. random moves: orbits drawn by a small tournament (least repair first,
   then the longest runs split) until a density drawn from the range is
   reached, first without any repair (no clumps), then, only if the density
   floor is still out of reach, with it.

A move whose repair overshoots the density ceiling, disconnects the white
cells, leaves fewer seam lights than asked, makes clutter or too many short
lights is undone. The finished attempt is checked against every rule once
more; one that gets stuck or fails is abandoned and a fresh one started, at
most `MAX_ATTEMPTS` times, all driven by one `random.Random(seed)`.


Leaves out: the rules and their spec (`pattern_rules.py`), annealing
word-capped block grids for fill (`pattern_anneal.py`; `patterns.py` runs
both), words and fills, clue numbering (`mobius.cpmodel.crossword.lights`), rendering, and
the surface geometry itself (asked of `mobius.cpmodel.surface`).
"""

from __future__ import annotations

import random
from collections import Counter

from mobius.cpmodel.crossword.grid import BLOCK, WHITE, Grid
from mobius.cpmodel.crossword.lights import ACROSS, DOWN, Run, runs_of_blocks
from mobius.cpmodel.surface import Cell, surface
from mobius.generators.crossword.pattern_layout import Layout, layout_of, pieces
from mobius.generators.crossword.pattern_rules import (AXES, SHORT_LIGHT, PatternSpec, PatternStats, attempts_failed,
                                                      concrete_symmetries, density_bounds, length_ok, no_pattern,
                                                      with_symmetry)

# Fresh starts before giving up. On the pack sizes with the pack rules an
# attempt succeeds about one time in three at worst (11×5 Möbius), so 200
# makes a spurious failure vanishingly rare, while an impossible spec still
# fails within a few seconds.
MAX_ATTEMPTS = 200

# Candidates drawn per random move; of those needing the least repair, the
# one on the longest runs wins. One would place blocks uniformly and leave
# many full-width lights; larger values make evenly spaced, monotonous grids.
TOURNAMENT_SIZE = 3

# Blocks a random move may add beyond its own orbit to repair runs it leaves
# too short. Required cuts may need more (a Möbius strip of height 5 needs a
# whole column), but random moves that drag in extra blocks make clumps.
MAX_RANDOM_REPAIR = 0

Runs = dict[str, list[Run]]


# --- one attempt --------------------------------------------------------------

_Units = tuple[list[int], list[int]]  # cell indices and edge keys: a move, or what it added


class _Attempt:
    """A pattern under construction: blocks and bars are only ever added
    (with their symmetric images), except that a refused move is undone.
    Runs come from `runs_of_blocks` (which remembers each track's runs) on the
    current blocks, cached until they change."""

    def __init__(self, layout: Layout, spec: PatternSpec, rng: random.Random) -> None:
        self.layout, self.spec, self.rng = layout, spec, rng
        self.blocked = bytearray(layout.width * layout.height)
        self.bars: set[int] = set()
        self.barred = spec.style == "barred"
        self.ceiling = density_bounds(spec)[1]
        self.rejected = 0
        self._runs: Runs | None = None
        self._where: tuple[dict[Cell, tuple[int, int]], ...] | None = None

    @property
    def count(self) -> int:
        """What the density counts: bars in barred style, blocks otherwise."""
        return len(self.bars) if self.barred else sum(self.blocked)

    @property
    def unit_name(self) -> str:
        return "bar" if self.barred else "block"

    # the grid and its runs ------------------------------------------------

    def grid(self) -> Grid:
        w, h = self.layout.width, self.layout.height
        rows = tuple("".join(BLOCK if self.blocked[y * w + x] else WHITE for x in range(w)) for y in range(h))
        bars = [frozenset((e // 2 % w, e // 2 // w) for e in self.bars if e % 2 == axis) for axis in (0, 1)]
        return Grid(rows, self.layout.surface, bars[0], bars[1])

    def runs(self) -> Runs:
        if self._runs is None:
            layout, w = self.layout, self.layout.width
            bars = [{(e // 2 % w, e // 2 // w) for e in self.bars if e % 2 == axis} for axis in (0, 1)] \
                if self.bars else [set(), set()]
            self._runs = {name: runs_of_blocks(layout.surface, w, layout.height, name, self.blocked, bars[axis])
                          for axis, name in enumerate(AXES)}
            self._where = None
        return self._runs

    def where(self, axis: int) -> dict[Cell, tuple[int, int]]:
        """Per white cell: (index of its run along `axis`, its position in the run)."""
        runs = self.runs()
        if self._where is None:
            self._where = tuple({c: (k, p) for k, (cells, _, _) in enumerate(runs[name]) for p, c in enumerate(cells)}
                                for name in AXES)
        return self._where[axis]

    def run_length(self, axis: int, cell: Cell) -> int:
        """Length of the run through `cell` along `axis` (0 on a block)."""
        found = self.where(axis).get(cell)
        return len(self.runs()[AXES[axis]][found[0]][0]) if found else 0

    def lights(self) -> list[tuple[int, Run]]:
        """(axis, run) for every run long enough to be a light."""
        return [(axis, run) for axis, name in enumerate(AXES) for run in self.runs()[name]
                if len(run[0]) >= self.spec.min_length]

    # moves --------------------------------------------------------------

    def move(self, unit: int) -> _Units:
        """The (cells, edges) of placing one block, or one bar in barred style."""
        return ([], [unit]) if self.barred else ([unit], [])

    def apply(self, cells: list[int], edges: list[int]) -> _Units | None:
        """Add blocks and bars with their images and repair the runs left too
        short; return what was added, or None (nothing changed) if that breaks
        the density ceiling or, in barred style, leaves a short run."""
        added: _Units = ([], [])
        if self.close(cells, edges, *added):
            return added
        self.undo(*added)
        return None

    def undo(self, cells: list[int], edges: list[int]) -> None:
        for c in cells:
            self.blocked[c] = 0
        self.bars.difference_update(edges)
        if cells or edges:
            self._runs = None

    def close(self, cells: list[int], edges: list[int], added_cells: list[int], added_edges: list[int],
              cap: int | None = None) -> bool | None:
        """The loop behind `apply`: add, then fill the runs left too short,
        until none is; records what it added even when it fails, so that the
        caller can undo it. None (undecided) once more than `cap` are added."""
        layout = self.layout
        while True:
            for c in cells:
                for d in (c, layout.cell_image[c]):
                    if not self.blocked[d]:
                        self.blocked[d] = 1
                        added_cells.append(d)
                        self._runs = None
            for e in edges:
                for f in (e, layout.edge_image[e]):
                    if f not in self.bars:
                        self.bars.add(f)
                        added_edges.append(f)
                        self._runs = None
            if cap is not None and len(added_cells) + len(added_edges) > cap:
                return None
            if self.count > self.ceiling:
                return False
            short = [layout.index(c) for runs in self.runs().values() for cells_, _, _ in runs
                     if not length_ok(len(cells_), self.spec) for c in cells_]
            if not short:
                return True
            if self.barred:
                return False  # bars cannot lengthen or fill a run
            cells, edges = short, []

    def needs_repair(self, unit: int) -> bool | None:
        """Whether a move leaves a run too short, read off the current runs
        (no new grid): None if it is refused outright (over the density
        ceiling; in barred style, a short run)."""
        layout = self.layout
        if self.barred:
            orbit = {unit, layout.edge_image[unit]}
            new = len(orbit - self.bars)
            cuts = [(e % 2, e // 2) for e in orbit]
        else:
            orbit = {unit, layout.cell_image[unit]}
            new = sum(1 for c in orbit if not self.blocked[c])
            cuts = [(axis, c) for c in orbit for axis in (0, 1)]
        if self.count + new > self.ceiling:
            return None
        per_run: dict[tuple[int, int], set[int]] = {}
        for axis, index in cuts:
            found = self.where(axis).get((index % layout.width, index // layout.width))
            if found is not None:
                per_run.setdefault((axis, found[0]), set()).add(found[1])
        for (axis, k), positions in per_run.items():
            cells, _, cyclic = self.runs()[AXES[axis]][k]
            removed, splits = (set(), positions) if self.barred else (positions, set())
            if not all(length_ok(n, self.spec) for n in pieces(len(cells), cyclic, removed, splits)):
                return None if self.barred else True
        return False

    def repair_cost(self, unit: int, limit: int | None = None, *, bound: int | None = None) -> int | None:
        """Blocks the repair adds beyond the unit's own orbit (the pattern is
        left unchanged); None if the move is refused or needs more than `limit`.
        With `bound`, the repair stops once it has added more than `bound` and
        reports bound + 1: the cost is then known only to exceed it."""
        needs = self.needs_repair(unit)
        if needs is None:
            self.rejected += 1
            return None
        if not needs:
            return 0
        if limit == 0:
            return None
        orbit = len({unit, self.layout.edge_image[unit] if self.barred else self.layout.cell_image[unit]})
        added: _Units = ([], [])
        closed = self.close(*self.move(unit), *added, cap=None if bound is None else bound + orbit)
        self.undo(*added)
        if closed is None:
            return bound + 1 if bound is not None else None
        if not closed:
            self.rejected += 1
            return None
        return len(added[0]) + len(added[1]) - orbit

    def place(self, unit: int) -> bool:
        """Apply a move if it keeps every rule a move can break; count it as
        rejected otherwise."""
        added = self.apply(*self.move(unit))
        if added is not None and self.move_problem() is None:
            return True
        if added is not None:
            self.undo(*added)
        self.rejected += 1
        return False

    # rules --------------------------------------------------------------

    def connected(self) -> bool:
        """One region of white cells: walk from one run to the runs crossing
        it, through the cells they share, until no run is new."""
        runs = self.runs()
        if not runs[ACROSS]:
            return False
        where = (self.where(0), self.where(1))
        seen = [[False] * len(runs[ACROSS]), [False] * len(runs[DOWN])]
        seen[0][0] = True
        stack, reached = [(0, 0)], 0
        while stack:
            axis, k = stack.pop()
            cells = runs[AXES[axis]][k][0]
            if axis == 0:
                reached += len(cells)
            other = 1 - axis
            for c in cells:
                j = where[other][c][0]
                if not seen[other][j]:
                    seen[other][j] = True
                    stack.append((other, j))
        return reached == len(where[0])

    def move_problem(self) -> str | None:
        """The first rule that adding blocks or bars can break for good, or None."""
        if not self.connected():
            return "it disconnects the white cells"
        lights = self.lights()
        if sum(1 for _, (_, crossings, _) in lights if crossings) < self.spec.min_seam_lights:
            return f"fewer than {self.spec.min_seam_lights} lights would cross the seam"
        share = self.spec.max_short_share
        if share is not None and lights and sum(len(c) <= SHORT_LIGHT for _, (c, _, _) in lights) > share * len(lights):
            return f"more than {share:.0%} of the lights would have {SHORT_LIGHT} or fewer letters"
        if not self.spec.allow_clutter and self.clutter(lights):
            return f"a row or column would hold only lights of {SHORT_LIGHT} or fewer letters"
        if self.spec.max_words is not None and len(lights) > self.spec.max_words:
            return f"there would be more than {self.spec.max_words} words"
        if self.layout.surface.name == "plane" and self.full_line():
            return "a row or column would be all blocks"
        squares = self.spec.max_block_squares
        if squares is not None and self.block_squares() > squares:
            return f"there would be more than {squares} 2x2 squares of blocks" if squares \
                else "it makes a 2x2 square of blocks"
        return None

    def full_line(self) -> bool:
        """A row or column of the rectangle all blocks."""
        w, h, b = self.layout.width, self.layout.height, self.blocked
        return any(all(b[y * w:(y + 1) * w]) for y in range(h)) or any(all(b[x::w]) for x in range(w))

    def block_squares(self) -> int:
        """2×2 squares of blocks in the unfolded rectangle."""
        w, b = self.layout.width, self.blocked
        return sum(1 for y in range(self.layout.height - 1) for i in range(y * w, y * w + w - 1)
                   if b[i] and b[i + 1] and b[i + w] and b[i + w + 1])

    def clutter(self, lights: list[tuple[int, Run]]) -> bool:
        per_track: dict[tuple[int, int], list[int]] = {}
        for axis, (cells, _, _) in lights:
            per_track.setdefault((axis, self.layout.track_of[axis][self.layout.index(cells[0])]), []).append(len(cells))
        return any(len(lengths) > 1 and max(lengths) <= SHORT_LIGHT for lengths in per_track.values())

    def first_need(self) -> tuple[str, list[int]] | None:
        """The first run that is a forbidden loop, too long or crosses the seam
        too often: what it is, and the cells (barred: edges) that could split it."""
        spec, limit = self.spec, self.spec.max_seam_crossings
        for axis, name in enumerate(AXES):
            for cells, crossings, cyclic in self.runs()[name]:
                if cyclic and (not spec.allow_cyclic or (limit is not None and crossings > limit)):
                    return ("a light running all the way round the surface",
                            self.units_between(axis, cells, 0, len(cells), closing=True))
                if spec.max_length is not None and len(cells) > spec.max_length:
                    return f"a light longer than {spec.max_length}", self.units_between(axis, cells, 0, len(cells))
                if cyclic or limit is None or crossings <= limit:
                    continue
                at = [j for j in range(len(cells) - 1) if self.layout.crosses[axis][self.layout.index(cells[j])]]
                # A cut from the first crossing up to the (limit+1)-th leaves at most `limit`
                # crossings before it; what follows is split by a later need.
                first, last = at[0], at[limit]
                return (f"a light crossing the seam more than {limit} times",
                        self.units_between(axis, cells, first, last + 1, cells_to=last + 2))
        return None

    def units_between(self, axis: int, cells: tuple[Cell, ...], start: int, stop: int, *, closing: bool = False,
                      cells_to: int | None = None) -> list[int]:
        """Candidate cuts of a run: the edges leaving cells[start:stop] (barred;
        with `closing`, the last one leaves the run's end for its start), or
        the cells[start:cells_to or stop] (blocks)."""
        if self.barred:
            return [2 * self.layout.index(cells[j]) + axis for j in range(start, stop)
                    if closing or j + 1 < len(cells)]
        return [self.layout.index(c) for c in cells[start:cells_to or stop]]

    def problem(self, floor: int) -> str | None:
        """Every rule checked once more on the finished attempt: the reason it fails, or None."""
        if self.count < floor:
            return f"no further {self.unit_name} fitted before reaching the density floor of {floor}"
        if self.count > self.ceiling:
            return f"more than {self.ceiling} {self.unit_name}s"
        if any(not length_ok(len(c), self.spec) for runs in self.runs().values() for c, _, _ in runs):
            return "a run too short to be a light is left"
        need = self.first_need()
        return need[0] if need else self.move_problem()

    # phases -------------------------------------------------------------

    def cut_required(self) -> str | None:
        """Phase 2: meet every need, trying the cuts that need the least repair
        first (a cut needing none is taken at once). The reason for giving
        up, or None when every need is met."""
        while (need := self.first_need()) is not None:
            what, candidates = need
            self.rng.shuffle(candidates)  # random order among equally cheap cuts
            if not self.place_cheapest(candidates):
                return f"no {self.unit_name} could cut {what} without breaking another rule"
        return None

    def place_cheapest(self, candidates: list[int]) -> bool:
        """Place the first candidate needing no repair, else the cheapest that is accepted."""
        repaired = []
        for unit in candidates:
            needs = self.needs_repair(unit)
            if needs is False and self.place(unit):
                return True
            if needs:
                repaired.append(unit)
            elif needs is None:
                self.rejected += 1
        # Only now the costs of the cuts that need repair: each takes new grids,
        # so a repair is cut short once it costs more than the cheapest so far.
        # The cheapest are tried first, in candidate order; only if none is
        # accepted are the others costed exactly and tried, cheapest first.
        costs: dict[int, int] = {}
        cheapest: int | None = None
        for unit in repaired:
            cost = self.repair_cost(unit, bound=cheapest)
            if cost is not None:
                costs[unit] = cost
                cheapest = cost if cheapest is None else min(cheapest, cost)
        first = [unit for unit in repaired if costs.get(unit) == cheapest]
        if any(self.place(unit) for unit in first):
            return True
        for unit in repaired:
            if unit in costs and costs[unit] > cheapest:  # known only to cost more than the cheapest
                cost = self.repair_cost(unit)
                if cost is None:
                    del costs[unit]
                else:
                    costs[unit] = cost
        rest = [unit for unit in repaired if unit in costs and unit not in first]
        return any(self.place(unit) for unit in sorted(rest, key=costs.__getitem__))

    def free(self) -> list[int]:
        """Cells (barred: edges) that could still take a block (bar)."""
        if self.barred:
            return [e for e in self.layout.edge_image if e not in self.bars]
        return [c for c in range(len(self.blocked)) if not self.blocked[c]]

    def add_random(self, target: int, max_repair: int | None) -> None:
        """Phase 3: add tournament-picked orbits until the count reaches
        `target` or no free unit can take one. A refused unit stays refused
        until the next move succeeds: only a move changes the pattern."""
        refused: set[int] = set()
        while self.count < target:
            live = [unit for unit in self.free() if unit not in refused]
            if not live:
                return
            options = []
            for unit in sorted({self.rng.choice(live) for _ in range(TOURNAMENT_SIZE)}):
                cost = self.repair_cost(unit, max_repair)
                if cost is None or (max_repair is not None and cost > max_repair):
                    refused.add(unit)
                else:
                    options.append((cost, -self.score(unit), unit))
            if not options:
                continue
            pick = min(options)[2]  # least repair, then the longest runs split
            if self.place(pick):
                refused.clear()
            else:
                refused.add(pick)

    def score(self, unit: int) -> int:
        """Total length of the runs a block (bar) here would split."""
        index = unit // 2 if self.barred else unit
        where = (index % self.layout.width, index // self.layout.width)
        return sum(self.run_length(axis, where) for axis in ((unit % 2,) if self.barred else (0, 1)))


# --- the search ---------------------------------------------------------------

def pattern_problem(grid: Grid, spec: PatternSpec) -> str | None:
    """The generator's own judgement of a finished grid: the first rule it
    breaks, or None. (The independent checker is `pattern_check.check_pattern`.)"""
    if (grid.width, grid.height, grid.surface.name) != (spec.width, spec.height, surface(spec.surface).name):
        return "another size or surface"
    kept = grid_symmetry(grid, spec)
    if kept is None:
        return f"not {' or '.join(concrete_symmetries(spec))} symmetric"
    return _problem(grid, with_symmetry(spec, kept))


def grid_symmetry(grid: Grid, spec: PatternSpec) -> str | None:
    """The first of `spec`'s concrete symmetries that `grid`'s blocks and bars keep, or None."""
    for symmetry in concrete_symmetries(spec):
        layout = layout_of(spec.width, spec.height, grid.surface.name, symmetry)
        blocked = [ch == BLOCK for row in grid.rows for ch in row]
        bars = _bar_keys(grid, spec.width)
        if all(blocked[c] == blocked[layout.cell_image[c]] for c in range(len(blocked))) and \
                all(e in layout.edge_image and layout.edge_image[e] in bars for e in bars):
            return symmetry
    return None


def _bar_keys(grid: Grid, width: int) -> set[int]:
    return {2 * (y * width + x) + axis for axis, owners in enumerate((grid.bars_right, grid.bars_below))
            for x, y in owners}


def _problem(grid: Grid, spec: PatternSpec) -> str | None:
    """`pattern_problem` of a grid keeping `spec`'s one concrete symmetry."""
    layout = layout_of(spec.width, spec.height, grid.surface.name, spec.symmetry)
    state = _Attempt(layout, spec, random.Random(0))
    for cell in grid.blocks:
        state.blocked[layout.index(cell)] = 1
    state.bars.update(_bar_keys(grid, spec.width))
    if (state.barred and grid.blocks) or (not state.barred and state.bars):
        return f"not a {spec.style} pattern"
    return state.problem(density_bounds(spec)[0])



def search_pattern(spec: PatternSpec, seed: int) -> tuple[Grid, PatternStats]:
    """A pattern satisfying `spec` by the constructive search, the same one for the same
    spec and seed, and how many attempts it took.

    Raises PatternError if none is found within MAX_ATTEMPTS attempts. Under "any" symmetry the seed
    chooses one of the spec's concrete symmetries first (`concrete_symmetry`).
    """
    spec = with_symmetry(spec, concrete_symmetry(spec, seed))
    layout = layout_of(spec.width, spec.height, surface(spec.surface).name, spec.symmetry)
    rng = random.Random(seed)
    floor, ceiling = density_bounds(spec)
    if floor > ceiling:
        units = "bars" if spec.style == "barred" else "blocks"
        raise no_pattern(spec, f"the density range allows no whole number of {units} among "
                               f"{spec.width * spec.height} cells")
    failures: Counter[str] = Counter()
    rejected = 0
    for attempt in range(1, MAX_ATTEMPTS + 1):
        state = _Attempt(layout, spec, rng)
        failure = _run_attempt(state, floor, ceiling)
        rejected += state.rejected
        if failure is None:
            return state.grid(), PatternStats(attempt, rejected)
        failures[failure] += 1
    raise attempts_failed(spec, seed, MAX_ATTEMPTS, failures)


def concrete_symmetry(spec: PatternSpec, seed: int) -> str:
    """The one symmetry a pattern of `spec` drawn with `seed` keeps: the spec's, or under "any" one of
    its concrete symmetries, chosen by the seed."""
    choices = concrete_symmetries(spec)
    return choices[random.Random(f"symmetry:{seed}").randrange(len(choices))]


def _run_attempt(state: _Attempt, floor: int, ceiling: int) -> str | None:
    """One attempt from all white; the reason it failed, or None on success."""
    if state.apply([], []) is None or not state.connected():
        # The repair of the all-white grid uses no randomness: every attempt would fail alike.
        raise no_pattern(state.spec, _repair_failure(state, ceiling))
    failure = state.cut_required()
    if failure is not None:
        return failure
    state.add_random(state.rng.randint(max(floor, state.count), ceiling), MAX_RANDOM_REPAIR)
    if state.count < floor and not state.barred:  # bars never repair: a second pass would refuse the same
        state.add_random(floor, None)  # rather clumps than no pattern
    return state.problem(floor)


def _repair_failure(state: _Attempt, ceiling: int) -> str:
    """Why filling the too-short runs of the all-white grid fails: re-run the
    fill on the (undone, all-white) state without the density ceiling and
    look at what it leaves."""
    spec = state.spec
    if spec.style == "barred":
        return f"a run of the bare {spec.surface} is shorter than {spec.min_length} and barred grids have no blocks"
    state.ceiling = len(state.blocked)
    state.close([], [], [], [])
    if state.count > ceiling:
        if state.count == len(state.blocked):
            return (f"no white cell can lie in {'both an across and a down' if spec.checked else 'a'} light of "
                    f"{spec.min_length}+ cells")
        return (f"filling every run shorter than {spec.min_length} takes {state.count} blocks, more than the "
                f"{ceiling} the density range allows")
    return "filling every run shorter than the minimum length disconnects the white cells"
