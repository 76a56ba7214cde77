"""Compiled IDA* and heuristic evaluation over the compact pattern databases.

Covers: `CompactHeuristic` — h = Σ graph distances of all tiles + s · Σ the
groups' table entries (see `pdb.py`), maximised over one or two views (the
board as it is, and looked up through the transposition of a square grid,
where tile t on v acts as tile σ(t) on μ(v)); `estimate` for any state (A*
and start bounds) and `ida_star`, whose depth-first search runs in numba
over an explicit stack held in arrays. The search runs in bounded chunks and
resumes where it stopped, so the deadline is checked (and Ctrl-C lands)
between chunks, a few milliseconds apart. It expands exactly the nodes the
pure-Python IDA* of `search.py` expands on the same tables — same neighbour
order, the parent's move skipped, the first view tested before the second —
so the two agree node for node.

`warm_up` compiles every kernel, or loads it from numba's cache
(``cache=True``, in ``__pycache__`` beside this file), on a tiny board: a
solver calls it when it is built, so compiling is start-up, never part of a
time limit.

Leaves out: building tables (`pdb.py`, `pdb_build.py`), choosing partitions
and views (`heuristics.py`) and the solver classes (`search.py`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from mobius.cpmodel import kernel_cache
from mobius.cpmodel.deadline import DeadlineExceeded
from mobius.cpmodel.slider.board import BLANK, Board, State
from mobius.cpmodel.slider.pdb_keys import goal_vertices
from mobius.cpmodel.slider.pdb import FACTORIALS, mask_ranks, padded_neighbours, popcounts, read_entry

# Expanded nodes per compiled call: a few milliseconds, so deadlines are
# overshot by that at most and the call overhead (~20 µs) is lost in it.
CHUNK_NODES = 1 << 16
NO_BOUND = 1 << 30
BUDGET_SPENT, FOUND, ITERATION_DONE = 0, 1, 2
DEPTH, BOUND, NODES, GENERATED, LEAST = range(5)  # the slots of the control array
NO_TABLE = np.zeros(0, dtype=np.uint8)  # the distance heuristic: no group, no table


@dataclass(frozen=True, eq=False)
class CompactHeuristic:
    """The static arrays of the compiled heuristic; `views` is 1 or 2."""

    name: str
    nbr: np.ndarray  # int64[n, degree], −1 padded
    deg: np.ndarray  # int64[n]
    home_dist: np.ndarray  # int64[n, n]: [t, v] = graph distance from v to tile t's goal vertex
    vtile: np.ndarray  # int64[views, n]: the tile a tile acts as in each view
    vvert: np.ndarray  # int64[views, n]: the vertex a vertex acts as in each view
    grp: np.ndarray  # int64[n]: group of each tile (as the view sees it), −1 outside every group
    gtiles: np.ndarray  # int64[groups, max group size]
    gk: np.ndarray  # int64[groups]
    gbase: np.ndarray  # int64[groups]: byte offset of each group's table
    gbits: np.ndarray  # int64[groups]: bits per entry of each group's table
    table: np.ndarray  # uint8, read-only
    scale: int
    ranks: np.ndarray  # int64[2^n]
    popc: np.ndarray  # uint8

    @property
    def views(self) -> int:
        return self.vtile.shape[0]

    def arrays(self) -> tuple[np.ndarray, ...]:
        return (self.home_dist, self.vtile, self.vvert, self.grp, self.gtiles, self.gk, self.gbase, self.gbits,
                self.table, self.ranks, self.popc, FACTORIALS)

    def estimate(self, state: Sequence[int]) -> int:
        # fromiter takes the searches' bytes states as well as tuples
        return int(_estimate(np.fromiter(state, dtype=np.int64, count=len(state)), *self.arrays(), self.scale))


def _readonly(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view


def compact_heuristic(name: str, board: Board, goal: State, groups: Sequence[Sequence[int]], table: np.ndarray,
                      bases: Sequence[int], bits: Sequence[int], scale: int, mirror: Sequence[int] | None
                      ) -> CompactHeuristic:
    """The heuristic over `groups` (tiles) with their tables, plus the mirrored view if `mirror` is given."""
    n = board.n
    home = goal_vertices(goal)
    views = [(list(range(n)), list(range(n)))]
    if mirror is not None:
        # tile t on v acts as the tile whose goal vertex mirrors t's, on the mirror of v
        views.append(([goal[mirror[home[t]]] for t in range(n)], list(mirror)))
    grp = np.full(n, -1, dtype=np.int64)
    gtiles = np.zeros((len(groups), max((len(g) for g in groups), default=1)), dtype=np.int64)
    for g, tiles in enumerate(groups):
        grp[list(tiles)] = g
        gtiles[g, :len(tiles)] = tiles
    home_dist = np.zeros((n, n), dtype=np.int64)
    for t in range(1, n):
        home_dist[t] = board.distances[home[t]]
    nbr, deg = padded_neighbours(board)
    arrays = [nbr, deg, home_dist, np.array([v[0] for v in views], dtype=np.int64),
              np.array([v[1] for v in views], dtype=np.int64), grp, gtiles,
              np.array([len(g) for g in groups], dtype=np.int64), np.array(bases[:len(groups)], dtype=np.int64),
              np.array(bits[:len(groups)], dtype=np.int64)]
    return CompactHeuristic(name, *map(_readonly, arrays), _readonly(np.asarray(table, dtype=np.uint8)), scale,
                            mask_ranks(n), popcounts(n))


# --- kernels ------------------------------------------------------------------------

@njit(cache=True)
def _entry(g: int, w: int, vpos: np.ndarray, mask: int, gtiles: np.ndarray, gk: np.ndarray, gbase: np.ndarray,
           gbits: np.ndarray, table: np.ndarray, ranks: np.ndarray, popc: np.ndarray, fact: np.ndarray) -> int:
    """Group g's 4-bit entry for the placement vpos[w, tile] of its tiles (occupying `mask`) in view w."""
    k = gk[g]
    used = 0
    rank = 0
    for j in range(k):
        x = np.int64(popc[mask & ((np.int64(1) << vpos[w, gtiles[g, j]]) - 1)])
        rank += (x - popc[used & ((1 << x) - 1)]) * fact[k - 1 - j]
        used |= 1 << x
    placement = ranks[mask] * fact[k] + rank
    return read_entry(table, gbase[g], placement, gbits[g])


@njit(cache=True)
def _view_setup(state: np.ndarray, w: int, vtile: np.ndarray, vvert: np.ndarray, grp: np.ndarray,
                vpos: np.ndarray, gmask: np.ndarray) -> None:
    """vpos[w] and gmask[w] for `state` as view w sees it."""
    for g in range(gmask.shape[1]):
        gmask[w, g] = 0
    for v in range(len(state)):
        t = state[v]
        if t != 0:
            vt = vtile[w, t]
            vpos[w, vt] = vvert[w, v]
            if grp[vt] >= 0:
                gmask[w, grp[vt]] |= np.int64(1) << vvert[w, v]


@njit(cache=True)
def _estimate(state: np.ndarray, home_dist: np.ndarray, vtile: np.ndarray, vvert: np.ndarray, grp: np.ndarray,
              gtiles: np.ndarray, gk: np.ndarray, gbase: np.ndarray, gbits: np.ndarray, table: np.ndarray,
              ranks: np.ndarray, popc: np.ndarray, fact: np.ndarray, scale: int) -> int:
    n = len(state)
    views = vtile.shape[0]
    md = 0
    for v in range(n):
        if state[v] != 0:
            md += home_dist[state[v], v]
    vpos = np.zeros((views, n), np.int64)
    gmask = np.zeros((views, len(gk)), np.int64)
    best = 0
    for w in range(views):
        _view_setup(state, w, vtile, vvert, grp, vpos, gmask)
        total = 0
        for g in range(len(gk)):
            total += _entry(g, w, vpos, gmask[w, g], gtiles, gk, gbase, gbits, table, ranks, popc, fact)
        best = max(best, md + scale * total)
    return best


@njit(cache=True)
def _root(state: np.ndarray, board: np.ndarray, vpos: np.ndarray, gmask: np.ndarray, gval: np.ndarray,
          fhs: np.ndarray, home_dist: np.ndarray, vtile: np.ndarray, vvert: np.ndarray, grp: np.ndarray,
          gtiles: np.ndarray, gk: np.ndarray, gbase: np.ndarray, gbits: np.ndarray, table: np.ndarray,
          ranks: np.ndarray, popc: np.ndarray, fact: np.ndarray) -> int:
    """Set the search state to `state`; fhs[0, w] = each view's entry sum; returns the distance sum."""
    md = 0
    for v in range(len(state)):
        board[v] = state[v]
        if state[v] != 0:
            md += home_dist[state[v], v]
    for w in range(vtile.shape[0]):
        _view_setup(state, w, vtile, vvert, grp, vpos, gmask)
        fhs[0, w] = 0
        for g in range(len(gk)):
            gval[w, g] = _entry(g, w, vpos, gmask[w, g], gtiles, gk, gbase, gbits, table, ranks, popc, fact)
            fhs[0, w] += gval[w, g]
    return md


@njit(cache=True)
def _ida_chunk(budget: int, ctl: np.ndarray, board: np.ndarray, vpos: np.ndarray, gmask: np.ndarray,
               gval: np.ndarray, fblank: np.ndarray, fnext: np.ndarray, fleast: np.ndarray, fmd: np.ndarray,
               fhs: np.ndarray, fsave: np.ndarray, fmoved: np.ndarray, nbr: np.ndarray, deg: np.ndarray,
               home_dist: np.ndarray, vtile: np.ndarray, vvert: np.ndarray, grp: np.ndarray, gtiles: np.ndarray,
               gk: np.ndarray, gbase: np.ndarray, gbits: np.ndarray, table: np.ndarray, ranks: np.ndarray,
               popc: np.ndarray, fact: np.ndarray, scale: int) -> int:
    """Run the depth-first search of one IDA* iteration for up to `budget` expanded nodes.

    Frame d holds the blank's vertex, the next neighbour to try, the least f over the bound seen below
    it, and the heuristic parts of its node. Returns BUDGET_SPENT (call again), FOUND (fblank[1..depth]
    are the moves) or ITERATION_DONE (ctl[LEAST] is the next bound).
    """
    views = vtile.shape[0]
    d = ctl[DEPTH]
    bound = ctl[BOUND]
    nodes = 0
    generated = 0
    centry = np.zeros(views, np.int64)
    cmask = np.zeros(views, np.int64)
    chs = np.zeros(views, np.int64)
    status = BUDGET_SPENT
    while True:
        b = fblank[d]
        i = fnext[d]
        if i < deg[b]:
            fnext[d] = i + 1
            v = nbr[b, i]
            if d > 0 and v == fblank[d - 1]:
                continue  # undoing the last move never helps
            t = board[v]
            g_child = d + 1
            room = bound - g_child
            md = fmd[d] - home_dist[t, v] + home_dist[t, b]
            generated += 1
            pruned = False
            h_first = 0
            for w in range(views):
                vt = vtile[w, t]
                g = grp[vt]
                hs = fhs[d, w]
                if g >= 0:
                    old, new = vvert[w, v], vvert[w, b]
                    mask = gmask[w, g] ^ (np.int64(1) << old) ^ (np.int64(1) << new)
                    vpos[w, vt] = new
                    entry = _entry(g, w, vpos, mask, gtiles, gk, gbase, gbits, table, ranks, popc, fact)
                    vpos[w, vt] = old
                    hs += entry - gval[w, g]
                    centry[w], cmask[w] = entry, mask
                chs[w] = hs
                h = md + scale * hs
                if w == 0:
                    h_first = h
                if h > room:  # the first view that prunes sets the f value, as in the pure search
                    if g_child + h < fleast[d]:
                        fleast[d] = g_child + h
                    pruned = True
                    break
            if pruned:
                continue
            if h_first == 0:  # every tile home
                fblank[d + 1] = v
                ctl[DEPTH] = d + 1
                status = FOUND
                break
            board[b], board[v] = t, 0
            for w in range(views):
                vt = vtile[w, t]
                g = grp[vt]
                if g >= 0:
                    vpos[w, vt] = vvert[w, b]
                    gmask[w, g] = cmask[w]
                    fsave[d + 1, w] = gval[w, g]
                    gval[w, g] = centry[w]
                fhs[d + 1, w] = chs[w]
            d += 1
            fblank[d], fnext[d], fleast[d], fmd[d], fmoved[d] = v, 0, NO_BOUND, md, t
            nodes += 1
            if nodes >= budget:
                ctl[DEPTH] = d
                break
        else:
            if d == 0:
                ctl[LEAST] = fleast[0]
                status = ITERATION_DONE
                break
            # undo the move into frame d: the tile goes back from the parent's blank to fblank[d]
            t, here, there = fmoved[d], fblank[d], fblank[d - 1]
            board[here], board[there] = t, 0
            for w in range(views):
                vt = vtile[w, t]
                g = grp[vt]
                if g >= 0:
                    vpos[w, vt] = vvert[w, here]
                    gmask[w, g] ^= (np.int64(1) << vvert[w, here]) ^ (np.int64(1) << vvert[w, there])
                    gval[w, g] = fsave[d, w]
            least = fleast[d]
            d -= 1
            if least < fleast[d]:
                fleast[d] = least
    ctl[NODES] += nodes
    ctl[GENERATED] += generated
    return status


# --- the driver -----------------------------------------------------------------------

class _Search:
    """The mutable arrays of one IDA* run."""

    def __init__(self, heuristic: CompactHeuristic, n: int) -> None:
        views, groups = heuristic.views, len(heuristic.gk)
        self.ctl = np.zeros(5, dtype=np.int64)
        self.board = np.zeros(n, dtype=np.int64)
        self.vpos = np.zeros((views, n), dtype=np.int64)
        self.gmask = np.zeros((views, groups), dtype=np.int64)
        self.gval = np.zeros((views, groups), dtype=np.int64)
        self.frames(2, views)

    def frames(self, size: int, views: int) -> None:
        self.fblank, self.fnext, self.fleast, self.fmd, self.fmoved = (np.zeros(size, dtype=np.int64)
                                                                      for _ in range(5))
        self.fhs = np.zeros((size, views), dtype=np.int64)
        self.fsave = np.zeros((size, views), dtype=np.int64)

    def dynamic(self) -> tuple[np.ndarray, ...]:
        return (self.ctl, self.board, self.vpos, self.gmask, self.gval, self.fblank, self.fnext, self.fleast,
                self.fmd, self.fhs, self.fsave, self.fmoved)


def ida_star(start: State, heuristic: CompactHeuristic, deadline: float, stats: dict[str, int | float],
             max_bound: int | None = None) -> list[int] | None:
    """Iterative deepening on f = g + h: a shortest move list, or None once the bound passes `max_bound`
    (or the whole tree is exhausted, on a tree board). Raises DeadlineExceeded past `deadline`."""
    n = len(start)
    search = _Search(heuristic, n)
    state = np.asarray(start, dtype=np.int64)
    fhs0 = np.zeros((1, heuristic.views), dtype=np.int64)
    static = heuristic.arrays()
    md = int(_root(state, search.board, search.vpos, search.gmask, search.gval, fhs0, *static))
    hs = fhs0[0].copy()
    bound = max(md + heuristic.scale * int(h) for h in hs)
    iterations = 0
    try:
        if bound == 0:
            return []
        while max_bound is None or bound <= max_bound:
            iterations += 1
            if len(search.fblank) < bound + 2:  # no frame lies deeper than the bound
                search.frames(bound + 2, heuristic.views)
            search.fblank[0], search.fnext[0], search.fleast[0], search.fmd[0] = start.index(BLANK), 0, NO_BOUND, md
            search.fhs[0] = hs
            search.ctl[DEPTH], search.ctl[BOUND] = 0, bound
            search.ctl[NODES] += 1  # the root
            status = _run_iteration(search, heuristic, deadline)
            if status == FOUND:
                return [int(v) for v in search.fblank[1:search.ctl[DEPTH] + 1]]
            least = int(search.ctl[LEAST])
            if least == NO_BOUND:
                return None  # a finite tree (tree board) without the goal
            bound = least
        return None
    finally:
        stats["nodes"] = stats.get("nodes", 0) + int(search.ctl[NODES])
        stats["generated"] = int(search.ctl[GENERATED])
        stats["iterations"] = iterations
        stats["bound"] = bound


def _run_iteration(search: _Search, heuristic: CompactHeuristic, deadline: float) -> int:
    static = (heuristic.nbr, heuristic.deg, *heuristic.arrays(), heuristic.scale)
    while True:
        status = _ida_chunk(CHUNK_NODES, *search.dynamic(), *static)
        if status != BUDGET_SPENT:
            return status
        if time.perf_counter() > deadline:
            raise DeadlineExceeded


@functools.cache
def warm_up() -> float:
    """Compile (or load from numba's cache) every kernel on a 2×2 board; the seconds it took.
    A damaged cache is rebuilt (`kernel_cache.warmed`)."""
    began = time.perf_counter()
    kernel_cache.warmed(_warm)
    return time.perf_counter() - began


def _warm() -> None:
    from mobius.cpmodel.slider.board import preset
    from mobius.cpmodel.slider.pdb_build import build_tables

    board = preset("grid:2x2")
    goal = tuple(range(4))
    tables = build_tables(board, goal, ((1, 2),), store=None)
    heuristic = compact_heuristic("warm-up", board, goal, ((1, 2),), tables.table, tables.bases, tables.bits,
                                  tables.scale, (0, 2, 1, 3))
    start = (3, 2, 0, 1)
    heuristic.estimate(start)
    ida_star(start, heuristic, float("inf"), {})
