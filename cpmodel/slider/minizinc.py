"""Optimal slider solutions by the shipped MiniZinc model, solved by Gecode: the `gecode` solver.

Covers: `GecodeSliderSolver`. The time-expanded model is written once, in
`cpmodel/models/slider.mzn` ("reach the goal in exactly T moves": the
blank's vertex and every tile's vertex after each step, one table
constraint per tile and step for what a move does, no undone moves,
distance pruning); the instance is its .dzn data
(`mobius.cpmodel.instances.minizinc.slider_dzn`). Like the CP-SAT model, T runs
over increasing horizons (`timed.solve_by_horizons`: lower bound, then +2 by
parity) rather than MiniZinc minimising the length, because a fixed T lets
the pruning use T − t (moves left) as a constant, and the first feasible T
is the optimum. Each horizon is one `minizinc --solver gecode` run, with
what is left of the time limit, killed at the deadline.

Why here and not in `benchmarks/`: it is the project's model in MiniZinc,
a backend like `cpsat.py` (`mobius slider solve --solver gecode`).

Leaves out: several blanks (`supports` refuses them; the CP-SAT model has
them) and checking answers (`verify.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from mobius.cpmodel.instances.minizinc import model_text, slider_dzn
from mobius.cpmodel.minizinc import find_minizinc, minizinc_refusal, run_minizinc
from mobius.cpmodel.slider.board import SliderProblem
from mobius.cpmodel.slider.timed import DecideHorizon, HorizonAnswer, HorizonBackend, HorizonRun
from mobius.cpmodel.solver import Status, option

MINIZINC_SOLVER = "gecode"


@dataclass(frozen=True)
class GecodeSliderSolver(HorizonBackend):
    """Optimal slider solutions with MiniZinc + Gecode over increasing horizons."""

    name: ClassVar[str] = "gecode"

    binary: str = option("", help="path of the minizinc program (default: found on PATH)")

    def available(self) -> str | None:
        return minizinc_refusal(self.binary, MINIZINC_SOLVER)

    def decider(self, problem: SliderProblem, run: HorizonRun, seed: int) -> DecideHorizon:
        program = find_minizinc(self.binary) or "minizinc"
        model = model_text("slider")

        def decide(horizon: int, deadline: float) -> HorizonAnswer:
            answer = run_minizinc(program, MINIZINC_SOLVER, model + slider_dzn(problem, horizon),
                                  deadline=deadline, seed=seed)
            run.add(answer.stats, ("nodes", "failures", "killed_at_deadline"))
            if answer.error:
                run.notes["minizinc"] = answer.error
            if answer.status is not Status.SOLVED:
                return answer.status, None
            return Status.SOLVED, [v - 1 for v in answer.arrays.get("blank", [])]

        return decide
