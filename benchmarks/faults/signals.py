"""Signals from outside: SIGINT, SIGTERM and kill -9 at seeded random moments of
`crossword fill` (every solver), `slider prepare` and a crossword pack.

Covers: `run_and_signal`, which starts `mobius` as a real process in a
session of its own, follows its process tree (psutil), sends the signal when
a moment comes — SIGINT to the whole process group, as a terminal's Ctrl-C,
SIGTERM and SIGKILL to the process — and reports how it ended (`Ending`):
exit code, stderr, and the processes of its tree still alive `SETTLE_S`
after it exited; `broken_promises`, what is wrong with an ending; and the
family's `run`. A case is right when nothing of the tree is alive, the exit
code is 0, 2, 3 or 130 (-9 after kill -9; a run may finish before its
moment), stderr holds at most one line besides a pack's plan notes, and no
traceback. `tests/test_interrupts.py` holds the short, fixed cases.

Moments are drawn from `FIRST_MOMENT_S` on: before that the interpreter has
not yet run any of the tool's code, and a signal keeps the system's default
action. Leaves out: the tool itself (driven only from outside).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psutil

from mobius.benchmarks.faults import Outcome

NAME = "signals"
DESCRIPTION = ("SIGINT (to the group), SIGTERM, kill -9 at random moments of fill (every solver), "
               "slider prepare and a pack; right = no process left 2 s later, exit 0/2/3/130 (or killed), "
               "at most one stderr line, no traceback")

ROOT = Path(__file__).resolve().parents[2]
# Grids that the solvers do not fill within the moments, with a set-up of a
# few seconds: 15.02 holds the tabled backends for tens of seconds, while the
# reference solver and Qxw fill it in a second or five; 23.06 they do not fill.
VANBEEK = ROOT / "benchmarks" / "data" / "crossword" / "vanbeek"
HARD_GRIDS = {"reference": "23.06.txt", "qxw": "23.06.txt"}
HARD_GRID = "15.02.txt"
SOLVERS = ("reference", "cpsat", "gecode", "choco", "sat", "qxw")
PACK = ("pack", "crossword", "--count", "60", "--width", "9", "--height", "5", "--workers", "2")
PREPARE = ("slider", "prepare", "grid:4x4")
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGKILL)
# Moments are drawn between these many seconds after the start (the last:
# the set-up of a fill and a pack's first jobs on a loaded 2-core machine).
FIRST_MOMENT_S = 0.1
LAST_MOMENT_S = 10.0
# Bounds for a loaded machine; reaching one means the run hung.
EXIT_TIMEOUT_S = 30
# How long after the parent exits its tree must be gone (the promise).
SETTLE_S = 2.0
POLL_S = 0.05
# Lines a pack prints about its plan before any interruption.
PLAN_NOTE = "note: "
RIGHT_EXITS = (0, 2, 3, 130)


@dataclass(frozen=True)
class Ending:
    """How a run ended: `signalled` False when it ended before its moment."""

    signalled: bool
    code: int
    stderr: str
    survivors: list[str]  # "pid name" of processes of its tree alive SETTLE_S after its exit

    @property
    def said(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if not line.startswith(PLAN_NOTE)]


def _alive(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _watch(root: psutil.Process, tree: dict[int, psutil.Process]) -> list[psutil.Process]:
    """Add the live descendants of `root` to `tree`; return them."""
    try:
        found = root.children(recursive=True)
    except psutil.NoSuchProcess:
        return []
    tree.update((p.pid, p) for p in found)
    return found


Moment = Callable[[list[psutil.Process]], bool]  # given the live descendants: is it time?


def run_and_signal(args: tuple[str, ...], signum: int, ready: Moment, env: dict[str, str], after: float = 0.0,
                   start_timeout: float = 90.0) -> Ending:
    """Run `mobius ARGS`; once `ready(descendants)` (and `after` s more), send `signum`; watch the end."""
    proc = subprocess.Popen([sys.executable, "-m", "mobius", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, env=env)
    root = psutil.Process(proc.pid)
    tree: dict[int, psutil.Process] = {}
    try:
        deadline = time.monotonic() + start_timeout
        while proc.poll() is None and not ready(_watch(root, tree)) and time.monotonic() < deadline:
            time.sleep(POLL_S)
        time.sleep(after)
        _watch(root, tree)
        signalled = proc.poll() is None
        if signalled and signum == signal.SIGINT:  # a terminal's Ctrl-C reaches the whole foreground group
            os.killpg(proc.pid, signal.SIGINT)
        elif signalled:
            proc.send_signal(signum)
        deadline = time.monotonic() + EXIT_TIMEOUT_S
        while proc.poll() is None and time.monotonic() < deadline:
            _watch(root, tree)
            time.sleep(POLL_S)
        if proc.poll() is None:
            return Ending(signalled, -1, "", [f"{proc.pid} mobius (no exit {EXIT_TIMEOUT_S} s after the signal)"])
        time.sleep(SETTLE_S)
        survivors = [p for p in tree.values() if _alive(p)]
        # A survivor may hold the stderr pipe open: do not wait for it.
        stderr = proc.stderr.read() if not survivors else ""  # type: ignore[union-attr]
        return Ending(signalled, proc.returncode, stderr, [f"{p.pid} {p.name()}" for p in survivors])
    finally:
        for process in [root, *tree.values()]:
            if _alive(process):
                process.kill()
        proc.wait()


def broken_promises(ending: Ending, signum: int) -> list[str]:
    """What is wrong with `ending` after `signum` (nothing: the run kept its promises)."""
    wrong = []
    if ending.survivors:
        wrong.append(f"alive {SETTLE_S:g} s after the exit: {', '.join(ending.survivors)}")
    if "Traceback" in ending.stderr:
        wrong.append("a traceback")
    killed = ending.signalled and signum == signal.SIGKILL
    if not (ending.code == -signal.SIGKILL if killed else ending.code in RIGHT_EXITS):
        wrong.append(f"exit code {ending.code}")
    if len(ending.said) > 1:
        wrong.append(f"{len(ending.said)} lines on stderr: {ending.said[:3]}")
    return wrong


def fill_args(solver: str) -> tuple[str, ...]:
    """`crossword fill` of a grid `solver` takes long over."""
    grid = VANBEEK / HARD_GRIDS.get(solver, HARD_GRID)
    return ("crossword", "fill", str(grid), "--dict", "words", "--no-clues", "--time-limit", "120", "--solver", solver)


def child_env(cache: Path) -> dict[str, str]:
    """This checkout's code first (as for the tests), and a private table cache (prepare builds into it)."""
    return {**os.environ, "XDG_CACHE_HOME": str(cache),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def after_seconds(seconds: float) -> Moment:
    """A moment: `seconds` after now."""
    began = time.monotonic()
    return lambda found: time.monotonic() - began >= seconds


def targets() -> dict[str, tuple[str, ...]]:
    """Every command the family interrupts, by name (solvers not installed here left out)."""
    installed = {"gecode": shutil.which("minizinc"), "qxw": shutil.which("qxw") or shutil.which("/usr/games/qxw")}
    found = {f"fill-{s}": fill_args(s) for s in SOLVERS if installed.get(s, True)}
    return {**found, "prepare": PREPARE, "pack": PACK}


def run(cases: int, seed: int, workdir: Path) -> list[Outcome]:
    rng = random.Random(seed)
    commands = targets()
    names = sorted(commands)
    outcomes = []
    for number in range(cases):
        name = names[number % len(names)]
        signum = rng.choice(SIGNALS)
        moment = rng.uniform(FIRST_MOMENT_S, LAST_MOMENT_S)
        case_dir = workdir / f"case{number:03d}"
        case_dir.mkdir(parents=True, exist_ok=True)
        args = commands[name] + (("--out", str(case_dir / "pack")) if name == "pack" else ())
        ending = run_and_signal(args, signum, after_seconds(moment), child_env(case_dir / "cache"))
        wrong = broken_promises(ending, signum)
        when = f"{signal.Signals(signum).name} at {moment:.2f} s" if ending.signalled else "ended before its moment"
        outcomes.append(Outcome(NAME, f"{name} {signal.Signals(signum).name}", ending.code, not wrong,
                                f"{when}: " + ("; ".join(wrong) or "clean")))
    return outcomes
