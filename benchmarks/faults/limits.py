"""Time limits from outside: a seeded random `--time-limit` on a hard instance, for every solver.

Covers: each case draws a solver, an instance — a big van Beek grid with the
system list (`crossword fill`) or one of Korf's 15-puzzles (`slider solve`)
— a cache (cold: a fresh one per process; warm: one filled by an untimed run)
and a limit between `LIMITS_S`, then runs rounds of the start-up of that
solver, instance and cache (a one-millisecond limit) and a run at the limit
(`mobius.benchmarks.time_limits.measure`), judging the median round. A case
is right when the process answered (exit 0, 1 or 3: a found answer is
checked by the CLI before it is printed) and kept the promise of the
README: the solver's own time at most the limit + 10 %, the process's at
most the limit + 10 % + start-up.
`tests/backends/test_time_limits.py` holds the short, fixed cases.

Leaves out: the tool itself (driven only from outside) and the fixed table
of `benchmarks/time_limits.py`, which RESULTS.md records.
"""

from __future__ import annotations

import random
from pathlib import Path

from mobius.benchmarks.datasets import korf_table, vanbeek_paths
from mobius.benchmarks.faults import Outcome
from mobius.benchmarks.time_limits import (
    CACHES,
    CROSSWORD_SOLVERS,
    SLIDER_SOLVERS,
    Command,
    crossword_command,
    measure,
    slider_command,
)

NAME = "limits"
DESCRIPTION = ("a seeded --time-limit (1-5 s) on a hard van Beek grid or Korf 15-puzzle, every solver, "
               "cold or warm cache; right = exit 0/1/3, solver time ≤ limit + 10 %, process time ≤ limit + 10 % "
               "+ start-up")

# Grids no solver fills in seconds, with set-ups from one to several seconds.
HARD_GRIDS = ("21.04", "23.06", "23.10")
KORF_STARTS = (1, 2, 3)
LIMITS_S = (1.0, 5.0)
# Rounds of a start-up run and a run at the limit: one run's start-up varies
# by tenths of a second on a loaded machine, so the median round is judged.
ROUNDS = 3


def _instance(rng: random.Random) -> tuple[str, Command, tuple[str, ...]]:
    """(name, command, the solvers of its family) of a drawn instance."""
    if rng.random() < 0.5:
        paths = {p.stem: p for p in vanbeek_paths()}
        grid = rng.choice(HARD_GRIDS)
        return grid, crossword_command(paths[grid]), CROSSWORD_SOLVERS
    number = rng.choice(KORF_STARTS)
    return f"korf-{number:03d}", slider_command(korf_table()[number - 1][0]), SLIDER_SOLVERS


def run(cases: int, seed: int, workdir: Path) -> list[Outcome]:
    rng = random.Random(seed)
    outcomes = []
    for _ in range(cases):
        name, command, solvers = _instance(rng)
        solver, kind = rng.choice(solvers), rng.choice(CACHES)
        limit = round(rng.uniform(*LIMITS_S), 2)
        (measured,) = measure(name, command, solver, kind, [limit], ROUNDS)
        result = measured.result
        outcomes.append(Outcome(NAME, f"{solver} {kind}", result.code, measured.kept,
                                f"{name} limit {limit:g} s: {result.status}, solver {result.solver_s:.2f} s, "
                                f"process {result.wall:.2f} s, start-up of its round {measured.startup:.2f} s"
                                + (f"; {result.detail}" if result.detail else "")))
    return outcomes
