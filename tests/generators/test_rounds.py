"""The scheduler of pack rounds (`generators/rounds.py`): how many jobs run side by side, what
each job is shown of the puzzles accepted before it, and where a refused puzzle is tried again.
A fake plan and executor record what happens; no puzzle is made."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from mobius.generators.executors import JobResult
from mobius.generators.rounds import ROUND_SIZE, ROUNDS_IN_FLIGHT, Avoid, run_rounds

WINDOW = ROUND_SIZE * ROUNDS_IN_FLIGHT


@dataclass
class Spec:
    count: int


@dataclass
class Plan:
    """Shows each job the indices accepted so far; refuses the first attempt of `refuse`."""

    refuse: frozenset[int] = frozenset()
    accepted: list[int] = field(default_factory=list)
    jobs: list[tuple[int, int]] = field(default_factory=list)  # (index, attempt) in the order jobs were formed
    notes: list[str] = field(default_factory=list)

    def job_input(self, index: int, attempt: int) -> Avoid:
        self.jobs.append((index, attempt))
        return Avoid(keys=frozenset(str(i) for i in self.accepted), attempt=attempt)

    def judge(self, index: int, puzzle: Mapping[str, Any]) -> str | None:
        return "a clash" if index in self.refuse and puzzle["attempt"] == 0 else None

    def settle(self, index: int, puzzle: dict[str, Any]) -> dict[str, Any]:
        return puzzle

    def record(self, index: int, puzzle: Mapping[str, Any]) -> None:
        self.accepted.append(index)

    def failed(self, index: int, reason: str, *, puzzle: Mapping[str, Any] | None, proven: bool) -> None:
        pass

    def gave_up(self, index: int) -> str:
        return "never"

    def attempt_of(self, puzzle: Mapping[str, Any]) -> int | None:
        return None


class Executor:
    """Runs nothing until asked; finishes a round's jobs last first, and counts the jobs submitted
    and not yet finished."""

    def __init__(self) -> None:
        self.running = 0
        self.most = 0
        self.seen: dict[tuple[int, int], frozenset[str]] = {}

    def submit(self, spec: Any, index: int, avoid: Avoid) -> tuple[int, Avoid]:
        self.running += 1
        self.most = max(self.most, self.running)
        self.seen[index, avoid.attempt] = avoid.keys
        return index, avoid

    def as_completed(self, handles: list[tuple[int, Avoid]]) -> Iterator[JobResult]:
        for index, avoid in reversed(handles):
            self.running -= 1
            yield JobResult(index, {"attempt": avoid.attempt}, 0.0)


def _run(count: int, refuse: frozenset[int] = frozenset()) -> tuple[Plan, Executor]:
    plan, runner = Plan(refuse), Executor()
    not_made = run_rounds(Spec(count), plan, runner, {}, lambda result: None, {}, lambda: None)
    assert not_made == {}
    return plan, runner


def test_at_most_two_rounds_of_jobs_run_at_once() -> None:
    _, runner = _run(5 * WINDOW)
    assert runner.most == WINDOW


@pytest.mark.parametrize("refuse", [frozenset(), frozenset({1, 6, 7, 12})])
def test_each_job_sees_every_puzzle_accepted_before_the_rounds_in_flight(refuse: frozenset[int]) -> None:
    plan, runner = _run(6 * ROUND_SIZE, refuse)
    assert sorted(plan.accepted) == list(range(6 * ROUND_SIZE))
    for (index, attempt), keys in runner.seen.items():
        # Only the jobs formed in the rounds still in flight are hidden from it, never more than a window's.
        hidden = {i for i in range(index) if str(i) not in keys}
        assert len(hidden) < WINDOW, (index, attempt, sorted(hidden))
    assert len(runner.seen) == 6 * ROUND_SIZE + len(refuse)


def test_a_refused_puzzle_is_tried_again_at_the_head_of_the_next_round() -> None:
    plan, _ = _run(4 * ROUND_SIZE, frozenset({1}))
    # Judged with the first round, while the rounds after it up to ROUNDS_IN_FLIGHT were formed:
    # the next round formed begins with it, ahead of the puzzles not yet tried.
    assert plan.jobs[ROUNDS_IN_FLIGHT * ROUND_SIZE] == (1, 1)
    assert plan.jobs.count((1, 1)) == 1 and plan.jobs.index((1, 0)) == 1
