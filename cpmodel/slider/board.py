"""Slider boards: graphs whose vertices hold tiles, the states on them, and
the slider problem.

Covers: the `Board` (vertices 0…n−1, undirected edges, optional names and
drawing coordinates) with its validation, reading boards from JSON or a plain
edge list, the presets (`ring`, `grid:RxC`, `cycle:N`, `theta0`, `path:N`,
`petersen`), states (the tile on each vertex, 0 = blank), the default goal
(tile v on vertex v) and `SliderProblem` = board + start + goal. Every reader
bounds what it accepts before it allocates — at most `MAX_VERTICES` vertices
and `MAX_EDGES` edges, board files of at most `MAX_BOARD_BYTES`, regular
files only — and reports anything else as one `InputError`. Leaves out:
solvability (`group.py`), solving (`search.py`, `cpsat.py`) and checking
answers (`verify.py`).
"""

from __future__ import annotations

import math
import os
import random
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from mobius.cpmodel.errors import InputError
from mobius.cpmodel.inputs import loads_json_bounded, parse_whole_number, read_text_bounded, shown

State = tuple[int, ...]  # state[v] = tile on vertex v; 0 = blank
BLANK = 0

# The largest board accepted anywhere (presets, files, JSON). Solvability and
# `inspect` are linear in the board and measured up to this size
# (benchmarks/slider_scale.py: 2–4 s of CPU and under 300 MB for the
# 10⁵-vertex boards); a board is also drawn, exported and searched, so a
# larger one is refused up front rather than half-processed.
MAX_VERTICES = 100_000
# Edges of a board: average degree 10 at the largest size; grids and the
# presets need fewer than 2 per vertex.
MAX_EDGES = 10 * MAX_VERTICES // 2
# A board file at the limits is about 8 MB as an edge list and a little more
# as JSON with a layout; twice that covers names and formatting.
MAX_BOARD_BYTES = 16 * 1024 * 1024
MAX_STARTS_BYTES = 16 * 1024 * 1024  # a starts file: a state a line
# Characters of a board's name and of each vertex name: a board is named
# after its file by default, and file names run to 255 characters.
MAX_NAME_CHARS = 255


@dataclass(frozen=True)
class Board:
    """A connected simple graph on vertices 0…n−1."""

    n: int
    edges: tuple[tuple[int, int], ...]
    layout: tuple[tuple[float, float], ...] | None = None
    names: tuple[str, ...] | None = None
    label: str = "board"
    _source: str = field(default="<board>", compare=False, repr=False)

    def __post_init__(self) -> None:
        _validate_graph(self.n, self.edges, self._source)
        if self.layout is not None and len(self.layout) != self.n:
            raise InputError(f"layout has {len(self.layout)} points for {self.n} vertices", source=self._source)
        if self.names is not None and len(self.names) != self.n:
            raise InputError(f"names has {len(self.names)} entries for {self.n} vertices", source=self._source)

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        adj: list[list[int]] = [[] for _ in range(self.n)]
        for u, v in self.edges:
            adj[u].append(v)
            adj[v].append(u)
        return tuple(tuple(sorted(a)) for a in adj)

    @cached_property
    def distances(self) -> tuple[tuple[int, ...], ...]:
        """All-pairs shortest-path lengths (BFS from each vertex)."""
        return tuple(bfs_distances(self.neighbours, s) for s in range(self.n))

    def adjacent(self, u: int, v: int) -> bool:
        return v in self.neighbours[u]

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"vertices": self.n, "edges": [list(e) for e in self.edges]}
        if self.layout is not None:
            data["layout"] = [list(p) for p in self.layout]
        if self.names is not None:
            data["names"] = list(self.names)
        return data


def bfs_distances(neighbours: tuple[tuple[int, ...], ...], source: int) -> tuple[int, ...]:
    dist = [-1] * len(neighbours)
    dist[source] = 0
    queue = deque([source])
    while queue:
        u = queue.popleft()
        for v in neighbours[u]:
            if dist[v] < 0:
                dist[v] = dist[u] + 1
                queue.append(v)
    return tuple(dist)


def _validate_graph(n: int, edges: tuple[tuple[int, int], ...], source: str) -> None:
    if not 2 <= n <= MAX_VERTICES:
        raise InputError(f"a board needs 2 to {MAX_VERTICES:,} vertices, got {n:,}", source=source)
    if len(edges) > MAX_EDGES:
        raise InputError(f"a board has at most {MAX_EDGES:,} edges, got {len(edges):,}", source=source)
    seen: set[int] = set()  # u·n + v with u < v: an int per edge, not a frozenset
    adj: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        if not (0 <= u < n and 0 <= v < n):
            raise InputError(f"edge [{u}, {v}] names a vertex outside 0..{n - 1}", source=source)
        if u == v:
            raise InputError(f"self-loop at vertex {u}: a tile cannot slide onto its own vertex", source=source)
        key = min(u, v) * n + max(u, v)
        if key in seen:
            raise InputError(f"duplicate edge [{u}, {v}]", source=source)
        seen.add(key)
        adj[u].append(v)
        adj[v].append(u)
    reached = bfs_distances(tuple(tuple(a) for a in adj), 0)
    unreached = [v for v, d in enumerate(reached) if d < 0]
    if unreached:
        raise InputError(
            f"graph is disconnected: vertices {unreached[:10]} cannot be reached from vertex 0", source=source
        )


# --- presets -----------------------------------------------------------------

def circle_points(n: int, radius: float = 1.0, phase: float = math.pi / 2) -> list[tuple[float, float]]:
    """n points on a circle, vertex 0 at the top (phase π/2), clockwise; rounded to 6 decimals."""
    return [(round(radius * math.cos(phase - 2 * math.pi * i / n), 6),
             round(radius * math.sin(phase - 2 * math.pi * i / n), 6)) for i in range(n)]


def ring() -> Board:
    """Vertices 0–7 in a cycle, hub 8 joined to 0, 2, 4, 6."""
    edges = [(i, (i + 1) % 8) for i in range(8)] + [(8, i) for i in (0, 2, 4, 6)]
    return Board(9, tuple(edges), tuple(circle_points(8) + [(0.0, 0.0)]), label="ring")


def grid(rows: int, cols: int) -> Board:
    """The R×C grid graph, vertices numbered row by row (grid:4x4 = 15-puzzle)."""
    edges = []
    for r in range(rows):
        for c in range(cols):
            v = r * cols + c
            if c + 1 < cols:
                edges.append((v, v + 1))
            if r + 1 < rows:
                edges.append((v, v + cols))
    layout = tuple((float(c), float(-r)) for r in range(rows) for c in range(cols))
    return Board(rows * cols, tuple(edges), layout, label=f"grid:{rows}x{cols}")


def cycle(n: int) -> Board:
    """The n-cycle, n ≥ 3."""
    return Board(n, tuple((i, (i + 1) % n) for i in range(n)), tuple(circle_points(n)), label=f"cycle:{n}")


def path(n: int) -> Board:
    return Board(n, tuple((i, i + 1) for i in range(n - 1)), tuple((float(i), 0.0) for i in range(n)),
                 label=f"path:{n}")


def theta0() -> Board:
    """A hexagon 0–5 plus a centre 6 joined to the opposite vertices 0 and 3."""
    edges = [(i, (i + 1) % 6) for i in range(6)] + [(6, 0), (6, 3)]
    return Board(7, tuple(edges), tuple(circle_points(6) + [(0.0, 0.0)]), label="theta0")


def petersen() -> Board:
    """Outer 5-cycle 0–4, inner pentagram 5–9, spokes i–(i+5)."""
    edges = ([(i, (i + 1) % 5) for i in range(5)] + [(5 + i, 5 + (i + 2) % 5) for i in range(5)]
             + [(i, i + 5) for i in range(5)])
    return Board(10, tuple(edges), tuple(circle_points(5) + circle_points(5, 0.5)), label="petersen")


PRESET_NAMES = ("ring", "grid:RxC", "cycle:N", "theta0", "path:N", "petersen")


def _parse_size(text: str, name: str, smallest: int) -> int:
    return parse_whole_number(text, f"preset {shown(name)}, size", low=smallest, high=MAX_VERTICES)


def _check_preset_size(vertices: int, name: str) -> None:
    if vertices > MAX_VERTICES:
        raise InputError(f"preset {shown(name)} has {vertices:,} vertices; boards have at most {MAX_VERTICES:,}")


def preset(name: str) -> Board:
    """A preset board by name: ring, grid:RxC, cycle:N, theta0, path:N, petersen.

    Sizes are checked against `MAX_VERTICES` before anything is built.
    """
    kind, _, arg = name.partition(":")
    if kind == "ring" and not arg:
        return ring()
    if kind == "theta0" and not arg:
        return theta0()
    if kind == "petersen" and not arg:
        return petersen()
    if kind == "grid" and arg:
        r, x, c = arg.lower().partition("x")
        if not x:
            raise InputError(f"preset {shown(name)}: expected grid:RxC, e.g. grid:3x3")
        rows, cols = _parse_size(r, name, 2), _parse_size(c, name, 2)
        _check_preset_size(rows * cols, name)
        return grid(rows, cols)
    if kind == "cycle" and arg:
        return cycle(_parse_size(arg, name, 3))
    if kind == "path" and arg:
        return path(_parse_size(arg, name, 2))
    raise InputError(f"unknown board {shown(name)}; expected a board file or one of {', '.join(PRESET_NAMES)}")


# --- reading -------------------------------------------------------------------

def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:  # an integer beyond any float
        return False


def _json_count(data: dict[str, object], key: str, source: str) -> int:
    n = data[key]
    if not _is_whole(n) or not 2 <= n <= MAX_VERTICES:
        raise InputError(f'"{key}" must be a whole number from 2 to {MAX_VERTICES:,}, got {shown(n)}',
                         source=source)
    return n


def _json_edges(value: object, source: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list):
        raise InputError(f'"edges" must be a list of pairs [u, v], got {shown(value)}', source=source)
    if len(value) > MAX_EDGES:
        raise InputError(f'"edges" has {len(value):,} entries; a board has at most {MAX_EDGES:,}', source=source)
    edges = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 2 and all(_is_whole(x) for x in item)):
            raise InputError(f"each edge must be a pair of vertex numbers [u, v], got {shown(item)}",
                             source=source)
        edges.append((item[0], item[1]))
    return tuple(edges)


def _json_layout(value: object, n: int, source: str) -> tuple[tuple[float, float], ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != n:
        count = f"{len(value)} points" if isinstance(value, list) else shown(value)
        raise InputError(f'"layout" must be a list of {n} points [x, y], one per vertex; got {count}', source=source)
    for point in value:
        if not (isinstance(point, list) and len(point) == 2 and all(_is_number(x) for x in point)):
            raise InputError(f'each "layout" point must be [x, y] with finite numbers, got {shown(point)}',
                             source=source)
    points = tuple((float(x), float(y)) for x, y in value)
    first_at: dict[tuple[float, float], int] = {}
    for vertex, point in enumerate(points):
        if point in first_at:  # drawn on top of each other: one tile would hide the other
            raise InputError(f'"layout" puts vertices {first_at[point]} and {vertex} at the same point '
                             f'{list(point)}; expected a distinct point per vertex', source=source)
        first_at[point] = vertex
    return points


def _json_text(value: object, what: str, source: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_NAME_CHARS:
        raise InputError(f"{what} must be a string of at most {MAX_NAME_CHARS} characters, got {shown(value)}",
                         source=source)
    return value


def _json_names(value: object, n: int, source: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != n:
        count = f"{len(value)} entries" if isinstance(value, list) else shown(value)
        raise InputError(f'"names" must be a list of {n} strings, one per vertex; got {count}', source=source)
    return tuple(_json_text(name, "each vertex name", source) for name in value)


def board_from_json(data: object, source: str = "<json>") -> Board:
    """A board from `{"vertices": n, "edges": [[u, v], …]}` with optional "layout", "names", "name"."""
    if not isinstance(data, dict) or "vertices" not in data or "edges" not in data:
        raise InputError('expected an object {"vertices": n, "edges": [[u, v], ...]}', source=source)
    n = _json_count(data, "vertices", source)
    edges = _json_edges(data["edges"], source)
    layout = _json_layout(data.get("layout"), n, source)
    names = _json_names(data.get("names"), n, source)
    label = _json_text(data["name"], '"name"', source) if "name" in data else Path(source).stem
    return Board(n, edges, layout, names, label=label, _source=source)


def board_from_edge_list(text: str, source: str = "<edges>") -> Board:
    """One edge `u v` per line; `#` starts a comment; n = largest vertex + 1."""
    edges = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.replace(",", " ").split()
        if len(parts) != 2:
            raise InputError(f"expected an edge 'u v' (two vertex numbers), got {shown(line)}", source=source,
                             line=number)
        if len(edges) == MAX_EDGES:
            raise InputError(f"more than {MAX_EDGES:,} edges; a board has at most that many", source=source,
                             line=number)
        u, v = (parse_whole_number(p, "vertex", high=MAX_VERTICES - 1, source=source, line=number) for p in parts)
        edges.append((u, v))
    if not edges:
        raise InputError("no edges found", source=source)
    n = 1 + max(max(e) for e in edges)
    return Board(n, tuple(edges), label=Path(source).stem, _source=source)


def _names_a_file(spec: str) -> bool:
    """Does `spec` name something on disk (a file, or a FIFO or folder to refuse clearly)?"""
    try:
        os.stat(spec)
    except (OSError, ValueError):  # missing, a name too long for the system, an embedded NUL
        return False
    return True


def load_board(spec: str) -> Board:
    """A preset name, or a path to a JSON board or a plain edge list."""
    if not _names_a_file(spec):
        return preset(spec)
    text = read_text_bounded(spec, MAX_BOARD_BYTES, "board file")
    if text.lstrip().startswith(("{", "[")):
        return board_from_json(loads_json_bounded(text, "board JSON", source=spec), spec)
    return board_from_edge_list(text, spec)


# --- states and problems ----------------------------------------------------------

def start_lines(path: str) -> list[tuple[int, str]]:
    """(line number, text) of each line of a starts file (one state a line): comments ('#') cut, blank
    lines skipped."""
    text = read_text_bounded(path, MAX_STARTS_BYTES, "starts file")
    lines = ((number, line.split("#", 1)[0]) for number, line in enumerate(text.splitlines(), start=1))
    return [(number, state) for number, state in lines if state.strip()]


def default_goal(board: Board, blanks: int = 1) -> State:
    """Tile v on vertex v; with k blanks, vertices 0…k−1 are blank."""
    return tuple(0 if v < blanks else v for v in range(board.n))


def _blanks_phrase(count: int) -> str:
    if count == 0:
        return "no blank (0)"
    return "1 blank (0)" if count == 1 else f"{count} blanks (0s)"


def validate_state(board: Board, state: tuple[int, ...] | list[int], what: str = "state", blanks: int = 1) -> State:
    """Check `state` is a valid arrangement: n entries, `blanks` zeros, tiles distinct in 1…n−1."""
    state = tuple(state)
    n = board.n
    if not _is_whole(blanks) or not 1 <= blanks < n:
        raise InputError(f"{what}: a board of {n} vertices takes 1 to {n - 1} blanks, not {shown(blanks)}")
    if len(state) != n:
        raise InputError(f"{what} has {len(state)} entries, the board has {n} vertices")
    arrangement = f"{what} is not an arrangement of tiles 1..{n - 1} with {_blanks_phrase(blanks)}"
    for vertex, tile in enumerate(state):
        if not _is_whole(tile) or not 0 <= tile < n:
            raise InputError(f"{arrangement}: vertex {vertex} holds {shown(tile)}, not a tile of this board")
    zeros = state.count(BLANK)
    if zeros != blanks:
        raise InputError(f"{what} has {_blanks_phrase(zeros)}; expected {blanks}")
    where: dict[int, int] = {}
    for vertex, tile in enumerate(state):
        if tile != BLANK and tile in where:
            raise InputError(f"{arrangement}: tile {tile} is on vertices {where[tile]} and {vertex}")
        where[tile] = vertex
    return state


def parse_state(text: str, board: Board, what: str = "state", blanks: int = 1) -> State:
    """Whole numbers separated by spaces or commas, one per vertex; counted and bounded before conversion."""
    parts = text.replace(",", " ").split()
    if len(parts) != board.n:
        raise InputError(f"{what} has {len(parts)} entries, the board has {board.n} vertices")
    tiles = [parse_whole_number(p, f"{what} entry {i + 1}", high=board.n - 1) for i, p in enumerate(parts)]
    return validate_state(board, tiles, what, blanks)


@dataclass(frozen=True)
class SliderProblem:
    """Board + start + goal; `blanks` interchangeable blanks (0 tiles)."""

    board: Board
    start: State
    goal: State
    blanks: int = 1

    def __post_init__(self) -> None:
        validate_state(self.board, self.start, "start", self.blanks)
        validate_state(self.board, self.goal, "goal", self.blanks)
        if sorted(self.start) != sorted(self.goal):
            raise InputError("start and goal hold different tiles")


def random_walk(board: Board, goal: State, length: int, rng: random.Random) -> State:
    """Slide `length` random tiles from `goal`, never undoing the previous move at once."""
    state = list(goal)
    previous: tuple[int, int] | None = None
    for _ in range(length):
        moves = [(v, b) for b, t in enumerate(state) if t == 0 for v in board.neighbours[b]
                 if state[v] != 0 and (b, v) != previous]
        if not moves:
            break
        v, b = rng.choice(moves)
        state[b], state[v] = state[v], 0
        previous = (v, b)
    return tuple(state)
