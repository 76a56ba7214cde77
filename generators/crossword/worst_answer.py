"""The worst answer first: a fill whose lowest-scored answer is as high as can be, proven where the budget allows.

Covers: `raise_worst(problem, fill, budget=, seed=)`, the first stage of a
lexicographic objective — maximise the lowest answer score in the grid;
the pack's polish (`polish.py`) then raises the total with that floor kept,
by polishing the problem `floored` returns. The search is over the
threshold t: the problem with every light restricted to words scored t or
more (the rules' minimum score raised to t) is a small one, its tables
shrinking fast as t rises, and is asked for any fill. A fill found raises
the floor to its own worst answer; a proof that there is none (UNSAT)
caps the best worst answer at t − 1; a probe out of budget caps only the
search. Starting from the fill given (its worst answer is the first floor,
so the result never scores lower), the thresholds climb by `STEP` above
the floor while every probe finds a fill — low thresholds are cheap, and
the fill found often beats its threshold — and are bisected between the
floor and the lowest failed threshold after that. The worst answer is optimal when the floor meets the proven cap.

The probes are the reference solver's (maintained arc consistency with
dom/wdeg, best words first), bounded by backtracks: on 11×5 Möbius pack
grids it decided thresholds near the optimum in 500–1,300 backtracks
where CP-SAT with the same restricted tables ran out of 5 s of
deterministic time (benchmarks/RESULTS.md, "The worst answer first").
Backtracks are a deterministic budget, so the result is the same on every
machine.

Leaves out: the total score (`polish.py`), checking the result
(`cpmodel/crossword/verify.py`, which the pack runs) and the solvers.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from mobius.cpmodel.crossword.problem import Fill, FillProblem
from mobius.cpmodel.crossword.reference import ReferenceSolver
from mobius.cpmodel.solver import Status

# Scores run 0-100: a threshold above the top is infeasible without a probe.
TOP_SCORE = 100
# Backtracks one probe may take at most, so that one hard threshold near
# the optimum does not spend the whole budget and the bisection can still
# try a lower one.
PROBE_BACKTRACKS = 600
# How far above the floor the next threshold lies until a probe fails.
STEP = 4


@dataclass(frozen=True)
class WorstAnswer:
    """The fill with the best worst answer found, and what is proven about it."""

    fill: Fill
    answer: str  # its worst answer (lowest score, ties by answer)
    score: int
    score_before: int  # the worst answer's score in the fill given
    bound: int  # proven: no fill of the problem has a worst answer scored above this
    probes: int
    backtracks: int  # spent over all probes

    @property
    def optimal(self) -> bool:
        return self.score == self.bound

    def record(self, problem: FillProblem, fill: Fill) -> dict[str, object]:
        """What a puzzle file of `fill` carries under `worst_answer`: the
        fill's worst answer (a later polish that keeps the floor may have
        changed it), the bound proven and whether the answer meets it."""
        answer, score = worst_of(problem, fill)
        return {"answer": answer, "score": score, "bound": self.bound, "optimal": score == self.bound}


def worst_of(problem: FillProblem, fill: Fill) -> tuple[str, int]:
    """The fill's worst answer and its score (lowest score, ties by answer, as the quality report)."""
    return min(((w, problem.words.score(w)) for w in problem.entries(fill)), key=lambda e: (e[1], e[0]))


def floored(problem: FillProblem, floor: int) -> FillProblem:
    """`problem` with every light restricted to words scored `floor` or more."""
    rules = dataclasses.replace(problem.rules, min_score=max(problem.rules.min_score, floor))
    return FillProblem(problem.grid, problem.words, rules, problem.penalties)


def raise_worst(problem: FillProblem, fill: Fill, *, budget: int, seed: int) -> WorstAnswer:
    """The fill of `problem` with the highest worst answer found within
    `budget` backtracks, starting from `fill` (see the module docstring)."""
    answer, score = worst_of(problem, fill)
    before, best = score, dict(fill)
    cap = TOP_SCORE + 1  # proven: no fill reaches a worst answer of `cap`
    search_cap = cap  # thresholds at or above this are proven or out of budget
    spent = probes = 0
    while score + 1 < search_cap and spent < budget:
        threshold = _next_threshold(score, search_cap, climbing=search_cap > TOP_SCORE)
        solver = ReferenceSolver(max_backtracks=min(PROBE_BACKTRACKS, budget - spent))
        result = solver.solve(floored(problem, threshold), seed=seed)
        spent += int(result.stats["backtracks"])
        probes += 1
        if result.status is Status.SOLVED:
            best = result.solution
            answer, score = worst_of(problem, best)
        else:
            search_cap = threshold
            if result.status is Status.UNSAT:
                cap = threshold
    return WorstAnswer(best, answer, score, before, cap - 1, probes, spent)


def _next_threshold(floor: int, search_cap: int, *, climbing: bool) -> int:
    """The next threshold to probe, above `floor` and below `search_cap`."""
    if climbing:
        return min(floor + STEP, TOP_SCORE)
    return (floor + 1 + search_cap) // 2  # the middle of floor+1 .. search_cap-1
