"""Round trips of `mobius export-instance`: each exported file is solved by a
real solver of its format — MiniZinc/Gecode for .mzn and .dzn (with the
shipped model), the XCSP3 solver ACE (the jar pycsp3 ships, run by Java) for
XCSP3, a pysat solver for DIMACS CNF — and the answer, mapped back through
the file's own naming (cell and light ids, the CNF's comment header), must
pass the project's independent verifier; a horizon below the optimum must
be unsatisfiable. Plus the command's bad-input errors."""

from __future__ import annotations

import glob
import importlib.util
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.problem import Fill, FillProblem, FillRules
from mobius.cpmodel.crossword.tables import ALPHABET, fill_tables
from mobius.cpmodel.crossword.verify import verify as verify_fill
from mobius.cpmodel.instances import crossword_instance, slider_instance
from mobius.cpmodel.instances.minizinc import MODELS
from mobius.cpmodel.slider.board import SliderProblem, default_goal, preset, random_walk
from mobius.cpmodel.slider.verify import verify as verify_moves
from mobius.cpmodel.solver import Status, get_solver
from mobius.dictionaries import from_words

ROOT = Path(__file__).resolve().parents[2]
RUN_LIMIT_S = 120
SUFFIXES = {"xcsp3": "xml"}  # ACE reads XCSP3 only from a .xml file
# A 4×4 grid with two blocks; 60 common four- and three-letter words and a
# few two-letter ones are enough for several fills.
GRID = ["#...", "....", "....", "...#"]
WORDS = ["ARE", "ERA", "EAR", "TEA", "ATE", "EAT", "TAR", "RAT", "ART", "STAR", "RATS", "ARTS", "TSAR",
         "SEAT", "EATS", "TEAS", "EAST", "SATE", "ETAS", "RATE", "TEAR", "TARE", "STARE", "ASTER", "RASE",
         "SEAR", "ERAS", "EARS", "ARES", "REST", "ERST", "TRES", "SET", "TES", "SAT", "TAS", "ATS", "RES",
         "ERS", "TRE", "EST", "ETA", "SEA", "SAE", "RET", "TER", "ERST", "ASTR", "TARS", "RETS", "ESTS",
         "TATE", "TEAT", "SETA", "SEER", "TREE", "RETE", "TEES", "ESES"]


def crossword_problem(allow_repeats: bool = False) -> FillProblem:
    return FillProblem(make_grid(GRID), from_words(WORDS), FillRules(min_length=3, allow_repeats=allow_repeats))


def slider_problem() -> SliderProblem:
    board = preset("grid:3x3")
    goal = default_goal(board)
    return SliderProblem(board, random_walk(board, goal, 16, random.Random(11)), goal)


def optimum(problem: SliderProblem) -> int:
    result = get_solver("slider", "bfs").solve(problem)
    assert result.status is Status.SOLVED
    return len(result.solution)


# --- the solvers of each format -------------------------------------------------

def need(program: str) -> str:
    path = shutil.which(program)
    if path is None:
        pytest.skip(f"{program} is not installed")
    return path


def run_minizinc(*files: Path) -> str | None:
    """The solution's text, or None when MiniZinc proves there is none."""
    run = subprocess.run([need("minizinc"), "--solver", "gecode", *map(str, files)], capture_output=True,
                         text=True, timeout=RUN_LIMIT_S)
    assert run.returncode == 0, run.stderr
    return None if "=====UNSATISFIABLE=====" in run.stdout else run.stdout


def minizinc_array(text: str, name: str) -> list[int]:
    body = re.search(rf"{name} = \[(.*?)\];", text, re.DOTALL)
    assert body, text
    return [int(v) for v in body.group(1).split(",")]


def ace_jar() -> str:
    spec = importlib.util.find_spec("pycsp3")  # located, not imported: importing pycsp3 starts a model
    jars = glob.glob(str(Path(spec.submodule_search_locations[0]) / "solvers" / "ace" / "ACE-*.jar")) if spec else []
    if not jars:
        pytest.skip("pycsp3 (which ships the ACE jar) is not installed")
    return jars[0]


def run_ace(path: Path) -> dict[str, int] | None:
    """ACE's solution as id -> value, or None when it proves there is none."""
    run = subprocess.run([need("java"), "-jar", ace_jar(), str(path)], capture_output=True, text=True,
                         timeout=RUN_LIMIT_S)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", run.stdout)  # ACE colours its output
    if re.search(r"^s UNSATISFIABLE", plain, re.MULTILINE):
        return None
    assert re.search(r"^s SATISFIABLE", plain, re.MULTILINE), plain[-2000:]
    found = re.search(r"<list>(.*?)</list>\s*<values>(.*?)</values>", plain, re.DOTALL)
    assert found, plain[-2000:]
    return dict(zip(found.group(1).split(), map(int, found.group(2).split())))


def run_pysat(path: Path) -> tuple[set[int] | None, list[str]]:
    """The true variables (None when unsatisfiable) and the comment lines."""
    if importlib.util.find_spec("pysat") is None:
        pytest.skip("python-sat is not installed")
    from pysat.formula import CNF
    from pysat.solvers import Solver

    formula = CNF(from_file=str(path))
    with Solver(name="cadical195", bootstrap_with=formula.clauses) as solver:
        if not solver.solve():
            return None, formula.comments
        return {v for v in solver.get_model() if v > 0}, formula.comments


# --- crosswords -----------------------------------------------------------------

def fill_from(problem: FillProblem, codes: list[int]) -> Fill:
    tables = fill_tables(problem)
    assert tables is not None
    return {**problem.grid.letters, **{cell: ALPHABET[c] for cell, c in zip(tables.cells, codes)}}


def test_mzn_crossword_is_solved_by_minizinc(tmp_path: Path) -> None:
    problem = crossword_problem()
    path = tmp_path / "fill.mzn"
    path.write_text(crossword_instance(problem, "mzn"))
    text = run_minizinc(path)
    assert text is not None
    assert verify_fill(problem, fill_from(problem, minizinc_array(text, "letter"))) == []


@pytest.mark.parametrize("full_tables", [False, True])
def test_dzn_crossword_runs_with_the_shipped_model(tmp_path: Path, full_tables: bool) -> None:
    problem = crossword_problem()
    path = tmp_path / "fill.dzn"
    path.write_text(crossword_instance(problem, "dzn", full_tables=full_tables))
    text = run_minizinc(ROOT / "cpmodel" / "models" / MODELS["crossword"], path)
    assert text is not None
    codes = minizinc_array(text, "letter")
    tables = fill_tables(problem, arc_consistent=not full_tables)
    fill = {cell: ALPHABET[c] for cell, c in zip(tables.cells, codes)}
    assert verify_fill(problem, fill) == []


@pytest.mark.parametrize("allow_repeats", [False, True])
def test_xcsp3_crossword_is_solved_by_ace(tmp_path: Path, allow_repeats: bool) -> None:
    problem = crossword_problem(allow_repeats)
    path = tmp_path / "fill.xml"
    path.write_text(crossword_instance(problem, "xcsp3"))
    values = run_ace(path)
    assert values is not None
    tables = fill_tables(problem)
    fill = {cell: ALPHABET[values[f"c{i}"]] for i, cell in enumerate(tables.cells)}
    assert verify_fill(problem, fill) == []


def test_cnf_crossword_maps_back_through_its_comments(tmp_path: Path) -> None:
    problem = crossword_problem()
    path = tmp_path / "fill.cnf"
    path.write_text(crossword_instance(problem, "cnf"))
    true_vars, comments = run_pysat(path)
    assert true_vars is not None
    fill: Fill = {}
    for line in comments:
        cell = re.match(r"c cell (\d+) (\d+): (.*)", line)
        if cell:
            for item in cell.group(3).split():
                letter, var = item.split("=")
                if int(var) in true_vars:
                    fill[(int(cell.group(1)), int(cell.group(2)))] = letter
    assert verify_fill(problem, fill) == []


def test_an_instance_the_tables_refute_is_an_input_error() -> None:
    from mobius.cpmodel.errors import InputError

    problem = FillProblem(make_grid(["..", ".."]), from_words(["AB", "CD"]))
    with pytest.raises(InputError, match="no fill exists"):
        crossword_instance(problem, "mzn")


# --- sliders --------------------------------------------------------------------

def blank_moves(values: dict[str, int], horizon: int) -> list[int]:
    return [values[f"b{t}"] for t in range(1, horizon + 1)]


@pytest.mark.parametrize("fmt", ["mzn", "dzn", "xcsp3", "cnf"])
def test_slider_at_the_optimal_horizon_is_solved_and_one_shorter_is_not(tmp_path: Path, fmt: str) -> None:
    problem = slider_problem()
    best = optimum(problem)
    for horizon, solvable in ((best, True), (best - 2, False)):
        path = tmp_path / f"slider-{horizon}.{SUFFIXES.get(fmt, fmt)}"
        path.write_text(slider_instance(problem, fmt, horizon=horizon))
        moves = solve_slider_file(path, fmt, horizon)
        assert (moves is not None) == solvable, (fmt, horizon)
        if moves is not None:
            assert len(moves) == horizon
            assert verify_moves(problem, moves) == []


def solve_slider_file(path: Path, fmt: str, horizon: int) -> list[int] | None:
    if fmt in ("mzn", "dzn"):
        files = [path] if fmt == "mzn" else [ROOT / "cpmodel" / "models" / MODELS["slider"], path]
        text = run_minizinc(*files)
        return None if text is None else [v - 1 for v in minizinc_array(text, "blank")]
    if fmt == "xcsp3":
        values = run_ace(path)
        return None if values is None else blank_moves(values, horizon)
    true_vars, comments = run_pysat(path)
    if true_vars is None:
        return None
    moves = []
    for line in comments:
        step = re.match(r"c move (\d+): (.*)", line)
        if step:
            chosen = [item for item in step.group(2).split() if int(item.split("=")[1]) in true_vars]
            assert len(chosen) == 1, line
            moves.append(int(chosen[0].split("->")[0]))
    return moves


# --- the command ----------------------------------------------------------------

def mobius(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobius", *map(str, args)], capture_output=True, text=True,
                          timeout=RUN_LIMIT_S)


def test_export_instance_writes_a_grid_and_a_board(tmp_path: Path) -> None:
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(GRID) + "\n")
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n")
    run = mobius("export-instance", grid, "--dict", words, "--min-length", "3", "--format", "xcsp3",
                 "--out", tmp_path / "out" / "grid.xml")
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "out" / "grid.xml").read_text().count("<extension>") == len(crossword_problem().lights.lights)
    run = mobius("export-instance", "grid:3x3", "--start", "1 2 3 4 0 5 6 7 8", "--format", "cnf",
                 "--horizon", "4", "--out", tmp_path / "board.cnf")
    assert run.returncode == 0, run.stderr
    assert "exactly 4 moves" in run.stdout
    assert (tmp_path / "board.cnf").read_text().splitlines()[0].startswith("c slider, exactly 4 moves")


@pytest.mark.parametrize("args,message", [
    (["missing-grid.txt", "--format", "mzn"], "missing-grid.txt"),
    (["grid:3x3", "--start", "1 2 3", "--format", "cnf"], "start has 3 entries"),
    (["grid:3x3", "--start", "1 2 3 4 0 5 6 7 8", "--format", "pddl"], "expected one of mzn, dzn, xcsp3, cnf"),
    (["grid:2x3", "--start", "2 0 0 3 4 5", "--format", "mzn"], "start"),
])
def test_export_instance_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    run = mobius("export-instance", *args, "--out", tmp_path / "x")
    assert run.returncode == 2
    assert message in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()
