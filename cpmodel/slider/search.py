"""Optimal slider solutions by state-space search: BFS, A* and IDA*.

Covers: `BfsSolver` (breadth-first from the start; any number of
interchangeable blanks; proves unreachability by exhausting the component),
`AStarSolver` and `IdaStarSolver` (one blank; the admissible heuristics of
`heuristics.py`, chosen by name: ``distance``/``manhattan`` or ``pdb``, and
by engine: ``compiled``, the default, or ``python``, the reference). All
three return a shortest move list — for one blank the vertices the blank
moves to, for several blanks (from, to) pairs — count expanded nodes in
`stats["nodes"]` and work to one deadline that covers everything they do,
building pattern tables included (a build cut short is kept and continued
by the next solve). A* and IDA* ask `mobius.cpmodel.slider.group` first whether the
goal is reachable at all. The heuristic solvers keep their tables in the
store their caller gives them (`with_tables`; none: memory only).

The pure-Python IDA* here is the reference for the compiled one
(`compiled.py`): a flat tile list, heuristic indices updated by one
multiply-add per view when a tile moves, the parent's move skipped, nothing
allocated per node; the two expand the same nodes on the same tables.

Leaves out: the heuristics and their tables (`heuristics.py` and the
modules it names), solvability theory (`group.py`), checking answers
(`verify.py`), and several blanks for A*/IDA* (use BFS or CP-SAT).
"""

from __future__ import annotations

import heapq
import importlib.util
import itertools
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import InitVar, dataclass
from typing import ClassVar

from mobius.cpmodel.deadline import DeadlineExceeded, check_deadline, deadline_of
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.slider.board import BLANK, SliderProblem
from mobius.cpmodel.slider.heuristics import (
    ENGINES,
    HEURISTIC_NAMES,
    Estimator,
    Heuristic,
    Partition,
    cached_heuristic,
    parse_partition,
    resolve_partition,
)
from mobius.cpmodel.solver import SolveResult, SolverBase, Status, option
from mobius.cpmodel.store import TableKeeper, TableStore

# The clock is read once per this many nodes (a power of two, tested with a
# mask): ~2 ms of IDA* work, so deadlines overrun by milliseconds at most.
CLOCK_EVERY = 1024
NO_BOUND = 1 << 30

Moves = list  # one blank: [vertex, …]; k blanks: [(from, to), …]
Stats = dict[str, int | float]


# --- shared plumbing -----------------------------------------------------------------

def refuted_by_group(problem: SliderProblem, notes: dict[str, str]) -> bool:
    """One blank: the group test (`group.py`) decides unreachability before
    any search, and its reason goes into `notes`. Several blanks: False."""
    if problem.blanks != 1:
        return False
    from mobius.cpmodel.slider.group import is_reachable  # lazy: sympy is slow to import

    reachable, reason = is_reachable(problem)
    if not reachable:
        notes["unreachable"] = reason
    return not reachable


def _run(name: str, problem: SliderProblem, time_limit: float | None,
         search: Callable[[SliderProblem, float, Stats, dict[str, str]], Moves | None]) -> SolveResult:
    """Time `search`, map its outcome (moves / None = unreachable / deadline) to a SolveResult."""
    started = time.perf_counter()
    deadline = deadline_of(time_limit)
    stats: Stats = {"nodes": 0}
    notes: dict[str, str] = {}
    try:
        moves = search(problem, deadline, stats, notes)
        status = Status.UNSAT if moves is None else Status.SOLVED
    except DeadlineExceeded:
        moves, status = None, Status.TIMEOUT
    if moves is not None:
        stats["length"] = len(moves)
    # Every search here returns a shortest solution.
    return SolveResult(status, moves, name, time.perf_counter() - started, stats, notes,
                       optimal=True if moves is not None else None)


def _swap(state: bytes, blank: int, vertex: int) -> bytes:
    """The tile on `vertex` slides into the blank on `blank`."""
    child = bytearray(state)
    child[blank], child[vertex] = state[vertex], BLANK
    return bytes(child)


# --- BFS ---------------------------------------------------------------------------

def _value_swaps(n: int) -> list[bytes]:
    """swaps[t] exchanges the byte values 0 and t: with one blank, sliding tile t is one C-level translate."""
    swaps = []
    for tile in range(n):
        table = bytearray(range(256))
        table[BLANK], table[tile] = tile, BLANK
        swaps.append(bytes(table))
    return swaps


def _moves_from(state: bytes, neighbours: tuple[tuple[int, ...], ...], swaps: list[bytes] | None
                ) -> Iterator[tuple[object, bytes]]:
    """(move, child) for every move; one blank (`swaps` given): move = the vertex the blank moves to."""
    if swaps is not None:
        blank = state.index(BLANK)
        for vertex in neighbours[blank]:
            yield vertex, state.translate(swaps[state[vertex]])
        return
    blank = state.find(BLANK)
    while blank >= 0:
        for vertex in neighbours[blank]:
            if state[vertex] != BLANK:
                yield (vertex, blank), _swap(state, blank, vertex)
        blank = state.find(BLANK, blank + 1)


# How a state was first reached, enough to step back: with one blank the
# vertex the blank came from (the move is where it is now), with several the
# (from, to) move itself; None for the start.
Link = int | tuple[int, int] | None


def _replay_back(reached: dict[bytes, Link], state: bytes) -> Moves:
    """The moves from the start to `state`, undoing one link at a time."""
    moves: Moves = []
    while (link := reached[state]) is not None:
        if isinstance(link, int):
            blank = state.index(BLANK)
            moves.append(blank)
            state = _swap(state, blank, link)
        else:
            moves.append(link)
            state = _swap(state, link[0], link[1])
    return moves[::-1]


def bfs(problem: SliderProblem, deadline: float, stats: Stats) -> Moves | None:
    """Level by level from the start; None when the start's whole component lacks the goal."""
    start, goal = bytes(problem.start), bytes(problem.goal)
    if start == goal:
        return []
    neighbours = problem.board.neighbours
    swaps = _value_swaps(problem.board.n) if problem.blanks == 1 else None
    reached: dict[bytes, Link] = {start: None}
    frontier = [start]
    while frontier:
        following = []
        for state in frontier:
            stats["nodes"] += 1
            if stats["nodes"] % CLOCK_EVERY == 0:
                check_deadline(deadline)
            came_from = state.index(BLANK) if swaps is not None else None
            for move, child in _moves_from(state, neighbours, swaps):
                if child not in reached:
                    reached[child] = came_from if came_from is not None else move
                    if child == goal:
                        return _replay_back(reached, child)
                    following.append(child)
        frontier = following
    stats["states"] = len(reached)
    return None


@dataclass(frozen=True)
class BfsSolver(SolverBase):
    """Breadth-first search; any number of blanks."""

    name: ClassVar[str] = "bfs"

    def solve(self, problem: SliderProblem, *, time_limit: float | None = None, seed: int = 0) -> SolveResult:
        def attempt(problem: SliderProblem, deadline: float, stats: Stats, notes: dict[str, str]) -> Moves | None:
            return None if refuted_by_group(problem, notes) else bfs(problem, deadline, stats)

        return _run(self.name, problem, time_limit, attempt)


# --- heuristic solvers ----------------------------------------------------------------

@dataclass(frozen=True)
class _HeuristicSolver(TableKeeper, SolverBase):
    """Shared options: engine, heuristic name, pdb partition, reflection, keeping tables in the store.

    `tables` is the caller's store (not an option: the CLI, packs and harness pass their cache).
    """

    engine: str = option("compiled", choices=ENGINES,
                         help="compiled: numba search over 4-bit tables; python: the pure-Python reference")
    heuristic: str = option("pdb", choices=HEURISTIC_NAMES, help="admissible heuristic")
    partition: str | None = option(None, help="pattern groups: a preset (7-8, 6-6-3 on grid:4x4; 4-4 on grid:3x3) "
                                              "or tiles, e.g. 1-2-3/4-5-6 (default: the engine's preset)")
    reflect: bool = option(True, help="also look tables up through the board's mirror symmetry")
    cache: bool = option(True, help="keep pattern tables in the caller's store between runs (else memory only)")
    tables: InitVar[TableStore | None] = None

    def __post_init__(self, tables: TableStore | None) -> None:
        super().__post_init__()
        self._keep_tables(tables)
        if self.partition is not None:
            parse_partition(self.partition)  # a malformed partition fails here, as a bad option
        if self.engine == "compiled" and self.available() is None:
            # Compiling the kernels (or loading them from numba's cache) is start-up, paid when the
            # solver is built, so no time limit of a solve is spent on it.
            from mobius.cpmodel.slider.compiled import warm_up

            warm_up()

    @property
    def store(self) -> TableStore | None:
        """Where this solver keeps its tables: the caller's store unless `cache` is off."""
        return self._store if self.cache else None

    def tables_to_build(self, problem: SliderProblem) -> Partition | None:
        """The tile groups of the compiled pattern tables this solver keeps in its store and would load or
        build for `problem` before searching; None where it builds none there (another heuristic or
        engine, or tables kept in memory only)."""
        if self.heuristic != "pdb" or self.engine != "compiled" or self.store is None:
            return None
        return resolve_partition(problem.board, problem.goal, self.partition, self.engine)

    def available(self) -> str | None:
        if self.engine == "compiled" and importlib.util.find_spec("numba") is None:
            return "the compiled engine needs the numba package (or use engine=python)"
        return None

    def supports(self, problem: SliderProblem) -> str | None:
        if problem.blanks != 1:
            return f"{self.name} supports one blank, this problem has {problem.blanks}; use bfs or cpsat"
        return None

    def solve(self, problem: SliderProblem, *, time_limit: float | None = None, seed: int = 0) -> SolveResult:
        refusal = self.supports(problem)
        if refusal:
            raise InputError(refusal)

        def attempt(problem: SliderProblem, deadline: float, stats: Stats, notes: dict[str, str]) -> Moves | None:
            # before the heuristic: no table is built just to learn the goal is out of reach
            if refuted_by_group(problem, notes):
                return None
            return self.search(problem, self.prepare(problem, deadline, stats, notes), deadline, stats)

        return _run(self.name, problem, time_limit, attempt)

    def search(self, problem: SliderProblem, heuristic: Estimator, deadline: float, stats: Stats) -> Moves | None:
        raise NotImplementedError

    def prepare(self, problem: SliderProblem, deadline: float, stats: Stats, notes: dict[str, str]) -> Estimator:
        """The heuristic for this board and goal (built, loaded or kept in memory); named in notes."""
        began = time.perf_counter()
        partition = None if self.partition is None else \
            resolve_partition(problem.board, problem.goal, self.partition, self.engine)
        notes["heuristic"] = self.heuristic  # replaced by the full name once the heuristic exists
        heuristic = cached_heuristic(self.heuristic, problem.board, problem.goal, engine=self.engine,
                                     partition=partition, reflect=self.reflect, store=self.store, deadline=deadline)
        notes["heuristic"] = heuristic.name
        stats["setup_s"] = round(time.perf_counter() - began, 4)
        stats["h0"] = heuristic.estimate(problem.start)
        return heuristic


# --- A* --------------------------------------------------------------------------------

def astar(problem: SliderProblem, heuristic: Estimator, deadline: float, stats: Stats) -> Moves | None:
    """Best-first on f = g + h, ties to the smaller h; reopens states reached more cheaply.

    Reopening keeps A* optimal with heuristics that are admissible but not
    consistent (a pattern table that keeps the minimum over blank positions
    may drop by more than 1 across a move).
    """
    start, goal = bytes(problem.start), bytes(problem.goal)
    neighbours = problem.board.neighbours
    swaps = _value_swaps(problem.board.n)
    best_g = {start: 0}
    reached: dict[bytes, Link] = {start: None}
    tie = itertools.count()
    h0 = heuristic.estimate(start)
    heap = [(h0, h0, next(tie), start)]
    generated = 0
    while heap:
        f, h, _, state = heapq.heappop(heap)
        g = f - h
        if g > best_g[state]:
            continue  # a stale entry: the state was reached more cheaply since
        if state == goal:
            stats["generated"] = generated
            return _replay_back(reached, state)
        stats["nodes"] += 1
        if stats["nodes"] % CLOCK_EVERY == 0:
            check_deadline(deadline)
        blank = state.index(BLANK)
        for _, child in _moves_from(state, neighbours, swaps):
            if g + 1 < best_g.get(child, NO_BOUND):
                best_g[child], reached[child] = g + 1, blank
                h_child = heuristic.estimate(child)
                heapq.heappush(heap, (g + 1 + h_child, h_child, next(tie), child))
                generated += 1
    stats["generated"] = generated
    return None


@dataclass(frozen=True)
class AStarSolver(_HeuristicSolver):
    """A* with a named admissible heuristic; one blank."""

    name: ClassVar[str] = "astar"

    def search(self, problem: SliderProblem, heuristic: Estimator, deadline: float, stats: Stats) -> Moves | None:
        return astar(problem, heuristic, deadline, stats)


# --- IDA* ------------------------------------------------------------------------------

def ida_star(problem: SliderProblem, heuristic: Heuristic, deadline: float, stats: Stats,
             max_bound: int | None = None) -> Moves | None:
    """Iterative deepening on f = g + h; None once the bound passes `max_bound`.

    The heuristic is the max of (at most) two additive views; a heuristic with
    one view is paired with itself so one tight loop serves both.
    """
    first, second = heuristic.views[0], heuristic.views[-1]
    state = list(problem.start)
    neighbours = problem.board.neighbours
    table1, group1, weight1 = first.table, first.group, first.weight
    table2, group2, weight2, mirror = second.table, second.group, second.weight, second.vertex_map
    index1, index2 = first.indices(state), second.indices(state)
    path: list[int] = []
    nodes = 0

    def dfs(blank: int, parent: int, g: int, h1: int, h2: int, bound: int) -> int:
        """Search below `blank`; −1 when the goal is found (path filled), else a lower bound (> bound) on the
        least f over the bound: the next iteration's bound."""
        nonlocal nodes
        nodes += 1
        if not nodes & (CLOCK_EVERY - 1) and time.perf_counter() > deadline:
            raise DeadlineExceeded
        least = NO_BOUND
        g += 1
        room = bound - g  # a child is searched when its h ≤ room
        for vertex in neighbours[blank]:
            if vertex == parent:
                continue  # undoing the last move never helps
            tile = state[vertex]
            # the tile slides vertex → blank: one index per view shifts by weight × step
            a = group1[tile]
            old1 = index1[a]
            new1 = old1 + weight1[tile] * (blank - vertex)
            c1 = h1 - table1[old1] + table1[new1]
            # pruned on the first view alone, the second is never read; plain ifs, not min(),
            # since a call per child costs measurably here
            if c1 > room:
                if g + c1 < least:
                    least = g + c1
                continue
            b = group2[tile]
            old2 = index2[b]
            new2 = old2 + weight2[tile] * (mirror[blank] - mirror[vertex])
            c2 = h2 - table2[old2] + table2[new2]
            if c2 > room:
                if g + c2 < least:
                    least = g + c2
                continue
            if c1 == 0:  # every tile home: the goal
                path.append(vertex)
                return -1
            state[blank], state[vertex] = tile, BLANK
            index1[a], index2[b] = new1, new2
            found = dfs(vertex, blank, g, c1, c2, bound)
            state[blank], state[vertex] = BLANK, tile
            index1[a], index2[b] = old1, old2
            if found < 0:
                path.append(vertex)
                return -1
            if found < least:
                least = found
        return least

    h1, h2 = first.value(state), second.value(state)
    bound = max(h1, h2)
    if bound == 0:  # h is 0 only when every tile is home
        return []
    iterations = 0
    try:
        while max_bound is None or bound <= max_bound:
            iterations += 1
            least = dfs(state.index(BLANK), -1, 0, h1, h2, bound)
            if least < 0:
                return path[::-1]
            if least == NO_BOUND:
                return None  # the whole non-backtracking tree is finite (a tree board) and holds no goal
            bound = least
    finally:
        stats["nodes"] += nodes
        stats["iterations"] = iterations
        stats["bound"] = bound
    return None


@dataclass(frozen=True)
class IdaStarSolver(_HeuristicSolver):
    """IDA* with a named admissible heuristic; one blank."""

    name: ClassVar[str] = "idastar"

    def search(self, problem: SliderProblem, heuristic: Estimator, deadline: float, stats: Stats) -> Moves | None:
        # group.py normally settles reachability first; without it, a bound past the number of
        # arrangements still proves the goal unreachable
        max_bound = math.factorial(problem.board.n) - 1
        if isinstance(heuristic, Heuristic):
            return ida_star(problem, heuristic, deadline, stats, max_bound=max_bound)
        from mobius.cpmodel.slider import compiled

        return compiled.ida_star(problem.start, heuristic, deadline, stats, max_bound=max_bound)
