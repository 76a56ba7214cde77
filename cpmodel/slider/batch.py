"""Many starts on one board in one run: the tables mapped once, shared by forked workers.

Covers: `solve_all`, which prepares the solver's heuristic once in this
process — for the 15-puzzle, mapping the 288 MB of the 7-8 pattern tables
and checking their checksum — and then forks `workers` processes that
inherit the mapping (the same pages of the page cache: nothing is read,
copied or checked again) and the compiled search, and solve the starts
between them; each answer is checked by the independent verifier
(`verify.py`) in the worker that found it. `Outcome` per start, in input
order, and `prepare_s`, what the one preparation took.

Workers are forked, not spawned, on purpose: a spawned worker would import
numba and map the tables anew, which is what a run of one process per start
pays on every start. They die with this process (`die_with_parent`).

Leaves out: reading starts and printing them (the CLI), the searches
(`search.py`), and building tables with progress shown (`slider prepare`):
a run without them builds them once, here, before any start is solved, and
the per-start time limit does not cover that.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from mobius.cpmodel.processes import die_with_parent
from mobius.cpmodel.slider.board import SliderProblem
from mobius.cpmodel.slider.verify import verify
from mobius.cpmodel.solver import Solver, SolveResult, Status


@dataclass(frozen=True)
class Outcome:
    """One start's result, its moves as lists, and what the verifier found wrong with them (empty: sound)."""

    index: int
    result: SolveResult
    moves: list[object] | None
    problems: list[str]


# The solver and limit the forked workers inherit: set before the pool starts, never pickled.
_RUN: tuple[Solver, float | None] | None = None


def prepare(solver: Solver, problem: SliderProblem) -> float:
    """Load (map) the heuristic `solver` will use on `problem`'s board and goal; the seconds it took.

    A solver without tables (bfs, cpsat) has nothing to prepare."""
    began = time.perf_counter()
    ready = getattr(solver, "prepare", None)
    if ready is not None:
        ready(problem, math.inf, {}, {})
    return time.perf_counter() - began


def solve_all(solver: Solver, problems: Sequence[SliderProblem], *, workers: int = 1,
              time_limit: float | None = None) -> tuple[float, Iterator[Outcome]]:
    """(seconds spent preparing the heuristic once, the outcomes in input order as they come).

    Every problem shares the first one's board and goal (the caller's promise: they come from one
    board and goal); `time_limit` bounds each solve."""
    global _RUN
    prepare_s = prepare(solver, problems[0]) if problems else 0.0
    _RUN = (solver, time_limit)
    if workers <= 1 or len(problems) <= 1:
        return prepare_s, (_solve_one(item) for item in enumerate(problems))
    return prepare_s, _forked(problems, workers)


def _forked(problems: Sequence[SliderProblem], workers: int) -> Iterator[Outcome]:
    context = multiprocessing.get_context("fork")
    pool = context.Pool(min(workers, len(problems)), initializer=_init_worker, initargs=(os.getpid(),))
    try:
        # one start a task: instances differ a hundredfold in cost, so no worker waits on a long chunk
        yield from pool.imap(_solve_one, enumerate(problems), chunksize=1)
    except BaseException:  # an error, Ctrl-C, or the caller stopping early: stop the workers
        pool.terminate()
        pool.join()
        raise
    pool.close()
    pool.join()


def _init_worker(parent_pid: int) -> None:
    """A forked worker leaves signals to its parent (which stops the pool) and dies with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)  # the parent's handlers would raise its interruption here
    die_with_parent(parent_pid)


def _solve_one(item: tuple[int, SliderProblem]) -> Outcome:
    index, problem = item
    assert _RUN is not None, "solve_all sets the run before solving"
    solver, time_limit = _RUN
    result = solver.solve(problem, time_limit=time_limit)
    if result.status is not Status.SOLVED:
        return Outcome(index, result, None, [])
    moves = [list(m) if isinstance(m, (list, tuple)) else m for m in result.solution or []]
    return Outcome(index, result, moves, verify(problem, moves))
