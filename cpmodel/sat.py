"""CNF formulas and running them through `python-sat`: the part the crossword
and slider SAT backends and the DIMACS writer share.

Covers: `Cnf`, a formula under construction (fresh variables, clauses one by
one or as numpy blocks of binary clauses, `exactly_one`/`at_most_one` with
the pairwise encoding for a few literals and the sequential counter of Sinz
(2005) past that), its DIMACS text with comment lines, and `solve_cnf`,
which hands the formula to a pysat solver in a forked child process
(`mobius.cpmodel.deadline.call_before`) under a time limit: solvers that pysat can interrupt (Glucose, MiniSat) get
`solve_limited` with an interrupt timer, and the parent kills the child
shortly past the limit, since Glucose reads its interrupt flag only at
restarts; CaDiCaL, which pysat cannot interrupt, runs a plain `solve` that
the parent's kill ends (conflict-budget slices were tried: on van Beek
05.01 they turned 7 s into a timeout, each call redoing CaDiCaL's set-up). Building needs nothing
beyond numpy; only the child imports pysat.

Leaves out: what the variables mean (the encodings live with their
backends) and any preprocessing of its own (the solvers have theirs).
"""

from __future__ import annotations

import functools
import importlib.util
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from mobius.cpmodel.deadline import ChildFailed, call_before, deadline_of
from mobius.cpmodel.solver import Status

# pysat names. CaDiCaL 1.9.5 is the default: on van Beek 05.01–05.03 it
# decided all three (7.1, 2.7, 1.0 s), Glucose 4 timed out on 05.01 at 20 s
# (1.1 and 3.4 s on the others); Glucose stays selectable.
SAT_SOLVERS = ("cadical195", "glucose4", "glucose42", "minisat22")
DEFAULT_SAT_SOLVER = "cadical195"
UNINTERRUPTIBLE = ("cadical195",)  # pysat raises NotImplementedError on interrupt()
# The child stops itself at the limit where its solver allows; past this
# grace it is killed (Glucose can overrun by minutes, see `solve_cnf`).
KILL_GRACE_S = 2.0
# Past this many literals the sequential counter (3n clauses, n−1 new
# variables) is smaller than pairwise at-most-one (n(n−1)/2 clauses).
PAIRWISE_AT_MOST = 5


def sat_refusal() -> str | None:
    if importlib.util.find_spec("pysat") is None:
        return "the python-sat package is not installed (pip install 'mobius-puzzles[sat]')"
    return None


@dataclass
class Cnf:
    """Clauses over variables 1…num_vars; `blocks` holds binary clauses as (m, 2) int arrays."""

    num_vars: int = 0
    clauses: list[list[int]] = field(default_factory=list)
    blocks: list[np.ndarray] = field(default_factory=list)

    def new_vars(self, count: int) -> np.ndarray:
        first = self.num_vars + 1
        self.num_vars += count
        return np.arange(first, first + count, dtype=np.int64)

    def add(self, clause: Iterable[int]) -> None:
        self.clauses.append([int(lit) for lit in clause])

    def add_binary(self, first: np.ndarray, second: np.ndarray) -> None:
        """The clauses (first[i] ∨ second[i]) for every i."""
        if len(first):
            self.blocks.append(np.column_stack([first, second]).astype(np.int64))

    def at_most_one(self, lits: Sequence[int] | np.ndarray) -> None:
        lits = np.asarray(lits, dtype=np.int64)
        n = len(lits)
        if n <= 1:
            return
        if n <= PAIRWISE_AT_MOST:
            for i in range(n):
                for j in range(i + 1, n):
                    self.add((-lits[i], -lits[j]))
            return
        # Sequential counter: s[i] = "one of lits[0..i] is true".
        s = self.new_vars(n - 1)
        self.add_binary(-lits[:-1], s)  # x_i → s_i
        self.add_binary(-s[:-1], s[1:])  # s_{i−1} → s_i
        self.add_binary(-lits[1:], -s)  # x_i → ¬s_{i−1}

    def exactly_one(self, lits: Sequence[int] | np.ndarray) -> None:
        self.add(lits)
        self.at_most_one(lits)

    @property
    def num_clauses(self) -> int:
        return len(self.clauses) + sum(len(b) for b in self.blocks)

    def all_clauses(self) -> Iterable[list[int]]:
        yield from self.clauses
        for block in self.blocks:
            yield from block.tolist()

    def dimacs(self, comments: Iterable[str] = ()) -> str:
        """The formula in DIMACS CNF, after `c ` comment lines."""
        lines = [f"c {line}" for line in comments]
        lines.append(f"p cnf {self.num_vars} {self.num_clauses}")
        lines.extend(" ".join(map(str, clause)) + " 0" for clause in self.all_clauses())
        return "\n".join(lines) + "\n"


@dataclass
class SatAnswer:
    status: Status
    true_vars: frozenset[int] = frozenset()
    stats: dict[str, int | float] = field(default_factory=dict)


def solve_cnf(cnf: Cnf, solver_name: str, *, time_limit: float | None) -> SatAnswer:
    """SOLVED with the true variables, UNSAT, or TIMEOUT past `time_limit` seconds.

    The solver runs in a forked child process (`call_before`: the formula is
    inherited, not copied, and a Ctrl-C or the death of this process ends
    the child at once): Glucose looks at pysat's interrupt flag only when it
    restarts, which on these formulas can be minutes late, so the child is
    killed `KILL_GRACE_S` past the limit whatever the solver does (CaDiCaL,
    which cannot be interrupted, at the limit itself).
    """
    grace = 0.0 if solver_name in UNINTERRUPTIBLE else KILL_GRACE_S
    deadline = deadline_of(None if time_limit is None else time_limit + grace)
    try:
        answer = call_before(functools.partial(_solve, cnf, solver_name, time_limit), deadline)
    except ChildFailed:  # the child died without answering
        answer = SatAnswer(Status.ERROR)
    if answer is None:
        answer = SatAnswer(Status.TIMEOUT)
    answer.stats.update(sat_vars=cnf.num_vars, sat_clauses=cnf.num_clauses)
    return answer


def _solve(cnf: Cnf, solver_name: str, time_limit: float | None) -> SatAnswer:
    """The child's work: load, solve under the limit, answer."""
    from pysat.solvers import Solver  # imported here: an optional package

    started = time.perf_counter()
    with Solver(name=solver_name) as solver:
        solver.append_formula(cnf.clauses)
        for block in cnf.blocks:
            solver.append_formula(block.tolist())
        load_s = time.perf_counter() - started
        left = None if time_limit is None else time_limit - load_s
        if left is not None and left <= 0:
            outcome = None
        elif left is None or solver_name in UNINTERRUPTIBLE:
            outcome = solver.solve()  # CaDiCaL: stopped by the parent's kill at the limit
        else:
            outcome = _solve_with_timer(solver, left)
        stats: dict[str, int | float] = {"load_s": load_s, **solver.accum_stats()}
        if outcome is None:
            return SatAnswer(Status.TIMEOUT, stats=stats)
        if not outcome:
            return SatAnswer(Status.UNSAT, stats=stats)
        return SatAnswer(Status.SOLVED, frozenset(v for v in solver.get_model() if v > 0), stats)


def _solve_with_timer(solver: object, seconds: float) -> bool | None:
    timer = threading.Timer(seconds, solver.interrupt)  # type: ignore[attr-defined]
    timer.start()
    try:
        return solver.solve_limited(expect_interrupt=True)  # type: ignore[attr-defined]
    finally:
        timer.cancel()
