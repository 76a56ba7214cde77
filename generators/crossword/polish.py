"""CP-SAT polish of a finished fill: large-neighbourhood search for a better score.

Covers: `polish(problem, fill, budget=, seed=)`, `repair(problem, fill,
seed=)` and `resolve`, the re-solve of part of a fill both are made of.
The reference solver finds a fill fast; CP-SAT is best at optimising one. Each round frees a seeded
neighbourhood — a light drawn with a weight that grows as its word's score
falls, and one light crossing it — keeps every other cell fixed (prefilled
in the grid), and re-solves it with the `cpsat` solver's `maximize` model:
every light touching a freed cell may change, each to a word that still
crosses the fixed letters. The rounds share the problem's word list, rules
and excluded words, so a polished fill is valid exactly when the first one
was; a round's answer is taken only when it raises the total score net of
penalties and does not lower the plain total, so the score never falls.
One worker, CP-SAT deterministic time and seeded neighbourhoods make the
result the same on every machine: the polish ends when the deterministic
time its rounds are charged reaches `budget`, each round counting at least
`ROUND_CHARGE` (on small grids CP-SAT's own clock shows a few millionths of
a second while building the round's model takes milliseconds). `repair`
frees the lights of a fill that read a word the problem now excludes (with
a few of the lights crossing them if need be) and solves them again the
same way.

Leaves out: the CP-SAT model itself (`cpmodel/crossword/cpsat.py`) and
checking the result (`cpmodel/crossword/verify.py`, which the pack runs).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from mobius.cpmodel.crossword.cpsat import CpSatFillSolver
from mobius.cpmodel.crossword.problem import Fill, FillProblem
from mobius.cpmodel.surface import Cell
from mobius.cpmodel.solver import Status

# Deterministic time one round may take: a neighbourhood of two lights on
# the pack sizes is solved to optimality in a few thousandths of this.
ROUND_TIME = 0.05
# Every round's solver, in this process: a round is bounded by its deterministic time, and a pack job runs
# in a worker that the pack kills whole; a child per round cost four times the round (fork, then its clean-up).
ROUND_SOLVER = CpSatFillSolver(maximize=True, workers=1, deterministic_time=ROUND_TIME, child=False)
# Deterministic time a round is charged at least: the pack's default budget
# of 0.2 s then buys twenty rounds, about a tenth of a second on 11×5.
ROUND_CHARGE = 0.01


@dataclass(frozen=True)
class Polished:
    fill: Fill
    score_before: int  # total word score of the fill given
    score_after: int
    rounds: int
    improved: int  # rounds whose answer was taken
    deterministic_time: float


def total(problem: FillProblem, fill: Fill, *, net: bool) -> int:
    """The fill's total word score, less the penalties if `net`."""
    words = problem.entries(fill)
    return sum(problem.words.score(w) - (problem.penalties.get(w, 0) if net else 0) for w in words)


def polish(problem: FillProblem, fill: Fill, *, budget: float, seed: int) -> Polished:
    """A fill of `problem` scoring at least as well as `fill` (see the module docstring)."""
    rng = random.Random(seed)
    current = dict(fill)
    before = total(problem, current, net=False)
    spent, rounds, improved = 0.0, 0, 0
    while spent < budget and problem.lights.lights:
        rounds += 1
        candidate, charged = resolve(problem, current, _neighbourhood(problem, current, rng), rng.randrange(1 << 31))
        spent += max(ROUND_CHARGE, charged)
        if candidate is None:
            continue
        if total(problem, candidate, net=True) > total(problem, current, net=True) and \
                total(problem, candidate, net=False) >= total(problem, current, net=False):
            current = candidate
            improved += 1
    return Polished(current, before, total(problem, current, net=False), rounds, improved, round(spent, 6))


def resolve(problem: FillProblem, fill: Fill, free: set[Cell], seed: int) -> tuple[Fill | None, float]:
    """`fill` with the cells `free` solved again at the best score CP-SAT finds
    (`ROUND_SOLVER`) and every other cell kept (None if they admit no fill),
    and the deterministic time spent."""
    fixed = {cell: letter for cell, letter in fill.items() if cell not in free}
    part = FillProblem(problem.grid.with_letters(fixed), problem.words, problem.rules, problem.penalties)
    result = ROUND_SOLVER.solve(part, seed=seed, hint=fill)
    spent = float(result.stats.get("deterministic_time", ROUND_TIME))
    return ({**fill, **result.solution} if result.status is Status.SOLVED else None), spent


def repair(problem: FillProblem, fill: Fill, *, seed: int) -> Fill | None:
    """`fill` with the lights that read a word `problem` excludes solved again,
    the rest kept: first those lights alone, then with one and then two of the
    lights crossing them freed too, each at the best score CP-SAT finds; None
    if none of these admits a fill, or no light needs it.

    A pack job whose puzzle was refused for answers an earlier puzzle took
    mends it this way: the grid and most of its answers were good. Freeing
    every crossing light at once would free nearly the whole grid (on a 9×7
    strip an 8-letter light and its crossings hold 43 of 46 cells) and cost
    more than a new fill (default 30-packs took 12–30 % longer with it as a
    last try, plain CP-SAT ones up to 15 %, and maximising CP-SAT ones, whose
    fill costs 1.5 s, gained no more than their noise); of 40 fills of 11×5 strips
    with one short answer taken, these neighbourhoods mended 18, each in
    10–30 ms, and proved the others impossible in a few milliseconds."""
    lights = problem.lights
    bad = [i for i, word in enumerate(problem.entries(fill)) if word in problem.rules.excluded]
    if not bad:
        return None
    crossing = sorted({b for i in bad for cell in lights.lights[i].cells for b, _ in lights.cell_lights[cell]} - set(bad))
    for extra in itertools.chain([()], itertools.combinations(crossing, 1), itertools.combinations(crossing, 2)):
        free = {cell for i in (*bad, *extra) for cell in lights.lights[i].cells}
        mended, _ = resolve(problem, fill, free, seed)
        if mended is not None:
            return mended
    return None


def _neighbourhood(problem: FillProblem, fill: Fill, rng: random.Random) -> set[tuple[int, int]]:
    """The cells of a light drawn by low score and of one light crossing it."""
    lights = problem.lights
    words = problem.entries(fill)
    weights = [101 - problem.words.score(w) + problem.penalties.get(w, 0) for w in words]
    first = rng.choices(range(len(lights.lights)), weights=[max(1, w) for w in weights])[0]
    crossing = sorted({b for cell in lights.lights[first].cells for b, _ in lights.cell_lights[cell] if b != first})
    chosen = [first] + ([rng.choice(crossing)] if crossing else [])
    return {cell for i in chosen for cell in lights.lights[i].cells}
