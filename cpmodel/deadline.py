"""Deadlines: the one way every solver and table build works to a time limit.

Covers: `deadline_of`, the one conversion from a time limit to a
`time.perf_counter()` deadline; `DeadlineExceeded`, raised by whatever passes
its deadline (a search, propagation, a pattern-database build, building a
CP-SAT model), which solvers turn into TIMEOUT; `check_deadline`; and hard
deadlines for library calls that do not look at the clock often enough:
`call_before`, which runs a function in a forked child process and
returns its (picklable) result, or None once the deadline has passed — the
child is then killed. CP-SAT needs it: expanding a table of a million rows in
its presolve takes 10-20 s on this project's machines without once checking
its own time limit, so a five-second limit ran for twenty. Where the
platform cannot fork, the function runs in this process without a hard bound.

Leaves out: choosing when a hard bound is worth a fork (the caller knows the
size of its model) and anything solver-specific.
"""

from __future__ import annotations

import math
import os
import pickle
import select
import signal
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

_CHUNK = 1 << 16


class DeadlineExceeded(Exception):
    """Raised when a build, a propagation or a search passes its deadline (or a search its budget)."""


def deadline_of(time_limit: float | None) -> float:
    """The `time.perf_counter()` value at which `time_limit` seconds from now run out (inf: none)."""
    return math.inf if time_limit is None else time.perf_counter() + time_limit


def check_deadline(deadline: float | None) -> None:
    """Raise DeadlineExceeded once `deadline` (a `time.perf_counter()` value; None: none) has passed."""
    if deadline is not None and time.perf_counter() > deadline:
        raise DeadlineExceeded


class ChildFailed(RuntimeError):
    """The function raised in the child (its message is kept) or the child died."""


def can_fork() -> bool:
    return hasattr(os, "fork")


def call_before(fn: Callable[[], T], deadline: float) -> T | None:
    """`fn()` computed in a forked child; None if it is not done by `deadline` (time.perf_counter)."""
    if not can_fork():
        return fn()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compute, send, and leave without running any cleanup of the parent's
        os.close(read_fd)
        _child(fn, write_fd)
    os.close(write_fd)
    try:
        payload = _read_until(read_fd, deadline)
    finally:
        os.close(read_fd)
        _kill_and_reap(pid)
    if payload is None:
        return None
    try:
        ok, value = pickle.loads(payload)
    except (pickle.UnpicklingError, EOFError, ValueError):
        raise ChildFailed("the child process died before it sent its result") from None
    if not ok:
        raise ChildFailed(value)
    return value


def _child(fn: Callable[[], object], write_fd: int) -> None:
    code = 0
    try:
        # Ctrl-C is for the parent, which kills this child when it stops waiting.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
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


def _read_until(fd: int, deadline: float) -> bytes | None:
    """Everything written to `fd` until its end, or None if `deadline` comes first."""
    chunks = []
    while True:
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            return None
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _kill_and_reap(pid: int) -> None:
    """SIGKILL (harmless if the child has finished: it is then a zombie) and wait for it."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
