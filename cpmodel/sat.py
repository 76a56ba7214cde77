"""CNF formulas and running them through `python-sat`: the part the crossword
and slider SAT backends and the DIMACS writer share.

Covers: `Cnf`, a formula under construction (fresh variables, clauses one by
one or as numpy blocks of binary clauses, `exactly_one`/`at_most_one` with
the pairwise encoding for a few literals and the sequential counter of Sinz
(2005) past that), its DIMACS text with comment lines, and `solve_encoded`,
which builds a backend's formula and solves it with a pysat solver in a
forked child process (`mobius.cpmodel.deadline.call_before`) until a
deadline, and hands back only what the backend reads from the model
(`Encoded.read`). Building in the child keeps the parent small: it forks
without copying a formula of millions of clauses, and never spends time past
the deadline freeing one. The encodings look at the deadline as they go, so
the child stops itself while building; solvers that pysat can interrupt
(Glucose, MiniSat) get `solve_limited` with an interrupt timer set to what
is left; and the parent kills the child at the deadline whatever it does
(past `ANSWER_GRACE_S`), since Glucose reads its interrupt flag only at
restarts and loading millions of clauses looks at no clock. CaDiCaL, which
pysat cannot interrupt, runs a plain `solve` that the parent's kill ends
(conflict-budget slices were tried: on van Beek 05.01 they turned 7 s into
a timeout, each call redoing CaDiCaL's set-up). Building needs nothing
beyond numpy; only the child imports pysat.

Leaves out: what the variables mean (the encodings live with their
backends) and any preprocessing of its own (the solvers have theirs).
"""

from __future__ import annotations

import functools
import importlib.util
import math
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import numpy as np

from mobius.cpmodel.deadline import ANSWER_GRACE_S, ChildFailed, DeadlineExceeded, call_before
from mobius.cpmodel.solver import Status

T = TypeVar("T")

# pysat names. CaDiCaL 1.9.5 is the default: on van Beek 05.01–05.03 it
# decided all three (7.1, 2.7, 1.0 s), Glucose 4 timed out on 05.01 at 20 s
# (1.1 and 3.4 s on the others); Glucose stays selectable.
SAT_SOLVERS = ("cadical195", "glucose4", "glucose42", "minisat22")
DEFAULT_SAT_SOLVER = "cadical195"
UNINTERRUPTIBLE = ("cadical195",)  # pysat raises NotImplementedError on interrupt()
# Past this many literals the sequential counter (3n clauses, n−1 new
# variables) is smaller than pairwise at-most-one (n(n−1)/2 clauses).
PAIRWISE_AT_MOST = 5


def sat_refusal() -> str | None:
    if importlib.util.find_spec("pysat") is None:
        return "the python-sat package is not installed (pip install 'mobius-puzzles[sat]')"
    return None


@dataclass
class Cnf:
    """Clauses over variables 1…num_vars; `blocks` holds binary clauses as (m, 2) int arrays.

    A long clause made from an array stays one (`add_array`): millions of
    literals as Python ints would cost as much to free as to build, and the
    formula is freed when a timed-out solve returns."""

    num_vars: int = 0
    clauses: list[list[int] | np.ndarray] = field(default_factory=list)
    blocks: list[np.ndarray] = field(default_factory=list)

    def new_vars(self, count: int) -> np.ndarray:
        first = self.num_vars + 1
        self.num_vars += count
        return np.arange(first, first + count, dtype=np.int64)

    def add(self, clause: Iterable[int]) -> None:
        self.clauses.append([int(lit) for lit in clause])

    def add_array(self, clause: np.ndarray) -> None:
        """The clause of the literals in `clause`, kept as an array."""
        self.clauses.append(np.asarray(clause, dtype=np.int64))

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
        if isinstance(lits, np.ndarray):
            self.add_array(lits)
        else:
            self.add(lits)
        self.at_most_one(lits)

    @property
    def num_clauses(self) -> int:
        return len(self.clauses) + sum(len(b) for b in self.blocks)

    def all_clauses(self) -> Iterable[list[int]]:
        for clause in self.clauses:
            yield clause.tolist() if isinstance(clause, np.ndarray) else clause
        for block in self.blocks:
            yield from block.tolist()

    def dimacs(self, comments: Iterable[str] = ()) -> str:
        """The formula in DIMACS CNF, after `c ` comment lines."""
        lines = [f"c {line}" for line in comments]
        lines.append(f"p cnf {self.num_vars} {self.num_clauses}")
        lines.extend(" ".join(map(str, clause)) + " 0" for clause in self.all_clauses())
        return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Encoded(Generic[T]):
    """A backend's formula and how it reads its answer from the true variables of a model."""

    cnf: Cnf
    read: Callable[[frozenset[int]], T]


@dataclass
class SatAnswer(Generic[T]):
    """SOLVED with what `Encoded.read` made of the model, or UNSAT / TIMEOUT / ERROR without."""

    status: Status
    value: T | None = None
    stats: dict[str, int | float] = field(default_factory=dict)


def solve_encoded(encode: Callable[[float], Encoded[T]], solver_name: str, *, deadline: float) -> SatAnswer[T]:
    """`encode(deadline)` and its formula solved in a forked child; TIMEOUT once `deadline`
    (`time.perf_counter()`; inf: none) has passed.

    The child (`call_before`: what `encode` reads is inherited, not copied,
    and a Ctrl-C or the death of this process ends the child at once) is
    killed `ANSWER_GRACE_S` past the deadline if it has not answered:
    Glucose looks at pysat's interrupt flag only when it restarts, which on
    these formulas can be minutes late, and CaDiCaL cannot be interrupted at
    all (counted as `killed_at_deadline`). `encode` may raise
    DeadlineExceeded (TIMEOUT).
    """
    try:
        answer = call_before(functools.partial(_solve, encode, solver_name, deadline), deadline + ANSWER_GRACE_S)
    except ChildFailed:  # the child died without answering
        return SatAnswer(Status.ERROR)
    if answer is None:
        return SatAnswer(Status.TIMEOUT, stats={"killed_at_deadline": 1})
    return answer


def _solve(encode: Callable[[float], Encoded[T]], solver_name: str, deadline: float) -> SatAnswer[T]:
    """The child's work: encode, load, solve in what is left of the deadline, answer."""
    from pysat.solvers import Solver  # imported here: an optional package

    started = time.perf_counter()
    try:
        encoded = encode(deadline)
    except DeadlineExceeded:
        return SatAnswer(Status.TIMEOUT, stats={"encode_s": time.perf_counter() - started})
    cnf = encoded.cnf
    stats: dict[str, int | float] = {"encode_s": time.perf_counter() - started, "sat_vars": cnf.num_vars,
                                     "sat_clauses": cnf.num_clauses}
    with Solver(name=solver_name) as solver:
        solver.append_formula(cnf.all_clauses())
        stats["load_s"] = time.perf_counter() - started - stats["encode_s"]
        left = deadline - time.perf_counter()
        if left <= 0:
            outcome = None
        elif math.isinf(left) or solver_name in UNINTERRUPTIBLE:
            outcome = solver.solve()  # CaDiCaL: stopped by the parent's kill at the deadline
        else:
            outcome = _solve_with_timer(solver, left)
        stats.update(solver.accum_stats())
        if outcome is None:
            return SatAnswer(Status.TIMEOUT, stats=stats)
        if not outcome:
            return SatAnswer(Status.UNSAT, stats=stats)
        return SatAnswer(Status.SOLVED, encoded.read(frozenset(v for v in solver.get_model() if v > 0)), stats)


def _solve_with_timer(solver: object, seconds: float) -> bool | None:
    timer = threading.Timer(seconds, solver.interrupt)  # type: ignore[attr-defined]
    timer.start()
    try:
        return solver.solve_limited(expect_interrupt=True)  # type: ignore[attr-defined]
    finally:
        timer.cancel()
