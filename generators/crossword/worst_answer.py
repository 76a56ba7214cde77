"""The worst answer first: a fill whose lowest-scored answer is as high as can be, proven where the budget allows.

Covers: `raise_worst(problem, fill, budget=)`, the first stage of a
lexicographic objective — maximise the lowest answer score in the grid;
the pack's polish (`polish.py`) then raises the total with that floor kept,
by polishing the problem `floored` returns. The search is over the
threshold t: the problem with every light restricted to words scored t or
more (the rules' minimum score raised to t) is a small one, its tables
shrinking fast as t rises. Starting from the fill given (its worst answer
is the first floor, so the result never scores lower), one search is asked
for a fill at the floor + 1 and run until it answers or the budget is
spent: a fill found raises the floor to its own worst answer (often past
the threshold), and a proof that there is none (UNSAT) proves the floor
optimal. After a fill the search is not started again: it is cut to the
new floor + 1 (`Probe.raise_to`, `Search.cut`) and goes on, a branch and
bound, so that nothing it refuted on the way is searched again and the
proof at the end is the rest of the same tree. On the fills of four
30-puzzle packs this proved 66 of 120 optima within 6,000 backtracks where
a new search per floor proved 39, in 12 % fewer backtracks, and 105
against 96 within 16,000; in default packs (16,000) 90 % of the optima
(benchmarks/RESULTS.md, "The worst answer: one search, cut at each fill");
a probe above the floor + 1 could only cap the best worst answer, and
climbing by 4 and bisecting proved fewer still ("The worst answer: one
threshold at a time").

A probe is the reference solver's search (maintained arc consistency with
dom/wdeg, best words first, no restarts: a refutation needs one long run),
compiled (`cpmodel/crossword/compiled.py`: the same nodes, a backtrack in
about 22 µs where the pure-Python search takes 0.3 ms). It tries the
answers of the best fill so far first, each while its light can still take
it, so that a fill near that one comes early. A fill with two answers of one family
(`word_family.family_pair`), which the pack would refuse, is passed over
and the probe's search goes on to its next fill, so an UNSAT answer then
means "no fill the pack accepts". The worst answer is optimal when the
floor meets the proven cap. Backtracks are a deterministic budget, so the
result is the same on every machine.
Measurements: benchmarks/RESULTS.md, "The worst answer first", "Proving
the worst answer", "The worst answer with compiled probes", "The worst
answer: one threshold at a time" and "The worst answer: one search, cut at
each fill".

Leaves out: the total score (`polish.py`), checking the result
(`cpmodel/crossword/verify.py`, which the pack runs) and the solvers.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from mobius.cpmodel.crossword.compiled import Search, warm_up
from mobius.cpmodel.crossword.problem import Fill, FillProblem
from mobius.cpmodel.crossword.propagation import build_network, initial_domains
from mobius.cpmodel.crossword.reference import penalty_tiers, read_fill
from mobius.generators.crossword.word_family import family_pair

# Scores run 0-100: a threshold above the top is infeasible without a probe.
TOP_SCORE = 100


@dataclass(frozen=True)
class WorstAnswer:
    """The fill with the best worst answer found, and what is proven about it."""

    fill: Fill
    answer: str  # its worst answer (lowest score, ties by answer)
    score: int
    score_before: int  # the worst answer's score in the fill given
    bound: int  # proven: no fill of the problem has a worst answer scored above this
    fills: int  # fills found on the way, each raising the floor
    backtracks: int

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


class Probe:
    """The search for a fill of `problem` floored at `threshold`, raised after each fill (`raise_to`)."""

    def __init__(self, problem: FillProblem, threshold: int) -> None:
        self.problem = floored(problem, threshold)
        self.net = build_network(self.problem)
        self.search = Search(self.net, initial_domains(self.problem, self.net), penalty_tiers(self.problem))

    def run(self, share: int, near: Fill) -> tuple[str, Fill | None, int]:
        """("SOLVED", a fill the pack accepts, backtracks spent), ("UNSAT", None,
        …) when there is none, or ("TIMEOUT", None, …) out of `share`.
        The search tries the answers of `near` first, where they are still allowed."""
        search, spent = self.search, 0
        search.hint([index.mask_of([word]) for index, word in zip(self.net.index, self.problem.entries(near))])
        while True:
            before = search.backtracks
            status = search.run(share - spent)
            spent += search.backtracks - before
            if status != "SOLVED":
                return status, None, spent
            fill = read_fill(self.problem, self.net, search.domains)
            if family_pair(self.problem.entries(fill)) is None:
                return status, fill, spent
            if spent >= share:
                return "TIMEOUT", None, spent

    def raise_to(self, threshold: int) -> None:
        """Keep only the words scored `threshold` or more and go on with the same search (`Search.cut`)."""
        self.search.cut([index.allowed(threshold).bit_length() for index in self.net.index])


def raise_worst(problem: FillProblem, fill: Fill, *, budget: int) -> WorstAnswer:
    """The fill of `problem` with the highest worst answer found within
    `budget` backtracks, starting from `fill` (see the module docstring)."""
    warm_up()  # the kernels compiled or loaded once per process, a damaged cache rebuilt
    answer, score = worst_of(problem, fill)
    before, best = score, dict(fill)
    cap = TOP_SCORE + 1  # proven: no fill reaches a worst answer of `cap`
    spent = fills = 0
    probe: Probe | None = None
    while score + 1 < cap and spent < budget:
        if probe is None:
            probe = Probe(problem, score + 1)
        else:
            probe.raise_to(score + 1)  # the same search goes on: what it refuted stays refuted
        status, found, used = probe.run(budget - spent, best)
        spent += used
        if found is None:
            if status == "UNSAT":
                cap = score + 1
            break
        best, fills = found, fills + 1
        answer, score = worst_of(problem, best)
    return WorstAnswer(best, answer, score, before, cap - 1, fills, spent)
