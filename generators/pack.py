"""Building a puzzle pack: jobs in rounds, executors, atomic files, resume.

Covers: the pack directory (`manifest.json`, `puzzles/NNNN.json` and the
exports beside them), per-puzzle seeds derived from the pack seed and the
index, running jobs in this process, in local worker processes or on a Dask
cluster, writing each finished puzzle at once and atomically (temporary file
+ rename) after the independent verifier has passed it, and `resume`, which
completes an interrupted pack so that it equals an uninterrupted run.

Scheduling. Puzzles are made in rounds of `ROUND_SIZE` jobs, a number fixed
here and never taken from the worker count. Every job of a round gets its
input from the pack's *plan* (`PackPlan`: for crosswords the pattern, the
words it may not use and the words it should rather not) as it stood when
the round was formed, i.e. after all rounds up to `ROUNDS_IN_FLIGHT` back
had been judged; the round's results are then judged in index order, each
against everything accepted before it, earlier puzzles of the same round
included. A result the plan refuses (a clash with
an earlier answer or fill) and a job that could not make its puzzle
(`PuzzleFailed`) are tried again at the head of the next round, with the
attempt number raised; the plan gives up on a puzzle only when it has
nothing left to try, and the pack then says what it could not make, keeping
everything finished. Each puzzle file is therefore a function of the pack
parameters and the index only: worker counts and executors change timings,
which go to the manifest, never into a puzzle file. Before the pack is
marked complete, the plan checks the whole pack afresh from the puzzle files
(`final_problems`).

Leaves out: what a job makes (`crossword_pack.py`, `slider_pack.py`), what
a kind of puzzle plans (`crossword_plan.py`) and the formats of the exports
(`generators/export/`).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from multiprocessing import get_context
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from cpmodel.errors import InputError
from generators.export.html import pack_index
from generators.puzzles import encode

# Jobs per round: each round's jobs run side by side and see only the
# puzzles of earlier rounds, so this — never the worker count — fixes what
# every puzzle is. Eight keep two to eight workers busy while a clash inside
# a round (redone in the next) stays rare.
ROUND_SIZE = 8
# Rounds running at once: the next round is formed (from what the plan knew
# before the round now running) while it runs, so no worker waits for the
# slowest job of a round; a round's jobs see the rounds up to two back.
ROUNDS_IN_FLIGHT = 2

MANIFEST = "manifest.json"
INDEX = "index.html"
PUZZLE_DIR = "puzzles"


class PackError(RuntimeError):
    """A pack that cannot be built or resumed as asked."""


class VerificationError(RuntimeError):
    """A generated puzzle failed its independent check: a bug, never written."""


class PuzzleFailed(Exception):
    """A job could not make its puzzle from its input (e.g. no fill within
    its budget); the plan gives the next attempt something else to try.
    `proven`: the input can never give a puzzle (the fill is impossible)."""

    def __init__(self, reason: str, *, proven: bool = False) -> None:
        super().__init__(reason)
        self.proven = proven


@dataclass(frozen=True)
class Avoid:
    """A job's input from the pack plan: what it must not produce and what it is given."""

    keys: frozenset[str] = frozenset()  # keys of puzzles made already
    words: frozenset[str] = frozenset()  # answers it may not use
    attempt: int = 0  # earlier tries of this puzzle
    assignment: Any = None  # what the plan gives this job (a crossword: its pattern and word preferences)


@dataclass(frozen=True)
class JobResult:
    index: int
    puzzle: dict[str, Any] | None  # None when the job failed
    wall_s: float
    failure: str = ""  # why the job failed
    proven: bool = False  # the failure is proven, not a budget running out


class PackSpec(Protocol):
    """What the pack runner needs of a kind of puzzle."""

    kind: str
    count: int
    seed: int

    def parameters(self) -> dict[str, Any]: ...
    def run_job(self, index: int, avoid: Avoid) -> dict[str, Any]: ...
    def key(self, puzzle: Mapping[str, Any]) -> str: ...
    def answers(self, puzzle: Mapping[str, Any]) -> frozenset[str]: ...
    def verify(self, puzzle: Mapping[str, Any]) -> list[str]: ...
    def exports(self, puzzle: Mapping[str, Any]) -> dict[str, bytes]: ...
    def describe(self) -> dict[str, Any]: ...


class PackPlan(Protocol):
    """The pack-wide state a kind of puzzle keeps between rounds (see the
    module docstring); every method is deterministic."""

    notes: list[str]  # what the user should know, e.g. that the pattern space is used up; grows as the pack runs

    def job_input(self, index: int, attempt: int) -> Avoid | None: ...  # None: nothing left to try
    def judge(self, index: int, puzzle: Mapping[str, Any]) -> str | None: ...  # why it may not join the pack
    def record(self, index: int, puzzle: Mapping[str, Any]) -> None: ...
    def failed(self, index: int, reason: str, *, made: bool, proven: bool) -> None: ...
    def gave_up(self, index: int) -> str: ...  # why job_input returned None
    def attempt_of(self, puzzle: Mapping[str, Any]) -> int | None: ...  # the attempt that made a stored puzzle
    def final_problems(self, puzzles: Mapping[int, Mapping[str, Any]]) -> dict[int, str]: ...
    def report(self, puzzles: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]: ...


@runtime_checkable
class PlannedSpec(Protocol):
    """A pack spec with a plan of its own (crosswords); others get `KeyPlan`."""

    def plan(self) -> PackPlan: ...


# Attempts of one puzzle before `KeyPlan` gives up on it.
MAX_KEY_ATTEMPTS = 50


class KeyPlan:
    """The plan of a kind with nothing to share between puzzles but their
    keys (sliders): a job avoids the keys of earlier rounds, and a puzzle
    whose key is taken is made again."""

    def __init__(self, spec: PackSpec) -> None:
        self.spec = spec
        self.keys: dict[str, int] = {}
        self.notes: list[str] = []

    def job_input(self, index: int, attempt: int) -> Avoid | None:
        return Avoid(frozenset(self.keys), attempt=attempt) if attempt < MAX_KEY_ATTEMPTS else None

    def judge(self, index: int, puzzle: Mapping[str, Any]) -> str | None:
        key = self.spec.key(puzzle)
        return f"the same puzzle as puzzle {self.keys[key] + 1}" if key in self.keys else None

    def record(self, index: int, puzzle: Mapping[str, Any]) -> None:
        self.keys[self.spec.key(puzzle)] = index

    def failed(self, index: int, reason: str, *, made: bool, proven: bool) -> None:
        pass

    def gave_up(self, index: int) -> str:
        return f"every one of {MAX_KEY_ATTEMPTS} attempts repeated an earlier puzzle"

    def attempt_of(self, puzzle: Mapping[str, Any]) -> int | None:
        return None  # unknown: a stored puzzle's job is run again when replayed

    def final_problems(self, puzzles: Mapping[int, Mapping[str, Any]]) -> dict[int, str]:
        first: dict[str, int] = {}
        problems = {}
        for index in sorted(puzzles):
            key = self.spec.key(puzzles[index])
            if key in first:
                problems[index] = f"the same puzzle as puzzle {first[key] + 1}"
            first.setdefault(key, index)
        return problems

    def report(self, puzzles: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
        return {}


def plan_of(spec: PackSpec) -> PackPlan:
    return spec.plan() if isinstance(spec, PlannedSpec) else KeyPlan(spec)


@dataclass
class Progress:
    """What a progress display is told after each puzzle."""

    total: int
    done: int = 0
    rejected: int = 0  # attempts redone: clashes and failed jobs
    started: float = field(default_factory=time.monotonic)
    notes: list[str] = field(default_factory=list)  # the plan's notes so far


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from the pack seed and a path of parts (index, attempt…)."""
    text = "/".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that a reader sees the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def puzzle_path(out: Path, index: int) -> Path:
    return out / PUZZLE_DIR / f"{index + 1:04d}.json"


def tool_version() -> str:
    try:
        return version("mobius-puzzles")
    except PackageNotFoundError:
        return "unknown"


# --- executors -------------------------------------------------------------------------

def _timed_job(spec: PackSpec, index: int, avoid: Avoid) -> JobResult:
    start = time.perf_counter()
    try:
        puzzle = spec.run_job(index, avoid)
    except PuzzleFailed as exc:
        return JobResult(index, None, time.perf_counter() - start, str(exc), exc.proven)
    return JobResult(index, puzzle, time.perf_counter() - start)


class Executor(Protocol):
    def submit(self, spec: PackSpec, index: int, avoid: Avoid) -> Any: ...
    def as_completed(self, handles: list[Any]) -> Iterator[JobResult]: ...
    def close(self) -> None: ...


class InlineExecutor:
    """Runs each job in this process when its result is asked for."""

    def submit(self, spec: PackSpec, index: int, avoid: Avoid) -> Any:
        return (spec, index, avoid)

    def as_completed(self, handles: list[Any]) -> Iterator[JobResult]:
        for spec, index, avoid in handles:
            yield _timed_job(spec, index, avoid)

    def close(self) -> None:
        pass


class LocalExecutor:
    """Local worker processes (spawned, so no solver state is shared by fork)."""

    def __init__(self, workers: int) -> None:
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"))

    def submit(self, spec: PackSpec, index: int, avoid: Avoid) -> Future[JobResult]:
        return self.pool.submit(_timed_job, spec, index, avoid)

    def as_completed(self, handles: list[Future[JobResult]]) -> Iterator[JobResult]:
        pending = set(handles)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


class DaskExecutor:
    """Jobs on an existing Dask cluster (`mobius-puzzles[dask]`)."""

    def __init__(self, scheduler: Any) -> None:
        try:
            from dask.distributed import Client
        except ImportError:
            raise PackError("the dask executor needs the optional extra: pip install 'mobius-puzzles[dask]'") \
                from None
        # A scheduler address, or a ready Client (the tests pass an in-process one).
        self.client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
        self.owned = not isinstance(scheduler, Client)

    def submit(self, spec: PackSpec, index: int, avoid: Avoid) -> Any:
        # pure=False: the same arguments twice (a rerun) must run again.
        return self.client.submit(_timed_job, spec, index, avoid, pure=False)

    def as_completed(self, handles: list[Any]) -> Iterator[JobResult]:
        from dask.distributed import as_completed

        for future in as_completed(handles):
            yield future.result()

    def close(self) -> None:
        if self.owned:
            self.client.close()


def make_executor(kind: str, workers: int, scheduler: Any = None) -> Executor:
    if kind == "dask":
        if scheduler is None:
            raise InputError("--executor dask needs --scheduler ADDRESS")
        return DaskExecutor(scheduler)
    if kind != "local":
        raise InputError(f"unknown executor {kind!r}; expected local or dask")
    return InlineExecutor() if workers <= 1 else LocalExecutor(workers)


# --- the pack directory ------------------------------------------------------------------

def _read_manifest(out: Path) -> dict[str, Any] | None:
    path = out / MANIFEST
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"unreadable manifest: {exc}", source=str(path)) from None


def _load_finished(spec: PackSpec, out: Path) -> dict[int, dict[str, Any]]:
    """Puzzles already on disk that still pass their check (a damaged one is redone)."""
    found: dict[int, dict[str, Any]] = {}
    for index in range(spec.count):
        path = puzzle_path(out, index)
        if not path.exists():
            continue
        try:
            puzzle = json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError):
            continue
        if not spec.verify(puzzle):
            found[index] = puzzle
    return found


def _prepare(spec: PackSpec, out: Path, resume: bool) -> dict[int, dict[str, Any]]:
    manifest = _read_manifest(out)
    if manifest is None:
        if resume and out.exists() and any((out / PUZZLE_DIR).glob("*.json")):
            raise PackError(f"{out}: puzzles without a manifest; cannot tell how they were made")
        return {}
    if not resume:
        raise PackError(f"{out} already holds a pack; use --resume to complete it or choose a new directory")
    for stale in (out / PUZZLE_DIR).glob(".*.tmp"):
        stale.unlink()  # a write cut short by the interruption
    if manifest.get("parameters") != json.loads(json.dumps(spec.parameters())):
        raise PackError(f"{out}: --resume with different parameters than the pack was started with "
                        f"(it was made by: {manifest.get('command', '?')})")
    return _load_finished(spec, out)


def _write_manifest(spec: PackSpec, out: Path, command: str, puzzles: Mapping[int, Mapping[str, Any]],
                    timings: Mapping[int, float], started: float, complete: bool,
                    report: Mapping[str, Any] | None = None) -> dict[str, Any]:
    manifest = {
        "tool": "mobius-puzzles", "version": tool_version(), "command": command, "kind": spec.kind,
        "seed": spec.seed, "parameters": spec.parameters(), **spec.describe(), **(report or {}),
        "status": "complete" if complete else "incomplete",
        "counts": {"requested": spec.count, "written": len(puzzles),
                   "rejected": sum(int(p.get("rejected", 0)) for p in puzzles.values())},
        "timings": {"wall_s": round(time.monotonic() - started, 3),
                    "per_puzzle_s": {f"{i + 1:04d}": round(t, 4) for i, t in sorted(timings.items())}},
    }
    write_atomic(out / MANIFEST, (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())
    return manifest


def _commit(spec: PackSpec, out: Path, index: int, puzzle: dict[str, Any]) -> None:
    problems = spec.verify(puzzle)
    if problems:
        raise VerificationError(f"puzzle {index + 1} failed its independent check (a bug; not written): "
                                + "; ".join(problems[:5]))
    write_atomic(puzzle_path(out, index), encode(puzzle))


def build_pack(spec: PackSpec, out: Path, *, workers: int = 1, executor: str = "local", scheduler: Any = None,
               resume: bool = False, command: str = "",
               on_progress: Callable[[Progress], None] | None = None) -> dict[int, dict[str, Any]]:
    """Build (or complete, with `resume`) the pack in `out`; returns the puzzles by index."""
    out = Path(out)
    started = time.monotonic()
    stored = _prepare(spec, out, resume)
    plan = plan_of(spec)
    puzzles: dict[int, dict[str, Any]] = {}
    timings: dict[int, float] = {}
    progress = Progress(spec.count, notes=plan.notes)
    if on_progress:
        on_progress(progress)
    _write_manifest(spec, out, command, stored, timings, started, complete=False)

    def accept(result: JobResult) -> None:
        if stored.get(result.index) is not result.puzzle:  # a stored puzzle is on disk already
            _commit(spec, out, result.index, result.puzzle)
        puzzles[result.index] = result.puzzle
        progress.done = len(puzzles)
        if on_progress:
            on_progress(progress)

    runner = make_executor(executor, workers, scheduler)
    try:
        not_made = _run_rounds(spec, plan, runner, stored, accept, timings, progress)
        problems = {} if not_made else plan.final_problems(puzzles)
    finally:
        runner.close()
        _write_manifest(spec, out, command, {**stored, **puzzles}, timings, started, complete=False,
                        report=plan.report(puzzles))
    if not_made:
        listed = "; ".join(f"puzzle {i + 1}: {why}" for i, why in sorted(not_made.items())[:5])
        raise PackError(f"{len(not_made)} of {spec.count} puzzles could not be made ({listed}); the other "
                        f"{len(puzzles)} are written in {out}")
    if problems:
        listed = "; ".join(f"puzzle {i + 1}: {why}" for i, why in sorted(problems.items())[:5])
        raise VerificationError(f"the finished pack fails its final check (a bug; not marked complete): {listed}")
    for index in range(spec.count):
        for name, data in spec.exports(puzzles[index]).items():
            write_atomic(out / PUZZLE_DIR / f"{index + 1:04d}{name}", data)
    manifest = _write_manifest(spec, out, command, puzzles, timings, started, complete=True,
                               report=plan.report(puzzles))
    write_atomic(out / INDEX, pack_index(manifest, [puzzles[i] for i in range(spec.count)]).encode("utf-8"))
    return puzzles


def _run_rounds(spec: PackSpec, plan: PackPlan, runner: Executor, stored: Mapping[int, dict[str, Any]],
                accept: Callable[[JobResult], None], timings: dict[int, float], progress: Progress) -> dict[int, str]:
    """Make every puzzle, round by round (see the module docstring); the
    puzzles given up, with the reason.

    `ROUNDS_IN_FLIGHT` rounds run at once, so that workers never wait for a
    round's slowest job: round r is formed when round r − ROUNDS_IN_FLIGHT
    has been judged. A stored puzzle stands in for its job when the plan
    says it was made by the same attempt, so a resumed pack replays the
    rounds of the interrupted run exactly."""
    queue = deque((index, 0) for index in range(spec.count))
    in_flight: deque[_Round] = deque()
    not_made: dict[int, str] = {}
    while queue or in_flight:
        while queue and len(in_flight) < ROUNDS_IN_FLIGHT:
            in_flight.append(_start_round(spec, plan, runner, stored, queue, not_made))
        current = in_flight.popleft()
        for result in runner.as_completed(current.handles):
            current.results[result.index] = result
            timings[result.index] = timings.get(result.index, 0.0) + result.wall_s
        retry = []
        for index in sorted(current.attempts):
            result, attempt = current.results[index], current.attempts[index]
            reason = result.failure if result.puzzle is None else plan.judge(index, result.puzzle)
            if reason:
                plan.failed(index, reason, made=result.puzzle is not None, proven=result.proven)
                retry.append((index, attempt + 1))
                progress.rejected += 1
                continue
            plan.record(index, result.puzzle)
            accept(result)
        queue.extendleft(reversed(retry))  # redone first, in index order
    return not_made


@dataclass
class _Round:
    attempts: dict[int, int]  # index -> attempt
    handles: list[Any]
    results: dict[int, JobResult]


def _start_round(spec: PackSpec, plan: PackPlan, runner: Executor, stored: Mapping[int, dict[str, Any]],
                 queue: deque[tuple[int, int]], not_made: dict[int, str]) -> _Round:
    """Take the next ROUND_SIZE slots, ask the plan for their inputs and submit their jobs."""
    current = _Round({}, [], {})
    for _ in range(min(ROUND_SIZE, len(queue))):
        index, attempt = queue.popleft()
        job = plan.job_input(index, attempt)
        if job is None:
            not_made[index] = plan.gave_up(index)
            continue
        current.attempts[index] = attempt
        puzzle = stored.get(index)
        if puzzle is not None and plan.attempt_of(puzzle) == attempt:
            current.results[index] = JobResult(index, puzzle, 0.0)
        else:
            current.handles.append(runner.submit(spec, index, job))
    return current
