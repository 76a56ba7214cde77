"""Making a pack's puzzles in rounds, as its plan directs.

Covers: `Avoid`, a job's input from the plan; the `PackPlan` protocol (the
pack-wide state a kind of puzzle keeps: crosswords in `crossword/plan.py`)
and `KeyPlan`, the plan of kinds that share nothing but their keys; and
`run_rounds`, the scheduler. Puzzles are made in rounds of `ROUND_SIZE`
jobs, a number fixed here and never taken from the worker count. Every job
of a round gets its input from the plan as it stood when the round was
formed, i.e. after all rounds up to `ROUNDS_IN_FLIGHT` back had been
judged; the round's results are then judged in index order, each against
everything accepted before it, earlier puzzles of the same round included;
one accepted is settled by the plan before it is recorded (a crossword's
clues chosen again knowing those of every puzzle before it). A result the
plan refuses (a clash with an earlier answer or fill) and a job that could
not make its puzzle (`PuzzleFailed`) are tried again at the
head of the next round, with the attempt number raised; the plan gives up
on a puzzle only when it has nothing left to try. Each puzzle is therefore
a function of the pack parameters and its index only: worker counts and
executors change timings, never a puzzle.

Leaves out: where jobs run (`executors.py`), the pack directory and its
files (`pack.py`) and what a job makes (`crossword/pack.py`, `slider/pack.py`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol, runtime_checkable

from mobius.generators.executors import Executor, JobResult
from mobius.generators.memo import WorkMemo, digest

# Jobs per round: each round's jobs run side by side and see only the
# puzzles of earlier rounds, so this — never the worker count — fixes what
# every puzzle is. With two rounds in flight, four keep up to eight workers
# busy. A job cannot see the answers of the up to seven jobs judged before it
# that were made beside it, and the more there are, the more of its answers
# clash and are redone, each time with the worst-answer stage run again: on
# five seeds' default 30-packs, rounds of eight redid 276 attempts, whose
# stage took 54 s of CPU in all, and rounds of four 196 and 40 s, for the same
# quality (benchmarks/RESULTS.md, "Rounds of four").
ROUND_SIZE = 4
# Rounds running at once: the next round is formed (from what the plan knew
# before the round now running) while it runs, so no worker waits for the
# slowest job of a round; a round's jobs see the rounds up to two back.
ROUNDS_IN_FLIGHT = 2


@dataclass(frozen=True)
class Avoid:
    """A job's input from the pack plan: what it must not produce and what it is given."""

    keys: frozenset[str] = frozenset()  # keys of puzzles made already
    attempt: int = 0  # earlier tries of this puzzle
    assignment: Any = None  # what the plan gives this job (a crossword: its pattern and word preferences)


class PackPlan(Protocol):
    """The pack-wide state a kind of puzzle keeps between rounds (see the
    module docstring); every method is deterministic."""

    notes: list[str]  # what the user should know, e.g. that the pattern space is used up; grows as the pack runs

    def job_input(self, index: int, attempt: int) -> Avoid | None: ...  # None: nothing left to try
    def judge(self, index: int, puzzle: Mapping[str, Any]) -> str | None: ...  # why it may not join the pack
    # the puzzle as it joins the pack, once judged (the same object if the plan changes nothing)
    def settle(self, index: int, puzzle: dict[str, Any]) -> dict[str, Any]: ...
    def record(self, index: int, puzzle: Mapping[str, Any]) -> None: ...
    # `puzzle`: what the job made if the plan refused it, None if it made nothing
    def failed(self, index: int, reason: str, *, puzzle: Mapping[str, Any] | None, proven: bool) -> None: ...
    def gave_up(self, index: int) -> str: ...  # why job_input returned None
    def attempt_of(self, puzzle: Mapping[str, Any]) -> int | None: ...  # the attempt that made a stored puzzle
    def final_problems(self, puzzles: Mapping[int, Mapping[str, Any]]) -> dict[int, str]: ...
    def report(self, puzzles: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]: ...


@runtime_checkable
class PlannedSpec(Protocol):
    """A pack spec with a plan of its own (crosswords); others get `KeyPlan`."""

    def plan(self, runner: Executor | None = None) -> PackPlan: ...  # runner: where its work ahead may run


# Attempts of one puzzle before `KeyPlan` gives up on it.
MAX_KEY_ATTEMPTS = 50


class KeyPlan:
    """The plan of a kind with nothing to share between puzzles but their
    keys (sliders): a job avoids the keys of earlier rounds, and a puzzle
    whose key is taken is made again."""

    def __init__(self, spec: Any) -> None:
        self.spec = spec
        self.keys: dict[str, int] = {}
        self.notes: list[str] = []

    def job_input(self, index: int, attempt: int) -> Avoid | None:
        return Avoid(frozenset(self.keys), attempt=attempt) if attempt < MAX_KEY_ATTEMPTS else None

    def judge(self, index: int, puzzle: Mapping[str, Any]) -> str | None:
        key = self.spec.key(puzzle)
        return f"the same puzzle as puzzle {self.keys[key] + 1}" if key in self.keys else None

    def settle(self, index: int, puzzle: dict[str, Any]) -> dict[str, Any]:
        return puzzle

    def record(self, index: int, puzzle: Mapping[str, Any]) -> None:
        self.keys[self.spec.key(puzzle)] = index

    def failed(self, index: int, reason: str, *, puzzle: Mapping[str, Any] | None, proven: bool) -> None:
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


def plan_of(spec: Any, runner: Executor | None = None) -> PackPlan:
    return spec.plan(runner) if isinstance(spec, PlannedSpec) else KeyPlan(spec)


def run_rounds(spec: Any, plan: PackPlan, runner: Executor, stored: Mapping[int, dict[str, Any]],
               accept: Callable[[JobResult], None], timings: dict[int, tuple[float, float]],
               redone: Callable[[], None], waiting: Callable[[int, int], None] | None = None,
               memo: WorkMemo | None = None) -> dict[int, str]:
    """Make every puzzle, round by round (see the module docstring); the
    puzzles given up, with the reason.

    `ROUNDS_IN_FLIGHT` rounds run at once, so that workers never wait for a
    round's slowest job: round r is formed when round r − ROUNDS_IN_FLIGHT
    has been judged. A stored puzzle stands in for its job when the plan
    says it was made by the same attempt, so a resumed pack replays the
    rounds of the interrupted run exactly; so does a job's result kept in
    `memo` by an earlier run of the same pack (one stopped before its first
    puzzle), which stands in for the job with that input. `waiting(index,
    attempt)` is told the first job of each round the run waits for (what a
    progress line shows)."""
    queue = deque((index, 0) for index in range(spec.count))
    in_flight: deque[_Round] = deque()
    not_made: dict[int, str] = {}
    while queue or in_flight:
        while queue and len(in_flight) < ROUNDS_IN_FLIGHT:
            in_flight.append(_start_round(spec, plan, runner, stored, queue, not_made, memo))
        current = in_flight.popleft()
        running = sorted(current.attempts.keys() - current.results.keys())
        if waiting and running:
            waiting(running[0], current.attempts[running[0]])
        for result in runner.as_completed(current.handles):
            current.results[result.index] = result
            if memo is not None:
                memo.put(current.keys[result.index], _kept(result))
            wall, cpu = timings.get(result.index, (0.0, 0.0))
            timings[result.index] = (wall + result.wall_s, cpu + result.cpu_s)
        retry = []
        for index in sorted(current.attempts):
            result, attempt = current.results[index], current.attempts[index]
            reason = result.failure if result.puzzle is None else plan.judge(index, result.puzzle)
            if reason:
                plan.failed(index, reason, puzzle=result.puzzle, proven=result.proven)
                retry.append((index, attempt + 1))
                redone()
                continue
            puzzle = plan.settle(index, result.puzzle)
            plan.record(index, puzzle)
            accept(result if puzzle is result.puzzle else replace(result, puzzle=puzzle))
        queue.extendleft(reversed(retry))  # redone first, in index order
    return not_made


@dataclass
class _Round:
    attempts: dict[int, int]  # index -> attempt
    handles: list[Any]
    results: dict[int, JobResult]
    keys: dict[int, str]  # index -> the memo key of its job's input


def _start_round(spec: Any, plan: PackPlan, runner: Executor, stored: Mapping[int, dict[str, Any]],
                 queue: deque[tuple[int, int]], not_made: dict[int, str], memo: WorkMemo | None) -> _Round:
    """Take the next ROUND_SIZE slots, ask the plan for their inputs and submit their jobs
    (those a stored puzzle or the memo does not stand in for)."""
    current = _Round({}, [], {}, {})
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
            continue
        key = digest(index, job)
        kept = memo.get(key) if memo is not None else None
        if isinstance(kept, dict):
            current.results[index] = JobResult(index, kept.get("puzzle"), 0.0, str(kept.get("failure", "")),
                                               bool(kept.get("proven")))
        else:
            current.keys[index] = key
            current.handles.append(runner.submit(spec, index, job))
    return current


def _kept(result: JobResult) -> dict[str, Any]:
    """What the memo keeps of a job's result: everything a replay judges (not its timings, which a replay
    did not spend)."""
    return {"puzzle": result.puzzle, "failure": result.failure, "proven": result.proven}
