"""Slider boards: graphs whose vertices hold tiles, the states on them, and
the slider problem.

Covers: the `Board` (vertices 0…n−1, undirected edges, optional names and
drawing coordinates) with its validation, reading boards from JSON or a plain
edge list, the presets (`ring`, `grid:RxC`, `cycle:N`, `theta0`, `path:N`,
`petersen`), states (the tile on each vertex, 0 = blank), the default goal
(tile v on vertex v) and `SliderProblem` = board + start + goal. Leaves out:
solvability (`group.py`), solving (`search.py`, `cpsat.py`) and checking
answers (`verify.py`).
"""

from __future__ import annotations

import json
import math
import random
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from cpmodel.errors import InputError

State = tuple[int, ...]  # state[v] = tile on vertex v; 0 = blank
BLANK = 0


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
        return tuple(_bfs_distances(self.neighbours, s) for s in range(self.n))

    def adjacent(self, u: int, v: int) -> bool:
        return v in self.neighbours[u]

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"vertices": self.n, "edges": [list(e) for e in self.edges]}
        if self.layout is not None:
            data["layout"] = [list(p) for p in self.layout]
        if self.names is not None:
            data["names"] = list(self.names)
        return data


def _bfs_distances(neighbours: tuple[tuple[int, ...], ...], source: int) -> tuple[int, ...]:
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
    if n < 2:
        raise InputError(f"a board needs at least 2 vertices, got {n}", source=source)
    seen: set[frozenset[int]] = set()
    for u, v in edges:
        if not (0 <= u < n and 0 <= v < n):
            raise InputError(f"edge [{u}, {v}] names a vertex outside 0..{n - 1}", source=source)
        if u == v:
            raise InputError(f"self-loop at vertex {u}: a tile cannot slide onto its own vertex", source=source)
        key = frozenset((u, v))
        if key in seen:
            raise InputError(f"duplicate edge [{u}, {v}]", source=source)
        seen.add(key)
    adj: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        adj[u].append(v)
        adj[v].append(u)
    reached = _bfs_distances(tuple(tuple(a) for a in adj), 0)
    unreached = [v for v, d in enumerate(reached) if d < 0]
    if unreached:
        raise InputError(
            f"graph is disconnected: vertices {unreached[:10]} cannot be reached from vertex 0", source=source
        )


# --- presets -----------------------------------------------------------------

def _circle(n: int, radius: float = 1.0, phase: float = math.pi / 2) -> list[tuple[float, float]]:
    return [(round(radius * math.cos(phase - 2 * math.pi * i / n), 6),
             round(radius * math.sin(phase - 2 * math.pi * i / n), 6)) for i in range(n)]


def ring() -> Board:
    """Vertices 0–7 in a cycle, hub 8 joined to 0, 2, 4, 6."""
    edges = [(i, (i + 1) % 8) for i in range(8)] + [(8, i) for i in (0, 2, 4, 6)]
    return Board(9, tuple(edges), tuple(_circle(8) + [(0.0, 0.0)]), label="ring")


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
    return Board(n, tuple((i, (i + 1) % n) for i in range(n)) if n > 2 else ((0, 1),), tuple(_circle(n)),
                 label=f"cycle:{n}")


def path(n: int) -> Board:
    return Board(n, tuple((i, i + 1) for i in range(n - 1)), tuple((float(i), 0.0) for i in range(n)),
                 label=f"path:{n}")


def theta0() -> Board:
    """A hexagon 0–5 plus a centre 6 joined to the opposite vertices 0 and 3."""
    edges = [(i, (i + 1) % 6) for i in range(6)] + [(6, 0), (6, 3)]
    return Board(7, tuple(edges), tuple(_circle(6) + [(0.0, 0.0)]), label="theta0")


def petersen() -> Board:
    """Outer 5-cycle 0–4, inner pentagram 5–9, spokes i–(i+5)."""
    edges = ([(i, (i + 1) % 5) for i in range(5)] + [(5 + i, 5 + (i + 2) % 5) for i in range(5)]
             + [(i, i + 5) for i in range(5)])
    return Board(10, tuple(edges), tuple(_circle(5) + _circle(5, 0.5)), label="petersen")


PRESET_NAMES = ("ring", "grid:RxC", "cycle:N", "theta0", "path:N", "petersen")


def _parse_size(text: str, name: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"preset {name!r}: expected a whole number, got {text!r}") from None
    if value < 2:
        raise InputError(f"preset {name!r}: size must be at least 2, got {value}")
    return value


def preset(name: str) -> Board:
    """A preset board by name: ring, grid:RxC, cycle:N, theta0, path:N, petersen."""
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
            raise InputError(f"preset {name!r}: expected grid:RxC, e.g. grid:3x3")
        rows, cols = _parse_size(r, name), _parse_size(c, name)
        return grid(rows, cols)
    if kind == "cycle" and arg:
        return cycle(max(3, _parse_size(arg, name)))
    if kind == "path" and arg:
        return path(_parse_size(arg, name))
    raise InputError(f"unknown board {name!r}; expected a file or one of {', '.join(PRESET_NAMES)}")


# --- reading -------------------------------------------------------------------

def board_from_json(data: object, source: str = "<json>") -> Board:
    if not isinstance(data, dict) or "vertices" not in data or "edges" not in data:
        raise InputError('expected an object {"vertices": n, "edges": [[u, v], ...]}', source=source)
    n = data["vertices"]
    if not isinstance(n, int) or isinstance(n, bool):
        raise InputError(f'"vertices" must be a whole number, got {n!r}', source=source)
    edges = []
    for item in data["edges"] if isinstance(data["edges"], list) else [None]:
        if not (isinstance(item, list) and len(item) == 2 and all(isinstance(x, int) for x in item)):
            raise InputError(f'each edge must be a pair of vertex numbers [u, v], got {item!r}', source=source)
        edges.append((item[0], item[1]))
    layout = data.get("layout")
    if layout is not None:
        try:
            layout = tuple((float(p[0]), float(p[1])) for p in layout)
        except (TypeError, ValueError, IndexError, KeyError):
            raise InputError('"layout" must be a list of [x, y] points, one per vertex', source=source) from None
    names = data.get("names")
    if names is not None:
        names = tuple(str(s) for s in names)
    return Board(n, tuple(edges), layout, names, label=str(data.get("name", Path(source).stem)), _source=source)


def board_from_edge_list(text: str, source: str = "<edges>") -> Board:
    """One edge `u v` per line; `#` starts a comment; n = largest vertex + 1."""
    edges = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.replace(",", " ").split()
        if len(parts) != 2 or not all(p.isdecimal() for p in parts):
            raise InputError(f"expected an edge 'u v' (two vertex numbers), got {line!r}", source=source, line=number)
        edges.append((int(parts[0]), int(parts[1])))
    if not edges:
        raise InputError("no edges found", source=source)
    n = 1 + max(max(e) for e in edges)
    return Board(n, tuple(edges), label=Path(source).stem, _source=source)


def load_board(spec: str) -> Board:
    """A preset name, or a path to a JSON board or a plain edge list."""
    path_ = Path(spec)
    if not path_.exists():
        return preset(spec)
    try:
        text = path_.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError("not a UTF-8 text file", source=spec) from None
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc.msg}", source=spec, line=exc.lineno) from None
        return board_from_json(data, spec)
    return board_from_edge_list(text, spec)


# --- states and problems ----------------------------------------------------------

def default_goal(board: Board, blanks: int = 1) -> State:
    """Tile v on vertex v; with k blanks, vertices 0…k−1 are blank."""
    return tuple(0 if v < blanks else v for v in range(board.n))


def validate_state(board: Board, state: tuple[int, ...] | list[int], what: str = "state", blanks: int = 1) -> State:
    """Check `state` is a valid arrangement: n entries, `blanks` zeros, tiles distinct in 1…n−1."""
    state = tuple(state)
    if len(state) != board.n:
        raise InputError(f"{what} has {len(state)} entries, the board has {board.n} vertices")
    zeros = state.count(BLANK)
    if zeros != blanks:
        raise InputError(f"{what} has {zeros} blanks (0), expected {blanks}")
    tiles = [t for t in state if t != BLANK]
    if len(set(tiles)) != len(tiles) or not all(isinstance(t, int) and 1 <= t < board.n for t in tiles):
        raise InputError(f"{what} {list(state)} is not an arrangement of tiles 1..{board.n - 1} with {blanks} blank(s)")
    return state


def parse_state(text: str, board: Board, what: str = "state", blanks: int = 1) -> State:
    parts = text.replace(",", " ").split()
    if not all(p.isdecimal() for p in parts):
        raise InputError(f"{what} {text!r}: expected whole numbers separated by spaces")
    return validate_state(board, [int(p) for p in parts], what, blanks)


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
