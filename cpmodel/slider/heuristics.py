"""Admissible heuristics for one-blank slider search: the partitions into
pattern groups, the two engines that build and read pattern databases, and
the pure-Python form of a heuristic.

Covers:

- partitions: presets on grids — ``4-4`` on the 3×3; ``7-8`` (Felner, Korf
  & Hanan 2004: the top two rows, the bottom two) and ``6-6-3`` (the top row
  and two blocks of 3 rows × 2 columns, Korf & Felner 2002) on the 4×4 —
  consecutive groups on other boards, or tile groups given by hand;
- the engines: ``compiled`` (the default: compact tables built by a compiled,
  resumable BFS, `pdb.py` / `pdb_build.py`, read by the compiled IDA* of
  `compiled.py`; default 7-8 on the 4×4) and ``python``, the reference kept
  to check it (numpy-built sparse tables, `reference_pdb.py`, read through the
  pure-Python views below; default 6-6-3 on the 4×4, since its sparse tables
  cannot hold an 8-tile group). Both count tiles outside every group by
  their graph distance;
- the pure-Python form: a *view* is a sum over disjoint tile groups of a table
  lookup, the group's index being a weighted sum of where its tiles stand,
  and a heuristic is the maximum over a few views, so IDA* updates it by one
  multiply-add per view when a tile moves. `distance` (alias `manhattan`):
  every tile its own group, its table the graph distance to its goal vertex
  — admissible and consistent on any graph, the Manhattan distance on a grid;
- the reflection trick: on a square grid whose goal blank lies on the
  diagonal, transposing the board fixes the goal up to relabelling, so the
  same tables looked up on the transposed state give a second admissible
  estimate; the heuristic takes the larger;
- `make_heuristic` (by name and engine, tables from the caller's store,
  built if missing within the deadline), `cached_heuristic` (the last few
  kept in memory) and `stored_heuristic` (only tables already built — for
  the CP-SAT solver's first horizon).

Leaves out: the searches (`search.py`), solvability (`group.py`) and several
blanks (the abstractions assume one).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from mobius.cpmodel.errors import InputError
from mobius.cpmodel.slider.board import BLANK, Board, State, grid
from mobius.cpmodel.slider.pdb_keys import MAX_PDB_VERTICES, Partition, goal_vertices
from mobius.cpmodel.store import TableStore

# Default group size on boards without a preset: the largest k up to 6
# whose placements (n!/(n−k)!) stay under the 15-puzzle's 6-tile group,
# which builds in a few seconds (compiled) or ~15 s (numpy).
MAX_DEFAULT_GROUP = 6
MAX_DEFAULT_PLACEMENTS = 6_000_000
# Presets as goal *vertices* (the goal blank's vertex is dropped from its group).
GRID_PRESETS: dict[tuple[int, int], dict[str, tuple[tuple[int, ...], ...]]] = {
    (3, 3): {"4-4": ((0, 1, 2, 3, 4), (5, 6, 7, 8))},
    (4, 4): {"7-8": ((0, 1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)),
             "6-6-3": ((4, 5, 8, 9, 12, 13), (6, 7, 10, 11, 14, 15), (0, 1, 2, 3))},
}
ENGINES = ("compiled", "python")
# The strongest preset each engine holds: the python engine's sparse tables
# take 16^8 bytes for an 8-tile group, more than it allows.
DEFAULT_PRESETS = {"compiled": {(3, 3): "4-4", (4, 4): "7-8"}, "python": {(3, 3): "4-4", (4, 4): "6-6-3"}}
HEURISTIC_NAMES = ("distance", "manhattan", "pdb")


class Estimator(Protocol):
    """What the searches need of a heuristic: a name and an admissible estimate, 0 exactly at the goal."""

    name: str

    def estimate(self, state: Sequence[int]) -> int: ...


# --- the pure-Python additive form ----------------------------------------------------

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


def _singleton_tables(board: Board, goal: State, tiles: Sequence[int]) -> list[bytes]:
    home = goal_vertices(goal)
    return [bytes(board.distances[home[t]]) for t in tiles]


def distance_heuristic(board: Board, goal: State) -> Heuristic:
    """Sum over tiles of the graph distance to the tile's goal vertex."""
    tiles = [t for t in goal if t != BLANK]
    view = _additive_view(_singleton_tables(board, goal, tiles), [(t,) for t in tiles], board.n)
    return Heuristic("distance", (view,))


def transposed(view: AdditiveView, goal: State, mirror: tuple[int, ...]) -> AdditiveView:
    """The view looked up on the mirrored state: tile t on v acts as tile σ(t) on mirror[v]."""
    home = goal_vertices(goal)
    sigma = [goal[mirror[home[t]]] for t in range(len(goal))]
    return AdditiveView(view.table, view.base, tuple(view.group[sigma[t]] for t in range(len(goal))),
                        tuple(view.weight[sigma[t]] for t in range(len(goal))), mirror)


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


def check_engine(engine: str, what: str = "engine") -> str:
    """`engine` if it is one of `ENGINES`; else an InputError naming `what` (an option) and the choices."""
    if engine not in ENGINES:
        raise InputError(f"{what} {engine!r}: expected one of {', '.join(ENGINES)}")
    return engine


def default_partition(board: Board, goal: State, engine: str = "compiled") -> Partition:
    """The engine's preset on 3×3 and 4×4 grids, consecutive vertices elsewhere; as tile groups."""
    shape = grid_shape(board) or (0, 0)
    check_engine(engine)
    preset_name = DEFAULT_PRESETS[engine].get(shape)
    if preset_name is not None:
        return _tile_groups(goal, GRID_PRESETS[shape][preset_name])
    size = max(k for k in range(1, MAX_DEFAULT_GROUP + 1) if math.perm(board.n, k) <= MAX_DEFAULT_PLACEMENTS)
    others = [v for v in range(board.n) if v != goal.index(BLANK)]
    return _tile_groups(goal, [others[i:i + size] for i in range(0, len(others), size)])


def _tile_groups(goal: State, vertex_groups: Sequence[Sequence[int]]) -> Partition:
    groups = (tuple(goal[v] for v in vs if goal[v] != BLANK) for vs in vertex_groups)
    return tuple(g for g in groups if g)


def preset_names(board: Board) -> tuple[str, ...]:
    return tuple(GRID_PRESETS.get(grid_shape(board) or (0, 0), {}))


def parse_partition(text: str) -> Partition:
    """``1-2-3/4-5-8-9-12-13/6-7-10-11-14-15`` → ((1, 2, 3), (4, 5, 8, 9, 12, 13), …) (tiles, not vertices)."""
    try:
        return tuple(tuple(int(t) for t in part.split("-")) for part in text.split("/") if part.strip())
    except ValueError:
        message = (f"partition {text!r}: expected a preset (7-8 or 6-6-3 on grid:4x4, 4-4 on grid:3x3) or tile "
                   f"groups like 1-2-3/4-5-6 (tiles joined by -, groups by /)")
        raise InputError(message) from None


def resolve_partition(board: Board, goal: State, text: str | None, engine: str) -> Partition:
    """The partition `text` names on this board: a preset name, tile groups, or None for the engine's default.

    A preset name wins over tile groups spelt the same; end a single group with / (``7-8/``) to mean tiles.
    """
    if text is None:
        return default_partition(board, goal, engine)
    shape = grid_shape(board) or (0, 0)
    if text in GRID_PRESETS.get(shape, {}):
        return _tile_groups(goal, GRID_PRESETS[shape][text])
    partition = parse_partition(text)
    check_partition(board, partition)
    return partition


def check_partition(board: Board, partition: Partition) -> None:
    tiles = [t for group in partition for t in group]
    if not tiles or len(set(tiles)) != len(tiles) or not all(1 <= t < board.n for t in tiles):
        raise InputError(f"partition {partition}: groups must be disjoint sets of tiles 1..{board.n - 1}")
    if board.n > MAX_PDB_VERTICES:
        raise InputError(f"pattern databases support boards of at most {MAX_PDB_VERTICES} vertices, got {board.n}")


def partition_name(partition: Partition) -> str:
    return "-".join(str(len(g)) for g in partition)


# --- making heuristics -----------------------------------------------------------------

def transpose_map(board: Board, goal: State) -> tuple[int, ...] | None:
    """The transposition of a square grid if it fixes the goal blank's vertex, else None."""
    shape = grid_shape(board)
    if shape is None or shape[0] != shape[1]:
        return None
    side = shape[0]
    mirror = tuple((v % side) * side + v // side for v in range(board.n))
    return mirror if mirror[goal.index(BLANK)] == goal.index(BLANK) else None


def make_heuristic(name: str, board: Board, goal: State, *, engine: str = "compiled",
                   partition: Partition | None = None, reflect: bool = True, store: TableStore | None = None,
                   deadline: float = math.inf, progress: Any = None) -> Estimator:
    """The heuristic `name` ("distance" = "manhattan", or "pdb") for this board and goal, by `engine`.

    Pattern tables come from `store` (None: memory only) or are built there within `deadline`
    (DeadlineExceeded past it, keeping what was built); `progress` follows a compiled build.
    """
    if name not in HEURISTIC_NAMES:
        raise InputError(f"unknown heuristic {name!r}; expected one of {', '.join(HEURISTIC_NAMES)}")
    check_engine(engine)
    mirror = transpose_map(board, goal) if reflect and name == "pdb" else None
    if name == "pdb":
        partition = default_partition(board, goal, engine) if partition is None else partition
        check_partition(board, partition)
    groups = partition if name == "pdb" else ()
    label = "distance" if name != "pdb" else f"pdb:{partition_name(groups)}" + ("+mirror" if mirror else "")
    if engine == "python":
        return distance_heuristic(board, goal) if name != "pdb" else \
            _python_pdb(label, board, goal, groups, mirror, store, deadline)
    from mobius.cpmodel.slider import compiled, pdb_build  # lazy: numba loads only for this engine

    if not groups:  # the distance sum alone
        return compiled.compact_heuristic(label, board, goal, (), compiled.NO_TABLE, (), (), 1, None)
    compiled.warm_up()  # the build's kernels loaded through the check of their cache files (once a process)
    tables = pdb_build.build_tables(board, goal, groups, store=store, deadline=deadline, progress=progress)
    return compiled.compact_heuristic(label, board, goal, groups, tables.table, tables.bases, tables.bits, tables.scale,
                                      mirror)


def _python_pdb(label: str, board: Board, goal: State, partition: Partition, mirror: tuple[int, ...] | None,
                store: TableStore | None, deadline: float) -> Heuristic:
    from mobius.cpmodel.slider.reference_pdb import check_sparse_group, pattern_table

    for group in partition:
        check_sparse_group(board, group)
    covered = {t for g in partition for t in g}
    loose = [t for t in goal if t != BLANK and t not in covered]
    tables = [pattern_table(board, goal, g, store=store, deadline=deadline).tobytes() for g in partition]
    tables += _singleton_tables(board, goal, loose)
    view = _additive_view(tables, list(partition) + [(t,) for t in loose], board.n)
    return Heuristic(label, (view,) if mirror is None else (view, transposed(view, goal, mirror)))


# Pattern tables take a moment to load and minutes to build: keep the last few
# heuristics in memory so a run over many instances pays once.
HEURISTICS_KEPT = 4
_HEURISTICS: dict[tuple[Any, ...], Estimator] = {}


def cached_heuristic(name: str, board: Board, goal: State, *, engine: str, partition: Partition | None,
                     reflect: bool, store: TableStore | None, deadline: float) -> Estimator:
    """`make_heuristic`, remembered for the next call with the same arguments."""
    key = (name, engine, board, goal, partition, reflect, store)
    if key not in _HEURISTICS:
        heuristic = make_heuristic(name, board, goal, engine=engine, partition=partition, reflect=reflect,
                                   store=store, deadline=deadline)
        if len(_HEURISTICS) >= HEURISTICS_KEPT:
            _HEURISTICS.pop(next(iter(_HEURISTICS)))
        _HEURISTICS[key] = heuristic
    return _HEURISTICS[key]


def stored_heuristic(board: Board, goal: State, store: TableStore | None) -> Estimator | None:
    """A pattern-database heuristic for this board and goal that needs no building: one in memory, or the
    compiled engine's default tables if `store` holds them finished; else None."""
    for (name, _, b, g, _, _, _), heuristic in reversed(_HEURISTICS.items()):
        if name == "pdb" and b == board and g == goal:
            return heuristic
    from mobius.cpmodel.slider.pdb_build import load_tables  # lazy: numba loads only for this engine

    if store is None or load_tables(board, goal, default_partition(board, goal, "compiled"), store) is None:
        return None
    return cached_heuristic("pdb", board, goal, engine="compiled", partition=None, reflect=True, store=store,
                            deadline=math.inf)
