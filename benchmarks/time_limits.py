"""How well `--time-limit` bounds a whole solve, start-up and caches included, for every solver.

Covers: for each solver × instance × cache × limit, fresh `mobius crossword
fill GRID --dict words --solver S --time-limit T --json` processes (or, with
``--slider``, `mobius slider solve grid:4x4 --start KORF_N --solver S
--time-limit T --json`): their end-to-end wall time and the solver's own
`wall_s`, against the start-up, the wall time of the same command with a
limit of one millisecond. Runs go in rounds (`measure`): a start-up run,
then a run per limit, each held against the start-up of its own round; the
round with the median overshoot is shown. "cold" runs each process with a
cache directory of its own (``XDG_CACHE_HOME``: no word index, table or
kernel of an earlier run); "warm" runs every process of a solver and
instance on one cache directory, filled by an untimed run first. A limit is
kept when the solver's time is at most T + 10 % and the end-to-end time at
most T + 10 % + start-up, the promise of the README. Prints a Markdown
table.

    python -m mobius.benchmarks.time_limits --grids 21.04,23.06,23.10 --limits 2,5
    python -m mobius.benchmarks.time_limits --slider --starts 1,2,3 --limits 2,5

Leaves out: whether the solvers find answers (`mobius bench`).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from mobius.benchmarks.datasets import korf_table, vanbeek_paths

CROSSWORD_SOLVERS = ("reference", "cpsat", "qxw", "gecode", "choco", "sat")
SLIDER_SOLVERS = ("cpsat", "gecode", "choco", "sat")
SLIDER_BOARD = "grid:4x4"  # with its default goal, Korf's 15-puzzle
CACHES = ("cold", "warm")
# The allowance the tool promises beyond the limit (plus start-up).
SLACK = 0.10
STARTUP_LIMIT_S = 0.001
# Exit codes of an answer or a timeout; anything else is a failed run.
ANSWERED = (0, 1, 3)
# A run that outlives its limit by this much (and thrice the limit) is stopped as hung.
HUNG_AFTER_S = 120.0

Command = Callable[[str, float], list[str]]  # (solver, limit) -> the mobius arguments


@dataclass(frozen=True)
class Run:
    """One process: its end-to-end seconds, the solver's own wall_s and status (nan and FAILED when the
    process did not answer), its exit code, and the end of its stderr when it failed."""

    wall: float
    solver_s: float
    status: str
    code: int
    detail: str = ""


def crossword_command(grid: Path) -> Command:
    return lambda solver, limit: ["crossword", "fill", str(grid), "--dict", "words", "--solver", solver,
                                  "--time-limit", f"{limit:g}", "--json"]


def slider_command(tiles: tuple[int, ...]) -> Command:
    return lambda solver, limit: ["slider", "solve", SLIDER_BOARD, "--start", " ".join(map(str, tiles)),
                                  "--solver", solver, "--time-limit", f"{limit:g}", "--json"]


def run(args: list[str], limit: float, cache: Path) -> Run:
    """One fresh `mobius` process with `cache` as its XDG_CACHE_HOME."""
    command = [sys.executable, "-m", "mobius", *args]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=limit * 3 + HUNG_AFTER_S,
                          env={**os.environ, "XDG_CACHE_HOME": str(cache)})
    wall = time.perf_counter() - started
    if done.returncode not in ANSWERED:
        return Run(wall, math.nan, "FAILED", done.returncode, done.stderr.strip()[-300:])
    answer = json.loads(done.stdout)
    return Run(wall, float(answer["wall_s"]), answer["status"], done.returncode)


@contextmanager
def caches(kind: str, command: Command, solver: str) -> Iterator[Callable[[], Path]]:
    """Cache directories for the runs of one solver and instance: a new one per run (cold), or one
    directory filled by an untimed run first (warm)."""
    with tempfile.TemporaryDirectory(prefix="mobius-limits-") as tmp:
        if kind == "cold":
            yield lambda: Path(tempfile.mkdtemp(dir=tmp))
        else:
            run(command(solver, STARTUP_LIMIT_S), STARTUP_LIMIT_S, Path(tmp))
            yield lambda: Path(tmp)


@dataclass(frozen=True)
class Measured:
    """One timed run beside the start-up of its solver, instance and cache."""

    solver: str
    instance: str
    cache: str
    limit: float
    result: Run
    startup: float  # of the run's own round
    median_startup: float  # of every round

    @property
    def beyond(self) -> float:
        """End-to-end seconds past the limit and the start-up of the run's round."""
        return self.result.wall - self.limit - self.startup

    @property
    def kept(self) -> bool:
        return (self.result.status != "FAILED" and self.result.solver_s <= self.limit * (1 + SLACK)
                and self.beyond <= self.limit * SLACK)

    def row(self) -> str:
        result = self.result
        return (f"| {self.solver} | {self.instance} | {self.cache} | {self.limit:g} | {result.status} | "
                f"{result.solver_s:.2f} | {result.solver_s / self.limit - 1:+.1%} | {result.wall:.2f} | "
                f"{self.median_startup:.2f} | {self.beyond:+.2f} | {'yes' if self.kept else 'NO'} |")


def measure(name: str, command: Command, solver: str, kind: str, limits: list[float],
            rounds: int) -> Iterator[Measured]:
    """Per limit, a run of `solver` on one instance with one kind of cache beside a start-up run.

    Each of `rounds` rounds runs the start-up command, then one run per
    limit, and each limit's run is held against the start-up of its own
    round (a loaded machine drifts between rounds); of the rounds, the one
    with the median time beyond limit and start-up is kept, beside the
    median start-up."""
    with caches(kind, command, solver) as cache:
        startups: list[float] = []
        paired: dict[float, list[tuple[float, Run]]] = {limit: [] for limit in limits}
        for _ in range(rounds):
            startup = run(command(solver, STARTUP_LIMIT_S), STARTUP_LIMIT_S, cache()).wall
            startups.append(startup)
            for limit in limits:
                paired[limit].append((startup, run(command(solver, limit), limit, cache())))
        for limit, pairs in paired.items():
            pairs.sort(key=lambda pair: pair[1].wall - pair[0])
            startup, result = pairs[(len(pairs) - 1) // 2]
            yield Measured(solver, name, kind, limit, result, startup, statistics.median(startups))


def instances(args: argparse.Namespace) -> list[tuple[str, Command]]:
    if args.slider:
        table = korf_table()
        return [(f"korf-{int(n):03d}", slider_command(table[int(n) - 1][0])) for n in args.starts.split(",")]
    paths = {p.stem: p for p in vanbeek_paths()}
    return [(name, crossword_command(paths[name])) for name in args.grids.split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slider", action="store_true", help="Korf's 15-puzzles instead of van Beek grids")
    parser.add_argument("--grids", default="21.04,23.06,23.10", help="van Beek grid names")
    parser.add_argument("--starts", default="1,2,3", help="Korf instance numbers (1-based), with --slider")
    parser.add_argument("--limits", default="2,5", help="seconds, comma-separated")
    parser.add_argument("--solvers", default=None, help="comma-separated (default: every backend of the family)")
    parser.add_argument("--caches", default=",".join(CACHES), help="cold, warm or both (comma-separated)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of a start-up run and a run per limit; the median round is shown")
    args = parser.parse_args()
    solvers = args.solvers.split(",") if args.solvers else list(SLIDER_SOLVERS if args.slider else CROSSWORD_SOLVERS)
    limits = [float(x) for x in args.limits.split(",")]
    kinds = args.caches.split(",")
    if not set(kinds) <= set(CACHES):
        parser.error(f"--caches takes {' and '.join(CACHES)}, not {args.caches!r}")
    print("| solver | instance | cache | limit s | status | solver s | over limit | end-to-end s | start-up s "
          "(median) | end-to-end − limit − start-up of its round | kept |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for solver in solvers:
        for name, command in instances(args):
            for kind in kinds:
                for measured in measure(name, command, solver, kind, limits, args.rounds):
                    print(measured.row(), flush=True)
                    if measured.result.detail:
                        print(f"{solver} {name} failed ({measured.result.code}): {measured.result.detail}",
                              file=sys.stderr)


if __name__ == "__main__":
    main()
