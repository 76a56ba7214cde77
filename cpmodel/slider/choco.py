"""Optimal slider solutions by the Choco solver through `pychoco`: the `choco` solver.

Covers: `ChocoSliderSolver`, the model of `cpmodel/models/slider.mzn`
posted through Choco's Python API: per step the blank's vertex and each
tile's vertex (the distance pruning applied as the variables' domains), one
compact-table constraint per tile and step over (blank, next blank, tile,
next tile) with the rows of `timed.step_table`, all-different per step, no
undone moves, and the summed distances to the goal (element constraints)
bounded by the moves left. Search: the blank's vertices in time order,
smallest first, as the MiniZinc model asks of Gecode. Horizons as in
`timed.solve_by_horizons`; Choco stops itself at what is left of the limit
once the model is posted, each horizon in a forked child
(`mobius.cpmodel.choco.run_choco`: killed on a Ctrl-C at once, and at the
deadline; out of memory is ERROR with a note).

Why here and not in `benchmarks/`: the same model as the Gecode backend on
another engine, a backend of the project.

Leaves out: several blanks (refused by `supports`), and the seed (the
search is fixed: runs are the same for every seed).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, ClassVar

from mobius.cpmodel.choco import choco_limit, choco_refusal, choco_stats, choco_status, run_choco
from mobius.cpmodel.slider.board import SliderProblem
from mobius.cpmodel.slider.timed import (
    DecideHorizon,
    HorizonAnswer,
    HorizonBackend,
    HorizonRun,
    step_domains,
    step_table,
    tile_positions,
)
from mobius.cpmodel.solver import Status


@dataclass(frozen=True)
class ChocoSliderSolver(HorizonBackend):
    """Optimal slider solutions with Choco over increasing horizons."""

    name: ClassVar[str] = "choco"

    def available(self) -> str | None:
        return choco_refusal()

    def decider(self, problem: SliderProblem, run: HorizonRun, seed: int) -> DecideHorizon:
        steps = [list(row) for row in step_table(problem)]

        def decide(horizon: int, deadline: float) -> HorizonAnswer:
            return run_choco(functools.partial(decide_in_child, problem, horizon, steps, deadline), deadline,
                             run.stats, run.notes)

        return decide


def decide_in_child(problem: SliderProblem, horizon: int, steps: list[list[int]],
                    deadline: float) -> tuple[Status, list[int] | None, dict[str, float]]:
    """In the child (`run_choco`): a solution of exactly `horizon` moves, if any, and Choco's counters;
    Choco searches in what is left of `deadline` once the model is posted."""
    built = build_model(problem, horizon, steps)
    if built is None:
        return Status.UNSAT, None, {}
    model, blank = built
    solver = model.get_solver()
    if horizon > 0:
        solver.set_input_order_lb_search(*blank[1:])
    solution = solver.find_solution(time_limit=choco_limit(deadline))
    stats = choco_stats(solver)
    status = choco_status(solver, solution is not None)
    if status is not Status.SOLVED:
        return status, None, stats
    return Status.SOLVED, [solution.get_int_val(b) for b in blank[1:]], stats


def build_model(problem: SliderProblem, horizon: int, steps: list[list[int]]) -> tuple[Any, list[Any]] | None:
    """The Choco model "exactly `horizon` moves" and its blank variables (vertices 0…n−1);
    None when the distances alone rule the horizon out."""
    from pychoco import Model  # imported here: an optional package

    n, dist = problem.board.n, problem.board.distances
    goals = tile_positions(problem, problem.goal)
    domains = step_domains(problem, horizon)
    if domains is None:
        return None
    model = Model()
    # Variables: the blank and every tile after each step, pruned by distance.
    blank = [model.intvar(step[0]) for step in domains]
    pos = [[model.intvar(d) for d in step[1:]] for step in domains]
    # Constraints: one move per step, a table per tile; all different per step.
    for t in range(horizon):
        for k in range(len(goals)):
            model.table([blank[t], blank[t + 1], pos[t][k], pos[t + 1][k]], steps).post()
    for t in range(1, horizon):
        model.all_different([blank[t], *pos[t]]).post()
    # Constraints: no undone move; summed distances to the goal within the moves left.
    for t in range(horizon - 1):
        model.arithm(blank[t + 2], "!=", blank[t]).post()
    for t in range(1, horizon):
        far = [model.intvar(0, n) for _ in goals]
        for k, (g, d) in enumerate(zip(goals, far)):
            model.element(d, [dist[v][g] for v in range(n)], pos[t][k]).post()
        model.sum(far, "<=", horizon - t).post()
    return model, blank
