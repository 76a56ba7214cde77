"""The outside backends keep their time limit: their encodings stop at the
deadline, their children and programs are killed at it, an answer that comes
after it is TIMEOUT, and a hard grid under a short limit ends in TIMEOUT.

Behaviour only: the mechanism that ended each run, and bounds generous
enough to tell a run that stopped from one that went on; how close to the
limit runs end is measured by benchmarks/time_limits.py, not asserted here.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, ClassVar

import pytest

from mobius.cpmodel import choco, sat
from mobius.cpmodel.crossword import tables as tables_module
from mobius.cpmodel.crossword.grid import make_grid, read_grid
from mobius.cpmodel.crossword.problem import FillProblem, FillRules
from mobius.cpmodel.crossword.sat import fill_cnf
from mobius.cpmodel.crossword.tabled import TableAnswer, TableBackend, TableRun
from mobius.cpmodel.crossword.tables import FillTables, fill_tables
from mobius.cpmodel.deadline import ANSWER_GRACE_S, DeadlineExceeded, deadline_of
from mobius.cpmodel.instances.minizinc import crossword_dzn
from mobius.cpmodel.minizinc import run_minizinc
from mobius.cpmodel.slider.board import SliderProblem, default_goal, preset
from mobius.cpmodel.slider.sat import horizon_cnf
from mobius.cpmodel.slider.timed import HorizonRun, solve_by_horizons
from mobius.cpmodel.solver import Status
from mobius.dictionaries import from_words, load
from tests.backends.conftest import CROSSWORD_BACKENDS, usable

VANBEEK = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "crossword" / "vanbeek"
# Far more than any of these runs takes once stopped, far less than one that is not.
STOPPED_WITHIN_S = 4.0
LIMIT_S = 0.5
SQUARE_WORDS = ["CAT", "ORE", "WED", "COW", "ARE", "TED"]
# Korf's first instance (57 moves): far beyond the time-expanded models in seconds.
KORF_1 = (14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3)


def square() -> FillProblem:
    return FillProblem(make_grid(["...", "...", "..."]), from_words(SQUARE_WORDS), FillRules(min_length=3))


def korf_1() -> SliderProblem:
    board = preset("grid:4x4")
    return SliderProblem(board, KORF_1, default_goal(board))


@pytest.mark.parametrize("encode", [fill_cnf, crossword_dzn], ids=["cnf", "dzn"])
def test_a_table_encoding_stops_at_the_deadline(encode: Any) -> None:
    tables = fill_tables(square())
    assert tables is not None
    encode(tables)  # without a deadline it is built
    with pytest.raises(DeadlineExceeded):
        encode(tables, 0.0)


def test_laying_out_the_tables_stops_at_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    # The pre-pass itself finishes (it looks at the deadline on its own); the
    # layout after it, a million rows on the largest grids, must look too.
    real = tables_module.candidate_words
    monkeypatch.setattr(tables_module, "candidate_words",
                        lambda problem, arc_consistent, deadline: real(problem, arc_consistent=arc_consistent))
    with pytest.raises(DeadlineExceeded):
        fill_tables(square(), deadline=0.0)


def test_the_slider_encoding_stops_at_the_deadline() -> None:
    horizon_cnf(korf_1(), 41)
    with pytest.raises(DeadlineExceeded):
        horizon_cnf(korf_1(), 41, 0.0)


def spy_on_kills(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[float]:
    """The deadlines `module` hands `call_before` (at which its child is killed), recorded as it runs."""
    given: list[float] = []
    real = module.call_before

    def recording(fn: Any, at: float) -> Any:
        given.append(at)
        return real(fn, at)

    monkeypatch.setattr(module, "call_before", recording)
    return given


def test_a_sat_child_is_killed_at_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    usable("crossword", "sat")
    kills = spy_on_kills(monkeypatch, sat)
    due = deadline_of(LIMIT_S)
    started = time.perf_counter()
    answer = sat.solve_encoded(lambda _: time.sleep(60), "glucose4", deadline=due)  # an encoding that never ends
    assert answer.status is Status.TIMEOUT and answer.stats == {"killed_at_deadline": 1}
    assert kills == [due + ANSWER_GRACE_S]  # Glucose too, which may read its interrupt flag minutes late
    assert time.perf_counter() - started < LIMIT_S + STOPPED_WITHIN_S


def test_a_sat_encoding_past_the_deadline_is_timeout_not_a_failure() -> None:
    usable("crossword", "sat")

    def encode(_: float) -> sat.Encoded[None]:
        raise DeadlineExceeded

    answer = sat.solve_encoded(encode, "cadical195", deadline=deadline_of(60))
    assert answer.status is Status.TIMEOUT and "killed_at_deadline" not in answer.stats


def test_a_choco_child_is_killed_at_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    kills = spy_on_kills(monkeypatch, choco)
    due = deadline_of(LIMIT_S)
    stats: dict[str, int | float] = {}
    started = time.perf_counter()
    # A model whose posting never ends: Choco's own limit would start only after it.
    status, value = choco.run_choco(lambda: time.sleep(60), due, stats, {})
    assert (status, value, stats) == (Status.TIMEOUT, None, {"killed_at_deadline": 1})
    assert kills == [due + ANSWER_GRACE_S]
    assert time.perf_counter() - started < LIMIT_S + STOPPED_WITHIN_S


def test_minizinc_is_killed_at_the_deadline(tmp_path: Path) -> None:
    # A stand-in that ignores --time-limit, as MiniZinc does while it flattens a large instance.
    fake = tmp_path / "minizinc"
    fake.write_text("#!/bin/sh\nexec sleep 60\n")
    fake.chmod(0o755)
    started = time.perf_counter()
    run = run_minizinc(str(fake), "gecode", "x", deadline=deadline_of(LIMIT_S), seed=0)
    assert run.status is Status.TIMEOUT and run.stats == {"killed_at_deadline": 1}
    assert time.perf_counter() - started < LIMIT_S + STOPPED_WITHIN_S


def sleep_past(due: float) -> None:
    time.sleep(max(0.0, due + ANSWER_GRACE_S - time.perf_counter()) + 0.05)


@pytest.mark.parametrize("ending", ["late", "deadline"])
def test_the_table_frame_turns_a_late_answer_or_a_passed_deadline_into_timeout(ending: str) -> None:
    problem = square()
    reference = fill_tables(problem)
    assert reference is not None

    class Engine(TableBackend):
        name: ClassVar[str] = "test-engine"

        def solve_tables(self, tables: FillTables, run: TableRun, seed: int) -> TableAnswer:
            if ending == "deadline":
                raise DeadlineExceeded
            sleep_past(run.deadline)
            return Status.SOLVED, [allowed[0] for allowed in tables.allowed]

    result = Engine().solve(problem, time_limit=LIMIT_S)
    assert result.status is Status.TIMEOUT and result.solution is None
    assert ("answered_after_limit" in result.stats) is (ending == "late")


@pytest.mark.parametrize("ending", ["late", "deadline"])
def test_the_horizon_loop_turns_a_late_answer_or_a_passed_deadline_into_timeout(ending: str) -> None:
    def decide(horizon: int, due: float) -> tuple[Status, list[int] | None]:
        if ending == "deadline":
            raise DeadlineExceeded
        sleep_past(due)
        return Status.SOLVED, [0] * horizon

    run = HorizonRun()
    result = solve_by_horizons(korf_1(), "test-engine", decide, time_limit=LIMIT_S, max_horizon=None, run=run)
    assert result.status is Status.TIMEOUT and result.solution is None
    assert ("answered_after_limit" in result.stats) is (ending == "late")


@pytest.fixture(scope="module")
def hard_grid() -> FillProblem:
    """van Beek 23.06 from the system list: 1.2 million table rows, no fill, proven so only by CP-SAT in tens
    of seconds; an outside backend spends seconds building its model."""
    return FillProblem(read_grid(VANBEEK / "23.06.txt"), load("words"))


@pytest.mark.parametrize("spec", CROSSWORD_BACKENDS)
def test_a_hard_grid_under_a_short_limit_ends_in_timeout(spec: str, hard_grid: FillProblem) -> None:
    limit = 3.0
    solver = usable("crossword", spec)
    started = time.perf_counter()
    result = solver.solve(hard_grid, time_limit=limit)
    assert result.status is Status.TIMEOUT
    assert time.perf_counter() - started < limit + STOPPED_WITHIN_S

