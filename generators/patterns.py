"""Block and barred grid patterns for crosswords on any surface.

Covers: `PatternSpec` (size, surface and the rules a pattern must keep),
`generate_pattern` (a seeded, randomised constructive search) and
`check_pattern` (an independent checker listing every rule a grid breaks).
The rules:

- symmetric under a symmetry of the unfolded rectangle: "rot180"
  ((x, y) → (W−1−x, H−1−y), the default: it maps every glue to itself, so a
  symmetric rectangle is a symmetric surface), "mirror" (x → W−1−x) or "none";
- every run of two or more white cells is a light of at least `min_length`;
- `checked=True`: every white cell lies in an across and a down light
  (American style); `checked=False` also allows runs of one cell;
- white cells connected through `step()` in all four directions, bars
  respected, across the glue;
- blocks (barred style: bars) per cell within `density`;
- no cyclic light (a loop with no block or bar) unless `allow_cyclic`;
- at most `max_seam_crossings` seam crossings per light, if given;
- no light longer than `max_length`, if given.

The search. With no blocks, `find_runs` cuts the cells of each direction into
fixed *tracks*: a row of the plane, the loop of one row on a cylinder, the
loop of rows y and H−1−y on a Möbius strip. Blocks and bars cut tracks into
runs. An attempt starts from all white and only ever adds symmetric orbits:

1. repair: after every move, each run too short to be a light is filled
   with blocks (barred style cannot fill, so a bar that leaves a short run
   is refused);
2. required cuts: every cyclic run (unless allowed), every run over the
   seam limit and every run over the length limit is split, by the candidate block or bar needing least repair;
3. random moves: orbits drawn by a small tournament (least repair first,
   then the longest runs split) until a density drawn from the range is
   reached, first without any repair (no clumps), then, only if the density
   floor is still out of reach, with it.

A move whose repair overshoots the density ceiling or disconnects the white
cells is undone. An attempt that gets stuck is abandoned and a fresh one
started, at most `MAX_ATTEMPTS` times, all driven by one `random.Random(seed)`.
`generate_pattern_with_stats` reports how many attempts that took
(`PatternStats.pattern_attempts`; all but the last were rejected).

Leaves out: words and fills, clue numbering (`cpmodel.crossword.lights`),
rendering, and the surface geometry itself (asked of `cpmodel.surface`).
"""

from __future__ import annotations

import math
import random
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from cpmodel.crossword.grid import BLOCK, MAX_SIZE, WHITE, Grid, make_grid
from cpmodel.crossword.lights import ACROSS, DIRECTIONS, DOWN, find_lights, find_runs
from cpmodel.surface import Cell, Surface, step, surface

SYMMETRIES = ("rot180", "mirror", "none")
STYLES = ("blocks", "barred")

# Published American grids run at about one block in six; 10 % still leaves
# enough blocks to cut every loop of the small glued grids the benchmarks use
# (a Möbius 11×5 needs a full column of blocks, 9 %), and above 30 % a grid
# turns into a lattice of three-letter words.
DEFAULT_DENSITY = (0.10, 0.30)

# Fresh starts before giving up. On the benchmark sizes an attempt succeeds
# at least about two times in three (at most 5 attempts seen over 30 seeds of
# each), so 200 makes a spurious failure vanishingly rare, while an impossible
# spec still fails within about a second.
MAX_ATTEMPTS = 200

# Candidates drawn per random move; of those needing the least repair, the
# one on the longest runs wins. One would place blocks uniformly and leave
# many full-width lights; larger values make evenly spaced, monotonous grids.
TOURNAMENT_SIZE = 3

# Blocks a random move may add beyond its own orbit to repair runs it leaves
# too short. Required cuts may need more (a Möbius strip of height 5 needs a
# whole column), but random moves that drag in extra blocks make clumps.
MAX_RANDOM_REPAIR = 0

_AXES = (ACROSS, DOWN)  # axis 0 and 1 of the edge keys below
_Runs = dict[str, list[tuple[tuple[Cell, ...], int, bool]]]  # find_runs per direction


class PatternError(ValueError):
    """No pattern satisfies the spec (or the spec itself is malformed)."""


@dataclass(frozen=True)
class PatternSpec:
    """What a pattern must satisfy; see the module docstring for each rule."""

    width: int
    height: int
    surface: str
    min_length: int = 3
    checked: bool = True
    symmetry: str = "rot180"
    density: tuple[float, float] = DEFAULT_DENSITY  # fraction of cells that are blocks (barred: bars per cell)
    allow_cyclic: bool = False
    max_seam_crossings: int | None = None
    style: str = "blocks"
    # Longest light; None = no limit. A light longer than the word list's
    # longest word can never be filled (wrapped lights run up to 2W − 1).
    max_length: int | None = None

    def __post_init__(self) -> None:
        problems = _spec_problems(self)
        if problems:
            raise PatternError("bad pattern spec: " + "; ".join(problems))

    def describe(self) -> str:
        rules = [f"lights of {self.min_length}+", "all cells checked" if self.checked else "unchecked cells allowed",
                 f"symmetry {self.symmetry}", f"density {self.density[0]:.0%}-{self.density[1]:.0%}",
                 "cyclic lights allowed" if self.allow_cyclic else "no cyclic lights"]
        if self.max_seam_crossings is not None:
            rules.append(f"at most {self.max_seam_crossings} seam crossings per light")
        if self.max_length is not None:
            rules.append(f"lights of at most {self.max_length}")
        return f"{self.width}x{self.height} {self.surface} {self.style} pattern ({', '.join(rules)})"


@dataclass(frozen=True)
class PatternStats:
    """How hard the search worked for one pattern."""

    pattern_attempts: int  # attempts started, the successful one included: all but the last were rejected
    rejected_moves: int  # blocks or bars refused (density ceiling, connectivity, barred short run), all attempts


def _spec_problems(spec: PatternSpec) -> list[str]:
    problems = []
    for name, value in (("width", spec.width), ("height", spec.height)):
        if not 1 <= value <= MAX_SIZE:
            problems.append(f"{name} {value} is outside 1..{MAX_SIZE}")
    try:
        surface(spec.surface)
    except KeyError as exc:
        problems.append(str(exc.args[0]))
    if spec.min_length < 1:
        problems.append(f"min_length must be at least 1, got {spec.min_length}")
    if spec.symmetry not in SYMMETRIES:
        problems.append(f"unknown symmetry {spec.symmetry!r}; expected one of {', '.join(SYMMETRIES)}")
    if spec.style not in STYLES:
        problems.append(f"unknown style {spec.style!r}; expected one of {', '.join(STYLES)}")
    low, high = spec.density
    if not 0.0 <= low <= high <= 1.0:
        problems.append(f"density must be (low, high) with 0 <= low <= high <= 1, got {spec.density}")
    if spec.max_seam_crossings is not None and spec.max_seam_crossings < 0:
        problems.append(f"max_seam_crossings must be at least 0 or None, got {spec.max_seam_crossings}")
    if spec.max_length is not None and spec.max_length < spec.min_length:
        problems.append(f"max_length {spec.max_length} is below min_length {spec.min_length}")
    return problems


# --- definitions shared by the generator and the checker ------------------------

def symmetric_cell(symmetry: str, width: int, height: int, cell: Cell) -> Cell:
    """The image of `cell` under the named symmetry of the W×H rectangle."""
    x, y = cell
    if symmetry == "rot180":
        return width - 1 - x, height - 1 - y
    if symmetry == "mirror":
        return width - 1 - x, y
    return cell


def density_bounds(spec: PatternSpec) -> tuple[int, int]:
    """The least and most blocks (barred: bars) the density range allows."""
    cells = spec.width * spec.height
    # The epsilon keeps 0.3 × 20 = 6.000000000000001 from rounding the wrong way.
    return math.ceil(spec.density[0] * cells - 1e-9), math.floor(spec.density[1] * cells + 1e-9)


def _length_ok(length: int, spec: PatternSpec) -> bool:
    """Whether a maximal run of `length` white cells is allowed."""
    return length >= spec.min_length or (length == 1 and not spec.checked)


# --- the surface as tracks -----------------------------------------------------

# Cells are indexed y * W + x; an edge key is 2 * (index of the cell it leaves
# moving right or down) + axis, the cell that owns its bar in `Grid`.

@dataclass(frozen=True)
class _Track:
    cells: tuple[int, ...]  # in order along the track
    edges: tuple[int, ...]  # edges[i] joins cells[i] and cells[(i + 1) % n]; n − 1 of them on a path
    seams: tuple[bool, ...]  # seams[i]: edges[i] crosses a seam
    closed: bool  # a loop


@dataclass(frozen=True)
class _Layout:
    """Everything the search needs about one size, surface and symmetry."""

    width: int
    height: int
    tracks: tuple[_Track, ...]
    cell_places: tuple[tuple[tuple[int, int], ...], ...]  # per cell: (track, position) across and down
    edge_places: dict[int, tuple[int, int]]  # per edge key: (track, index in its edges)
    neighbours: tuple[tuple[tuple[int, int], ...], ...]  # per cell: (neighbour, edge key)
    cell_image: tuple[int, ...]
    edge_image: dict[int, int]

    def cell(self, index: int) -> Cell:
        return index % self.width, index // self.width


@lru_cache(maxsize=64)  # a pack asks for many patterns of the same few shapes
def _layout(w: int, h: int, surface_name: str, symmetry: str) -> _Layout:
    surf = surface(surface_name)
    index = {(x, y): y * w + x for y in range(h) for x in range(w)}
    tracks = _tracks(surf, w, h, index)
    cell_places: list[list[tuple[int, int]]] = [[] for _ in range(w * h)]
    neighbours: list[list[tuple[int, int]]] = [[] for _ in range(w * h)]
    edge_places: dict[int, tuple[int, int]] = {}
    edge_ends: dict[int, tuple[int, int, bool]] = {}
    for t, track in enumerate(tracks):
        n = len(track.cells)
        for position, c in enumerate(track.cells):
            cell_places[c].append((t, position))
        for i, (key, seam) in enumerate(zip(track.edges, track.seams)):
            a, b = track.cells[i], track.cells[(i + 1) % n]
            edge_places[key] = (t, i)
            edge_ends[key] = (a, b, seam)
            neighbours[a].append((b, key))
            neighbours[b].append((a, key))
    cell_image = tuple(index[symmetric_cell(symmetry, w, h, (x, y))] for (x, y) in index)
    edge_image = {key: _edge_image(key, edge_ends, cell_image) for key in edge_ends}
    return _Layout(w, h, tracks, tuple(map(tuple, cell_places)), edge_places, tuple(map(tuple, neighbours)),
                   cell_image, edge_image)


def _tracks(surf: Surface, width: int, height: int, index: dict[Cell, int]) -> tuple[_Track, ...]:
    """The runs of the all-white grid, across then down, with their edges."""
    blank = Grid(tuple(WHITE * width for _ in range(height)), surf)
    tracks = []
    for axis, name in enumerate(_AXES):
        for cells, _crossings, cyclic in find_runs(blank, name):
            count = len(cells) if cyclic else len(cells) - 1
            seams = tuple(step(surf, width, height, cells[i], DIRECTIONS[name]).crossed for i in range(count))
            edges = tuple(2 * index[cells[i]] + axis for i in range(count))
            tracks.append(_Track(tuple(index[c] for c in cells), edges, seams, cyclic))
    return tuple(tracks)


def _edge_image(key: int, edge_ends: dict[int, tuple[int, int, bool]], cell_image: tuple[int, ...]) -> int:
    """The edge joining the images of an edge's two cells (seam edges map to
    seam edges). Every symmetry offered maps every glue to itself, so there
    always is one."""
    a, b, seam = edge_ends[key]
    ia, ib = cell_image[a], cell_image[b]
    axis = key % 2
    for owner, other in ((ia, ib), (ib, ia)):
        image = 2 * owner + axis
        if edge_ends.get(image) == (owner, other, seam):
            return image
    raise AssertionError(f"no image for edge {key}: a symmetry that does not respect the glue")


# --- one attempt --------------------------------------------------------------

_Units = tuple[list[int], list[int]]  # cell indices and edge keys: a move, or what it added

class _Attempt:
    """A pattern under construction: blocks and bars are only ever added
    (with their symmetric images), except that a refused move is undone."""

    def __init__(self, layout: _Layout, spec: PatternSpec, rng: random.Random) -> None:
        self.layout, self.spec, self.rng = layout, spec, rng
        self.blocked = bytearray(layout.width * layout.height)
        self.bars: set[int] = set()
        self.barred = spec.style == "barred"
        self.ceiling = density_bounds(spec)[1]
        self.rejected = 0

    @property
    def count(self) -> int:
        """What the density counts: bars in barred style, blocks otherwise."""
        return len(self.bars) if self.barred else sum(self.blocked)

    # runs ---------------------------------------------------------------

    def runs(self, t: int) -> list[tuple[list[int], bool]]:
        """The runs of track `t`: (positions along the track, cyclic)."""
        track = self.layout.tracks[t]
        n = len(track.cells)
        white = [not self.blocked[c] for c in track.cells]
        # cut[i]: no step from position i to the next (a block either side, a bar, the end of a path)
        cut = [not (a and b) for a, b in zip(white, white[1:] + white[:1])]
        if self.bars:
            cut = [c or (i < len(track.edges) and track.edges[i] in self.bars) for i, c in enumerate(cut)]
        if not track.closed:
            cut[-1] = True
        elif not any(cut):
            return [(list(range(n)), True)]
        start = (cut.index(True) + 1) % n if track.closed else 0
        runs, current = [], []
        for i in [*range(start, n), *range(start)]:
            if white[i]:
                current.append(i)
            if cut[i] and current:
                runs.append((current, False))
                current = []
        return runs

    def edge_open(self, track: _Track, i: int) -> bool:
        n = len(track.cells)
        return not (self.blocked[track.cells[i]] or self.blocked[track.cells[(i + 1) % n]]
                    or track.edges[i] in self.bars)

    def run_length_at(self, t: int, position: int) -> int:
        """Length of the run through `position` of track `t` (0 on a block)."""
        track = self.layout.tracks[t]
        if self.blocked[track.cells[position]]:
            return 0
        n, m = len(track.cells), len(track.edges)
        length, i = 1, position
        while i < m and self.edge_open(track, i) and length < n:
            i = (i + 1) % n
            length += 1
        i = position
        while length < n and (j := (i - 1) % n) < m and self.edge_open(track, j):
            i = j
            length += 1
        return length

    # moves --------------------------------------------------------------

    def move(self, unit: int) -> _Units:
        """The (cells, edges) of placing one block, or one bar in barred style."""
        return ([], [unit]) if self.barred else ([unit], [])

    def apply(self, cells: list[int], edges: list[int], dirty: Iterable[int] = ()) -> _Units | None:
        """Add blocks and bars with their images and repair the runs left too
        short; return what was added, or None (nothing changed) if that breaks
        the density ceiling or, in barred style, leaves a short run."""
        added: _Units = ([], [])
        if self.close(cells, edges, set(dirty), *added):
            return added
        self.undo(*added)
        return None

    def undo(self, cells: list[int], edges: list[int]) -> None:
        for c in cells:
            self.blocked[c] = 0
        self.bars.difference_update(edges)

    def close(self, cells: list[int], edges: list[int], dirty: set[int],
              added_cells: list[int], added_edges: list[int]) -> bool:
        """The loop behind `apply`: add, then fill the short runs of the
        tracks touched, until nothing is short; records what it added even
        when it fails, so that the caller can undo it."""
        layout = self.layout
        while True:
            for c in cells:
                for d in (c, layout.cell_image[c]):
                    if not self.blocked[d]:
                        self.blocked[d] = 1
                        added_cells.append(d)
                        dirty.update(t for t, _ in layout.cell_places[d])
            for e in edges:
                for f in (e, layout.edge_image[e]):
                    if f not in self.bars:
                        self.bars.add(f)
                        added_edges.append(f)
                        dirty.add(layout.edge_places[f][0])
            if self.count > self.ceiling:
                return False
            short = [layout.tracks[t].cells[i] for t in sorted(dirty)
                     for run, _ in self.runs(t) if not _length_ok(len(run), self.spec) for i in run]
            if not short:
                return True
            if self.barred:
                return False  # bars cannot lengthen or fill a run
            cells, edges, dirty = short, [], set()

    def repair_cost(self, unit: int) -> int | None:
        """Blocks the repair adds beyond the unit's own orbit (the pattern is
        left unchanged); None if the move is refused."""
        added = self.apply(*self.move(unit))
        if added is None:
            self.rejected += 1
            return None
        self.undo(*added)
        image = self.layout.edge_image[unit] if self.barred else self.layout.cell_image[unit]
        return len(added[0]) + len(added[1]) - len({unit, image})

    def place(self, unit: int) -> bool:
        """Apply a move if the white cells stay connected; count it as
        rejected otherwise."""
        added = self.apply(*self.move(unit))
        if added is not None and self.connected():
            return True
        if added is not None:
            self.undo(*added)
        self.rejected += 1
        return False

    def repair_all(self) -> bool:
        """Phase 1 on the all-white grid: fill every run too short to be a light."""
        return self.apply([], [], range(len(self.layout.tracks))) is not None and self.connected()

    def connected(self) -> bool:
        white = [c for c in range(len(self.blocked)) if not self.blocked[c]]
        if not white:
            return False
        seen = {white[0]}
        queue = deque(seen)
        while queue:
            c = queue.popleft()
            for d, key in self.layout.neighbours[c]:
                if d not in seen and not self.blocked[d] and key not in self.bars:
                    seen.add(d)
                    queue.append(d)
        return len(seen) == len(white)

    # phases -------------------------------------------------------------

    def first_need(self) -> tuple[str, list[int]] | None:
        """The first run that is a forbidden loop or crosses the seam too
        often: what it is, and the cells (barred: edges) that could split it."""
        limit = self.spec.max_seam_crossings
        for t, track in enumerate(self.layout.tracks):
            for run, cyclic in self.runs(t):
                if cyclic and (not self.spec.allow_cyclic or (limit is not None and sum(track.seams) > limit)):
                    units = [track.edges[i] for i in run] if self.barred else [track.cells[i] for i in run]
                    return "a loop with no separator", units
                if self.spec.max_length is not None and len(run) > self.spec.max_length:
                    units = [track.edges[i] for i in run] if self.barred else [track.cells[i] for i in run]
                    return f"a light longer than {self.spec.max_length}", units
                if cyclic or limit is None:
                    continue
                crossings = [j for j in range(len(run) - 1) if track.seams[run[j]]]
                if len(crossings) > limit:
                    # A cut from the first crossing up to the (limit+1)-th leaves at most `limit`
                    # crossings before it; what follows is split by a later need.
                    first, last = crossings[0], crossings[limit]
                    units = ([track.edges[run[j]] for j in range(first, last + 1)] if self.barred
                             else [track.cells[run[j]] for j in range(first, last + 2)])
                    return f"a light crossing the seam more than {limit} times", units
        return None

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
        costs: dict[int, int] = {}
        for unit in candidates:
            cost = self.repair_cost(unit)
            if cost == 0 and self.place(unit):
                return True
            if cost is not None:
                costs[unit] = cost
        return any(self.place(unit) for unit in sorted(costs, key=costs.__getitem__))

    @property
    def unit_name(self) -> str:
        return "bar" if self.barred else "block"

    def free(self) -> list[int]:
        """Cells (barred: edges) that could still take a block (bar)."""
        if self.barred:
            return [e for e in self.layout.edge_places if e not in self.bars]
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
                cost = self.repair_cost(unit)
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
        places = [self.layout.edge_places[unit]] if self.barred else self.layout.cell_places[unit]
        return sum(self.run_length_at(t, position) for t, position in places)

    def grid(self) -> Grid:
        w, h = self.layout.width, self.layout.height
        rows = ("".join(BLOCK if self.blocked[y * w + x] else WHITE for x in range(w)) for y in range(h))
        bars = {axis: [self.layout.cell(e // 2) for e in self.bars if e % 2 == axis] for axis in (0, 1)}
        return make_grid(rows, surface(self.spec.surface), bars_right=bars[0], bars_below=bars[1])


# --- the search ---------------------------------------------------------------

def generate_pattern(spec: PatternSpec, seed: int) -> Grid:
    """A pattern satisfying `spec`, the same one for the same spec and seed.

    Raises PatternError if none is found within MAX_ATTEMPTS attempts.
    """
    return generate_pattern_with_stats(spec, seed)[0]


def generate_pattern_with_stats(spec: PatternSpec, seed: int) -> tuple[Grid, PatternStats]:
    """`generate_pattern`, also reporting how many attempts it took."""
    layout = _layout(spec.width, spec.height, surface(spec.surface).name, spec.symmetry)
    rng = random.Random(seed)
    floor, ceiling = density_bounds(spec)
    if floor > ceiling:
        raise PatternError(f"no {spec.describe()}: the density range allows no whole number of "
                           f"{'bars' if spec.style == 'barred' else 'blocks'} among {spec.width * spec.height} cells")
    failures: Counter[str] = Counter()
    rejected = 0
    for attempt in range(1, MAX_ATTEMPTS + 1):
        state = _Attempt(layout, spec, rng)
        failure = _run_attempt(state, floor, ceiling)
        rejected += state.rejected
        if failure is None:
            return state.grid(), PatternStats(attempt, rejected)
        failures[failure] += 1
    reason, times = failures.most_common(1)[0]
    raise PatternError(f"no {spec.describe()} found in {MAX_ATTEMPTS} attempts (seed {seed}); "
                       f"{times} of them failed because {reason}")


def _run_attempt(state: _Attempt, floor: int, ceiling: int) -> str | None:
    """One attempt from all white; the reason it failed, or None on success."""
    spec = state.spec
    if not state.repair_all():
        # The repair of the all-white grid uses no randomness: every attempt would fail alike.
        raise PatternError(f"no {spec.describe()}: {_repair_failure(state, ceiling)}")
    failure = state.cut_required()
    if failure is not None:
        return failure
    state.add_random(state.rng.randint(max(floor, state.count), ceiling), MAX_RANDOM_REPAIR)
    if state.count < floor and not state.barred:  # bars never repair: a second pass would refuse the same
        state.add_random(floor, None)  # rather clumps than no pattern
    if state.count < floor:
        return f"no further {state.unit_name} fitted before reaching the density floor of {floor}"
    return None


def _repair_failure(state: _Attempt, ceiling: int) -> str:
    """Why filling the too-short runs of the all-white grid fails: re-run the
    fill on the (undone, all-white) state without the density ceiling and
    look at what it leaves."""
    spec = state.spec
    if spec.style == "barred":
        return f"a run of the bare {spec.surface} is shorter than {spec.min_length} and barred grids have no blocks"
    state.ceiling = len(state.blocked)
    state.close([], [], set(range(len(state.layout.tracks))), [], [])
    if state.count > ceiling:
        if state.count == len(state.blocked):
            return (f"no white cell can lie in {'both an across and a down' if spec.checked else 'a'} light of "
                    f"{spec.min_length}+ cells")
        return (f"filling every run shorter than {spec.min_length} takes {state.count} blocks, more than the "
                f"{ceiling} the density range allows")
    return "filling every run shorter than the minimum length disconnects the white cells"


# --- the independent checker -------------------------------------------------------

def check_pattern(grid: Grid, spec: PatternSpec) -> list[str]:
    """Every rule of `spec` that `grid` breaks, one message each, prefixed by
    the rule ("size:", "style:", "symmetry:", "length:", "checked:",
    "connected:", "cyclic:", "seams:", "density:"). Empty means valid.

    Works from `find_runs`/`find_lights` on the finished grid and shares no
    bookkeeping with the generator."""
    runs = {name: find_runs(grid, name) for name in _AXES}
    return [*_check_size(grid, spec), *_check_style(grid, spec), *_check_symmetry(grid, spec),
            *_check_lengths(runs, spec), *_check_checked(grid, spec), *_check_connected(grid, runs),
            *_check_loops(runs, spec), *_check_seams(runs, spec), *_check_density(grid, spec)]


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
    def image(cell: Cell) -> Cell:
        return symmetric_cell(spec.symmetry, grid.width, grid.height, cell)

    problems = []
    odd_blocks = sorted((c for c in grid.blocks if not grid.is_block(image(c))), key=lambda c: (c[1], c[0]))
    if odd_blocks:
        problems.append(f"symmetry: blocks at {odd_blocks} have no {spec.symmetry} image")
    real, _ = _real_bars(grid)
    bar_set = {(frozenset((a, b)), name, seam) for a, name, b, seam in real}
    odd_bars = [a for a, name, b, seam in real if (frozenset((image(a), image(b))), name, seam) not in bar_set]
    if odd_bars:
        problems.append(f"symmetry: bars owned by {odd_bars} have no {spec.symmetry} image")
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


def _check_density(grid: Grid, spec: PatternSpec) -> list[str]:
    barred = spec.style == "barred"
    count = len(_real_bars(grid)[0]) if barred else len(grid.blocks)
    floor, ceiling = density_bounds(spec)
    if floor <= count <= ceiling:
        return []
    cells = grid.width * grid.height
    return [(f"density: {count} {'bars' if barred else 'blocks'} in {cells} cells ({count / cells:.0%}) is outside "
             f"{spec.density[0]:.0%}-{spec.density[1]:.0%} ({floor}-{ceiling})")]
