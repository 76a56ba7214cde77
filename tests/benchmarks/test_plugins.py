"""Solvers from installed packages: the example plugin of docs/plugin-example, discovered from a .dist-info on
the path (no install, no network), is listed, fills from the CLI and runs in `mobius bench --grids` beside the
built-in solvers with the same verifier; a plugin that cannot be loaded is one line naming it; and the
example's search agrees with the reference solver on random grids."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings

from mobius.cpmodel.crossword.problem import FillProblem, FillRules
from mobius.cpmodel.crossword.verify import verify
from mobius.cpmodel.solver import Status, get_solver
from tests.crossword.test_fill_agreement import instances

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "plugin-example"
PACKAGE = "mobius_example_solver"
WORDS = "CAT\nORE\nWED\nCOW\nARE\nTED\nAGE\nTOE\n"
SQUARE = "...\n...\n...\n"


def site_with(tmp: Path, entries: str) -> Path:
    """A folder to put on PYTHONPATH holding the example package and a .dist-info declaring `entries`."""
    site = tmp / "site"
    shutil.copytree(EXAMPLE / PACKAGE, site / PACKAGE)
    info = site / "mobius_example_solver-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mobius-example-solver\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[mobius.solvers]\n{entries}")
    return site


def mobius(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(site), "HOME": str(cwd)}
    return subprocess.run([sys.executable, "-m", "mobius", *args], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=600)


def test_a_plugin_is_listed_fills_from_the_cli_and_runs_in_bench_beside_the_built_in_solvers(tmp_path: Path) -> None:
    site = site_with(tmp_path, 'crossword.firstfit = mobius_example_solver:FirstFitSolver\n')
    listed = mobius(site, "bench", "--list-solvers", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "firstfit     plugin mobius-example-solver (mobius_example_solver:FirstFitSolver)" in listed.stdout

    (tmp_path / "words.txt").write_text(WORDS)
    grids = tmp_path / "grids"
    grids.mkdir()
    (grids / "square.txt").write_text(SQUARE)
    (grids / "corner.txt").write_text("#..\n...\n...\n")
    filled = mobius(site, "crossword", "fill", str(grids / "square.txt"), "--dict", "words.txt", "--no-clues",
                    "--min-length", "3", "--solver", "firstfit", "--json", cwd=tmp_path)
    assert filled.returncode == 0, filled.stderr  # the CLI prints only a fill its verifier accepts
    assert json.loads(filled.stdout)["status"] == "SOLVED"

    run = mobius(site, "bench", "--grids", str(grids), "--dict", "words.txt", "--min-length", "3",
                 "--solvers", "reference,firstfit:max_nodes=10000", "--time-limit", "20", "--out", "out",
                 cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    records = json.loads((tmp_path / "out" / "records.json").read_text())["records"]
    assert {(r["instance"], r["solver"]) for r in records} == {
        (grid, solver) for grid in ("square", "corner") for solver in ("reference", "firstfit:max_nodes=10000")}
    assert all(r["verified"] for r in records if r["status"] == "SOLVED")
    report = (tmp_path / "out" / "report.md").read_text()
    assert "| firstfit:max_nodes=10000 | 2/2 |" in report and "| *virtual best* | 2/2 |" in report
    assert "PAR-2 s" in report


def test_a_plugin_that_cannot_be_loaded_is_one_line_naming_it(tmp_path: Path) -> None:
    site = site_with(tmp_path, "crossword.missing = mobius_example_solver:NoSuchSolver\n"
                               "crossword.notasolver = json:dumps\n")
    (tmp_path / "g.txt").write_text(SQUARE)
    (tmp_path / "words.txt").write_text(WORDS)
    for name, why in (("missing", "cannot be loaded"), ("notasolver", "is not a solver")):
        run = mobius(site, "crossword", "fill", "g.txt", "--dict", "words.txt", "--no-clues", "--solver", name,
                     cwd=tmp_path)
        assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1, run.stderr
        assert f"solver {name!r} of the installed plugin 'mobius-example-solver'" in run.stderr and why in run.stderr
    listed = mobius(site, "bench", "--list-solvers", cwd=tmp_path)  # the list goes on past a broken plugin
    assert listed.returncode == 0 and "missing" in listed.stdout and "cannot run here" in listed.stdout


@pytest.fixture(scope="module")
def first_fit() -> type:
    sys.path.insert(0, str(EXAMPLE))
    try:
        from mobius_example_solver import FirstFitSolver
    finally:
        sys.path.remove(str(EXAMPLE))
    return FirstFitSolver


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(instances())
def test_the_example_agrees_with_the_reference_on_random_grids(first_fit: type, problem: FillProblem) -> None:
    problem = FillProblem(problem.grid, problem.words, FillRules(min_length=2))
    assume(problem.lights.lights)
    expected = get_solver("crossword", "reference").solve(problem, time_limit=30).status
    result = first_fit().solve(problem, time_limit=30)
    assert result.status is expected
    if result.status is Status.SOLVED:
        assert verify(problem, result.solution) == []
