"""Run solvers × instances × repeats, each run in its own process.

Covers:
- `run_jobs`: every run in a fresh Python process in a session of its own,
  which builds the problem, solves it with the solver's own time limit (the
  primary limit), verifies any answer with the family's independent
  verifier and reports peak memory. Solvers that keep tables get the
  user's cache (`mobius.generators.cache`), or an empty temporary store for an
  instance that asks for cold tables (`table_store`). The parent holds a hard wall-clock
  backstop of limit + grace and kills the child with everything it started
  past it (`mobius.cpmodel.processes.kill`: an outside solver such as Qxw dies
  too): the run becomes TIMEOUT with a note. Children die with the parent,
  kill -9 included. `config.jobs` runs go at once;
- `Record`, one row of results, with the machine and package versions.
  `wall_s` is the time the solver reports; starting Python, building the
  problem and the imports in `WARM_IMPORTS` happen before its clock starts.
  Peak memory is the whole child's (interpreter, word list and libraries
  included); `setup_rss_mb`, taken before solving, is the floor to compare.

A solver whose `available()` gives a reason is left
out of the plan with it rather than filling the records with ERROR rows; a
problem its `supports()` refuses is recorded as ERROR with the reason,
without running it.

Leaves out: which instances exist (`suites.py`), which solvers run
(`solver_plan.py`), whether their answers agree (`agreement.py`), tables and
plots (`report.py`), and any printing (progress goes to an `on_record` callback).
"""

from __future__ import annotations

import contextlib
import importlib
import numbers
import os
import pickle
import platform
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from importlib import metadata
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from mobius.benchmarks.solver_plan import SolverPlan
from mobius.benchmarks.suites import COLD_TABLES, FAMILIES, Instance
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.processes import kill, spawn
from mobius.cpmodel.solver import (
    SolveResult,
    Status,
    get_solver,
    parse_spec,
    register,
)
from mobius.cpmodel.store import DirectoryStore, TableStore, attach_tables
from mobius.generators.cache import user_store

Registrations = Mapping[tuple[str, str], str]  # (family, name) -> "module:Class"

# Solvers check their own deadline every few hundred nodes or hand it to a
# library, and CP-SAT can overshoot by a second or two on a loaded machine;
# ten seconds past the limit only trips on a solver that ignores its limit.
BACKSTOP_GRACE_S = 10.0
# Starting Python, importing OR-Tools and loading a 70k-word list takes a few
# seconds on a busy machine; building the problem is not the solver's time.
SETUP_LIMIT_S = 120.0
# Modules some solvers import lazily inside solve() (the slider solvers ask
# `mobius.cpmodel.slider.group`, hence networkx, about reachability): imported in
# the child before the clock starts, so a one-off import of up to a second on
# a busy machine does not swamp the times of small instances.
WARM_IMPORTS = ("numpy", "networkx", "mobius.cpmodel.slider.group")
# Enough of the verifier's complaints to see what went wrong.
MAX_VERIFY_ERRORS_KEPT = 5

DECIDED = (Status.SOLVED.value, Status.UNSAT.value)


# --- records ----------------------------------------------------------------------

@dataclass(frozen=True)
class Record:
    """One run. `wall_s` is the solver's own time (the backstop's for a killed run)."""

    suite: str
    instance: str
    family: str
    solver: str  # the full spec, e.g. "reference:select=mrv,inference=fc"
    solver_name: str
    solver_options: dict[str, Any]
    repeat: int
    seed: int
    time_limit_s: float | None
    status: str  # a Status value
    elapsed_s: float  # the whole child process, as the parent saw it
    wall_s: float | None = None
    length: int | None = None  # slider: moves in the answer
    optimal: bool | None = None  # slider: the solver claims an optimal answer
    verified: bool | None = None  # None: no answer to verify
    verify_errors: list[str] = field(default_factory=list)
    expected: str | None = None
    expected_length: int | None = None
    max_length: int | None = None
    note: str = ""
    stats: dict[str, int | float] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)  # the solver's free-text notes
    setup_rss_mb: float | None = None  # the child after building the problem, before solving
    peak_rss_mb: float | None = None  # the child (and any program it ran) at its peak
    python_version: str = ""
    ortools_version: str = ""
    numpy_version: str = ""
    cpu_cores: int = 0
    cpu_model: str = ""
    solution: Any = None  # JSON only: filled rows or the moves

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def decided(self) -> bool:
        return self.status in DECIDED


def _package_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "absent"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> str:
    """One line naming the machine, for the head of a results table."""
    return f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def environment() -> dict[str, Any]:
    """The machine and package versions stamped on every record."""
    return {"python_version": platform.python_version(), "ortools_version": _package_version("ortools"),
            "numpy_version": _package_version("numpy"), "cpu_cores": os.cpu_count() or 0,
            "cpu_model": cpu_model()}


# --- the child process -----------------------------------------------------------

@dataclass(frozen=True)
class Job:
    instance: Instance
    solver: str
    repeat: int
    seed: int
    time_limit: float | None


def _vm_hwm_mb(pid: int | str) -> float | None:
    """Peak resident memory of a process since it started its program, from /proc (Linux)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    return None


def _peak_rss_mb() -> float | None:
    """This process's peak, or that of a program it ran and waited for (Qxw) if higher.

    Not RUSAGE_SELF: a child keeps the ru_maxrss of the parent it was forked
    from, while VmHWM starts afresh with the new program."""
    own = _vm_hwm_mb("self")
    programs_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux
    return max(own or 0.0, round(programs_kib / 1024, 1)) or None


def _plain_stats(stats: Mapping[str, Any]) -> dict[str, int | float]:
    """Solver counters as plain ints and floats (numpy numbers included), so they pickle and serialise."""
    plain: dict[str, int | float] = {}
    for key, value in stats.items():
        if isinstance(value, numbers.Integral):
            plain[str(key)] = int(value)
        elif isinstance(value, numbers.Real):
            plain[str(key)] = float(value)
    return plain


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0]


def _outcome(instance: Instance, problem: Any, result: SolveResult) -> dict[str, Any]:
    """What the child reports about one result, the verifier's verdict included."""
    family = FAMILIES[instance.family]
    outcome: dict[str, Any] = {"status": result.status.value, "wall_s": result.wall_s,
                               "stats": _plain_stats(result.stats)}
    if result.notes:
        outcome["notes"] = dict(result.notes)
    if result.status is not Status.SOLVED:
        return outcome
    if result.solution is None:
        return {**outcome, "verified": False, "verify_errors": ["SOLVED without a solution"]}
    try:
        errors = family.verify(problem, result.solution)
        outcome["solution"] = family.encode(problem, result.solution)
        outcome["length"] = family.length(result.solution)
    except Exception as exc:  # a malformed answer is a failed verification, not a crash
        errors = [f"the verifier could not read the answer: {_describe(exc)}"]
    outcome.update(verified=not errors, verify_errors=errors[:MAX_VERIFY_ERRORS_KEPT])
    if outcome.get("length") is not None:
        outcome["optimal"] = result.optimal is True  # unknown counts as not proven optimal
    return outcome


@contextlib.contextmanager
def table_store(instance: Instance) -> Iterator[TableStore]:
    """Where a run keeps its tables: the user's cache, or an empty temporary store (removed after the run)
    for an instance whose params ask for cold tables (``"tables": "cold"``, to time building them)."""
    if instance.params.get("tables") != COLD_TABLES:
        yield user_store()
        return
    with tempfile.TemporaryDirectory(prefix="mobius-cold-tables-") as directory:
        yield DirectoryStore(Path(directory))


def solve_in_child(conn: Connection, job: Job, registrations: Registrations) -> None:
    """Build, solve, verify; send ("ready", rss) once the problem is built, then ("done", outcome)."""
    try:
        for (family, name), target in registrations.items():
            register(family, name, target)
        problem = FAMILIES[job.instance.family].build(job.instance.params)
        with table_store(job.instance) as store:
            # building the solver compiles what it compiles: start-up, before the clock
            solver = attach_tables(get_solver(job.instance.family, job.solver), store)
            for module in WARM_IMPORTS:
                importlib.import_module(module)
            conn.send(("ready", _peak_rss_mb()))
            refusal = solver.supports(problem)
            if refusal:
                outcome = {"status": Status.ERROR.value, "note": f"not supported: {refusal}"}
            else:
                result = solver.solve(problem, time_limit=job.time_limit, seed=job.seed)
                outcome = _outcome(job.instance, problem, result)
    except Exception as exc:  # reported in the record: one broken run must not stop the suite
        outcome = {"status": Status.ERROR.value, "note": _describe(exc)}
    outcome["peak_rss_mb"] = _peak_rss_mb()
    conn.send(("done", outcome))


def child_entry(message_fd: int) -> None:
    """The child's program: (sys.path, registrations, Job) pickled on stdin, messages out on `message_fd`."""
    paths, registrations, job = pickle.load(sys.stdin.buffer)
    sys.path[:0] = [p for p in paths if p not in sys.path]  # e.g. where a test's own solver lives
    with Connection(message_fd, readable=False) as conn:
        solve_in_child(conn, job, registrations)


# A plain program rather than multiprocessing's spawn, which would import the
# parent's __main__ (the whole CLI, matplotlib included) into every child.
_CHILD_PROGRAM = "import sys; from mobius.benchmarks.harness import child_entry; child_entry(int(sys.argv[1]))"


# --- the parent side --------------------------------------------------------------

_EOF = ("eof", None)


def _receive(conn: Connection, timeout: float | None) -> tuple[str, Any] | None:
    """The next message, _EOF if the child is gone, None if `timeout` passed first."""
    if not conn.poll(timeout):
        return None
    try:
        return conn.recv()
    except EOFError:
        return _EOF


def _await_outcome(conn: Connection, proc: subprocess.Popen[bytes], job: Job, grace: float) -> dict[str, Any]:
    message = _receive(conn, SETUP_LIMIT_S)
    if message is None:
        return {"status": Status.ERROR.value, "note": f"building the problem took over {SETUP_LIMIT_S:.0f} s"}
    kind, value = message
    if kind != "ready":
        return value if kind == "done" else _died(proc, "before solving")
    solve_started = time.perf_counter()
    backstop = None if job.time_limit is None else job.time_limit + grace
    message = _receive(conn, backstop)
    if message is None:
        return {"status": Status.TIMEOUT.value, "wall_s": time.perf_counter() - solve_started,
                "setup_rss_mb": value, "peak_rss_mb": _vm_hwm_mb(proc.pid),
                "note": f"killed by the backstop after {job.time_limit:g} s + {grace:g} s grace"}
    kind, outcome = message
    if kind != "done":
        return {**_died(proc, "while solving"), "setup_rss_mb": value}
    return {**outcome, "setup_rss_mb": value}


def _died(proc: subprocess.Popen[bytes], when: str) -> dict[str, Any]:
    try:
        code = proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        code = None
    return {"status": Status.ERROR.value, "note": f"the child process died {when} (exit code {code})"}


class _LiveChildren:
    """The children running now, so an interrupted suite can kill them all."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._procs: set[subprocess.Popen[bytes]] = set()

    def add(self, proc: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._procs.add(proc)

    def discard(self, proc: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._procs.discard(proc)

    def kill_all(self) -> None:
        with self._lock:
            procs = list(self._procs)
        for proc in procs:
            kill(proc)


def _send_job(proc: subprocess.Popen[bytes], job: Job, registrations: Registrations) -> None:
    try:
        with proc.stdin:  # type: ignore[union-attr]  # always a pipe here
            proc.stdin.write(pickle.dumps((list(sys.path), dict(registrations), job)))  # type: ignore[union-attr]
    except BrokenPipeError:  # the child died at once; reading its messages reports that
        pass


def run_job(job: Job, machine: Mapping[str, Any], *, grace: float = BACKSTOP_GRACE_S,
            registrations: Registrations | None = None, live: _LiveChildren | None = None) -> Record:
    """One run in a fresh Python process of its own session, under the backstop."""
    read_fd, write_fd = os.pipe()
    started = time.perf_counter()
    # A new session: a Ctrl-C at the terminal reaches the parent, which kills
    # the children with everything they started; they die with the parent too.
    proc = spawn([sys.executable, "-c", _CHILD_PROGRAM, str(write_fd)], stdin=subprocess.PIPE,
                 stdout=subprocess.DEVNULL, pass_fds=(write_fd,))
    os.close(write_fd)  # the child holds the only writing end, so its death reads as EOF
    if live is not None:
        live.add(proc)
    try:
        with Connection(read_fd, writable=False) as conn:
            _send_job(proc, job, registrations or {})
            outcome = _await_outcome(conn, proc, job, grace)
    finally:
        kill(proc)
        proc.wait()
        if live is not None:
            live.discard(proc)
    return make_record(job, outcome, time.perf_counter() - started, machine)


def make_record(job: Job, outcome: Mapping[str, Any], elapsed: float, machine: Mapping[str, Any]) -> Record:
    name, options = parse_spec(job.solver)
    instance = job.instance
    return Record(suite=instance.suite, instance=instance.name, family=instance.family, solver=job.solver,
                  solver_name=name, solver_options=options, repeat=job.repeat, seed=job.seed,
                  time_limit_s=job.time_limit, elapsed_s=elapsed, expected=instance.expected,
                  expected_length=instance.expected_length, max_length=instance.max_length,
                  note="; ".join(filter(None, (instance.note, outcome.get("note", "")))),
                  **{k: v for k, v in outcome.items() if k != "note"}, **machine)


@dataclass(frozen=True)
class RunConfig:
    time_limit: float | None
    repeats: int = 1
    jobs: int = 1  # runs at once; timings are only fair with one on a small machine
    seed: int = 0  # repeat r runs with solver seed `seed + r`
    grace: float = BACKSTOP_GRACE_S
    extra_solvers: Registrations = field(default_factory=dict)  # registered here and in each child

    def __post_init__(self) -> None:
        if self.time_limit is not None and self.time_limit <= 0:
            raise InputError(f"the time limit must be positive, got {self.time_limit}")
        if self.repeats < 1 or self.jobs < 1:
            raise InputError(f"repeats and jobs must be at least 1, got {self.repeats} and {self.jobs}")


def make_jobs(instances: Sequence[Instance], plan: SolverPlan, config: RunConfig) -> list[Job]:
    return [Job(instance, spec, repeat, config.seed + repeat, config.time_limit)
            for instance in instances
            for spec in plan.by_family.get(instance.family, ())
            for repeat in range(config.repeats)]


def run_jobs(jobs: Sequence[Job], config: RunConfig,
             on_record: Callable[[Record, int, int], None] | None = None) -> list[Record]:
    """Run every job (`config.jobs` at once); records come back in job order."""
    for (family, name), target in config.extra_solvers.items():
        register(family, name, target)
    machine = environment()
    live = _LiveChildren()
    records: list[Record | None] = [None] * len(jobs)
    executor = ThreadPoolExecutor(max_workers=config.jobs)
    try:
        futures = {executor.submit(run_job, job, machine, grace=config.grace, registrations=config.extra_solvers,
                                   live=live): i for i, job in enumerate(jobs)}
        for done, future in enumerate(as_completed(futures), start=1):
            record = future.result()
            records[futures[future]] = record
            if on_record is not None:
                on_record(record, done, len(jobs))
    except BaseException:
        live.kill_all()
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
    return [r for r in records if r is not None]
