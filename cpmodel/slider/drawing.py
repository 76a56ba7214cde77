"""Drawn layouts for slider boards that come without one.

Covers: `drawn_layout(n, edges)` — coordinates for a board read from an
edge list (or board JSON without "layout"), in the convention of the
presets and of every export: y grows upwards, the closest two vertices one
unit apart, centred on the origin, rounded to `DIGITS` decimals. Small
boards get networkx's Kamada–Kawai layout (graph distances become
drawing distances), middling ones a spring layout with a fixed seed, and
the largest a circle, as the HTML player draws a board without a layout.
Every result is deterministic, and a drawing whose closest two vertices lie
much closer than its edges are long (vertices on top of each other) is
replaced by the circle, whose points are distinct by construction.

Leaves out: layouts a board file gives (checked where the file is read,
`board.py`) and drawing itself (`generators/export/figures.py`, the player).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from mobius.cpmodel.slider.board import Board, circle_points

Point = tuple[float, float]

# Kamada–Kawai needs all-pairs distances and an O(n²) optimisation: about
# 2 s at 200 vertices, 12 s at 500 on a busy machine.
KAMADA_KAWAI_MAX = 200
# A seeded spring layout (Fruchterman–Reingold) is O(n²) per iteration:
# about 7 s at 1,000 vertices. Past that the circle is drawn.
SPRING_MAX = 1000
SPRING_SEED = 0
# A drawing is refused when its closest two vertices are nearer than this
# fraction of its mean edge length: scaled so that pair is one unit apart,
# the edges would run off the page. Kamada–Kawai gives 0.14 on K₂,₁₀ (ten
# leaves sharing two neighbours), 0.36 on a ternary tree of 121 vertices
# and about 1 on grids.
MIN_SEPARATION = 0.1
DIGITS = 3


def _networkx_layout(n: int, edges: Sequence[tuple[int, int]]) -> list[Point]:
    import networkx as nx  # loaded only when a board needs drawing

    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(edges)
    if n <= KAMADA_KAWAI_MAX:
        # Starts from the circular layout and optimises deterministically.
        positions = nx.kamada_kawai_layout(graph)
    else:
        positions = nx.spring_layout(graph, seed=SPRING_SEED)
    return [(float(positions[v][0]), float(positions[v][1])) for v in range(n)]


def closest_pair(points: Sequence[Point]) -> float:
    """The smallest distance between two of `points` (scipy's pairwise distances)."""
    from scipy.spatial.distance import pdist

    return float(pdist(points).min()) if len(points) > 1 else math.inf


def separated(points: Sequence[Point], edges: Sequence[tuple[int, int]]) -> bool:
    """Are the closest two points at least `MIN_SEPARATION` of the mean edge length apart?"""
    mean_edge = sum(math.dist(points[u], points[v]) for u, v in edges) / len(edges)
    return mean_edge > 0 and closest_pair(points) >= MIN_SEPARATION * mean_edge


def normalised(points: Sequence[Point], unit: float) -> tuple[Point, ...]:
    """`points` scaled so `unit` (the distance of the closest two) becomes 1, centred on the origin, rounded."""
    mid_x = (max(x for x, _ in points) + min(x for x, _ in points)) / 2
    mid_y = (max(y for _, y in points) + min(y for _, y in points)) / 2
    # + 0.0 turns a rounded -0.0 into 0.0, so files do not depend on the sign of a zero.
    return tuple((round((x - mid_x) / unit, DIGITS) + 0.0, round((y - mid_y) / unit, DIGITS) + 0.0)
                 for x, y in points)


def drawn_layout(n: int, edges: Sequence[tuple[int, int]]) -> tuple[Point, ...]:
    """A layout for the connected graph on vertices 0…n−1 with `edges` (see the module docstring)."""
    if n <= SPRING_MAX:
        points = _networkx_layout(n, edges)
        if separated(points, edges):
            return normalised(points, closest_pair(points))
    circle = circle_points(n)
    return normalised(circle, math.dist(circle[0], circle[1]))  # neighbours on a circle are the closest


def with_layout(board: Board) -> Board:
    """`board` itself if it has a layout, else the same board with a drawn one."""
    if board.layout is not None:
        return board
    return replace(board, layout=drawn_layout(board.n, board.edges))
