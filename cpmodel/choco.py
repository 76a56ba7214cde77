"""What the crossword and slider Choco backends share: is `pychoco` here, the
time limit in Choco's syntax, reading Choco's final state and counters, and
`run_choco`, which runs a model's building and solving in a forked child.

Why a child: pychoco is a native (GraalVM) build of Choco, and a search in
it does not return to Python until it stops, so a Ctrl-C waited for the
time limit (35-56 s were seen); the parent waits in Python instead and kills
the child at once (`mobius.cpmodel.deadline.call_before`). The child is
killed at the deadline too (past `ANSWER_GRACE_S`): starting GraalVM and
posting a model of a million table rows are native calls that look at no
clock, and Choco's own limit starts only when its search does, so the
child gives Choco what is left of the deadline (`choco_limit`) and the
parent's kill bounds the rest. pychoco is imported only in the child, whose
GraalVM isolate thus never meets a fork. A child that dies (GraalVM cannot
reserve its heap under a memory limit, or runs out of it) is an answer too:
ERROR, with a note saying so in one line.

Leaves out: the models (`cpmodel/crossword/choco.py`, `cpmodel/slider/choco.py`).
"""

from __future__ import annotations

import importlib.util
import math
import time
from collections.abc import Callable
from typing import Any

from mobius.cpmodel.deadline import ANSWER_GRACE_S, ChildFailed, call_before
from mobius.cpmodel.solver import Status

# Choco reads a duration string such as "2.5s" ("2500ms" is silently read
# as no limit at all); a millisecond is the least it is handed.
MIN_LIMIT_S = 0.001
# What a dying GraalVM prints when memory is short: at start-up (the heap
# cannot be reserved under a memory limit) or during the search.
_OUT_OF_MEMORY = ("graal_create_isolate", "OutOfMemoryError", "out of memory")


def run_choco(work: Callable[[], tuple[Status, Any, dict[str, float]]], deadline: float,
              stats: dict[str, int | float], notes: dict[str, str]) -> tuple[Status, Any]:
    """`work()` (building and solving with pychoco) in a forked child, killed `ANSWER_GRACE_S` past `deadline`.

    `work` answers (status, value, Choco's counters); the counters are added
    to `stats`. TIMEOUT when the child was killed at the deadline (counted
    as `killed_at_deadline`); ERROR with `notes["error"]` saying why when
    Choco failed (out of memory included).
    """
    try:
        answer = call_before(work, deadline + ANSWER_GRACE_S)
    except ChildFailed as exc:
        message = str(exc)
        out_of_memory = any(sign in message for sign in _OUT_OF_MEMORY)
        notes["error"] = f"Choco ran out of memory ({message})" if out_of_memory else f"Choco failed: {message}"
        return Status.ERROR, None
    if answer is None:
        stats["killed_at_deadline"] = stats.get("killed_at_deadline", 0) + 1
        return Status.TIMEOUT, None
    status, value, counters = answer
    for key, count in counters.items():
        stats[key] = stats.get(key, 0) + count
    return status, value


def choco_refusal() -> str | None:
    """Why pychoco cannot run here, or None."""
    if importlib.util.find_spec("pychoco") is None:
        return "the pychoco package is not installed (pip install 'mobius-puzzles[choco]')"
    return None


def choco_limit(deadline: float) -> str | None:
    """What is left of `deadline` (`time.perf_counter()`; inf: none) as Choco's time limit (None: none)."""
    if math.isinf(deadline):
        return None
    return f"{max(MIN_LIMIT_S, deadline - time.perf_counter()):.3f}s"


def choco_status(solver: Any, found: bool) -> Status:
    """SOLVED if a solution came back; else UNSAT when the search ran to its end, TIMEOUT when stopped."""
    if found:
        return Status.SOLVED
    return Status.UNSAT if solver.get_search_state() == "TERMINATED" else Status.TIMEOUT


def choco_stats(solver: Any) -> dict[str, int | float]:
    return {"backtracks": int(solver.get_backtrack_count()), "failures": int(solver.get_fail_count()),
            "choco_s": float(solver.get_time_count())}
