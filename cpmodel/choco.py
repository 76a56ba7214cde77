"""What the crossword and slider Choco backends share: is `pychoco` here, the
time limit in Choco's syntax, reading Choco's final state and counters.

Leaves out: the models (`cpmodel/crossword/choco.py`, `cpmodel/slider/choco.py`).
"""

from __future__ import annotations

import importlib.util
from typing import Any

from cpmodel.solver import Status

# Choco reads a duration string such as "2.5s" ("2500ms" is silently read
# as no limit at all); a millisecond is the least it is handed.
MIN_LIMIT_S = 0.001


def choco_refusal() -> str | None:
    """Why pychoco cannot run here, or None."""
    if importlib.util.find_spec("pychoco") is None:
        return "the pychoco package is not installed (pip install 'mobius-puzzles[choco]')"
    return None


def choco_limit(seconds: float) -> str:
    return f"{max(MIN_LIMIT_S, seconds):.3f}s"


def choco_status(solver: Any, found: bool) -> Status:
    """SOLVED if a solution came back; else UNSAT when the search ran to its end, TIMEOUT when stopped."""
    if found:
        return Status.SOLVED
    return Status.UNSAT if solver.get_search_state() == "TERMINATED" else Status.TIMEOUT


def choco_stats(solver: Any) -> dict[str, int | float]:
    return {"backtracks": int(solver.get_backtrack_count()), "failures": int(solver.get_fail_count()),
            "choco_s": float(solver.get_time_count())}
