"""Benchmarks for the slider search solvers (BFS, A*, IDA*) and their tables.

Covers four measurements, each printed as a Markdown table headed by the
machine (CPU model, cores, Python):

- ``table``: the full distance table of the 8-puzzle (181,440 reachable
  states), best and median of a few runs;
- ``pdb``: building each default pattern table of a board into an empty
  cache, then loading the whole heuristic from it;
- ``scrambles``: seeded random walks of fixed lengths on the ring and 3×3
  boards, every solver on the same instances side by side (after one
  untimed solve each, so imports and table builds are not counted);
- ``korf``: chosen instances of Korf's 100 15-puzzles with one or more
  solver specs, per instance and in total (wall and CPU time), each answer
  replayed by the verifier and its length checked against the file.

Run as ``python -m benchmarks.slider_search table|pdb|scrambles|korf …``.
Leaves out: the CP-SAT slider solver (benchmarks/slider_cpsat.py) and the
general harness with its CSV/JSON reports.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from benchmarks.harness import machine
from cpmodel.slider.board import (
    SliderProblem,
    State,
    default_goal,
    preset,
    random_walk,
)
from cpmodel.slider.heuristics import (
    default_partition,
    distance_table,
    make_heuristic,
    pattern_table,
)
from cpmodel.slider.verify import verify
from cpmodel.solver import SolveResult, Status, get_solver

T = TypeVar("T")


# --- instances ----------------------------------------------------------------------

# --- reporting ------------------------------------------------------------------------

def markdown(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


def seconds(x: float) -> str:
    return f"{x:.3f}"


def _checked(problem: SliderProblem, result: SolveResult, expected: int | None = None) -> str:
    """"ok", or what is wrong with a solved result (verifier, known optimum)."""
    if result.status != Status.SOLVED:
        return result.status.value
    problems = verify(problem, result.solution)
    if problems:
        return "INVALID: " + problems[0]
    if expected is not None and len(result.solution) != expected:
        return f"WRONG LENGTH {len(result.solution)} != {expected}"
    return "ok"


# --- the four measurements ------------------------------------------------------------------

def timed(work: Callable[[], T]) -> tuple[T, float, float]:
    """(result, wall s, CPU s) of `work()`."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def bench_table(repeats: int) -> str:
    board = preset("grid:3x3")
    goal = default_goal(board)
    runs = [timed(lambda: distance_table(board, goal)) for _ in range(repeats)]
    dist = runs[0][0]
    walls, cpus = [r[1] for r in runs], [r[2] for r in runs]
    return markdown(["board", "states reached", "max distance", "best wall s", "median wall s", "median cpu s", "runs"],
                    [["grid:3x3 (blank goal 0)", int((dist >= 0).sum()), int(dist.max()), seconds(min(walls)),
                      seconds(statistics.median(walls)), seconds(statistics.median(cpus)), repeats]])


def bench_pdb(board_name: str) -> str:
    """Build every default pattern table into an empty cache, then load the whole heuristic from it."""
    board = preset(board_name)
    goal = default_goal(board)
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        for pattern in default_partition(board, goal):
            _, wall, cpu = timed(lambda group=pattern: pattern_table(board, goal, group, directory=Path(directory)))
            rows.append([board_name, "-".join(map(str, pattern)), "build + save", seconds(wall), seconds(cpu)])
        heuristic, wall, cpu = timed(lambda: make_heuristic("pdb", board, goal, directory=Path(directory)))
        rows.append([board_name, "all", f"load {heuristic.name}", seconds(wall), seconds(cpu)])
    return markdown(["board", "pattern tiles", "step", "wall s", "cpu s"], rows)


def bench_scrambles(boards: Sequence[str], depths: Sequence[int], seeds: int, solvers: Sequence[str],
                    time_limit: float) -> str:
    rows = []
    for board_name in boards:
        board = preset(board_name)
        goal = default_goal(board)
        for depth in depths:
            problems = [SliderProblem(board, random_walk(board, goal, depth, random.Random(seed)), goal) for seed in range(seeds)]
            for spec in solvers:
                solver = get_solver("slider", spec)
                solver.solve(problems[0], time_limit=time_limit)  # untimed: imports and table builds
                results = [solver.solve(p, time_limit=time_limit) for p in problems]
                bad = [c for p, r in zip(problems, results) if (c := _checked(p, r)) != "ok"]
                lengths = [len(r.solution) for r in results if r.status == Status.SOLVED]
                rows.append([board_name, depth, spec, seeds, f"{statistics.mean(lengths):.1f}" if lengths else "-",
                             int(statistics.median(r.stats.get("nodes", 0) for r in results)),
                             f"{1000 * statistics.median(r.wall_s for r in results):.2f}",
                             seconds(sum(r.wall_s for r in results)), "ok" if not bad else f"{len(bad)} bad: {bad[0]}"])
    return markdown(["board", "walk", "solver", "instances", "mean length", "median nodes", "median ms", "total s",
                     "check"], rows)


def bench_korf(numbers: Sequence[int], solvers: Sequence[str], time_limit: float | None) -> str:
    """Korf's instances `numbers` (1-based); wall and CPU seconds (the machine is shared, CPU is steadier)."""
    board = preset("grid:4x4")
    goal = default_goal(board)
    instances = korf_table()
    summary, detail = [], []
    for spec in solvers:
        solver = get_solver("slider", spec)
        results, cpu = [], []
        began_wall, began_cpu = time.perf_counter(), time.process_time()
        for number in numbers:
            start, length = instances[number - 1]
            problem = SliderProblem(board, start, goal)
            cpu_before = time.process_time()
            result = solver.solve(problem, time_limit=time_limit)
            cpu.append(time.process_time() - cpu_before)
            results.append(result)
            detail.append([spec, number, length, result.stats.get("h0", "-"), result.stats.get("nodes", 0),
                           seconds(result.wall_s), seconds(cpu[-1]), _checked(problem, result, length)])
        total_wall, total_cpu = time.perf_counter() - began_wall, time.process_time() - began_cpu
        solved = [r for r in results if r.status == Status.SOLVED]
        nodes = [r.stats.get("nodes", 0) for r in results]
        summary.append([spec, _ranges(numbers), f"{len(solved)}/{len(results)}",
                        results[0].notes.get("heuristic", "-"), seconds(results[0].stats.get("setup_s", 0.0)),
                        int(statistics.median(nodes)), sum(nodes), seconds(statistics.median(cpu)),
                        seconds(total_cpu), seconds(total_wall), f"{sum(nodes) / max(total_cpu, 1e-9):,.0f}"])
    return "\n\n".join([
        markdown(["solver", "instances", "solved", "heuristic", "first setup s", "median nodes", "total nodes",
                  "median cpu s", "total cpu s", "total wall s", "nodes/cpu s"], summary),
        markdown(["solver", "#", "optimal", "h0", "nodes", "wall s", "cpu s", "check"], detail)])


def _ranges(numbers: Sequence[int]) -> str:
    """1,2,3,7 → 1–3,7"""
    parts = []
    for _, run in itertools.groupby(enumerate(numbers), lambda pair: pair[1] - pair[0]):
        values = [v for _, v in run]
        parts.append(str(values[0]) if len(values) == 1 else f"{values[0]}–{values[-1]}")
    return ",".join(parts)


def _instance_numbers(text: str) -> list[int]:
    """"1-10,55" → [1, …, 10, 55]"""
    numbers = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        numbers += range(int(low), int(high or low) + 1)
    return numbers


# --- command line ------------------------------------------------------------------------

def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.slider_search", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    table = sub.add_parser("table", help="time the 8-puzzle's full distance table")
    table.add_argument("--repeats", type=int, default=5)
    pdb = sub.add_parser("pdb", help="time building and loading the default pattern databases")
    pdb.add_argument("--board", default="grid:4x4")
    scr = sub.add_parser("scrambles", help="seeded random walks, solvers side by side")
    scr.add_argument("--boards", default="ring,grid:3x3")
    scr.add_argument("--depths", default="10,20,40")
    scr.add_argument("--seeds", type=int, default=20)
    # solver specs are space-separated: a spec's own options use commas
    scr.add_argument("--solvers", nargs="+",
                     default=["bfs", "astar:heuristic=distance", "idastar:heuristic=distance", "astar", "idastar"])
    scr.add_argument("--time-limit", type=float, default=30.0)
    korf = sub.add_parser("korf", help="Korf's 100 15-puzzles (first N)")
    korf.add_argument("--instances", default="1-10", help="1-based numbers and ranges, e.g. 1-10,55")
    korf.add_argument("--solvers", nargs="+", default=["idastar"])
    korf.add_argument("--time-limit", type=float, default=None)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    print(f"Machine: {machine()}\n")
    if args.command == "table":
        print(bench_table(args.repeats))
    elif args.command == "pdb":
        print(bench_pdb(args.board))
    elif args.command == "scrambles":
        print(bench_scrambles(args.boards.split(","), [int(d) for d in args.depths.split(",")], args.seeds,
                              args.solvers, args.time_limit))
    else:
        print(bench_korf(_instance_numbers(args.instances), args.solvers, args.time_limit))


if __name__ == "__main__":
    main()
