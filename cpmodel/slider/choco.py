"""Optimal slider solutions by the Choco solver through `pychoco`: the `choco` solver.

Covers: `ChocoSliderSolver`, the model of `cpmodel/models/slider.mzn`
posted through Choco's Python API: per step the blank's vertex and each
tile's vertex (the distance pruning applied as the variables' domains), one
compact-table constraint per tile and step over (blank, next blank, tile,
next tile) with the rows of `timed.step_table`, all-different per step, no
undone moves, and the summed distances to the goal (element constraints)
bounded by the moves left. Search: the blank's vertices in time order,
smallest first, as the MiniZinc model asks of Gecode. Horizons as in
`timed.solve_by_horizons`; Choco stops itself at what is left of the limit.

Why here and not in `benchmarks/`: the same model as the Gecode backend on
another engine, a backend of the project.

Leaves out: several blanks (refused by `supports`), and the seed (the
search is fixed: runs are the same for every seed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from cpmodel.crossword.choco import choco_limit, choco_refusal, choco_stats, choco_status
from cpmodel.slider.board import SliderProblem
from cpmodel.slider.timed import (
    HorizonAnswer,
    HorizonRun,
    blank_vertex,
    one_blank_refusal,
    solve_by_horizons,
    step_table,
    tile_positions,
)
from cpmodel.solver import SolveResult, SolverBase, Status, option


@dataclass(frozen=True)
class ChocoSliderSolver(SolverBase):
    """Optimal slider solutions with Choco over increasing horizons."""

    name: ClassVar[str] = "choco"

    max_horizon: int | None = option(None, minimum=0, help="longest solution tried")

    def available(self) -> str | None:
        return choco_refusal()

    def supports(self, problem: SliderProblem) -> str | None:
        return one_blank_refusal(problem)

    def solve(self, problem: SliderProblem, *, time_limit: float | None = None, seed: int = 0) -> SolveResult:
        run = HorizonRun()
        refusal = self.available() or self.supports(problem)
        if refusal:
            run.notes["refused"] = refusal
            return SolveResult(Status.ERROR, None, self.name, 0.0, run.stats, run.notes)
        steps = [list(row) for row in step_table(problem)]

        def decide(horizon: int, left: float | None) -> HorizonAnswer:
            built = build_model(problem, horizon, steps)
            if built is None:
                return Status.UNSAT, None
            model, blank = built
            solver = model.get_solver()
            if horizon > 0:
                solver.set_input_order_lb_search(*blank[1:])
            solution = solver.find_solution(time_limit=None if left is None else choco_limit(left))
            for key, value in choco_stats(solver).items():
                run.stats[key] = run.stats.get(key, 0) + value
            status = choco_status(solver, solution is not None)
            if status is not Status.SOLVED:
                return status, None
            return Status.SOLVED, [solution.get_int_val(b) for b in blank[1:]]

        return solve_by_horizons(problem, self.name, decide, time_limit=time_limit,
                                 max_horizon=self.max_horizon, run=run)


def build_model(problem: SliderProblem, horizon: int, steps: list[list[int]]) -> tuple[Any, list[Any]] | None:
    """The Choco model "exactly `horizon` moves" and its blank variables (vertices 0…n−1);
    None when the distances alone rule the horizon out."""
    from pychoco import Model  # imported here: an optional package

    n, dist = problem.board.n, problem.board.distances
    starts, goals = tile_positions(problem, problem.start), tile_positions(problem, problem.goal)
    start_blank, goal_blank = blank_vertex(problem.start), blank_vertex(problem.goal)
    model = Model()

    def near(source: int, target: int, t: int) -> list[int]:
        # Vertices within t moves of `source` and horizon − t moves of `target`.
        return [v for v in range(n) if dist[source][v] <= t and dist[v][target] <= horizon - t]

    # Variables: the blank and every tile after each step, pruned by distance.
    domains = [[near(start_blank, goal_blank, t)] + [near(s, g, t) for s, g in zip(starts, goals)]
               for t in range(horizon + 1)]
    if not all(d for step in domains for d in step):
        return None
    blank = [model.intvar(step[0]) for step in domains]
    pos = [[model.intvar(d) for d in step[1:]] for step in domains]
    # Constraints: one move per step, a table per tile; all different per step.
    for t in range(horizon):
        for k in range(len(starts)):
            model.table([blank[t], blank[t + 1], pos[t][k], pos[t + 1][k]], steps).post()
    for t in range(1, horizon):
        model.all_different([blank[t], *pos[t]]).post()
    # Constraints: no undone move; summed distances to the goal within the moves left.
    for t in range(horizon - 1):
        model.arithm(blank[t + 2], "!=", blank[t]).post()
    for t in range(1, horizon):
        far = [model.intvar(0, n) for _ in starts]
        for k, (g, d) in enumerate(zip(goals, far)):
            model.element(d, [dist[v][g] for v in range(n)], pos[t][k]).post()
        model.sum(far, "<=", horizon - t).post()
    return model, blank
