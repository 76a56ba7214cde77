"""Optimal slider solutions as SAT, solved by `python-sat`: the `sat` solver.

Covers: `horizon_cnf(problem, T)`, the time-expanded encoding of "reach the
goal in exactly T moves" — the CP-SAT model's Booleans as clauses: "tile k
on vertex v after step t", "the blank on v after step t" and "at step t the
tile on a slides into the blank on c"; exactly one occupant per vertex, one
vertex per tile and for the blank, exactly one move per step, each move's
preconditions and effects, frame clauses for what it leaves alone, and no
move undone at the next step. Only placements the CP-SAT model's distance
pruning allows get a variable (`cpsat._tile_domains`/`_blank_domains`, so
both models rule out the same ones). `SatSliderSolver` tries the horizons of
`timed.solve_by_horizons` with CaDiCaL (default) or Glucose under the time
limit, each horizon encoded and solved in a child
(`mobius.cpmodel.sat.solve_encoded`). `cnf_comments` names every variable
for the DIMACS writer.

Why here and not in `benchmarks/`: it is the project's model as clauses, a
backend like `cpsat.py`.

Leaves out: several blanks (refused by `supports`), the CP-SAT model's move
budget and search order (clauses cannot carry a search order, and the
budget is a cardinality constraint), and the seed (pysat cannot seed these
solvers).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from mobius.cpmodel.deadline import check_deadline
from mobius.cpmodel.sat import DEFAULT_SAT_SOLVER, SAT_SOLVERS, Cnf, Encoded, sat_refusal, solve_encoded
from mobius.cpmodel.slider.board import SliderProblem
from mobius.cpmodel.slider.bounds import distance_bound
from mobius.cpmodel.slider.cpsat import Tricks, _blank_domains, _tile_domains
from mobius.cpmodel.slider.timed import DecideHorizon, HorizonAnswer, HorizonBackend, HorizonRun
from mobius.cpmodel.solver import Status, option

Move = tuple[int, int]  # (a, c): the tile on a slides into the blank on c


@dataclass(frozen=True)
class HorizonCnf:
    cnf: Cnf
    tiles: tuple[dict[tuple[int, int], int], ...]  # tiles[t][(v, k)] = variable "tile k on v after step t"
    blanks: tuple[dict[int, int], ...]  # blanks[t][v] = variable "blank on v after step t"
    moves: tuple[dict[Move, int], ...]  # moves[t][(a, c)], t = 0…T−1


def horizon_cnf(problem: SliderProblem, horizon: int, deadline: float = math.inf) -> HorizonCnf:
    """The formula; DeadlineExceeded once `deadline` has passed (looked at step by step)."""
    cnf = Cnf()

    def var() -> int:
        return int(cnf.new_vars(1)[0])

    tile_domains = _tile_domains(problem, horizon, Tricks(), distance_bound(problem))
    blank_domains = _blank_domains(problem, horizon, Tricks())
    x = tuple({(v, k): var() for k, vs in step.items() for v in vs} for step in tile_domains)
    b = tuple({v: var() for v in step} for step in blank_domains)
    directed = sorted({(u, v) for u, v in problem.board.edges} | {(v, u) for u, v in problem.board.edges})
    m = tuple({(a, c): var() for a, c in directed
               if c in b[t] and a in b[t + 1] and any((a, k) in x[t] and (c, k) in x[t + 1] for k in tile_domains[t])}
              for t in range(horizon))
    for t in range(horizon + 1):
        check_deadline(deadline)
        _occupancy(cnf, x[t], b[t], problem.board.n)
    for t in range(horizon):
        check_deadline(deadline)
        cnf.exactly_one(list(m[t].values()))
        _transition(cnf, x[t], x[t + 1], b[t], b[t + 1], m[t])
    for t in range(horizon - 1):
        for (a, c), move in m[t].items():
            undo = m[t + 1].get((c, a))
            if undo is not None:
                cnf.add((-move, -undo))
    return HorizonCnf(cnf, x, b, m)


def _occupancy(cnf: Cnf, x: dict[tuple[int, int], int], b: dict[int, int], n: int) -> None:
    """Every vertex holds one tile or the blank; every tile and the blank stand on one vertex."""
    by_vertex: list[list[int]] = [[] for _ in range(n)]
    by_tile: dict[int, list[int]] = {}
    for (v, k), lit in x.items():
        by_vertex[v].append(lit)
        by_tile.setdefault(k, []).append(lit)
    for v, lit in b.items():
        by_vertex[v].append(lit)
    for group in [*by_vertex, *by_tile.values(), list(b.values())]:
        cnf.exactly_one(group)


def _transition(cnf: Cnf, x_now: dict[tuple[int, int], int], x_next: dict[tuple[int, int], int],
                b_now: dict[int, int], b_next: dict[int, int], moves: dict[Move, int]) -> None:
    leaving: dict[int, list[tuple[int, int]]] = {}  # a -> (c, move) for moves out of a
    filling: dict[int, list[int]] = {}  # c -> moves into the blank on c
    for (a, c), move in moves.items():
        leaving.setdefault(a, []).append((c, move))
        filling.setdefault(c, []).append(move)
        cnf.add((-move, b_now[c]))  # precondition: the blank is on c
        cnf.add((-move, b_next[a]))  # effect: the blank ends on a
    for (v, k), lit in x_now.items():
        for c, move in leaving.get(v, []):  # effect: the tile on a ends on c
            arrived = x_next.get((c, k))
            cnf.add([-lit, -move] + ([arrived] if arrived is not None else []))
        stays = x_next.get((v, k))  # frame: a tile nobody moves stays put
        cnf.add([-lit] + [move for _, move in leaving.get(v, [])] + ([stays] if stays is not None else []))
    for v, lit in b_now.items():  # frame: a blank nobody fills stays put
        stays = b_next.get(v)
        cnf.add([-lit] + filling.get(v, []) + ([stays] if stays is not None else []))


def read_moves(encoded: HorizonCnf, true_vars: frozenset[int]) -> list[int]:
    """The vertex the blank moves to at each step (where the moving tile stood)."""
    return [next(a for (a, _), lit in step.items() if lit in true_vars) for step in encoded.moves]


def cnf_comments(encoded: HorizonCnf) -> Iterator[str]:
    yield f"slider, exactly {len(encoded.moves)} moves; variables past those named are auxiliary"
    for t, step in enumerate(encoded.tiles):
        yield f"step {t} tiles: " + " ".join(f"{k}@{v}={lit}" for (v, k), lit in sorted(step.items()))
        yield f"step {t} blank: " + " ".join(f"@{v}={lit}" for v, lit in sorted(encoded.blanks[t].items()))
    for t, step in enumerate(encoded.moves):
        yield f"move {t}: " + " ".join(f"{a}->{c}={lit}" for (a, c), lit in sorted(step.items()))


@dataclass(frozen=True)
class SatSliderSolver(HorizonBackend):
    """Optimal slider solutions with a SAT solver over increasing horizons."""

    name: ClassVar[str] = "sat"

    solver: str = option(DEFAULT_SAT_SOLVER, choices=SAT_SOLVERS, help="pysat solver")

    def available(self) -> str | None:
        return sat_refusal()

    def decider(self, problem: SliderProblem, run: HorizonRun, seed: int) -> DecideHorizon:
        def decide(horizon: int, deadline: float) -> HorizonAnswer:
            answer = solve_encoded(functools.partial(_encoded, problem, horizon), self.solver, deadline=deadline)
            run.add(answer.stats, ("conflicts", "killed_at_deadline"))
            return answer.status, answer.value if answer.status is Status.SOLVED else None

        return decide


def _encoded(problem: SliderProblem, horizon: int, deadline: float) -> Encoded[list[int]]:
    """The formula of exactly `horizon` moves, read back as the blank's moves."""
    encoded = horizon_cnf(problem, horizon, deadline)
    return Encoded(encoded.cnf, functools.partial(read_moves, encoded))
