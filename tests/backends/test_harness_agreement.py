"""The outside backends inside the benchmark harness: each run in its own
process, every answer verified there, and the agreement check over them
and the project's own solvers (SAT/UNSAT, optimal slider lengths)."""

from __future__ import annotations

import pytest

from mobius.benchmarks.agreement import check_agreement
from mobius.benchmarks.harness import make_jobs, run_jobs, RunConfig
from mobius.benchmarks.solver_plan import plan_solvers
from mobius.benchmarks.suites import CROSSWORD, SLIDER, get_suite, scramble_instance, vanbeek_instances

TIME_LIMIT = 30.0


@pytest.mark.slow
def test_backends_agree_with_the_project_solvers_in_the_harness() -> None:
    suite = get_suite("quick")
    instances = [*vanbeek_instances("quick", ("05.05", "23.01")), scramble_instance("quick", "grid:3x3", 14, 0, 0)]
    plan = plan_solvers(suite, {CROSSWORD, SLIDER}, ["reference", "bfs", "gecode", "choco", "sat"])
    running = {spec for specs in plan.by_family.values() for spec in specs} - {"reference", "bfs"}
    if not running:
        pytest.skip("; ".join(plan.left_out))
    config = RunConfig(time_limit=TIME_LIMIT)
    records = run_jobs(make_jobs(instances, plan, config), config)
    assert check_agreement(records) == []
    for record in records:
        assert record.decided, (record.instance, record.solver, record.status, record.note)
        if record.status == "SOLVED":
            assert record.verified is True
        if record.family == SLIDER:
            assert record.optimal is True
