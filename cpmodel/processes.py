"""Child processes that end with this one: the one way the project starts outside programs,
ties forked children and workers to their parent, and kills a child with everything it started.

Covers:
- `die_with_parent`, called in a child (before exec for a program, first thing
  in a forked child or a pool worker): Linux's ``prctl(PR_SET_PDEATHSIG)``
  has the kernel signal the child when its parent dies, however it dies —
  kill -9 included, when no code of the parent runs. A child whose parent
  died before the call exits at once. Elsewhere only that last check applies;
- `spawn`, an outside program (MiniZinc, Qxw, a benchmark child) in a session
  of its own (a Ctrl-C at the terminal reaches only this process, which
  decides) that dies with this process;
- `kill_tree`, SIGKILL to a child and to every process it started: the tree
  is frozen (SIGSTOP) first, so none escapes by forking meanwhile, and the
  members of the child's session are added, so a grandchild that moved to
  a process group of its own (MiniZinc's solver does) or whose parent has
  already exited goes too (`ready_to_kill` loads what it needs ahead, while
  the child works, so a kill at a deadline is prompt); `kill`, the same
  for a `subprocess.Popen` running or ended; `ended`, a context manager
  that kills and reaps a `subprocess.Popen` however its block is left (an
  answer, an error, a Ctrl-C or a SIGTERM raised as KeyboardInterrupt);
- `run_before`, an outside program run to its end or to a deadline, whichever
  comes first (text on its standard input, its output read back), and
  killed with all it started either way: how MiniZinc, Qxw and MiniZinc's
  list of solvers are run.

A death signal reaches only a direct child, and only while the thread that
started it lives: a grandchild is covered when its own parent asks for one
too (each link of the chain does here), and a program that starts children
of its own is given a signal it answers by ending them (MiniZinc: SIGTERM,
see `cpmodel/minizinc.py`).

Leaves out: when a child is killed (the callers' deadlines and
interruptions) and what it computes.
"""

from __future__ import annotations

import ctypes
import functools
import math
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

# Linux prctl option: the signal the kernel sends a process when its parent dies.
PR_SET_PDEATHSIG = 1
# A child whose parent is already gone exits with this code (nobody reads it).
ORPHAN_EXIT = 1
# Freezing a tree repeats until no new descendant shows up; a tree still
# growing after this many rounds is killed as far as it was seen.
FREEZE_ROUNDS = 8


def _find_prctl() -> Callable[..., int] | None:
    """libc's prctl, looked up once in the parent: a child between fork and exec should not load libraries."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _find_prctl()


def die_with_parent(parent_pid: int, signum: int = signal.SIGKILL) -> None:
    """In a child of `parent_pid`: receive `signum` when the parent dies; exit now if it has died."""
    if _PRCTL is not None:
        _PRCTL(PR_SET_PDEATHSIG, int(signum), 0, 0, 0)
    if os.getppid() != parent_pid:  # the parent died before the request above
        os._exit(ORPHAN_EXIT)


def spawn(command: Sequence[str], *, death_signal: int = signal.SIGKILL, **popen: Any) -> subprocess.Popen[Any]:
    """`subprocess.Popen(command, **popen)` in a new session, sent `death_signal` when this process dies."""
    return subprocess.Popen(command, start_new_session=True,
                            preexec_fn=functools.partial(die_with_parent, os.getpid(), death_signal), **popen)


@contextmanager
def ended(proc: subprocess.Popen[Any]) -> Iterator[subprocess.Popen[Any]]:
    """`proc` in the block; afterwards it and everything it started are killed and it is reaped."""
    try:
        yield proc
    finally:
        kill(proc)
        proc.wait()


@dataclass(frozen=True)
class Finished:
    """A program that ran to its end: its exit status and what it printed."""

    returncode: int
    out: str
    err: str


def run_before(command: Sequence[str], deadline: float, *, feed: str | None = None,
               death_signal: int = signal.SIGKILL, pass_fds: Sequence[int] = ()) -> Finished | None:
    """`command` run to its end with `feed` on its standard input (and the descriptors `pass_fds` open in
    it); None when the `time.perf_counter()` `deadline` (inf: none) comes first. Either way it and
    everything it started are gone on return."""
    stdin = subprocess.DEVNULL if feed is None else subprocess.PIPE
    with ended(spawn(command, death_signal=death_signal, stdin=stdin, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True, pass_fds=tuple(pass_fds))) as proc:
        ready_to_kill()
        try:
            out, err = proc.communicate(feed, timeout=None if math.isinf(deadline)
                                        else max(0.0, deadline - time.perf_counter()))
        except subprocess.TimeoutExpired:  # killed on leaving the block
            return None
    return Finished(proc.returncode, out, err)


def kill(proc: subprocess.Popen[Any]) -> None:
    """Kill `proc` and everything it started, whether it is still running or has ended (then its
    session's members that outlived it go)."""
    kill_tree(proc.pid, reaped=proc.poll() is not None)


def ready_to_kill() -> None:
    """Load what `kill_tree` needs now, while a child works, so that a kill at a deadline waits for no import."""
    import psutil  # noqa: F401  (kept by the import system for `kill_tree`)


def kill_tree(pid: int, *, reaped: bool = False) -> None:
    """SIGKILL the child `pid`, its descendants and the members of its session.

    Only ever a child of this process. Unless `reaped`, its pid is its own
    until this process reaps it; once reaped, only its session is looked at,
    whose id stays its own while any member lives.
    """
    import psutil  # loaded only when something is to be killed

    victims = [] if reaped else _frozen_tree(psutil, pid)
    victims += _session_members(psutil, pid)
    for process in victims:
        try:
            process.send_signal(signal.SIGKILL)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass


def _frozen_tree(psutil: Any, pid: int) -> list[Any]:
    """`pid` and its descendants, each stopped (SIGSTOP) once seen."""
    try:
        root = psutil.Process(pid)
    except psutil.NoSuchProcess:
        return []
    seen = {pid: root}
    frontier = [root]
    for _ in range(FREEZE_ROUNDS):
        for process in frontier:
            try:
                process.send_signal(signal.SIGSTOP)
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                pass
        try:
            found = root.children(recursive=True)
        except psutil.NoSuchProcess:
            found = []
        frontier = [p for p in found if p.pid not in seen]
        if not frontier:
            break
        seen.update((p.pid, p) for p in frontier)
    return list(seen.values())


def _session_members(psutil: Any, sid: int) -> list[Any]:
    """The processes of the session `sid` leads (none when `sid` leads no session of its own)."""
    try:
        if os.getsid(sid) != sid:
            return []
    except (ProcessLookupError, PermissionError):
        pass  # the leader is gone; its session may still have members
    members = []
    for process in psutil.process_iter():
        try:
            if process.pid != os.getpid() and os.getsid(process.pid) == sid:
                members.append(process)
        except (ProcessLookupError, PermissionError):
            continue
    return members
