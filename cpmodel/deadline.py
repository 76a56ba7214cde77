"""Deadlines: the one way every solver and table build works to a time limit.

Covers: `deadline_of`, the one conversion from a time limit to a
`time.perf_counter()` deadline; `DeadlineExceeded`, raised by whatever passes
its deadline (a search, propagation, a pattern-database build, building a
CP-SAT model), which solvers turn into TIMEOUT; `check_deadline`; and hard
deadlines for library calls that do not look at the clock often enough, or
at Ctrl-C at all: `call_before`, which runs a function in a forked child
process and returns its (picklable) result, or None once the deadline has
passed — the child is then killed (and reaped once it has ended, never
waited for), as it is when this process is interrupted (the wait is in
Python, so a Ctrl-C or a SIGTERM raised as KeyboardInterrupt ends it at
once) or dies (`mobius.cpmodel.processes`). CP-SAT needs it: expanding a table of a million rows in its presolve takes 10-20 s
on this project's machines without once checking its own time limit, so a
five-second limit ran for twenty; native solvers (CP-SAT, Choco, the SAT
solvers) do not return to Python for a Ctrl-C before they finish. What the
child prints goes to a file of its own; a child that dies without an answer
is `ChildFailed` with its last line (a native library's own message, such as
GraalVM failing to reserve its heap). Where the platform cannot fork, the
function runs in this process without a hard bound. `ANSWER_GRACE_S` is the
one allowance past a deadline: a child that stops itself at its limit
(CP-SAT, Choco, MiniZinc, a SAT solver) is killed that long after the
deadline if it has not answered, and `too_late` says when an answer came
after both, which the solvers report as TIMEOUT rather than as an answer
within the limit.

Leaves out: choosing when a hard bound is worth a fork (the caller knows the
size of its model) and anything solver-specific.
"""

from __future__ import annotations

import math
import os
import pickle
import select
import signal
import tempfile
import time
from collections.abc import Callable
from typing import IO, TypeVar

from mobius.cpmodel.processes import die_with_parent, kill_tree, ready_to_kill

T = TypeVar("T")

_CHUNK = 1 << 16
# A child that stops itself at its deadline gets this long to hand back its
# answer before it is killed: enough for a pipe and a pickle, small beside the
# tenth of a limit the CLI allows itself.
ANSWER_GRACE_S = 0.05
# How much of the end of what a dead child printed is read for its last line.
_TAIL = 4096
# Children killed and not yet reaped (`_reap`).
_KILLED: set[int] = set()


class DeadlineExceeded(Exception):
    """Raised when a build, a propagation or a search passes its deadline (or a search its budget)."""


def deadline_of(time_limit: float | None) -> float:
    """The `time.perf_counter()` value at which `time_limit` seconds from now run out (inf: none)."""
    return math.inf if time_limit is None else time.perf_counter() + time_limit


def check_deadline(deadline: float | None) -> None:
    """Raise DeadlineExceeded once `deadline` (a `time.perf_counter()` value; None: none) has passed."""
    if deadline is not None and time.perf_counter() > deadline:
        raise DeadlineExceeded


def too_late(deadline: float) -> bool:
    """Whether `deadline` and the grace after it (`ANSWER_GRACE_S`) have passed: an answer now is late."""
    return time.perf_counter() > deadline + ANSWER_GRACE_S


class ChildFailed(RuntimeError):
    """The function raised in the child (its message is kept) or the child died (with its last line)."""


def can_fork() -> bool:
    return hasattr(os, "fork")


def call_before(fn: Callable[[], T], deadline: float) -> T | None:
    """`fn()` computed in a forked child; None if it is not done by `deadline` (time.perf_counter; inf: none)."""
    if not can_fork():
        return fn()
    parent = os.getpid()
    read_fd, write_fd = os.pipe()
    with tempfile.TemporaryFile() as printed:
        pid = os.fork()
        if pid == 0:  # the child: compute, send, and leave without running any cleanup of the parent's
            os.close(read_fd)
            _child(fn, write_fd, printed.fileno(), parent)
        try:
            os.close(write_fd)
            ready_to_kill()
            payload = _read_until(read_fd, deadline)
        finally:
            os.close(read_fd)
            kill_tree(pid)
            _reap(pid)
        if payload is None:
            return None
        try:
            ok, value = pickle.loads(payload)
        except (pickle.UnpicklingError, EOFError, ValueError):
            raise ChildFailed(f"the child process died before it sent its result{_last_line(printed)}") from None
    if not ok:
        raise ChildFailed(value)
    return value


def _reap(pid: int) -> None:
    """Reap the killed child `pid`, and those killed before it, once each has ended; leave the rest for later.

    A killed child holding gigabytes takes a while to be torn down, which
    no deadline should wait for; a later call reaps it, and the system does
    when this process ends."""
    _KILLED.add(pid)
    for child in sorted(_KILLED):
        try:
            gone, _ = os.waitpid(child, os.WNOHANG)
        except ChildProcessError:  # reaped already
            gone = child
        if gone:
            _KILLED.discard(child)


def _child(fn: Callable[[], object], write_fd: int, printed_fd: int, parent: int) -> None:
    code = 0
    try:
        # Die with the parent, whatever kills it; Ctrl-C is for the parent,
        # which kills this child when it stops waiting.
        die_with_parent(parent)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        for fd in (1, 2):
            os.dup2(printed_fd, fd)
        try:
            payload = pickle.dumps((True, fn()))
        except BaseException as exc:  # everything goes back to the parent, which raises it
            payload = pickle.dumps((False, f"{type(exc).__name__}: {exc}"))
        view = memoryview(payload)
        while view:
            view = view[os.write(write_fd, view):]
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def _last_line(printed: IO[bytes]) -> str:
    """`: LINE`, the last line the child printed, or nothing."""
    printed.seek(max(0, os.fstat(printed.fileno()).st_size - _TAIL))
    lines = printed.read().decode("utf-8", "replace").strip().splitlines()
    return f": {lines[-1].strip()}" if lines else ""


def _read_until(fd: int, deadline: float) -> bytes | None:
    """Everything written to `fd` until its end, or None if `deadline` comes first."""
    chunks = []
    while True:
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], None if math.isinf(left) else left)
        if not ready:
            return None
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
