"""The benchmark harness: solver lists, agreement, records, report maths, the
backstop kill, the Qxw adapter, and `mobius bench --suite quick` end to end.

Runs go through real child processes where the point is the process
machinery (records, backstop); agreement and report maths use fabricated
records. The test solvers below are imported by the children as
`test_harness:…`, this directory being put on the path they inherit.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from fnmatch import fnmatch
from pathlib import Path
from typing import ClassVar

import pytest
from typer.testing import CliRunner

from mobius.bench_cli import RESULT_FILES
from mobius.benchmarks import harness
from mobius.benchmarks.agreement import check_agreement
from mobius.benchmarks.harness import Job, Record, RunConfig, make_record, run_jobs
from mobius.benchmarks.solver_plan import parse_solver_list, plan_solvers
from mobius.benchmarks.report import (VIRTUAL_BEST, counters_table, instance_times, markdown_table, median_ratio,
                                      summarise, write_outputs)
from mobius.benchmarks.suites import CROSSWORD, SLIDER, SUITES, Instance, Suite, crossword_params, get_suite
from mobius.cpmodel import solver as solver_module
from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword import qxw as qxw_module
from mobius.cpmodel.crossword.problem import FillProblem, FillRules
from mobius.cpmodel.crossword.qxw import QxwSolver, find_qxw
from mobius.cpmodel.crossword.verify import verify
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.solver import SolveResult, SolverBase, Status, get_solver, option
from mobius.dictionaries import from_words, load
from mobius.generators.crossword.pattern_rules import PatternSpec
from mobius.generators.crossword.patterns import generate_pattern
from mobius.cli import app

HERE = Path(__file__).resolve().parent
THREE_BY_THREE = ["...", "...", "..."]
# Rows BAT ORE WED, columns BOW ARE TED: a fill with six different words.
SIX_WORDS = ["BAT", "ORE", "WED", "BOW", "ARE", "TED"]
# A word square: its only fills use each word twice.
SQUARE_WORDS = ["CAT", "ARE", "TEA"]


# --- test solvers (imported by the child processes) ------------------------------

@dataclass(frozen=True)
class SleepySolver(SolverBase):
    """Ignores its time limit; with `pidfile`, also starts a program and records its pid."""

    name: ClassVar[str] = "sleepy"

    pidfile: str = option("")

    def solve(self, problem: object, *, time_limit: float | None = None, seed: int = 0) -> SolveResult:
        if self.pidfile:
            program = subprocess.Popen(["sleep", "120"])
            Path(self.pidfile).write_text(str(program.pid), encoding="ascii")
        time.sleep(120)
        return SolveResult(Status.UNSAT, None, self.name, 120.0)


# --- helpers -------------------------------------------------------------------

def tiny_instance(tmp_path: Path, words: list[str], name: str = "tiny") -> Instance:
    word_file = tmp_path / f"{name}-words.txt"
    word_file.write_text("\n".join(words) + "\n", encoding="ascii")
    return Instance("test", name, CROSSWORD, crossword_params(make_grid(THREE_BY_THREE), str(word_file), 3))


@pytest.fixture(autouse=True)
def own_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs register their extra solvers in this process too: a registry of each test's own keeps
    them out of later tests (which list the registered solvers)."""
    monkeypatch.setattr(solver_module, "_REGISTRY", {family: dict(names) for family, names in
                                                     solver_module._REGISTRY.items()})


def record(solver: str = "a", instance: str = "i1", status: str = "SOLVED", wall_s: float | None = 1.0,
           **fields: object) -> Record:
    """A fabricated record: verified when SOLVED unless told otherwise."""
    defaults: dict[str, object] = {"verified": True if status == "SOLVED" else None}
    job = Job(Instance("s", instance, CROSSWORD, {}), solver, 0, 0, 10.0)
    base = make_record(job, {"status": status, "wall_s": wall_s, **defaults}, 1.0, {})
    return replace(base, **fields)


def slider_record(solver: str, length: int, **fields: object) -> Record:
    return record(solver, **{"family": SLIDER, "length": length, "optimal": True, **fields})


# --- solver lists and plans ------------------------------------------------------

@pytest.mark.parametrize("text, specs", [
    ("reference,cpsat", ["reference", "cpsat"]),
    ("reference:select=mrv,inference=fc,cpsat:workers=2", ["reference:select=mrv,inference=fc", "cpsat:workers=2"]),
    ("cpsat:workers=1;cpsat:workers=2", ["cpsat:workers=1", "cpsat:workers=2"]),
    (" reference ; qxw ", ["reference", "qxw"]),
])
def test_solver_lists_split_between_solvers_not_between_options(text: str, specs: list[str]) -> None:
    assert parse_solver_list(text) == specs


def test_plan_keeps_each_spec_for_the_families_that_know_it() -> None:
    plan = plan_solvers(get_suite("quick"), {CROSSWORD, SLIDER}, ["reference", "cpsat:workers=1", "bfs"])
    assert plan.by_family[CROSSWORD] == ("reference", "cpsat:workers=1")
    assert plan.by_family[SLIDER] == ("cpsat:workers=1", "bfs")


def test_plan_rejects_unknown_solvers_and_bad_options() -> None:
    with pytest.raises(InputError, match="nosuch"):
        plan_solvers(get_suite("quick"), {CROSSWORD}, ["nosuch"])
    with pytest.raises(InputError):
        plan_solvers(get_suite("quick"), {CROSSWORD}, ["reference:bogus=1"])


def test_plan_leaves_out_qxw_with_a_note_when_it_is_not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(qxw_module, "find_qxw", lambda: None)
    plan = plan_solvers(get_suite("quick"), {CROSSWORD}, ["reference", "qxw"])
    assert plan.by_family[CROSSWORD] == ("reference",)
    assert any("qxw" in note and "not installed" in note for note in plan.left_out)
    with pytest.raises(InputError):
        plan.require("qxw")


def test_suites_have_the_instances_the_issue_asks_for() -> None:
    assert len(get_suite("xw-vanbeek").build(0)) == 72
    korf = get_suite("slider-korf").build(0)
    assert len(korf) == 100 and korf[0].expected_length == 57
    assert [i.name for i in get_suite("slider-korf10").build(0)] == [i.name for i in korf[:10]]
    with pytest.raises(InputError, match="unknown suite"):
        get_suite("nope")


def test_a_generated_suite_is_the_same_in_any_process_and_changes_with_the_seed() -> None:
    """The seed decides the patterns: the same seed gives the same instances in a process with another
    hash seed, another seed gives other grids."""
    script = ("import dataclasses, json, sys; from mobius.benchmarks.suites import get_suite; "
              "print(json.dumps([dataclasses.asdict(i) for i in get_suite('xw-mobius').build(int(sys.argv[1]))]))")
    built = {seed: [dataclasses.asdict(i) for i in get_suite("xw-mobius").build(seed)] for seed in (3, 4)}
    child = subprocess.run([sys.executable, "-c", script, "3"], env={**os.environ, "PYTHONHASHSEED": "7"},
                           check=True, capture_output=True, text=True)
    assert json.loads(child.stdout) == built[3]
    grids = {seed: [i["params"]["grid"]["rows"] for i in instances] for seed, instances in built.items()}
    assert len(grids[3]) == len(grids[4]) > 0 and grids[3] != grids[4]


# --- agreement -----------------------------------------------------------------

def test_agreeing_runs_raise_nothing() -> None:
    runs = [record("a"), record("b"), record("c", status="TIMEOUT", wall_s=10.0), record("d", status="ERROR")]
    assert check_agreement(runs) == []


def test_sat_against_unsat_is_a_disagreement() -> None:
    found = check_agreement([record("a"), record("b", status="UNSAT")])
    assert len(found) == 1 and "disagree" in found[0].message and "UNSAT by b" in found[0].message


def test_an_answer_the_verifier_rejects_is_a_disagreement() -> None:
    found = check_agreement([record("a", verified=False, verify_errors=["light 1A reads 'XQZ'"])])
    assert any("verifier rejects" in d.message and "XQZ" in d.message for d in found)


def test_an_answer_against_the_expected_one_is_a_disagreement() -> None:
    found = check_agreement([record("a", expected="UNSAT")])
    assert any("expected UNSAT" in d.message for d in found)


def test_optimal_slider_solvers_must_agree_on_the_length() -> None:
    assert check_agreement([slider_record("bfs", 20), slider_record("astar", 20)]) == []
    found = check_agreement([slider_record("bfs", 20), slider_record("astar", 22)])
    assert any("optimal lengths differ" in d.message for d in found)
    # A solver that says it is not optimal is not held to the length.
    assert check_agreement([slider_record("bfs", 20), slider_record("greedy", 30, optimal=False)]) == []


def test_slider_lengths_are_checked_against_known_and_bounding_lengths() -> None:
    found = check_agreement([slider_record("idastar", 55, expected_length=57)])
    assert any("expected optimal length 57" in d.message for d in found)
    found = check_agreement([slider_record("idastar", 16, max_length=14)])
    assert any("14-move solution exists" in d.message for d in found)


def test_a_disagreement_makes_mobius_bench_exit_1(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fabricated = [record("reference", instance="05.05"), record("cpsat", instance="05.05", status="UNSAT")]
    # `mobius bench` imports the harness when it runs (not at start-up), so the harness is patched.
    monkeypatch.setattr(harness, "run_jobs", lambda jobs, config, on_record=None: fabricated)
    result = CliRunner().invoke(app, ["bench", "--suite", "quick", "--instances", "05.05",
                                      "--solvers", "reference,cpsat", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "DISAGREEMENT" in result.output and "UNSAT by cpsat" in result.output
    assert "DISAGREEMENTS" in (tmp_path / "report.md").read_text(encoding="utf-8")


# --- records and the child processes ----------------------------------------------

def test_a_run_records_answer_verdict_stats_memory_and_machine(tmp_path: Path) -> None:
    instance = tiny_instance(tmp_path, SIX_WORDS)
    (rec,) = run_jobs([Job(instance, "reference", 0, 7, 10.0)], RunConfig(time_limit=10.0))
    assert (rec.suite, rec.instance, rec.solver, rec.solver_name, rec.seed) == ("test", "tiny", "reference",
                                                                               "reference", 7)
    assert rec.status == "SOLVED" and rec.verified is True and rec.verify_errors == []
    assert rec.solution == ["BAT", "ORE", "WED"]
    assert rec.wall_s is not None and 0 <= rec.wall_s <= rec.elapsed_s
    assert "nodes" in rec.stats
    assert rec.peak_rss_mb is not None and rec.peak_rss_mb >= (rec.setup_rss_mb or 0) > 0
    assert rec.python_version and rec.ortools_version and rec.numpy_version and rec.cpu_model and rec.cpu_cores > 0

    write_outputs([rec], tmp_path / "out", baseline=None, disagreements=[], notes=[], meta={"suite": "test"})
    header = (tmp_path / "out" / "records.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    for column in ("suite", "instance", "solver", "solver_options", "repeat", "status", "wall_s", "stats",
                   "peak_rss_mb", "seed", "ortools_version", "numpy_version", "python_version", "cpu_cores",
                   "cpu_model", "verified"):
        assert column in header
    saved = json.loads((tmp_path / "out" / "records.json").read_text(encoding="utf-8"))
    assert saved["meta"] == {"suite": "test"} and saved["records"][0]["solution"] == ["BAT", "ORE", "WED"]
    assert {"report.md", "cactus-test-crossword.png", "cactus-test-crossword.svg"} <= \
        {p.name for p in (tmp_path / "out").iterdir()}
    assert (tmp_path / "out" / "cactus-test-crossword.png").read_bytes().startswith(b"\x89PNG")
    assert b"<svg" in (tmp_path / "out" / "cactus-test-crossword.svg").read_bytes()


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in state  # a zombie is dead, merely not yet reaped


def test_the_backstop_kills_a_solver_that_ignores_its_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(HERE))  # the child imports this module as test_harness
    pidfile = tmp_path / "sleep.pid"
    config = RunConfig(time_limit=0.5, grace=1.0,
                       extra_solvers={(CROSSWORD, "sleepy"): "test_harness:SleepySolver"})
    started = time.perf_counter()
    (rec,) = run_jobs([Job(tiny_instance(tmp_path, SIX_WORDS), f"sleepy:pidfile={pidfile}", 0, 0, 0.5)], config)
    assert rec.status == "TIMEOUT" and "backstop" in rec.note, rec.note
    assert rec.wall_s is not None and rec.wall_s >= 1.5
    assert time.perf_counter() - started < 60
    # The program the solver started went down with it.
    deadline = time.monotonic() + 5
    while _running(int(pidfile.read_text(encoding="ascii"))) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running(int(pidfile.read_text(encoding="ascii")))


def test_a_solver_that_cannot_be_built_in_the_child_is_an_error_record(tmp_path: Path) -> None:
    config = RunConfig(time_limit=5.0, extra_solvers={(CROSSWORD, "ghost"): "no_such_module_here:Ghost"})
    (rec,) = run_jobs([Job(tiny_instance(tmp_path, SIX_WORDS), "ghost", 0, 0, 5.0)], config)
    assert rec.status == "ERROR" and "no_such_module_here" in rec.note


# --- report maths --------------------------------------------------------------

def test_instance_time_is_the_median_over_repeats_with_undecided_as_infinite() -> None:
    runs = [record("a", "i1", wall_s=1.0), record("a", "i1", wall_s=3.0), record("a", "i1", wall_s=2.0),
            record("a", "i2", status="TIMEOUT", wall_s=10.0), record("a", "i2", status="TIMEOUT", wall_s=10.0),
            record("a", "i2", wall_s=4.0)]
    times = instance_times(runs)[("s", CROSSWORD)]["a"]
    assert times["i1"] == 2.0 and times["i2"] == math.inf


def test_ratio_is_the_median_of_per_instance_ratios_on_instances_both_decided() -> None:
    base = {"i1": 1.0, "i2": 2.0, "i3": 4.0, "i4": math.inf}
    other = {"i1": 3.0, "i2": 2.0, "i3": 2.0, "i4": 1.0}
    ratio, common = median_ratio(other, base)
    assert common == 3 and ratio == pytest.approx(1.0)  # ratios 3, 1, 0.5
    assert median_ratio({"i1": 0.0}, {"i1": 0.0}) == (1.0, 1)  # sub-millisecond times are floored, not divided


def test_summary_table_counts_statuses_and_times() -> None:
    runs = [record("base", "i1", wall_s=1.0), record("base", "i2", wall_s=2.0), record("base", "i3", wall_s=4.0),
            record("fast", "i1", wall_s=0.5), record("fast", "i2", wall_s=0.5),
            record("fast", "i3", status="TIMEOUT", wall_s=10.0)]
    (base, rows), = summarise(runs, "base").values()
    by_solver = {row.solver: row for row in rows}
    assert base == "base"
    fast = by_solver["fast"]
    assert (fast.decided, fast.instances, fast.solved, fast.timeout) == (2, 3, 2, 1)
    assert fast.median_s == 0.5 and fast.total_s == 1.0
    assert fast.ratio == pytest.approx(0.375) and fast.common == 2  # median of 0.5 and 0.25
    assert by_solver["base"].median_s == 2.0 and by_solver["base"].total_s == 7.0
    assert fast.par2_s == 21.0 and by_solver["base"].par2_s == 7.0  # the timeout counts twice the 10 s limit
    best = by_solver[VIRTUAL_BEST]  # per instance the best time of either: 0.5, 0.5, 4.0
    assert (best.decided, best.median_s, best.total_s, best.par2_s) == (3, 0.5, 5.0, 5.0)
    table = markdown_table(rows, base)
    assert "| fast | 2/3 | 2 | 0 | 1 | 0 | 0.500 | 1.000 | 21.000 | 0.38 | 2 |" in table
    assert "| *virtual best* | 3/3 | – | – | – | – | 0.500 | 5.000 | 5.000 | 0.50 | 3 |" in table  # ratios 0.5, 0.25, 1
    assert "**base** (baseline)" in table


def test_a_rejected_answer_decides_nothing_and_repeats_give_the_spread_of_par2() -> None:
    runs = [record("a", "i1", wall_s=1.0, repeat=0), record("a", "i1", wall_s=3.0, repeat=1),
            record("a", "i2", wall_s=2.0, repeat=0), record("a", "i2", wall_s=2.0, repeat=1, verified=False),
            record("a", "i2", wall_s=2.0, repeat=2, verified=False), record("a", "i1", wall_s=5.0, repeat=2)]
    (_, rows), = summarise(runs, "a").values()
    (a,) = rows  # one solver: no virtual best row
    assert a.decided == 1  # i2 was rejected in two of its three repeats
    assert a.par2_spread == (3.0, 23.0, 25.0)  # repeat 0: 1 + 2; repeat 1: 3 + 20; repeat 2: 5 + 20
    assert "PAR-2 over repeats (min–median–max)" in markdown_table(rows, "a")
    assert "3.000–23.000–25.000" in markdown_table(rows, "a")


# --- Qxw -----------------------------------------------------------------------

needs_qxw = pytest.mark.skipif(find_qxw() is None, reason="qxw is not installed (Debian package qxw)")


@needs_qxw
def test_qxw_fills_a_tiny_grid_and_the_verifier_accepts_it() -> None:
    problem = FillProblem(make_grid(THREE_BY_THREE), from_words(SIX_WORDS))
    result = QxwSolver().solve(problem, time_limit=30)
    assert result.status is Status.SOLVED
    assert verify(problem, result.solution) == []


@needs_qxw
def test_qxw_follows_the_repeat_rule() -> None:
    grid, words = make_grid(THREE_BY_THREE), from_words(SQUARE_WORDS)
    assert QxwSolver().solve(FillProblem(grid, words), time_limit=30).status is Status.UNSAT
    allowed = FillProblem(grid, words, FillRules(allow_repeats=True))
    result = QxwSolver().solve(allowed, time_limit=30)
    assert result.status is Status.SOLVED and verify(allowed, result.solution) == []


@needs_qxw
def test_qxw_agrees_with_the_reference_solver_across_the_mobius_seam() -> None:
    grid = generate_pattern(PatternSpec(7, 5, "mobius"), seed=11)
    problem = FillProblem(grid, load("en"), FillRules(min_length=3))
    assert any(light.seam_crossings for light in problem.lights.lights)
    ours = get_solver(CROSSWORD, "reference").solve(problem, time_limit=60)
    theirs = QxwSolver().solve(problem, time_limit=60)
    assert theirs.status is ours.status and ours.status in (Status.SOLVED, Status.UNSAT)
    if theirs.status is Status.SOLVED:
        assert verify(problem, theirs.solution) == []


def test_qxw_reports_what_it_cannot_run(monkeypatch: pytest.MonkeyPatch) -> None:
    prefilled = FillProblem(make_grid(["A..", "...", "..."]), from_words(SIX_WORDS))
    assert "prefilled" in QxwSolver(binary="/bin/true").supports(prefilled)
    monkeypatch.setattr(qxw_module, "find_qxw", lambda: None)
    missing = QxwSolver()
    assert "not installed" in missing.available()
    result = missing.solve(FillProblem(make_grid(THREE_BY_THREE), from_words(SIX_WORDS)))
    assert result.status is Status.ERROR and "not installed" in result.notes["refused"]


# --- end to end ----------------------------------------------------------------

@pytest.mark.slow
def test_mobius_bench_quick_runs_every_solver_and_they_agree(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["bench", "--suite", "quick", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    saved = json.loads((tmp_path / "records.json").read_text(encoding="utf-8"))["records"]
    records = [Record(**r) for r in saved]
    assert check_agreement(records) == []
    quick: Suite = SUITES["quick"]
    assert {r.instance for r in records} == {i.name for i in quick.build(0)}
    assert any(r.family == SLIDER for r in records) and any(r.family == CROSSWORD for r in records)
    assert all(r.verified for r in records if r.status == "SOLVED")
    assert (tmp_path / "report.md").read_text(encoding="utf-8").count("| Solver |") == 2
    # `bench --out` checks the names of a run's files before it starts: every file written is one of them
    assert all(any(fnmatch(p.name, name) for name in RESULT_FILES) for p in tmp_path.iterdir())


def test_counters_read_as_whole_numbers_and_seconds_keep_their_decimals() -> None:
    runs = [record("a", f"i{n}", stats={"nodes": nodes, "setup_s": setup}) for n, (nodes, setup) in
            enumerate([(11, 0.25), (12, 0.5), (13, 0.75), (1_500, 1.25)])]
    row = counters_table(runs, ["a"]).splitlines()[2]
    # nodes: median 12.5 and mean 384 of counts; setup_s: median 0.625 and mean 0.6875 seconds.
    assert row == "| a | 12 | 384 | 0.625 | 0.688 | 0 | – |"
