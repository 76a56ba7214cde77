"""The time-expanded slider model as plain data, and the horizon loop, for the
outside backends (MiniZinc/Gecode, Choco, SAT) and the instance writers.

Covers: `one_blank_refusal` (these backends take one blank), `step_table`
(every (blank now, blank next, tile now, tile next) of one move, the relation
the CP models post per tile and step), `step_domains` (the distance pruning
as domains), `horizons` (the lengths to try: from
`bounds.distance_bound`, stepping by 2 when `bounds.horizon_parity` fixes the
parity) and `solve_by_horizons`, the loop shared by the three backends: the
group test first (an unreachable goal is UNSAT at once), then "exactly T
moves" for each horizon in turn, the first feasible one being optimal —
the argument of `cpsat.py`, whose bounds it reuses. One deadline bounds the
loop: each horizon's backend gets it (and may raise `DeadlineExceeded` while
encoding), and an answer that comes after it (`deadline.too_late`) is
TIMEOUT.

Leaves out: any solver (each backend decides one horizon), several blanks
(the CP-SAT model has them) and the CP-SAT model itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from mobius.cpmodel.deadline import DeadlineExceeded, check_deadline, deadline_of, too_late
from mobius.cpmodel.slider.board import BLANK, SliderProblem
from mobius.cpmodel.slider.bounds import arrangement_count, distance_bound, horizon_parity
from mobius.cpmodel.slider.group import is_reachable
from mobius.cpmodel.solver import SolveResult, SolverBase, Status, option

Step = tuple[int, int, int, int]  # (blank now, blank next, tile now, tile next), vertices 0…n−1


def one_blank_refusal(problem: SliderProblem) -> str | None:
    if problem.blanks != 1:
        return f"this backend's model has one blank, and this problem has {problem.blanks}"
    return None


def step_table(problem: SliderProblem) -> list[Step]:
    """Every (b, b', v, v') of one move: the blank goes b → b' along an edge,
    the tile on b' takes b, a tile elsewhere stays (a tile never stands on b)."""
    n = problem.board.n
    directed = sorted({(u, v) for u, v in problem.board.edges} | {(v, u) for u, v in problem.board.edges})
    return [(b, b2, v, b if v == b2 else v) for b, b2 in directed for v in range(n) if v != b]


def tile_positions(problem: SliderProblem, state: tuple[int, ...]) -> list[int]:
    """Vertex of tile 1, 2, … in `state` (the tiles are 1…n−1 with one blank)."""
    where = {tile: v for v, tile in enumerate(state)}
    return [where[k] for k in range(1, problem.board.n)]


def blank_vertex(state: tuple[int, ...]) -> int:
    return state.index(BLANK)


def step_domains(problem: SliderProblem, horizon: int) -> list[list[list[int]]] | None:
    """domains[t] = [the blank's vertices, tile 1's, tile 2's, …] after step t: within t moves of
    where it starts and horizon − t of where it ends. None when one is empty (no solution that long)."""
    n, dist = problem.board.n, problem.board.distances
    ends = [(blank_vertex(problem.start), blank_vertex(problem.goal)),
            *zip(tile_positions(problem, problem.start), tile_positions(problem, problem.goal))]
    domains = [[[v for v in range(n) if dist[s][v] <= t and dist[v][g] <= horizon - t] for s, g in ends]
               for t in range(horizon + 1)]
    return domains if all(d for step in domains for d in step) else None


def horizons(problem: SliderProblem, last: int) -> Iterator[int]:
    """Move counts to try, increasing: every shortest solution is at least the
    lower bound long and has the parity of the start→goal permutation."""
    first = distance_bound(problem)
    parity = horizon_parity(problem)
    if parity is not None and first % 2 != parity:
        first += 1
    return iter(range(first, last + 1, 1 if parity is None else 2))


# What a backend answers for one horizon: SOLVED with the blank's vertices
# (one per move), UNSAT (no solution of exactly that length), TIMEOUT or ERROR.
HorizonAnswer = tuple[Status, list[int] | None]
# (horizon, deadline as a time.perf_counter() value, inf: none); may raise DeadlineExceeded.
DecideHorizon = Callable[[int, float], HorizonAnswer]


@dataclass
class HorizonRun:
    """The counters of one horizon loop; `stats` and `notes` go into the result."""

    stats: dict[str, int | float] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)

    def add(self, counts: Mapping[str, int | float], keys: Iterable[str]) -> None:
        """Add the counters `keys` of one horizon's run to the totals (a key it lacks adds nothing)."""
        for key in keys:
            if key in counts:
                self.stats[key] = self.stats.get(key, 0) + int(counts[key])


def solve_by_horizons(problem: SliderProblem, name: str, decide: DecideHorizon, *,
                      time_limit: float | None, max_horizon: int | None, run: HorizonRun) -> SolveResult:
    """The optimal solution, trying `decide` on each horizon in turn."""
    started = time.perf_counter()
    deadline = deadline_of(time_limit)
    run.stats.update(lower_bound=distance_bound(problem), horizons_tried=0)

    def result(status: Status, moves: list[int] | None = None) -> SolveResult:
        return SolveResult(status, moves, name, time.perf_counter() - started, run.stats, run.notes,
                           optimal=True if moves is not None else None)

    reachable, reason = is_reachable(problem)
    if not reachable:
        run.notes["unreachable"] = reason
        return result(Status.UNSAT)
    proof_bound = arrangement_count(problem) - 1
    last = proof_bound if max_horizon is None else min(max_horizon, proof_bound)
    for horizon in horizons(problem, last):
        try:
            check_deadline(deadline)
            status, moves = decide(horizon, deadline)
        except DeadlineExceeded:
            return result(Status.TIMEOUT)
        run.stats["horizons_tried"] += 1
        if status in (Status.SOLVED, Status.UNSAT) and too_late(deadline):
            # An answer after the limit is no answer within it.
            run.stats["answered_after_limit"] = 1
            return result(Status.TIMEOUT)
        if status is Status.SOLVED:
            run.stats["horizon"] = horizon
            return result(Status.SOLVED, moves)
        if status is not Status.UNSAT:
            return result(status)
        run.stats["no_solution_up_to"] = horizon
    # Reachable (the group test said so) yet no horizon up to `last` worked:
    # only a max_horizon below the proof bound can get here.
    run.stats["no_solution_up_to"] = last
    run.notes["limit"] = f"no solution of length ≤ {last}"
    return result(Status.TIMEOUT)


@dataclass(frozen=True)
class HorizonBackend(SolverBase):
    """A one-blank slider solver that decides one horizon at a time; `solve`
    refuses what it cannot run, then runs `solve_by_horizons` on `decider`."""

    max_horizon: int | None = option(None, minimum=0, help="longest solution tried")

    def supports(self, problem: SliderProblem) -> str | None:
        return one_blank_refusal(problem)

    def decider(self, problem: SliderProblem, run: HorizonRun, seed: int) -> DecideHorizon:
        raise NotImplementedError

    def solve(self, problem: SliderProblem, *, time_limit: float | None = None, seed: int = 0) -> SolveResult:
        run = HorizonRun()
        refusal = self.available() or self.supports(problem)
        if refusal:
            run.notes["refused"] = refusal
            return SolveResult(Status.ERROR, None, self.name, 0.0, run.stats, run.notes)
        return solve_by_horizons(problem, self.name, self.decider(problem, run, seed), time_limit=time_limit,
                                 max_horizon=self.max_horizon, run=run)
