"""Optimal slider solutions with a time-expanded CP-SAT model.

Covers: `CpSatSliderSolver`, which proves optimality by trying horizons
T = lower bound, lower bound + step, … and building one model per horizon.
The lower bound is the pattern-database estimate of the start where tables
for the board are already built (in memory, or in the store the caller
gives the solver — never built here: each horizon it skips is one
infeasibility proof saved), else the sum of graph distances
(`heuristics.distance_heuristic`); the model's pruning and move budget use
the distance sum. Each model has Booleans "tile k on vertex v after step
t", "a blank on v after step t" and "at step t the tile on a slides into the
blank on c", with exactly one occupant per vertex, one vertex per tile,
exactly one move per step and frame clauses for everything the move does
not touch. Several interchangeable
blanks are supported. The model has no no-op moves: a horizon is "exactly T
moves", and the first feasible horizon is optimal because every shortest
solution has a length ≥ the lower bound, the parity the invariants demand and
no immediately undone move (see `_horizons`). Tricks that shrink the search,
each switchable for the ablation suite `slider-cpsat-ablation` (`Tricks`):
distance-based pruning (variables that cannot be true are never created), a
budget of moves away from the goal, optional per-step sum-of-distances bounds
from both ends (off by default), symmetry breaking (no undo; commuting moves
of several blanks in one canonical order), parity (skipped horizons, the
single blank's colour fixed per step on bipartite boards) and a time-ordered,
good-move-first search without presolve or LP.

One deadline bounds everything: building a model checks it step by step,
and CP-SAT gets what is left (never less than `MIN_CPSAT_TIME_S`).

Unreachability is reported as UNSAT only when proven: by the group test of
`mobius.cpmodel.slider.group` (one blank), or, with several blanks, by every horizon
up to the number of arrangements minus one being infeasible; a `max_horizon`
below that ends in TIMEOUT with "no solution of length ≤ max_horizon".

Leaves out: the heuristic search solvers (`search.py`), the solvability
theory (`group.py`), checking answers (`verify.py`) and incremental reuse of
models between horizons (CP-SAT rebuilds each one; building is cheap next to
proving a horizon infeasible), and the bounds on a solution's length it
steps from (`bounds.py`: distance sum, parity, arrangements).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import InitVar, dataclass
from typing import ClassVar

from ortools.sat.python import cp_model

from mobius.cpmodel.deadline import DeadlineExceeded, check_deadline, deadline_of
from mobius.cpmodel.slider.board import BLANK, SliderProblem
from mobius.cpmodel.slider.bounds import arrangement_count, distance_bound, horizon_parity, two_colouring
from mobius.cpmodel.slider.heuristics import stored_heuristic
from mobius.cpmodel.solver import SolveResult, SolverBase, Status, cpsat_solver, option
from mobius.cpmodel.store import TableKeeper, TableStore

Move = tuple[int, int]  # (a, c): the tile on vertex a slides into the blank on vertex c
Tiles = dict[tuple[int, int], cp_model.IntVar]  # one step: (vertex, tile) -> "tile on vertex"
Blanks = dict[int, cp_model.IntVar]  # one step: vertex -> "a blank on vertex"
Slides = dict[Move, cp_model.IntVar]  # one step: (a, c) -> "this step slides a into c"


@dataclass(frozen=True)
class Tricks:
    """Which search-shrinking devices the model uses (all but `sums` on by default)."""

    prune: bool = True  # create only variables allowed by start/goal distances
    # Per step: sum of tile distances to goal ≤ T − t, from start ≤ t. Off by
    # default: next to `budget` it costs more time than it saves (ablation).
    sums: bool = False
    budget: bool = True  # at most (T − lower bound) / 2 moves take a tile away from its goal
    symmetry: bool = True  # no immediate undo; commuting moves in canonical order (k blanks)
    parity: bool = True  # step horizons by 2 when an invariant fixes their parity
    search: bool = True  # branch step by step in time order, skip presolve and LP (`_configure_search`)


@dataclass(frozen=True)
class HorizonModel:
    """One horizon's CP-SAT model and the move variables to read a solution from."""

    horizon: int
    model: cp_model.CpModel
    moves: tuple[Slides, ...]  # moves[t][(a, c)], t = 0…T−1


# --- domains -------------------------------------------------------------------

def _tile_domains(problem: SliderProblem, horizon: int, tricks: Tricks, distance: int
                  ) -> list[dict[int, tuple[int, ...]]]:
    """domains[t][k] = vertices tile k may occupy after step t; `distance` = `distance_bound(problem)`."""
    n, dist = problem.board.n, problem.board.distances
    start_of = {tile: v for v, tile in enumerate(problem.start) if tile != BLANK}
    goal_of = {tile: v for v, tile in enumerate(problem.goal) if tile != BLANK}
    # Every move moves one tile one edge, so a detour of tile k through v
    # spends moves that the other tiles' distances have already claimed.
    slack = horizon - distance

    def allowed(t: int, s: int, g: int, v: int) -> bool:
        if not _fits_ends(t, horizon, v == s, v == g):
            return False
        return not tricks.prune or (dist[s][v] <= t and dist[v][g] <= horizon - t
                                    and dist[s][v] + dist[v][g] - dist[s][g] <= slack)

    return [{tile: tuple(v for v in range(n) if allowed(t, s, goal_of[tile], v)) for tile, s in start_of.items()}
            for t in range(horizon + 1)]


def _blank_domains(problem: SliderProblem, horizon: int, tricks: Tricks) -> list[tuple[int, ...]]:
    """domains[t] = vertices that may hold a blank after step t."""
    n, dist = problem.board.n, problem.board.distances
    starts = [v for v, item in enumerate(problem.start) if item == BLANK]
    goals = [v for v, item in enumerate(problem.goal) if item == BLANK]
    # A single blank moves at every step, so on a bipartite board its colour
    # after step t is fixed.
    colour = two_colouring(problem.board) if tricks.parity and problem.blanks == 1 else None

    def allowed(t: int, v: int) -> bool:
        if not _fits_ends(t, horizon, v in starts, v in goals):
            return False
        return not tricks.prune or (min(dist[s][v] for s in starts) <= t
                                    and min(dist[v][g] for g in goals) <= horizon - t
                                    and (colour is None or colour[v] == (colour[starts[0]] + t) % 2))

    return [tuple(v for v in range(n) if allowed(t, v)) for t in range(horizon + 1)]


def _fits_ends(t: int, horizon: int, is_start: bool, is_goal: bool) -> bool:
    """The start fixes step 0 and the goal fixes step T; steps between are free."""
    return (t != 0 or is_start) and (t != horizon or is_goal)


# --- the model -------------------------------------------------------------------

def build_model(problem: SliderProblem, horizon: int, tricks: Tricks = Tricks(), *, distance: int | None = None,
                deadline: float = math.inf) -> HorizonModel:
    """The CP-SAT model "reach the goal in exactly `horizon` moves"; DeadlineExceeded past `deadline`.

    `distance` is `distance_bound(problem)`, computed once by a caller that builds many horizons.
    """
    board = problem.board
    dist = board.distances
    distance = distance_bound(problem) if distance is None else distance
    goal_of = {tile: v for v, tile in enumerate(problem.goal) if tile != BLANK}
    start_of = {tile: v for v, tile in enumerate(problem.start) if tile != BLANK}
    tile_domains = _tile_domains(problem, horizon, tricks, distance)
    check_deadline(deadline)
    blank_domains = _blank_domains(problem, horizon, tricks)
    directed = sorted({(u, v) for u, v in board.edges} | {(v, u) for u, v in board.edges})

    # Model.
    model = cp_model.CpModel()

    # Variables: x[t][(v, k)] tile k on v, b[t][v] a blank on v, m[t][(a, c)] the
    # tile on a slides into the blank on c at step t (t = 0…T−1). Pruned ones
    # are never created, which fixes them to 0.
    x: list[Tiles] = []
    b: list[Blanks] = []
    for t in range(horizon + 1):
        check_deadline(deadline)
        x.append({(v, k): model.new_bool_var(f"x{t}_{v}_{k}") for k, vs in tile_domains[t].items() for v in vs})
        b.append({v: model.new_bool_var(f"b{t}_{v}") for v in blank_domains[t]})
    m = []
    for t in range(horizon):
        check_deadline(deadline)
        tiles_on = _tiles_by_vertex(x[t])
        m.append({(a, c): model.new_bool_var(f"m{t}_{a}_{c}") for a, c in directed
                  if _move_possible(tiles_on, x[t + 1], b[t], b[t + 1], a, c)})

    # Constraints: who is where after every step.
    for t in range(horizon + 1):
        check_deadline(deadline)
        _add_occupancy(model, x[t], b[t], board.n, problem.blanks)
    # Constraints: one move per step, its preconditions and effects, frames.
    for t in range(horizon):
        check_deadline(deadline)  # the largest part of building a long horizon
        model.add_exactly_one(m[t].values())
        _add_transition(model, x[t], x[t + 1], b[t], b[t + 1], m[t])
    # Constraints: distance sums, an admissible bound from both ends.
    if tricks.sums:
        for t in range(1, horizon):
            check_deadline(deadline)
            model.add(sum(_distance_units(model, x[t], lambda v, k: dist[v][goal_of[k]])) <= horizon - t)
            model.add(sum(_distance_units(model, x[t], lambda v, k: dist[start_of[k]][v])) <= t)
    # Constraints: symmetry breaking between consecutive steps.
    if tricks.symmetry:
        for t in range(horizon - 1):
            check_deadline(deadline)
            _add_move_symmetry(model, m[t], m[t + 1], problem.blanks)
    # Constraints: a budget of moves that take their tile away from its goal.
    away: list[cp_model.IntVar] = []
    if tricks.budget and horizon > 0:
        for t in range(horizon):
            check_deadline(deadline)
            away.append(_away_from_goal(model, x[t], m[t], lambda v, k: dist[v][goal_of[k]]))
        model.add(sum(away) <= (horizon - distance) // 2)
    # Search: each step in time order, depth first like IDA*: first whether
    # the move may go away from the goal (no, if possible), then which move.
    if tricks.search and horizon > 0:
        order: list[cp_model.LiteralT] = []
        for t in range(horizon):
            order += ([~away[t]] if away else []) + list(m[t].values())
        model.add_decision_strategy(order, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
    return HorizonModel(horizon, model, tuple(m))


def _distance_units(model: cp_model.CpModel, x: Tiles, distance: Callable[[int, int], int]) -> list[cp_model.IntVar]:
    """Order-encoded distances: one Boolean "tile k is ≥ r away" per tile k and r ≥ 1.

    Summing these instead of distance × position lets the bound bite on a
    partial assignment: once every near vertex of a tile is ruled out, its
    "≥ r" literals become true, just as IDA* sums Manhattan distances.
    """
    by_tile: dict[int, list[tuple[int, cp_model.IntVar]]] = {}
    for (v, k), var in x.items():
        by_tile.setdefault(k, []).append((distance(v, k), var))
    units: list[cp_model.IntVar] = []
    for places in by_tile.values():
        for r in range(1, max(d for d, _ in places) + 1):
            far = [var for d, var in places if d >= r]
            near = [var for d, var in places if d < r]
            if not near:  # every possible place is at least r away
                units.append(model.new_constant(1))
                continue
            at_least = model.new_bool_var("")
            for var in far:
                model.add_implication(var, at_least)
            model.add_bool_or([~at_least] + far)
            model.add_bool_or([at_least] + near)
            units.append(at_least)
    return units


def _away_from_goal(model: cp_model.CpModel, x: Tiles, moves: Slides,
                    distance: Callable[[int, int], int]) -> cp_model.IntVar:
    """A literal true exactly when this step's move takes its tile farther from its goal.

    Every move changes one tile's distance by at most one, so reaching the
    goal in T moves from lower bound L allows at most (T − L) / 2 such moves.
    """
    away = model.new_bool_var("")
    tiles_on = _tiles_by_vertex(x)
    for (a, c), move in moves.items():
        for k, var in tiles_on.get(a, []):
            model.add_bool_or([~var, ~move, away if distance(c, k) > distance(a, k) else ~away])
    return away


def _tiles_by_vertex(x: Tiles) -> dict[int, list[tuple[int, cp_model.IntVar]]]:
    """vertex -> (tile, literal) for every tile that may stand on it."""
    tiles_on: dict[int, list[tuple[int, cp_model.IntVar]]] = {}
    for (v, k), var in x.items():
        tiles_on.setdefault(v, []).append((k, var))
    return tiles_on


def _move_possible(tiles_on: dict[int, list[tuple[int, cp_model.IntVar]]], x_next: Tiles, b_now: Blanks,
                   b_next: Blanks, a: int, c: int) -> bool:
    """Can the tile on a slide into c, given which variables exist? `tiles_on` = `_tiles_by_vertex(x_now)`."""
    if c not in b_now or a not in b_next:
        return False
    return any((c, k) in x_next for k, _ in tiles_on.get(a, ()))


def _add_occupancy(model: cp_model.CpModel, x: Tiles, b: Blanks, n: int, blanks: int) -> None:
    by_vertex: list[list[cp_model.IntVar]] = [[] for _ in range(n)]
    by_tile: dict[int, list[cp_model.IntVar]] = {}
    for (v, k), var in x.items():
        by_vertex[v].append(var)
        by_tile.setdefault(k, []).append(var)
    for v, var in b.items():
        by_vertex[v].append(var)
    for occupants in by_vertex:
        model.add_exactly_one(occupants)
    for places in by_tile.values():
        model.add_exactly_one(places)
    if blanks == 1:
        model.add_exactly_one(b.values())
    else:
        model.add(sum(b.values()) == blanks)


def _add_transition(model: cp_model.CpModel, x_now: Tiles, x_next: Tiles, b_now: Blanks, b_next: Blanks,
                    moves: Slides) -> None:
    leaving: dict[int, list[tuple[int, cp_model.IntVar]]] = {}  # a -> (c, move) for moves out of a
    filling: dict[int, list[cp_model.IntVar]] = {}  # c -> moves that fill the blank on c
    for (a, c), move in moves.items():
        leaving.setdefault(a, []).append((c, move))
        filling.setdefault(c, []).append(move)
        # The blank on c and the tile on a swap places.
        model.add_implication(move, b_now[c])
        model.add_implication(move, b_next[a])
        if a in b_now:
            model.add_implication(move, ~b_now[a])
        if c in b_next:
            model.add_implication(move, ~b_next[c])
    # Effect: the tile on a ends on c. Frame: a tile nobody moves stays put.
    for (v, k), var in x_now.items():
        for c, move in leaving.get(v, []):
            arrived = x_next.get((c, k))
            model.add_bool_or([~var, ~move] + ([arrived] if arrived is not None else []))
        stays = x_next.get((v, k))
        model.add_bool_or([~var] + [move for _, move in leaving.get(v, [])] + ([stays] if stays is not None else []))
    # Frame: a blank nobody fills stays put.
    for v, var in b_now.items():
        stays = b_next.get(v)
        model.add_bool_or([~var] + filling.get(v, []) + ([stays] if stays is not None else []))


def _add_move_symmetry(model: cp_model.CpModel, now: Slides, then: Slides, blanks: int) -> None:
    """Forbid undoing the previous move; with several blanks, order commuting moves.

    Both keep every shortest solution: an undo can be cut out, and two
    consecutive moves on disjoint vertices can be swapped, so the
    lexicographically least ordering of each run of commuting moves exists.
    """
    for (a, c), move in now.items():
        undo = then.get((c, a))
        if undo is not None:
            model.add_bool_or([~move, ~undo])
        if blanks == 1:
            continue  # one blank: consecutive moves always share the blank's vertex
        for (a2, c2), later in then.items():
            if (a2, c2) < (a, c) and not {a, c} & {a2, c2}:
                model.add_bool_or([~move, ~later])


# --- solving ----------------------------------------------------------------------

def _horizons(problem: SliderProblem, tricks: Tricks, first: int, last: int) -> Iterator[int]:
    """Horizons to try, in increasing order, from the lower bound `first` to `last`.

    The first feasible one is optimal: a shortest solution is at least the
    lower bound long, has the parity an invariant demands, and undoes no move
    (symmetry breaking keeps it).
    """
    parity = horizon_parity(problem) if tricks.parity else None
    if parity is not None and first % 2 != parity:
        first += 1
    return iter(range(first, last + 1, 1 if parity is None else 2))


def _read_moves(solver: cp_model.CpSolver, built: HorizonModel, blanks: int) -> list[int] | list[Move]:
    chosen = [next(move for move, var in step.items() if solver.boolean_value(var)) for step in built.moves]
    # One blank: the vertex the blank moves to, i.e. where the moving tile was.
    return [a for a, _ in chosen] if blanks == 1 else chosen


# Full-problem CP-SAT workers for workers > 1: the time-ordered search first,
# then CP-SAT's own searches for diversity (they share learned bounds).
# CP-SAT's own ceiling on parallel workers is far above any machine here;
# past this a value is a typo, not a wish.
MAX_WORKERS = 256
PORTFOLIO = ("fixed", "no_lp", "quick_restart_no_lp", "default_lp", "quick_restart", "max_lp")


def _configure_search(solver: cp_model.CpSolver, workers: int) -> None:
    """Follow the model's decision strategy; skip work that does not pay here.

    Measured on the depth-31 8-puzzle (benchmarks/RESULTS.md):
    presolve and the LP relaxation cost more time than they save on these
    almost purely Boolean models, and time-ordered branching needs far fewer
    conflicts than CP-SAT's default search. Extra workers run other searches
    rather than copies of it, and no first-solution heuristics or LNS: they
    cannot prove a horizon infeasible, which is where the time goes.
    """
    solver.parameters.linearization_level = 0
    solver.parameters.cp_model_presolve = False
    if workers == 1:
        solver.parameters.search_branching = cp_model.FIXED_SEARCH
        return
    solver.parameters.num_full_subsolvers = workers
    solver.parameters.subsolvers.extend(PORTFOLIO[:workers])
    solver.parameters.use_lns = False
    solver.parameters.use_feasibility_jump = False


# A tiny positive limit rather than zero, which CP-SAT reads as "no limit".
MIN_CPSAT_TIME_S = 1e-3


@dataclass(frozen=True)
class CpSatSliderSolver(TableKeeper, SolverBase):
    """Optimal slider solutions by CP-SAT over increasing horizons.

    `tables` is the caller's store, read (never written) for the pattern-database bound."""

    name: ClassVar[str] = "cpsat"

    workers: int = option(1, minimum=1, maximum=MAX_WORKERS, help="CP-SAT search workers")
    max_horizon: int | None = option(None, minimum=0, help="longest solution tried")
    prune: bool = option(True, help="drop moves that cannot be on a short path")
    sums: bool = option(False, help="distance-sum constraints")
    budget: bool = option(True, help="per-tile move budget")
    symmetry: bool = option(True, help="break move-order symmetry")
    parity: bool = option(True, help="skip horizons of the wrong parity")
    search: bool = option(True, help="time-ordered search strategy")
    pdb_bound: bool = option(True, help="start at the pattern-database bound where its tables are already built")
    tables: InitVar[TableStore | None] = None

    def __post_init__(self, tables: TableStore | None) -> None:
        super().__post_init__()
        self._keep_tables(tables)

    @property
    def tricks(self) -> Tricks:
        return Tricks(prune=self.prune, sums=self.sums, budget=self.budget, symmetry=self.symmetry,
                      parity=self.parity, search=self.search)

    def solve(self, problem: SliderProblem, *, time_limit: float | None = None, seed: int = 0) -> SolveResult:
        started = time.perf_counter()
        deadline = deadline_of(time_limit)
        stats: dict[str, int | float] = {"horizons_tried": 0, "conflicts": 0, "branches": 0}
        notes: dict[str, str] = {}

        def result(status: Status, solution: object | None = None) -> SolveResult:
            # The first horizon that admits a solution is the optimum: every shorter one was refuted.
            return SolveResult(status, solution, self.name, time.perf_counter() - started, stats, notes,
                               optimal=True if solution is not None else None)

        # One blank: the group test decides reachability outright. Several
        # blanks: UNSAT only once every horizon up to the bound has failed.
        if problem.blanks == 1:
            from mobius.cpmodel.slider.group import is_reachable  # lazy: the group test's imports are slow

            reachable, reason = is_reachable(problem)
            if not reachable:
                notes["unreachable"] = reason
                return result(Status.UNSAT)
        try:
            return result(*self._search(problem, deadline, seed, stats, notes))
        except DeadlineExceeded:
            return result(Status.TIMEOUT)

    def _first_horizon(self, problem: SliderProblem, stats: dict[str, int | float], notes: dict[str, str]
                       ) -> tuple[int, int]:
        """(the distance bound, the bound the horizons start from: the larger of it and a built PDB's)."""
        distance = distance_bound(problem)
        stats["distance_bound"] = distance
        first = distance
        heuristic = stored_heuristic(problem.board, problem.goal, self._store) \
            if self.pdb_bound and problem.blanks == 1 else None
        if heuristic is not None:
            stats["pdb_bound"] = heuristic.estimate(problem.start)
            notes["bound"] = heuristic.name
            first = max(first, int(stats["pdb_bound"]))
        stats["lower_bound"] = first
        return distance, first

    def _search(self, problem: SliderProblem, deadline: float, seed: int, stats: dict[str, int | float],
                notes: dict[str, str]) -> tuple[Status, object | None]:
        distance, first = self._first_horizon(problem, stats, notes)
        proof_bound = arrangement_count(problem) - 1
        last = proof_bound if self.max_horizon is None else min(self.max_horizon, proof_bound)
        for horizon in _horizons(problem, self.tricks, first, last):
            # Model: variables and constraints for exactly `horizon` moves.
            check_deadline(deadline)
            built = build_model(problem, horizon, self.tricks, distance=distance, deadline=deadline)
            # Solve, in the time the earlier horizons and the building left.
            check_deadline(deadline)
            solver = self._configured_solver(deadline, seed)
            status = solver.solve(built.model)
            # Statistics, summed over horizons.
            stats["horizons_tried"] += 1
            stats["conflicts"] += solver.num_conflicts
            stats["branches"] += solver.num_branches
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                stats["horizon"] = horizon
                return Status.SOLVED, _read_moves(solver, built, problem.blanks)
            if status != cp_model.INFEASIBLE:
                return (Status.TIMEOUT if status == cp_model.UNKNOWN else Status.ERROR), None
            stats["no_solution_up_to"] = horizon
        # Every horizon up to `last` was infeasible or had the wrong parity.
        # Up to the arrangement count that proves UNSAT; below it only "no
        # solution of length ≤ max_horizon" is known.
        stats["no_solution_up_to"] = last
        return (Status.UNSAT if last >= proof_bound else Status.TIMEOUT), None

    def _configured_solver(self, deadline: float, seed: int) -> cp_model.CpSolver:
        solver = cpsat_solver(seed, self.workers)
        if self.tricks.search:
            _configure_search(solver, self.workers)
        if math.isfinite(deadline):
            solver.parameters.max_time_in_seconds = max(deadline - time.perf_counter(), MIN_CPSAT_TIME_S)
        return solver
