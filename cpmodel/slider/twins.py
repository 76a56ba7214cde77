"""The presets a board is isomorphic to: a "novel" board may be an old one relabelled.

Covers: `isomorphic_presets(board)`. The fixed presets (ring, theta0,
petersen: at most 10 vertices) are compared with networkx's isomorphism
test. The families are recognised in linear time, because a general
isomorphism test takes seconds on a 10⁴-vertex grid: a cycle or a path by
its degrees, an R×C grid by rebuilding each vertex's coordinates from its
distances to two corners and checking that every edge joins neighbouring
cells. Leaves out: every other fact about boards (`group.py`).
"""

from __future__ import annotations

import math

import networkx as nx

from mobius.cpmodel.slider.board import Board, bfs_distances, preset

FIXED_PRESETS = ("ring", "theta0", "petersen")


def to_networkx(board: Board) -> nx.Graph:
    graph = nx.Graph()
    graph.add_nodes_from(range(board.n))
    graph.add_edges_from(board.edges)
    return graph


def grid_edge_count(rows: int, cols: int) -> int:
    return 2 * rows * cols - rows - cols


def is_cycle(board: Board) -> bool:
    # Connected with every degree 2 is a cycle.
    return board.n >= 3 and all(len(a) == 2 for a in board.neighbours)


def is_path(board: Board) -> bool:
    # Connected with n − 1 edges is a tree; a tree with no degree above 2 is a path.
    return len(board.edges) == board.n - 1 and all(len(a) <= 2 for a in board.neighbours)


def _fits_grid(board: Board, from_a: tuple[int, ...], from_b: tuple[int, ...], rows: int, cols: int) -> bool:
    """Do corners a = (0, 0) and b = (0, cols − 1) give every vertex a distinct cell, every edge a grid edge?

    In the grid, d(a, v) = r + c and d(b, v) = r + cols − 1 − c, so c and r
    follow from the two distances. With as many edges as the grid, a
    bijection that maps every edge to a grid edge is an isomorphism.
    """
    cell = []
    for da, db in zip(from_a, from_b):
        twice_col = da - db + cols - 1
        col, row = twice_col // 2, da - twice_col // 2
        if twice_col % 2 or not (0 <= row < rows and 0 <= col < cols):
            return False
        cell.append(row * cols + col)
    if len(set(cell)) != board.n:
        return False
    return all(abs(cell[u] - cell[v]) == cols or (abs(cell[u] - cell[v]) == 1 and cell[u] // cols == cell[v] // cols)
               for u, v in board.edges)


def is_grid(board: Board, rows: int, cols: int) -> bool:
    """Is `board` the rows × cols grid graph (2 ≤ rows ≤ cols)?"""
    if board.n != rows * cols or len(board.edges) != grid_edge_count(rows, cols):
        return False
    corners = [v for v, a in enumerate(board.neighbours) if len(a) == 2]
    if len(corners) != 4:
        return False
    from_a = bfs_distances(board.neighbours, corners[0])
    # If the board is a grid, any corner at distance cols − 1 from a is an
    # end of a's side of length cols (two when the grid is square).
    return any(_fits_grid(board, from_a, bfs_distances(board.neighbours, b), rows, cols)
               for b in corners[1:] if from_a[b] == cols - 1)


def isomorphic_presets(board: Board) -> list[str]:
    """Presets isomorphic to `board`, in the order ring, theta0, petersen, grid:RxC (R ≤ C), cycle:n, path:n."""
    n, m = board.n, len(board.edges)
    names = []
    for name in FIXED_PRESETS:
        other = preset(name)
        # Sizes first: cheap, and they rule out almost every board.
        if (other.n, len(other.edges)) == (n, m) and nx.is_isomorphic(to_networkx(board), to_networkx(other)):
            names.append(name)
    names += [f"grid:{r}x{n // r}" for r in range(2, math.isqrt(n) + 1) if n % r == 0 and is_grid(board, r, n // r)]
    if is_cycle(board):
        names.append(f"cycle:{n}")
    if is_path(board):
        names.append(f"path:{n}")
    return names
