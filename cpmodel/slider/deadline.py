"""The deadline every slider solver and table build works to.

Covers: `DeadlineExceeded`, raised by whatever passes its deadline (a search,
a pattern-database build, building a CP-SAT model), and `deadline_of`, the
one conversion from a time limit. Solvers turn the exception into TIMEOUT.
Leaves out: measuring anything else.
"""

from __future__ import annotations

import math
import time


class DeadlineExceeded(Exception):
    """Raised when a build or a search passes its deadline."""


def deadline_of(time_limit: float | None) -> float:
    """The `time.perf_counter()` value at which `time_limit` seconds from now run out (inf: none)."""
    return math.inf if time_limit is None else time.perf_counter() + time_limit


def check_deadline(deadline: float | None) -> None:
    if deadline is not None and time.perf_counter() > deadline:
        raise DeadlineExceeded
