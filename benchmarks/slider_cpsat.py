"""Benchmark of the slider CP-SAT solver: time to prove an optimal length.

Covers: the two depth-31 8-puzzle instances (the antipodes of the goal
0 1 … 8, found here by BFS rather than trusted from a list), ring states
drawn one from each of the deepest BFS layers, the shortest Korf (1985)
15-puzzle instances (optimal lengths from the data file), each with the
requested worker counts, and an ablation that switches one trick of
`cpmodel.slider.cpsat.Tricks` from its default at a time. Every answer is
replayed by the independent verifier and compared with the known optimum.
Prints Markdown tables headed by the machine (CPU model, cores) and the
command line.

Leaves out: the comparison with the search solvers (the general harness runs
solvers × instances) and plots.

    python -m benchmarks.slider_cpsat --suite eight --suite korf --workers 1 --workers 2
    python -m benchmarks.slider_cpsat --suite ablation
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.datasets import korf_table
from benchmarks.harness import machine
from cpmodel.slider.board import BLANK, SliderProblem, State, default_goal, preset
from cpmodel.slider.verify import verify
from cpmodel.solver import get_solver

# The shortest ones: #55 needs 41 moves, #16, #42 and #79 need 42.
DEFAULT_KORF = (55, 16)
# One trick switched from its default at a time ("cpsat" alone is the
# default: every trick on except the distance sums).
ABLATION = ("cpsat", "cpsat:prune=false", "cpsat:budget=false", "cpsat:symmetry=false",
            "cpsat:parity=false", "cpsat:search=false", "cpsat:sums=true", "cpsat:sums=true,budget=false")


@dataclass(frozen=True)
class Instance:
    name: str
    problem: SliderProblem
    optimum: int


@dataclass(frozen=True)
class Row:
    instance: str
    solver: str
    status: str
    length: int | None
    optimum: int
    wall_s: float
    cpu_s: float
    horizons: int
    proved_none_up_to: int | None  # no solution of length ≤ this (a TIMEOUT's progress)
    conflicts: int
    verified: bool


# --- instances ----------------------------------------------------------------------

def goal_distances(problem: SliderProblem) -> dict[State, int]:
    """BFS over every state reachable from the goal (one blank)."""
    seen = {problem.goal: 0}
    queue = deque([problem.goal])
    neighbours = problem.board.neighbours
    while queue:
        state = queue.popleft()
        blank = state.index(BLANK)
        for v in neighbours[blank]:
            nxt = list(state)
            nxt[blank], nxt[v] = nxt[v], BLANK
            key = tuple(nxt)
            if key not in seen:
                seen[key] = seen[state] + 1
                queue.append(key)
    return seen


def eight_puzzle_antipodes() -> list[Instance]:
    board = preset("grid:3x3")
    goal = default_goal(board)
    distances = goal_distances(SliderProblem(board, goal, goal))
    depth = max(distances.values())
    starts = sorted(s for s, d in distances.items() if d == depth)
    return [Instance(f"8-puzzle {' '.join(map(str, s))}", SliderProblem(board, s, goal), depth) for s in starts]


def ring_scrambles(count: int, seed: int) -> list[Instance]:
    """One ring state (seeded pick) from each of the `count` deepest BFS layers."""
    board = preset("ring")
    goal = default_goal(board)
    distances = goal_distances(SliderProblem(board, goal, goal))
    deepest = max(distances.values())
    rng = random.Random(seed)
    picks = [rng.choice(sorted(s for s, d in distances.items() if d == depth))
             for depth in range(deepest, deepest - count, -1)]
    return [Instance(f"ring {' '.join(map(str, s))}", SliderProblem(board, s, goal), distances[s]) for s in picks]


def korf_instances(numbers: Sequence[int]) -> list[Instance]:
    board = preset("grid:4x4")
    goal = default_goal(board)
    table = korf_table()
    return [Instance(f"Korf #{number}", SliderProblem(board, table[number - 1][0], goal), table[number - 1][1])
            for number in numbers]


# --- running -------------------------------------------------------------------------

def run(instance: Instance, spec: str, time_limit: float, seed: int) -> Row:
    solver = get_solver("slider", spec)
    cpu = time.process_time()
    result = solver.solve(instance.problem, time_limit=time_limit, seed=seed)
    cpu = time.process_time() - cpu
    length = None if result.solution is None else len(result.solution)
    verified = result.solution is not None and not verify(instance.problem, result.solution)
    return Row(instance.name, spec, result.status.value, length, instance.optimum, result.wall_s, cpu,
               int(result.stats.get("horizons_tried", 0)), _optional_int(result.stats.get("no_solution_up_to")),
               int(result.stats.get("conflicts", 0)), verified)


def _optional_int(value: float | None) -> int | None:
    return None if value is None else int(value)


def markdown(rows: Sequence[Row]) -> str:
    head = ("| instance | solver | status | length | optimum | wall s | CPU s | horizons | none ≤ | conflicts "
            "| verified |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    body = [f"| {r.instance} | `{r.solver}` | {r.status} | {_blank_if_none(r.length)} | {r.optimum} "
            f"| {r.wall_s:.2f} | {r.cpu_s:.2f} | {r.horizons} | {_blank_if_none(r.proved_none_up_to)} "
            f"| {r.conflicts} | {'yes' if r.verified else 'no'} |"
            for r in rows]
    return "\n".join([head, *body])


def _blank_if_none(value: int | None) -> str:
    return "" if value is None else str(value)


def suite_instances(suite: str, args: argparse.Namespace) -> list[Instance]:
    if suite == "eight":
        return eight_puzzle_antipodes()
    if suite == "ring":
        return ring_scrambles(args.ring_count, args.seed)
    if suite == "korf":
        return korf_instances(args.korf)
    # The ablation: one depth-31 8-puzzle and one depth-31 ring state, since
    # some tricks switched off cost minutes.
    return eight_puzzle_antipodes()[:1] + ring_scrambles(1, args.seed)


def suite_specs(suite: str, workers: Sequence[int]) -> list[str]:
    if suite == "ablation":
        return list(ABLATION)
    return [f"cpsat:workers={w}" for w in workers]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", action="append", choices=("eight", "ring", "korf", "ablation"),
                        help="repeatable; default: eight")
    parser.add_argument("--workers", action="append", type=int, help="repeatable; default: 1 and 2")
    parser.add_argument("--time-limit", type=float, default=300.0, help="seconds per solve (default 300)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ring-count", type=int, default=5)
    parser.add_argument("--korf", type=int, action="append", help=f"instance number, repeatable; default {DEFAULT_KORF}")
    args = parser.parse_args(argv)
    args.korf = args.korf or list(DEFAULT_KORF)
    suites = args.suite or ["eight"]
    workers = args.workers or [1, 2]

    print(f"Machine: {machine()}\n")
    print(f"Command: `python -m benchmarks.slider_cpsat {' '.join(sys.argv[1:] if argv is None else argv)}`\n")
    for suite in suites:
        rows = []
        for instance in suite_instances(suite, args):
            for spec in suite_specs(suite, workers):
                rows.append(run(instance, spec, args.time_limit, args.seed))
                print(f"  done {instance.name} {spec}: {rows[-1].status} {rows[-1].wall_s:.2f} s",
                      file=sys.stderr, flush=True)
        print(f"### {suite}\n\n{markdown(rows)}\n", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
