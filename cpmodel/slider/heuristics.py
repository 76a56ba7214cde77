"""Admissible heuristics for one-blank slider search: graph distance and
additive pattern databases.

Covers: the one form every heuristic here takes — a *view* is a sum over
disjoint tile groups of a table lookup, the group's index being a weighted
sum of where its tiles stand, and a heuristic is the maximum over a few
views — so IDA* can update it incrementally when one tile moves. Built on it:

- ``distance`` (alias ``manhattan``): every tile is its own group and its
  table is the board's graph distance to the tile's goal vertex. One move
  shifts one tile by one edge, so the sum is admissible and consistent on any
  graph (on a grid it is the Manhattan distance).
- ``pdb``: disjoint additive pattern databases (Korf & Felner 2002). For a
  group of k tiles, a 0-1 BFS over the abstract space "where the k tiles
  stand and where the blank is" counts only moves of those tiles; the blank
  wandering among the other cells costs nothing, so the blank is recorded
  only as its connected component among the free cells and every stored
  step costs 1. The table keeps, for each placement, the minimum over the
  blank's components, indexed by Σ position_i · n^i (sparse, n^k bytes) so
  a move changes the index by a constant. Tables are built with numpy one
  BFS level at a time and cached on disk (see `cache_dir`). Tiles outside
  every group count their graph distance.
- the reflection trick: on a square grid whose goal blank lies on the
  diagonal, transposing the board is an automorphism that fixes the goal up
  to relabelling, so the same tables looked up on the transposed state give
  a second admissible estimate; the heuristic takes the larger.

Also `distance_table`: the exact distance of every arrangement of a small
board (one blank), by a numpy BFS over permutation ranks.

Leaves out: the searches (`search.py`), solvability (`group.py`), several
blanks (the abstractions assume one), and 7-8 style partitions of the
15-puzzle, whose 518 M-entry table is beyond a numpy build in memory here.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cpmodel.errors import InputError
from cpmodel.slider.board import BLANK, Board, State, grid

# Cap on the sparse table of one pattern group (n^k bytes): the 6-tile
# groups of the 15-puzzle need 16^6 = 16.8 M; 64 M keeps memory modest.
MAX_TABLE_ENTRIES = 1 << 26
# Default group size on boards without a hand-picked partition: the largest k
# up to 6 whose placements (n!/(n−k)!) stay under the 15-puzzle's 6-tile
# group, which builds in about 15 s.
MAX_DEFAULT_GROUP = 6
MAX_DEFAULT_PLACEMENTS = 6_000_000
# The component table has 2^n rows (22 MB at 20 vertices).
MAX_PDB_VERTICES = 20
# Full distance tables hold n! int16 entries (7 MB for 10 vertices, 80 MB for 11).
MAX_TABLE_VERTICES = 11
# Bump when the stored table format or the abstraction changes.
CACHE_FORMAT = 2
UNSEEN = 255
# Hand-picked partitions, as goal *vertices* (the blank's goal vertex is
# dropped from its group). 4×4: a 6-6-3 split in the manner of Korf & Felner
# — the top row and two blocks of 3 rows × 2 columns — since a 7-8 split
# needs a 518 M-entry table (measured in benchmarks/RESULTS.md).
GRID_PARTITIONS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {
    (3, 3): ((0, 1, 2, 3, 4), (5, 6, 7, 8)),
    (4, 4): ((0, 1, 2, 3), (4, 5, 8, 9, 12, 13), (6, 7, 10, 11, 14, 15)),
}

Partition = tuple[tuple[int, ...], ...]


class DeadlineExceeded(Exception):
    """Raised when a build or a search passes its deadline."""


def check_deadline(deadline: float | None) -> None:
    if deadline is not None and time.perf_counter() > deadline:
        raise DeadlineExceeded


# --- the additive form ------------------------------------------------------------

@dataclass(frozen=True)
class AdditiveView:
    """Σ over groups g of table[index_g], index_g = base[g] + Σ_{tile t in g} weight[t] · vertex_map[vertex of t].

    The groups' tables are laid end to end in one `table` (group g from
    base[g]), which saves IDA* one lookup per move.
    """

    table: bytes
    base: tuple[int, ...]
    group: tuple[int, ...]  # group[t] for each tile label; −1 for the blank
    weight: tuple[int, ...]
    vertex_map: tuple[int, ...]

    def indices(self, state: Sequence[int]) -> list[int]:
        index = list(self.base)
        for vertex, tile in enumerate(state):
            if tile != BLANK:
                index[self.group[tile]] += self.weight[tile] * self.vertex_map[vertex]
        return index

    def value(self, state: Sequence[int]) -> int:
        return sum(self.table[i] for i in self.indices(state))


def _additive_view(tables: Sequence[bytes], groups: Sequence[Sequence[int]], n: int) -> AdditiveView:
    """Tables laid end to end; tile i of a group weighs n^i (its place in the group's sparse index)."""
    base = tuple(itertools.accumulate((len(t) for t in tables[:-1]), initial=0))
    group, weight = [-1] * n, [0] * n
    for g, tiles in enumerate(groups):
        for i, t in enumerate(tiles):
            group[t], weight[t] = g, n ** i
    return AdditiveView(b"".join(tables), base, tuple(group), tuple(weight), tuple(range(n)))


@dataclass(frozen=True)
class Heuristic:
    """max over views of each view's additive sum; 0 exactly at the goal."""

    name: str
    views: tuple[AdditiveView, ...]

    def estimate(self, state: Sequence[int]) -> int:
        return max(view.value(state) for view in self.views)


def _tile_vertex(goal: State) -> list[int]:
    where = [0] * len(goal)
    for vertex, tile in enumerate(goal):
        where[tile] = vertex
    return where


def _singleton_tables(board: Board, goal: State, tiles: Sequence[int]) -> list[bytes]:
    home = _tile_vertex(goal)
    return [bytes(board.distances[home[t]]) for t in tiles]


def distance_heuristic(board: Board, goal: State) -> Heuristic:
    """Sum over tiles of the graph distance to the tile's goal vertex."""
    tiles = [t for t in goal if t != BLANK]
    view = _additive_view(_singleton_tables(board, goal, tiles), [(t,) for t in tiles], board.n)
    return Heuristic("distance", (view,))


# --- partitions ---------------------------------------------------------------------

def grid_shape(board: Board) -> tuple[int, int] | None:
    """(rows, cols) if the board is exactly the preset grid graph, else None."""
    kind, _, size = board.label.partition(":")
    rows, x, cols = size.lower().partition("x")
    if kind != "grid" or not x or not (rows.isdigit() and cols.isdigit()):
        return None
    shape = int(rows), int(cols)
    if shape[0] * shape[1] != board.n or set(map(frozenset, grid(*shape).edges)) != set(map(frozenset, board.edges)):
        return None
    return shape


def default_partition(board: Board, goal: State) -> Partition:
    """Hand-picked vertex groups on 3×3 and 4×4 grids, consecutive vertices elsewhere; as tile groups."""
    blank = goal.index(BLANK)
    vertex_groups = GRID_PARTITIONS.get(grid_shape(board) or (0, 0))
    if vertex_groups is None:
        size = max(k for k in range(1, MAX_DEFAULT_GROUP + 1)
                   if math.perm(board.n, k) <= MAX_DEFAULT_PLACEMENTS and board.n ** k <= MAX_TABLE_ENTRIES)
        others = [v for v in range(board.n) if v != blank]
        vertex_groups = tuple(tuple(others[i:i + size]) for i in range(0, len(others), size))
    groups = (tuple(goal[v] for v in vs if v != blank) for vs in vertex_groups)
    return tuple(g for g in groups if g)


def parse_partition(text: str) -> Partition:
    """``1-2-3/4-5-8-9-12-13/6-7-10-11-14-15`` → ((1, 2, 3), (4, 5, 8, 9, 12, 13), …)."""
    try:
        return tuple(tuple(int(t) for t in part.split("-")) for part in text.split("/") if part.strip())
    except ValueError:
        message = f"partition {text!r}: expected tile groups like 1-2-3/4-5-6 (tiles joined by -, groups by /)"
        raise InputError(message) from None


def _check_partition(board: Board, partition: Partition) -> None:
    tiles = [t for group in partition for t in group]
    if len(set(tiles)) != len(tiles) or not all(1 <= t < board.n for t in tiles):
        raise InputError(f"partition {partition}: groups must be disjoint sets of tiles 1..{board.n - 1}")
    for group in partition:
        if board.n ** len(group) > MAX_TABLE_ENTRIES:
            raise InputError(f"pattern group {group}: a table of {board.n}^{len(group)} entries is too large "
                             f"(limit {MAX_TABLE_ENTRIES}); use smaller groups")


# --- building one pattern table ------------------------------------------------------

def _neighbour_masks(board: Board) -> np.ndarray:
    return np.array([sum(1 << w for w in board.neighbours[v]) for v in range(board.n)], dtype=np.int64)


def component_representatives(board: Board, k: int) -> np.ndarray:
    """rep[mask, v] = lowest vertex of v's component among the cells outside `mask`, for masks of k cells.

    Column n and occupied cells hold UNSEEN, so "is q in the blank's component"
    is one comparison even for padded neighbour slots.
    """
    n = board.n
    masks = np.array([sum(1 << v for v in c) for c in itertools.combinations(range(n), k)], dtype=np.int64)
    free = ~masks & ((1 << n) - 1)
    bits = np.int64(1) << np.arange(n, dtype=np.int64)
    comp = np.where((free[:, None] & bits) != 0, bits, 0)
    nb = _neighbour_masks(board)
    while True:  # flood fill every start cell at once until nothing grows
        grown = comp.copy()
        for v in range(n):
            grown |= np.where((comp >> v) & 1 == 1, nb[v], 0)
        grown &= free[:, None]
        if np.array_equal(grown, comp):
            break
        comp = grown
    rep = np.full(comp.shape, UNSEEN, dtype=np.uint8)
    for v in reversed(range(n)):  # lowest set bit wins
        rep[(comp >> v) & 1 == 1] = v
    table = np.full((1 << n, n + 1), UNSEEN, dtype=np.uint8)
    table[masks, :n] = rep
    return table


def _padded_neighbours(board: Board) -> np.ndarray:
    degree = max(len(a) for a in board.neighbours)
    return np.array([list(a) + [board.n] * (degree - len(a)) for a in board.neighbours], dtype=np.int64)


def _expand_level(cfg: np.ndarray, rep: np.ndarray, n: int, place: np.ndarray, reps: np.ndarray,
                  nbr: np.ndarray, deadline: float | None) -> tuple[np.ndarray, np.ndarray]:
    """Every abstract state one pattern-tile move away (with repeats): a tile slides into the blank's component."""
    pos = (cfg[:, None] // place) % n
    mask = np.bitwise_or.reduce(np.int64(1) << pos, axis=1)
    width = n + 1
    row = mask * width
    flat = reps.ravel()
    out_cfg, out_rep = [], []
    for i in range(len(place)):
        check_deadline(deadline)  # a middle level of a 6-tile group takes seconds
        p = pos[:, i]
        for j in range(nbr.shape[1]):
            q = nbr[p, j]
            ok = flat[row + q] == rep
            pi, qi = p[ok], q[ok]
            moved = mask[ok] ^ (np.int64(1) << pi) ^ (np.int64(1) << qi)
            out_cfg.append(cfg[ok] + (qi - pi) * place[i])
            # the blank ends where the tile was
            out_rep.append(flat[moved * width + pi].astype(np.int64))
    return np.concatenate(out_cfg), np.concatenate(out_rep)


def _distinct(values: np.ndarray) -> np.ndarray:
    # sorting beats np.unique's hash table several times over on these int64 keys
    values = np.sort(values)
    return values[np.concatenate((values[:1] == values[:1], values[1:] != values[:-1]))]


def build_pattern_table(board: Board, goal: State, pattern: Sequence[int],
                        deadline: float | None = None) -> np.ndarray:
    """The sparse PDB of one tile group: entry Σ pos_i·n^i = fewest moves of those tiles to their goal vertices."""
    n, k = board.n, len(pattern)
    if n > MAX_PDB_VERTICES:
        raise InputError(f"pattern databases support boards of at most {MAX_PDB_VERTICES} vertices, got {n}")
    home = _tile_vertex(goal)
    place = np.array([n ** i for i in range(k)], dtype=np.int64)
    reps = component_representatives(board, k)
    nbr = _padded_neighbours(board)
    bit_type = np.uint16 if n <= 16 else np.uint32
    seen = np.zeros(n ** k, dtype=bit_type)  # bit r: reached with the blank in the component of r
    table = np.full(n ** k, UNSEEN, dtype=np.uint8)
    goal_mask = sum(1 << home[t] for t in pattern)
    cfg = np.array([sum(home[t] * n ** i for i, t in enumerate(pattern))], dtype=np.int64)
    rep = np.array([reps[goal_mask, goal.index(BLANK)]], dtype=np.int64)
    depth = 0
    while cfg.size:
        np.bitwise_or.at(seen, cfg, (1 << rep).astype(bit_type))
        fresh = table[cfg] == UNSEEN  # first reach of a placement = min over blank components
        table[cfg[fresh]] = depth
        cfg, rep = _expand_level(cfg, rep, n, place, reps, nbr, deadline)
        new = ((seen[cfg] >> rep.astype(bit_type)) & 1) == 0
        key = _distinct(cfg[new] * n + rep[new])
        cfg, rep = key // n, key % n
        depth += 1
        if depth >= UNSEEN:
            raise InputError(f"pattern {tuple(pattern)}: distances exceed {UNSEEN - 1}, too large to store")
    # Placements left UNSEEN cannot reach the goal, so any value is admissible
    # there; a large one keeps "h = 0" meaning "at the goal".
    return table


# --- the disk cache -------------------------------------------------------------------

def cache_dir() -> Path:
    """``$XDG_CACHE_HOME/mobius-puzzles`` or ``~/.cache/mobius-puzzles``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mobius-puzzles"


def _cache_path(directory: Path, board: Board, goal: State, pattern: Sequence[int]) -> Path:
    key = json.dumps({"format": CACHE_FORMAT, "n": board.n, "edges": sorted(map(sorted, board.edges)),
                      "goal": list(goal), "pattern": list(pattern)})
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    label = "".join(c if c.isalnum() else "-" for c in board.label)
    return directory / f"pdb-{label}-{len(pattern)}-{digest}.npy"


def _save_atomically(path: Path, table: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # a reader never sees a half-written file: write aside, then rename
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            np.save(handle, table)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def pattern_table(board: Board, goal: State, pattern: Sequence[int], *, directory: Path | None = None,
                  deadline: float | None = None) -> np.ndarray:
    """`build_pattern_table`, read from / written to the cache in `directory` (None = no cache)."""
    if directory is None:
        return build_pattern_table(board, goal, pattern, deadline)
    path = _cache_path(directory, board, goal, pattern)
    try:
        table = np.load(path)
        if table.shape == (board.n ** len(pattern),) and table.dtype == np.uint8:
            return table
    except (OSError, ValueError):
        pass  # missing or unreadable: rebuild and overwrite
    table = build_pattern_table(board, goal, pattern, deadline)
    _save_atomically(path, table)
    return table


# --- the pdb heuristic ----------------------------------------------------------------

def transpose_map(board: Board, goal: State) -> tuple[int, ...] | None:
    """The transposition of a square grid if it fixes the goal blank's vertex, else None."""
    shape = grid_shape(board)
    if shape is None or shape[0] != shape[1]:
        return None
    side = shape[0]
    mirror = tuple((v % side) * side + v // side for v in range(board.n))
    return mirror if mirror[goal.index(BLANK)] == goal.index(BLANK) else None


def _mirrored(view: AdditiveView, goal: State, mirror: tuple[int, ...]) -> AdditiveView:
    """The view looked up on the mirrored state: tile t on v acts as tile σ(t) on mirror[v]."""
    home = _tile_vertex(goal)
    sigma = [goal[mirror[home[t]]] for t in range(len(goal))]
    return AdditiveView(view.table, view.base, tuple(view.group[sigma[t]] for t in range(len(goal))),
                        tuple(view.weight[sigma[t]] for t in range(len(goal))), mirror)


def pdb_heuristic(board: Board, goal: State, partition: Partition | None = None, *, reflect: bool = True,
                  directory: Path | None = None, deadline: float | None = None) -> Heuristic:
    """Additive pattern databases over `partition` (default: `default_partition`), maxed with the mirror."""
    partition = default_partition(board, goal) if partition is None else partition
    _check_partition(board, partition)
    covered = {t for g in partition for t in g}
    loose = [t for t in goal if t != BLANK and t not in covered]
    tables = [pattern_table(board, goal, g, directory=directory, deadline=deadline).tobytes() for g in partition]
    tables += _singleton_tables(board, goal, loose)
    view = _additive_view(tables, list(partition) + [(t,) for t in loose], board.n)
    name = "pdb:" + "-".join(str(len(g)) for g in partition)
    mirror = transpose_map(board, goal) if reflect else None
    if mirror is None:
        return Heuristic(name, (view,))
    return Heuristic(name + "+mirror", (view, _mirrored(view, goal, mirror)))


HEURISTIC_NAMES = ("distance", "manhattan", "pdb")


def make_heuristic(name: str, board: Board, goal: State, *, partition: Partition | None = None,
                   reflect: bool = True, directory: Path | None = None,
                   deadline: float | None = None) -> Heuristic:
    """The heuristic called `name` ("distance" = "manhattan", or "pdb") for this board and goal."""
    if name in ("distance", "manhattan"):
        return distance_heuristic(board, goal)
    if name == "pdb":
        return pdb_heuristic(board, goal, partition, reflect=reflect, directory=directory, deadline=deadline)
    raise InputError(f"unknown heuristic {name!r}; expected one of {', '.join(HEURISTIC_NAMES)}")


# --- the full distance table ------------------------------------------------------------

def rank_states(states: np.ndarray) -> np.ndarray:
    """Lexicographic ranks of rows that are permutations of 0…n−1 (Lehmer code).

    Digit i = p_i − #{j < i : p_j < p_i}: a running bitmask of the values
    seen and a popcount table make each digit a few whole-column operations.
    """
    m, n = states.shape
    columns = np.ascontiguousarray(states.T, dtype=np.int64)
    popcount = np.array([mask.bit_count() for mask in range(1 << n)], dtype=np.int64)
    seen = np.zeros(m, dtype=np.int64)
    rank = np.zeros(m, dtype=np.int64)
    for i in range(n - 1):
        bit = np.int64(1) << columns[i]
        rank += (columns[i] - popcount[seen & (bit - 1)]) * math.factorial(n - 1 - i)
        seen |= bit
    return rank


def rank_state(state: Sequence[int]) -> int:
    """The index of `state` in `distance_table`'s array."""
    return int(rank_states(np.array([state], dtype=np.uint8))[0])


def distance_table(board: Board, goal: State, deadline: float | None = None) -> np.ndarray:
    """dist[rank_state(s)] = fewest moves from s to `goal` (one blank), −1 where unreachable (int16).

    A BFS from the goal, one level at a time: the frontier is an array of
    states, each move is two column writes on the rows whose blank is on the
    move's vertex, and ranks index a flat array.
    """
    n = board.n
    if n > MAX_TABLE_VERTICES:
        raise InputError(f"a full distance table of {n}! states is too large (at most {MAX_TABLE_VERTICES} vertices)")
    if sorted(goal) != list(range(n)):
        raise InputError("distance_table covers one blank: the goal must hold tiles 0..n-1")
    dist = np.full(math.factorial(n), -1, dtype=np.int16)  # int8 overflows on long thin boards
    frontier = np.array([goal], dtype=np.uint8)
    blanks = np.array([goal.index(BLANK)])
    dist[rank_states(frontier)] = 0
    depth = 0
    while len(frontier):
        check_deadline(deadline)
        children, child_blanks = [], []
        for b in range(n):
            rows = frontier[blanks == b]
            for q in board.neighbours[b]:
                child = rows.copy()
                child[:, b], child[:, q] = rows[:, q], BLANK
                children.append(child)
                child_blanks.append(np.full(len(rows), q))
        frontier, blanks = np.vstack(children), np.concatenate(child_blanks)
        ranks = rank_states(frontier)
        new = dist[ranks] < 0
        ranks, first = np.unique(ranks[new], return_index=True)
        frontier, blanks = frontier[new][first], blanks[new][first]
        depth += 1
        dist[ranks] = depth
    return dist
