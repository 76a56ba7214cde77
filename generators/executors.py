"""Where pack jobs run: in this process, in local worker processes, or on Dask.

Covers: the `Executor` interface the pack runner uses (submit, results as
they complete, close, abort; `call`/`outcome` for other tasks a plan runs
where the jobs run), `JobResult` and `PuzzleFailed`, and the life of local workers:
they are spawned with SIGINT blocked and then ignore it, so Ctrl-C reaches
only the parent, which alone reports it (no worker tracebacks, even during
start-up); they die with the parent whatever kills it, kill -9 included —
by `prctl(PR_SET_PDEATHSIG)` on Linux (`mobius.cpmodel.processes`) and a
parent-pid watchdog thread everywhere — and with them the multiprocessing
resource tracker, which exits once no process holds its pipe (and says
nothing: see `start_quiet_resource_tracker`); an aborted run kills them,
with whatever they started, before anything else, instead of waiting for
their current jobs. A Dask scheduler is connected to before
anything is written, and asked who it is, within a bounded wait for the
whole handshake; a bad address, or a peer that is not a Dask scheduler, is
an `InputError`; on Dask the spec travels once per worker and the jobs of a
worker that dies run again elsewhere, while a scheduler lost mid-pack (every
job it held is gone with it) is `SchedulerLost`, for the pack to say in one
line, distributed's own logging of it (tracebacks of its reconnection)
silenced.

Leaves out: what a job computes (the pack specs) and the pack directory
(`pack.py`).
"""

from __future__ import annotations

import functools
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any, Protocol

from mobius.cpmodel.errors import InputError
from mobius.cpmodel.inputs import shown
from mobius.cpmodel.processes import ORPHAN_EXIT, die_with_parent, kill_tree

# How often a worker checks that its parent is still there (the portable
# fallback to PR_SET_PDEATHSIG): a dead parent's workers stop within this.
WATCHDOG_INTERVAL_S = 1.0
# Waiting longer than this for a Dask scheduler means a wrong address or a
# cluster that is down; saying so beats hanging.
DASK_CONNECT_TIMEOUT_S = 10
# A peer that accepted the connection has this much longer to answer who it
# is (so that a refused connection is reported as such, at the timeout).
DASK_ANSWER_GRACE_S = 2
# A closed connection can reach the pack before the client has noticed that its
# scheduler is gone; the client is given this long to notice before the error
# is taken for what it says.
DASK_LOSS_NOTICE_S = 5.0
DASK_LOSS_POLL_S = 0.05


class ClusterError(RuntimeError):
    """The cluster could not finish a job (its workers kept dying)."""


class SchedulerLost(ClusterError):
    """The connection to the Dask scheduler was lost: the jobs it held, done or not, are gone with it."""


class PuzzleFailed(Exception):
    """A job could not make its puzzle from its input (e.g. no fill within
    its budget); the pack's plan gives the next attempt something else to try.
    `proven`: the input can never give a puzzle (the fill is impossible)."""

    def __init__(self, reason: str, *, proven: bool = False) -> None:
        super().__init__(reason)
        self.proven = proven


@dataclass(frozen=True)
class JobResult:
    index: int
    puzzle: dict[str, Any] | None  # None when the job failed
    wall_s: float
    failure: str = ""  # why the job failed
    proven: bool = False  # the failure is proven, not a budget running out
    # CPU seconds of the process running the job meanwhile: unlike the wall time, it hardly moves with
    # what else the machine runs (children, such as a CP-SAT fill's, are not counted).
    cpu_s: float = 0.0


def timed_job(spec: Any, index: int, avoid: Any) -> JobResult:
    start, cpu = time.perf_counter(), time.process_time()
    try:
        puzzle = spec.run_job(index, avoid)
    except PuzzleFailed as exc:
        return JobResult(index, None, time.perf_counter() - start, str(exc), exc.proven,
                         time.process_time() - cpu)
    return JobResult(index, puzzle, time.perf_counter() - start, cpu_s=time.process_time() - cpu)


class Executor(Protocol):
    def submit(self, spec: Any, index: int, avoid: Any) -> Any: ...
    def as_completed(self, handles: list[Any]) -> Iterator[JobResult]: ...
    # Any other picklable, pure task (a pack plan's work ahead, e.g. pattern draws):
    # `call` starts it where the jobs run, `outcome` waits for its value.
    def call(self, fn: Callable[..., Any], *args: Any) -> Any: ...
    def outcome(self, handle: Any) -> Any: ...
    def close(self) -> None: ...
    def abort(self) -> None: ...


class InlineExecutor:
    """Runs each job in this process when its result is asked for."""

    def submit(self, spec: Any, index: int, avoid: Any) -> Any:
        return (spec, index, avoid)

    def as_completed(self, handles: list[Any]) -> Iterator[JobResult]:
        for spec, index, avoid in handles:
            yield timed_job(spec, index, avoid)

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        return functools.partial(fn, *args)

    def outcome(self, handle: Any) -> Any:
        return handle()

    def close(self) -> None:
        pass

    def abort(self) -> None:
        pass


# --- local worker processes ------------------------------------------------------------

def init_worker(parent_pid: int) -> None:
    """First thing in every worker: leave Ctrl-C to the parent and die with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked by the parent while spawning
    die_with_parent(parent_pid)
    # Where the kernel cannot be asked (not Linux), a watchdog notices the parent's death.
    threading.Thread(target=_watch_parent, args=(parent_pid,), name="parent-watchdog", daemon=True).start()


def _watch_parent(parent_pid: int) -> None:
    while True:
        time.sleep(WATCHDOG_INTERVAL_S)
        if os.getppid() != parent_pid:  # re-parented: the parent is gone
            os._exit(ORPHAN_EXIT)


def start_quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker now, with its stderr on /dev/null.

    The pool's queues hold named POSIX semaphores that the tracker (a process
    the pool starts, sharing this one's stderr) unlinks should this process
    die before it does; after a kill -9 it also printed two lines about
    "leaked semaphore objects", which are no news then. It still unlinks them.
    """
    from multiprocessing import resource_tracker

    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no stderr at all: nothing to keep quiet
        resource_tracker.ensure_running()
        return
    quiet = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(quiet, 2)
        resource_tracker.ensure_running()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(quiet)


@contextmanager
def sigint_blocked() -> Iterator[None]:
    """Block SIGINT in this thread meanwhile; children spawned now inherit the block.

    A Ctrl-C in the meantime stays pending and reaches this process when the
    block ends, so it is delayed, never lost.
    """
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class LocalExecutor:
    """Local worker processes (spawned, so no solver state is shared by fork)."""

    def __init__(self, workers: int) -> None:
        start_quiet_resource_tracker()
        with sigint_blocked():
            self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"),
                                            initializer=init_worker, initargs=(os.getpid(),))

    def submit(self, spec: Any, index: int, avoid: Any) -> Future[JobResult]:
        with sigint_blocked():  # submitting is when the pool spawns its workers
            return self.pool.submit(timed_job, spec, index, avoid)

    def as_completed(self, handles: list[Future[JobResult]]) -> Iterator[JobResult]:
        pending = set(handles)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()

    def call(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        with sigint_blocked():
            return self.pool.submit(fn, *args)

    def outcome(self, handle: Future[Any]) -> Any:
        return handle.result()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)

    def abort(self) -> None:
        """Stop now: kill the workers mid-job (with what they started), then drop the jobs not started.

        Killing comes first: `shutdown` forgets the worker processes, and a
        worker left alive runs its job to the end, which the exit of this
        process then waits for.
        """
        # ProcessPoolExecutor has no public way to stop running jobs before Python 3.14.
        workers = list((getattr(self.pool, "_processes", None) or {}).values())
        for process in workers:
            if process.is_alive():  # not reaped yet, so its pid is still its own
                kill_tree(process.pid)
        self.pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.join(timeout=WATCHDOG_INTERVAL_S)


# --- Dask ------------------------------------------------------------------------------

class DaskExecutor:
    """Jobs on an existing Dask cluster (`mobius-puzzles[dask]`).

    The spec goes to the cluster once per pack, as the result of a task of
    its own that the jobs depend on: each worker fetches it once (not once
    a job), and the scheduler keeps the copy it needs to make it again. Data
    put on the workers with `scatter` would instead be lost with the workers
    holding it, failing every job still to run.

    A worker that dies mid-pack costs only time: the scheduler runs its
    unfinished jobs, and makes again the results it held, on the others. That
    is safe because a job is a pure function of its arguments (spec, index,
    what to avoid): a rerun gives the same puzzle, so the pack's bytes do not
    depend on which worker ran what, or how often. A job that keeps killing
    its workers is given up after Dask's `distributed.scheduler.allowed-failures`
    (3 by default) and reported as `ClusterError`.
    """

    def __init__(self, scheduler: Any) -> None:
        try:
            from dask.distributed import Client
        except ImportError:
            raise InputError("the dask executor needs the optional extra: pip install 'mobius-puzzles[dask]'") \
                from None
        # A scheduler address, or a ready Client (the tests pass an in-process one, whose logging is theirs).
        self.owned = not isinstance(scheduler, Client)
        if self.owned:
            silence_distributed_logging()
        self.client = scheduler if not self.owned else connect_dask(Client, scheduler)
        self.address = str(scheduler) if self.owned else str(self.client.scheduler.address)
        self.specs: dict[int, tuple[Any, Any]] = {}  # id(spec) -> (spec, the future holding it)

    @contextmanager
    def watching(self) -> Iterator[None]:
        """An error in the block while the client has lost its scheduler is `SchedulerLost`, whatever form
        it took (a cancelled future, a closed connection): the pack then says one thing, once."""
        try:
            yield
        except Exception as exc:
            if not self.lost(exc):
                raise
            raise SchedulerLost(f"the Dask scheduler {shown(self.address)} was lost (it stopped, or the "
                                "connection to it failed)") from None

    def lost(self, error: Exception) -> bool:
        """Whether the client has lost its scheduler, waiting a moment for it to notice after `error`
        when that is a connection's (closed, reset, timed out) or a cancelled future."""
        if isinstance(error, (OSError, CancelledError)):
            deadline = time.monotonic() + DASK_LOSS_NOTICE_S
            while self.client.status == "running" and time.monotonic() < deadline:
                time.sleep(DASK_LOSS_POLL_S)
        return self.client.status != "running"

    def submit(self, spec: Any, index: int, avoid: Any) -> Any:
        # pure=False: the same arguments twice (a rerun) must run again.
        # retries=0: a job that raises would raise again (it is deterministic);
        # lost workers are not failures and need no retries.
        with self.watching():
            return self.client.submit(timed_job, self.shipped(spec), index, avoid, pure=False, retries=0)

    def shipped(self, spec: Any) -> Any:
        """The future whose result is `spec`, made at the first job of the spec."""
        if id(spec) not in self.specs:  # the spec is kept too, so its id stays its own
            self.specs[id(spec)] = (spec, self.client.submit(same, spec, pure=False))
        return self.specs[id(spec)][1]

    def as_completed(self, handles: list[Any]) -> Iterator[JobResult]:
        from dask.distributed import KilledWorker, as_completed

        with self.watching():
            for future in as_completed(handles):
                try:
                    result = future.result()
                except KilledWorker as exc:
                    raise ClusterError(f"a pack job was given up after the Dask workers running it died: {exc}; "
                                       "the worker logs say why (often their memory limit)") from None
                yield result

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        with self.watching():
            return self.client.submit(fn, *args, pure=False, retries=0)

    def outcome(self, handle: Any) -> Any:
        return next(self.as_completed([handle]))

    def close(self) -> None:
        self.specs.clear()
        if self.owned:
            self.client.close()

    def abort(self) -> None:
        self.close()


def same(value: Any) -> Any:
    """The task that hands a value to the tasks depending on it."""
    return value


def silence_distributed_logging() -> None:
    """Distributed's loggers in this process say only what is CRITICAL.

    A lost scheduler made the client log screenfuls of tracebacks (its
    attempts to reconnect) before the pack's own line; the pack says
    what happened, and what a failed job means, itself. Only loggers that
    distributed configured have a level of their own; the others take their
    parent's, set here too.
    """
    names = [name for name in logging.root.manager.loggerDict if name.startswith("distributed.")]
    for name in ["distributed", *names]:
        logging.getLogger(name).setLevel(logging.CRITICAL)


def connect_dask(client_class: Any, address: str) -> Any:
    """A Client of the scheduler at `address`, or an InputError saying why there is none.

    The scheduler is asked who it is first, within `DASK_CONNECT_TIMEOUT_S`
    for the whole exchange: Dask's own connect bounds the TCP connection but
    not its handshake, so a peer that accepts and stays silent (an HTTP
    server waiting for a request) hung the pack, and one that answers at
    once with something else (an HTTP error page) was read as a message of
    exabytes.
    """
    _identify_scheduler(address)
    try:
        return client_class(address, timeout=DASK_CONNECT_TIMEOUT_S)
    except (OSError, ValueError, TypeError, TimeoutError) as exc:
        raise InputError(f"cannot reach the Dask scheduler {shown(address)}: {exc}") from None


def _identify_scheduler(address: str) -> None:
    """Return if a Dask scheduler answers at `address` within the time allowed; raise InputError if not.

    The exchange runs in a thread of its own that is given up at the
    deadline: cancelling Dask's read of a silent peer did not always end it.
    """
    import asyncio

    answer: dict[str, Any] = {}

    def ask() -> None:
        try:
            answer["identity"] = asyncio.run(_identity(address))
        except Exception as exc:  # handed to the waiting thread, which says what it means
            answer["error"] = exc

    thread = threading.Thread(target=ask, name="dask-identity", daemon=True)
    thread.start()
    thread.join(DASK_CONNECT_TIMEOUT_S + DASK_ANSWER_GRACE_S)
    where = f"cannot reach the Dask scheduler {shown(address)}"
    if thread.is_alive():
        raise InputError(f"{where}: it did not answer as a Dask scheduler within "
                         f"{DASK_CONNECT_TIMEOUT_S + DASK_ANSWER_GRACE_S} s")
    error = answer.get("error")
    if isinstance(error, (OSError, ValueError, TypeError)):  # refused, unreachable, not an address
        raise InputError(f"{where}: {error}")
    if error is not None:  # whatever Dask makes of a peer that speaks another protocol
        raise InputError(f"{where}: the peer does not speak Dask's protocol ({type(error).__name__})")
    identity = answer.get("identity")
    if not isinstance(identity, dict) or identity.get("type") != "Scheduler":
        raise InputError(f"{where}: the peer is not a Dask scheduler")


async def _identity(address: str) -> Any:
    """What the scheduler at `address` says it is (its `identity` reply)."""
    from distributed.comm import connect

    comm = await connect(address, timeout=DASK_CONNECT_TIMEOUT_S)
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def make_executor(kind: str, workers: int, scheduler: Any = None) -> Executor:
    if kind == "dask":
        if scheduler is None:
            raise InputError("--executor dask needs --scheduler ADDRESS")
        return DaskExecutor(scheduler)
    if kind != "local":
        raise InputError(f"unknown executor {shown(kind)}; expected local or dask")
    return InlineExecutor() if workers <= 1 else LocalExecutor(workers)
