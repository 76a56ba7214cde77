"""The worst-answer probes, pure Python against compiled, side by side.

Covers: the reference solver's default search on three 11×5 Möbius grids of
a default pack, filled from the embedded list with every answer scored at
least t, for thresholds from easy fills to quick refutations, each run by
`ReferenceSolver()` and `ReferenceSolver(compiled=True)` in turn; the two
must agree on status and backtracks (the compiled search expands the same
nodes), and the table gives both times and their ratio, with the median
ratio and the compiled search's microseconds per backtrack. Leaves out the
probe strategy (`generators/crossword/worst_answer.py`) and whole packs
(`mobius pack crossword --worst N`).

    python -m mobius.benchmarks.probe_speed [--budget N] [--repeats R]
"""

from __future__ import annotations

import argparse
import statistics
import time

from mobius.cpmodel.crossword import compiled
from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.problem import FillProblem, FillRules
from mobius.cpmodel.crossword.reference import ReferenceSolver
from mobius.dictionaries import load

# Three grids of a 300-puzzle default pack (seed 23: puzzles 1, 3 and 5).
GRIDS = {
    "A": ["...###...##", ".....#.....", ".....#.....", "#....###...", "#....###..."],
    "B": ["...##....##", "...#.....#.", ".........#.", "......####.", "......####."],
    "C": ["#...#....#.", "....#....#.", "....#......", "...##.....#", "...###....#"],
}
THRESHOLDS = (40, 45, 50, 55, 60)


def timed(solver: ReferenceSolver, problem: FillProblem, repeats: int) -> tuple[str, int, float]:
    """Status, backtracks and the median seconds of `repeats` runs."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        result = solver.solve(problem)
        times.append(time.perf_counter() - started)
    return result.status.value, int(result.stats["backtracks"]), statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=int, default=3000, help="backtracks per probe")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    words = load("en")
    compiled.warm_up()
    print("| grid | t | status | backtracks | Python s | compiled s | ratio |")
    print("|---|---:|---|---:|---:|---:|---:|")
    ratios, per_backtrack = [], []
    for name, rows in GRIDS.items():
        for threshold in THRESHOLDS:
            problem = FillProblem(make_grid(rows, "mobius"), words, FillRules(min_score=threshold))
            status, backtracks, python_s = timed(ReferenceSolver(max_backtracks=args.budget, compiled=False), problem, args.repeats)
            same = timed(ReferenceSolver(max_backtracks=args.budget, compiled=True), problem, args.repeats)
            if same[:2] != (status, backtracks):
                raise SystemExit(f"grid {name} t={threshold}: Python {status} {backtracks}, compiled {same[:2]}")
            ratios.append(python_s / same[2])
            if backtracks >= 100:
                per_backtrack.append(same[2] / backtracks * 1e6)
            print(f"| {name} | {threshold} | {status} | {backtracks:,} | {python_s:.4f} | {same[2]:.4f} | "
                  f"{ratios[-1]:.1f} |")
    print(f"\nmedian Python / compiled: {statistics.median(ratios):.1f}")
    if per_backtrack:
        print(f"compiled µs per backtrack (runs of 100 or more): median {statistics.median(per_backtrack):.0f}")


if __name__ == "__main__":
    main()
