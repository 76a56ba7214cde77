"""Running the `minizinc` program on a model and its data: the part the
crossword and slider MiniZinc backends share.

Covers: finding the program and asking whether it has a solver
(`minizinc_refusal`), and `run_minizinc`: the model text followed by its
data goes in on standard input (nothing is written to disk, and no data
passes through argv, whose single arguments are limited to 128 KiB), with
``--solver``, ``--time-limit`` (ms), ``-r`` (the seed) and ``--json-stream``;
the solution's ``name = [...];`` lines, the final status and the solver's
statistics are read back from the JSON messages. The run works to a
deadline: MiniZinc is handed what is left of it as its own ``--time-limit``
(its start-up and flattening count against it), and it and the solver it
started are killed (`mobius.cpmodel.processes.run_before`) if they have not
answered `ANSWER_GRACE_S` past it, since MiniZinc's own limit does not
bound reading and flattening a large instance. They are killed too when the
run is interrupted, and die with this process.

Leaves out: the models and data (`cpmodel/models/*.mzn`,
`cpmodel/instances/minizinc.py`) and what the answers mean (the backends).
"""

from __future__ import annotations

import json
import math
import re
import shutil
import signal
import time
from dataclasses import dataclass, field
from functools import lru_cache

from mobius.cpmodel.deadline import ANSWER_GRACE_S, deadline_of
from mobius.cpmodel.processes import run_before
from mobius.cpmodel.solver import Status

# How long `minizinc --solvers-json` may take before MiniZinc counts as unusable.
SOLVER_LIST_LIMIT_S = 60.0
# MiniZinc reads a limit below this many milliseconds as none worth starting
# for; the least it is handed (it is killed at the deadline all the same).
MIN_TIME_LIMIT_MS = 100
# A MiniZinc seed is a C int; project seeds can be larger.
SEED_MODULUS = 2**31 - 1
_ASSIGNMENT = re.compile(r"^\s*(\w+)\s*=\s*\[(.*?)\]\s*;", re.MULTILINE | re.DOTALL)
_STATUSES = {"UNSATISFIABLE": Status.UNSAT, "UNKNOWN": Status.TIMEOUT, "ERROR": Status.ERROR}


@lru_cache(maxsize=None)
def _solver_ids(program: str) -> frozenset[str]:
    """The solver ids and tags `minizinc --solvers-json` lists (e.g. org.gecode.gecode, gecode)."""
    try:
        listed = run_before([program, "--solvers-json"], deadline_of(SOLVER_LIST_LIMIT_S))
        entries = json.loads(listed.out) if listed is not None else []
    except (OSError, ValueError):
        return frozenset()
    ids: set[str] = set()
    for entry in entries:
        ids.add(str(entry.get("id", "")))
        ids.add(str(entry.get("id", "")).rsplit(".", 1)[-1])
        ids.update(str(tag) for tag in entry.get("tags", []))
    return frozenset(ids)


def find_minizinc(binary: str = "") -> str | None:
    return shutil.which(binary or "minizinc")


def minizinc_refusal(binary: str, solver: str) -> str | None:
    """Why MiniZinc with `solver` cannot run here, or None."""
    program = find_minizinc(binary)
    if program is None:
        return "the minizinc program is not installed (Debian package minizinc, which brings Gecode)"
    if solver not in _solver_ids(program):
        return f"minizinc has no {solver!r} solver here (see `minizinc --solvers`)"
    return None


@dataclass
class MiniZincRun:
    """What one run said: the status, the arrays of the last solution, the solver's statistics."""

    status: Status
    arrays: dict[str, list[int]] = field(default_factory=dict)
    stats: dict[str, int | float] = field(default_factory=dict)
    error: str = ""


def run_minizinc(program: str, solver: str, text: str, *, deadline: float, seed: int) -> MiniZincRun:
    """Run `text` (model and data) through minizinc with `solver` until `deadline` (`time.perf_counter()`;
    inf: none); SOLVED when a solution came back, TIMEOUT when the deadline came first."""
    command = [program, "--solver", solver, "--json-stream", "-s", "-r", str(seed % SEED_MODULUS)]
    if not math.isinf(deadline):
        left = deadline - time.perf_counter()
        if left <= 0:
            return MiniZincRun(Status.TIMEOUT)
        command += ["--time-limit", str(max(MIN_TIME_LIMIT_MS, int(left * 1000)))]
    command.append("-")  # the model (with its data) comes on standard input
    # SIGTERM, not SIGKILL, when this process dies: MiniZinc answers it by
    # ending the solver it started (fzn-gecode, in a process group of its
    # own), which a killed MiniZinc would leave running.
    finished = run_before(command, deadline + ANSWER_GRACE_S, feed=text, death_signal=signal.SIGTERM)
    if finished is None:
        return MiniZincRun(Status.TIMEOUT, stats={"killed_at_deadline": 1})
    return _read_messages(finished.out, finished.err, finished.returncode)


def _read_messages(out: str, err: str, returncode: int) -> MiniZincRun:
    run = MiniZincRun(Status.TIMEOUT)
    solved = False
    for line in out.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        kind = message.get("type")
        if kind == "solution":
            solved = True
            run.arrays = {name: [int(v) for v in body.replace("\n", " ").split(",") if v.strip()]
                          for name, body in _ASSIGNMENT.findall(message["output"].get("default", ""))}
        elif kind == "status":
            run.status = _STATUSES.get(message.get("status", ""), run.status)
        elif kind == "statistics":
            run.stats.update({k: v for k, v in message.get("statistics", {}).items()
                              if isinstance(v, (int, float)) and not isinstance(v, bool)})
        elif kind == "error":
            run.status, run.error = Status.ERROR, str(message.get("message", "minizinc reported an error"))
    if solved:
        run.status = Status.SOLVED
    elif returncode != 0 and run.status is not Status.ERROR:
        run.status = Status.ERROR
        run.error = (err.strip().splitlines() or [f"minizinc exited with status {returncode}"])[-1]
    return run
