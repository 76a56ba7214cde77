"""The numpy reference tables: sparse pattern databases and full distance tables.

Covers: `build_pattern_table`, the pattern database of one tile group built
with numpy one BFS level at a time (the abstraction of `pdb.py`: a state is
where the group's tiles stand plus the blank's connected component among the
free vertices, a move of a group tile costs 1), stored sparse — one byte per
index Σ position_i · n^i, so a move shifts the index by a constant, which is
what the pure-Python IDA* wants — and kept in the caller's store
(`pattern_table`; each finished group is saved at once). It shares no code
with the compiled build, and the tests compare the two entry for entry.
Also `distance_table`: the exact distance of every arrangement of a small
board (one blank), by a numpy BFS over permutation ranks.

Leaves out: the compact tables and the compiled searches (`pdb.py`,
`compiled.py`), resuming a group's build half-way (a group is rebuilt if
interrupted; the largest, 6 tiles on the 4×4, takes ~15 s), and groups past
`MAX_TABLE_ENTRIES` (the 8-tile group of the 15-puzzle needs 16^8 bytes).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from mobius.cpmodel.deadline import check_deadline
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.slider.board import BLANK, Board, State
from mobius.cpmodel.slider.pdb_keys import MAX_PDB_VERTICES, goal_vertices, table_key
from mobius.cpmodel.store import Expected, TableStore

# Cap on the sparse table of one pattern group (n^k bytes): the 6-tile
# groups of the 15-puzzle need 16^6 = 16.8 M; 64 M keeps memory modest.
MAX_TABLE_ENTRIES = 1 << 26
# Full distance tables hold n! int16 entries (7 MB for 10 vertices, 80 MB for 11).
MAX_TABLE_VERTICES = 11
# Bump when the stored table format or the abstraction changes.
FORMAT = 3
UNSEEN = 255


def check_sparse_group(board: Board, group: Sequence[int]) -> None:
    if board.n ** len(group) > MAX_TABLE_ENTRIES:
        raise InputError(f"pattern group {tuple(group)}: a sparse table of {board.n}^{len(group)} entries is too "
                         f"large for the python engine (limit {MAX_TABLE_ENTRIES}); use smaller groups or the "
                         f"compiled engine")


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
        p = pos[:, i]
        for j in range(nbr.shape[1]):
            check_deadline(deadline)  # a middle level of a 6-tile group takes seconds
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
    check_sparse_group(board, pattern)
    if n > MAX_PDB_VERTICES:
        raise InputError(f"pattern databases support boards of at most {MAX_PDB_VERTICES} vertices, got {n}")
    home = goal_vertices(goal)
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
        # each step of a middle level of a 6-tile group takes up to a second on a busy machine
        check_deadline(deadline)
        np.bitwise_or.at(seen, cfg, (1 << rep).astype(bit_type))
        fresh = table[cfg] == UNSEEN  # first reach of a placement = min over blank components
        table[cfg[fresh]] = depth
        cfg, rep = _expand_level(cfg, rep, n, place, reps, nbr, deadline)
        check_deadline(deadline)
        new = ((seen[cfg] >> rep.astype(bit_type)) & 1) == 0
        key = _distinct(cfg[new] * n + rep[new])
        cfg, rep = key // n, key % n
        depth += 1
        if depth >= UNSEEN:
            raise InputError(f"pattern {tuple(pattern)}: distances exceed {UNSEEN - 1}, too large to store")
    # Placements left UNSEEN cannot reach the goal, so any value is admissible
    # there; a large one keeps "h = 0" meaning "at the goal".
    return table



# --- the store ---------------------------------------------------------------------------

def sparse_key(board: Board, goal: State, pattern: Sequence[int]) -> str:
    return table_key("sparse", FORMAT, board, goal, (pattern,))


def sparse_expected(board: Board, pattern: Sequence[int]) -> Expected:
    """What a stored sparse table must be: n^k bytes, of this format and pattern."""
    return Expected((board.n ** len(pattern),), "uint8", {"format": FORMAT, "pattern": list(pattern)})


def pattern_table(board: Board, goal: State, pattern: Sequence[int], *, store: TableStore | None = None,
                  deadline: float | None = None) -> np.ndarray:
    """`build_pattern_table`, read from / written to `store` (None: built every time)."""
    if store is None:
        return build_pattern_table(board, goal, pattern, deadline)
    key = sparse_key(board, goal, pattern)
    entry = store.load(key, sparse_expected(board, pattern))
    if entry is not None:
        return entry.table
    table = build_pattern_table(board, goal, pattern, deadline)
    store.save(key, table, {"format": FORMAT, "board": board.label, "pattern": list(pattern)})
    return table


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
