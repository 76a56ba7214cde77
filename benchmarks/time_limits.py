"""How well `--time-limit` bounds a whole crossword fill, cold caches included.

Covers: for each solver × grid × limit, one fresh `mobius crossword fill GRID
--dict words --solver S --time-limit T --json` process (so no cache of a
previous run helps), its end-to-end wall time and the solver's own
`wall_s`; and per solver × grid the start-up, measured as the wall time of
the same command with a limit of one millisecond. A limit is kept when the
solver's time is at most T + 10 % and the end-to-end time at most
T + 10 % + start-up. Prints a Markdown table.

    python -m mobius.benchmarks.time_limits --grids 21.04,23.06,23.10 --limits 5,10

Leaves out: whether the solvers find fills (`mobius bench`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from mobius.benchmarks.datasets import vanbeek_paths

SOLVERS = ("reference", "cpsat", "qxw")
# The allowance the tool promises beyond the limit (plus start-up).
SLACK = 0.10
STARTUP_LIMIT_S = 0.001


def fill(grid: Path, solver: str, limit: float) -> tuple[float, float, str]:
    """(end-to-end seconds, the solver's wall_s, status) of one fresh fill process."""
    command = [sys.executable, "-m", "mobius", "crossword", "fill", str(grid), "--dict", "words", "--solver", solver,
               "--time-limit", str(limit), "--json"]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=limit * 3 + 120)
    wall = time.perf_counter() - started
    if done.returncode not in (0, 1, 3):
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()[-300:]}")
    answer = json.loads(done.stdout)
    return wall, float(answer["wall_s"]), answer["status"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", default="21.04,23.06,23.10", help="van Beek grid names")
    parser.add_argument("--limits", default="5,10", help="seconds, comma-separated")
    parser.add_argument("--solvers", default=",".join(SOLVERS))
    parser.add_argument("--startup-runs", type=int, default=3)
    args = parser.parse_args()
    paths = {p.stem: p for p in vanbeek_paths()}
    limits = [float(x) for x in args.limits.split(",")]
    print("| solver | grid | limit s | status | solver s | over limit | end-to-end s | start-up s | "
          "end-to-end − limit − start-up | kept |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for solver in args.solvers.split(","):
        for name in args.grids.split(","):
            startup = statistics.median(fill(paths[name], solver, STARTUP_LIMIT_S)[0]
                                        for _ in range(args.startup_runs))
            for limit in limits:
                wall, solver_s, status = fill(paths[name], solver, limit)
                beyond = wall - limit - startup
                kept = solver_s <= limit * (1 + SLACK) and beyond <= limit * SLACK
                print(f"| {solver} | {name} | {limit:g} | {status} | {solver_s:.2f} | "
                      f"{solver_s / limit - 1:+.1%} | {wall:.2f} | {startup:.2f} | {beyond:+.2f} | "
                      f"{'yes' if kept else 'NO'} |", flush=True)


if __name__ == "__main__":
    main()
