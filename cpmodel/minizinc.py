"""Running the `minizinc` program on a model and its data: the part the
crossword and slider MiniZinc backends share.

Covers: finding the program and asking whether it has a solver
(`minizinc_refusal`), and `run_minizinc`: the model text followed by its
data goes in on standard input (nothing is written to disk, and no data
passes through argv, whose single arguments are limited to 128 KiB), with
``--solver``, ``--time-limit`` (ms), ``-r`` (the seed) and ``--json-stream``;
the solution's ``name = [...];`` lines, the final status and the solver's
statistics are read back from the JSON messages. The program runs in a
session of its own (`mobius.cpmodel.processes.spawn`); minizinc and the solver it
started are killed when the run ends, whether it answered, overran the
limit by `OVERRUN_GRACE_S` or was interrupted, and die with this process.

Leaves out: the models and data (`cpmodel/models/*.mzn`,
`cpmodel/instances/minizinc.py`) and what the answers mean (the backends).
"""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
from dataclasses import dataclass, field
from functools import lru_cache

from mobius.cpmodel.processes import ended, spawn
from mobius.cpmodel.solver import Status

# MiniZinc stops itself at --time-limit (compilation included); past this
# grace it is taken to be stuck and killed with its solver.
OVERRUN_GRACE_S = 5.0
# MiniZinc's flattener must run even with no time left; this is the least
# limit handed to it, in milliseconds.
MIN_TIME_LIMIT_MS = 100
# A MiniZinc seed is a C int; project seeds can be larger.
SEED_MODULUS = 2**31 - 1
_ASSIGNMENT = re.compile(r"^\s*(\w+)\s*=\s*\[(.*?)\]\s*;", re.MULTILINE | re.DOTALL)
_STATUSES = {"UNSATISFIABLE": Status.UNSAT, "UNKNOWN": Status.TIMEOUT, "ERROR": Status.ERROR}


@lru_cache(maxsize=None)
def _solver_ids(program: str) -> frozenset[str]:
    """The solver ids and tags `minizinc --solvers-json` lists (e.g. org.gecode.gecode, gecode)."""
    try:
        run = subprocess.run([program, "--solvers-json"], capture_output=True, text=True, timeout=60)
        entries = json.loads(run.stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
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


def run_minizinc(program: str, solver: str, text: str, *, time_limit: float | None, seed: int) -> MiniZincRun:
    """Run `text` (model and data) through minizinc with `solver`; SOLVED when a solution came back."""
    command = [program, "--solver", solver, "--json-stream", "-s", "-r", str(seed % SEED_MODULUS)]
    if time_limit is not None:
        command += ["--time-limit", str(max(MIN_TIME_LIMIT_MS, int(time_limit * 1000)))]
    command.append("-")  # the model (with its data) comes on standard input
    # SIGTERM, not SIGKILL, when this process dies: MiniZinc answers it by
    # ending the solver it started (fzn-gecode, in a process group of its
    # own), which a killed MiniZinc would leave running.
    with ended(spawn(command, death_signal=signal.SIGTERM, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True)) as proc:
        try:
            out, err = proc.communicate(text, timeout=None if time_limit is None else time_limit + OVERRUN_GRACE_S)
        except subprocess.TimeoutExpired:
            return MiniZincRun(Status.TIMEOUT, error="killed after overrunning its time limit")
    return _read_messages(out, err, proc.returncode)


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
