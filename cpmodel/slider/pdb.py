"""Compact additive pattern databases, built by a compiled breadth-first
search that a deadline or Ctrl-C can interrupt and a later run continues.

Covers, for one blank on a board of at most `MAX_PDB_VERTICES` vertices:

- the perfect-hash layout of one tile group of k tiles (`GroupLayout`): a
  placement (where each of the k tiles stands) is indexed as
  rank(mask) · k! + rank(permutation), where mask is the set of occupied
  vertices (ranked among the k-subsets) and the permutation says which tile
  stands on the i-th occupied vertex (Lehmer code), so the table has exactly
  n!/(n−k)! entries — 518,918,400 for the 8-tile group of the 15-puzzle;
- the abstract search of Korf & Felner: a state is a placement plus the
  connected component of free vertices that holds the blank (moving the blank
  among non-pattern tiles is free), a move slides a pattern tile into the
  blank's component and costs 1. States of one mask are numbered after those
  of the previous masks: offset(mask) + perm · components(mask) + slot;
- the level-by-level search over 2-bit marks per state (0 unseen, 1 closed, 2
  and 3 the frontier and the next level, alternating), compiled with numba,
  run in bounded chunks so the caller's deadline is checked between them;
- the store: entry = (distance − Σ graph distances of the group's tiles)
  / s, s = 2 on bipartite boards, where every move changes that sum by ±1
  so the difference is even, else 1; 4 bits per entry for tables of more
  than `BYTE_ENTRIES_MAX` entries, where the space matters, a byte for the
  smaller ones; values past the width's ceiling are clamped to it, which
  stays admissible (the build counts them). Each entry is stored as
  ceiling − entry, so a fresh table is all zeros (a sparse file, memory the
  kernel hands out untouched) and "not reached yet" reads as the ceiling.
  The 7-8 partition of the 15-puzzle takes 288 MB;
- resuming: with a store, the marks, the table and a small progress file
  live in files mapped into memory, so whatever the search wrote is kept
  when it stops at a deadline, a Ctrl-C or a termination signal; the next
  build of the same partition continues from the level it was in (states
  already closed are skipped), once `pdb_build.py` has checked the files
  against the digests the progress file records. Without a store the
  partial build is kept in this process only;
- the stored layout of a partition's tables (`table_bases`, `expected_entry`:
  what a store must hold, derived from the board alone).

Leaves out: the searches that read the tables (`compiled.py`), the numpy
reference tables in the older sparse layout (`reference_pdb.py`), choosing
partitions (`heuristics.py`) and several blanks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numba import njit

from mobius.cpmodel.errors import InputError
from mobius.cpmodel.slider.board import BLANK, Board, State
from mobius.cpmodel.slider.pdb_keys import COMPACT_FORMAT, MAX_PDB_VERTICES, Partition, goal_vertices
from mobius.cpmodel.store import Expected

# One group's table: the 8-tile group of the 15-puzzle (16!/8!) and a little
# more. Its build needs 2 bits per abstract state (1.4 G states, 356 MB).
MAX_PLACEMENTS = 600_000_000
# The move table holds k!·k·k int32 (10 MB at k = 8), the permutation table k!·k bytes.
MAX_GROUP_TILES = 8
# Tables up to this many entries take a byte each (the 6-tile groups of the
# 15-puzzle: 5.8 M); larger ones 4 bits (the 7- and 8-tile groups: 58 M, 519 M).
BYTE_ENTRIES_MAX = 1 << 24
# Work per compiled call, so that a deadline is overshot by a fraction of it
# and Ctrl-C lands promptly: abstract states expanded (~20 ms of CPU) and
# mark words scanned where the frontier is sparse (~5 ms).
CHUNK_EXPANSIONS = 1 << 17
CHUNK_WORDS = 1 << 20
UNSEEN, CLOSED = 0, 1
FIELDS_PER_WORD = 32  # 2-bit marks in an int64 word



# --- layout of one group ----------------------------------------------------------

@lru_cache(maxsize=4)
def mask_ranks(n: int) -> np.ndarray:
    """rank[mask] = the index of `mask` among the masks with as many bits, in increasing order."""
    masks = np.arange(1 << n, dtype=np.int64)
    pop = popcounts(n)[masks]
    rank = np.zeros(1 << n, dtype=np.int64)
    for k in range(n + 1):
        chosen = np.flatnonzero(pop == k)
        rank[chosen] = np.arange(len(chosen))
    rank.flags.writeable = False
    return rank


@lru_cache(maxsize=4)
def popcounts(n: int) -> np.ndarray:
    """popcount of every value below 2^max(n, 16) (uint8): the searches split 20-bit masks in two halves."""
    size = 1 << max(n, 16)
    values = np.arange(size, dtype=np.int64)
    counts = np.zeros(size, dtype=np.uint8)
    for bit in range(max(n, 16)):
        counts += ((values >> bit) & 1).astype(np.uint8)
    counts.flags.writeable = False
    return counts


@dataclass(frozen=True)
class MoveLists:
    """For mask m and component c, moves start[first[m] + c] … start[first[m] + c + 1] − 1: the pattern tile
    on vertex v (index `index` in the mask) slides to q, in the blank's component c; it lands on index `to`
    of the new mask `mask`, and the blank ends in that mask's component `comp` (the one holding v)."""

    first: np.ndarray  # int64[C]
    start: np.ndarray  # int64[Σ components + 1]
    index: np.ndarray  # int64[moves]
    to: np.ndarray
    mask: np.ndarray
    comp: np.ndarray
    v: np.ndarray
    q: np.ndarray


@dataclass(frozen=True)
class GroupLayout:
    """The perfect hash of one tile group and the abstract states of its search."""

    tiles: tuple[int, ...]
    mask_bits: np.ndarray  # int64[C]: the C = binom(n, k) masks, increasing
    cells: np.ndarray  # int64[C, k]: the vertices of each mask, increasing
    comp_count: np.ndarray  # int64[C]: components of the free vertices
    comp_of: np.ndarray  # int64[C, n]: component slot of each free vertex, −1 where occupied
    offsets: np.ndarray  # int64[C + 1]: first abstract state of each mask
    perms: np.ndarray  # uint8[k!, k]: permutations in Lehmer order; perms[p, j] = index of tile j's vertex
    tile_at: np.ndarray  # uint8[k!, k]: the inverse, tile_at[p, i] = the tile on the mask's i-th vertex
    slot_moves: np.ndarray  # int32[k!, k, k]: the permutation after the tile on index i moves to index b
    move_lists: MoveLists  # the moves open to the blank's component, per (mask, component)
    home_dist: np.ndarray  # int64[k, n]: graph distance from each vertex to tile j's goal vertex

    @property
    def k(self) -> int:
        return len(self.tiles)

    @property
    def placements(self) -> int:
        return len(self.mask_bits) * math.factorial(self.k)

    @property
    def states(self) -> int:
        return int(self.offsets[-1])

    @property
    def bits(self) -> int:
        """Bits per table entry."""
        return entry_bits(self.placements)

    @property
    def table_bytes(self) -> int:
        return (self.placements * self.bits + 7) // 8


def entry_bits(placements: int) -> int:
    return 8 if placements <= BYTE_ENTRIES_MAX else 4


@njit(cache=True)
def _components(mask_bits: np.ndarray, nbr: np.ndarray, deg: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Per mask: the components of the free vertices (flood fill), numbered by lowest vertex."""
    count = np.zeros(len(mask_bits), np.int64)
    comp_of = np.full((len(mask_bits), n), -1, np.int64)
    stack = np.empty(n, np.int64)
    for m in range(len(mask_bits)):
        occupied = mask_bits[m]
        for v in range(n):
            if (occupied >> v) & 1 or comp_of[m, v] >= 0:
                continue
            slot = count[m]
            count[m] += 1
            top = 0
            stack[0] = v
            comp_of[m, v] = slot
            while top >= 0:
                u = stack[top]
                top -= 1
                for e in range(deg[u]):
                    w = nbr[u, e]
                    if not (occupied >> w) & 1 and comp_of[m, w] < 0:
                        comp_of[m, w] = slot
                        top += 1
                        stack[top] = w
    return count, comp_of


@njit(cache=True)
def _permutations(k: int, fact: np.ndarray) -> np.ndarray:
    """Row r = the r-th permutation of 0…k−1 in lexicographic order (unranked Lehmer code)."""
    total = fact[k]
    out = np.empty((total, k), np.uint8)
    free = np.empty(k, np.int64)
    for r in range(total):
        for i in range(k):
            free[i] = i
        left = k
        rest = r
        for i in range(k):
            digit = rest // fact[k - 1 - i]
            rest -= digit * fact[k - 1 - i]
            out[r, i] = free[digit]
            for j in range(digit, left - 1):
                free[j] = free[j + 1]
            left -= 1
    return out


@njit(cache=True)
def _slot_move_table(perms: np.ndarray, fact: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(tile_at, slot_moves): tile_at[p, i] = the tile whose index is i in perms[p]; slot_moves[p, i, b] =
    rank of perms[p] after that tile takes index b, the tiles between shifting by one."""
    total, k = perms.shape
    tile_at = np.empty((total, k), np.uint8)
    out = np.empty((total, k, k), np.int32)
    code = np.empty(k, np.int64)
    for p in range(total):
        for j in range(k):
            tile_at[p, perms[p, j]] = j
        for j in range(k):
            a = np.int64(perms[p, j])
            for b in range(k):
                for i in range(k):
                    x = np.int64(perms[p, i])
                    if i == j:
                        x = b
                    elif a < x <= b:
                        x -= 1
                    elif b <= x < a:
                        x += 1
                    code[i] = x
                out[p, a, b] = _lehmer_rank(code, fact)
    return tile_at, out


@njit(cache=True)
def _move_lists(mask_bits: np.ndarray, cells: np.ndarray, comp_count: np.ndarray, comp_of: np.ndarray,
                ranks: np.ndarray, nbr: np.ndarray, deg: np.ndarray, popc: np.ndarray) -> tuple[np.ndarray, ...]:
    """The arrays of `MoveLists`: per mask and component, each slide of a pattern tile into the component."""
    masks, k = cells.shape
    first = np.zeros(masks, np.int64)
    for m in range(1, masks):
        first[m] = first[m - 1] + comp_count[m - 1]
    lists = first[masks - 1] + comp_count[masks - 1]
    start = np.zeros(lists + 1, np.int64)
    for m in range(masks):  # count, then fill
        for i in range(k):
            v = cells[m, i]
            for e in range(deg[v]):
                q = nbr[v, e]
                if comp_of[m, q] >= 0:
                    start[first[m] + comp_of[m, q] + 1] += 1
    for x in range(lists):
        start[x + 1] += start[x]
    fill = start[:lists].copy()
    moves = np.empty((6, start[lists]), np.int64)
    index, to, mask, comp, vs, qs = moves[0], moves[1], moves[2], moves[3], moves[4], moves[5]
    for m in range(masks):
        for i in range(k):
            v = cells[m, i]
            for e in range(deg[v]):
                q = nbr[v, e]
                c = comp_of[m, q]
                if c < 0:
                    continue
                x = fill[first[m] + c]
                fill[first[m] + c] += 1
                without = mask_bits[m] ^ (np.int64(1) << v)
                m2 = ranks[without | (np.int64(1) << q)]
                index[x], to[x], mask[x], comp[x] = i, popc[without & ((np.int64(1) << q) - 1)], m2, comp_of[m2, v]
                vs[x], qs[x] = v, q
    return first, start, index, to, mask, comp, vs, qs


@njit(cache=True)
def _lehmer_rank(code: np.ndarray, fact: np.ndarray) -> int:
    k = len(code)
    rank = 0
    for i in range(k):
        smaller = 0
        for j in range(i):
            smaller += code[j] < code[i]
        rank += (code[i] - smaller) * fact[k - 1 - i]
    return rank


FACTORIALS = np.array([math.factorial(i) for i in range(MAX_GROUP_TILES + 1)], dtype=np.int64)


def padded_neighbours(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """(nbr[v, i], degree[v]) in the board's neighbour order, padded with −1."""
    degree = max(len(a) for a in board.neighbours)
    nbr = np.full((board.n, degree), -1, dtype=np.int64)
    for v, adjacent in enumerate(board.neighbours):
        nbr[v, :len(adjacent)] = adjacent
    return nbr, np.array([len(a) for a in board.neighbours], dtype=np.int64)


def check_group(board: Board, group: Sequence[int]) -> None:
    if board.n > MAX_PDB_VERTICES:
        raise InputError(f"pattern databases support boards of at most {MAX_PDB_VERTICES} vertices, got {board.n}")
    if len(group) > MAX_GROUP_TILES or math.perm(board.n, len(group)) > MAX_PLACEMENTS:
        raise InputError(f"pattern group {tuple(group)}: {math.perm(board.n, len(group)):,} placements is too "
                         f"many (at most {MAX_PLACEMENTS:,} and {MAX_GROUP_TILES} tiles); use smaller groups")


@lru_cache(maxsize=8)
def group_layout(board: Board, goal: State, group: tuple[int, ...]) -> GroupLayout:
    check_group(board, group)
    n, k = board.n, len(group)
    masks = np.flatnonzero(popcounts(n)[:1 << n] == k).astype(np.int64)
    bits = (masks[:, None] >> np.arange(n, dtype=np.int64)) & 1
    cells = np.argsort(-bits, axis=1, kind="stable")[:, :k].astype(np.int64)  # set bits first, in vertex order
    nbr, deg = padded_neighbours(board)
    count, comp_of = _components(masks, nbr, deg, n)
    offsets = np.concatenate(([0], np.cumsum(count * math.factorial(k)))).astype(np.int64)
    home = goal_vertices(goal)
    home_dist = np.array([board.distances[home[t]] for t in group], dtype=np.int64)
    perms = _permutations(k, FACTORIALS)
    tile_at, slot_moves = _slot_move_table(perms, FACTORIALS)
    lists = MoveLists(*_move_lists(masks, cells, count, comp_of, mask_ranks(n), nbr, deg, popcounts(n)))
    return GroupLayout(tuple(group), masks, cells, count, comp_of, offsets, perms, tile_at, slot_moves, lists,
                       home_dist)


def bipartite_scale(board: Board) -> int:
    """2 where every move changes a tile's graph distance to any vertex by exactly 1 (bipartite boards), else 1."""
    colour = [d % 2 for d in board.distances[0]]
    return 2 if all(colour[u] != colour[v] for u, v in board.edges) else 1


def table_bases(board: Board, partition: Partition) -> list[int]:
    """Byte offset of each group's table in a partition's tables, end to end, and the total at the end."""
    sizes = [(math.perm(board.n, len(g)) * entry_bits(math.perm(board.n, len(g))) + 7) // 8 for g in partition]
    return [sum(sizes[:g]) for g in range(len(sizes) + 1)]


def expected_entry(board: Board, goal: State, partition: Partition) -> Expected:
    """What the stored tables of `partition` must be, from the board alone: the store refuses an entry whose
    metadata says otherwise, so the layout a search reads never comes from the file."""
    bases = table_bases(board, partition)
    bits = [entry_bits(math.perm(board.n, len(g))) for g in partition]
    return Expected((bases[-1],), "uint8", {
        "format": COMPACT_FORMAT, "n": board.n, "goal": list(goal), "partition": [list(g) for g in partition],
        "scale": bipartite_scale(board), "bases": bases, "bits": bits})


# --- the compiled level search ----------------------------------------------------------

@njit(cache=True)
def mark(markers: np.ndarray, s: int) -> int:
    return (markers[s >> 5] >> (2 * (s & 31))) & 3


@njit(cache=True)
def set_mark(markers: np.ndarray, s: int, value: int) -> None:
    shift = 2 * (s & 31)
    markers[s >> 5] = (markers[s >> 5] & ~(np.int64(3) << shift)) | (np.int64(value) << shift)


@njit(cache=True)
def read_entry(table: np.ndarray, base: int, placement: int, bits: int) -> int:
    """The entry of `placement` in the table of `bits`-bit entries starting at byte `base`."""
    at = placement * bits
    ceiling = (1 << bits) - 1
    return ceiling - ((table[base + (at >> 3)] >> (at & 7)) & ceiling)


@njit(cache=True)
def lower_entry(table: np.ndarray, base: int, placement: int, value: int, bits: int) -> None:
    """entry(placement) = min(entry, value, the width's ceiling); each entry is stored as ceiling − entry."""
    at = placement * bits
    i = base + (at >> 3)
    shift = at & 7
    ceiling = (1 << bits) - 1
    stored = ceiling - min(value, ceiling)
    if stored > (table[i] >> shift) & ceiling:
        table[i] = (table[i] & ~(ceiling << shift)) | (stored << shift)


@njit(cache=True)
def expand_chunk(markers: np.ndarray, table: np.ndarray, base: int, bits: int, start: int, budget: int,
                 depth: int, scale: int, cells: np.ndarray, comp_count: np.ndarray, offsets: np.ndarray,
                 perms: np.ndarray, tile_at: np.ndarray, slot_moves: np.ndarray, first: np.ndarray,
                 move_start: np.ndarray, move_index: np.ndarray, move_to: np.ndarray, move_mask: np.ndarray,
                 move_comp: np.ndarray, move_v: np.ndarray, move_q: np.ndarray, fact: np.ndarray,
                 home_dist: np.ndarray, out: np.ndarray) -> None:
    """Expand up to `budget` frontier states (mark `current`) from state `start` on, scanning at most
    `CHUNK_WORDS` words of marks.

    out = [state to resume from (= number of states when the level is done), states expanded, states reached].
    """
    k = cells.shape[1]
    kfact = fact[k]
    current = 2 + (depth & 1)
    following = 5 - current
    total = offsets[len(offsets) - 1]
    lows = np.int64(0x5555555555555555)
    m = np.searchsorted(offsets, start, side="right") - 1
    expanded = 0
    reached = 0
    s = start
    words_left = CHUNK_WORDS
    while s < total:
        words_left -= 1
        if words_left < 0:
            break
        w = s >> 5
        word = markers[w]
        lo = word & lows
        hi = (word >> 1) & lows
        match = (hi & ~lo) if current == 2 else (hi & lo)
        first_field = s & 31
        if first_field:
            match &= ~((np.int64(1) << (2 * first_field)) - 1)
        if match == 0:
            s = (w + 1) << 5
            continue
        for j in range(first_field, FIELDS_PER_WORD):
            if not (match >> (2 * j)) & 1:
                continue
            state = (w << 5) + j
            if state >= total:
                break
            if expanded >= budget:
                out[0], out[1], out[2] = state, expanded, reached
                return
            while offsets[m + 1] <= state:
                m += 1
            local = state - offsets[m]
            p = local // comp_count[m]
            comp = local - p * comp_count[m]
            md = 0
            for i in range(k):
                md += home_dist[i, cells[m, perms[p, i]]]
            lists = first[m] + comp
            for x in range(move_start[lists], move_start[lists + 1]):
                m2 = move_mask[x]
                rank = slot_moves[p, move_index[x], move_to[x]]
                child = offsets[m2] + rank * comp_count[m2] + move_comp[x]
                if mark(markers, child) != UNSEEN:
                    continue
                tile = tile_at[p, move_index[x]]
                spare = depth + 1 - (md - home_dist[tile, move_v[x]] + home_dist[tile, move_q[x]])
                # The entry before the mark: a build killed between the two
                # finds the child unseen and lowers the entry again (a min,
                # so harmless), where the other order would leave a marked
                # child with its entry never written.
                lower_entry(table, base, m2 * kfact + rank, spare // scale, bits)
                set_mark(markers, child, following)
                reached += 1
            set_mark(markers, state, CLOSED)
            expanded += 1
        s = (w + 1) << 5
    out[0], out[1], out[2] = min(s, total), expanded, reached


@njit(cache=True)
def count_open(markers: np.ndarray) -> int:
    """States marked 2 or 3 (not yet expanded)."""
    lows = np.int64(0x5555555555555555)
    count = 0
    for w in range(len(markers)):
        hi = (markers[w] >> 1) & lows
        while hi:
            hi &= hi - 1
            count += 1
    return count


@njit(cache=True)
def count_saturated(table: np.ndarray, base: int, entries: int, bits: int) -> int:
    """Entries at the width's ceiling (clamped, exactly at it, or never reached)."""
    ceiling = (1 << bits) - 1
    count = 0
    for p in range(entries):
        if read_entry(table, base, p, bits) == ceiling:
            count += 1
    return count


def placement_index(n: int, positions: Sequence[int]) -> int:
    """The table index of the placement where tile j of a group stands on `positions[j]`:
    rank(mask) · k! + the Lehmer rank of each tile's index among the mask's vertices."""
    k = len(positions)
    order = sorted(positions)
    code = [order.index(v) for v in positions]
    rank = sum((x - sum(1 for y in code[:i] if y < x)) * math.factorial(k - 1 - i) for i, x in enumerate(code))
    return int(mask_ranks(n)[sum(1 << v for v in positions)]) * math.factorial(k) + rank


def goal_state(layout: GroupLayout, goal: State) -> tuple[int, int]:
    """(abstract state, placement) of the goal: every tile home, the blank on its goal vertex."""
    home = goal_vertices(goal)
    placement = placement_index(len(goal), [home[t] for t in layout.tiles])
    m, rank = divmod(placement, math.factorial(layout.k))
    slot = int(layout.comp_of[m, goal.index(BLANK)])
    return int(layout.offsets[m]) + rank * int(layout.comp_count[m]) + slot, placement
